package relay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/eboard/settings"
	"github.com/zeitnot/zeitnot/appliance/watch"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/monotonic"
	"github.com/zeitnot/zeitnot/internal/clip"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// ErrNoBoard is LoadConfig's error for a config without an [eboard]
// table: there is no board, and nothing to do.
var ErrNoBoard = errors.New("no [eboard] table: no e-board")

// LoadConfig reads the [eboard] table of the config file at path.
func LoadConfig(path string) (settings.EBoard, error) {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: 1 << 20})
	if err != nil {
		return settings.EBoard{}, fmt.Errorf("%s: %w", path, err)
	}
	e, err := settings.Parse(data, path)
	if err == nil && !e.Enabled {
		err = fmt.Errorf("%s: %w", path, ErrNoBoard)
	}
	return e, err
}

// Opts configure Run.
type Opts struct {
	Socket string       // the daemon's control socket
	Log    func(string) // where notices go; nil drops them
	// Open opens the board on port; nil is OpenSerial.
	Open func(port string) (eboard.Board, error)
	// Now is the time base of the board's events and the Settler's
	// instants; nil is monotonic.Now (the DGT driver's). FromKernel puts a
	// press's mono_ns on it; nil is monotonic.FromKernel.
	Now        func() time.Duration
	FromKernel func(ns int64) time.Duration
	// Clock is what the process waits on (wallclock's rule): the timer
	// until the Settler's next instant, as a duration from Now, and the
	// waits before opening the board or reaching the daemon again; nil is
	// wallclock.Real.
	Clock wallclock.Clock
	// Retry is how long to wait before opening the board or reaching the
	// daemon again; 0 is a second (the daemon's wait grows to 5 s).
	Retry time.Duration
	// Settle overrides the board's settling (settings.EBoard.SettleOpts).
	Settle *eboard.SettleOpts
}

func (o *Opts) fill() {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if o.Open == nil {
		o.Open = OpenSerial
	}
	if o.Now == nil {
		o.Now = monotonic.Now
	}
	if o.FromKernel == nil {
		o.FromKernel = func(ns int64) time.Duration { return monotonic.FromKernel(uint64(ns)) }
	}
	if o.Retry <= 0 {
		o.Retry = time.Second
	}
	o.Clock = wallclock.Or(o.Clock)
}

// sleep waits d on o's Clock, or until ctx is done (false).
func (o *Opts) sleep(ctx context.Context, d time.Duration) bool {
	return wallclock.Sleep(ctx, o.Clock, d)
}

