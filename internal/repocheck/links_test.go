package repocheck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// root is the repository's top folder, from this package's.
const root = "../.."

// TestReadmeShort: README.md is the newcomer's first screen and the way to
// the manuals, at most MaxReadmeLines lines, and its first 40 lines give
// the commands that run the clock, the hall and the tests.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) > MaxReadmeLines {
		t.Errorf("README.md has %d lines, want at most %d: move the rest to a manual in docs/", len(lines), MaxReadmeLines)
	}
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, c := range []string{"make run", "make hall", "make test", "apt-get install"} {
		if !strings.Contains(first, c) {
			t.Errorf("README.md's first 40 lines do not give %q", c)
		}
	}
}

// TestDocLinks: every relative link of README.md and of the documents in
// docs/ names a file of the repository, and, into a Markdown file, one of
// its headings.
func TestDocLinks(t *testing.T) {
	docs := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/*/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			docs = append(docs, filepath.ToSlash(rel))
		}
	}
	if len(docs) < 5 {
		t.Fatalf("found only %v", docs)
	}
	for _, d := range docs {
		problems, err := CheckLinks(root, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"The hall", "the-hall"},
		{"hall.toml", "halltoml"},
		{"Tournaments: pairings in, results out", "tournaments-pairings-in-results-out"},
		{"Corrections: the arbiter's menu", "corrections-the-arbiters-menu"},
		{"The clock log and `zeitnot replay`", "the-clock-log-and-zeitnot-replay"},
		{"+5 s per move (FIDE Guidelines III.4)", "5-s-per-move-fide-guidelines-iii4"},
		{"Time &lt; white", "time--white"},
		{"Setup: the custom control, presets and settings", "setup-the-custom-control-presets-and-settings"},
		{"See [the card](card.svg)", "see-the-card"},
		{"snake_case and Ünïcode", "snake_case-and-ünïcode"},
	} {
		if got := Slug(c.heading); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

func TestLinks(t *testing.T) {
	text := "# Title\n" +
		"See [the hall](hall.md#limits) and ![a picture](hall/hall.png \"title\").\n" +
		"`[not](a-link.md)` and [web](https://example.org/x) and [mail](mailto:a@b)\n" +
		"```\n[in a block](block.md)\n```\n" +
		"[here](#title), [dir](../image/)\n"
	want := []Link{
		{2, "hall.md", "limits"},
		{2, "hall/hall.png", ""},
		{7, "", "title"},
		{7, "../image/", ""},
	}
	if got := Links(text); !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
}

func TestAnchors(t *testing.T) {
	text := "# A\n## B\n```\n# not a heading\n```\n## B\n<a id=\"x\"></a>\n#### Time &gt; black\n"
	want := map[string]bool{"a": true, "b": true, "b-1": true, "x": true, "time--black": true}
	if got := Anchors(text); !reflect.DeepEqual(got, want) {
		t.Errorf("Anchors = %v, want %v", got, want)
	}
}

// TestCheckLinks: a missing file, a missing heading, a link out of the
// repository are each a problem naming the document's line.
func TestCheckLinks(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "docs", "hall.md"), []byte("# Hall\n## Limits\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Top\n"+
		"[ok](docs/hall.md#limits) [top](#top) [dir](docs/)\n"+
		"[gone](docs/gone.md)\n"+
		"[no heading](docs/hall.md#broadcasts)\n"+
		"[out](../x.md)\n"), 0o644)
	got, err := CheckLinks(dir, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"README.md:3: docs/gone.md: no such file",
		"README.md:4: docs/hall.md#broadcasts: no such heading",
		"README.md:5: ../x.md: outside the repository",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CheckLinks =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
