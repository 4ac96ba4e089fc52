package dossier

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// The document is built once as blocks of spans (document.go) and written
// by two writers: Markdown for out/fide-dossier.md, HTML for the PDF.

// span is a run of text in one style.
type span struct {
	text string
	code bool
	bold bool
	link string // a link's target, relative to the repository's root
}

func txt(s string) span         { return span{text: s} }
func code(s string) span        { return span{text: s, code: true} }
func bold(s string) span        { return span{text: s, bold: true} }
func link(s, to string) span    { return span{text: s, link: to} }
func line(ss ...span) []span    { return ss }
func joined(ss [][]span) []span { return joinSpans(ss, ", ") }

func joinSpans(ss [][]span, sep string) []span {
	var out []span
	for i, s := range ss {
		if i > 0 {
			out = append(out, txt(sep))
		}
		out = append(out, s...)
	}
	return out
}

// blockKind is what a block is.
type blockKind uint8

const (
	heading1 blockKind = iota + 1
	heading2
	heading3
	paragraph
	bullets
	table
	preformatted
)

// block is one block of the document: a heading, a paragraph, a list, a
// table or preformatted lines.
type block struct {
	kind  blockKind
	spans []span     // heading, paragraph
	items [][]span   // list items; table: the header row
	rows  [][][]span // table rows, cells of spans
	lines []string   // preformatted
}

// writeMarkdown writes blocks as Markdown.
func writeMarkdown(w io.Writer, blocks []block) error {
	var b strings.Builder
	for i, bl := range blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		switch bl.kind {
		case heading1, heading2, heading3:
			b.WriteString(strings.Repeat("#", int(bl.kind-heading1)+1) + " " + mdSpans(bl.spans, false) + "\n")
		case paragraph:
			b.WriteString(mdSpans(bl.spans, false) + "\n")
		case bullets:
			for _, it := range bl.items {
				b.WriteString("- " + mdSpans(it, false) + "\n")
			}
		case table:
			cells := make([]string, len(bl.items))
			for i, h := range bl.items {
				cells[i] = mdSpans(h, true)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n|" + strings.Repeat(" --- |", len(cells)) + "\n")
			for _, row := range bl.rows {
				for i, c := range row {
					cells[i] = mdSpans(c, true)
				}
				b.WriteString("| " + strings.Join(cells[:len(row)], " | ") + " |\n")
			}
		case preformatted:
			b.WriteString("```\n" + strings.Join(bl.lines, "\n") + "\n```\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdSpans writes spans as Markdown; inCell escapes the table's bars.
func mdSpans(ss []span, inCell bool) string {
	var b strings.Builder
	for _, s := range ss {
		t := s.text
		switch {
		case s.code:
			t = "`" + strings.ReplaceAll(t, "`", "'") + "`"
		default:
			t = mdEscape(t)
		}
		if s.bold {
			t = "**" + t + "**"
		}
		if s.link != "" {
			t = "[" + t + "](" + s.link + ")"
		}
		if inCell {
			t = strings.ReplaceAll(t, "|", `\|`)
		}
		b.WriteString(t)
	}
	return b.String()
}

// mdEscape escapes what Markdown would read as markup in plain text.
func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`).Replace(s)
}

// htmlStyle is the printed page: A4, the tables across it.
const htmlStyle = `@page { size: A4; margin: 16mm 14mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 9.5pt; line-height: 1.35; color: #000; }
h1 { font-size: 17pt; margin: 0 0 6pt; }
h2 { font-size: 13pt; margin: 14pt 0 4pt; border-bottom: 1px solid #888; }
h3 { font-size: 11pt; margin: 12pt 0 3pt; break-after: avoid; }
p { margin: 3pt 0; }
ul { margin: 3pt 0; padding-left: 16pt; }
table { border-collapse: collapse; width: 100%; margin: 4pt 0; }
th, td { border: 1px solid #999; padding: 2pt 4pt; vertical-align: top; text-align: left; }
th { background: #eee; }
tr { break-inside: avoid; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; }
pre { white-space: pre-wrap; border: 1px solid #ccc; padding: 4pt; }
a { color: #000; }
`

// writeHTML writes blocks as one HTML page, to print.
func writeHTML(w io.Writer, title string, blocks []block) error {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html.EscapeString(title) + "</title>\n<style>\n" + htmlStyle + "</style>\n</head>\n<body>\n")
	for _, bl := range blocks {
		switch bl.kind {
		case heading1, heading2, heading3:
			n := int(bl.kind-heading1) + 1
			fmt.Fprintf(&b, "<h%d>%s</h%d>\n", n, htmlSpans(bl.spans), n)
		case paragraph:
			b.WriteString("<p>" + htmlSpans(bl.spans) + "</p>\n")
		case bullets:
			b.WriteString("<ul>\n")
			for _, it := range bl.items {
				b.WriteString("<li>" + htmlSpans(it) + "</li>\n")
			}
			b.WriteString("</ul>\n")
		case table:
			b.WriteString("<table>\n<tr>")
			for _, h := range bl.items {
				b.WriteString("<th>" + htmlSpans(h) + "</th>")
			}
			b.WriteString("</tr>\n")
			for _, row := range bl.rows {
				b.WriteString("<tr>")
				for _, c := range row {
					b.WriteString("<td>" + htmlSpans(c) + "</td>")
				}
				b.WriteString("</tr>\n")
			}
			b.WriteString("</table>\n")
		case preformatted:
			b.WriteString("<pre>" + html.EscapeString(strings.Join(bl.lines, "\n")) + "</pre>\n")
		}
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func htmlSpans(ss []span) string {
	var b strings.Builder
	for _, s := range ss {
		t := html.EscapeString(s.text)
		if s.code {
			t = "<code>" + t + "</code>"
		}
		if s.bold {
			t = "<strong>" + t + "</strong>"
		}
		if s.link != "" {
			t = `<a href="` + html.EscapeString(s.link) + `">` + t + "</a>"
		}
		b.WriteString(t)
	}
	return b.String()
}
