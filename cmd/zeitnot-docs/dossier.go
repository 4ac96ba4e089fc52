package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/docgen/dossier"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "dossier",
		Summary: "dossier [-o FILE.md] [--html FILE.html]: the FIDE dossier, its tests run and its figures measured",
		Run:     runDossier,
	})
}

const dossierUsage = `Usage:
  zeitnot-docs dossier [-o out/fide-dossier.md] [--html out/fide-dossier.html] [--go go]
      Run, from the module's root, every test and benchmark the FIDE
      dossier's rules name (docgen/dossier/rules.go) with go test -json,
      and write the dossier: for each rule, how zeitnot meets it, the
      tests that prove it and the figure measured. make fide-dossier runs
      it and prints the HTML to out/fide-dossier.pdf. The exit status is 1
      when a rule is not proved (a test failed or is missing, a figure is
      missing); the document is written all the same and says which.
`

func runDossier(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dossier", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, dossierUsage) }
	mdPath := fs.String("o", "out/fide-dossier.md", "write the Markdown here")
	htmlPath := fs.String("html", "", "write the HTML page to print here too")
	goCmd := fs.String("go", "go", "the go command that runs the tests")
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil || len(rest) != 0 {
		fs.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zeitnot-docs dossier: %v\n", err)
		return 1
	}
	root, err := dossier.ModuleRoot(".")
	if err != nil {
		return fail(err)
	}
	idx, err := dossier.NewIndex(root)
	if err != nil {
		return fail(err)
	}
	measured := time.Now().UTC().Format("2006-01-02 15:04 UTC")
	var log bytes.Buffer
	results, err := dossier.Run(root, *goCmd, dossier.Rules, idx, io.MultiWriter(stderr, &log))
	if err != nil {
		return fail(err)
	}
	d := &dossier.Document{
		Build:    dossier.BuildOf(root, *goCmd, measured),
		Rules:    dossier.Rules,
		Results:  results,
		Commands: strings.Split(strings.TrimSpace(log.String()), "\n"),
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*mdPath, d.Markdown}, {*htmlPath, d.HTML}} {
		if out.path == "" {
			continue
		}
		var b bytes.Buffer
		if err := out.write(&b); err != nil {
			return fail(err)
		}
		if err := os.MkdirAll(filepath.Dir(out.path), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(out.path, b.Bytes(), 0o644); err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, "wrote", out.path)
	}
	if p := d.Problems(); len(p) > 0 {
		fmt.Fprintf(stderr, "zeitnot-docs dossier: %d of the rules' proofs are missing or failed:\n  %s\n", len(p), strings.Join(p, "\n  "))
		return 1
	}
	return 0
}
