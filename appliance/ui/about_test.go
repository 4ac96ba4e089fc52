package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/screen"
)

// openAbout opens Setup › About from the game screen before a game: hold
// ok for the menu, + for Setup, + (up from the first entry, to the last)
// for About, ok.
func openAbout(d *driver) screen.Menu {
	d.hold(OK)
	d.press(Plus, Plus, OK)
	return d.c.View(d.now).Menu
}

func TestAboutShowsTheVersion(t *testing.T) {
	for _, tc := range []struct {
		version string
		lines   []string
	}{
		{"v1.2.0", []string{"v1.2.0"}},
		{"v1.2.0-3-gabcdef1", []string{"v1.2.0-3-", "gabcdef1"}},
		{"v1.2.0-13-gabcdef1-dirty", []string{"v1.2.0-13-", "gabcdef1-dirty"}},
		{"0123456789abcdef0123", []string{"0123456789abcdef", "0123"}},
	} {
		d := newDriver(t, Opts{Version: tc.version})
		m := openAbout(d)
		if m.Title != "About" {
			t.Fatalf("%s: Setup's last entry opens %q, want About", tc.version, m.Title)
		}
		want := append([]string{"zeitnot", "Version"}, tc.lines...)
		if !reflect.DeepEqual(m.Items, want) {
			t.Errorf("%s: About shows %q, want %q", tc.version, m.Items, want)
		}
		for _, l := range m.Items {
			if len(l) > aboutWidth {
				t.Errorf("%s: line %q is longer than %d", tc.version, l, aboutWidth)
			}
		}
		if got := strings.Join(m.Items[2:], ""); got != tc.version {
			t.Errorf("%s: the lines join to %q", tc.version, got)
		}
		// ok changes nothing; pause goes back to Setup.
		d.press(OK)
		if m := d.c.View(d.now).Menu; m.Title != "About" {
			t.Errorf("%s: ok on About left it for %q", tc.version, m.Title)
		}
		d.press(Pause)
		if m := d.c.View(d.now).Menu; m.Title != "Setup" {
			t.Errorf("%s: pause on About went to %q, want Setup", tc.version, m.Title)
		}
	}
}

// The version set by the zeitnot command (Version) is what About shows
// when Opts gives none.
func TestAboutDefaultsToThePackageVersion(t *testing.T) {
	old := Version
	t.Cleanup(func() { Version = old })
	Version = "v9.8.7"
	if m := openAbout(newDriver(t, Opts{})); !reflect.DeepEqual(m.Items, []string{"zeitnot", "Version", "v9.8.7"}) {
		t.Errorf("About shows %q, want the package's Version v9.8.7", m.Items)
	}
}

// The outline (the manual, the card) shows OutlineVersion, whatever the
// build's version.
func TestOutlineAboutIsFixed(t *testing.T) {
	old := Version
	t.Cleanup(func() { Version = old })
	Version = "v9.8.7"
	for _, o := range Outline(DefaultSettings) {
		if o.Title != "About" {
			continue
		}
		var labels []string
		for _, it := range o.Items {
			labels = append(labels, it.Label)
		}
		if want := []string{"zeitnot", "Version", OutlineVersion}; !reflect.DeepEqual(labels, want) {
			t.Errorf("the outline's About shows %q, want %q", labels, want)
		}
		return
	}
	t.Error("the outline has no About page")
}
