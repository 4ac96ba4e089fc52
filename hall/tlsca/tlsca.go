// Package tlsca is the hall's own certificate authority: made at the
// hall's first start and kept in its data directory, it signs the
// certificate of the embedded broker's TLS listener (mqtts), so that a
// clock's password never crosses the club's network in clear.
//
// Nobody else trusts such a CA, and nobody needs to: a clock pins it by
// its fingerprint ([hall] fingerprint, protocol.Fingerprint), which the
// hall prints at start-up and shows on /arbiter. The CA stays as long as
// the data directory does, so the fingerprint on the clocks' config
// sticks stays good over restarts; the server certificate is made anew
// at every start, for the laptop's addresses of the moment.
//
// The files, in DIR (the data directory's tls/):
//
//	ca.crt      the CA's certificate (PEM): its SHA-256 is the fingerprint
//	ca.key      the CA's private key (PEM, PKCS #8, 0600)
//	server.crt  the broker's certificate and then the CA's (PEM)
//	server.key  the broker's private key (PEM, PKCS #8, 0600)
//
// server.crt and server.key are what a Mosquitto broker takes as its
// certfile and keyfile to serve the same CA. Keys are ECDSA P-256; every
// file is written whole (internal/atomicfile). A damaged or half-present
// CA is an error naming the file: the hall never makes a new CA over one
// it cannot read, since every clock pinned to the old one would be
// locked out.
package tlsca

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// The files in the CA's directory.
const (
	CAFile     = "ca.crt"
	CAKeyFile  = "ca.key"
	ServerFile = "server.crt"
	ServerKey  = "server.key"
)

// Validity of what the CA makes. The CA lasts long enough to outlive any
// club's laptop; the server certificate is made at every start.
const (
	caValidity     = 20 * 365 * 24 * time.Hour
	serverValidity = 2 * 365 * 24 * time.Hour
	backdate       = time.Hour // against a laptop whose clock is a little behind
)

// CA is the hall's certificate authority.
type CA struct {
	Dir  string            // where its files are
	Cert *x509.Certificate // the CA's certificate
	key  crypto.Signer
}

// Open opens the CA in dir, making dir, the CA's key and certificate the
// first time. name is what the certificate calls the CA (the hall's
// name). now is the time of the certificates' validity.
func Open(dir, name string, now time.Time) (*CA, error) {
	crt, key := filepath.Join(dir, CAFile), filepath.Join(dir, CAKeyFile)
	_, errC := os.Lstat(crt)
	_, errK := os.Lstat(key)
	switch {
	case errors.Is(errC, fs.ErrNotExist) && errors.Is(errK, fs.ErrNotExist):
		return create(dir, name, now)
	case errors.Is(errK, fs.ErrNotExist):
		return nil, fmt.Errorf("tls: %s is there but its key %s is missing: restore it from a backup, or remove %s to make a new CA (every clock then needs the new fingerprint)", crt, key, crt)
	case errors.Is(errC, fs.ErrNotExist):
		return nil, fmt.Errorf("tls: %s is there but its certificate %s is missing: restore it from a backup, or remove %s to make a new CA (every clock then needs the new fingerprint)", key, crt, key)
	}
	cert, err := readCert(crt)
	if err != nil {
		return nil, err
	}
	signer, err := readKey(key)
	if err != nil {
		return nil, err
	}
	if !publicEqual(signer.Public(), cert.PublicKey) {
		return nil, fmt.Errorf("tls: %s is not the key of %s", key, crt)
	}
	if !cert.IsCA {
		return nil, fmt.Errorf("tls: %s is no CA certificate", crt)
	}
	return &CA{Dir: dir, Cert: cert, key: signer}, nil
}

// Fingerprint is the CA's fingerprint, which the clocks pin.
func (ca *CA) Fingerprint() protocol.Fingerprint { return protocol.FingerprintOf(ca.Cert.Raw) }

// Server makes the broker's certificate for hosts (names and IP
// addresses), signed by the CA, and writes it with its key to
// server.crt and server.key. The certificate chain holds the CA's
// certificate after the server's, so that a clock sees the CA it pins.
func (ca *CA) Server(hosts []string, now time.Time) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tls: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "zeitnot hall broker", Organization: ca.Cert.Subject.Organization},
		NotBefore:    now.Add(-backdate),
		NotAfter:     now.Add(serverValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(tmpl.IPAddresses, ip.Equal) {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
		} else if h != "" && !slices.Contains(tmpl.DNSNames, h) {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tls: the server certificate: %v", err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("tls: %v", err)
	}
	chain := append(pemBlock("CERTIFICATE", der), pemBlock("CERTIFICATE", ca.Cert.Raw)...)
	if err := atomicfile.WriteFile(filepath.Join(ca.Dir, ServerKey), pemBlock("PRIVATE KEY", kd), 0o600); err != nil {
		return tls.Certificate{}, fmt.Errorf("tls: %v", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(ca.Dir, ServerFile), chain, 0o644); err != nil {
		return tls.Certificate{}, fmt.Errorf("tls: %v", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der, ca.Cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}

// Hosts are the names and addresses a server certificate made now should
// hold: localhost, the loopback addresses, the laptop's host name (and
// NAME.local, as mDNS gives it) and every address of its interfaces.
func Hosts() []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if h, err := os.Hostname(); err == nil && h != "" {
		hosts = append(hosts, h, h+".local")
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() {
				hosts = append(hosts, n.IP.String())
			}
		}
	}
	return hosts
}

// create makes a new CA in dir.
func create(dir, name string, now time.Time) (*CA, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "zeitnot hall " + name + " CA", Organization: []string{"zeitnot hall " + name}},
		NotBefore:             now.Add(-backdate),
		NotAfter:              now.Add(caValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("tls: the CA: %v", err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	// The key first: a crash between the two leaves a key without its
	// certificate, which Open refuses naming both, rather than a
	// certificate whose key is lost.
	if err := atomicfile.WriteFile(filepath.Join(dir, CAKeyFile), pemBlock("PRIVATE KEY", kd), 0o600); err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, CAFile), pemBlock("CERTIFICATE", der), 0o644); err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &CA{Dir: dir, Cert: cert, key: key}, nil
}

func readCert(path string) (*x509.Certificate, error) {
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 1 << 20, NoFollow: true})
	if err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("tls: %s: no PEM certificate in it (damaged? restore it from a backup)", path)
	}
	cert, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("tls: %s: not an X.509 certificate (damaged? restore it from a backup)", path)
	}
	return cert, nil
}

func readKey(path string) (crypto.Signer, error) {
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 1 << 20, NoFollow: true})
	if err != nil {
		return nil, fmt.Errorf("tls: %v", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("tls: %s: no PEM private key in it (damaged? restore it from a backup)", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("tls: %s: not a PKCS #8 private key (damaged? restore it from a backup)", path)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("tls: %s: a %T cannot sign", path, k)
	}
	return s, nil
}

func publicEqual(a, b crypto.PublicKey) bool {
	e, ok := a.(interface{ Equal(crypto.PublicKey) bool })
	return ok && e.Equal(b)
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n.Add(n, big.NewInt(1))
}
