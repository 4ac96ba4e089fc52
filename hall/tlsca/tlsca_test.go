package tlsca

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 4, 18, 9, 0, 0, 0, time.UTC)

// The CA survives a restart: the same fingerprint from the same files;
// the server certificate it signs verifies against it for every host.
func TestOpenKeepsTheCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	ca, err := Open(dir, "club", now)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir, "club", now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if again.Fingerprint() != ca.Fingerprint() {
		t.Errorf("fingerprint %s after a restart, was %s", again.Fingerprint(), ca.Fingerprint())
	}
	for _, f := range []string{CAKeyFile, CAFile} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == CAKeyFile && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", f, fi.Mode().Perm())
		}
	}
	cert, err := again.Server([]string{"localhost", "127.0.0.1", "192.168.1.10", "hall-laptop.local", "127.0.0.1"}, now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(cert.Certificate) != 2 || string(cert.Certificate[1]) != string(ca.Cert.Raw) {
		t.Errorf("the chain is not the server's and then the CA's")
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	for _, h := range []string{"localhost", "127.0.0.1", "192.168.1.10", "hall-laptop.local"} {
		if _, err := cert.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: h, CurrentTime: now.Add(49 * time.Hour)}); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, ServerKey)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("server.key: %v %v", fi, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ServerFile))
	if strings.Count(string(b), "BEGIN CERTIFICATE") != 2 {
		t.Errorf("server.crt holds %d certificates, want the server's and the CA's", strings.Count(string(b), "BEGIN CERTIFICATE"))
	}
}

// A damaged or missing file of the CA is an error naming the file, and
// the hall makes no new CA over it.
func TestOpenDamaged(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(dir string)
		want   string
	}{
		{"key damaged", func(dir string) { os.WriteFile(filepath.Join(dir, CAKeyFile), []byte("-----BEGIN PRIV"), 0o600) }, "tls: DIR/ca.key: no PEM private key in it (damaged? restore it from a backup)"},
		{"key garbled", func(dir string) {
			os.WriteFile(filepath.Join(dir, CAKeyFile), pemBlock("PRIVATE KEY", []byte("nonsense")), 0o600)
		}, "tls: DIR/ca.key: not a PKCS #8 private key (damaged? restore it from a backup)"},
		{"certificate damaged", func(dir string) { os.WriteFile(filepath.Join(dir, CAFile), []byte("x"), 0o600) }, "tls: DIR/ca.crt: no PEM certificate in it"},
		{"key missing", func(dir string) { os.Remove(filepath.Join(dir, CAKeyFile)) }, "tls: DIR/ca.crt is there but its key DIR/ca.key is missing"},
		{"certificate missing", func(dir string) { os.Remove(filepath.Join(dir, CAFile)) }, "tls: DIR/ca.key is there but its certificate DIR/ca.crt is missing"},
		{"another key", func(dir string) {
			other := filepath.Join(dir, "other")
			Open(other, "x", now)
			b, _ := os.ReadFile(filepath.Join(other, CAKeyFile))
			os.WriteFile(filepath.Join(dir, CAKeyFile), b, 0o600)
		}, "tls: DIR/ca.key is not the key of DIR/ca.crt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := Open(dir, "club", now); err != nil {
				t.Fatal(err)
			}
			tt.break_(dir)
			before, _ := os.ReadFile(filepath.Join(dir, CAFile))
			_, err := Open(dir, "club", now)
			want := strings.ReplaceAll(tt.want, "DIR", dir)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%v, want %s", err, want)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, CAFile)); string(after) != string(before) {
				t.Error("the CA's certificate changed")
			}
		})
	}
}
