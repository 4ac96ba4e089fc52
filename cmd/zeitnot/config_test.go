package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
)

func writeConfigFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "zeitnot.toml")
	writeConfigFile(t, good, "[display]\nbrightness = 50\n")
	bad := filepath.Join(dir, "bad.toml")
	writeConfigFile(t, bad, "[display]\n\ntenths_below = \"abc\"\n[sound]\nvolum = 3\n")
	presets := filepath.Join(dir, "presets.toml")
	writeConfigFile(t, presets, "[[preset]]\nname = \"Club\"\ncontrol = \"900+10\"\n")
	badNetwork := filepath.Join(dir, "network.toml")
	writeConfigFile(t, badNetwork, "[display]\nbrightness = 500\n[network]\nntp = \"arbiter.local\"\n[network.wifi]\nssid = \"Club\"\npassphrase_file = \"/boot/firmware/wifi-passphrase\"\ncountry = \"de\"\n")
	goodNetwork := filepath.Join(dir, "network-ok.toml")
	writeConfigFile(t, goodNetwork, "[network]\nntp = \"arbiter.local\"\n[network.wifi]\nssid = \"Club\"\npassphrase_file = \"/boot/firmware/wifi-passphrase\"\ncountry = \"DE\"\n")
	badPresets := filepath.Join(t.TempDir(), "presets.toml")
	writeConfigFile(t, badPresets, "[[preset]]\nname = \"Club\"\n")

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"good", []string{good}, 0, good + ": ok\n", ""},
		{"bad", []string{bad}, 1, "",
			bad + ":3: display.tenths_below: want a duration like \"20s\", got \"abc\"\n" + bad + ":5: sound.volum: unknown key; [sound] has enabled, press_beep, low_time_warning, flag_alarm\n"},
		{"presets", []string{presets}, 0, presets + ": ok\n", ""},
		{"network", []string{goodNetwork}, 0, goodNetwork + ": ok\n", ""},
		{"bad network", []string{badNetwork}, 1, "",
			badNetwork + ":2: display.brightness: want a whole number from 0 to 100, got 500\n" +
				badNetwork + ":8: network.wifi.country: want two capital letters (ISO 3166), like \"DE\", got \"de\" (did you mean \"DE\"?)\n"},
		{"bad presets", []string{badPresets}, 1, "", badPresets + ":1: preset.control: missing: the preset's control, a notation; it is skipped\n"},
		{"several", []string{good, bad}, 1, good + ": ok\n",
			bad + ":3: display.tenths_below: want a duration like \"20s\", got \"abc\"\n" + bad + ":5: sound.volum: unknown key; [sound] has enabled, press_beep, low_time_warning, flag_alarm\n"},
		{"missing", []string{filepath.Join(dir, "none.toml")}, 1, "",
			filepath.Join(dir, "none.toml") + ": cannot read: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := prog.Run(append([]string{"config", "check"}, tt.args...)...)
			if code != tt.code || out != tt.stdout || errOut != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", code, out, errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	if code, _, _ := prog.Run("config", "check"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}

func TestConfigImport(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	boot := filepath.Join(dir, "zeitnot.toml")
	imported := filepath.Join(state, "zeitnot.toml")
	errFile := filepath.Join(state, "import-errors.txt")
	good := "# club\n[display]\nbrightness = 40\n"
	writeConfigFile(t, boot, good)
	writeConfigFile(t, errFile, "stale\n")

	// Flags after the file, as the systemd unit passes them.
	code, out, errOut := prog.Run("config", "import", boot, "--state-dir", state)
	if code != 0 || out != boot+": ok, imported to "+imported+"\n" || errOut != "" {
		t.Fatalf("good: exit %d, %q, %q", code, out, errOut)
	}
	if data, err := os.ReadFile(imported); err != nil || string(data) != good {
		t.Errorf("imported file: %q, %v", data, err)
	}
	if _, err := os.Stat(errFile); !os.IsNotExist(err) {
		t.Errorf("import-errors.txt not removed: %v", err)
	}
	code, out, _ = prog.Run("config", "import", "--state-dir", state, boot)
	if code != 0 || out != boot+": ok, "+imported+" already has it\n" {
		t.Errorf("again: exit %d, %q", code, out)
	}

	// A bad file is not imported: its errors go to import-errors.txt and
	// the old config stays.
	writeConfigFile(t, boot, "[display]\nbrightness = 400\n[sound]\nvolum = 1\n")
	code, out, errOut = prog.Run("config", "import", boot, "--state-dir", state)
	wantErrs := boot + ":2: display.brightness: want a whole number from 0 to 100, got 400\n" + boot + ":4: sound.volum: unknown key; [sound] has enabled, press_beep, low_time_warning, flag_alarm\n"
	if code != 1 || out != "" || !strings.HasPrefix(errOut, wantErrs) || !strings.Contains(errOut, "not imported") {
		t.Errorf("bad: exit %d, %q, %q", code, out, errOut)
	}
	if data, _ := os.ReadFile(errFile); string(data) != wantErrs {
		t.Errorf("import-errors.txt: %q, want %q", data, wantErrs)
	}
	if data, _ := os.ReadFile(imported); string(data) != good {
		t.Errorf("old config replaced: %q", data)
	}

	writeConfigFile(t, boot, "[display\n")
	code, _, _ = prog.Run("config", "import", boot, "--state-dir", state)
	if data, _ := os.ReadFile(errFile); code != 1 || !strings.HasPrefix(string(data), boot+":1:9: ") {
		t.Errorf("syntax error: exit %d, import-errors.txt %q", code, data)
	}

	// A state directory that cannot be written: exit 1, naming the file.
	code, _, errOut = prog.Run("config", "import", boot, "--state-dir", filepath.Join(dir, "nodir"))
	if code != 1 || !strings.Contains(errOut, filepath.Join(dir, "nodir", "import-errors.txt")) {
		t.Errorf("no state dir: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{{"config", "import"}, {"config", "import", "a", "b"}, {"config", "import", "--bogus", boot}} {
		if code, _, _ := prog.Run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestConfigShow(t *testing.T) {
	dir := t.TempDir()
	etc := filepath.Join(dir, "zeitnot.toml")
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfigFile(t, etc, "[game]\ncontrol = \"fide-blitz-3\"\n[display]\nbrightness = 40\n")
	writeConfigFile(t, filepath.Join(state, "settings.toml"), "[display]\nwhite = \"right\"\n")

	code, out, errOut := prog.Run("config", "show", "--config", etc, "--state-dir", state)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	for _, want := range []string{
		"#   " + etc + "\n",
		"#   " + filepath.Join(state, "settings.toml") + "\n",
		"# The control is 180+2 (first-increment on, period-trigger flag, after-flag freeze).\n",
		// With no file naming one, the profile the daemon would use.
		"profile = \"" + defaultProfile + "\"\n",
		"control = \"fide-blitz-3\"\n",
		"brightness = 40\n",
		"white = \"right\"\n",
		"tenths_below = \"20s\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	writeConfigFile(t, filepath.Join(state, "settings.toml"), "[display]\nwhite = 3\n")
	code, out, errOut = prog.Run("config", "show", "--config", filepath.Join(dir, "none.toml"), "--state-dir", state)
	if code != 1 || !strings.Contains(errOut, "settings.toml:2: display.white: ") || !strings.Contains(out, "white = \"left\"\n") || !strings.Contains(out, "none.toml (absent)") {
		t.Errorf("bad settings: exit %d, stderr %q\n%s", code, errOut, out)
	}
	if code, _, _ := prog.Run("config", "show", "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
}

func TestConfigUsage(t *testing.T) {
	if code, _, errOut := prog.Run("config"); code != 2 || !strings.Contains(errOut, "zeitnot config check FILE") {
		t.Errorf("no subcommand: exit %d, %q", code, errOut)
	}
	if code, _, errOut := prog.Run("config", "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown subcommand "frobnicate"`) {
		t.Errorf("unknown subcommand: exit %d, %q", code, errOut)
	}
	if code, out, _ := prog.Run("config", "-h"); code != 0 || !strings.Contains(out, "zeitnot config import FILE") {
		t.Errorf("help: exit %d, %q", code, out)
	}
}

// config show resolves the control with the saved presets, as the clock
// does.
func TestConfigShowSavedPreset(t *testing.T) {
	state := t.TempDir()
	writeConfigFile(t, filepath.Join(state, "presets.toml"), "[[preset]]\nkey = \"saved-1\"\nname = \"Club blitz\"\ncontrol = \"300+3\"\nafter_flag = \"continue\"\n")
	writeConfigFile(t, filepath.Join(state, "settings.toml"), "[game]\ncontrol = \"saved-1\"\n")
	code, out, errOut := prog.Run("config", "show", "--config", filepath.Join(state, "none.toml"), "--state-dir", state)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	for _, want := range []string{
		"# The control is 300+3 (first-increment on, period-trigger flag, after-flag continue).\n",
		"# The clock calls it \"Club blitz\".\n",
		"control = \"saved-1\"\n",
		"after_flag = \"continue\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Files that are not files: a named pipe to check or import is refused at
// once, and so is a profile that names a pipe or a device.
func TestConfigNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "zeitnot.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	pipeProfile := filepath.Join(dir, "board.toml")
	if err := syscall.Mkfifo(pipeProfile, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.toml")
	writeConfigFile(t, zero, "profile = \"/dev/zero\"\n")
	pipe := filepath.Join(dir, "pipe.toml")
	writeConfigFile(t, pipe, "profile = \""+pipeProfile+"\"\n")
	state := filepath.Join(dir, "state")
	os.Mkdir(state, 0o755)
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"check", fifo}, fifo + ": cannot read: not a regular file (a named pipe)\n"},
		{[]string{"check", zero}, zero + `:1: profile: "/dev/zero": not a regular file (a character device): want a profile file` + "\n"},
		{[]string{"check", pipe}, pipe + `:1: profile: "` + pipeProfile + `": not a regular file (a named pipe): want a profile file` + "\n"},
		{[]string{"import", fifo, "--state-dir", state}, fifo + ": cannot read: not a regular file (a named pipe)\n"},
		{[]string{"import", zero, "--state-dir", state}, zero + `:1: profile: "/dev/zero": not a regular file (a character device): want a profile file` + "\n"},
	}
	for _, tt := range tests {
		wait.Returns(t, 5*time.Second, strings.Join(tt.args, " "), func() {
			code, out, errOut := prog.Run(append([]string{"config"}, tt.args...)...)
			if code != 1 || out != "" || !strings.HasPrefix(errOut, tt.stderr) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q\nwant stderr %q", tt.args, code, out, errOut, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(state, "zeitnot.toml")); !os.IsNotExist(err) {
		t.Errorf("a bad file was imported: %v", err)
	}
}
