package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// TestMain lets the test binary be the zeitnot command, so the tests can
// run real daemon processes, kill them and start them again.
func TestMain(m *testing.M) {
	if os.Getenv("ZEITNOT_TEST_BURN") != "" {
		burn()
	}
	if args := os.Getenv("ZEITNOT_TEST_ARGS"); args != "" {
		os.Exit(prog.Dispatch(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// notifyCount numbers the notify sockets, one per daemon started.
var notifyCount atomic.Int64

type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	sock   string
	notify *notifyListener
	done   chan struct{} // closed when the process has exited
	err    error         // its exit status, once done
}

// notifyListener plays systemd's notify socket.
type notifyListener struct {
	path  string
	conn  *net.UnixConn
	mu    sync.Mutex
	msgs  []string
	marks int
}

func listenNotify(t *testing.T, path string) *notifyListener {
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	n := &notifyListener{path: path, conn: c}
	go func() {
		buf := make([]byte, 1024)
		for {
			k, err := c.Read(buf)
			if err != nil {
				return
			}
			n.mu.Lock()
			n.msgs = append(n.msgs, string(buf[:k]))
			n.mu.Unlock()
		}
	}()
	t.Cleanup(func() { c.Close() })
	return n
}

// sync returns once the listener has read every message sent to it before
// the call: it sends a mark of its own, which the socket queues behind
// them, and waits for it to be read.
func (n *notifyListener) sync(t *testing.T) {
	t.Helper()
	n.mu.Lock()
	n.marks++
	mark := fmt.Sprintf("TEST_MARK=%d", n.marks)
	n.mu.Unlock()
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(mark)); err != nil {
		t.Fatal(err)
	}
	n.waitFor(t, 10*time.Second, mark, 1)
}

// waitFor waits until k messages starting with prefix have come.
func (n *notifyListener) waitFor(t *testing.T, timeout time.Duration, prefix string, k int) {
	t.Helper()
	wait.Until(t, timeout, func() string {
		if c := n.count(prefix); c < k {
			return fmt.Sprintf("%d of %d notifications %s", c, k, prefix)
		}
		return ""
	})
}

// waitContains waits until a message that contains s has come.
func (n *notifyListener) waitContains(t *testing.T, timeout time.Duration, s string) {
	t.Helper()
	wait.Until(t, timeout, func() string {
		n.mu.Lock()
		defer n.mu.Unlock()
		if slices.ContainsFunc(n.msgs, func(m string) bool { return strings.Contains(m, s) }) {
			return ""
		}
		last := ""
		if len(n.msgs) > 0 {
			last = n.msgs[len(n.msgs)-1]
		}
		return fmt.Sprintf("no notification says %q; the last: %q", s, last)
	})
}

func (n *notifyListener) count(prefix string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := 0
	for _, m := range n.msgs {
		if strings.HasPrefix(m, prefix) {
			k++
		}
	}
	return k
}

func startDaemon(t *testing.T, dir string, extraEnv ...string) *proc {
	t.Helper()
	if testing.Short() {
		t.Skip("starts real daemon processes: not with -short")
	}
	cfg := filepath.Join(dir, "zeitnot.toml")
	if _, err := os.Stat(cfg); err != nil {
		os.WriteFile(cfg, []byte("profile = \"sim\"\n[game]\ncontrol = \"300+2\"\n"), 0o644)
	}
	return launchDaemon(t, dir, nil, append([]string{"WATCHDOG_USEC=400000"}, extraEnv...))
}

// launchDaemon starts zeitnot run on dir's zeitnot.toml, state directory
// and control socket, with more flags and environment, and waits for its
// READY=1.
func launchDaemon(t *testing.T, dir string, flags, env []string) *proc {
	t.Helper()
	sock := filepath.Join(dir, "control.sock")
	cfg := filepath.Join(dir, "zeitnot.toml")
	notifyPath := filepath.Join(dir, "notify-"+strconv.FormatInt(notifyCount.Add(1), 10))
	n := listenNotify(t, notifyPath)
	args := append([]string{"run", "--config", cfg, "--state-dir", filepath.Join(dir, "state"), "--socket", sock}, flags...)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ZEITNOT_TEST_ARGS="+strings.Join(args, "\x1f"), "NOTIFY_SOCKET="+notifyPath)
	cmd.Env = append(cmd.Env, env...)
	logf, _ := os.Create(filepath.Join(dir, "daemon.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, sock: sock, notify: n, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); logf.Close(); close(p.done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-p.done })
	ready := false
	defer func() {
		if !ready { // the wait failed: what the daemon said
			log, _ := os.ReadFile(filepath.Join(dir, "daemon.log"))
			t.Logf("the daemon's log:\n%s", log)
		}
	}()
	wait.For(t, 20*time.Second, "the daemon's READY=1", func() bool { return n.count("READY=1") > 0 })
	ready = true
	return p
}

func (p *proc) status() ui.Status {
	p.t.Helper()
	answer, err := control.Call(p.sock, "status")
	if err != nil {
		p.t.Fatal(err)
	}
	var st ui.Status
	if err := json.Unmarshal([]byte(answer), &st); err != nil {
		p.t.Fatalf("status %q: %v", answer, err)
	}
	return st
}

func (p *proc) press(b string) {
	p.t.Helper()
	code, _, errOut := prog.Run("press", "--socket", p.sock, b)
	if code != 0 {
		p.t.Fatalf("press %s: %s", b, errOut)
	}
}

// pressMove presses lever b until the running side changes, and returns
// the status then. A press within ui.LeverLockout of the clock's start or
// of the last move is ignored, and leaves nothing in the journal or the
// watch stream; the daemon's process runs on real time, so the test
// presses again rather than sleeping past the lockout.
func (p *proc) pressMove(b string) ui.Status {
	p.t.Helper()
	was := p.status().Running
	var st ui.Status
	wait.Until(p.t, 10*time.Second, func() string {
		p.press(b)
		if st = p.status(); st.Running == was {
			return fmt.Sprintf("%s still running after a press of %s", was, b)
		}
		return ""
	})
	return st
}

func rss(pid int) int {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return kb
		}
	}
	return 0
}

func TestDaemonEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir)
	st := p.status()
	if st.Started || st.White.Ms != 302000 || st.Control != "300+2" {
		t.Fatalf("fresh daemon: %+v", st)
	}
	p.press("right") // Black's lever starts White's clock
	st = p.pressMove("left")
	if st.Running != "black" || st.White.Moves != 1 {
		t.Fatalf("after two presses: %+v", st)
	}
	// Black's clock runs 1.5 s (real time in the daemon's process), so
	// checkpoints go to the journal and the loop feeds the watchdog.
	wait.Until(t, 15*time.Second, func() string {
		if ms := p.status().Black.Ms; ms > st.Black.Ms-1500 {
			return fmt.Sprintf("black's clock at %d ms, want 1500 ms below %d", ms, st.Black.Ms)
		}
		return ""
	})
	p.notify.waitFor(t, 10*time.Second, "WATCHDOG=1", 2)
	before := p.status()
	if kb := rss(p.cmd.Process.Pid); kb > 0 {
		t.Logf("daemon RSS with the simulated profile: %d kB", kb)
	}
	if w := p.notify.count("WATCHDOG=1"); w < 2 {
		t.Errorf("%d watchdog notifications, want the loop to feed it", w)
	}
	if p.notify.count("STATUS=") == 0 {
		t.Error("no STATUS= notification")
	}

	// SIGKILL: no goodbye. The next daemon recovers the game, paused.
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	p2 := startDaemon(t, dir)
	after := p2.status()
	if !after.Recovered || !after.Paused || after.Running != "none" {
		t.Fatalf("after SIGKILL: %+v", after)
	}
	if after.White != before.White {
		t.Errorf("white (waiting) changed: %+v -> %+v", before.White, after.White)
	}
	if d := after.Black.Ms - before.Black.Ms; d < 0 || d > 1000 {
		t.Errorf("black (running) off by %d ms", d)
	}
	p2.press("pause") // the arbiter resumes
	if st := p2.status(); st.Recovered || st.Running != "black" {
		t.Errorf("after resume: %+v", st)
	}

	// SIGTERM: a clean, quick exit.
	p2.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p2.done:
		if p2.err != nil {
			t.Errorf("exit after SIGTERM: %v", p2.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit 5 s after SIGTERM")
	}
	// The datagram was sent before the exit; its reader may lag on a
	// loaded machine.
	p2.notify.waitFor(t, 5*time.Second, "STOPPING=1", 1)
	if n := p2.notify.count("STOPPING=1"); n != 1 {
		t.Errorf("%d STOPPING=1, want one", n)
	}
}

func TestDaemonBadConfigStillStarts(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "zeitnot.toml"), []byte("profile = \"sim\"\n[display]\ntenths_below = \"abc\"\n[game]\ncontrol = \"300\"\n"), 0o644)
	p := startDaemon(t, dir)
	st := p.status()
	if st.Control != "300" {
		t.Errorf("good keys ignored: control %q", st.Control)
	}
	found := false
	for _, m := range st.Messages {
		if strings.Contains(m, "zeitnot.toml:3: ") && strings.Contains(m, "tenths_below") {
			found = true
		}
	}
	if !found || st.Screen != "message" {
		t.Errorf("bad key not shown: screen %q messages %q", st.Screen, st.Messages)
	}
}

