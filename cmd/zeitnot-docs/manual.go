package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/docgen/menudoc"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// The arbiter's manual and the quick-reference card are made from the
// menus themselves (docgen/menudoc): `zeitnot-docs card` draws the card,
// `zeitnot-docs outline` prints the menus as Markdown or rewrites the menu
// lists of a document.

func init() {
	register(command{Name: "card", Summary: "print the quick-reference card (SVG, A5 landscape), made from the menus", Run: runCard})
	register(command{Name: "outline", Summary: "print the menus as Markdown, or rewrite the menu lists of a document (--update FILE)", Run: runOutline})
}

// docSettings are the settings the card and the outline are made for: the
// defaults, or those of a club config file.
func docSettings(path string) (ui.Settings, error) {
	if path == "" {
		return ui.DefaultSettings, nil
	}
	if _, err := os.Stat(path); err != nil {
		return ui.Settings{}, err
	}
	s, errs := config.Load(path, ui.DefaultSettings, nil)
	if len(errs) > 0 {
		return s, errors.Join(errs...)
	}
	return s, nil
}

func runCard(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("card", stderr)
	cfg := fs.String("config", "", "a club config file: the card shows its control (default: the defaults)")
	out := fs.String("o", "", "write the SVG to this file (default: standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: zeitnot-docs card [--config FILE] [-o FILE.svg]\n\nThe quick-reference card for arbiters and club staff, an SVG for A5\nlandscape, drawn from the clock's menus.")
		fs.PrintDefaults()
	}
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 0 {
		fs.Usage()
		return 2
	}
	s, err := docSettings(*cfg)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs card: %v\n", err)
		return 1
	}
	svg, err := menudoc.CardSVG(s)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs card: %v\n", err)
		return 1
	}
	if *out == "" {
		stdout.Write(svg)
		return 0
	}
	if err := os.WriteFile(*out, svg, 0o644); err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs card: %v\n", err)
		return 1
	}
	return 0
}

func runOutline(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("outline", stderr)
	cfg := fs.String("config", "", "a club config file (default: the defaults)")
	update := fs.String("update", "", "rewrite the menu lists of this Markdown file in place")
	check := fs.Bool("check", false, "with --update: change nothing, exit 1 if the file's lists are out of date")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: zeitnot-docs outline [--config FILE] [SELECTOR]
       zeitnot-docs outline [--config FILE] --update FILE.md [--check]

Prints the menus as Markdown: every page (SELECTOR "all", the default),
the preset tree ("presets"), or one page ("MOMENT: TITLE", MOMENT one of
setup, running, paused). With --update, rewrites each block of FILE.md that
starts with a line "<!-- outline SELECTOR -->" and ends with a line
"<!-- end outline -->".`)
		fs.PrintDefaults()
	}
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) > 1 || (*update != "" && len(rest) != 0) || (*check && *update == "") {
		fs.Usage()
		return 2
	}
	s, err := docSettings(*cfg)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs outline: %v\n", err)
		return 1
	}
	out := ui.Outline(s)
	if *update == "" {
		sel := "all"
		if len(rest) == 1 {
			sel = rest[0]
		}
		md, err := menudoc.Markdown(out, sel)
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot-docs outline: %v\n", err)
			return 1
		}
		io.WriteString(stdout, md)
		return 0
	}
	doc, err := regfile.ReadFile(*update, regfile.Opts{Max: 4 << 20})
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs outline: %v\n", err)
		return 1
	}
	got, err := menudoc.UpdateDoc(filepath.Base(*update), doc, out)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs outline: %v\n", err)
		return 1
	}
	if bytes.Equal(got, doc) {
		return 0
	}
	if *check {
		fmt.Fprintf(stderr, "zeitnot-docs outline: %s: the menu lists are out of date; run make manual\n", *update)
		return 1
	}
	if err := replaceFile(*update, got); err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs outline: %v\n", err)
		return 1
	}
	return 0
}

// replaceFile replaces path's contents, keeping its mode, so that an
// interrupted run leaves the old document whole.
func replaceFile(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.WriteFile(path, data, mode)
}
