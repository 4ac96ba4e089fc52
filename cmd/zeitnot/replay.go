package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "replay",
		Summary: "replay a clock log: print the clock at every 'show' (or at its end) as JSON, each move's times (--clk), or the game's PGN (--pgn)",
		Run:     runReplay,
	})
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("replay", stderr)
	clk := fs.Bool("clk", false, "print each move's clock reading and time used, as PGN [%clk] (count-up: [%egt]) and [%emt] comments")
	pgn := fs.Bool("pgn", false, "print the game's whole PGN, as the hall and the USB stick write it (docs/pgn.md)")
	var g clocklog.PGNGame
	fs.StringVar(&g.Event, "event", "", "with --pgn: the Event tag")
	fs.StringVar(&g.Site, "site", "", "with --pgn: the Site tag")
	fs.StringVar(&g.Round, "round", "", "with --pgn: the Round tag")
	fs.StringVar(&g.Date, "date", "", "with --pgn: the Date tag, YYYY.MM.DD")
	board := fs.Int("board", 0, "with --pgn: the Board tag (0: none)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: zeitnot replay [--clk | --pgn [--event E] [--site S] [--round R] [--date D] [--board N]] FILE

FILE is a clock log, or the running game's journal; - reads standard input.
Replay prints the clock as one JSON line at every 'show' line; a log without
one (a game as the journal saved it) prints one line, the clock at the log's
last instant. --pgn prints the game as PGN through the writer the hall and
the USB stick use, with the names and the game id the journal's notes give;
a log that does not read whole is read as recovery reads it.
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
	if *clk && *pgn {
		fmt.Fprintln(stderr, "zeitnot replay: --clk or --pgn, not both")
		return 2
	}
	if *pgn {
		return replayPGN(name, r, g, *board, stdout, stderr)
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

// replayPGN prints the PGN of the journal r (named name) to stdout.
func replayPGN(name string, r io.Reader, g clocklog.PGNGame, board int, stdout, stderr io.Writer) int {
	data, err := io.ReadAll(io.LimitReader(journal.Unpad(r), maxReplayPGN+1))
	if err == nil && len(data) > maxReplayPGN {
		err = fmt.Errorf("%s: more than %d bytes: not a clock log", name, maxReplayPGN)
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
		return 1
	}
	l, err := clocklog.ReadLog(name, data)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
		return 1
	}
	notes := journal.ReadNotes(data)
	g.White, g.Black = notes.White, notes.Black
	if board > 0 {
		g.Extra = append(g.Extra, [2]string{"Board", strconv.Itoa(board)})
	}
	if notes.ID != "" {
		g.Extra = append(g.Extra, [2]string{"ZeitnotGame", notes.ID})
	}
	if err := clocklog.WritePGN(l, stdout, g); err != nil {
		fmt.Fprintf(stderr, "zeitnot replay: %v\n", err)
		return 1
	}
	return 0
}

// maxReplayPGN bounds the journal --pgn reads into memory: a game's
// journal with a checkpoint every second for a whole day is about 10 MB.
const maxReplayPGN = 256 << 20