func TestHangRefusedWithoutHooks(t *testing.T) {
	p := startDaemon(t, t.TempDir())
	code, _, errOut := prog.Run("hang", "--socket", p.sock)
	if code == 0 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("hang without test hooks: %d %q", code, errOut)
	}
	p.status() // still answering
}

func TestDaemonPressRefusedOnRealHardware(t *testing.T) {
	// The press command needs simulated buttons; a profile whose buttons
	// cannot open (this machine has no GPIO) has none to press.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "zeitnot.toml"), []byte("profile = \"two-tm1637\"\n"), 0o644)
	p := startDaemon(t, dir)
	code, _, errOut := prog.Run("press", "--socket", p.sock, "left")
	if code == 0 || !strings.Contains(errOut, "simulated hardware profile only") {
		t.Errorf("press on real hardware: %d %q", code, errOut)
	}
	if st := p.status(); !strings.Contains(st.Warning+strings.Join(st.Messages, " "), "GPIO") {
		t.Errorf("missing hardware not reported: %+v", st)
	}
}

func TestWatchdogStopsWhenLoopHangs(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir, "ZEITNOT_TEST_HOOKS=1")
	// The loop feeds the watchdog (WATCHDOG_USEC=400000: every 200 ms).
	p.notify.waitFor(t, 10*time.Second, "WATCHDOG=1", 2)
	if code, _, errOut := prog.Run("hang", "--socket", p.sock); code != 0 {
		t.Fatal(errOut)
	}
	// The loop answered hang and stopped: whatever it sent before is
	// queued ahead of the mark, however late the listener reads.
	p.notify.sync(t)
	n := p.notify.count("WATCHDOG=1")
	// Five feeding intervals: a loop that still ran would feed five times.
	time.Sleep(time.Second)
	p.notify.sync(t)
	if m := p.notify.count("WATCHDOG=1"); m != n {
		t.Errorf("watchdog still fed by a hung loop: %d -> %d", n, m)
	}
}

