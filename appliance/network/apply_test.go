package network

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// tree lists the regular files and links under dir with their modes.
func tree(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	got := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = info.Mode()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func filesOf(t *testing.T, toml string) []File {
	t.Helper()
	c, err := Parse("zeitnot.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(c)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

const fullTOML = "[network]\nntp = \"arbiter.local\"\n[network.wifi]\nssid = \"Club\"\npassphrase = \"correct horse\"\ncountry = \"DE\"\n"

func TestApply(t *testing.T) {
	out := t.TempDir()
	// Someone else's files in the same directories stay.
	if err := os.MkdirAll(filepath.Join(out, "systemd/network"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(out, "systemd/network/10-other.network")
	if err := os.WriteFile(other, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	old := syscall.Umask(0o077) // Apply sets the modes itself
	defer syscall.Umask(old)
	files := filesOf(t, fullTOML)
	if err := Apply(out, files); err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{
		"systemd":                          fs.ModeDir | 0o755,
		"systemd/network":                  fs.ModeDir | 0o755,
		"systemd/network/10-other.network": 0o644,
		EthernetFile:                       0o644,
		WiFiFile:                           0o644,
		"zeitnot-network":                  fs.ModeDir | 0o755,
		WPAFile:                            0o600,
		"systemd/timesyncd.conf.d":         fs.ModeDir | 0o755,
		TimesyncFile:                       0o644,
	}
	if got := tree(t, out); !mapsEqual(got, want) {
		t.Errorf("after the first run:\n got  %v\n want %v", got, want)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(out, f.Path))
		if err != nil || string(b) != string(f.Content) {
			t.Errorf("%s: %q, %v", f.Path, b, err)
		}
	}

	// Ethernet only: the Wi-Fi and NTP files go.
	if err := Apply(out, filesOf(t, "[network]\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{WiFiFile, WPAFile, TimesyncFile} {
		delete(want, p)
	}
	if got := tree(t, out); !mapsEqual(got, want) {
		t.Errorf("after Ethernet only:\n got  %v\n want %v", got, want)
	}

	// No [network]: none of the files is left; the directories and the
	// other file stay.
	if err := Apply(out, nil); err != nil {
		t.Fatal(err)
	}
	delete(want, EthernetFile)
	if got := tree(t, out); !mapsEqual(got, want) {
		t.Errorf("after no network:\n got  %v\n want %v", got, want)
	}
	// Again, with nothing to remove, and in an empty directory.
	if err := Apply(out, nil); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	if err := Apply(empty, nil); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, empty); len(got) != 0 {
		t.Errorf("no network in an empty directory: %v", got)
	}
}

func mapsEqual(a, b map[string]fs.FileMode) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestApplyNoFollow: a symbolic link where a file or a directory goes is
// never followed: a file's link is replaced or removed, a directory's is
// refused.
func TestApplyNoFollow(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "systemd/network"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{EthernetFile, WiFiFile} {
		if err := os.Symlink(target, filepath.Join(out, p)); err != nil {
			t.Fatal(err)
		}
	}
	// The ethernet file is written over its link, the Wi-Fi one's link removed.
	if err := Apply(out, filesOf(t, "[network]\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(out, EthernetFile)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("ethernet file: %v, %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(out, WiFiFile)); !os.IsNotExist(err) {
		t.Errorf("Wi-Fi link: %v, want it removed", err)
	}

	// A directory that is a link is refused, for writing and for removing.
	if err := os.Symlink(elsewhere, filepath.Join(out, "zeitnot-network")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(elsewhere, "wpa_supplicant.conf"), []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := Apply(out, filesOf(t, fullTOML))
	if err == nil || !strings.Contains(err.Error(), "zeitnot-network: is a symbolic link, not followed") {
		t.Errorf("write through a linked directory: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "wpa_supplicant.conf")); string(b) != "keep" {
		t.Errorf("written through the link: %q", b)
	}
	// The other files were written all the same.
	if _, err := os.Stat(filepath.Join(out, TimesyncFile)); err != nil {
		t.Errorf("the other files: %v", err)
	}
	err = Apply(out, nil)
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link, not followed") {
		t.Errorf("remove through a linked directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "wpa_supplicant.conf")); err != nil {
		t.Errorf("removed through the link: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Join(out, "systemd/network"))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestApplyErrors(t *testing.T) {
	out := t.TempDir()
	if err := Apply(filepath.Join(out, "none"), nil); err == nil {
		t.Error("missing output directory: no error")
	}
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", "a//b", "./a"} {
		if err := Apply(out, []File{{Path: p, Mode: 0o644}}); err == nil {
			t.Errorf("path %q: no error", p)
		}
	}
	// A directory where a file goes: an error, and nothing else harmed.
	if err := os.MkdirAll(filepath.Join(out, EthernetFile, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Apply(out, filesOf(t, "[network]\n")); err == nil {
		t.Error("a directory in the file's place: no error")
	}
	ents, _ := os.ReadDir(filepath.Join(out, "systemd/network"))
	names := []string{}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"50-zeitnot-ethernet.network"}) {
		t.Errorf("left behind: %v", names)
	}
}
