package menudoc

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// The documents, from this package's directory.
const (
	cardFile   = "../../docs/card.svg"
	manualFile = "../../docs/arbiter-manual.md"
)

// cardText is the card's text (menudoc.CardText), or the test fails.
func cardText(t *testing.T, svg []byte) string {
	t.Helper()
	text, err := CardText(svg)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestCardUpToDate: docs/card.svg is what the generator draws from the
// menus now. After a change to the menus, `make card` redraws it.
func TestCardUpToDate(t *testing.T) {
	want, err := CardSVG(ui.DefaultSettings)
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

// TestCardHasEveryMenuEntry: every entry of the arbiter's menu, of the
// setup menu, of the settings and of the custom control is on the card,
// and every preset, so that a new entry is on the card as soon as it is
// in a menu.
func TestCardHasEveryMenuEntry(t *testing.T) {
	svg, err := CardSVG(ui.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	text := cardText(t, svg)
	out := ui.Outline(ui.DefaultSettings)
	pages, entries := 0, 0
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
		pages++
		entries += len(page.Items)
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
	t.Logf("figure card: the card to keep in the lid (docs/card.svg, A5) names the %d menus' %d entries and the %d presets, each checked against the menus", pages, entries, len(presetRows(out)))
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
	got, err := UpdateDoc("arbiter-manual.md", doc, ui.Outline(ui.DefaultSettings))
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
	got, err := UpdateDoc("x.md", []byte(doc), out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "old text") || !strings.Contains(s, "| `Time <` |") || !strings.HasSuffix(s, "<!-- end outline -->\nafter\n") {
		t.Errorf("updated:\n%s", s)
	}
	again, _ := UpdateDoc("x.md", got, out)
	if !bytes.Equal(again, got) {
		t.Error("a second update changes the document")
	}
	for _, c := range []struct{ doc, err string }{
		{"a\n<!-- outline paused: Nothing -->\n<!-- end outline -->\n", `x.md:2: selector "paused: Nothing": no such page`},
		{"a\n\n<!-- outline presets -->\nno end\n", `x.md:3: outline block "presets" has no "<!-- end outline -->" line`},
		{"<!-- outline nonsense -->\n<!-- end outline -->\n", `x.md:1: selector "nonsense": want all, presets or MOMENT: TITLE`},
	} {
		if _, err := UpdateDoc("x.md", []byte(c.doc), out); err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %s", c.doc, err, c.err)
		}
	}
}

// TestWrap: the card's lines never run past their room, keep every word
// in order, and a bold word is measured wider than the same word plain.
func TestWrap(t *testing.T) {
	words := strings.Fields("Hold ok while a clock runs: the control shows beneath both times for five seconds; a player always sees both times. Übergroße Wörter à la carte, Ärger.")
	var spans []span
	for i, w := range words {
		if i > 0 {
			w = " " + w
		}
		if i%5 == 0 {
			spans = append(spans, bold(w))
		} else {
			spans = append(spans, plain(w))
		}
	}
	for _, room := range []float64{20, 35, 60, 200} {
		lines := wrap(spans, sizeBody, room, room)
		var got []string
		for i, l := range lines {
			if w := spansWidth(l, sizeBody); w > room+1e-9 && len(l) > 1 {
				t.Errorf("room %v: line %d is %.2f wide: %v", room, i, w, l)
			}
			for _, s := range l {
				got = append(got, strings.Fields(s.text)...)
			}
		}
		if strings.Join(got, " ") != strings.Join(words, " ") {
			t.Errorf("room %v: the words came out as %q", room, got)
		}
	}
	if textWidth("Arbiter", sizeBody, true) <= textWidth("Arbiter", sizeBody, false) {
		t.Error("a bold word is no wider than the plain one")
	}
}
