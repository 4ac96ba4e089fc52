// Package buzzertest has a buzzer.Buzzer for tests that records every
// pattern it is asked to play: the simulator's buzzer (simbuzzer) with a
// memory.
package buzzertest

import (
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/buzzer/simbuzzer"
)

// Played is one pattern played and when.
type Played = simbuzzer.Played

// Recorder is a buzzer.Buzzer that records what it plays. It follows the
// interface's rules: Play on a muted Recorder records nothing, Play after
// Close fails. It is safe for concurrent use.
type Recorder struct {
	// Clock stamps each Played; nil means monotonic.Now. Set it before use.
	Clock func() time.Duration
	// OnPlay, if set, is called with every pattern played, outside the
	// Recorder's lock. Set it before use.
	OnPlay func(Played)

	once sync.Once
	dev  *simbuzzer.Buzzer

	mu     sync.Mutex
	played []Played
}

var _ buzzer.Buzzer = (*Recorder)(nil)

func (r *Recorder) buzzer() *simbuzzer.Buzzer {
	r.once.Do(func() {
		r.dev = &simbuzzer.Buzzer{Name: "buzzertest.Recorder", Clock: r.Clock, OnPlay: r.record}
	})
	return r.dev
}

func (r *Recorder) record(p Played) {
	r.mu.Lock()
	r.played = append(r.played, p)
	r.mu.Unlock()
	if r.OnPlay != nil {
		r.OnPlay(p)
	}
}

// String implements buzzer.Buzzer.
func (r *Recorder) String() string { return "buzzertest.Recorder" }

// Play implements buzzer.Buzzer.
func (r *Recorder) Play(p buzzer.Pattern) error { return r.buzzer().Play(p) }

// SetMuted implements buzzer.Buzzer.
func (r *Recorder) SetMuted(muted bool) { r.buzzer().SetMuted(muted) }

// Close implements buzzer.Buzzer.
func (r *Recorder) Close() error { return r.buzzer().Close() }

// Muted reports whether the Recorder is muted.
func (r *Recorder) Muted() bool { return r.buzzer().Muted() }

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

// Reset forgets what was played.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.played = nil
}
