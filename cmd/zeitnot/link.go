package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/sdnotify"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// defaultLinkDir is the link's own state directory when systemd does not
// name one.
const defaultLinkDir = "/var/lib/zeitnot-link"

func init() {
	register(command{Name: "link", Summary: "publish the clock to the hall's MQTT broker, as the [hall] table of zeitnot.toml says", Run: runLink})
}

func runLink(args []string, stdout, stderr io.Writer) int {
	h := newHelperFlags("link", "the club config file; its [hall] table says where to publish", stderr)
	dir := h.fs.String("link-dir", linkDir(), "the link's own state directory (default: systemd's $STATE_DIRECTORY)")
	if !h.parse(args) {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return linkMain(ctx, h.configPath(), *h.sock, *dir, stderr)
}

// helperFlags are the flags every helper process of the clock takes (link,
// eboard): the club config, the state directory a config imported from
// the boot partition is in, and the running clock's control socket.
type helperFlags struct {
	name             string
	fs               *flag.FlagSet
	cfg, state, sock *string
}

// newHelperFlags returns helper name's flags; help is the config flag's
// help. More flags may be added to fs before parse.
func newHelperFlags(name, help string, stderr io.Writer) *helperFlags {
	fs := subcmd.FlagSet(name, stderr)
	return &helperFlags{name: name, fs: fs,
		cfg:   fs.String("config", config.DefaultConfigPath, help),
		state: fs.String("state-dir", config.DefaultStateDir, "the clock's state directory, read for a zeitnot.toml imported from the boot partition"),
		sock:  fs.String("socket", control.DefaultSocket, "the control socket of the running clock"),
	}
}

// parse parses args, which may hold no argument but flags; false (exit
// 2) after saying what is wrong.
func (h *helperFlags) parse(args []string) bool {
	if err := h.fs.Parse(args); err != nil {
		return false
	}
	if h.fs.NArg() > 0 {
		fmt.Fprintf(h.fs.Output(), "zeitnot %s: unexpected argument %q\n", h.name, h.fs.Arg(0))
		return false
	}
	return true
}

// configPath is the config file the helper reads: the club's, or the one
// imported into the state directory (config.ClubPath).
func (h *helperFlags) configPath() string { return config.ClubPath(*h.cfg, *h.state) }

// linkDir is systemd's $STATE_DIRECTORY (its first entry), or the default.
func linkDir() string {
	if d, _, _ := strings.Cut(os.Getenv("STATE_DIRECTORY"), ":"); d != "" {
		return d
	}
	return defaultLinkDir
}

// linkMain runs the link of the config file cfgPath until ctx is done.
func linkMain(ctx context.Context, cfgPath, sock, dir string, stderr io.Writer) int {
	logf := lineLog(stderr, "zeitnot link")
	cfg, err := link.LoadConfig(cfgPath)
	if errors.Is(err, link.ErrNoHall) {
		logf(err.Error() + "; nothing to do")
		return 0
	}
	if err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			logf(e)
		}
		return exitConfig
	}
	notify, nerr := sdnotify.New()
	if nerr != nil {
		logf(nerr.Error())
	}
	defer notify.Close()
	noDir := ""
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		noDir, dir = dir, ""
	}
	l, err := link.New(cfg, &link.Opts{
		Socket:  sock,
		Dir:     dir,
		Version: version,
		Log:     logf,
		Notify:  func(s string) { notify.Status(s) },
	})
	if err != nil {
		logf(strings.TrimPrefix(err.Error(), "link: "))
		return exitConfig
	}
	if noDir != "" {
		logf(fmt.Sprintf("state directory %s is not there: the log position is kept in memory only, and the log lines are not signed (the board has no key)", noDir))
	}
	if err := l.Run(ctx); err != nil {
		logf(err.Error())
		return 1
	}
	notify.Stopping()
	logf("stopped: " + l.Status().String())
	return 0
}

// lineLog returns a logger of a helper process (link, eboard) that writes
// each message as one line, "PREFIX: MESSAGE", to w; its goroutines may
// call it at once.
func lineLog(w io.Writer, prefix string) func(msg string) {
	var mu sync.Mutex
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s: %s\n", prefix, msg)
	}
}
