package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt/games"
	"github.com/zeitnot/zeitnot/hall"
	"github.com/zeitnot/zeitnot/hall/demo"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// TestEBoardGamesEndToEnd plays every game of the corpus that starts from
// the initial position (real games from pychess's collections, stockfish's
// games of every special move) end to end, one a board, all at once, at
// real time: on each board a simulated DGT board on a pseudo-terminal,
// the hands making every move as a person does before the press; the
// clock's daemon, its zeitnot eboard reading the board, its link, the
// hall. Each board's PGN, fetched from the hall, must read back as the
// source game, move for move, in the four PGN readers. It also measures
// the time from each press (the position has stood 700 ms by then, longer
// than the 250 ms that settle it) to the move in the hall's store.
//
//	ZEITNOT_EBOARD_E2E=1 go test -count=1 -run TestEBoardGamesEndToEnd -v ./cmd/zeitnot-hall/
func TestEBoardGamesEndToEnd(t *testing.T) {
	if testing.Short() || os.Getenv("ZEITNOT_EBOARD_E2E") == "" {
		t.Skip("plays eleven games at once at real time through 33 real processes (about seven minutes): ZEITNOT_EBOARD_E2E=1 runs it")
	}
	pgnreaders.Ready(t)
	all, err := games.All()
	if err != nil {
		t.Fatal(err)
	}
	var play []games.Game
	for _, g := range all {
		if g.FEN == "" {
			play = append(play, g)
		}
	}
	dir := t.TempDir()
	cfg := hall.DefaultConfig()
	cfg.HTTP, cfg.MQTT, cfg.MQTTS, cfg.Data = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", dir
	h, err := hall.Start(cfg, hall.Opts{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	exe := buildClock(t)
	if !demo.EBoardSupported(demo.Opts{Exe: exe}) {
		t.Skip("the clock's program has no eboard command")
	}

	var mu sync.Mutex
	pressed := map[[2]int]time.Time{} // board, ply: when the player pressed
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- demo.Run(ctx, demo.Opts{
			Exe: exe, Dir: filepath.Join(dir, "demo"), Broker: "mqtt://" + h.MQTTAddr(), Hall: cfg.Hall,
			Boards: len(play), Think: 400 * time.Millisecond, Logf: t.Logf,
			EBoard: demo.EBoardOpts{
				Games: play,
				// A hand a little slower than DefaultTiming's presses: 33
				// processes share this machine's cores with whatever else
				// runs, and the driver stamps a change when its process
				// reads it.
				Timing: simdgt.Timing{Touch: 150 * time.Millisecond, Pass: 40 * time.Millisecond, Press: 700 * time.Millisecond},
				Moved: func(board, ply int, at time.Time) {
					mu.Lock()
					pressed[[2]int{board, ply}] = at
					mu.Unlock()
				},
			},
		})
	}()
	// Watch the hall's store for each board's moves until every game is
	// through, at most 15 minutes.
	var delays []time.Duration
	seen := make([]int, len(play)+1)
	fetching := make([]bool, len(play)+1)
	pgns := make([]string, len(play))
	var fetched sync.WaitGroup
	wait.Until(t, 15*time.Minute, func() string {
		through := 0
		for n := 1; n <= len(play); n++ {
			b, ok := h.Store().Board(n)
			if !ok || b.State == nil || b.State.State.Board == nil {
				continue
			}
			bs := b.State.State.Board
			if bs.State == "illegal" || bs.MissingFrom > 0 {
				log, _ := os.ReadFile(filepath.Join(dir, "demo", fmt.Sprintf("board-%d", n), "eboard.log"))
				next := ""
				if bs.Ply < len(play[n-1].UCI) {
					next = play[n-1].UCI[bs.Ply]
				}
				t.Fatalf("board %d (%s): e-board %+v; the next move %s; zeitnot eboard's log:\n%s", n, play[n-1].Name, bs, next, excerptEnd(string(log)))
			}
			if bs.Ply > seen[n] {
				now := time.Now()
				mu.Lock()
				at, ok := pressed[[2]int{n, bs.Ply}]
				mu.Unlock()
				if ok && bs.Ply == seen[n]+1 {
					delays = append(delays, now.Sub(at))
				}
				seen[n] = bs.Ply
			}
			if seen[n] >= len(play[n-1].UCI) {
				through++
				if !fetching[n] {
					// At once: once the players stop, the flag falls
					// and the demo's arbiter starts the next game.
					fetching[n] = true
					fetched.Go(func() { pgns[n-1] = fetchPGN(t, h, n, play[n-1]) })
				}
			}
		}
		if through == len(play) {
			return ""
		}
		return fmt.Sprintf("plies in the hall %v of %v", seen[1:], lens(play))
	})
	fetched.Wait()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for i, res := range pgnreaders.Read(t, pgns...) {
		g := play[i]
		for _, name := range pgnreaders.Readers {
			r := res[name]
			if !r.OK || len(r.Games) != 1 {
				t.Errorf("board %d (%s): %s: ok %v, %d games, %s", i+1, g.Name, name, r.OK, len(r.Games), r.Error)
				continue
			}
			var sans []string
			for _, m := range r.Games[0].Moves {
				sans = append(sans, m.SAN)
			}
			if !slices.Equal(sans, g.SAN) {
				t.Errorf("board %d (%s): %s reads %d moves, want the source's %d:\n got %s\nwant %s", i+1, g.Name, name, len(sans), len(g.SAN), strings.Join(sans, " "), strings.Join(g.SAN, " "))
			}
		}
	}
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	if len(delays) > 0 {
		q := func(p float64) time.Duration { return delays[int(p*float64(len(delays)-1))] }
		t.Logf("%d games, %d moves; from the press to the move in the hall's store (polled every 5 ms): median %v, 90%% %v, 99%% %v, max %v",
			len(play), len(delays), q(0.5).Round(time.Millisecond), q(0.9).Round(time.Millisecond), q(0.99).Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond))
	}
}

