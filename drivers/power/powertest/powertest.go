// Package powertest has a power.Gauge and a power.LossInput for tests: a
// gauge that returns the reading (or error) it was last given, and a
// power-loss input whose changes are pushed.
package powertest

import (
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/button/simbutton"
	"github.com/zeitnot/zeitnot/drivers/power"
)

// Gauge is a power.Gauge that returns what it was last given by Set or
// Fail. It is safe for concurrent use: a test sets it while a poller reads.
type Gauge struct {
	Name string // shown by String; set it before use

	mu    sync.Mutex
	r     power.Reading
	err   error
	reads int
	read  chan struct{}
}

var _ power.Gauge = (*Gauge)(nil)

// String implements power.Gauge: "powertest NAME".
func (g *Gauge) String() string { return "powertest " + g.Name }

// Set makes Read return r from now on.
func (g *Gauge) Set(r power.Reading) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.r, g.err = r, nil
}

// Fail makes Read fail with err from now on, until the next Set.
func (g *Gauge) Fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.err = err
}

// Read implements power.Gauge.
func (g *Gauge) Read() (power.Reading, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reads++
	if g.read != nil {
		select {
		case g.read <- struct{}{}:
		default:
		}
	}
	return g.r, g.err
}

// Reads returns how many times Read was called.
func (g *Gauge) Reads() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reads
}

// Wait returns a channel that receives after each Read (one pending at
// most), for a test to wait for a poller.
func (g *Gauge) Wait() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.read == nil {
		g.read = make(chan struct{}, 1)
	}
	return g.read
}

// Loss is a power.LossInput whose changes are pushed by a test.
type Loss struct {
	*power.Loss
	src *simbutton.Source
}

// NewLoss returns a Loss with nothing pushed yet. Close it.
func NewLoss() *Loss {
	src := simbutton.New()
	return &Loss{Loss: power.NewLoss("powertest loss", src), src: src}
}

// Push reports the supply lost (true) or back (false) at instant at.
func (l *Loss) Push(lost bool, at time.Duration) {
	k := button.Release
	if lost {
		k = button.Press
	}
	l.src.Push(button.Event{Button: "power-loss", Kind: k, At: at})
}
