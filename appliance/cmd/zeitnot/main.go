// Command zeitnot is the tournament chess clock: the daemon, the simulator and
// the tools, as subcommands.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/core"
)

// version is set by the build: go build -ldflags "-X main.version=V" (the
// Makefile's VERSION, which the SD image's /etc/os-release names too).
var version = "dev"

// command is one subcommand: it gets its arguments and the standard streams,
// and returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands []command

func register(c command) { commands = append(commands, c) }

func usage(w io.Writer) {
	fmt.Fprintf(w, "zeitnot %s: a tournament chess clock\n\nUsage: zeitnot COMMAND [ARGS]\n\nCommands:\n", version)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-16s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'zeitnot COMMAND -h' for a command's flags.\n")
}

func main() {
	core.Version = version // the About page shows what --version prints
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	case "version", "--version":
		fmt.Fprintln(stdout, "zeitnot", version)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "zeitnot: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// parseInterspersed parses fs's flags wherever they stand among args, so
// that `zeitnot press right --socket S` works as well as `zeitnot press
// --socket S right`, and returns the other arguments in order; after "--"
// everything is an argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