func excerptEnd(s string) string {
	if len(s) > 400 {
		return "..." + s[len(s)-400:]
	}
	return s
}

func lens(gs []games.Game) []int {
	var out []int
	for _, g := range gs {
		out = append(out, len(g.UCI))
	}
	return out
}

// fetchPGN gets board n's PGN from the hall's page, waiting (at most 10 s)
// until it holds the game's last move: the log lines come a moment after
// the state. It may run in a goroutine of its own: it fails t with Error.
func fetchPGN(t *testing.T, h *hall.Hall, n int, g games.Game) string {
	// The last move with its number ("126. Bd3", "125... Kd1"), so that an
	// earlier move of the same SAN does not pass for it.
	p := len(g.SAN)
	if g.FEN != "" && strings.Fields(g.FEN)[1] == "b" {
		p++
	}
	last := fmt.Sprintf("%d. %s", (p+1)/2, g.SAN[len(g.SAN)-1])
	if p%2 == 0 {
		last = fmt.Sprintf("%d... %s", p/2, g.SAN[len(g.SAN)-1])
	}
	var pgn string
	var failed error
	if wait.Within(10*time.Second, func() bool {
		resp, err := http.Get(fmt.Sprintf("http://%s/api/boards/%d/pgn", h.HTTPAddr(), n))
		if err != nil {
			failed = err
			return true
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			failed = err
			return true
		}
		pgn = string(body)
		return strings.Contains(strings.Join(strings.Fields(pgn), " ")+" ", " "+last+" ")
	}) {
		if failed != nil {
			t.Error(failed)
			return ""
		}
		return pgn
	}
	t.Errorf("board %d (%s): the hall's PGN has no last move %s 10 s after its state had it:\n%s", n, g.Name, last, excerptEnd(pgn))
	return pgn
}

