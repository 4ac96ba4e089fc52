package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/sim"
)

func init() {
	register(command{name: "sim", summary: "the simulator: the clock in this terminal, or headless with --script", run: runSim})
}

func runSim(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prof := fs.String("profile", "sim", "hardware profile with simulated devices: sim (two 128x64 OLEDs), sim-segment, or a profile file")
	cfg := fs.String("config", "", "a club config file to load (default: none)")
	state := fs.String("state-dir", "", "state directory (default: in the terminal, $XDG_STATE_HOME/zeitnot/sim, kept between runs; with --script, a fresh temporary one)")
	script := fs.String("script", "", "run headless on a virtual clock, playing this script (- for standard input)")
	shots := fs.String("shots", ".", "with --script: where 'shot' writes its files")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: zeitnot sim [flags]\n\nWithout --script the clock runs in this terminal; keys:")
		for _, k := range sim.Keys {
			fmt.Fprintf(stderr, "  %-10s %s\n", k.Key, k.Does)
		}
		fmt.Fprintln(stderr, "\nA script has one directive per line: MS press|release|hold|tap BUTTON, MS shot NAME, MS state, MS power-cut.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *script == "" {
		err := sim.RunTerminal(sim.TermOpts{Profile: *prof, ConfigPath: *cfg, StateDir: *state, In: os.Stdin, Out: stdout})
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot sim: %v\n", err)
			return 1
		}
		return 0
	}
	var r io.Reader = os.Stdin
	name := "stdin"
	if *script != "-" {
		f, err := os.Open(*script)
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot sim: %v\n", err)
			return 1
		}
		defer f.Close()
		r, name = f, *script
	}
	if err := os.MkdirAll(*shots, 0o755); err != nil {
		fmt.Fprintf(stderr, "zeitnot sim: %v\n", err)
		return 1
	}
	err := sim.RunScript(sim.ScriptOpts{Profile: *prof, ConfigPath: *cfg, StateDir: *state, Shots: *shots, Out: stdout, Log: stderr}, name, r)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot sim: %v\n", err)
		return 1
	}
	return 0
}
