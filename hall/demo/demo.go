// Package demo plays simulated clocks against a hall at real time, so the
// hall's pages can be seen working without a clock in sight: each board is
// a real daemon (`zeitnot run --profile sim`) with its own `zeitnot link`,
// and the players are random presses through the daemon's control socket,
// as `zeitnot press` makes them. Each board also has a simulated DGT
// e-board that its own `zeitnot eboard` reads, on which the players make
// the moves of real games before they press (eboard.go).
package demo

import (
	"context"
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// Controls are what the boards play, in turn: a mix, so the hall shows
// blitz flags as well as long games.
var Controls = []string{"180+2", "300+3", "900+10", "40/5400+30:1800+30", "fide-blitz-5", "600+5", "120+1", "1500+10"}

// Opts say what to play.
type Opts struct {
	Exe    string // the zeitnot binary
	Dir    string // where each board's files go: DIR/board-N/
	Broker string // the hall's broker, mqtts://host:port or mqtt://host:port
	// Fingerprint, with an mqtts:// Broker, is the hall's CA's, which the
	// clocks' [hall] tables pin.
	Fingerprint string
	Hall        string
	Boards      int
	// Think is the longest a player thinks over a move (default 12 s);
	// most moves take far less.
	Think time.Duration
	// Wait makes the players wait for the round: they start no game
	// themselves, only the arbiter's scheduled start does (a rehearsal of
	// a round). Without it they start a game when no start is scheduled.
	Wait bool
	Logf func(format string, a ...any)
	// Command makes the process for a zeitnot subcommand (default:
	// Exe with args).
	Command func(args ...string) *exec.Cmd
	// EBoard is how the boards' simulated e-boards play (eboard.go).
	EBoard EBoardOpts
	// Clock paces the players and the e-boards' hands (nil:
	// wallclock.Real); the daemons keep their own time.
	Clock wallclock.Clock
}

// ClockPackage is the clock's program's package, what Build builds.
const ClockPackage = "github.com/zeitnot/zeitnot/cmd/zeitnot"

// Build builds the clock's program (ClockPackage) as dir/zeitnot with the
// go command, for the tests that play the demo's real clocks; it must run
// inside this module. It returns the program's path.
func Build(ctx context.Context, dir string) (string, error) {
	exe := filepath.Join(dir, "zeitnot")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", exe, ClockPackage).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", ClockPackage, err, out)
	}
	return exe, nil
}