// TestEBoardARM64 measures, on arm64 under qemu-user, the CPU and the RSS
// of a clock's daemon and of its zeitnot eboard with a simulated board
// attached and a game played on it at a player's pace, and, for
// comparison, of a daemon without a board playing the same way. It is a
// measurement, not a check: ZEITNOT_EBOARD_ARM64=1 runs it (it needs
// qemu-aarch64-static: apt-get install -y qemu-user-static), for about two
// minutes:
//
//	ZEITNOT_EBOARD_ARM64=1 go test -count=1 -run TestEBoardARM64 -v ./cmd/zeitnot-hall/
//
// qemu-user translates every instruction, so the CPU is an upper bound of
// a Raspberry Pi's and the RSS includes the translator's own.
func TestEBoardARM64(t *testing.T) {
	if os.Getenv("ZEITNOT_EBOARD_ARM64") == "" {
		t.Skip("a measurement: ZEITNOT_EBOARD_ARM64=1 runs it")
	}
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		t.Skip("no qemu-aarch64-static (apt-get install -y qemu-user-static)")
	}
	exe := filepath.Join(t.TempDir(), "zeitnot-arm64")
	build := exec.Command("go", "build", "-o", exe, "../zeitnot")
	build.Env = append(os.Environ(), "GOARCH=arm64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for arm64: %v\n%s", err, out)
	}
	all, err := games.All()
	if err != nil {
		t.Fatal(err)
	}
	var game games.Game
	for _, g := range all {
		if g.FEN == "" && len(g.UCI) > len(game.UCI) {
			game = g // the longest from the initial position
		}
	}
	const settle, window = 20 * time.Second, 60 * time.Second
	for _, withBoard := range []bool{true, false} {
		dir := t.TempDir()
		cfg := hall.DefaultConfig()
		cfg.HTTP, cfg.MQTT, cfg.MQTTS, cfg.Data = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", dir
		h, err := hall.Start(cfg, hall.Opts{Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		procs := map[string]*exec.Cmd{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- demo.Run(ctx, demo.Opts{
				Exe: exe, Dir: filepath.Join(dir, "demo"), Broker: "mqtt://" + h.MQTTAddr(), Hall: cfg.Hall,
				Boards: 1, Think: 3 * time.Second, Logf: t.Logf,
				Command: func(args ...string) *exec.Cmd {
					cmd := exec.Command(qemu, append([]string{exe}, args...)...)
					mu.Lock()
					procs[args[0]] = cmd
					mu.Unlock()
					return cmd
				},
				EBoard: demo.EBoardOpts{Games: []games.Game{game}, Off: !withBoard},
			})
		}()
		// Let the processes start and the board attach, then sample.
		if !sleepFor(t, settle) {
			t.Fatal("interrupted")
		}
		mu.Lock()
		names := []string{"run", "link"}
		if withBoard {
			names = append(names, "eboard")
		}
		start := map[string]procStat{}
		for _, n := range names {
			if procs[n] == nil || procs[n].Process == nil {
				t.Fatalf("no %s process", n)
			}
			start[n] = readProc(t, procs[n].Process.Pid)
		}
		mu.Unlock()
		t0 := time.Now()
		maxRSS := map[string]int64{}
		for time.Since(t0) < window {
			sleepFor(t, time.Second)
			for _, n := range names {
				maxRSS[n] = max(maxRSS[n], readProc(t, procs[n].Process.Pid).rssKB)
			}
		}
		wall := time.Since(t0)
		b, _ := h.Store().Board(1)
		plies := 0
		if b.State != nil && b.State.State.Board != nil {
			plies = b.State.State.Board.Ply
		}
		for _, n := range names {
			end := readProc(t, procs[n].Process.Pid)
			cpu := time.Duration(end.cpuTicks-start[n].cpuTicks) * time.Second / 100
			t.Logf("arm64 under qemu-user, board %v: zeitnot %s: CPU %.2f %% over %v, RSS max %.1f MB (the e-board's ply at the end: %d)",
				withBoard, n, 100*cpu.Seconds()/wall.Seconds(), wall.Round(time.Second), float64(maxRSS[n])/1024, plies)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		h.Close()
	}
}

// procStat is what /proc says of a process: user and system CPU in clock
// ticks (USER_HZ, 100 on Linux) and the resident set.
type procStat struct {
	cpuTicks int64
	rssKB    int64
}

func readProc(t *testing.T, pid int) procStat {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's parenthesis: utime is the 14th field
	// of the line, stime the 15th.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	var ps procStat
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	ps.cpuTicks = ut + st
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &ps.rssKB)
		}
	}
	return ps
}

// sleepFor waits d: a measurement's window, not a condition.
func sleepFor(t *testing.T, d time.Duration) bool {
	t.Helper()
	time.Sleep(d)
	return true
}
