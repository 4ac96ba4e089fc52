package ui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// outlinePage returns the outline's page titled title at moment when.
func outlinePage(t *testing.T, out []MenuOutline, when, title string) MenuOutline {
	t.Helper()
	for _, o := range out {
		if o.When == when && o.Title == title {
			return o
		}
	}
	t.Fatalf("the outline has no page %q at %q", title, when)
	return MenuOutline{}
}

// names reports whether label is the line an outline entry named name
// shows: the name alone, or the name and a value.
func names(name, label string) bool {
	return label == name || strings.HasPrefix(label, name+" ")
}

// TestOutlineArbiterItems: every line the arbiter's menu shows, in games
// paused in every way the tests know, is an item of the outline's arbiter
// menu, and the outline lists nothing the menu never shows. A new item in
// the menu is on the card and in the manual, which are made from the
// outline.
func TestOutlineArbiterItems(t *testing.T) {
	arb := outlinePage(t, Outline(DefaultSettings), WhenPaused, "Arbiter")
	if !slices.Equal(arb.Path, []string{"hold ok"}) || arb.Kind != "list" {
		t.Errorf("arbiter menu: path %q kind %s", arb.Path, arb.Kind)
	}
	right := DefaultSettings
	right.WhiteLeft = false
	quota := withControl("40/5400+30:1800+30")
	cont := oneMinute(clock.Continue)
	states := map[string]func() *driver{
		"two moves": func() *driver {
			d := newDriver(t, Opts{})
			d.press(Right)
			d.wait(3 * time.Second)
			d.press(Left)
			d.wait(4 * time.Second)
			d.press(Right, Pause)
			return d
		},
		"white on the right": func() *driver {
			d := newDriver(t, Opts{Settings: right})
			d.press(Left, Pause)
			return d
		},
		"white overstepped": func() *driver {
			d := newDriver(t, Opts{Settings: quota})
			d.press(Right)
			d.wait(91 * time.Minute)
			d.press(Pause)
			return d
		},
		"black overstepped": func() *driver {
			d := newDriver(t, Opts{Settings: quota})
			d.press(Right)
			d.wait(time.Second)
			d.press(Left)
			d.wait(91 * time.Minute)
			d.press(Pause)
			return d
		},
		"flag, play on, stopped": func() *driver {
			d := newDriver(t, cont)
			d.press(Right)
			d.wait(61 * time.Second)
			d.press(OK) // the first ok stops the clock
			return d
		},
	}
	shown := map[string]bool{}
	for name, state := range states {
		d := state()
		d.hold(OK)
		if d.c.ScreenName() != "menu:arbiter" {
			t.Fatalf("%s: hold ok opened %s", name, d.c.ScreenName())
		}
		for _, label := range d.c.View(d.now).Menu.Items {
			found := false
			for _, it := range arb.Items {
				if names(it.Name, label) {
					found, shown[it.Name] = true, true
				}
			}
			if !found {
				t.Errorf("%s: the menu shows %q, the outline does not have it", name, label)
			}
		}
	}
	for _, it := range arb.Items {
		if !shown[it.Name] {
			t.Errorf("the outline has %q, no game showed it", it.Name)
		}
	}
}

// TestOutlinePresets: every preset the menu lists is a leaf of the
// outline's preset tree, at the path PresetPath gives, and says its name.
func TestOutlinePresets(t *testing.T) {
	out := Outline(DefaultSettings)
	c := New(Opts{Settings: DefaultSettings})
	leaves := map[string][]string{} // what a leaf says: its path
	for _, o := range out {
		if o.When != WhenSetup || o.Kind != "choose" {
			continue
		}
		for _, it := range o.Items {
			if it.Opens == "" && it.Says != "" {
				leaves[it.Says] = append(o.Path[:len(o.Path):len(o.Path)], it.Key)
			}
		}
	}
	for _, p := range menuPresets(c.allPresets()) {
		want, ok := c.PresetPath(p.Key)
		if !ok {
			t.Fatalf("%s: no path", p.Key)
		}
		if got := leaves[p.Name]; !slices.Equal(got, append([]string{"hold ok"}, want...)) {
			t.Errorf("%s: outline path %q, PresetPath %q", p.Key, got, want)
		}
	}
}

