package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/needtool"
	"github.com/zeitnot/zeitnot/internal/repocheck"
)

const testVersion = "v0.0.0-test"

var testName = "zeitnot-" + testVersion + "-rpi-arm64"

// need skips the test when a program the release needs is missing.
func need(t *testing.T, progs ...string) {
	t.Helper()
	for _, p := range progs {
		needtool.Path(t, "apt-get install minisign xz-utils coreutils", p)
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := run(t, dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// fakeRelease makes a small fake image (1 MiB, not a real one), its .xz
// and a .bmap in a new directory, and a throwaway key pair, and returns
// the directory, the raw image's bytes and the key files.
func fakeRelease(t *testing.T) (in string, img []byte, sec, pub string) {
	t.Helper()
	dir := t.TempDir()
	in = filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	img = make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img[:64<<10] { // compressible: mostly zeros, like an image
		img[i] = byte(r.Uint32())
	}
	raw := filepath.Join(in, testName+".img")
	if err := os.WriteFile(raw, img, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, in, nil, "xz", "-3", raw) // leaves NAME.img.xz
	if err := os.WriteFile(filepath.Join(in, testName+".bmap"), []byte("<?xml version=\"1.0\" ?>\n<bmap version=\"2.0\"></bmap>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sec, pub = filepath.Join(dir, "test.key"), filepath.Join(dir, "test.pub")
	mustRun(t, dir, nil, "minisign", "-G", "-W", "-p", pub, "-s", sec)
	return in, img, sec, pub
}

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// The whole signing path on a fake image: the files, SHA256SUMS that
// sha256sum -c accepts, a signature minisign verifies with the key's
// public half and that fails on a changed file, and an Imager repository
// whose URL comes from ZEITNOT_RELEASE_URL.
func TestReleaseSignsAndVerifies(t *testing.T) {
	need(t, "minisign", "xz", "sha256sum")
	in, img, sec, pub := fakeRelease(t)
	out := filepath.Join(filepath.Dir(in), "release")
	const url = "https://club.example/zeitnot/" + testVersion
	env := []string{"ZEITNOT_SIGNING_KEY=" + sec, "ZEITNOT_SIGNING_PUBKEY=" + pub, "ZEITNOT_RELEASE_URL=" + url + "/", "SOURCE_DATE_EPOCH=1767225600"}
	mustRun(t, ".", env, "./release.sh", "--version", testVersion, "--in", in, "--out", out)

	for _, f := range []string{testName + ".img.xz", testName + ".bmap", "SHA256SUMS", "SHA256SUMS.minisig", testName + ".os_list.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the release has no %s: %v", f, err)
		}
	}
	if _, err := os.Stat(out + ".tmp"); err == nil {
		t.Errorf("%s.tmp was left behind", out)
	}
	mustRun(t, out, nil, "sha256sum", "-c", "SHA256SUMS")
	verify := mustRun(t, out, nil, "minisign", "-V", "-p", pub, "-m", "SHA256SUMS")
	if !strings.Contains(verify, "zeitnot "+testVersion) {
		t.Errorf("the trusted comment does not name the version:\n%s", verify)
	}

	// The Imager repository.
	_, xz := checkList(t, out, img, url)

	// A changed image fails the sums; a changed SHA256SUMS fails the signature.
	xz[len(xz)/2] ^= 1
	if err := os.WriteFile(filepath.Join(out, testName+".img.xz"), xz, 0o644); err != nil {
		t.Fatal(err)
	}
	if o, err := run(t, out, nil, "sha256sum", "-c", "SHA256SUMS"); err == nil {
		t.Errorf("sha256sum -c accepted a changed image:\n%s", o)
	}
	sums, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	// As an attacker would: the changed image's sum in place of the old one.
	forged := bytes.Replace(sums, sums[:64], []byte(sum(xz)), 1)
	if bytes.Equal(forged, sums) {
		t.Fatal("the forged SHA256SUMS is the same")
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	if o, err := run(t, out, nil, "minisign", "-V", "-p", pub, "-m", "SHA256SUMS"); err == nil {
		t.Errorf("minisign verified a changed SHA256SUMS:\n%s", o)
	}
}

// Signing with a key that is not the public key's, or with no key, fails
// with a message that says so, and leaves no release behind.
func TestReleaseRefuses(t *testing.T) {
	need(t, "minisign", "xz", "sha256sum")
	in, _, sec, pub := fakeRelease(t)
	dir := filepath.Dir(in)
	other := filepath.Join(dir, "other.key")
	mustRun(t, dir, nil, "minisign", "-G", "-W", "-p", filepath.Join(dir, "other.pub"), "-s", other)
	url := "ZEITNOT_RELEASE_URL=https://club.example/z"
	for _, tc := range []struct {
		what string
		env  []string
		says string
	}{
		{"no key", []string{"ZEITNOT_SIGNING_KEY=", "ZEITNOT_SIGNING_PUBKEY=" + pub, url}, "ZEITNOT_SIGNING_KEY is not set"},
		{"a missing key", []string{"ZEITNOT_SIGNING_KEY=" + filepath.Join(dir, "none.key"), "ZEITNOT_SIGNING_PUBKEY=" + pub, url}, "no such readable file"},
		{"another key", []string{"ZEITNOT_SIGNING_KEY=" + other, "ZEITNOT_SIGNING_PUBKEY=" + pub, url}, "does not verify"},
		{"no URL", []string{"ZEITNOT_SIGNING_KEY=" + sec, "ZEITNOT_SIGNING_PUBKEY=" + pub, "ZEITNOT_RELEASE_URL="}, "ZEITNOT_RELEASE_URL is not set"},
		{"the project's key, not this one", []string{"ZEITNOT_SIGNING_KEY=" + sec, "ZEITNOT_SIGNING_PUBKEY=", url}, "does not verify"},
	} {
		out := filepath.Join(dir, "release")
		o, err := run(t, ".", tc.env, "./release.sh", "--version", testVersion, "--in", in, "--out", out)
		if err == nil {
			t.Errorf("%s: release.sh succeeded:\n%s", tc.what, o)
		}
		if !strings.Contains(o, tc.says) {
			t.Errorf("%s: release.sh said %q, want it to say %q", tc.what, o, tc.says)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a release was left in %s", tc.what, out)
		}
	}
}

// The project's public key is a minisign public key, and docs/building.md
// ("Check it before flashing") shows the same one.
func TestPublicKeyInDocs(t *testing.T) {
	pub, err := os.ReadFile("zeitnot.pub")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(pub)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "untrusted comment: ") || !strings.HasPrefix(lines[1], "RW") {
		t.Fatalf("zeitnot.pub is not a minisign public key:\n%s", pub)
	}
	if !strings.Contains(repocheck.Read(t, "docs/building.md"), lines[1]) {
		t.Errorf("docs/building.md does not show the public key %s", lines[1])
	}
}

// A secret key with a password signs with ZEITNOT_SIGNING_PASSWORD, and
// is refused with a wrong one. (10-30 s: minisign derives the key from
// the password three times.)
func TestReleaseKeyWithPassword(t *testing.T) {
	if testing.Short() {
		t.Skip("minisign's password hashing takes seconds a key")
	}
	need(t, "minisign", "xz", "sha256sum")
	in, _, _, _ := fakeRelease(t)
	dir := filepath.Dir(in)
	sec, pub := filepath.Join(dir, "pw.key"), filepath.Join(dir, "pw.pub")
	gen := exec.Command("minisign", "-G", "-p", pub, "-s", sec)
	gen.Stdin = strings.NewReader("throwaway\nthrowaway\n")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("minisign -G: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "release")
	base := []string{"ZEITNOT_SIGNING_KEY=" + sec, "ZEITNOT_SIGNING_PUBKEY=" + pub, "ZEITNOT_RELEASE_URL=https://club.example/z"}
	if o, err := run(t, ".", append(base, "ZEITNOT_SIGNING_PASSWORD=wrong"), "./release.sh", "--version", testVersion, "--in", in, "--out", out); err == nil {
		t.Errorf("signed with a wrong password:\n%s", o)
	}
	mustRun(t, ".", append(base, "ZEITNOT_SIGNING_PASSWORD=throwaway"), "./release.sh", "--version", testVersion, "--in", in, "--out", out)
	mustRun(t, out, nil, "minisign", "-V", "-p", pub, "-m", "SHA256SUMS")
}

// A release with an update bundle: its CMS signature is checked against
// the keyring certificate, and SHA256SUMS (signed) lists it; a bundle
// signed by another key stops the release.
func TestReleaseSignsTheBundle(t *testing.T) {
	need(t, "minisign", "xz", "sha256sum")
	needtool.Path(t, "apt-get install rauc squashfs-tools openssl", "rauc")
	needtool.Path(t, "apt-get install rauc squashfs-tools openssl", "mksquashfs")
	needtool.Path(t, "apt-get install rauc squashfs-tools openssl", "openssl")
	in, _, sec, pub := fakeRelease(t)
	dir := filepath.Dir(in)
	key := func(name string) (string, string) {
		k, c := filepath.Join(dir, name+".key"), filepath.Join(dir, name+".pem")
		mustRun(t, dir, nil, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN="+name, "-keyout", k, "-out", c)
		return k, c
	}
	bkey, bcert := key("bundle")
	okey, ocert := key("other")
	content := filepath.Join(dir, "content")
	os.Mkdir(content, 0o755)
	os.WriteFile(filepath.Join(content, "root.ext4"), make([]byte, 4096), 0o644)
	os.WriteFile(filepath.Join(content, "manifest.raucm"), []byte("[update]\ncompatible=zeitnot-rpi-arm64\nversion="+testVersion+"\nbuild=1\n\n[bundle]\nformat=plain\n\n[image.rootfs]\nfilename=root.ext4\n"), 0o644)
	bundle := filepath.Join(in, testName+".raucb")
	mustRun(t, dir, nil, "rauc", "bundle", "--cert="+bcert, "--key="+bkey, content, bundle)

	out := filepath.Join(dir, "release")
	env := []string{"ZEITNOT_SIGNING_KEY=" + sec, "ZEITNOT_SIGNING_PUBKEY=" + pub, "ZEITNOT_RELEASE_URL=https://club.example/z",
		"ZEITNOT_BUNDLE_KEY=" + bkey, "ZEITNOT_BUNDLE_CERT=" + bcert}
	mustRun(t, ".", env, "./release.sh", "--version", testVersion, "--in", in, "--out", out)
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), "  "+testName+".raucb\n") {
		t.Fatalf("SHA256SUMS does not list the bundle: %v\n%s", err, sums)
	}
	mustRun(t, out, nil, "sha256sum", "-c", "SHA256SUMS")
	mustRun(t, out, nil, "minisign", "-V", "-p", pub, "-m", "SHA256SUMS")

	// The image's keyring is another certificate: no release.
	os.RemoveAll(out)
	env = append(env[:3], "ZEITNOT_BUNDLE_KEY="+okey, "ZEITNOT_BUNDLE_CERT="+ocert)
	o, err := run(t, ".", env, "./release.sh", "--version", testVersion, "--in", in, "--out", out)
	if err == nil || !strings.Contains(o, "does not verify against") {
		t.Errorf("a bundle the keyring does not verify: err %v, said %q", err, o)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a release was left behind")
	}
}
