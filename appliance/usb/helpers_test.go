package usb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/needtool"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// needMtools skips a test on a machine without mtools and mkfs.fat
// (Debian: apt-get install mtools dosfstools).
func needMtools(t testing.TB) {
	t.Helper()
	for _, p := range []string{"mkfs.fat", "mdir", "mcopy", "mtype", "mren", "mdel", "mmd", "mshowfat"} {
		needtool.Path(t, "apt-get install mtools dosfstools", p)
	}
}

// newImage makes a FAT image file of kib KiB in a fresh directory, as a
// stick's file system.
func newImage(t testing.TB, kib int) string {
	t.Helper()
	needMtools(t)
	p := filepath.Join(t.TempDir(), "stick.img")
	mkfs := needtool.Path(t, "apt-get install dosfstools", "mkfs.fat")
	if out, err := exec.Command(mkfs, "-C", p, fmt.Sprint(kib)).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.fat: %v\n%s", err, out)
	}
	return p
}

// mt runs an mtools program on the image and returns what it printed.
func mt(t testing.TB, img, prog string, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := ExecRunner(context.Background(), prog, append([]string{"-i", img}, args...), &out); err != nil {
		t.Fatalf("%s %v: %v", prog, args, err)
	}
	return out.String()
}

// putFile writes data to the image at path (a name at the root, or in a
// folder that exists).
func putFile(t testing.TB, img, path string, data []byte) {
	t.Helper()
	local := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mt(t, img, "mcopy", "-D", "o", local, "::/"+path)
}

// files lists every file under the image's folder dir with its contents
// (folders end in '/', contents ""), by names in lower case: FAT does not
// tell names apart by case, and mtools gives a renamed file that fits
// 8.3 its short name in capitals (STATUS.TXT).
func files(t testing.TB, img, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, _, isFile := ParseListing(dir, mt(t, img, "mdir", "-b", "-a", "::/"+dir))
	if isFile {
		t.Fatalf("%s is a file", dir)
	}
	for _, e := range entries {
		name := strings.ToLower(e.Name)
		if e.Dir {
			m[name+"/"] = ""
			continue
		}
		if strings.ContainsAny(name, "*?[") {
			m[name] = "(a wildcard: not read)"
			continue
		}
		m[name] = mt(t, img, "mtype", "::/"+join(dir, e.Name))
	}
	return m
}

// gameLog is a format 2 clock log as the journal writes it: a 300+2 game
// of moves moves, a checkpoint every second, and seed making each game
// different.
func gameLog(t testing.TB, moves int, seed int64) []byte {
	t.Helper()
	pair, err := timecontrol.ParsePair("300+2")
	if err != nil {
		t.Fatal(err)
	}
	h := clocklog.Header{Controls: pair, Options: clock.DefaultOptions}
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendEvent(b, clocklog.Event{At: 0, Verb: clocklog.Start, Side: clock.NoSide})
	at := int64(0)
	side := clock.White
	for i := 0; i < moves; i++ {
		think := 1500 + (seed*7919+int64(i)*104729)%4000
		for k := int64(1000); k < think; k += 1000 {
			b = clocklog.AppendCheckpoint(b, at+k, side, h)
		}
		at += think
		b = clocklog.AppendEvent(b, clocklog.Event{At: at, Verb: clocklog.Press, Side: side})
		side = 1 - side
	}
	return b
}

// clockState is a state directory with finished games and a game under
// way, as the daemon leaves it.
type clockState struct {
	dir   string
	games map[string][]byte // "0001" -> log
	cur   []byte            // the journal's lines, without padding
}

func newClockState(t testing.TB, finished int, moves int) *clockState {
	t.Helper()
	c := &clockState{dir: t.TempDir(), games: map[string][]byte{}}
	if err := os.MkdirAll(filepath.Join(c.dir, "games"), 0o750); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= finished; i++ {
		c.addGame(t, fmt.Sprintf("%04d", i), gameLog(t, moves, int64(i)))
	}
	c.cur = gameLog(t, 7, 99)
	// The journal: its lines, then the zeros it was grown with.
	j := append(append([]byte(nil), c.cur...), make([]byte, 64<<10-len(c.cur))...)
	if err := os.WriteFile(filepath.Join(c.dir, "game.log"), j, 0o640); err != nil {
		t.Fatal(err)
	}
	return c
}

var gameTime = time.Date(2026, 3, 14, 19, 30, 0, 0, time.Local)

