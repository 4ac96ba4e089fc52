// Command zeitnot-docs is the generators of the documents made from the code: the quick-reference card (card), the manual's menu lists (outline) and the wiring diagrams and bills of materials (wiring), and the FIDE dossier (dossier). It runs on a developer's or an arbiter's
// laptop; none of it goes onto the clock, whose program is cmd/zeitnot.
package main

import (
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION).
var version = "dev"

var prog = subcmd.Program{Name: "zeitnot-docs", Title: "the generators of the zeitnot chess clock's documents", Version: version}

type command = subcmd.Command

func register(c command) { prog.Register(c) }

func main() { prog.Main() }
