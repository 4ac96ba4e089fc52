// Package buzzertest has a buzzer.Buzzer that records the patterns it is
// asked to play, for tests and the simulator.
package buzzertest

import (
	"fmt"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/monotonic"
)

// Played is one pattern played and when.
type Played struct {
	Pattern buzzer.Pattern
	At      time.Duration // Clock() when Play was called
}

// Recorder is a buzzer.Buzzer that records what it plays. It follows the
// interface's rules: Play on a muted Recorder records nothing, Play after
// Close fails. It is safe for concurrent use.
type Recorder struct {
	// Clock stamps each Played; nil means monotonic.Now. Set it before use.
	Clock func() time.Duration
	// OnPlay, if set, is called with every pattern played, outside the
	// Recorder's lock (the simulator shows or sounds it). Set it before use.
	OnPlay func(Played)

	mu     sync.Mutex
	played []Played
	muted  bool
	closed bool
}

var _ buzzer.Buzzer = (*Recorder)(nil)

// String implements buzzer.Buzzer.
func (r *Recorder) String() string { return "buzzertest.Recorder" }

// Play implements buzzer.Buzzer.
func (r *Recorder) Play(p buzzer.Pattern) error {
	if p.Tones() == nil {
		return fmt.Errorf("buzzer: %s: unknown pattern %d", r, p)
	}
	clock := r.Clock
	if clock == nil {
		clock = monotonic.Now
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return fmt.Errorf("buzzer: %s: closed", r)
	}
	if r.muted {
		r.mu.Unlock()
		return nil
	}
	pl := Played{Pattern: p, At: clock()}
	r.played = append(r.played, pl)
	r.mu.Unlock()
	if r.OnPlay != nil {
		r.OnPlay(pl)
	}
	return nil
}

// SetMuted implements buzzer.Buzzer.
func (r *Recorder) SetMuted(muted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.muted = muted
}

// Close implements buzzer.Buzzer.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return nil
}

// Played returns a copy of what was played, oldest first.
func (r *Recorder) Played() []Played {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Played(nil), r.played...)
}

// Patterns returns the patterns played, oldest first.
func (r *Recorder) Patterns() []buzzer.Pattern {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]buzzer.Pattern, len(r.played))
	for i, p := range r.played {
		out[i] = p.Pattern
	}
	return out
}

// Muted reports whether the Recorder is muted.
func (r *Recorder) Muted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.muted
}

// Reset forgets what was played.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.played = nil
}
