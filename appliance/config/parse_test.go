package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/wait"
)

func errStrings(errs []error) []string {
	var s []string
	for _, e := range errs {
		s = append(s, e.Error())
	}
	return s
}

// saved are saved presets for the tests.
var saved = Presets{
	{Key: "saved-1", Name: "Club rapid", Group: SavedGroup, Spec: "1500+10", Options: clock.DefaultOptions},
	{Key: "saved-2", Name: "Club rapid", Group: SavedGroup, Spec: "300+3", Options: clock.Options{FirstIncrement: false, AfterFlag: clock.Continue}},
}

func TestParseValues(t *testing.T) {
	def := Defaults(SimProfile)
	tests := []struct {
		name string
		src  string
		want func(c *Settings)
	}{
		{"empty", "", func(c *Settings) {}},
		{"comments only", "# nothing\n\n", func(c *Settings) {}},
		{"profile name", `profile = "two-oled"`, func(c *Settings) { c.Profile = "two-oled" }},
		{"profile path", `profile = "/etc/zeitnot/my board.toml"`, func(c *Settings) { c.Profile = "/etc/zeitnot/my board.toml" }},
		{"preset key", "[game]\ncontrol = \"us-40-120-d5\"", func(c *Settings) {
			c.Control = "us-40-120-d5"
			c.Options.PeriodTrigger = clock.OnMoves // the preset's own
		}},
		{"preset key and an option", "[game]\nperiod_trigger = \"flag\"\ncontrol = \"us-40-120-d5\"", func(c *Settings) { c.Control = "us-40-120-d5" }},
		{"notation", "[game]\ncontrol = \"40/5400+30:1800+30\"", func(c *Settings) { c.Control = "40/5400+30:1800+30" }},
		{"pair", "[game]\ncontrol = \"300|240\"", func(c *Settings) { c.Control = "300|240" }},
		{"options", "[game]\nfirst_increment = false\nperiod_trigger = \"moves\"\nafter_flag = \"continue\"", func(c *Settings) {
			c.Options = clock.Options{FirstIncrement: false, PeriodTrigger: clock.OnMoves, AfterFlag: clock.Continue}
		}},
		{"display", "[display]\ntenths_below = \"1m30s\"\nbrightness = 0\nshow_moves = false\nwhite = \"right\"", func(c *Settings) {
			c.TenthsBelow, c.Brightness, c.ShowMoves, c.WhiteLeft = 90000, 0, false, false
		}},
		{"tenths never", "[display]\ntenths_below = \"0s\"", func(c *Settings) { c.TenthsBelow = 0 }},
		{"tenths at most", "[display]\ntenths_below = \"10m\"", func(c *Settings) { c.TenthsBelow = 600000 }},
		{"sound", "[sound]\nenabled = false\npress_beep = true\nlow_time_warning = \"off\"\nflag_alarm = false", func(c *Settings) {
			c.Sound, c.PressBeep, c.LowTimeMs, c.FlagAlarm = false, true, 0, false
		}},
		{"warning false", "[sound]\nlow_time_warning = false", func(c *Settings) { c.LowTimeMs = 0 }},
		{"warning 30s", "[sound]\nlow_time_warning = \"30s\"", func(c *Settings) { c.LowTimeMs = 30000 }},
		{"lock", "[lock]\nlocked = true\npin = \"4711\"", func(c *Settings) {
			c.Locked, c.PINHash = true, HashPIN("4711")
		}},
		{"pin hash", "[lock]\npin_hash = \"" + HashPIN("0815") + "\"", func(c *Settings) { c.PINHash = HashPIN("0815") }},
		{"dotted keys", "display.brightness = 10\nsound.enabled = false", func(c *Settings) {
			c.Brightness = 10
			c.Sound = false
		}},
		{"inline table", "lock = { locked = true, pin = \"1234\" }", func(c *Settings) { c.Locked, c.PINHash = true, HashPIN("1234") }},
		{"written on Windows", "\ufeff[display]\r\nbrightness = 3\r\n", func(c *Settings) { c.Brightness = 3 }},
		{"saved preset", "[game]\ncontrol = \"saved-2\"", func(c *Settings) {
			c.Control = "saved-2"
			c.Options = clock.Options{FirstIncrement: false, AfterFlag: clock.Continue}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := def
			tt.want(&want)
			got, errs := Parse("zeitnot.toml", []byte(tt.src), def, saved)
			if len(errs) > 0 {
				t.Fatalf("errors: %q", errStrings(errs))
			}
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"duration", "[display]\n\ntenths_below = \"abc\"\n",
			[]string{`zeitnot.toml:3: display.tenths_below: want a duration like "20s", got "abc"`}},
		{"duration as number", "[display]\ntenths_below = 20\n",
			[]string{`zeitnot.toml:2: display.tenths_below: want a duration like "20s" (in quotes), got 20`}},
		{"duration too long", "[display]\ntenths_below = \"11m\"\n",
			[]string{`zeitnot.toml:2: display.tenths_below: want a duration from "0s" to "10m", got "11m"`}},
		{"negative duration", "[sound]\nlow_time_warning = \"-1s\"\n",
			[]string{`zeitnot.toml:2: sound.low_time_warning: want a duration from "0s" to "10m", got "-1s"`}},
		{"warning true", "[sound]\nlow_time_warning = true\n",
			[]string{`zeitnot.toml:2: sound.low_time_warning: want a duration like "10s" or "off", got true`}},
		{"brightness", "[display]\nbrightness = 101\n",
			[]string{`zeitnot.toml:2: display.brightness: want a whole number from 0 to 100, got 101`}},
		{"brightness float", "[display]\nbrightness = 50.5\n",
			[]string{`zeitnot.toml:2: display.brightness: want a whole number from 0 to 100, got 50.5`}},
		{"bool", "[display]\nshow_moves = \"yes\"\n",
			[]string{`zeitnot.toml:2: display.show_moves: want true or false, got "yes"`}},
		{"word", "[display]\nwhite = \"west\"\n",
			[]string{`zeitnot.toml:2: display.white: want "left" or "right", got "west"`}},
		{"trigger", "[game]\nperiod_trigger = 1\n",
			[]string{`zeitnot.toml:2: game.period_trigger: want "flag" or "moves", got 1`}},
		{"after flag", "[game]\nafter_flag = [\"x\"]\n",
			[]string{`zeitnot.toml:2: game.after_flag: want "freeze" or "continue", got an array`}},
		{"preset typo", "[game]\ncontrol = \"fide-rapid-16\"\n",
			[]string{`zeitnot.toml:2: game.control: want a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30", got "fide-rapid-16" (did you mean "fide-rapid-15"?)`}},
		{"bad notation", "[game]\ncontrol = \"40/5400+\"\n",
			[]string{`zeitnot.toml:2: game.control: want a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30", got "40/5400+" (column 9: unexpected end of text, want increment seconds (a whole number))`}},
		{"profile", "profile = \"two oled\"\n",
			[]string{`zeitnot.toml:1: profile: want a built-in profile name like "sim" or the path of a profile file, got "two oled"`}},
		{"combination", "[lock]\ncombination = \"plus+minus\"\n",
			[]string{`zeitnot.toml:2: lock.combination: no longer used: the lock is lifted with the arbiter's PIN ([lock] pin); remove this key`}},
		// A lock anyone can lift is none: locked needs a PIN. A bad PIN
		// is never repeated in the message.
		{"locked without a pin", "[lock]\nlocked = true\n",
			[]string{`zeitnot.toml:2: lock.locked: the lock needs the arbiter's PIN: set [lock] pin = "NNNN" too; the clock stays unlocked`}},
		{"pin too short", "[lock]\npin = \"471\"\n",
			[]string{`zeitnot.toml:2: lock.pin: want 4 digits in quotes, like "0000" (the value is not shown)`}},
		{"pin a number", "[lock]\npin = 4711\n",
			[]string{`zeitnot.toml:2: lock.pin: want 4 digits in quotes, like "0000" (the value is not shown)`}},
		{"pin hash bad", "[lock]\npin_hash = \"4711\"\n",
			[]string{`zeitnot.toml:2: lock.pin_hash: want "sha256:" and 64 hex digits, as the clock writes it, or "" for no PIN (the value is not shown)`}},
		{"unknown key", "[sound]\nenabled = true\n\n\n\n\nvolum = 3\n",
			[]string{`zeitnot.toml:7: sound.volum: unknown key; [sound] has enabled, press_beep, low_time_warning, flag_alarm`}},
		{"key in the wrong table", "[sound]\nbrightness = 3\n",
			[]string{`zeitnot.toml:2: sound.brightness: unknown key (did you mean display.brightness?)`}},
		{"key typo", "[display]\nbrightnes = 3\n",
			[]string{`zeitnot.toml:2: display.brightnes: unknown key (did you mean display.brightness?)`}},
		{"unknown table", "[sond]\nenabled = true\n",
			[]string{`zeitnot.toml:1: sond: unknown table (did you mean sound?)`}},
		{"unknown top-level", "a = 1\n",
			[]string{`zeitnot.toml:1: a: unknown key; the file has profile, game, display, sound, speech, lock`}},
		{"quoted unknown key", "[lock]\n\"my key\" = 1\n",
			[]string{`zeitnot.toml:2: lock."my key": unknown key; [lock] has locked, pin, pin_hash`}},
		{"table is a value", "display = 5\n",
			[]string{`zeitnot.toml:1: display: want a table [display], got 5`}},
		{"array of tables", "[game]\ncontrol = \"300\"\n[[sound]]\nenabled = true\n",
			[]string{`zeitnot.toml:3: sound: want a table [sound], got an array`}},
		{"dotted key line", "sound.enabled = true\n\ndisplay.white = \"up\"\n",
			[]string{`zeitnot.toml:3: display.white: want "left" or "right", got "up"`}},
		{"multiline string before", "profile = \"\"\"\nsim\n\"\"\"\n[display]\nwhite = 1\n",
			[]string{
				`zeitnot.toml:1: profile: want a built-in profile name like "sim" or the path of a profile file, got "sim\n"`,
				`zeitnot.toml:5: display.white: want "left" or "right", got 1`,
			}},
		{"errors in line order", "[sound]\nflag_alarm = 1\n[display]\nbrightness = -1\nwhite = 2\n",
			[]string{
				`zeitnot.toml:2: sound.flag_alarm: want true or false, got 1`,
				`zeitnot.toml:4: display.brightness: want a whole number from 0 to 100, got -1`,
				`zeitnot.toml:5: display.white: want "left" or "right", got 2`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Parse("zeitnot.toml", []byte(tt.src), Defaults(SimProfile), saved)
			got := errStrings(errs)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A bad key keeps the base's value and leaves the good keys of the same
// file in effect.
func TestBadKeyKeepsBase(t *testing.T) {
	base := Defaults(SimProfile)
	base.TenthsBelow = 5000
	got, errs := Parse("settings.toml", []byte("[display]\ntenths_below = \"abc\"\nbrightness = 30\n"), base, nil)
	if len(errs) != 1 {
		t.Fatalf("errors: %q", errStrings(errs))
	}
	if got.TenthsBelow != 5000 || got.Brightness != 30 {
		t.Errorf("got tenths %v brightness %d, want 5s and 30", got.TenthsBelow, got.Brightness)
	}
	var e *Error
	if !asError(errs[0], &e) || e.File != "settings.toml" || e.Line != 2 || e.Key != "display.tenths_below" {
		t.Errorf("error fields: %+v", errs[0])
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}

func TestSyntaxErrorIgnoresFile(t *testing.T) {
	base := Defaults(SimProfile)
	base.Brightness = 42
	tests := []struct {
		src       string
		line, col int
	}{
		{"[display]\nbrightness = 10\nwhite = \"left\n", 3, 14},
		{"[display\n", 1, 9},
		{"a = 1\na = 2\n", 2, 1},
		{"\n\nlock = {\n", 4, 1},
		{"x = \"\x00\"", 1, 6},
	}
	for _, tt := range tests {
		got, errs := Parse("zeitnot.toml", []byte(tt.src), base, nil)
		if got != base {
			t.Errorf("%q: the file was not ignored:\n%s", tt.src, got)
		}
		if len(errs) != 1 {
			t.Fatalf("%q: errors %q, want one", tt.src, errStrings(errs))
		}
		var e *Error
		if !asError(errs[0], &e) || e.Line != tt.line || e.Col != tt.col {
			t.Errorf("%q: %v: want line %d column %d", tt.src, errs[0], tt.line, tt.col)
		}
		if !strings.HasSuffix(e.Error(), "; the whole file is ignored") || !strings.HasPrefix(e.Error(), "zeitnot.toml:") {
			t.Errorf("%q: %v", tt.src, e)
		}
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	etc := filepath.Join(dir, "etc", "zeitnot.toml")
	state := filepath.Join(dir, "state")
	write(t, etc, "profile = \"two-tm1637\"\n[display]\nbrightness = 50\ntenths_below = \"10s\"\n[sound]\npress_beep = true\n[lock]\npin = \"1234\"\n")
	write(t, filepath.Join(state, SettingsFile), "[display]\nbrightness = 70\n[lock]\nlocked = true\npin_hash = \""+HashPIN("1234")+"\"\n[game]\ncontrol = \"saved-1\"\n")
	write(t, filepath.Join(state, PresetsFile), "[[preset]]\nkey = \"saved-1\"\nname = \"Club\"\ncontrol = \"300+3\"\nafter_flag = \"continue\"\n")
	def := Defaults("default-board")

	l, errs := LoadLayers(etc, state, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	want := def
	want.Profile = "two-tm1637"
	want.Brightness = 50
	want.TenthsBelow = 10000
	want.PressBeep = true
	want.PINHash = HashPIN("1234")
	if l.Club != want || l.ClubFile != etc {
		t.Errorf("club %s: got\n%s\nwant\n%s", l.ClubFile, l.Club, want)
	}
	want.Brightness = 70
	want.Locked = true
	want.Control = "saved-1"
	want.Options.AfterFlag = clock.Continue
	if l.Effective != want {
		t.Errorf("effective: got\n%s\nwant\n%s", l.Effective, want)
	}
	if len(l.Presets) != 1 || l.Presets[0].Key != "saved-1" || l.PresetsFile != filepath.Join(state, PresetsFile) {
		t.Errorf("presets %s: %v", l.PresetsFile, l.Presets)
	}

	// An imported club config replaces /etc's as a whole.
	imported := filepath.Join(state, ImportedFile)
	write(t, imported, "[sound]\nenabled = false\n")
	l, errs = LoadLayers(etc, state, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	want = def
	want.Sound = false
	if l.ClubFile != imported || l.Club != want {
		t.Errorf("imported club %s:\n%s", l.ClubFile, l.Club)
	}
	if l.Effective.Brightness != 70 || l.Effective.TenthsBelow != 20000 || !l.Effective.Locked {
		t.Errorf("effective over imported:\n%s", l.Effective)
	}

	// No state directory: the club config alone.
	l, errs = LoadLayers(etc, "", def)
	if len(errs) > 0 || l.ClubFile != etc || l.SettingsFile != "" || l.Effective != l.Club || l.Club.Profile != "two-tm1637" || l.Presets != nil {
		t.Errorf("no state directory: %q %+v", errStrings(errs), l)
	}

	// No files at all: the defaults, no errors.
	l, errs = LoadLayers(filepath.Join(dir, "none.toml"), filepath.Join(dir, "nostate"), def)
	if len(errs) > 0 || l.Effective != def {
		t.Errorf("no files: %q\n%s", errStrings(errs), l.Effective)
	}

	// A broken settings file: the club config stands, and the error names
	// the settings file.
	write(t, filepath.Join(state, SettingsFile), "[display\n")
	l, errs = LoadLayers(etc, state, def)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), filepath.Join(state, SettingsFile)+":1:9: ") || l.Effective != l.Club {
		t.Errorf("broken settings: %q\n%s", errStrings(errs), l.Effective)
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	// A directory cannot be read as a file, even by root.
	c, errs := Load(dir, Defaults(SimProfile), nil)
	if c != Defaults(SimProfile) || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), dir+": cannot read: ") {
		t.Errorf("got %q", errStrings(errs))
	}
	if errs := Check(filepath.Join(dir, "missing.toml")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing.toml: cannot read: no such file") {
		t.Errorf("check missing: %q", errStrings(errs))
	}
	big := filepath.Join(dir, "big.toml")
	write(t, big, strings.Repeat("#", maxFileSize+1))
	if errs := Check(big); len(errs) != 1 || !strings.Contains(errs[0].Error(), "larger than") {
		t.Errorf("check big: %q", errStrings(errs))
	}
}

// A named pipe or a device in place of a config, settings or presets file
// is refused at once, never read: opening a pipe would wait for a writer,
// reading /dev/zero would never end.
func TestNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "zeitnot.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	wait.Returns(t, 5*time.Second, "Load of a named pipe", func() {
		c, errs := Load(fifo, Defaults(SimProfile), nil)
		if c != Defaults(SimProfile) || len(errs) != 1 || errs[0].Error() != fifo+": cannot read: not a regular file (a named pipe)" {
			t.Errorf("got %q", errStrings(errs))
		}
	})
	wait.Returns(t, 5*time.Second, "Check of a named pipe", func() {
		if errs := Check(fifo); len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a regular file") {
			t.Errorf("check: %q", errStrings(errs))
		}
	})
	wait.Returns(t, 5*time.Second, "LoadLayers with named pipes", func() {
		state := filepath.Join(dir, "state")
		for _, f := range []string{SettingsFile, PresetsFile, ImportedFile} {
			if err := os.MkdirAll(state, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(state, f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		l, errs := LoadLayers(fifo, state, Defaults(SimProfile))
		if len(errs) != 3 || l.Effective != Defaults(SimProfile) {
			t.Errorf("got %q", errStrings(errs))
		}
	})
	wait.Returns(t, 5*time.Second, "Load of /dev/zero", func() {
		if _, errs := Load("/dev/zero", Defaults(SimProfile), nil); len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a regular file (a character device)") {
			t.Errorf("got %q", errStrings(errs))
		}
	})
}

// A profile path that is not a regular file is a bad key for check, import
// and the daemon's Load: the daemon would block on it, or read forever. So
// is one that is not absolute and clean, names no file, or names a file that
// is not a profile: the daemon would run on its fallback profile.
func TestProfileNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "board.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	sim, err := os.ReadFile("../../drivers/profile/profiles/sim.toml")
	if err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "ok.toml")
	write(t, regular, string(sim))
	empty := filepath.Join(dir, "empty.toml")
	write(t, empty, "")
	missing := filepath.Join(dir, "elsewhere.toml")
	for _, tt := range []struct{ profile, want string }{
		{"/dev/zero", `zeitnot.toml:2: profile: "/dev/zero": not a regular file (a character device): want a profile file`},
		{fifo, `zeitnot.toml:2: profile: "` + fifo + `": not a regular file (a named pipe): want a profile file`},
		{dir + "/", `zeitnot.toml:2: profile: "` + dir + `/" is not a clean path: want the whole path of a profile file, without . or .. or //`},
		{regular, ""},
		// Each of these passed, and the daemon ran on its fallback profile.
		{missing, `zeitnot.toml:2: profile: "` + missing + `": no such file or directory: want a profile file`},
		{"../etc/passwd", `zeitnot.toml:2: profile: "../etc/passwd" is not an absolute path: want the whole path of a profile file, like "/etc/zeitnot/board.toml", or a built-in profile's name`},
		{"board.toml", `zeitnot.toml:2: profile: "board.toml" is not an absolute path: want the whole path of a profile file, like "/etc/zeitnot/board.toml", or a built-in profile's name`},
		{dir + "/../" + filepath.Base(dir) + "/ok.toml", `is not a clean path`},
		{"/etc/passwd", `zeitnot.toml:2: profile: "/etc/passwd" is not a profile: `},
		{empty, `zeitnot.toml:2: profile: "` + empty + `" is not a profile: ` + empty + `: no display`},
	} {
		path := filepath.Join(dir, "zeitnot.toml")
		write(t, path, "# club\nprofile = "+quote(tt.profile)+"\n")
		wait.Returns(t, 5*time.Second, tt.profile, func() {
			errs := Check(path)
			if got := strings.Join(errStrings(errs), "\n"); (got == "") != (tt.want == "") || !strings.Contains(got, strings.Replace(tt.want, "zeitnot.toml", path, 1)) {
				t.Errorf("check %s: %q", tt.profile, got)
			}
			c, _ := Load(path, Defaults("fallback"), nil)
			if (c.Profile == "fallback") != (tt.want != "") {
				t.Errorf("load %s: profile %q", tt.profile, c.Profile)
			}
			problems, _, _ := Import(path, t.TempDir())
			if (len(problems) > 0) != (tt.want != "") {
				t.Errorf("import %s: %q", tt.profile, errStrings(problems))
			}
		})
	}
}

// One value TOML can write but Go cannot hold costs its key only, not the
// file: each bad key is replaced by its default, as the README says.
func TestOutOfRangeValueIsOneBadKey(t *testing.T) {
	src := "[game]\ncontrol = \"fide-rapid-15\"\n\n[display]\nbrightness = 99999999999999999999\nwhite = \"right\"\n[sound]\nlow_time_warning = 0x7FFFFFFFFFFFFFFFF\n"
	got, errs := Parse("zeitnot.toml", []byte(src), Defaults(SimProfile), nil)
	want := []string{
		`zeitnot.toml:5: display.brightness: want a whole number from 0 to 100, got 99999999999999999999`,
		`zeitnot.toml:8: sound.low_time_warning: want a duration like "10s" or "off" (in quotes), got 0x7FFFFFFFFFFFFFFFF`,
	}
	if g := errStrings(errs); strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
	if got.Control != "fide-rapid-15" || got.WhiteLeft || got.Brightness != 80 || got.LowTimeMs != 10000 {
		t.Errorf("got\n%s", got)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		key, name, pair string
		opt             clock.Options
	}{
		{"fide-classical", "FIDE 90/40+30", "40/5400+30:1800+30", clock.DefaultOptions},
		{"fide-blitz-3", "Blitz 3+2", "180+2", clock.DefaultOptions},
		{"us-40-120-d5", "US 40/120,SD/30", "40/7200d5:1800d5", clock.Options{FirstIncrement: true, PeriodTrigger: clock.OnMoves}},
		{"saved-2", "Club rapid", "300+3", clock.Options{FirstIncrement: false, AfterFlag: clock.Continue}},
		{"300|240", "Armageddon 5v4", "300|240", clock.DefaultOptions},                    // named by the preset with these controls
		{"40/5400+30:900+30", `90/40+15'+30"`, "40/5400+30:900+30", clock.DefaultOptions}, // no preset: as people write it
		{"1500+10", "Rapid 25+10", "1500+10", clock.DefaultOptions},                       // the built-in comes before the saved one
	}
	for _, tt := range tests {
		c, err := saved.Resolve(tt.key)
		if err != nil {
			t.Errorf("%s: %v", tt.key, err)
			continue
		}
		if c.Key != tt.key || c.Name != tt.name || timecontrol.FormatPair(c.Pair) != tt.pair || c.Options != tt.opt {
			t.Errorf("%s: got %+v, want %s %s %+v", tt.key, c, tt.name, tt.pair, tt.opt)
		}
	}
	for key, want := range map[string]string{
		"nonsense":    "no such preset",
		"saved-3":     `did you mean "saved-1"?`,
		"Club rapid":  "column 1: ", // a name is not a key
		"fide-blitz4": `did you mean "fide-blitz-`,
		"300+":        "column 5: ",
	} {
		if _, err := saved.Resolve(key); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", key, err, want)
		}
	}
	if _, err := Presets(nil).Resolve("saved-2"); err == nil {
		t.Error("a saved key resolved without its preset")
	}
}

func TestPIN(t *testing.T) {
	h := HashPIN("4711")
	if !PINMatches(h, "4711") || PINMatches(h, "4712") || PINMatches("", "") || PINMatches(h, "47111") {
		t.Error("PINMatches")
	}
	if strings.Contains(h, "4711") || !validPINHash(h) || validPINHash(strings.ToUpper(h)) {
		t.Errorf("hash %q", h)
	}
	// The PIN is never written back: the file keeps its hash.
	s := Defaults(SimProfile)
	s.PINHash, s.Locked = h, true
	out := string(FormatDiff(Defaults(SimProfile), s))
	if strings.Contains(out, "4711") || !strings.Contains(out, "pin_hash = \""+h+"\"") {
		t.Errorf("written:\n%s", out)
	}
	if back, errs := Parse("settings.toml", []byte(out), Defaults(SimProfile), nil); len(errs) > 0 || back != s {
		t.Errorf("round trip: %v\n%s", errs, back)
	}
}

// TestHallTableIsTheLinks: the [hall] table is zeitnot link's; the clock's
// own config neither complains of it nor reads it, and a [hall] key at the
// top level is still unknown.
func TestHallTableIsTheLinks(t *testing.T) {
	s, errs := Parse("zeitnot.toml", []byte("[game]\ncontrol = \"fide-rapid-15\"\n[hall]\nbroker = \"mqtt://arbiter.local\"\nboard = 12\n"), Defaults(SimProfile), nil)
	if len(errs) != 0 || s.Control != "fide-rapid-15" {
		t.Errorf("with [hall]: %v, control %q", errs, s.Control)
	}
	if _, errs := Parse("zeitnot.toml", []byte("hall = 3\n"), Defaults(SimProfile), nil); len(errs) != 1 {
		t.Errorf("hall as a key: %v, want it unknown", errs)
	}
}

// TestNetworkTableIsNetworks: the [network] table, with its [network.wifi],
// is zeitnot network's; the clock's own config neither complains of it nor
// reads it, and a network key at the top level is still unknown.
func TestNetworkTableIsNetworks(t *testing.T) {
	s, errs := Parse("zeitnot.toml", []byte("[game]\ncontrol = \"fide-rapid-15\"\n[network]\nntp = \"arbiter.local\"\n[network.wifi]\nssid = \"Club\"\npassphrase = \"correct horse\"\ncountry = \"DE\"\n"), Defaults(SimProfile), nil)
	if len(errs) != 0 || s.Control != "fide-rapid-15" {
		t.Errorf("with [network]: %v, control %q", errs, s.Control)
	}
	if _, errs := Parse("zeitnot.toml", []byte("network = true\n"), Defaults(SimProfile), nil); len(errs) != 1 {
		t.Errorf("network as a key: %v, want it unknown", errs)
	}
}

// A [network] table zeitnot-network.service would refuse is refused at the
// import, where the display shows why; the imported config stays as it was.
func TestImportRefusesBadNetworkTable(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "zeitnot.toml")
	write(t, path, "profile = \"sim\"\n[network]\nethernet = true\n")
	if problems, changed, err := Import(path, state); len(problems) > 0 || !changed || err != nil {
		t.Fatalf("good [network]: %q changed=%v err=%v", errStrings(problems), changed, err)
	}
	write(t, path, "profile = \"sim\"\n[network]\n[network.wifi]\nssid = \"Club\"\npassphrase = \"short\"\ncountry = \"DE\"\n")
	problems, changed, err := Import(path, state)
	if err != nil || changed || len(problems) == 0 {
		t.Fatalf("bad [network]: %q changed=%v err=%v", errStrings(problems), changed, err)
	}
	if got := errStrings(problems)[0]; !strings.HasPrefix(got, path+":5: network.wifi.passphrase:") || strings.Contains(got, "short") {
		t.Errorf("problem %q: want it at %s:5, naming network.wifi.passphrase, without the passphrase", got, path)
	}
	lines, _ := ImportErrors(state)
	if len(lines) == 0 {
		t.Error("no import-errors.txt for the display")
	}
	kept, _ := os.ReadFile(filepath.Join(state, ImportedFile))
	if !strings.Contains(string(kept), "ethernet = true") {
		t.Errorf("imported config not kept: %q", kept)
	}
}

// The imported config is used when it is there; /etc's only when it is
// not. A state directory that cannot be looked into names the imported
// file, so that its reader says why rather than using an older config.
func TestClubPath(t *testing.T) {
	etc := filepath.Join(t.TempDir(), "zeitnot.toml")
	state := t.TempDir()
	if got := ClubPath(etc, state); got != etc {
		t.Errorf("nothing imported: %s, want %s", got, etc)
	}
	if got := ClubPath(etc, ""); got != etc {
		t.Errorf("no state directory: %s, want %s", got, etc)
	}
	imported := filepath.Join(state, ImportedFile)
	write(t, imported, "profile = \"sim\"\n")
	if got := ClubPath(etc, state); got != imported {
		t.Errorf("imported: %s, want %s", got, imported)
	}
	notDir := filepath.Join(t.TempDir(), "state")
	write(t, notDir, "")
	if got, want := ClubPath(etc, notDir), filepath.Join(notDir, ImportedFile); got != want {
		t.Errorf("state directory that is a file: %s, want %s", got, want)
	}
	if _, err := Load(ClubPath(etc, notDir), Defaults(SimProfile), nil); err == nil {
		t.Error("loading through a state directory that is a file: no error")
	}
}
