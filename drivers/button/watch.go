package button

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"
)

// Open watches the GPIO lines of the given buttons and returns a Source of
// their debounced events. The order of lines is the order of events that
// fall on the same instant. opts nil means DefaultOpts.
//
// All lines are requested from the kernel as one set on one GPIO chip, with
// edge detection on both edges and opts.Pull, and watched by one goroutine
// that sleeps in the kernel until an edge or the next debounce deadline: no
// polling. A button already down when Open is called gives no press until it
// has been released.
//
// Open fails with an error naming the button when a line does not exist on
// this machine (for example on a computer that is not a Raspberry Pi), is
// used by another program, or the lines are on more than one chip.
//
// If watching fails later, the Events channel is closed early and Close
// returns the error.
func Open(lines []Line, opts *Opts) (Source, error) {
	o, err := checkLines(lines, opts)
	if err != nil {
		return nil, err
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("button: initializing periph: %w", err)
	}
	chip, err := findChip(lines)
	if err != nil {
		return nil, err
	}
	cfg := &gpioioctl.LineSetConfig{
		DefaultDirection: gpioioctl.LineInput,
		DefaultEdge:      gpio.BothEdges,
		DefaultPull:      o.Pull,
	}
	nums := make([]int, len(lines))
	for i, l := range lines {
		cfg.Lines = append(cfg.Lines, l.Line)
		nums[i] = chip.ByName(l.Line).Number()
	}
	ls, err := chip.LineSetFromConfig(cfg)
	if err != nil {
		for _, l := range lines {
			if c := chip.ByName(l.Line).Consumer(); c != "" {
				return nil, fmt.Errorf("button %q: %s is in use by %q: %w", l.Name, l.Line, c, err)
			}
		}
		return nil, fmt.Errorf("button: requesting %s on %s: %w", lineNames(lines), chip.Name(), err)
	}
	// WaitForEdge creates the file it reads edges from on its first call,
	// and Halt reads that field without a lock. Make the first call here,
	// before the watcher goroutine exists, so that Close can Halt without a
	// data race. Its deadline is already past when the read starts, so it
	// returns at once; an edge it might still return is covered by the
	// levels start reads next.
	if _, _, err := ls.WaitForEdge(time.Nanosecond); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		ls.Close()
		return nil, fmt.Errorf("button: watching %s on %s: %w", lineNames(lines), chip.Name(), err)
	}
	w, err := start(lines, ls, nums, o)
	if err != nil {
		ls.Close()
		return nil, err
	}
	return w, nil
}

// checkLines validates the button list and fills in defaults.
func checkLines(lines []Line, opts *Opts) (*Opts, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Clock == nil {
		o.Clock = DefaultOpts.Clock
	}
	if len(lines) == 0 {
		return nil, errors.New("button: no buttons to watch")
	}
	if len(lines) > 64 {
		return nil, fmt.Errorf("button: %d buttons, at most 64 can be watched", len(lines))
	}
	names := map[string]bool{}
	used := map[string]string{}
	for _, l := range lines {
		switch {
		case l.Name == "":
			return nil, fmt.Errorf("button on %s: no name", l.Line)
		case l.Line == "":
			return nil, fmt.Errorf("button %q: no GPIO line", l.Name)
		case names[l.Name]:
			return nil, fmt.Errorf("button %q: listed twice", l.Name)
		case used[l.Line] != "":
			return nil, fmt.Errorf("button %q: %s is already used by button %q", l.Name, l.Line, used[l.Line])
		}
		names[l.Name] = true
		used[l.Line] = l.Name
	}
	return &o, nil
}

// findChip returns the one GPIO chip that has all the lines.
func findChip(lines []Line) (*gpioioctl.GPIOChip, error) {
	var chip *gpioioctl.GPIOChip
	var first Line
	for _, l := range lines {
		var c *gpioioctl.GPIOChip
		for _, ch := range gpioioctl.Chips {
			if ch.ByName(l.Line) != nil {
				c = ch
				break
			}
		}
		if c == nil {
			return nil, fmt.Errorf("button %q: no GPIO line named %s on this machine%s", l.Name, l.Line, noChipHint())
		}
		if chip == nil {
			chip, first = c, l
		} else if c != chip {
			return nil, fmt.Errorf("button %q: %s is on %s but button %q is on %s; all buttons must be on one GPIO chip", l.Name, l.Line, c.Name(), first.Name, chip.Name())
		}
	}
	return chip, nil
}

// noChipHint explains why no GPIO chip was found, when that is the case.
func noChipHint() string {
	if len(gpioioctl.Chips) > 0 {
		return ""
	}
	paths, _ := filepath.Glob("/dev/gpiochip*")
	if len(paths) == 0 {
		return " (no /dev/gpiochip*)"
	}
	f, err := os.Open(paths[0])
	if err != nil {
		return " (" + err.Error() + ")"
	}
	f.Close()
	return ""
}

