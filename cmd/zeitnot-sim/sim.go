package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/zeitnot/zeitnot/internal/subcmd"
	"github.com/zeitnot/zeitnot/sim"
)

func init() {
	register(command{Name: "sim", Summary: "the simulator: the clock in this terminal, or headless with --script", Run: runSim})
}

func runSim(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("sim", stderr)
	prof := fs.String("profile", "sim", "hardware profile with simulated devices: sim (two 128x64 OLEDs), sim-segment, or a profile file")
	cfg := fs.String("config", "", "a club config file to load (default: none)")
	state := fs.String("state-dir", "", "state directory (default: in the terminal, $XDG_STATE_HOME/zeitnot/sim, kept between runs; with --script, a fresh temporary one)")
	script := fs.String("script", "", "run headless on a virtual clock, playing this script (- for standard input)")
	shots := fs.String("shots", ".", "with --script: where 'shot' writes its files")
	audioDir := fs.String("audio", "", "with --script: write each announcement of the spoken clock as a stereo WAV file into this directory (NNN-left.wav, NNN-right.wav; needs espeak-ng)")
	tod := fs.String("time-of-day", "", "with --script: the virtual clock's time of day at its start, RFC 3339 (2026-03-07T18:29:00+01:00); default: none (a scheduled start is refused)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: zeitnot-sim [flags]\n\nWithout --script the clock runs in this terminal; keys:")
		for _, k := range sim.Keys {
			fmt.Fprintf(stderr, "  %-10s %s\n", k.Key, k.Does)
		}
		fmt.Fprintln(stderr, "\nA script has one directive per line: MS press|release|hold|tap BUTTON, MS shot NAME, MS state, MS power-cut, MS round START [DEFAULT], MS request COMMAND [ARG].")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var start time.Time
	if *tod != "" {
		t, err := time.Parse(time.RFC3339, *tod)
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot-sim: --time-of-day %q: want an RFC 3339 time like 2026-03-07T18:29:00+01:00\n", *tod)
			return 2
		}
		if *script == "" {
			fmt.Fprintln(stderr, "zeitnot-sim: --time-of-day works with --script: in the terminal the clock has the system's time of day")
			return 2
		}
		start = t
	}
	if *script == "" {
		err := sim.RunTerminal(sim.TermOpts{Profile: *prof, ConfigPath: *cfg, StateDir: *state, In: os.Stdin, Out: stdout})
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot-sim: %v\n", err)
			return 1
		}
		return 0
	}
	var r io.Reader = os.Stdin
	name := "stdin"
	if *script != "-" {
		f, err := os.Open(*script)
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot-sim: %v\n", err)
			return 1
		}
		defer f.Close()
		r, name = f, *script
	}
	for _, dir := range []string{*shots, *audioDir} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintf(stderr, "zeitnot-sim: %v\n", err)
			return 1
		}
	}
	err := sim.RunScript(sim.ScriptOpts{Profile: *prof, ConfigPath: *cfg, StateDir: *state, Shots: *shots, Out: stdout, Log: stderr, TimeOfDay: start, Audio: *audioDir}, name, r)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-sim: %v\n", err)
		return 1
	}
	return 0
}