// OpenSerial opens the DGT board on port with dgt.Open's defaults, once
// settings.Device has checked that the port ("auto": the /dev/serial/by-id
// entry dgt.FindPort finds) resolves to a serial tty: a config that names
// another device (a FIFO, /dev/null, /dev/ptmx, a link to a file) is
// refused, never written to.
func OpenSerial(port string) (eboard.Board, error) {
	if port == settings.Auto {
		p, err := dgt.FindPort(dgt.ByIDDir)
		if err != nil {
			return nil, err
		}
		port = p
	}
	dev, err := settings.Device(port)
	if err != nil {
		return nil, err
	}
	d, err := dgt.Open(dev, nil)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// OpenSim opens the simulator's DGT board on the pseudo-terminal port
// (settings.SimDevice), for the laptop's demo: the port comes from zeitnot
// eboard's --sim-port flag, never from a config file.
func OpenSim(port string) (eboard.Board, error) {
	dev, err := settings.SimDevice(port)
	if err != nil {
		return nil, err
	}
	return dgt.Open(dev, nil)
}

// boardMsg is what the board's goroutine says.
type boardMsg struct {
	ev   eboard.Event
	err  error  // the board is gone (or could not be opened)
	open string // the board was opened: its name
}

// daemonMsg is what the daemon's goroutine says.
type daemonMsg struct {
	game *protocol.EBoardGame
	ev   *protocol.Event
	at   time.Duration
	down error
}

// Run reads the board of cfg and hands its moves to the daemon at
// o.Socket until ctx is done. It never gives up: a board unplugged, or
// one that sends garbage, is opened again every o.Retry; a daemon gone is
// reached again. It returns nil when ctx is done.
func Run(ctx context.Context, cfg settings.EBoard, o Opts) error {
	o.fill()
	st := cfg.SettleOpts()
	if o.Settle != nil {
		st = *o.Settle
	}
	f := NewFollower(st)
	boards := make(chan boardMsg, 64)
	daemon := make(chan daemonMsg, 64)
	requests := make(chan Request, 64)
	go readBoard(ctx, cfg.Port, o, boards)
	go followDaemon(ctx, o, daemon)
	go sendRequests(ctx, o, requests)

	timer := o.Clock.NewTimer(time.Hour)
	defer timer.Stop()
	deadline := eboard.Never // when the timer fires
	arm := func(at time.Duration) {
		timer.Stop()
		deadline = at
		if at != eboard.Never {
			timer.Reset(max(at-o.Now(), 0))
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-boards:
			events := board(f, m)
			// A board that floods: what is queued goes in at once.
			for more := true; more; {
				select {
				case m := <-boards:
					events = board(f, m) && events
				default:
					more = false
				}
			}
			if events {
				// The board's events alone answer nothing before
				// the Settler's instants: the timer's Advance does
				// it, so that a board sending 10,000 updates a
				// second costs an Observe each, not an Advance.
				if at := f.StableAt(); at < deadline {
					arm(at)
				}
				continue
			}
		case m := <-daemon:
			switch {
			case m.down != nil:
				f.Down()
			case m.game != nil:
				f.Game(*m.game)
			case m.ev != nil:
				f.Event(*m.ev, m.at)
			}
		case <-timer.C():
			deadline = eboard.Never
		}
		out, next := f.Advance(o.Now())
		for _, r := range out {
			select {
			case requests <- r:
			default:
				o.Log("daemon: too many requests waiting; dropped " + clip.Text(r.String(), 77))
			}
		}
		arm(next)
	}
}

// board gives the follower what the board's goroutine said; it reports
// whether that was an event (not a loss, nor the board opened).
func board(f *Follower, m boardMsg) bool {
	switch {
	case m.err != nil:
		f.Lost(m.err)
	case m.open != "":
	default:
		f.Board(m.ev)
		return true
	}
	return false
}

// readBoard opens the board and gives its events to ch, again and again.
func readBoard(ctx context.Context, port string, o Opts, ch chan<- boardMsg) {
	said := ""
	for ctx.Err() == nil {
		b, err := o.Open(port)
		if err != nil {
			if err.Error() != said {
				o.Log(err.Error())
				said = err.Error()
			}
			if !put(ctx, ch, boardMsg{err: err}) || !o.sleep(ctx, o.Retry) {
				return
			}
			continue
		}
		said = ""
		info := b.Info()
		o.Log(fmt.Sprintf("%s: opened (serial %q, version %q)", b, info.Serial, info.Version))
		stop := context.AfterFunc(ctx, func() { b.Close() })
		if !put(ctx, ch, boardMsg{open: b.String()}) {
			stop()
			b.Close()
			return
		}
		for {
			ev, err := b.Next()
			if err != nil {
				if ctx.Err() == nil {
					o.Log(fmt.Sprintf("%v; opening it again", err))
					put(ctx, ch, boardMsg{err: err})
				}
				break
			}
			if !put(ctx, ch, boardMsg{ev: ev}) {
				break
			}
		}
		stop()
		b.Close()
		if !o.sleep(ctx, o.Retry) {
			return
		}
	}
}

// followDaemon follows the daemon's watch stream and asks eboard-game at
// its start and at every new or recovered game.
func followDaemon(ctx context.Context, o Opts, ch chan<- daemonMsg) {
	c := control.Client{Socket: o.Socket}
	said := ""
	down := func(err error) {
		if err.Error() != said {
			o.Log("daemon: " + err.Error())
			said = err.Error()
		}
		put(ctx, ch, daemonMsg{down: err})
	}
	watch.Follow(ctx, watch.Opts{Client: c, Retry: o.Retry, Down: down, Sleep: o.sleep}, func(w watch.Line) error {
		if w.State != nil && w.First || w.NewGame() {
			g, err := askGame(ctx, c)
			if err != nil {
				return err
			}
			if said != "" {
				o.Log("daemon: following " + o.Socket + " again")
				said = ""
			}
			if !put(ctx, ch, daemonMsg{game: &g}) {
				return ctx.Err()
			}
			return nil
		}
		if w.Event.Event == "" {
			return nil
		}
		at := o.Now()
		if w.Event.MonoNs > 0 {
			at = o.FromKernel(w.Event.MonoNs)
		}
		e := w.Event
		if !put(ctx, ch, daemonMsg{ev: &e, at: at}) {
			return ctx.Err()
		}
		return nil
	})
}

// askGame asks eboard-game and checks the answer.
func askGame(ctx context.Context, c control.Client) (protocol.EBoardGame, error) {
	var g protocol.EBoardGame
	a, err := c.Call(ctx, protocol.ReqEBoardGame)
	if err != nil {
		return g, err
	}
	// An answer, read as protocol's readers read: a field a newer daemon
	// adds is left (protocol.Strict).
	if err := protocol.Strict([]byte(a), &g); err != nil {
		return g, fmt.Errorf("eboard-game: %v", err)
	}
	return g, g.Check()
}

// sendRequests sends the follower's requests, one at a time.
func sendRequests(ctx context.Context, o Opts, ch <-chan Request) {
	c := control.Client{Socket: o.Socket}
	said := ""
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-ch:
			_, err := c.Call(ctx, r.String())
			switch {
			case err == nil:
				said = ""
			case err.Error() != said:
				o.Log(fmt.Sprintf("daemon: %s: %v", r.Cmd, err))
				said = err.Error()
			}
		}
	}
}

func put[T any](ctx context.Context, ch chan<- T, v T) bool {
	select {
	case ch <- v:
		return true
	case <-ctx.Done():
		return false
	}
}
