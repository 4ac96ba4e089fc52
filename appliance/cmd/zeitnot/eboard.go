package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/eboard/relay"
	"github.com/zeitnot/zeitnot/appliance/sdnotify"
)

func init() {
	register(command{Name: "eboard", Summary: "read the electronic board of the [eboard] table of zeitnot.toml and hand its moves to the clock (FIDE 6.14)", Run: runEBoard})
}

func runEBoard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eboard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := fs.String("config", config.DefaultConfigPath, "the club config file; its [eboard] table names the board's port")
	state := fs.String("state-dir", config.DefaultStateDir, "the clock's state directory, read for a zeitnot.toml imported from the boot partition")
	sock := fs.String("socket", control.DefaultSocket, "the control socket of the running clock")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zeitnot eboard: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return eboardMain(ctx, config.ClubPath(*cfg, *state), *sock, stderr)
}

// eboardMain runs the e-board process of the config file cfgPath until
// ctx is done. Without an [eboard] table it has nothing to do and exits
// 0, so the unit ends cleanly on a clock without a board.
func eboardMain(ctx context.Context, cfgPath, sock string, stderr io.Writer) int {
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
	logf(fmt.Sprintf("reading the board on %s for the clock at %s", cfg.Port, sock))
	if err := relay.Run(ctx, cfg, relay.Opts{Socket: sock, Log: logf}); err != nil {
		logf(err.Error())
		return 1
	}
	notify.Stopping()
	return 0
}
