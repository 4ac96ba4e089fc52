package broker

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
)

// selfSigned makes a certificate for 127.0.0.1 and the pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hall"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func TestTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	rec := &recorder{}
	b, err := StartEmbedded(Opts{TLSAddr: "127.0.0.1:0", Hall: "test", Receive: rec.receive, Logf: t.Logf,
		TLS:   &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		Users: map[string]User{"board2": {Board: 2, Hash: HashSHA256("pw-2")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	dial := func(scheme string, tc *tls.Config) error {
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		c, err := fakeclock.Dial(ctx, fakeclock.Opts{Broker: &url.URL{Scheme: scheme, Host: b.TLSAddr()}, Hall: "test", Board: 2, Username: "board2", Password: "pw-2", TLS: tc})
		if err == nil {
			c.Close()
		}
		return err
	}
	if err := dial("mqtts", &tls.Config{RootCAs: pool}); err != nil {
		t.Errorf("TLS with the right CA: %v", err)
	}
	if dial("mqtt", nil) == nil {
		t.Error("plain TCP to the TLS listener connected")
	}
	if dial("mqtts", &tls.Config{}) == nil {
		t.Error("a certificate from an unknown CA was accepted")
	}
	if b.Addr() != "" {
		t.Errorf("a plain listener on %s with only TLSAddr given", b.Addr())
	}
}

// Both listeners at once: plain MQTT and TLS, each with its own address,
// the same users and the same intake.
func TestPlainAndTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	rec := &recorder{}
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", TLSAddr: "127.0.0.1:0", Hall: "test", Receive: rec.receive, Logf: t.Logf,
		TLS:   &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		Users: map[string]User{"board2": {Board: 2, Hash: HashSHA256("pw-2")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Addr() == b.TLSAddr() || b.Addr() == "" || b.TLSAddr() == "" {
		t.Fatalf("plain %q, TLS %q", b.Addr(), b.TLSAddr())
	}
	for _, d := range []struct {
		scheme, addr string
		tc           *tls.Config
	}{{"mqtt", b.Addr(), nil}, {"mqtts", b.TLSAddr(), &tls.Config{RootCAs: pool}}} {
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		c, err := fakeclock.Dial(ctx, fakeclock.Opts{Broker: &url.URL{Scheme: d.scheme, Host: d.addr}, Hall: "test", Board: 2, Username: "board2", Password: "pw-2", TLS: d.tc})
		cancel()
		if err != nil {
			t.Errorf("%s://%s: %v", d.scheme, d.addr, err)
			continue
		}
		c.Close()
	}
	if open, _ := b.Conns(); open > 2 {
		t.Errorf("%d connections open", open)
	}
}
