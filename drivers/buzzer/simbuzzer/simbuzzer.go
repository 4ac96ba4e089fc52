// Package simbuzzer has the simulator's buzzer: a buzzer.Buzzer that makes
// no sound but keeps the last pattern played and when, and tells a
// listener (OnPlay) of each one, for a terminal to show. A hardware
// profile opens it for a buzzer of type "sim".
package simbuzzer

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

// Buzzer is a simulated buzzer.Buzzer. It follows the interface's rules:
// Play on a muted Buzzer plays nothing, Play after Close fails. Its zero
// value is ready to use; set the fields before the first Play. It is safe
// for concurrent use.
type Buzzer struct {
	// Name is what String returns; "" means "simulated buzzer".
	Name string
	// Clock stamps each Played; nil means monotonic.Now.
	Clock func() time.Duration
	// OnPlay, if set, is called with every pattern played, outside the
	// Buzzer's lock.
	OnPlay func(Played)

	mu     sync.Mutex
	last   Played
	plays  int
	muted  bool
	closed bool
}

var _ buzzer.Buzzer = (*Buzzer)(nil)

// String implements buzzer.Buzzer.
func (b *Buzzer) String() string {
	if b.Name == "" {
		return "simulated buzzer"
	}
	return b.Name
}

// Play implements buzzer.Buzzer.
func (b *Buzzer) Play(p buzzer.Pattern) error {
	if p.Tones() == nil {
		return fmt.Errorf("buzzer: %s: unknown pattern %d", b, p)
	}
	clock := b.Clock
	if clock == nil {
		clock = monotonic.Now
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return fmt.Errorf("buzzer: %s: closed", b)
	}
	if b.muted {
		b.mu.Unlock()
		return nil
	}
	pl := Played{Pattern: p, At: clock()}
	b.last = pl
	b.plays++
	b.mu.Unlock()
	if b.OnPlay != nil {
		b.OnPlay(pl)
	}
	return nil
}

// SetMuted implements buzzer.Buzzer.
func (b *Buzzer) SetMuted(muted bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.muted = muted
}

// Close implements buzzer.Buzzer. It always returns nil.
func (b *Buzzer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// Muted reports whether the Buzzer is muted.
func (b *Buzzer) Muted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.muted
}

// Last returns the last pattern played, and false if none was.
func (b *Buzzer) Last() (Played, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last, b.plays > 0
}

// Plays returns how many patterns were played (not counting those asked
// for while muted).
func (b *Buzzer) Plays() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.plays
}
