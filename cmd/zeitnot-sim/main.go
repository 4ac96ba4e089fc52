// Command zeitnot-sim is the clock's simulator: the clock's own core and menus on a terminal (`make run`), or headless with a script, writing its displays as PNG shots for the documents. It runs on a developer's or an arbiter's
// laptop; none of it goes onto the clock, whose program is cmd/zeitnot.
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

var prog = subcmd.Program{Name: "zeitnot-sim", Title: "the simulator of the zeitnot chess clock", Default: "sim"}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

func main() {
	ui.Version = version // the simulator's About page shows what --version prints
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	prog.Version = version
	return prog.Dispatch(args, stdout, stderr)
}
