package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/installer"
	"github.com/zeitnot/zeitnot/internal/subcmd"
	"github.com/zeitnot/zeitnot/protocol"
)

func init() {
	register(command{
		Name:    "installer",
		Summary: "check or install the update bundle the daemon asks about (zeitnot installer -h)",
		Run:     runInstaller,
	})
}

const installerUsage = `Usage:
  zeitnot installer [--socket S] [--spool DIR] [--system-conf F] REQUEST
      The update installer (appliance/installer), run as root by
      zeitnot-installer.service when the daemon writes REQUEST
      (/run/zeitnot/update-request, protocol.UpdateRequest): check the
      spool's bundle (size, SHA-256, rauc info: signature, compatible,
      version), install it (zeitnot update, which restarts into it on
      trial), or discard it. REQUEST is taken (renamed, then removed) before it is read. Each step goes
      to the daemon as "update-report" on its control socket. Exit 0 when
      the daemon was told, 1 otherwise, 2 for bad arguments.

Flags:
`

func runInstaller(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("installer", stderr)
	socket := flags.String("socket", "/run/zeitnot/control.sock", "the daemon's control socket")
	spool := flags.String("spool", protocol.UpdateSpool, "the directory of offered bundles")
	systemConf := flags.String("system-conf", "/etc/rauc/system.conf", "RAUC's system.conf, for the system's compatible")
	flags.Usage = func() {
		fmt.Fprint(stderr, installerUsage)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if flags.NArg() != 1 {
		fmt.Fprintln(stderr, "zeitnot installer: one request file expected (zeitnot installer -h)")
		return 2
	}
	req, err := readRequest(flags.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "zeitnot installer:", err)
		return 1
	}
	compatible, err := keyValue(*systemConf, "compatible")
	if err != nil {
		fmt.Fprintln(stderr, "zeitnot installer: the system's compatible:", err, "(RAUC checks it at install)")
	}
	self, err := os.Executable()
	if err != nil {
		self = "zeitnot"
	}
	err = installer.Handle(context.Background(), req, installer.Opts{
		Spool:      *spool,
		Compatible: compatible,
		Runner:     installer.Exec{Zeitnot: self},
		Report: func(r protocol.UpdateReport) error {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			answer, err := control.Call(*socket, protocol.ReqUpdateReport, string(b))
			if err == nil && strings.HasPrefix(answer, "error: ") {
				err = errors.New(answer)
			}
			return err
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) },
	})
	if err != nil {
		fmt.Fprintln(stderr, "zeitnot installer:", err)
		return 1
	}
	return 0
}

// readRequest reads and removes the daemon's request file: a regular
// file, not a link, of at most 4 KiB.
func readRequest(path string) (protocol.UpdateRequest, error) {
	// Taken first, by a rename: a request the daemon writes meanwhile
	// is a new file at path, which the path unit starts the installer
	// on again.
	taken := filepath.Join(filepath.Dir(path), ".update-request-taken")
	if err := os.Rename(path, taken); err != nil {
		return protocol.UpdateRequest{}, err
	}
	f, err := os.OpenFile(taken, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	os.Remove(taken)
	if err != nil {
		return protocol.UpdateRequest{}, fmt.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return protocol.UpdateRequest{}, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return protocol.UpdateRequest{}, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > 4096 {
		return protocol.UpdateRequest{}, fmt.Errorf("%s: larger than 4096 bytes", path)
	}
	req, err := protocol.ParseUpdateRequest(data)
	if err != nil {
		return protocol.UpdateRequest{}, fmt.Errorf("%s: %v", path, err)
	}
	return req, nil
}
