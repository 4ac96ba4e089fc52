package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/daemon"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/subcmd"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// defaultProfile is the hardware a clock runs on when its config names none
// that can be read: the first reference build.
const defaultProfile = "two-ssd1306-i2c"

func init() {
	register(command{Name: "run", Summary: "run the clock (the daemon systemd starts)", Run: runDaemon})
	register(command{Name: "status", Summary: "print the running clock's state as JSON", Run: runStatus})
	register(command{Name: "watch", Summary: "follow the running clock: its state, then one JSON line per event and the state after each", Run: runWatch})
	register(command{Name: "press", Summary: "press a button of a simulated clock: press BUTTON", Run: runPress(protocol.ReqPress)})
	register(command{Name: "hold", Summary: "hold a button of a simulated clock: hold BUTTON", Run: runPress(protocol.ReqHold)})
	register(command{Name: "hang", Summary: "stop the daemon's event loop, to test the watchdog (only with ZEITNOT_TEST_HOOKS=1 in the daemon's environment)", Run: runHang})
	register(command{Name: "hardware", Summary: "hardware check [PROFILE]: open every device and report; hardware speak [TEXT]: say it into one earphone", Run: runHardware})
}

func runDaemon(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("run", stderr)
	cfg := fs.String("config", config.DefaultConfigPath, "the club config file")
	state := fs.String("state-dir", config.DefaultStateDir, "where settings, presets and the game's journal live")
	sock := fs.String("socket", control.DefaultSocket, "the control socket (empty: none)")
	prof := fs.String("profile", "", "hardware profile, overriding the config's")
	synced := fs.String("time-synced-file", daemon.DefaultSyncedFile, "a file that exists while NTP has synchronized the system clock (systemd-timesyncd's); - for none")
	host := fs.Bool("trust-host-clock", false, "a demonstration clock (make hall): trust this computer's system clock for the time of day (time_source host); only with --profile sim, never on the clock's image")
	hooks := os.Getenv("ZEITNOT_TEST_HOOKS") == "1"
	if err := fs.Parse(args); err != nil {
		return 2
	}
	timeOpts := daemon.TimeOpts{SyncedFile: *synced}
	if *host {
		// Setup refuses it but on the simulated profile, off the image.
		timeOpts.Trusted = ui.SourceHost
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err := daemon.Run(ctx, daemon.Opts{
		ConfigPath:      *cfg,
		StateDir:        *state,
		Socket:          *sock,
		Profile:         *prof,
		FallbackProfile: defaultProfile,
		Log:             stderr,
		TestHooks:       hooks,
		Clock:           wallclock.Real, // the program's one clock
		Time:            timeOpts,
	})
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot run: %v\n", err)
		return 1
	}
	return 0
}

func socketFlag(fs *flag.FlagSet) *string {
	return fs.String("socket", control.DefaultSocket, "the control socket of the running clock")
}

func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("status", stderr)
	sock := socketFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	answer, err := control.Call(*sock, protocol.ReqStatus)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot status: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, answer)
	return 0
}

func runWatch(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("watch", stderr)
	sock := socketFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	err := control.WatchLines(*sock, func(line string) error {
		_, err := fmt.Fprintln(stdout, line)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot watch: %v\n", err)
		return 1
	}
	return 0
}

func runPress(verb string) func([]string, io.Writer, io.Writer) int {
	return func(args []string, stdout, stderr io.Writer) int {
		fs := subcmd.FlagSet(verb, stderr)
		sock := socketFlag(fs)
		rest, err := subcmd.ParseInterspersed(fs, args)
		if err != nil {
			return 2
		}
		if len(rest) != 1 {
			fmt.Fprintf(stderr, "usage: zeitnot %s BUTTON (left, right, pause, plus, minus, ok)\n", verb)
			return 2
		}
		if _, err := control.Call(*sock, verb, rest[0]); err != nil {
			fmt.Fprintf(stderr, "zeitnot %s: %v\n", verb, err)
			return 1
		}
		return 0
	}
}

func runHang(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("hang", stderr)
	sock := socketFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if _, err := control.Call(*sock, protocol.ReqHang); err != nil {
		fmt.Fprintf(stderr, "zeitnot hang: %v\n", err)
		return 1
	}
	return 0
}

func runHardware(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "speak" {
		return runSpeak(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(stderr, "usage: zeitnot hardware check [PROFILE]\n       zeitnot hardware speak [TEXT]\n\nPROFILE is a built-in profile or a profile file; default: the config's.")
		return 2
	}
	fs := subcmd.FlagSet("hardware check", stderr)
	cfg := fs.String("config", config.DefaultConfigPath, "the club config file naming the profile")
	state := fs.String("state-dir", config.DefaultStateDir, "the state directory (for an imported config)")
	rest, err := subcmd.ParseInterspersed(fs, args[1:])
	if err != nil || len(rest) > 1 {
		return 2
	}
	name := ""
	if len(rest) == 1 {
		name = rest[0]
	}
	if name == "" {
		layers, _ := config.LoadLayers(*cfg, *state, config.Defaults(defaultProfile))
		name = layers.Effective.Profile
	}
	p, err := daemon.LookupProfile(name)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot hardware check: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "profile %s: %s\n", p.Name, p.Description)
	failed := 0
	for _, r := range profile.Check(p) {
		fmt.Fprintln(stdout, r.String())
		if r.Err != nil {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d device(s) not found\n", failed)
		return 1
	}
	return 0
}
