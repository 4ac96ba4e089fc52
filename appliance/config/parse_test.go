package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

func errStrings(errs []error) []string {
	var s []string
	for _, e := range errs {
		s = append(s, e.Error())
	}
	return s
}

func TestParseValues(t *testing.T) {
	def := Defaults(SimProfile)
	tests := []struct {
		name string
		src  string
		want func(c *Config)
	}{
		{"empty", "", func(c *Config) {}},
		{"comments only", "# nothing\n\n", func(c *Config) {}},
		{"profile name", `profile = "two-oled"`, func(c *Config) { c.Profile = "two-oled" }},
		{"profile path", `profile = "/etc/zeitnot/my board.toml"`, func(c *Config) { c.Profile = "/etc/zeitnot/my board.toml" }},
		{"preset key", "[game]\ncontrol = \"fide-blitz-3\"", func(c *Config) { c.Game.Control = "fide-blitz-3" }},
		{"notation", "[game]\ncontrol = \"40/5400+30:1800+30\"", func(c *Config) { c.Game.Control = "40/5400+30:1800+30" }},
		{"pair", "[game]\ncontrol = \"300|240\"", func(c *Config) { c.Game.Control = "300|240" }},
		{"options", "[game]\nfirst_increment = false\nperiod_trigger = \"moves\"\nafter_flag = \"continue\"", func(c *Config) {
			c.Game.FirstIncrement = Some(false)
			c.Game.PeriodTrigger = Some(clock.OnMoves)
			c.Game.AfterFlag = Some(clock.Continue)
		}},
		{"display", "[display]\ntenths_below = \"1m30s\"\nbrightness = 0\nshow_moves = false\nwhite = \"right\"", func(c *Config) {
			c.Display = Display{TenthsBelow: 90 * time.Second, Brightness: 0, ShowMoves: false, White: Right}
		}},
		{"tenths never", "[display]\ntenths_below = \"0s\"", func(c *Config) { c.Display.TenthsBelow = 0 }},
		{"tenths at most", "[display]\ntenths_below = \"10m\"", func(c *Config) { c.Display.TenthsBelow = 10 * time.Minute }},
		{"sound", "[sound]\nenabled = false\npress_beep = true\nlow_time_warning = \"off\"\nflag_alarm = false", func(c *Config) {
			c.Sound = Sound{Enabled: false, PressBeep: true, LowTimeWarning: 0, FlagAlarm: false}
		}},
		{"warning false", "[sound]\nlow_time_warning = false", func(c *Config) { c.Sound.LowTimeWarning = 0 }},
		{"warning 30s", "[sound]\nlow_time_warning = \"30s\"", func(c *Config) { c.Sound.LowTimeWarning = 30 * time.Second }},
		{"lock", "[lock]\nlocked = true\ncombination = \" OK + minus \"", func(c *Config) {
			c.Lock = Lock{Locked: true, Combination: "minus+ok"}
		}},
		{"dotted keys", "display.brightness = 10\nsound.enabled = false", func(c *Config) {
			c.Display.Brightness = 10
			c.Sound.Enabled = false
		}},
		{"inline table", "lock = { locked = true }", func(c *Config) { c.Lock.Locked = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := def
			tt.want(&want)
			got, errs := Parse("zeitnot.toml", []byte(tt.src), def)
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
			[]string{`zeitnot.toml:3: tenths_below: want a duration like "20s", got "abc"`}},
		{"duration as number", "[display]\ntenths_below = 20\n",
			[]string{`zeitnot.toml:2: tenths_below: want a duration like "20s" (in quotes), got 20`}},
		{"duration too long", "[display]\ntenths_below = \"11m\"\n",
			[]string{`zeitnot.toml:2: tenths_below: want a duration from "0s" to "10m", got "11m"`}},
		{"negative duration", "[sound]\nlow_time_warning = \"-1s\"\n",
			[]string{`zeitnot.toml:2: low_time_warning: want a duration from "0s" to "10m", got "-1s"`}},
		{"warning true", "[sound]\nlow_time_warning = true\n",
			[]string{`zeitnot.toml:2: low_time_warning: want a duration like "10s" or "off", got true`}},
		{"brightness", "[display]\nbrightness = 101\n",
			[]string{`zeitnot.toml:2: brightness: want a whole number from 0 to 100, got 101`}},
		{"brightness float", "[display]\nbrightness = 50.5\n",
			[]string{`zeitnot.toml:2: brightness: want a whole number from 0 to 100, got 50.5`}},
		{"bool", "[display]\nshow_moves = \"yes\"\n",
			[]string{`zeitnot.toml:2: show_moves: want true or false, got "yes"`}},
		{"word", "[display]\nwhite = \"west\"\n",
			[]string{`zeitnot.toml:2: white: want "left" or "right", got "west"`}},
		{"trigger", "[game]\nperiod_trigger = 1\n",
			[]string{`zeitnot.toml:2: period_trigger: want "flag" or "moves", got 1`}},
		{"after flag", "[game]\nafter_flag = [\"x\"]\n",
			[]string{`zeitnot.toml:2: after_flag: want "freeze" or "continue", got an array`}},
		{"preset typo", "[game]\ncontrol = \"fide-rapid-16\"\n",
			[]string{`zeitnot.toml:2: control: want a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30", got "fide-rapid-16" (did you mean "fide-rapid-15"?)`}},
		{"bad notation", "[game]\ncontrol = \"40/5400+\"\n",
			[]string{`zeitnot.toml:2: control: want a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30", got "40/5400+" (column 9: unexpected end of text, want increment seconds (a whole number))`}},
		{"profile", "profile = \"two oled\"\n",
			[]string{`zeitnot.toml:1: profile: want a built-in profile name like "sim" or the path of a profile file, got "two oled"`}},
		{"combination", "[lock]\ncombination = \"ok\"\n",
			[]string{`zeitnot.toml:2: combination: want two or more of pause, plus, minus, ok joined by '+', like "plus+minus", got "ok"`}},
		{"combination twice", "[lock]\ncombination = \"ok+ok\"\n",
			[]string{`zeitnot.toml:2: combination: want two or more of pause, plus, minus, ok joined by '+', like "plus+minus", got "ok+ok"`}},
		{"unknown key", "[sound]\nenabled = true\n\n\n\n\nvolum = 3\n",
			[]string{`zeitnot.toml:7: unknown key "sound.volum"`}},
		{"key in the wrong table", "[sound]\nbrightness = 3\n",
			[]string{`zeitnot.toml:2: unknown key "sound.brightness" (did you mean "display.brightness"?)`}},
		{"key typo", "[display]\nbrightnes = 3\n",
			[]string{`zeitnot.toml:2: unknown key "display.brightnes" (did you mean "display.brightness"?)`}},
		{"unknown table", "[sond]\nenabled = true\n",
			[]string{`zeitnot.toml:1: unknown table [sond] (did you mean [sound]?)`}},
		{"unknown top-level", "a = 1\n",
			[]string{`zeitnot.toml:1: unknown key "a"`}},
		{"quoted unknown key", "[lock]\n\"my key\" = 1\n",
			[]string{`zeitnot.toml:2: unknown key "lock.\"my key\""`}},
		{"table is a value", "display = 5\n",
			[]string{`zeitnot.toml:1: display: want a table [display], got 5`}},
		{"array of tables", "[game]\ncontrol = \"300\"\n[[sound]]\nenabled = true\n",
			[]string{`zeitnot.toml:3: sound: want a table [sound], got an array`}},
		{"dotted key line", "sound.enabled = true\n\ndisplay.white = \"up\"\n",
			[]string{`zeitnot.toml:3: white: want "left" or "right", got "up"`}},
		{"multiline string before", "profile = \"\"\"\nsim\n\"\"\"\n[display]\nwhite = 1\n",
			[]string{
				`zeitnot.toml:1: profile: want a built-in profile name like "sim" or the path of a profile file, got "sim\n"`,
				`zeitnot.toml:5: white: want "left" or "right", got 1`,
			}},
		{"errors in line order", "[sound]\nflag_alarm = 1\n[display]\nbrightness = -1\nwhite = 2\n",
			[]string{
				`zeitnot.toml:2: flag_alarm: want true or false, got 1`,
				`zeitnot.toml:4: brightness: want a whole number from 0 to 100, got -1`,
				`zeitnot.toml:5: white: want "left" or "right", got 2`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Parse("zeitnot.toml", []byte(tt.src), Defaults(SimProfile))
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
	base.Display.TenthsBelow = 5 * time.Second
	got, errs := Parse("settings.toml", []byte("[display]\ntenths_below = \"abc\"\nbrightness = 30\n"), base)
	if len(errs) != 1 {
		t.Fatalf("errors: %q", errStrings(errs))
	}
	if got.Display.TenthsBelow != 5*time.Second || got.Display.Brightness != 30 {
		t.Errorf("got tenths %v brightness %d, want 5s and 30", got.Display.TenthsBelow, got.Display.Brightness)
	}
	var e *Error
	if !asError(errs[0], &e) || e.File != "settings.toml" || e.Line != 2 || e.Key != "display.tenths_below" || e.Unknown {
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
	base.Display.Brightness = 42
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
		got, errs := Parse("zeitnot.toml", []byte(tt.src), base)
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
	write(t, etc, "profile = \"club-board\"\n[display]\nbrightness = 50\ntenths_below = \"10s\"\n[sound]\npress_beep = true\n")
	write(t, filepath.Join(state, SettingsFile), "[display]\nbrightness = 70\n[lock]\nlocked = true\n")
	def := Defaults("default-board")

	l, errs := LoadLayers(etc, state, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	want := def
	want.Profile = "club-board"
	want.Display.Brightness = 50
	want.Display.TenthsBelow = 10 * time.Second
	want.Sound.PressBeep = true
	if l.Club != want || l.ClubFile != etc {
		t.Errorf("club %s: got\n%s\nwant\n%s", l.ClubFile, l.Club, want)
	}
	want.Display.Brightness = 70
	want.Lock.Locked = true
	if l.Effective != want {
		t.Errorf("effective: got\n%s\nwant\n%s", l.Effective, want)
	}

	// An imported club config replaces /etc's as a whole.
	imported := filepath.Join(state, ImportedFile)
	write(t, imported, "[sound]\nenabled = false\n")
	l, errs = LoadLayers(etc, state, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	want = def
	want.Sound.Enabled = false
	if l.ClubFile != imported || l.Club != want {
		t.Errorf("imported club %s:\n%s", l.ClubFile, l.Club)
	}
	if l.Effective.Display.Brightness != 70 || l.Effective.Display.TenthsBelow != 20*time.Second || !l.Effective.Lock.Locked {
		t.Errorf("effective over imported:\n%s", l.Effective)
	}

	// No state directory: the club config alone.
	l, errs = LoadLayers(etc, "", def)
	if len(errs) > 0 || l.ClubFile != etc || l.SettingsFile != "" || l.Effective != l.Club || l.Club.Profile != "club-board" {
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
	c, errs := Load(dir, Defaults(SimProfile))
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

func TestResolve(t *testing.T) {
	tests := []struct {
		game    Game
		control string
		opt     clock.Options
	}{
		{Game{Control: "fide-classical"}, "40/5400+30:1800+30", clock.DefaultOptions},
		{Game{Control: "fide-blitz-3"}, "180+2", clock.Options{FirstIncrement: true, AfterFlag: clock.Continue}},
		{Game{Control: "fide-blitz-3", AfterFlag: Some(clock.Freeze)}, "180+2", clock.DefaultOptions},
		{Game{Control: "300|240", FirstIncrement: Some(false), PeriodTrigger: Some(clock.OnMoves)}, "300|240",
			clock.Options{FirstIncrement: false, PeriodTrigger: clock.OnMoves}},
	}
	for _, tt := range tests {
		pair, opt, err := tt.game.Resolve()
		if err != nil {
			t.Errorf("%+v: %v", tt.game, err)
			continue
		}
		if timecontrol.FormatPair(pair) != tt.control || opt != tt.opt {
			t.Errorf("%+v: got %s %+v, want %s %+v", tt.game, pair, opt, tt.control, tt.opt)
		}
	}
	if _, _, err := (Game{Control: "nonsense"}).Resolve(); err == nil {
		t.Error("nonsense resolved")
	}
}

func TestParseCombination(t *testing.T) {
	good := map[string]string{
		"pause+ok": "pause+ok", "ok+pause": "pause+ok", "PLUS + Minus": "plus+minus",
		"ok+minus+plus+pause": "pause+plus+minus+ok",
	}
	for in, want := range good {
		if got, err := ParseCombination(in); err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ok", "ok+", "ok+ok", "ok+left", "pause+ok+pause", "+"} {
		if got, err := ParseCombination(in); err == nil {
			t.Errorf("%q: got %q, want an error", in, got)
		}
	}
}
