package halltable

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// certOf makes a certificate for name, signed by parent's key (itself
// when parent is nil), valid from notBefore for a day.
func certOf(t *testing.T, name string, ca bool, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, notBefore time.Time) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name}, NotBefore: notBefore, NotAfter: notBefore.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(10, 0, 0, 2)}}
	if ca {
		tmpl.IsCA, tmpl.BasicConstraintsValid, tmpl.KeyUsage, tmpl.ExtKeyUsage = true, true, x509.KeyUsageCertSign, nil
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	return c, key
}

// The pin: the broker's own certificate, or a CA it sends that signed
// it. A broker that sends the hall's CA (it is public) after a
// certificate of its own is refused.
func TestPinned(t *testing.T) {
	now := time.Now().Add(-time.Hour)
	ca, caKey := certOf(t, "hall CA", true, nil, nil, now)
	leaf, _ := certOf(t, "hall broker", false, ca, caKey, now)
	other, otherKey := certOf(t, "other CA", true, nil, nil, now)
	forged, _ := certOf(t, "hall broker", false, other, otherKey, now)
	self, _ := certOf(t, "a broker", false, nil, nil, now)
	then := time.Date(2020, 3, 1, 9, 0, 0, 0, time.UTC) // both long expired
	oldCA, oldKey := certOf(t, "hall CA of 2020", true, nil, nil, then)
	old, _ := certOf(t, "hall broker of 2020", false, oldCA, oldKey, then.Add(time.Hour))
	pin := protocol.FingerprintOf(ca.Raw)
	tests := []struct {
		name  string
		pin   protocol.Fingerprint
		chain []*x509.Certificate
		want  string // "" for accepted
	}{
		{"the hall's CA after its certificate", pin, []*x509.Certificate{leaf, ca}, ""},
		{"the broker's own certificate pinned", protocol.FingerprintOf(self.Raw), []*x509.Certificate{self}, ""},
		{"the dates are not checked", protocol.FingerprintOf(oldCA.Raw), []*x509.Certificate{old, oldCA}, ""},
		{"the hall's CA after a certificate it did not sign", pin, []*x509.Certificate{forged, ca}, "TLS: the broker's certificate is not signed by the CA hall.fingerprint pins"},
		{"another CA", pin, []*x509.Certificate{forged, other}, "TLS: the broker's certificate has fingerprint " + protocol.FingerprintOf(other.Raw).String() + ", hall.fingerprint wants " + pin.String()},
		{"no CA sent", pin, []*x509.Certificate{leaf}, "TLS: the broker's certificate has fingerprint " + protocol.FingerprintOf(leaf.Raw).String() + ", hall.fingerprint wants"},
		{"nothing sent", pin, nil, "TLS: the broker sent no certificate"},
	}
	for _, tt := range tests {
		var raw [][]byte
		for _, c := range tt.chain {
			raw = append(raw, c.Raw)
		}
		err := pinned(tt.pin)(raw, nil)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
		var fe *FingerprintError
		if tt.want != "" && strings.Contains(tt.want, "wants") != errors.As(err, &fe) {
			t.Errorf("%s: %T", tt.name, err)
		}
	}
}
