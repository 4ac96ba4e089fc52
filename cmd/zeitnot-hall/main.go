// Command zeitnot-hall is the program of the arbiter's laptop and of the
// developers: the tournament hall (the default command), its demo and its
// bench, the simulator, and the generators of the documents (the card, the
// manual's menu lists, the wiring diagrams). None of it goes onto the clock,
// whose program is appliance/cmd/zeitnot.
package main

import (
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot-hall", Title: "the tournament hall, the simulator and the documents of the zeitnot chess clock", Default: "hall"}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

const exitConfig = subcmd.ExitConfig

func main() {
	ui.Version = version // the simulator's About page shows what --version prints
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	prog.Version = version
	return prog.Dispatch(args, stdout, stderr)
}
