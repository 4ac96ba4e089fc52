package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/docgen/wiring"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "wiring",
		Summary: "wiring [--bom] PROFILE: the wiring diagram (SVG) or the parts list of a build",
		Run:     runWiring,
	})
}

const wiringUsage = `Usage:
  zeitnot-docs wiring PROFILE
      Write the wiring diagram of PROFILE to standard output, as SVG: the
      Pi's 40-pin header, each part with its pins, one line per wire.
  zeitnot-docs wiring --bom PROFILE
      Write the build's page in Markdown instead: the bill of materials, the
      parts it may add, and the wires, one per line.
  zeitnot-docs wiring --all DIR
      Write DIR/wiring-NAME.svg and DIR/bom-NAME.md for every built-in
      profile of real parts (make wiring: DIR is hardware).

PROFILE is a built-in profile (` + "`zeitnot-docs wiring --all`" + ` takes these: %s)
or a profile file. A simulated profile has no wiring.
`

func runWiring(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("wiring", stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, wiringUsage, strings.Join(wiring.Builds(), ", ")) }
	bom := fs.Bool("bom", false, "write the bill of materials and the wires, in Markdown")
	all := fs.String("all", "", "write the diagram and the page of every built-in build to this directory")
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		return 2
	}
	if *all != "" {
		if len(rest) != 0 || *bom {
			fs.Usage()
			return 2
		}
		if err := writeAll(*all, stdout); err != nil {
			fmt.Fprintf(stderr, "zeitnot-docs wiring: %v\n", err)
			return 1
		}
		return 0
	}
	if len(rest) != 1 {
		fs.Usage()
		return 2
	}
	p, err := profile.Lookup(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs wiring: %v\n", err)
		return 1
	}
	w, err := wiring.New(p)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs wiring: %v\n", err)
		return 1
	}
	if *bom {
		err = w.Markdown(stdout)
	} else {
		err = w.SVG(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-docs wiring: %v\n", err)
		return 1
	}
	return 0
}

// writeAll writes the diagram and the page of every built-in build to dir,
// and names each file it changed.
func writeAll(dir string, stdout io.Writer) error {
	for _, name := range wiring.Builds() {
		p, err := profile.Builtin(name)
		if err != nil {
			return err
		}
		w, err := wiring.New(p)
		if err != nil {
			return err
		}
		var svg, md bytes.Buffer
		if err := w.SVG(&svg); err != nil {
			return err
		}
		if err := w.Markdown(&md); err != nil {
			return err
		}
		for _, f := range []struct {
			name string
			data []byte
		}{{"wiring-" + name + ".svg", svg.Bytes()}, {"bom-" + name + ".md", md.Bytes()}} {
			path, data := filepath.Join(dir, f.name), f.data
			if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
				continue
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return err
			}
			fmt.Fprintln(stdout, "wrote", path)
		}
	}
	return nil
}
