package link_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
)

// pki makes certificates for a test: a CA and what it signs.
type pki struct {
	t    *testing.T
	dir  string
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	File string // the CA certificate, PEM
}

var serial int64

func newCA(t *testing.T, dir, name string) *pki {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial++
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := &pki{t: t, dir: dir, cert: cert, key: key, File: filepath.Join(dir, name+".crt")}
	writePEM(t, p.File, "CERTIFICATE", der)
	return p
}

// issue signs a certificate for name (a server if ip is set, else a
// client) and returns its certificate and key files.
func (p *pki) issue(name string, ip net.IP) (certFile, keyFile string) {
	p.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		p.t.Fatal(err)
	}
	serial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &key.PublicKey, p.key)
	if err != nil {
		p.t.Fatal(err)
	}
	kd, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		p.t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(p.dir, name+".crt"), filepath.Join(p.dir, name+".key")
	writePEM(p.t, certFile, "CERTIFICATE", der)
	writePEM(p.t, keyFile, "EC PRIVATE KEY", kd)
	return certFile, keyFile
}

func writePEM(t *testing.T, path, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

func tlsRig(t *testing.T, clientCA bool) (r *rig, good, wrong *pki) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a mosquitto broker: not with -short")
	}
	linktest.Mosquitto(t)
	dir := t.TempDir()
	good, wrong = newCA(t, dir, "hall-ca"), newCA(t, dir, "other-ca")
	cert, key := good.issue("broker", net.IPv4(127, 0, 0, 1))
	bo := linktest.BrokerOpts{CertFile: cert, KeyFile: key}
	if clientCA {
		bo.ClientCAFile = good.File
	}
	return newRig(t, bo), good, wrong
}

func (r *rig) tlsConfig(ca string) link.Config {
	c := r.config()
	c.CAFile = ca
	if c.Broker.Scheme != "mqtts" {
		r.t.Fatalf("broker %s is not TLS", c.Broker)
	}
	return c
}

func TestTLSWrongCARefused(t *testing.T) {
	r, good, wrong := tlsRig(t, false)
	r.start(r.tlsConfig(wrong.File), testOpts())
	waitFor(t, 10*time.Second, "two failed attempts", func() bool { return r.link.Status().Attempts >= 2 })
	st := r.link.Status()
	if st.BrokerUp || st.BrokerErr == nil ||
		!strings.Contains(st.BrokerErr.Error(), "TLS: the broker's certificate is not signed by a CA in hall.ca_file "+wrong.File) {
		t.Errorf("status: %v", st)
	}
	r.stop()

	// The right CA: the link connects and publishes over TLS.
	r.start(r.tlsConfig(good.File), testOpts())
	waitFor(t, 10*time.Second, "the link connected", func() bool { return r.link.Status().BrokerUp })
}

func TestTLSClientCertificate(t *testing.T) {
	r, good, _ := tlsRig(t, true)
	c := r.tlsConfig(good.File)
	r.start(c, testOpts())
	waitFor(t, 10*time.Second, "a failed attempt without a client certificate", func() bool { return r.link.Status().Attempts >= 1 })
	// TLS 1.3 tells of the refusal with an alert or a reset, depending
	// on timing; either way the message names the missing certificate.
	if !r.logs.has("client certificate") || !r.logs.has("hall.cert_file and hall.key_file") {
		t.Errorf("log: %q", r.logs.all())
	}
	r.stop()

	c.CertFile, c.KeyFile = good.issue("board12", nil)
	r.start(c, testOpts())
	waitFor(t, 10*time.Second, "the link connected with its certificate", func() bool { return r.link.Status().BrokerUp })
	r.press(0, "black")
	waitFor(t, 10*time.Second, "the log sent", func() bool {
		st := r.link.Status()
		return st.Acked == int64(len(r.clock.Lines(r.clock.Game())))
	})
}

func TestTLSFilesCheckedAtStart(t *testing.T) {
	dir := t.TempDir()
	u, _ := url.Parse("mqtts://127.0.0.1:8883")
	junk := filepath.Join(dir, "junk.pem")
	os.WriteFile(junk, []byte("not a certificate\n"), 0o600)
	tests := []struct {
		cfg  link.Config
		want string
	}{
		{link.Config{CAFile: filepath.Join(dir, "missing.pem")}, "hall.ca_file: open " + dir + "/missing.pem: no such file or directory"},
		{link.Config{CAFile: junk}, "hall.ca_file: " + junk + ": no PEM certificate in it"},
		{link.Config{CAFile: dir}, "hall.ca_file: open " + dir + ": not a regular file (a directory)"},
		{link.Config{CertFile: junk, KeyFile: junk}, "hall.cert_file " + junk + ", key_file " + junk + ": tls: failed to find any PEM data in certificate input"},
	}
	for _, tt := range tests {
		tt.cfg.File, tt.cfg.Broker, tt.cfg.Hall, tt.cfg.Board = "zeitnot.toml", u, "club", 1
		_, err := link.New(tt.cfg, nil)
		if err == nil || err.Error() != "link: zeitnot.toml: "+tt.want {
			t.Errorf("%+v: %v, want %s", tt.cfg, err, tt.want)
		}
	}
}

// mqtts:// to a broker port that speaks plain MQTT said to check the
// client certificate; it says what is wrong now.
func TestTLSToPlainBroker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a mosquitto broker: not with -short")
	}
	linktest.Mosquitto(t)
	r := newRig(t, linktest.BrokerOpts{})
	c := r.config()
	u := *c.Broker
	u.Scheme = "mqtts"
	c.Broker = &u
	r.start(c, testOpts())
	waitFor(t, 10*time.Second, "two failed attempts", func() bool { return r.link.Status().Attempts >= 2 })
	st := r.link.Status()
	if st.BrokerUp || st.BrokerErr == nil || !strings.Contains(st.BrokerErr.Error(), "speaks plain MQTT, not TLS: use mqtt://") {
		t.Errorf("status: %v", st)
	}
	r.stop()
}