// TestOutlineLines: each line is its name and its value; forms are split
// at the field being edited; a form's hidden fields are named.
func TestOutlineLines(t *testing.T) {
	out := Outline(DefaultSettings)
	for _, o := range out {
		if o.Title == "" || len(o.Path) == 0 {
			t.Errorf("page %+v: no title or path", o)
		}
		for _, it := range o.Items {
			if o.Kind == "choose" {
				// The mark of the entry's button, then its name.
				if k := slices.Index(chooseKeys[:], it.Key); k < 0 || it.Label != chooseMarks[k]+" "+it.Name || it.Value != "" {
					t.Errorf("%s: %q is not key %q and name %q", o.Title, it.Label, it.Key, it.Name)
				}
				continue
			}
			if it.Name == "" || (it.Value == "" && it.Label != it.Name) || (it.Value != "" && it.Label != it.Name+" "+it.Value) {
				t.Errorf("%s: %q is not name %q and value %q", o.Title, it.Label, it.Name, it.Value)
			}
		}
	}
	var timeNames []string
	for _, f := range timeFields() {
		timeNames = append(timeNames, f.label)
	}
	form := outlinePage(t, out, WhenPaused, "Time < white")
	var got []string
	for _, it := range form.Items {
		got = append(got, it.Name)
	}
	if !slices.Equal(got, timeNames) {
		t.Errorf("time form fields %q, want %q", got, timeNames)
	}
	period := outlinePage(t, out, WhenSetup, "Period 1")
	if !slices.Contains(period.Hidden, "overtime") {
		t.Errorf("period form: hidden %q, want overtime among them", period.Hidden)
	}
	settings := outlinePage(t, out, WhenSetup, "Settings")
	for _, it := range settings.Items {
		if it.Value != "" && !it.Steps {
			t.Errorf("settings: %q has a value the levers do not change", it.Label)
		}
	}
	for _, c := range []struct{ when, title, path string }{
		{WhenSetup, "Menu", "hold ok"},
		{WhenPaused, "Arbiter", "hold ok"},
		{WhenPaused, "+2:00 to?", "plus"},
	} {
		if p := outlinePage(t, out, c.when, c.title); strings.Join(p.Path, ",") != c.path {
			t.Errorf("%s: path %q, want %s", c.title, p.Path, c.path)
		}
	}
	// Holding ok while a clock runs opens no page: the control shows
	// beneath the times, which stay in view; the Control view is the
	// arbiter's.
	for _, o := range out {
		if o.When == WhenRunning {
			t.Errorf("a page over a running clock: %s (%q)", o.Title, o.Path)
		}
	}
	if p := outlinePage(t, out, WhenPaused, "Control"); p.Kind != "view" || p.Path[0] != "hold ok" || p.Path[len(p.Path)-1] != OK {
		t.Errorf("Control: kind %s, path %q", p.Kind, p.Path)
	}
}

// TestOutlineSameEveryTime: the outline depends on the settings alone,
// not on the lock, and writes nothing.
func TestOutlineSameEveryTime(t *testing.T) {
	a := Outline(DefaultSettings)
	locked := DefaultSettings
	locked.Locked = true
	if b := Outline(locked); !reflect.DeepEqual(a, b) {
		t.Error("the outline of a locked clock differs")
	}
	if b := Outline(DefaultSettings); !reflect.DeepEqual(a, b) {
		t.Error("two outlines differ")
	}
	right := DefaultSettings
	right.WhiteLeft = false
	arb := outlinePage(t, Outline(right), WhenPaused, "+2:00 to?")
	if arb.Items[0].Name != "black" {
		t.Errorf("white on the right: the +2:00 prompt's left lever gives %q", arb.Items[0].Name)
	}
}

// The +2:00 prompt, as the outline finds it: opened with plus while the
// game is paused, each side picked by its lever.
func ExampleOutline() {
	for _, o := range Outline(DefaultSettings) {
		if o.Title == "+2:00 to?" {
			fmt.Printf("%s: %s\n", o.When, strings.Join(o.Path, ", "))
			for _, it := range o.Items {
				fmt.Printf("%s: %s, then the display says %s\n", it.Key, it.Name, it.Says)
			}
		}
	}
	// Output:
	// the game paused: plus
	// left: white, then the display says +2:00 <
	// right: black, then the display says +2:00 >
}
