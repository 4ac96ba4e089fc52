// Command zeitnot-hall is the tournament hall, the program of the
// arbiter's laptop: an MQTT broker for the clocks (or a client of
// Mosquitto), their live pages, the arbiter's control room, and its
// demonstration (--demo: real clock programs with simulated hardware).
// None of it goes onto the clock, whose program is cmd/zeitnot; the
// simulator, the bench and the documents' generators are programs of
// their own (cmd/zeitnot-sim, cmd/zeitnot-bench, cmd/zeitnot-docs).
package main

import (
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot-hall", Title: "the tournament hall of the zeitnot chess clock", Default: "hall", Version: version}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

const exitConfig = subcmd.ExitConfig

func main() { prog.Main() }