// kills is how many SIGKILLs TestSigkillTorture deals: a few in make test,
// ZEITNOT_TORTURE_KILLS=1000 in make torture.
// burn keeps every CPU busy until killed: the load of a clock whose CPU
// is shared with something heavy.
func burn() {
	for range runtime.NumCPU() - 1 {
		go func() {
			for x := 0; ; x++ {
			}
		}()
	}
	for x := 0; ; x++ {
	}
}

// loadCPU starts n processes that keep every CPU busy until the test ends.
func loadCPU(t *testing.T, n int) {
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "ZEITNOT_TEST_BURN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
}

// torturLoad is how many CPU burners run beside the tortured daemons
// (ZEITNOT_TORTURE_LOAD; make torture sets it).
func tortureLoad() int {
	n, _ := strconv.Atoi(os.Getenv("ZEITNOT_TORTURE_LOAD"))
	return n
}

// journalGaps returns the longest gap between two lines of the journal in
// dir while a clock ran, in log milliseconds.
func journalGaps(t *testing.T, path string) (longest int64, lines int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, _ := clocklog.Salvage("game.log", f)
	if l == nil {
		t.Fatalf("%s unreadable", path)
	}
	c, err := clock.New(l.Controls, l.Options)
	if err != nil {
		t.Fatal(err)
	}
	last := int64(-1)
	for _, e := range l.Events {
		running := c.State(e.At).Running != clock.NoSide
		if running && last >= 0 {
			longest = max(longest, e.At-last)
		}
		clocklog.Apply(c, e)
		last = e.At
		lines++
	}
	return longest, lines
}