// Run starts the boards and plays until ctx is done; then it stops the
// daemons and links as systemd would (SIGTERM).
func Run(ctx context.Context, o Opts) error {
	if o.Think == 0 {
		o.Think = 12 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	o.Clock = wallclock.Or(o.Clock)
	if o.Command == nil {
		o.Command = func(args ...string) *exec.Cmd { return exec.Command(o.Exe, args...) }
	}
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			done := make(chan struct{})
			go func() { p.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				p.Process.Kill()
				<-done
			}
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	eboards := !o.EBoard.Off && EBoardSupported(o)
	for n := 1; n <= o.Boards; n++ {
		dir := filepath.Join(o.Dir, fmt.Sprintf("board-%d", n))
		if err := os.MkdirAll(filepath.Join(dir, "state"), 0o750); err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dir, "link"), 0o750)
		cfg := filepath.Join(dir, "zeitnot.toml")
		conf := fmt.Sprintf("[game]\ncontrol = %q\n\n[hall]\nbroker = %q\nhall = %q\nboard = %d\n", Controls[(n-1)%len(Controls)], o.Broker, o.Hall, n)
		if o.Fingerprint != "" {
			conf += fmt.Sprintf("fingerprint = %q\n", o.Fingerprint)
		}
		sock := filepath.Join(dir, "control.sock")
		procArgs := [][]string{
			{"run", "--profile", "sim", "--trust-host-clock", "--config", cfg, "--state-dir", filepath.Join(dir, "state"), "--socket", sock},
			{"link", "--config", cfg, "--state-dir", filepath.Join(dir, "state"), "--socket", sock, "--link-dir", filepath.Join(dir, "link")},
		}
		var sb *simBoard
		if eboards {
			var err error
			if sb, err = newSimBoard(n, o.EBoard); err != nil {
				return fmt.Errorf("board %d: %v", n, err)
			}
			sb.clock = o.Clock
			defer sb.close()
			conf += sb.config()
			procArgs = append(procArgs, append([]string{"eboard", "--config", cfg, "--state-dir", filepath.Join(dir, "state"), "--socket", sock}, sb.simArgs()...))
		}
		if err := os.WriteFile(cfg, []byte(conf), 0o640); err != nil {
			return err
		}
		for _, args := range procArgs {
			logf, err := os.OpenFile(filepath.Join(dir, args[0]+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
			if err != nil {
				return err
			}
			cmd := o.Command(args...)
			cmd.Stdout, cmd.Stderr = logf, logf
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
			if err := cmd.Start(); err != nil {
				logf.Close()
				return fmt.Errorf("board %d: %s: %v", n, args[0], err)
			}
			logf.Close()
			procs = append(procs, cmd)
		}
		wg.Go(func() { play(ctx, o, n, sock, sb) })
	}
	o.Logf("demo: %d simulated clocks (daemon and link each) in %s", o.Boards, o.Dir)
	<-ctx.Done()
	return nil
}

// play is one board's two players and, after a game, its arbiter; sb is
// its e-board, or nil. They obey the round as players do: they wait for a
// scheduled start, and during a pause (the arbiter's, at the board or from
// the hall) until the arbiter resumes.
func play(ctx context.Context, o Opts, n int, sock string, sb *simBoard) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(o.Clock.Now().UnixNano())))
	press := func(b string) {
		if _, err := control.Call(sock, protocol.ReqPress, b); err != nil && ctx.Err() == nil {
			o.Logf("demo: board %d: press %s: %v", n, b, err)
		}
	}
	step := o.Think / 12 // 1 s by default
	games := 0
	resumed := "" // the recovered game the arbiter resumed
	for wallclock.Sleep(ctx, o.Clock, step/2+time.Duration(r.Int64N(int64(step)*3))) {
		a, err := control.Call(sock, protocol.ReqStatus)
		if err != nil {
			continue // the daemon is starting
		}
		s, err := protocol.ParseStatus([]byte(a))
		if err != nil {
			continue
		}
		switch {
		case s.Screen != "" && s.Screen != "game":
			press("pause") // a menu or message: back to the game
		case s.Stopped || s.White.Flag || s.Black.Flag:
			// The arbiter looks, then sets up the next game.
			if wallclock.Sleep(ctx, o.Clock, step*15) {
				if sb != nil {
					games++
					sb.reset(ctx, n-1+games)
				}
				press("ok")
				press("ok")
			}
		case !s.Started && (o.Wait || s.Round != nil && s.Round.StartsIn != nil):
			// The round's start is scheduled: the players wait for it,
			// and the clock starts White's time then (FIDE 6.5).
		case !s.Started && sb != nil && !sb.ready(s):
			// The arbiter starts the game once the clock reads the board
			// (eboard.go).
		case !s.Started:
			if !wallclock.Sleep(ctx, o.Clock, step*2+time.Duration(r.Int64N(int64(step)*8))) {
				return
			}
			// Look again: the arbiter may have scheduled the start while
			// the players sat down.
			if a, err := control.Call(sock, protocol.ReqStatus); err == nil {
				if s2, err := protocol.ParseStatus([]byte(a)); err == nil && !s2.Started && (s2.Round == nil || s2.Round.StartsIn == nil) {
					lever := "right" // Black's lever starts White's clock
					if s2.Left == "black" {
						lever = "left"
					}
					press(lever)
				}
			}
		case sb != nil && s.Started && !s.Stopped && s.Board != nil && s.Board.State == protocol.BoardMismatch:
			// A game the clock recovered from an earlier run, on a board
			// set up anew: the arbiter sets it up as the clock has it.
			if err := sb.resume(ctx, s.Board.FEN); err != nil {
				o.Logf("demo: board %d: %v", n, err)
			}
		case s.Paused && s.Recovered && s.PausedBy == "" && s.Game != resumed:
			// A game the clock recovered after make hall stopped: the
			// clock holds it paused for the arbiter, who looks and
			// resumes it at the board, once (a pause made later is
			// someone's, and waits for them).
			if wallclock.Sleep(ctx, o.Clock, step*5) {
				press("pause")
				resumed = s.Game
			}
		case s.Paused:
			// The players wait: a pause is the arbiter's (at the board
			// or from the hall), and only the arbiter resumes.
		default:
			// Mostly quick moves, now and then a long think.
			think := time.Duration(r.ExpFloat64() * float64(o.Think) / 3)
			if !wallclock.Sleep(ctx, o.Clock, min(think, o.Think)) {
				return
			}
			if sb != nil && !sb.move(ctx, s.ToMove) {
				continue // the game has no more moves: the flag will fall
			}
			if sb != nil && o.EBoard.Moved != nil {
				o.EBoard.Moved(n, sb.ply, o.Clock.Now())
			}
			lever := "left"
			if (s.ToMove == "white") != (s.Left == "white" || s.Left == "") {
				lever = "right"
			}
			press(lever)
		}
	}
}
