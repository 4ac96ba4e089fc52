package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// rig is a clock started by Setup on the simulated hardware, with the
// club config club and the state directory state, on a virtual clock.
type rig struct {
	t    *testing.T
	m    *Machine
	devs *profile.Devices
	now  time.Duration
	log  []string
}

func boot(t *testing.T, club, state string) *rig {
	t.Helper()
	r := &rig{t: t}
	o := Opts{ConfigPath: club, StateDir: state, FallbackProfile: config.SimProfile, Now: func() time.Duration { return r.now }}
	r.m, r.devs = Setup(o, func(s string) { r.log = append(r.log, s) })
	t.Cleanup(r.stop)
	return r
}

// stop is the end of the daemon: journal closed, devices closed.
func (r *rig) stop() {
	if r.m != nil {
		r.m.Core.Close()
		r.devs.Close()
		r.m = nil
	}
}

func (r *rig) ev(name string, k button.Kind) {
	r.m.Core.Button(button.Event{Button: name, Kind: k, At: r.now})
}

func (r *rig) press(names ...string) {
	for _, n := range names {
		r.ev(n, button.Press)
		r.now += 80 * time.Millisecond
		r.ev(n, button.Release)
		r.now += 120 * time.Millisecond
	}
}

func (r *rig) hold(name string) {
	r.ev(name, button.Press)
	r.now += 1500 * time.Millisecond
	r.ev(name, button.Hold)
	r.ev(name, button.Release)
	r.now += 100 * time.Millisecond
}

// settingsItem opens the settings page of the menu and acts on item i:
// ok changes a value one step, or does what the item says.
func (r *rig) settingsItem(i int) {
	r.hold(ui.OK)
	r.press(ui.Plus)         // Setup
	r.press(ui.Minus, ui.OK) // down to Settings
	for ; i > 0; i-- {
		r.press(ui.Minus) // down
	}
	r.press(ui.OK)
}

// builder opens the custom control builder on the clock's control, takes
// steps from the top with ok at each listed item, and starts the game (or
// saves a preset, with save).
func (r *rig) builder(toggle []int, save bool) {
	r.hold(ui.OK)
	r.press(ui.Plus, ui.OK) // Setup, Custom control
	at := 0
	for _, i := range append(toggle, map[bool]int{false: 5, true: 6}[save]) {
		for ; at < i; at++ {
			r.press(ui.Minus) // down
		}
		r.press(ui.OK)
	}
}

// pick starts a game on the preset with the key, from the menu.
func (r *rig) pick(key string) {
	r.t.Helper()
	path, ok := r.m.Core.PresetPath(key)
	if !ok {
		r.t.Fatalf("preset %s is not in the menu", key)
	}
	r.hold(ui.OK)
	r.press(path...)
}

// problems are the messages the clock shows at start: bad files.
func (r *rig) problems() []string { return r.m.Core.Status(r.now).Messages }