// TestCheckpointGaps: a running clock writes a journal line at least once
// a second, so a power cut costs the running side at most a second. make
// torture runs it with every CPU kept busy (ZEITNOT_TORTURE_LOAD), which
// is what made late wake-ups write checkpoints after the second.
func TestCheckpointGaps(t *testing.T) {
	n := tortureLoad()
	if n == 0 {
		// Real time on a shared machine: make torture's to prove, with
		// its own load; session's TestLateWakeUps checks the schedule.
		t.Skip("with make torture (ZEITNOT_TORTURE_LOAD) only")
	}
	dir := t.TempDir()
	p := startDaemon(t, dir)
	loadCPU(t, n)
	t.Logf("under load: %d CPU burners", n)
	p.press("right")
	time.Sleep(8 * time.Second) // the clock runs 8 s under load: what is measured
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	longest, n := journalGaps(t, filepath.Join(dir, "state", "game.log"))
	t.Logf("%d journal lines, longest gap %d ms", n, longest)
	if n < 8 {
		t.Errorf("only %d journal lines in 8 s of play", n)
	}
	if longest > session.CheckpointEvery {
		t.Errorf("a running clock went %d ms without a journal line (at most %d)", longest, session.CheckpointEvery)
	}
}

func kills() int {
	if n, err := strconv.Atoi(os.Getenv("ZEITNOT_TORTURE_KILLS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// TestSigkillTorture kills real daemon processes at random points of games
// in every mode, starts them again and checks the recovered game against
// the state read just before the kill.
func TestSigkillTorture(t *testing.T) {
	presets := []string{"fide-classical", "online-3-2", "us-g90-d5", "bronstein-g25", "hourglass-1", "byoyomi-10", "canadian-30", "count-up", "armageddon", "us-40-120-d5", "fide-classical-120"}
	dir := t.TempDir()
	n := kills()
	if l := tortureLoad(); l > 0 {
		loadCPU(t, l)
		t.Logf("under load: %d CPU burners", l)
	}
	worst := int64(0)
	seed := uint64(time.Now().UnixNano())
	rng := newRand(seed)
	t.Logf("seed %d", seed)
	for k := 0; k < n; k++ {
		key := presets[k%len(presets)]
		os.RemoveAll(filepath.Join(dir, "state"))
		os.WriteFile(filepath.Join(dir, "zeitnot.toml"), []byte("profile = \"sim\"\n[game]\ncontrol = \""+key+"\"\n"), 0o644)
		p := startDaemon(t, dir)
		p.press("right")
		for m, moves := 0, rng.IntN(5); m < moves; m++ {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond) // a random player's pace
			p.press([]string{"left", "right"}[m%2])
		}
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond) // a random instant to kill at
		truth := p.status()
		t0 := time.Now()
		p.cmd.Process.Signal(syscall.SIGKILL)
		gap := time.Since(t0).Milliseconds() + 5
		<-p.done
		p2 := startDaemon(t, dir)
		got := p2.status()
		if truth.Running != "none" && (!got.Recovered || !got.Paused) {
			t.Errorf("%s kill %d: not recovered paused: %+v", key, k, got)
		}
		for _, side := range []string{"white", "black"} {
			tp, gp := truth.White, got.White
			if side == "black" {
				tp, gp = truth.Black, got.Black
			}
			if gp.Moves != tp.Moves || gp.Period != tp.Period || gp.Flag != tp.Flag {
				t.Errorf("%s kill %d %s: %+v, truth %+v", key, k, side, gp, tp)
			}
			d := gp.Ms - tp.Ms
			if key == "count-up" {
				d = -d
			}
			lo, hi := int64(0), int64(0)
			if side == truth.Running {
				lo, hi = -gap, 1000
			} else if key == "hourglass-1" && truth.Running != "none" {
				lo, hi = -1000, gap
			}
			if d < lo || d > hi {
				t.Errorf("%s kill %d %s: off by %d ms (allowed %d to %d)", key, k, side, d, lo, hi)
			}
			worst = max(worst, max(d, -d))
		}
		p2.cmd.Process.Signal(syscall.SIGKILL)
		<-p2.done
	}
	t.Logf("%d kills; worst difference after recovery: %d ms", n, worst)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed>>1|1)) }

