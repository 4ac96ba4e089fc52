package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/docgen/menudoc"
	"github.com/zeitnot/zeitnot/sim"
)

// cardText is the card's text (menudoc.CardText), or the test fails.
func cardText(t *testing.T, svg []byte) string {
	t.Helper()
	text, err := menudoc.CardText(svg)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestCardCommand: a club's config changes the card (the lever White
// plays), never shows its PIN; a missing config is an error naming it.
func TestCardCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte("[display]\nwhite = \"right\"\n[lock]\nlocked = true\npin = \"4711\"\n"), 0o644)
	out := filepath.Join(dir, "card.svg")
	if code, _, errOut := prog.Run("card", "--config", cfg, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(out)
	text := cardText(t, data)
	if !strings.Contains(text, "White plays the right lever") {
		t.Error("the card does not say White plays the right lever")
	}
	// The card told every player how to unlock: it names neither the PIN
	// nor the old combination of keys held together.
	if strings.Contains(text, "4711") || strings.Contains(text, "together") || !strings.Contains(text, "PIN") {
		t.Errorf("the card's lock: %s", text)
	}
	code, _, errOut := prog.Run("card", "--config", filepath.Join(dir, "nope.toml"))
	if code != 1 || !strings.Contains(errOut, "nope.toml") {
		t.Errorf("missing config: exit %d, %q", code, errOut)
	}
	if code, _, _ := prog.Run("card", "extra"); code != 2 {
		t.Errorf("an extra argument: exit %d, want 2", code)
	}
}

// TestOutlineCommand: the outline on standard output, and a document
// updated in place or checked.
func TestOutlineCommand(t *testing.T) {
	code, out, errOut := prog.Run("outline", "paused: Arbiter")
	if code != 0 || !strings.Contains(out, "| `End game` |") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := prog.Run("outline", "paused: Nothing"); code != 1 || !strings.Contains(errOut, "paused: Arbiter") {
		t.Errorf("unknown page: exit %d, %q", code, errOut)
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "m.md")
	os.WriteFile(doc, []byte("<!-- outline setup: Settings -->\n<!-- end outline -->\n"), 0o600)
	if code, _, errOut := prog.Run("outline", "--update", doc, "--check"); code != 1 || !strings.Contains(errOut, "out of date") {
		t.Errorf("--check of a stale document: exit %d, %q", code, errOut)
	}
	if code, _, errOut := prog.Run("outline", "--update", doc); code != 0 {
		t.Fatalf("--update: exit %d, %s", code, errOut)
	}
	data, _ := os.ReadFile(doc)
	if !strings.Contains(string(data), "| `Sound` | `on` |") {
		t.Errorf("updated document:\n%s", data)
	}
	if fi, _ := os.Stat(doc); fi.Mode().Perm() != 0o600 {
		t.Errorf("the update changed the mode to %v", fi.Mode().Perm())
	}
	if code, _, errOut := prog.Run("outline", "--update", doc, "--check"); code != 0 {
		t.Errorf("--check of an updated document: exit %d, %q", code, errOut)
	}
	if code, _, _ := prog.Run("outline", "--check"); code != 2 {
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