// TestEverySetting walks every field of the settings: its default, a file
// setting it, a round trip through the file format, the menu changing it
// (where the menu can), and a restart keeping what the menu did.
func TestEverySetting(t *testing.T) {
	tests := []struct {
		field    string
		file     string               // a club file setting it
		fromFile func(s *ui.Settings) // what the file does to the defaults
		menu     func(r *rig)         // nil: not in the menu
		fromMenu func(s *ui.Settings) // what the menu does to the defaults
	}{
		{"Profile", "profile = \"sim-segment\"\n", func(s *ui.Settings) { s.Profile = "sim-segment" }, nil, nil},
		{"Control", "[game]\ncontrol = \"us-40-120-d5\"\n", func(s *ui.Settings) {
			s.Control, s.Options.PeriodTrigger = "us-40-120-d5", clock.OnMoves // the preset's own options
		}, func(r *rig) { r.pick("online-10") }, func(s *ui.Settings) {
			s.Control = "online-10"
		}},
		{"Options", "[game]\nperiod_trigger = \"moves\"\nfirst_increment = false\n", func(s *ui.Settings) {
			s.Options.PeriodTrigger, s.Options.FirstIncrement = clock.OnMoves, false
		}, func(r *rig) { r.builder([]int{2, 4}, false) }, func(s *ui.Settings) {
			// The builder plays a notation with the options it was given.
			s.Control = "40/5400+30:1800+30"
			s.Options.PeriodTrigger, s.Options.AfterFlag = clock.OnMoves, clock.Continue
		}},
		{"TenthsBelow", "[display]\ntenths_below = \"1m\"\n", func(s *ui.Settings) { s.TenthsBelow = 60000 },
			func(r *rig) { r.settingsItem(5) }, func(s *ui.Settings) { s.TenthsBelow = 30000 }},
		{"Brightness", "[display]\nbrightness = 35\n", func(s *ui.Settings) { s.Brightness = 35 },
			func(r *rig) { r.settingsItem(4) }, func(s *ui.Settings) { s.Brightness = 90 }},
		{"ShowMoves", "[display]\nshow_moves = false\n", func(s *ui.Settings) { s.ShowMoves = false },
			func(r *rig) { r.settingsItem(6) }, func(s *ui.Settings) { s.ShowMoves = false }},
		{"WhiteLeft", "[display]\nwhite = \"right\"\n", func(s *ui.Settings) { s.WhiteLeft = false },
			func(r *rig) { r.settingsItem(7) }, func(s *ui.Settings) { s.WhiteLeft = false }},
		{"Sound", "[sound]\nenabled = false\n", func(s *ui.Settings) { s.Sound = false },
			func(r *rig) { r.settingsItem(0) }, func(s *ui.Settings) { s.Sound = false }},
		{"PressBeep", "[sound]\npress_beep = true\n", func(s *ui.Settings) { s.PressBeep = true },
			func(r *rig) { r.settingsItem(1) }, func(s *ui.Settings) { s.PressBeep = true }},
		{"LowTimeMs", "[sound]\nlow_time_warning = \"off\"\n", func(s *ui.Settings) { s.LowTimeMs = 0 },
			func(r *rig) { r.settingsItem(2) }, func(s *ui.Settings) { s.LowTimeMs = 30000 }},
		{"FlagAlarm", "[sound]\nflag_alarm = false\n", func(s *ui.Settings) { s.FlagAlarm = false },
			func(r *rig) { r.settingsItem(3) }, func(s *ui.Settings) { s.FlagAlarm = false }},
		{"SpeechLeft", "[speech]\nleft = \"fr\"\n", func(s *ui.Settings) { s.SpeechLeft = speech.French },
			nil, nil},
		{"SpeechRight", "[speech]\nright = \"off\"\n", func(s *ui.Settings) { s.SpeechRight = speech.Off },
			nil, nil},
		{"SpokenMenu", "[speech]\nspoken_menu = true\n", func(s *ui.Settings) { s.SpokenMenu = true },
			nil, nil},
		{"SpeechWPM", "[speech]\nwords_per_minute = 450\n", func(s *ui.Settings) { s.SpeechWPM = 450 }, nil, nil},
		// Lock now without a PIN asks for one, twice: ok 8 times is 0000.
		{"Locked", "[lock]\nlocked = true\npin = \"4711\"\n", func(s *ui.Settings) { s.Locked, s.PINHash = true, config.HashPIN("4711") },
			func(r *rig) { r.settingsItem(8); r.press(slices.Repeat([]string{ui.OK}, 8)...) },
			func(s *ui.Settings) { s.Locked, s.PINHash = true, config.HashPIN("0000") }},
		{"PINHash", "[lock]\npin_hash = \"" + config.HashPIN("4711") + "\"\n", func(s *ui.Settings) { s.PINHash = config.HashPIN("4711") },
			func(r *rig) { r.settingsItem(9); r.press(slices.Repeat([]string{ui.OK}, 8)...) },
			func(s *ui.Settings) { s.PINHash = config.HashPIN("0000") }},
	}
	var covered []string
	for _, tt := range tests {
		covered = append(covered, tt.field)
	}
	var all []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[ui.Settings]()) {
		all = append(all, f.Name)
	}
	if !reflect.DeepEqual(covered, all) {
		t.Fatalf("the test walks %v; the settings have %v", covered, all)
	}

	def := config.Defaults(config.SimProfile)
	r := boot(t, filepath.Join(t.TempDir(), "none.toml"), t.TempDir())
	if got := r.m.Core.Settings(); got != def || len(r.problems()) > 0 {
		t.Fatalf("defaults: got\n%s\nwant\n%s\n%q", got, def, r.problems())
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			dir := t.TempDir()
			club := filepath.Join(dir, "zeitnot.toml")
			if err := os.WriteFile(club, []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			want := def
			tt.fromFile(&want)
			r := boot(t, club, filepath.Join(dir, "state"))
			if got := r.m.Core.Settings(); got != want || len(r.problems()) > 0 {
				t.Errorf("from the file: got\n%s\nwant\n%s\n%q", got, want, r.problems())
			}
			if back, errs := config.Parse("x.toml", config.Format(want), config.Settings{}, nil); back != want || len(errs) > 0 {
				t.Errorf("file round trip: got\n%s\nwant\n%s\n%q", back, want, errs)
			}
			r.stop()
			if tt.menu == nil {
				return
			}

			state := filepath.Join(dir, "menu")
			r = boot(t, filepath.Join(dir, "none.toml"), state)
			tt.menu(r)
			want = def
			tt.fromMenu(&want)
			if got := r.m.Core.Settings(); got != want {
				t.Errorf("from the menu: got\n%s\nwant\n%s", got, want)
			}
			r.stop()
			r = boot(t, filepath.Join(dir, "none.toml"), state)
			if got := r.m.Core.Settings(); got != want || len(r.problems()) > 0 {
				data, _ := os.ReadFile(filepath.Join(state, config.SettingsFile))
				t.Errorf("after a restart: got\n%s\nwant\n%s\n%q\nsettings.toml:\n%s", got, want, r.problems(), data)
			}
		})
	}
}

