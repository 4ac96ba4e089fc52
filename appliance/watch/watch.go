// Package watch follows the daemon's watch stream for the helpers beside
// it, the hall's link and the e-board relay: it sends "watch" on the
// control socket (appliance/control), reads every line once into a
// protocol.WatchLine, and reaches the daemon again when the stream ends,
// waiting longer each time it fails.
//
// The daemon's first line on every connection is its state; the helper
// learns the current game there (a "log" or "eboard-game" request), and
// again after a new or recovered game (Line.NewGame).
package watch

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/internal/ctxwait"
	"github.com/zeitnot/zeitnot/protocol"
)

// MaxWait bounds the wait before reaching the daemon again.
const MaxWait = 5 * time.Second

// Opts configure Follow.
type Opts struct {
	Client control.Client // the daemon's control socket
	// Retry is the first wait before reaching the daemon again after a
	// watch ended; it doubles, up to MaxWait, while the daemon cannot be
	// followed, and starts again once a watch's first line was taken.
	// 0: a second.
	Retry time.Duration
	// Down is told why each watch ended, before the wait (not when ctx
	// is done); nil: nothing.
	Down func(err error)
	// Bad is given each line that is not a JSON watch line, which is
	// skipped; nil: nothing.
	Bad func(line string)
	// Sleep waits d, or reports false as soon as ctx is done; nil is
	// ctxwait.Sleep (tests count the waits instead).
	Sleep func(ctx context.Context, d time.Duration) bool
}

// Line is one line of the stream, read.
type Line struct {
	protocol.WatchLine
	// First is the first line read on the connection: the daemon's
	// state.
	First bool
}

// NewGame reports whether the line is a new or recovered game's event:
// the current game may have changed.
func (l Line) NewGame() bool {
	return l.Event.Event == protocol.EventNewGame || l.Event.Event == protocol.EventRecovered
}

// Follow follows the daemon's watch stream until ctx is done, giving every
// line to f in order, and reaching the daemon again whenever the stream
// ends or f fails (either is given to Down). It returns when ctx is done.
func Follow(ctx context.Context, o Opts, f func(Line) error) {
	if o.Retry <= 0 {
		o.Retry = time.Second
	}
	if o.Sleep == nil {
		o.Sleep = ctxwait.Sleep
	}
	wait := o.Retry
	for ctx.Err() == nil {
		first := true
		err := o.Client.Watch(ctx, func(raw string) error {
			l := Line{First: first}
			if err := json.Unmarshal([]byte(raw), &l.WatchLine); err != nil {
				if o.Bad != nil {
					o.Bad(raw)
				}
				return nil
			}
			first = false
			if err := f(l); err != nil {
				return err
			}
			if l.First {
				wait = o.Retry // followed: a new trouble waits from the start
			}
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			err = errors.New("the watch ended")
		}
		if o.Down != nil {
			o.Down(err)
		}
		if !o.Sleep(ctx, wait) {
			return
		}
		wait = min(2*wait, MaxWait)
	}
}
