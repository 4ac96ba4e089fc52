package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/sim"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// The documents, from this package's directory.
const (
	cardFile   = "../../docs/card.svg"
	manualFile = "../../docs/arbiter-manual.md"
)

// TestCardUpToDate: docs/card.svg is what the generator draws from the
// menus now. After a change to the menus, `make card` redraws it.
func TestCardUpToDate(t *testing.T) {
	want, err := cardSVG(ui.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(cardFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/card.svg is out of date with the menus: run make card")
	}
}

// svgText is the text an SVG shows, its words separated by spaces.
func svgText(t *testing.T, svg []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the card is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.WriteString(strings.ReplaceAll(string(cd), nbsp, " "))
		}
		if _, ok := tok.(xml.EndElement); ok {
			b.WriteString(" ")
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestCardHasEveryMenuEntry: every entry of the arbiter's menu, of the
// setup menu, of the settings and of the custom control is on the card,
// and every preset, so that a new entry is on the card as soon as it is
// in a menu.
func TestCardHasEveryMenuEntry(t *testing.T) {
	svg, err := cardSVG(ui.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	text := svgText(t, svg)
	out := ui.Outline(ui.DefaultSettings)
	for _, p := range []struct{ when, title string }{
		{ui.WhenPaused, "Arbiter"},
		{ui.WhenPaused, "+2:00 to?"},
		{ui.WhenSetup, "Menu"},
		{ui.WhenSetup, "Setup"},
		{ui.WhenSetup, "Settings"},
		{ui.WhenSetup, "Custom"},
	} {
		page, ok := findPage(out, p.when, p.title)
		if !ok {
			t.Fatalf("no page %q in the outline", p.title)
		}
		if !strings.Contains(text, page.Title) {
			t.Errorf("the card does not name the page %q", page.Title)
		}
		for _, it := range page.Items {
			// "Time <" and "Time >" are one entry on the card: "Time < >".
			name := strings.TrimSuffix(strings.TrimSuffix(it.Name, " <"), " >")
			name = strings.TrimSuffix(name, " >") // a submenu's mark
			if !strings.Contains(text, name) {
				t.Errorf("%s: %q is not on the card", p.title, it.Name)
			}
		}
	}
	for _, r := range presetRows(out) {
		if !strings.Contains(text, r.label) {
			t.Errorf("preset %q is not on the card", r.label)
		}
	}
	for _, b := range append(flagBanners(ui.DefaultSettings, clock.Freeze), flagBanners(ui.DefaultSettings, clock.Continue)...) {
		if !strings.Contains(text, b) {
			t.Errorf("the card does not say what %q means", b)
		}
	}
}

// TestCardCommand: a club's config changes the card (the lever White
// plays), never shows its PIN; a missing config is an error naming it.
func TestCardCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte("[display]\nwhite = \"right\"\n[lock]\nlocked = true\npin = \"4711\"\n"), 0o644)
	out := filepath.Join(dir, "card.svg")
	if code, _, errOut := run(t, "card", "--config", cfg, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(out)
	text := svgText(t, data)
	if !strings.Contains(text, "White plays the right lever") {
		t.Error("the card does not say White plays the right lever")
	}
	// The card told every player how to unlock: it names neither the PIN
	// nor the old combination of keys held together.
	if strings.Contains(text, "4711") || strings.Contains(text, "together") || !strings.Contains(text, "PIN") {
		t.Errorf("the card's lock: %s", text)
	}
	code, _, errOut := run(t, "card", "--config", filepath.Join(dir, "nope.toml"))
	if code != 1 || !strings.Contains(errOut, "nope.toml") {
		t.Errorf("missing config: exit %d, %q", code, errOut)
	}
	if code, _, _ := run(t, "card", "extra"); code != 2 {
		t.Errorf("an extra argument: exit %d, want 2", code)
	}
}

// TestFlagBanners: what the displays say after a flag, for each option.
func TestFlagBanners(t *testing.T) {
	if got := flagBanners(ui.DefaultSettings, clock.Freeze); !slices.Equal(got, []string{"OK: NEW GAME"}) {
		t.Errorf("freeze: %q", got)
	}
	if got := flagBanners(ui.DefaultSettings, clock.Continue); !slices.Equal(got, []string{"OK: STOP CLOCK", "OK: NEW GAME"}) {
		t.Errorf("continue: %q", got)
	}
}

// TestManualUpToDate: the menu lists of docs/arbiter-manual.md are those
// the menus print now (`make manual` rewrites them), and every picture it
// shows is there.
func TestManualUpToDate(t *testing.T) {
	doc, err := os.ReadFile(manualFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := updateDoc("arbiter-manual.md", doc, ui.Outline(ui.DefaultSettings))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, doc) {
		t.Errorf("the menu lists of docs/arbiter-manual.md are out of date: run make manual")
	}
	if n := bytes.Count(doc, []byte(blockStart)); n < 5 {
		t.Errorf("the manual has %d outline blocks", n)
	}
	for _, m := range regexp.MustCompile(`\]\((manual/[^)]+\.png)\)`).FindAllSubmatch(doc, -1) {
		if _, err := os.Stat(filepath.Join(filepath.Dir(manualFile), string(m[1]))); err != nil {
			t.Errorf("the manual shows %s: %v", m[1], err)
		}
	}
}

func TestUpdateDoc(t *testing.T) {
	out := ui.Outline(ui.DefaultSettings)
	doc := "# x\n\n<!-- outline paused: Arbiter -->\nold text\n<!-- end outline -->\nafter\n"
	got, err := updateDoc("x.md", []byte(doc), out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "old text") || !strings.Contains(s, "| `Time <` |") || !strings.HasSuffix(s, "<!-- end outline -->\nafter\n") {
		t.Errorf("updated:\n%s", s)
	}
	again, _ := updateDoc("x.md", got, out)
	if !bytes.Equal(again, got) {
		t.Error("a second update changes the document")
	}
	for _, c := range []struct{ doc, err string }{
		{"a\n<!-- outline paused: Nothing -->\n<!-- end outline -->\n", `x.md:2: selector "paused: Nothing": no such page`},
		{"a\n\n<!-- outline presets -->\nno end\n", `x.md:3: outline block "presets" has no "<!-- end outline -->" line`},
		{"<!-- outline nonsense -->\n<!-- end outline -->\n", `x.md:1: selector "nonsense": want all, presets or MOMENT: TITLE`},
	} {
		if _, err := updateDoc("x.md", []byte(c.doc), out); err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %s", c.doc, err, c.err)
		}
	}
}

// TestOutlineCommand: the outline on standard output, and a document
// updated in place or checked.
func TestOutlineCommand(t *testing.T) {
	code, out, errOut := run(t, "outline", "paused: Arbiter")
	if code != 0 || !strings.Contains(out, "| `End game` |") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := run(t, "outline", "paused: Nothing"); code != 1 || !strings.Contains(errOut, "paused: Arbiter") {
		t.Errorf("unknown page: exit %d, %q", code, errOut)
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "m.md")
	os.WriteFile(doc, []byte("<!-- outline setup: Settings -->\n<!-- end outline -->\n"), 0o600)
	if code, _, errOut := run(t, "outline", "--update", doc, "--check"); code != 1 || !strings.Contains(errOut, "out of date") {
		t.Errorf("--check of a stale document: exit %d, %q", code, errOut)
	}
	if code, _, errOut := run(t, "outline", "--update", doc); code != 0 {
		t.Fatalf("--update: exit %d, %s", code, errOut)
	}
	data, _ := os.ReadFile(doc)
	if !strings.Contains(string(data), "| `Sound` | `on` |") {
		t.Errorf("updated document:\n%s", data)
	}
	if fi, _ := os.Stat(doc); fi.Mode().Perm() != 0o600 {
		t.Errorf("the update changed the mode to %v", fi.Mode().Perm())
	}
	if code, _, errOut := run(t, "outline", "--update", doc, "--check"); code != 0 {
		t.Errorf("--check of an updated document: exit %d, %q", code, errOut)
	}
	if code, _, _ := run(t, "outline", "--check"); code != 2 {
		t.Errorf("--check without --update: exit %d", code)
	}
}

// shows are what a shot's comment in a manual script says it shows.
var shows = regexp.MustCompile(`\b(title|cursor|banner|running) "([^"]*)"`)

// TestManualScripts plays the scripts the manual's pictures are made from
// and checks that each shot shows what its comment says: the page, the
// entry under the cursor, the notice or the running side. A menu that
// gains an entry cannot leave a picture showing the wrong line unnoticed.
func TestManualScripts(t *testing.T) {
	scripts, _ := filepath.Glob("../../docs/manual/*.sim")
	if len(scripts) == 0 {
		t.Fatal("no scripts in docs/manual")
	}
	checked := 0
	for _, path := range scripts {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		lines := strings.Split(string(data), "\n")
		ds, err := sim.ParseScript(name, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		o := sim.ScriptOpts{StateDir: t.TempDir()}
		if cfg := strings.TrimSuffix(path, ".sim") + ".toml"; fileExists(cfg) {
			o.ConfigPath = cfg
		}
		v, err := sim.Start(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			v.Advance(d.At)
			if v.Press(d) {
				continue
			}
			switch d.Verb {
			case "power-cut":
				v.PowerCut()
			case "shot":
				_, comment, _ := strings.Cut(lines[d.Line-1], "#")
				view := v.M.Core.View(v.Now())
				st := v.M.Core.Status(v.Now())
				for _, m := range shows.FindAllStringSubmatch(comment, -1) {
					checked++
					want, got := m[2], ""
					switch m[1] {
					case "title":
						if view.Kind == screen.KindMenu {
							got = view.Menu.Title
						}
					case "cursor":
						if c := view.Menu.Cursor; view.Kind == screen.KindMenu && c >= 0 && c < len(view.Menu.Items) {
							got = view.Menu.Items[c]
							if strings.HasPrefix(got, want) {
								got = want
							}
						}
					case "banner":
						if view.Kind == screen.KindGame {
							got = view.Game.Banner
						}
					case "running":
						got = st.Running
					}
					if got != want {
						t.Errorf("%s:%d: shot %s: %s %q, the comment says %q", name, d.Line, d.Arg, m[1], got, want)
					}
				}
			}
		}
		v.Close()
	}
	if checked < 20 {
		t.Errorf("only %d checks in the scripts' comments", checked)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
