// Command zeitnot-sim is the clock's simulator: the clock's own core and menus on a terminal (`make run`), or headless with a script, writing its displays as PNG shots for the documents. It runs on a developer's or an arbiter's
// laptop; none of it goes onto the clock, whose program is cmd/zeitnot.
package main

import (
	"github.com/zeitnot/zeitnot/appliance/ui"

	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot-sim", Title: "the simulator of the zeitnot chess clock", Default: "sim", Version: version}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

func main() {
	ui.Version = version // the simulator's About page shows what --version prints
	prog.Main()
}
