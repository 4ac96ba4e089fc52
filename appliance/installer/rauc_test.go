package installer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/needtool"
)

// TestRealRauc: Exec against RAUC itself, with a bundle signed here: the
// manifest's compatible and version from rauc info's JSON, and a bundle
// signed by another key refused with RAUC's reason.
func TestRealRauc(t *testing.T) {
	rauc := needtool.Path(t, "apt-get install rauc", "rauc")
	openssl := needtool.Path(t, "apt-get install openssl", "openssl")
	dir := t.TempDir()
	run := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	key := func(cn string) (string, string) {
		k, c := filepath.Join(dir, cn+".key"), filepath.Join(dir, cn+".pem")
		run(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", k, "-out", c, "-subj", "/CN="+cn, "-days", "30")
		return k, c
	}
	k, c := key("club")
	_, other := key("other")
	content := filepath.Join(dir, "content")
	os.Mkdir(content, 0o755)
	os.WriteFile(filepath.Join(content, "root.img"), []byte("root"), 0o644)
	os.WriteFile(filepath.Join(content, "manifest.raucm"), []byte("[update]\ncompatible=zeitnot-rpi-arm64\nversion=1.4.0\nbuild=1700000000\n\n[image.rootfs]\nfilename=root.img\n"), 0o644)
	bundle := filepath.Join(dir, "zeitnot-1.4.0-arm64.raucb")
	run(rauc, "bundle", "--cert", c, "--key", k, content, bundle)

	info, err := Exec{Rauc: rauc, Keyring: c}.Info(context.Background(), bundle)
	if err != nil || info.Compatible != "zeitnot-rpi-arm64" || info.Version != "1.4.0" {
		t.Errorf("info %+v, %v", info, err)
	}
	_, err = Exec{Rauc: rauc, Keyring: other}.Info(context.Background(), bundle)
	if err == nil || !strings.HasPrefix(err.Error(), "its signature is not from this clock's key: ") {
		t.Errorf("another key: %v", err)
	}
	t.Logf("another key: %v", err)
}
