// Package subcmd is the command line every zeitnot program shares (the
// clock's `zeitnot`, the laptop's `zeitnot-hall`, `zeitnot-sim`,
// `zeitnot-docs` and `zeitnot-bench`): a list of subcommands, their usage,
// the dispatch by the first argument, and flags that may stand among the
// arguments.
package subcmd

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// ExitConfig is the exit status for settings that cannot be used (sysexits'
// EX_CONFIG): zeitnot-link.service and zeitnot-network.service do not
// restart on it.
const ExitConfig = 78

// Command is one subcommand: it gets its arguments (after its name) and the
// standard streams, and returns the process exit code.
type Command struct {
	Name    string
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) int
}

// Program is a program made of subcommands.
type Program struct {
	Name    string // the program's name, as its usage and errors print it
	Title   string // what it is, for the first line of its usage
	Version string
	// Default, if set, names the command that runs when there is no
	// argument or the first one is a flag (not -h or --version).
	Default  string
	Commands []Command
}

// Register adds c to p's commands; the usage lists them in this order.
func (p *Program) Register(c Command) { p.Commands = append(p.Commands, c) }

// Usage writes p's usage, listing its commands, to w.
func (p *Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "%s %s: %s\n\nUsage: %s COMMAND [ARGS]\n", p.Name, p.Version, p.Title, p.Name)
	if p.Default != "" {
		fmt.Fprintf(w, "       %s [FLAGS] (the same as %s %s [FLAGS])\n", p.Name, p.Name, p.Default)
	}
	fmt.Fprintf(w, "\nCommands:\n")
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-16s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags.\n", p.Name)
}

// Dispatch runs the command args[0] names with the rest of args, and
// returns its exit code: 2 with the usage on stderr for an unknown one.
// "help", "-h" and "--help" print the usage; "version" and "--version"
// print the program's name and version.
func (p *Program) Dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "help":
			p.Usage(stdout)
			return 0
		case "version", "--version":
			fmt.Fprintln(stdout, p.Name, p.Version)
			return 0
		}
	}
	name := ""
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if p.Default != "" && (name == "" || strings.HasPrefix(name, "-")) {
		if name != "" {
			args = append([]string{name}, args...)
		}
		name = p.Default
	}
	if name == "" {
		p.Usage(stderr)
		return 2
	}
	for _, c := range p.Commands {
		if c.Name == name {
			return c.Run(args, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n\n", p.Name, name)
	p.Usage(stderr)
	return 2
}

// Main is a program's main: it runs the command os.Args names and exits
// with its code.
func (p *Program) Main() { os.Exit(p.Dispatch(os.Args[1:], os.Stdout, os.Stderr)) }

// Run is Dispatch with the output kept, what a program's tests call to run
// one of its commands in their own process.
func (p *Program) Run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = p.Dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

// FlagSet is a command's flag set: named for the command, its errors and
// usage written to stderr, and an error returned, not an exit.
func FlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// ParseInterspersed parses fs's flags wherever they stand among args, so
// that `zeitnot press right --socket S` works as well as `zeitnot press
// --socket S right`, and returns the other arguments in order; after "--"
// everything is an argument.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
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

// Parse gives fs the usage text usage, followed by its flags' defaults,
// and parses args. ok is true when the command goes on; otherwise it
// returns code: 0 after -h (the usage is printed), 2 for a bad flag (fs
// has said which).
func Parse(fs *flag.FlagSet, usage string, args []string) (code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}