func (c *clockState) addGame(t testing.TB, num string, data []byte) {
	t.Helper()
	p := filepath.Join(c.dir, "games", num+".log")
	if err := os.WriteFile(p, data, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, gameTime, gameTime); err != nil {
		t.Fatal(err)
	}
	c.games[num] = data
}

// snapshot is every file of a directory tree: name, mode, size, time
// and hash, to show that an export changed nothing.
func snapshot(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		h := ""
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			s := sha256.Sum256(data)
			h = hex.EncodeToString(s[:])
		}
		lines = append(lines, fmt.Sprintf("%s %v %d %d %s", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), h))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fakeDaemon is the daemon's side of the requests the exporter sends,
// served on a real control socket (appliance/control): it records them,
// and imports as the daemon is to, with config.Import into its own state
// directory.
type fakeDaemon struct {
	sock     string
	stateDir string
	mu       sync.Mutex
	requests []string
	messages []string
	srv      *control.Server
	locked   atomic.Bool // answer imports "locked", as a locked clock
}

func newFakeDaemon(t testing.TB) *fakeDaemon {
	t.Helper()
	d := &fakeDaemon{sock: filepath.Join(t.TempDir(), "control.sock"), stateDir: t.TempDir()}
	srv, err := control.Listen(d.sock)
	if err != nil {
		t.Fatal(err)
	}
	d.srv = srv
	t.Cleanup(func() { srv.Close() })
	go func() {
		for r := range srv.Requests {
			d.mu.Lock()
			d.requests = append(d.requests, strings.TrimSpace(r.Cmd+" "+r.Arg))
			d.mu.Unlock()
			switch r.Cmd {
			case "usb-message":
				d.mu.Lock()
				d.messages = append(d.messages, r.Arg)
				d.mu.Unlock()
				r.Reply("ok")
			case "import":
				if d.locked.Load() {
					r.Reply("locked")
					continue
				}
				problems, changed, err := config.Import(r.Arg, d.stateDir)
				switch {
				case err != nil:
					r.Reply("error: " + err.Error())
				case len(problems) > 0:
					r.Reply("error: refused: " + problems[0].Error())
				case changed:
					r.Reply("imported")
				default:
					r.Reply("unchanged")
				}
			case "status":
				r.Reply(`{"running":"none","paused":false}`)
			case "update-offer":
				if _, err := protocol.ParseUpdateOffer(r.Arg); err != nil {
					r.Reply("error: update-offer: " + err.Error())
					continue
				}
				r.Reply("ok")
			default:
				r.Reply("error: unknown command " + r.Cmd)
			}
		}
	}()
	return d
}

func (d *fakeDaemon) Requests() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.requests...)
}

func (d *fakeDaemon) Messages() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.messages...)
}

// opts are the options of an export from state c to daemon d (nil: none).
func opts(t testing.TB, c *clockState, d *fakeDaemon) Opts {
	o := Opts{
		StateDir:       c.dir,
		ConfigPath:     filepath.Join(t.TempDir(), "none.toml"),
		DefaultProfile: "sim",
		WorkDir:        t.TempDir(),
		Hostname:       "zeitnot-ab12",
		Version:        "v1.2.3-test",
		Clock:          wallclocktest.New(time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)),
		Logf:           t.Logf,
	}
	if d != nil {
		o.Daemon = ControlDaemon(d.sock)
	}
	return o
}

func open(t testing.TB, img string, run Runner) *Stick {
	t.Helper()
	s, err := OpenStick(img, true, &FATOpts{Run: run, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// countingRunner counts the programs run and, from call fail on, fails
// them as a stick pulled out would: with partial set, the failing call
// first runs with each local file it copies cut to half its size, so
// that a part of a file reaches the stick.
type countingRunner struct {
	calls   int
	fail    int // 0: never
	partial bool
	log     []string
}

func (r *countingRunner) run(ctx context.Context, prog string, args []string, stdout io.Writer) error {
	r.calls++
	r.log = append(r.log, prog+" "+strings.Join(args[2:], " "))
	if r.fail == 0 || r.calls < r.fail {
		return ExecRunner(ctx, prog, args, stdout)
	}
	if r.calls == r.fail && r.partial && prog == "mcopy" {
		for _, a := range args {
			if strings.HasSuffix(a, TempSuffix) && !strings.HasPrefix(a, "::") {
				data, err := os.ReadFile(a)
				if err == nil {
					os.WriteFile(a, data[:len(data)/2], 0o600)
				}
			}
		}
		ExecRunner(ctx, prog, args, stdout)
	}
	return fmt.Errorf("%s: read error: Input/output error", prog)
}
