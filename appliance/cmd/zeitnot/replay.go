package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "replay",
		Summary: "replay a clock log: print the clock at every 'show' (or at its end) as JSON, or each move's times (--clk)",
		Run:     runReplay,
	})
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clk := fs.Bool("clk", false, "print each move's clock reading and time used, as PGN [%clk] (count-up: [%egt]) and [%emt] comments")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: zeitnot replay [--clk] FILE

FILE is a clock log, or the running game's journal; - reads standard input.
Replay prints the clock as one JSON line at every 'show' line; a log without
one (a game as the journal saved it) prints one line, the clock at the log's
last instant.
`)
		fs.PrintDefaults()
	}
	rest, err := subcmd.ParseInterspersed(fs, args)
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
		f, err := regfile.Open(name, regfile.Opts{})
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
