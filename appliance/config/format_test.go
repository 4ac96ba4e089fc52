package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

func TestFormat(t *testing.T) {
	c := Defaults("/etc/zeitnot/board \"2\".toml")
	c.Control = "300+2|240+2"
	c.Options = clock.Options{FirstIncrement: false, AfterFlag: clock.Continue}
	c.TenthsBelow = 1500
	c.LowTimeMs = 0
	c.Locked = true
	c.PINHash = HashPIN("4711")
	want := `profile = "/etc/zeitnot/board \"2\".toml"

[game]
control = "300+2|240+2"
first_increment = false
period_trigger = "flag"
after_flag = "continue"

[display]
tenths_below = "1.5s"
brightness = 80
show_moves = true
white = "left"

[sound]
enabled = true
press_beep = false
low_time_warning = "off"
flag_alarm = true

[speech]
left = "en"
right = "en"
spoken_menu = false
words_per_minute = 340

[lock]
locked = true
pin_hash = "` + HashPIN("4711") + `"
`
	if got := string(Format(c)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, errs := Parse("x.toml", Format(c), Defaults("other"), nil)
	if len(errs) > 0 || back != c {
		t.Errorf("round trip: %q\n%s", errStrings(errs), back)
	}
}

func TestQuote(t *testing.T) {
	for _, s := range []string{"", "a", `"`, `\`, "\n\t\r", "\x01\x7f", "é ♞", "\xff"} {
		c := Defaults(SimProfile)
		c.Profile = "/" + s
		back, errs := Parse("q.toml", Format(c), Defaults(SimProfile), nil)
		want := c.Profile
		if s == "\xff" {
			want = "/\uFFFD"
		}
		if s == "\n\t\r" || s == "\x01\x7f" {
			// Control characters are not valid in a profile path: the
			// writer must still write TOML that parses.
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "profile:") {
				t.Errorf("%q: %q", s, errStrings(errs))
			}
			continue
		}
		if len(errs) > 0 || back.Profile != want {
			t.Errorf("%q: got %q, %q", s, back.Profile, errStrings(errs))
		}
	}
}

func TestFormatDiff(t *testing.T) {
	club := Defaults(SimProfile)
	club.Brightness = 50
	club.Options.AfterFlag = clock.Continue
	club.PINHash = HashPIN("1234") // the club's: a clock that only locks writes no PIN

	dev := club
	if got := string(FormatDiff(club, dev)); got != "" {
		t.Errorf("no change: got %q", got)
	}
	dev.Brightness = 90
	dev.Locked = true
	dev.Options.PeriodTrigger = clock.OnMoves
	want := "[game]\nperiod_trigger = \"moves\"\n\n[display]\nbrightness = 90\n\n[lock]\nlocked = true\npin_hash = \"" + club.PINHash + "\"\n"
	if got := string(FormatDiff(club, dev)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, errs := Parse("settings.toml", FormatDiff(club, dev), club, nil)
	if len(errs) > 0 || back != dev {
		t.Errorf("diff round trip: %q\n%s", errStrings(errs), back)
	}
	dev.Profile = "other"
	if got := string(FormatDiff(club, dev)); !strings.HasPrefix(got, "profile = \"other\"\n\n[game]\n") {
		t.Errorf("top-level key: %q", got)
	}

	// A new control is written with all its options, whatever they are:
	// a file that names a control without options gets the control's own.
	dev = club
	dev.Control = "300+3"
	dev.Options.AfterFlag = clock.Continue // not 300+3's own, but the club's
	want = "[game]\ncontrol = \"300+3\"\nfirst_increment = true\nperiod_trigger = \"flag\"\nafter_flag = \"continue\"\n"
	if got := string(FormatDiff(club, dev)); got != want {
		t.Errorf("new control: got\n%s\nwant\n%s", got, want)
	}
	if back, errs := Parse("settings.toml", FormatDiff(club, dev), club, nil); len(errs) > 0 || back != dev {
		t.Errorf("new control round trip: %q\n%s", errStrings(errs), back)
	}
}

// Saving writes only what the device changed, so a new club config still
// takes effect for every other key.
func TestSaveSettingsKeepsClubChanges(t *testing.T) {
	dir := t.TempDir()
	etc := filepath.Join(dir, "zeitnot.toml")
	write(t, etc, "[display]\nbrightness = 50\n")
	def := Defaults(SimProfile)
	l, errs := LoadLayers(etc, dir, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	dev := l.Effective
	dev.WhiteLeft = false
	if err := SaveSettings(l.SettingsFile, l.Club, dev); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(l.SettingsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "white = \"right\"") || strings.Contains(string(data), "brightness") {
		t.Errorf("settings file:\n%s", data)
	}

	write(t, etc, "[display]\nbrightness = 20\n")
	l, errs = LoadLayers(etc, dir, def)
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	if l.Effective.Brightness != 20 || l.Effective.WhiteLeft {
		t.Errorf("after a club change: brightness %d white left %v, want 20 and right", l.Effective.Brightness, l.Effective.WhiteLeft)
	}
}
