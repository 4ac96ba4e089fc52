package demo

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"time"

	"github.com/corentings/chess/v2"

	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt/games"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// A board of the demo has a simulated DGT board (drivers/eboard/simdgt)
// on a pseudo-terminal, read by the clock's own `zeitnot eboard` process
// as it reads a board on /dev/ttyACM0, so the hall shows real games: the
// games of the corpus (simdgt/games) that start from the initial
// position, each move made by a hand as a person makes it (the gestures
// take turns) before the player presses.

// EBoardOpts say how the simulated e-boards play.
type EBoardOpts struct {
	// Games, if set, are the games the boards play, board n the n-th
	// (mod their number), then the next ones; all must start from the
	// initial position. Default: the corpus's games from there.
	Games []games.Game
	// Timing is how fast the hands move; zero means
	// simdgt.DefaultTiming.
	Timing simdgt.Timing
	// Off gives the boards no e-board.
	Off bool
	// Moved, if set, is called as the player presses after making ply
	// (1 for White's first move) of the game on board.
	Moved func(board, ply int, at time.Time)
}

// simBoard is one board's simulated DGT board and the game played on it.
type simBoard struct {
	pty    *simdgt.PTY
	sim    *simdgt.Board
	all    []games.Game
	timing simdgt.Timing
	r      *rand.Rand
	game   games.Game
	ply    int
	hand   *simdgt.Hand
	clock  wallclock.Clock // paces the hand (Opts.Clock)
	// free is the game the players go on with, with legal moves of
	// their own, after the arbiter set the board up for a game the clock
	// recovered (resume); nil while they play a corpus game.
	free *chess.Game
}

// EBoardSupported reports whether the clock's program has the eboard
// command (an older zeitnot has not, and refuses an [eboard] table).
func EBoardSupported(o Opts) bool {
	if o.Command == nil {
		o.Command = func(args ...string) *exec.Cmd { return exec.Command(o.Exe, args...) }
	}
	var out bytes.Buffer
	cmd := o.Command("eboard", "-h")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	return strings.Contains(out.String(), "-socket")
}

// newSimBoard opens board n's pseudo-terminal and starts its simulated
// board on it, showing the initial position.
func newSimBoard(n int, o EBoardOpts) (*simBoard, error) {
	all := o.Games
	if all == nil {
		var err error
		if all, err = games.All(); err != nil {
			return nil, err
		}
	}
	var fromStart []games.Game
	for _, g := range all {
		if g.FEN == "" {
			fromStart = append(fromStart, g)
		}
	}
	if len(fromStart) == 0 {
		return nil, fmt.Errorf("demo: no game from the initial position in the corpus")
	}
	p, err := simdgt.OpenPTY()
	if err != nil {
		return nil, err
	}
	timing := o.Timing
	if timing == (simdgt.Timing{}) {
		timing = simdgt.DefaultTiming
	}
	b := &simBoard{pty: p, sim: simdgt.New(fen.Start, nil), all: fromStart, timing: timing, r: rand.New(rand.NewPCG(uint64(n), 25)), clock: wallclock.Real}
	b.next(n - 1)
	go b.sim.Serve(p.Master)
	return b, nil
}

// config is the [eboard] table that gives the clock a board: its port
// is the simulator's pseudo-terminal, which no config may name, so the
// table says "auto" and zeitnot eboard's --sim-port names the terminal
// (simArgs).
func (b *simBoard) config() string { return "\n[eboard]\nport = \"auto\"\n" }

// simArgs are zeitnot eboard's flags for the board's terminal.
func (b *simBoard) simArgs() []string { return []string{"--sim-port", b.pty.Name} }

func (b *simBoard) close() { b.pty.Close() }

// next chooses game i (mod the corpus) for the board, which shows the
// initial position.
func (b *simBoard) next(i int) {
	b.game = b.all[i%len(b.all)]
	b.ply = 0
	b.hand = simdgt.NewHand(fen.Start, 0)
	b.hand.Timing = b.timing
}

// play runs the hand's steps at real time, from the first; false if ctx
// ended first.
func (b *simBoard) play(ctx context.Context) bool {
	steps := b.hand.Steps
	b.hand.Steps = nil
	if len(steps) == 0 {
		return true
	}
	t0 := b.clock.Now()
	first := steps[0].At
	for _, s := range steps {
		if !wallclock.Sleep(ctx, b.clock, wallclock.Until(b.clock, t0.Add(s.At-first))) {
			return false
		}
		b.sim.Apply(s)
	}
	return wallclock.Sleep(ctx, b.clock, b.hand.Timing.Press)
}

// move makes the game's next move on the board if it is white's turn in
// the game and white is to move on the clock, or black's and black; it
// returns false when it made none (the game has run out of moves, or the
// clock and the game disagree on who is to move), and the player then does
// not press.
func (b *simBoard) move(ctx context.Context, toMove string) bool {
	if b.free != nil {
		return b.moveFree(ctx, toMove)
	}
	if b.ply >= len(b.game.UCI) {
		return false
	}
	if (b.ply%2 == 0) != (toMove == "white") {
		return false
	}
	g := simdgt.Gesture(b.r.IntN(int(simdgt.NumGestures)))
	if err := b.hand.Make(b.game.UCI[b.ply], g); err != nil {
		return false
	}
	b.ply++
	return b.play(ctx)
}

// moveFree makes a legal move of the players' own in the free game, if
// the side to move there is the clock's.
func (b *simBoard) moveFree(ctx context.Context, toMove string) bool {
	if (b.free.Position().Turn() == chess.White) != (toMove == "white") {
		return false
	}
	legal := b.free.ValidMoves()
	if len(legal) == 0 {
		return false // mate or stalemate: the flag will fall
	}
	m := legal[b.r.IntN(len(legal))]
	if err := b.hand.Make(m.String(), simdgt.Gesture(b.r.IntN(int(simdgt.NumGestures)))); err != nil {
		return false
	}
	if err := b.free.Move(&m, nil); err != nil {
		return false
	}
	b.ply++
	return b.play(ctx)
}

// resume is the arbiter setting the board up in the position the clock
// has for a game it recovered (an earlier run's, played on a board the
// demo has since set up anew: the clock shows BOARD?), as FIDE 6.10's
// arbiter does for a game going on. The players go on from there with
// legal moves of their own.
func (b *simBoard) resume(ctx context.Context, position string) error {
	opt, err := chess.FEN(position)
	if err != nil {
		return fmt.Errorf("demo: the clock's position %q: %v", position, err)
	}
	pos, err := fen.ParsePlacement(position)
	if err != nil {
		return fmt.Errorf("demo: the clock's position %q: %v", position, err)
	}
	b.hand.Restore(pos)
	b.play(ctx)
	b.free = chess.NewGame(opt)
	return nil
}

// reset is the arbiter setting the board up for the next game, before the
// clock's new game starts.
func (b *simBoard) reset(ctx context.Context, i int) {
	b.free = nil
	b.hand.Restore(fen.Start)
	b.play(ctx)
	b.next(i)
}

// ready reports whether the clock reads the board and finds the game's
// position on it: before that the arbiter does not start the game, as
// moves made before the board is read would be missing.
func (b *simBoard) ready(s protocol.Status) bool {
	return s.Board != nil && s.Board.State == protocol.BoardOK
}