// TestWatchEndToEnd: `zeitnot watch` on a real daemon gets the state, then
// each press as an event line with its journal line, then the state after.
func TestWatchEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir)
	lines := make(chan string, 64)
	go control.WatchLines(p.sock, func(l string) error { lines <- l; return nil })
	next := func() map[string]json.RawMessage {
		t.Helper()
		select {
		case l := <-lines:
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("watch line %q: %v", l, err)
			}
			return m
		case <-time.After(5 * time.Second):
			log, _ := os.ReadFile(filepath.Join(dir, "daemon.log"))
			t.Fatalf("no watch line in 5 s; log:\n%s", log)
		}
		return nil
	}
	if first := next(); first["state"] == nil || first["event"] != nil {
		t.Fatalf("first line %v, want the state", first)
	}
	p.press("right")
	if ev := next(); string(ev["event"]) != `"started"` {
		t.Fatalf("after Black's lever: %s", ev["event"])
	}
	var st ui.Status
	if err := json.Unmarshal(next()["state"], &st); err != nil || st.Running != "white" {
		t.Fatalf("state after the start: %+v %v", st, err)
	}
	p.pressMove("left")
	ev := next()
	if string(ev["event"]) != `"pressed"` || string(ev["side"]) != `"white"` || !strings.Contains(string(ev["line"]), "press white") {
		t.Errorf("press event %v", ev)
	}
	if err := json.Unmarshal(next()["state"], &st); err != nil || st.Running != "black" || st.White.Moves != 1 {
		t.Errorf("state after the press: %+v %v", st, err)
	}
}

// TestFlagsAfterArguments: flags may follow the button, as
// docs/developers.md writes them.
func TestFlagsAfterArguments(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir)
	if code, _, errOut := prog.Run("press", "right", "--socket", p.sock); code != 0 {
		t.Fatalf("press right --socket S: %d %s", code, errOut)
	}
	if st := p.status(); st.Running != "white" {
		t.Errorf("after the press: %+v", st)
	}
	if code, _, _ := prog.Run("press", "right", "left", "--socket", p.sock); code != 2 {
		t.Errorf("two buttons: exit %d, want the usage error", code)
	}
}
