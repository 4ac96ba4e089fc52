package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
)

func TestFormat(t *testing.T) {
	c := Defaults("/etc/zeitnot/board \"2\".toml")
	c.Game = Game{Control: "300+2|240+2", FirstIncrement: Some(false), AfterFlag: Some(clock.Continue)}
	c.Display.TenthsBelow = 1500 * time.Millisecond
	c.Sound.LowTimeWarning = 0
	c.Lock.Locked = true
	want := `profile = "/etc/zeitnot/board \"2\".toml"

[game]
control = "300+2|240+2"
first_increment = false
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

[lock]
locked = true
combination = "plus+minus"
`
	if got := string(Format(c)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, errs := Parse("x.toml", Format(c), Defaults("other"))
	if len(errs) > 0 || back != c {
		t.Errorf("round trip: %q\n%s", errStrings(errs), back)
	}
}

func TestQuote(t *testing.T) {
	for _, s := range []string{"", "a", `"`, `\`, "\n\t\r", "\x01\x7f", "é ♞", "\xff"} {
		c := Defaults(SimProfile)
		c.Profile = "/" + s
		back, errs := Parse("q.toml", Format(c), Defaults(SimProfile))
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
	club.Display.Brightness = 50
	club.Game.AfterFlag = Some(clock.Continue)

	dev := club
	if got := string(FormatDiff(club, dev)); got != "" {
		t.Errorf("no change: got %q", got)
	}
	dev.Display.Brightness = 90
	dev.Lock.Locked = true
	dev.Game.FirstIncrement = Some(true)
	want := "[game]\nfirst_increment = true\n\n[display]\nbrightness = 90\n\n[lock]\nlocked = true\n"
	if got := string(FormatDiff(club, dev)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back, errs := Parse("settings.toml", FormatDiff(club, dev), club)
	if len(errs) > 0 || back != dev {
		t.Errorf("diff round trip: %q\n%s", errStrings(errs), back)
	}
	dev.Profile = "other"
	if got := string(FormatDiff(club, dev)); !strings.HasPrefix(got, "profile = \"other\"\n\n[game]\n") {
		t.Errorf("top-level key: %q", got)
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
	dev.Display.White = Right
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
	if l.Effective.Display.Brightness != 20 || l.Effective.Display.White != Right {
		t.Errorf("after a club change: brightness %d white %v, want 20 right", l.Effective.Display.Brightness, l.Effective.Display.White)
	}
}
