package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/usb"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "usb",
		Summary: "export the games to a FAT USB stick and import its zeitnot.toml: usb DEVICE (what zeitnot-usb@.service runs)",
		Run:     runUSB,
	})
}

const usbUsage = `Usage:
  zeitnot usb [flags] DEVICE
      Export the clock's finished games, the game in its journal and a status
      file to zeitnot/NAME/ on the FAT file system on DEVICE (/dev/sdXN), and
      import the stick's zeitnot.toml if it has one, telling the displays what
      happened; zeitnot-usb@.service runs it when a stick is put in. Nothing
      is mounted (mtools reads and writes the stick) and the state directory
      is only read. Exit 0 when the export ran to the end (a full stick or a
      refused config included: the displays say so), 1 when the stick failed
      or went away, 2 for bad arguments.
  zeitnot usb --stopped
      Take the displays' message away after an export that ran to the end
      (the unit's ExecStopPost=, when the stick is pulled out: systemd's
      $EXIT_CODE is "exited" and $EXIT_STATUS 0); after any other, leave it.
      Always exits 0: a message that cannot be taken away is no failure.

Flags:
`

func runUSB(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("usb", stderr)
	cfg := fs.String("config", config.DefaultConfigPath, "the club config file")
	state := fs.String("state-dir", config.DefaultStateDir, "the daemon's state directory (only read)")
	sock := fs.String("socket", control.DefaultSocket, "the daemon's control socket (empty: none; messages only logged, no config imported)")
	work := fs.String("work-dir", "", "where to put the files for the stick and the config for the daemon (default: $RUNTIME_DIRECTORY, else a temporary directory)")
	group := fs.String("share-group", "", "give the config handed to the daemon this group, mode 0640 (the unit: zeitnot)")
	image := fs.Bool("image", false, "DEVICE may be a FAT image file rather than a block device")
	stopped := fs.Bool("stopped", false, "take the displays' message away if the export ran to the end")
	fs.Usage = func() {
		fmt.Fprint(stderr, usbUsage)
		fs.PrintDefaults()
	}
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if *stopped {
		if len(rest) > 1 {
			fs.Usage()
			return 2
		}
		return usbStopped(*sock, stderr)
	}
	if len(rest) != 1 {
		fs.Usage()
		return 2
	}
	s, err := usb.OpenStick(rest[0], *image, nil)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot usb: %v\n", err)
		return 2
	}
	dir := *work
	if dir == "" {
		dir = os.Getenv("RUNTIME_DIRECTORY")
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "zeitnot-usb-"); err != nil {
			fmt.Fprintf(stderr, "zeitnot usb: %v\n", err)
			return 1
		}
		defer os.RemoveAll(dir)
	}
	o := usb.Opts{
		StateDir:       *state,
		ConfigPath:     *cfg,
		DefaultProfile: defaultProfile,
		WorkDir:        dir,
		ShareGroup:     *group,
		Version:        version,
		Logf:           func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) },
	}
	if *sock != "" {
		o.Daemon = usb.ControlDaemon(*sock)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	r := usb.Export(ctx, s, o)
	fmt.Fprintf(stdout, "%s: %d games saved to %s, %d there already, %d not saved; the game in the journal: %v; config: %s\n",
		s.Device(), r.Saved, r.Folder, r.Already, r.Left, r.Current, r.Config)
	if r.Err != nil {
		fmt.Fprintf(stderr, "zeitnot usb: %v\n", r.Err)
		return 1
	}
	return 0
}

// usbStopped is the unit's ExecStopPost=: the export's message goes when
// the stick goes, if the export ran to the end. A message about an export
// cut short (the stick pulled out early) stays for the daemon to time out.
func usbStopped(sock string, stderr io.Writer) int {
	if os.Getenv("EXIT_CODE") != "exited" || os.Getenv("EXIT_STATUS") != "0" {
		return 0
	}
	if sock == "" {
		return 0
	}
	if err := usb.ControlDaemon(sock).Show(""); err != nil {
		// Not the unit's failure: the message stays until the daemon
		// drops it.
		fmt.Fprintf(stderr, "zeitnot usb: the message stays on the displays: %v\n", err)
	}
	return 0
}
