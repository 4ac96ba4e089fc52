package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

func init() {
	register(command{
		name:    "replay",
		summary: "replay a clock log: print the clock at every 'show' as JSON, or each move's times (--clk)",
		run:     runReplay,
	})
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clk := fs.Bool("clk", false, "print each move's clock reading and time used, as PGN [%clk] and [%emt] comments")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: zeitnot replay [--clk] FILE\n\nFILE is a clock log, or the running game's journal; - reads standard input.")
		fs.PrintDefaults()
	}
	rest, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fs.Usage()
		return 2
	}
	name := rest[0]
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
			return 1
		}
		defer f.Close()
		r = f
	} else {
		name = "stdin"
	}
	// A journal is preallocated: the zeros after its lines are its unused
	// end, not text.
	l, err := clocklog.Parse(name, journal.Unpad(r))
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
		return 1
	}
	if *clk {
		err = clocklog.WriteClk(l, stdout)
	} else {
		err = clocklog.WriteShows(l, stdout, stderr, name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
		return 1
	}
	return 0
}
