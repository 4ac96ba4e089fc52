// Command zeitnot is the program of the clock, the one the SD image holds:
// the daemon (run), its helpers (link, usb, network, config import), and
// the tools that talk to a running clock (status, watch, press), check its
// hardware or replay its journals, as subcommands. The arbiter's laptop
// and the developers have cmd/zeitnot-hall.
package main

import (
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION, which the SD image's /etc/os-release names too).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot", Title: "a tournament chess clock", Version: version}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

const exitConfig = subcmd.ExitConfig

func main() {
	ui.Version = version // the About page shows what --version prints
	prog.Main()
}
