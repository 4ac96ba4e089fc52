package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/network"
)

// written lists the files under dir.
func written(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	slices.Sort(got)
	return got
}

func TestNetworkCommand(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	write := func(s string) { writeConfigFile(t, cfg, s) }
	netRun := func(extra ...string) (int, string, string) {
		return prog.Run(append([]string{"network", "--config", cfg, "--state-dir", "", "--out", out}, extra...)...)
	}
	full := "[game]\ncontrol = \"fide-rapid-15\"\n\n[network]\nntp = [\"arbiter.local\"]\n\n[network.wifi]\nssid = \"Club\"\npassphrase = \"correct horse\"\ncountry = \"DE\"\n"
	all := []string{network.TimesyncFile, network.EthernetFile, network.WiFiFile, network.WPAFile}
	slices.Sort(all)

	// --check writes nothing and hides the key.
	write(full)
	code, stdout, stderr := netRun("--check")
	if code != 0 || stderr != "" {
		t.Fatalf("--check: exit %d, %s", code, stderr)
	}
	if first := strings.SplitN(stdout, "\n", 2)[0]; first != "network: Ethernet (DHCP), Wi-Fi \"Club\" (DE), NTP arbiter.local" {
		t.Errorf("--check: first line %q", first)
	}
	for _, want := range []string{
		"==> " + filepath.Join(out, network.WPAFile) + " (mode 0600) <==\n",
		"\tpsk=<hidden>\n", "\tssid=436c7562\n", "Type=ether\n", "NTP=arbiter.local\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--check: no %q in\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "cfaae593") || strings.Contains(stdout, "correct horse") {
		t.Errorf("--check shows a secret:\n%s", stdout)
	}
	if got := written(t, out); len(got) != 0 {
		t.Errorf("--check wrote %v", got)
	}

	// The real run.
	code, stdout, stderr = netRun()
	if code != 0 || stderr != "" || stdout != "network: Ethernet (DHCP), Wi-Fi \"Club\" (DE), NTP arbiter.local\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := written(t, out); !slices.Equal(got, all) {
		t.Errorf("wrote %v, want %v", got, all)
	}
	b, _ := os.ReadFile(filepath.Join(out, network.WPAFile))
	if !strings.Contains(string(b), "\tpsk=cfaae5936964ab8f4b40acfed3928a30cb710f6403ea71db3bf676179eff0b33\n") {
		t.Errorf("wpa_supplicant.conf:\n%s", b)
	}
	if fi, err := os.Stat(filepath.Join(out, network.WPAFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("wpa_supplicant.conf mode: %v, %v", fi, err)
	}

	// A bad table: exit 78, the problems on stderr, the files left as
	// they were.
	write("[network]\nntp = \"arbiter.local\"\n[network.wifi]\nssid = \"Club\"\npassphrase = \"short\"\ncountry = \"de\"\n")
	code, stdout, stderr = netRun()
	wantErr := cfg + ":5: network.wifi.passphrase: want 8 to 63 characters (WPA2), got 5\n" +
		cfg + ":6: network.wifi.country: want two capital letters (ISO 3166), like \"DE\", got \"de\" (did you mean \"DE\"?)\n" +
		"zeitnot network: " + cfg + ": bad [network] table: nothing written\n"
	if code != exitConfig || stdout != "" || stderr != wantErr {
		t.Errorf("bad table: exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, stdout, stderr, wantErr)
	}
	if got := written(t, out); !slices.Equal(got, all) {
		t.Errorf("bad table: files %v", got)
	}
	write("[network\n")
	if code, _, stderr := netRun(); code != exitConfig || !strings.HasPrefix(stderr, cfg+":1:9: ") {
		t.Errorf("not TOML: exit %d, %s", code, stderr)
	}

	// Ethernet only: the others go.
	write("[network]\n")
	if code, stdout, _ := netRun(); code != 0 || stdout != "network: Ethernet (DHCP)\n" {
		t.Errorf("Ethernet only: exit %d, %q", code, stdout)
	}
	if got := written(t, out); !slices.Equal(got, []string{network.EthernetFile}) {
		t.Errorf("Ethernet only: files %v", got)
	}

	// No [network]: none is left.
	write("[game]\ncontrol = \"fide-blitz-3\"\n")
	code, stdout, stderr = netRun()
	if code != 0 || stderr != "" || stdout != "network: no [network] table in "+cfg+": the clock stays off the network\n" {
		t.Errorf("no table: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := written(t, out); len(got) != 0 {
		t.Errorf("no table: files %v", got)
	}

	// No file at all: the same.
	os.Remove(cfg)
	code, stdout, stderr = netRun()
	if code != 0 || stderr != "" || stdout != "network: no "+cfg+": the clock stays off the network\n" {
		t.Errorf("no file: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := netRun("--check"); code != 0 || !strings.Contains(stdout, "would remove, if there:\n  "+filepath.Join(out, network.EthernetFile)) {
		t.Errorf("no file, --check: exit %d, %q", code, stdout)
	}
}

// TestNetworkImported: a zeitnot.toml imported into the state directory
// is the one read, as by the daemon and zeitnot link.
func TestNetworkImported(t *testing.T) {
	dir, state, out := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	writeConfigFile(t, cfg, "[game]\ncontrol = \"fide-blitz-3\"\n")
	imported := filepath.Join(state, "zeitnot.toml")
	writeConfigFile(t, imported, "[network]\nntp = \"10.0.0.1\"\n")
	code, stdout, stderr := prog.Run("network", "--config", cfg, "--state-dir", state, "--out", out)
	if code != 0 || stdout != "network: Ethernet (DHCP), NTP 10.0.0.1\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(out, network.EthernetFile))
	if !strings.Contains(string(b), "from "+imported+", [network]") {
		t.Errorf("header does not name %s:\n%s", imported, b)
	}
}

func TestNetworkCommandErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	writeConfigFile(t, cfg, "[network]\n")
	if code, _, _ := prog.Run("network", "--config", cfg, "--state-dir", "", "extra"); code != 2 {
		t.Errorf("an argument: exit %d", code)
	}
	if code, _, _ := prog.Run("network", "--bogus"); code != 2 {
		t.Errorf("a bad flag: exit %d", code)
	}
	if code, _, stderr := prog.Run("network", "-h"); code != 0 || !strings.Contains(stderr, "50-zeitnot-ethernet.network") {
		t.Errorf("-h: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := prog.Run("network", "--config", cfg, "--state-dir", "", "--out", filepath.Join(dir, "none"))
	if code != 1 || stdout != "" || !strings.Contains(stderr, "zeitnot network: "+filepath.Join(dir, "none")+": no such file or directory") {
		t.Errorf("no output directory: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
