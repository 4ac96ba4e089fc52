// Command zeitnot-bench is the hall's bench: fake clocks at real time, each with its own MQTT connection, against a hall (the embedded broker, and Mosquitto). It runs on a developer's or an arbiter's
// laptop; none of it goes onto the clock, whose program is cmd/zeitnot.
package main

import (
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot-bench", Title: "the bench of the zeitnot hall", Default: "bench", Version: version}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

func main() { prog.Main() }