func lineNames(lines []Line) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = l.Line
	}
	return strings.Join(s, ", ")
}

// lineSet is the part of gpioioctl.LineSet the watcher uses.
type lineSet interface {
	WaitForEdge(timeout time.Duration) (number int, edge gpio.Edge, err error)
	Read(mask gpio.GPIOValue) (gpio.GPIOValue, error)
	Halt() error
	Close() error
}

// watcher is the Source returned by Open.
type watcher struct {
	ls        lineSet
	nums      []int // chip line number of each button
	activeLow bool
	clock     func() time.Duration
	deb       *Debouncer
	events    chan Event
	stop      chan struct{}
	done      chan struct{}
	err       error // set by run before done is closed
	closeOnce sync.Once
	closeErr  error
}

// start reads the initial levels and starts the watcher goroutine. nums[i]
// is the number WaitForEdge reports for lines[i]; bit i of ls.Read is its
// level.
func start(lines []Line, ls lineSet, nums []int, o *Opts) (*watcher, error) {
	names := make([]string, len(lines))
	for i, l := range lines {
		names[i] = l.Name
	}
	w := &watcher{
		ls:        ls,
		nums:      nums,
		activeLow: o.ActiveLow,
		clock:     o.Clock,
		deb:       NewDebouncer(names, o),
		events:    make(chan Event, 64),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	bits, err := ls.Read(0)
	if err != nil {
		return nil, fmt.Errorf("button: reading %s: %w", lineNames(lines), err)
	}
	for i := range lines {
		w.deb.Init(i, w.pressed(bits&(1<<i) != 0))
	}
	go w.run()
	return w, nil
}

func (w *watcher) pressed(high bool) bool { return high != w.activeLow }

// Events implements Source.
func (w *watcher) Events() <-chan Event { return w.events }

// Close implements Source. It returns the error that stopped the watcher
// early, if any, or the error of releasing the lines.
func (w *watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.stop)
		// Halt interrupts a WaitForEdge in progress by moving its deadline
		// to the past, but a WaitForEdge that starts right after sets a new
		// deadline: repeat until the goroutine has seen stop.
		for {
			_ = w.ls.Halt()
			select {
			case <-w.done:
			case <-time.After(10 * time.Millisecond):
				continue
			}
			break
		}
		err := w.ls.Close()
		w.closeErr = w.err
		if w.closeErr == nil && err != nil {
			w.closeErr = fmt.Errorf("button: releasing lines: %w", err)
		}
	})
	return w.closeErr
}

func (w *watcher) run() {
	defer close(w.done)
	defer close(w.events)
	buf := make([]Event, 0, 16)
	next := Never
	for {
		select {
		case <-w.stop:
			return
		default:
		}
		// On a gpioioctl LineSet a timeout of 0 waits for ever and a
		// negative one returns at once; so never pass a timeout <= 0 unless
		// nothing is pending.
		var timeout time.Duration
		now := w.clock()
		if next != Never {
			timeout = next - now
		}
		var num int
		var e gpio.Edge
		var err error
		if next == Never || timeout > 0 {
			num, e, err = w.ls.WaitForEdge(timeout)
			// The instant of the edge, before anything else.
			now = w.clock()
		} else {
			err = os.ErrDeadlineExceeded
		}
		switch {
		case err == nil:
			i := w.index(num)
			if i < 0 {
				break
			}
			switch e {
			case gpio.RisingEdge:
				w.deb.Edge(i, w.pressed(true), now)
			case gpio.FallingEdge:
				w.deb.Edge(i, w.pressed(false), now)
			default:
				if err := w.sample(now); err != nil {
					w.err = err
					return
				}
			}
		case errors.Is(err, os.ErrDeadlineExceeded):
			// A deadline, or Halt. Events still queued in the kernel are
			// read on the next turn; the levels read now are the truth.
			select {
			case <-w.stop:
				return
			default:
			}
			if err := w.sample(now); err != nil {
				w.err = err
				return
			}
		default:
			w.err = fmt.Errorf("button: waiting for an edge: %w", err)
			return
		}
		buf, next = w.deb.Advance(now, buf[:0])
		for _, ev := range buf {
			select {
			case w.events <- ev:
			case <-w.stop:
				return
			}
		}
	}
}

// sample feeds the current level of every line to the debouncer.
func (w *watcher) sample(now time.Duration) error {
	bits, err := w.ls.Read(0)
	if err != nil {
		return fmt.Errorf("button: reading lines: %w", err)
	}
	for i := range w.nums {
		w.deb.Edge(i, w.pressed(bits&(1<<i) != 0), now)
	}
	return nil
}

func (w *watcher) index(num int) int {
	for i, n := range w.nums {
		if n == num {
			return i
		}
	}
	return -1
}
