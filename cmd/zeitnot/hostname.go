package main

import (
	"fmt"
	"io"
	"os"

	"github.com/zeitnot/zeitnot/appliance/boardname"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "hostname",
		Summary: "name the host zeitnot-XXXX from the board's serial (at boot, by zeitnot-hostname.service)",
		Run:     runHostname,
	})
}

const hostnameUsage = `Usage:
  zeitnot hostname [--print]
      Sets the host's name to zeitnot-XXXX, the last four hex digits of the
      board's serial number (the device tree's, then /proc/cpuinfo's, then
      /etc/machine-id; appliance/boardname), and prints it. The daemon
      shows the same name on its displays at power-on. With --print it
      only prints it. Setting it needs CAP_SYS_ADMIN.

Flags:
`

// kernelHostname is the kernel's host name.
const kernelHostname = "/proc/sys/kernel/hostname"

func runHostname(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("hostname", stderr)
	only := flags.Bool("print", false, "print the name, do not set it")
	if code, ok := subcmd.Parse(flags, hostnameUsage, args); !ok {
		return code
	}
	if flags.NArg() != 0 {
		fmt.Fprintf(stderr, "zeitnot hostname: unexpected arguments %q\n", flags.Args())
		return 2
	}
	name := boardname.Name(os.DirFS("/"))
	if !*only {
		// As sethostname(2) does, with no system call outside
		// @system-service (the unit's filter).
		if err := os.WriteFile(kernelHostname, []byte(name), 0o644); err != nil {
			fmt.Fprintf(stderr, "zeitnot hostname: setting the host's name to %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "hostname: %s\n", name)
	return 0
}
