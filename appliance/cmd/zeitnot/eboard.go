package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/eboard/relay"
	"github.com/zeitnot/zeitnot/appliance/eboard/settings"
	"github.com/zeitnot/zeitnot/appliance/sdnotify"
)

func init() {
	register(command{Name: "eboard", Summary: "read the electronic board of the [eboard] table of zeitnot.toml and hand its moves to the clock (FIDE 6.14)", Run: runEBoard})
}

func runEBoard(args []string, stdout, stderr io.Writer) int {
	h := newHelperFlags("eboard", "the club config file; its [eboard] table names the board's port", stderr)
	sim := h.fs.String("sim-port", "", "the laptop's demo only: read a simulated board on this pseudo-terminal (/dev/pts/n) instead of the [eboard] table's port, which may name serial ports only")
	if !h.parse(args) {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return eboardMain(ctx, h.configPath(), *h.sock, *sim, stderr)
}

// eboardMain runs the e-board process of the config file cfgPath until
// ctx is done. Without an [eboard] table it has nothing to do and exits
// 0, so the unit ends cleanly on a clock without a board.
//
// sim, when not "", is the simulator's pseudo-terminal: the board is read
// there, not on the table's port.
func eboardMain(ctx context.Context, cfgPath, sock, sim string, stderr io.Writer) int {
	logf := lineLog(stderr, "zeitnot eboard")
	cfg, err := relay.LoadConfig(cfgPath)
	if errors.Is(err, relay.ErrNoBoard) {
		logf(err.Error() + "; nothing to do")
		return 0
	}
	if err != nil {
		logf(err.Error())
		return exitConfig
	}
	notify, nerr := sdnotify.New()
	if nerr != nil {
		logf(nerr.Error())
	}
	defer notify.Close()
	notify.Ready()
	opts := relay.Opts{Socket: sock, Log: logf}
	if sim != "" {
		if _, err := settings.SimDevice(sim); err != nil {
			logf(err.Error())
			return 2
		}
		cfg.Port, opts.Open = sim, relay.OpenSim
	}
	logf(fmt.Sprintf("reading the board on %s for the clock at %s", cfg.Port, sock))
	if err := relay.Run(ctx, cfg, opts); err != nil {
		logf(err.Error())
		return 1
	}
	notify.Stopping()
	return 0
}
