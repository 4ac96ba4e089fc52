package repocheck

import (
	"fmt"
	"html"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// MaxReadmeLines is the longest README.md may be: a newcomer's first
// screen and the way to the manuals in docs/, not the manuals themselves.
const MaxReadmeLines = 300

// A Link is a relative link of a Markdown document: its target file (""
// for the document itself) and its anchor ("" for none), and the line it
// is on.
type Link struct {
	Line   int
	Target string
	Anchor string
}

// linkRe matches an inline link or picture's target: "](target)" or
// "](target "title")".
var linkRe = regexp.MustCompile(`\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)`)

// codeSpanRe matches an inline code span, whose brackets are no link.
var codeSpanRe = regexp.MustCompile("`+[^`]*`+")

// Links returns the relative links of the Markdown text, outside code
// blocks and code spans; links with a scheme (https:, mailto:) are left
// out.
func Links(text string) []Link {
	var links []Link
	for i, line := range outsideFences(text) {
		line = codeSpanRe.ReplaceAllString(line, "")
		for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
			t := m[1]
			if strings.Contains(t, ":") && !strings.HasPrefix(t, "#") {
				continue
			}
			target, anchor, _ := strings.Cut(t, "#")
			links = append(links, Link{Line: i + 1, Target: target, Anchor: anchor})
		}
	}
	return links
}

// outsideFences yields the lines of the Markdown text outside fenced code
// blocks, each with its index (from 0).
func outsideFences(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		fence := ""
		for i, line := range strings.Split(text, "\n") {
			if f := fenceOf(line); f != "" {
				if fence == "" {
					fence = f
				} else if strings.HasPrefix(f, fence) {
					fence = ""
				}
				continue
			}
			if fence == "" && !yield(i, line) {
				return
			}
		}
	}
}

// fenceOf returns the fence a line opens or closes (``` or ~~~, as long
// as written), or "".
func fenceOf(line string) string {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return ""
	}
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(l, c+c+c) {
			return l[:len(l)-len(strings.TrimLeft(l, c))]
		}
	}
	return ""
}

// headingRe matches an ATX heading's text.
var headingRe = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// explicitRe matches an HTML anchor: <a id="x"> or <a name="x">.
var explicitRe = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)

// inlineLinkRe matches a link in a heading, which reads as its text.
var inlineLinkRe = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// Anchors returns the anchors of the Markdown text as GitHub makes them:
// each heading's text in lower case, without punctuation, its spaces as
// hyphens, a repeated one numbered (-1, -2); and the ids of HTML anchors.
func Anchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range outsideFences(text) {
		for _, m := range explicitRe.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		m := headingRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[1])
		if n := seen[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors
}

// Slug is the anchor GitHub gives a heading's Markdown text.
func Slug(heading string) string {
	s := inlineLinkRe.ReplaceAllString(heading, "$1")
	s = strings.ReplaceAll(s, "`", "")
	s = html.UnescapeString(s)
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CheckLinks returns a problem for every relative link of the Markdown
// file doc (a path under root) whose file does not exist, or whose
// anchor, in a Markdown file, no heading makes: "docs/hall.md:12:
// arbiter.md: no such file".
func CheckLinks(root, doc string) ([]string, error) {
	text, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		return nil, err
	}
	var problems []string
	anchors := map[string]map[string]bool{}
	for _, l := range Links(string(text)) {
		target := doc
		if l.Target != "" {
			target = filepath.ToSlash(filepath.Join(filepath.Dir(doc), l.Target))
		}
		where := fmt.Sprintf("%s:%d: %s", doc, l.Line, l.Target)
		if l.Anchor != "" {
			where += "#" + l.Anchor
		}
		if strings.HasPrefix(target, "../") {
			problems = append(problems, where+": outside the repository")
			continue
		}
		fi, err := os.Stat(filepath.Join(root, target))
		if err != nil {
			problems = append(problems, where+": no such file")
			continue
		}
		if l.Anchor == "" || fi.IsDir() || !strings.HasSuffix(target, ".md") {
			continue
		}
		a, ok := anchors[target]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, target))
			if err != nil {
				return nil, err
			}
			a = Anchors(string(b))
			anchors[target] = a
		}
		if !a[l.Anchor] {
			problems = append(problems, where+": no such heading")
		}
	}
	return problems, nil
}