// A saved preset chosen from the menu is still the control after a
// restart: settings.toml holds its key, which the loader knows, not its
// name, which it rejected ("control: want a preset key ... got \"Club
// blitz\""), so the clock fell back to fide-classical.
func TestSavedPresetChosenSurvivesRestart(t *testing.T) {
	for _, keyed := range []bool{false, true} {
		dir := t.TempDir()
		club := filepath.Join(dir, "zeitnot.toml")
		state := filepath.Join(dir, "state")
		if err := os.MkdirAll(state, 0o755); err != nil {
			t.Fatal(err)
		}
		file := "[[preset]]\nname = \"Club blitz\"\ncontrol = \"300+3\"\nafter_flag = \"continue\"\n" +
			"\n[[preset]]\nname = \"Club blitz\"\ncontrol = \"300+2\"\n" // alike names
		if keyed {
			file = strings.ReplaceAll(file, "[[preset]]\n", "[[preset]]\nkey = \"KEY\"\n")
			file = strings.Replace(file, "KEY", "club-a", 1)
			file = strings.Replace(file, "KEY", "club-b", 1)
		}
		if err := os.WriteFile(filepath.Join(state, config.PresetsFile), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		key := map[bool]string{false: "saved-2", true: "club-b"}[keyed] // the second one
		r := boot(t, club, state)
		r.pick(key)
		if s := r.m.Core.Settings(); s.Control != key || s.Options != clock.DefaultOptions {
			t.Fatalf("keyed %v: chosen: %s", keyed, s)
		}
		r.stop()
		// The game that was set up is gone (finished and archived): the
		// control comes from the settings alone.
		if err := os.Remove(filepath.Join(state, journal.File)); err != nil {
			t.Fatal(err)
		}
		r = boot(t, club, state)
		s, st := r.m.Core.Settings(), r.m.Core.Status(r.now)
		if s.Control != key || st.Control != "300+2" || len(r.problems()) > 0 {
			data, _ := os.ReadFile(filepath.Join(state, config.SettingsFile))
			t.Errorf("keyed %v: after a restart: control %q playing %s, problems %q\nsettings.toml:\n%s", keyed, s.Control, st.Control, r.problems(), data)
		}
	}
}

// Two presets saved from the builder get names cut to the same 16
// characters ("120/40+60/20+15'"); both come back after a restart.
func TestSavedPresetsWithLikeNames(t *testing.T) {
	dir := t.TempDir()
	club := filepath.Join(dir, "zeitnot.toml")
	state := filepath.Join(dir, "state")
	specs := []string{"40/7200:20/3600:900+30", "40/7200:20/3600:900+10"}
	for _, spec := range specs {
		if err := os.WriteFile(club, []byte("[game]\ncontrol = \""+spec+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(state, journal.File)) // a fresh game on the club's control
		r := boot(t, club, state)
		r.builder(nil, true)
		r.stop()
	}
	r := boot(t, club, state)
	if len(r.problems()) > 0 {
		t.Errorf("problems: %q", r.problems())
	}
	ps, errs := config.LoadPresets(filepath.Join(state, config.PresetsFile))
	if len(errs) > 0 || len(ps) != 2 {
		t.Fatalf("presets %v, %q", ps, errs)
	}
	for i, p := range ps {
		if p.Spec != specs[i] || p.Name != "120/40+60/20+15'" {
			t.Errorf("preset %d: %+v", i, p)
		}
		if _, ok := r.m.Core.PresetPath(p.Key); !ok {
			t.Errorf("preset %s is not in the menu", p.Key)
		}
	}
	if ps[0].Key == ps[1].Key {
		t.Errorf("both presets have the key %s", ps[0].Key)
	}
}

// Deleting the saved preset that is the control keeps the control, as its
// notation: settings.toml never names a key that is gone.
func TestDeleteSavedPresetInUse(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	os.MkdirAll(state, 0o755)
	if err := os.WriteFile(filepath.Join(state, config.PresetsFile), []byte("[[preset]]\nkey = \"club\"\nname = \"Club\"\ncontrol = \"300+4\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := boot(t, filepath.Join(dir, "none.toml"), state)
	r.pick("club")
	r.hold(ui.OK)
	r.press(ui.Plus)                   // Setup
	r.press(ui.Minus, ui.Minus, ui.OK) // down to Saved presets
	r.press(ui.OK, ui.OK)              // Delete Club? ok: yes
	if s := r.m.Core.Settings(); s.Control != "300+4" {
		t.Errorf("control %q after deleting its preset", s.Control)
	}
	r.stop()
	r = boot(t, filepath.Join(dir, "none.toml"), state)
	if s := r.m.Core.Settings(); s.Control != "300+4" || len(r.problems()) > 0 {
		t.Errorf("after a restart: control %q, %q", s.Control, r.problems())
	}
	if ps, _ := config.LoadPresets(filepath.Join(state, config.PresetsFile)); len(ps) != 0 {
		t.Errorf("presets left: %v", ps)
	}
}

// TestStoreSavesWhatChanged: the menu's changes land in settings.toml and
// override the club file at the next start; presets in presets.toml.
func TestStoreSavesWhatChanged(t *testing.T) {
	dir := t.TempDir()
	club := config.Defaults("sim")
	st := &fileStore{dir: dir, club: club}
	s := club
	s.Sound = false
	s.Locked, s.PINHash = true, config.HashPIN("4711")
	if err := st.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, config.SettingsFile))
	if !strings.HasSuffix(string(data), "\n[sound]\nenabled = false\n\n[lock]\nlocked = true\npin_hash = \""+s.PINHash+"\"\n") {
		t.Errorf("settings.toml:\n%s", data)
	}
	layers, errs := config.LoadLayers(filepath.Join(dir, "none.toml"), dir, config.Defaults("sim"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if layers.Effective != s {
		t.Errorf("saved settings not read back: %+v", layers.Effective)
	}
}

// A named pipe in place of any file the daemon reads at start does not
// hang it: the clock starts on the defaults and says what was wrong.
func TestSetupWithNamedPipes(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	os.MkdirAll(state, 0o755)
	club := filepath.Join(dir, "zeitnot.toml")
	for _, p := range []string{club, filepath.Join(state, config.SettingsFile), filepath.Join(state, config.PresetsFile), filepath.Join(state, config.ImportErrorsFile)} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no named pipes here:", err)
		}
	}
	done := make(chan *rig)
	go func() { done <- boot(t, club, state) }()
	select {
	case r := <-done:
		if s := r.m.Core.Settings(); s != config.Defaults(config.SimProfile) {
			t.Errorf("settings %s", s)
		}
		if p := strings.Join(r.problems(), "\n"); strings.Count(p, "not a regular file (a named pipe)") != 3 {
			t.Errorf("problems:\n%s", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Setup blocked on a named pipe")
	}
}

// A preset saved after another was deleted gets a key of its own, never
// the key of one still there.
func TestNewPresetKeyAfterDelete(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	os.MkdirAll(state, 0o755)
	file := "[[preset]]\nkey = \"saved-1\"\nname = \"One\"\ncontrol = \"60\"\n\n[[preset]]\nkey = \"saved-2\"\nname = \"Two\"\ncontrol = \"120\"\n"
	if err := os.WriteFile(filepath.Join(state, config.PresetsFile), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	r := boot(t, filepath.Join(dir, "none.toml"), state)
	r.hold(ui.OK)
	r.press(ui.Plus)                   // Setup
	r.press(ui.Minus, ui.Minus, ui.OK) // down to Saved presets
	r.press(ui.OK, ui.OK)              // Delete One? ok: yes
	r.press(ui.Pause, ui.Pause, ui.Pause)
	r.builder(nil, true)
	r.stop()
	ps, errs := config.LoadPresets(filepath.Join(state, config.PresetsFile))
	var keys []string
	for _, p := range ps {
		keys = append(keys, p.Key+" "+p.Name)
	}
	if want := []string{"saved-2 Two", `saved-3 90/40+30'+30"`}; len(errs) > 0 || !reflect.DeepEqual(keys, want) {
		t.Errorf("presets %q, want %q (%q)", keys, want, errs)
	}
}
