package button

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// fakeEdge is a scripted kernel edge event.
type fakeEdge struct {
	at   time.Duration
	num  int
	edge gpio.Edge
}

// fakeLines is a lineSet that plays a script on a virtual clock. Its clock
// only moves when the watcher waits: to the next scripted edge, or by the
// timeout. When the script is over it blocks until Halt, like a real
// WaitForEdge(0).
type fakeLines struct {
	mu        sync.Mutex
	now       time.Duration
	script    []fakeEdge
	offsets   map[int]int // line number -> bit
	levels    gpio.GPIOValue
	timeouts  []time.Duration
	halt      chan struct{}
	lostHalts int   // Halt calls to ignore, as when one races with a deadline
	failAfter int   // fail WaitForEdge after this many edges, if > 0
	readErr   error // returned by Read
	closed    bool
}

func newFakeLines(nums []int, levels gpio.GPIOValue, script []fakeEdge) *fakeLines {
	f := &fakeLines{offsets: map[int]int{}, levels: levels, script: script, halt: make(chan struct{}, 1)}
	for i, n := range nums {
		f.offsets[n] = i
	}
	return f
}

func (f *fakeLines) clock() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeLines) WaitForEdge(timeout time.Duration) (int, gpio.Edge, error) {
	f.mu.Lock()
	f.timeouts = append(f.timeouts, timeout)
	if timeout < 0 {
		f.mu.Unlock()
		return 0, gpio.NoEdge, os.ErrDeadlineExceeded
	}
	if f.failAfter < 0 {
		f.mu.Unlock()
		return 0, gpio.NoEdge, errors.New("read /dev/gpiochip0: input/output error")
	}
	if len(f.script) > 0 && (timeout == 0 || f.script[0].at <= f.now+timeout) {
		e := f.script[0]
		f.script = f.script[1:]
		f.now = max(f.now, e.at)
		bit := gpio.GPIOValue(1) << f.offsets[e.num]
		if e.edge == gpio.RisingEdge {
			f.levels |= bit
		} else {
			f.levels &^= bit
		}
		if f.failAfter > 0 {
			f.failAfter--
			if f.failAfter == 0 {
				f.failAfter = -1
			}
		}
		f.mu.Unlock()
		return e.num, e.edge, nil
	}
	if timeout > 0 {
		f.now += timeout
		f.mu.Unlock()
		return 0, gpio.NoEdge, os.ErrDeadlineExceeded
	}
	f.mu.Unlock()
	<-f.halt
	return 0, gpio.NoEdge, os.ErrDeadlineExceeded
}

func (f *fakeLines) Read(mask gpio.GPIOValue) (gpio.GPIOValue, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.levels, f.readErr
}

func (f *fakeLines) Halt() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lostHalts > 0 {
		f.lostHalts--
		return nil
	}
	select {
	case f.halt <- struct{}{}:
	default:
	}
	return nil
}

func (f *fakeLines) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

var testLines = []Line{{"left", "GPIO17"}, {"right", "GPIO27"}}

// chatter returns the edge events of an active-low press on line num at t0
// with bounces, ending low.
func chatter(num int, t0 time.Duration, down bool) []fakeEdge {
	first, other := gpio.FallingEdge, gpio.RisingEdge
	if !down {
		first, other = other, first
	}
	us := time.Microsecond
	return []fakeEdge{
		{t0, num, first}, {t0 + 300*us, num, other}, {t0 + 1100*us, num, first},
		{t0 + 4*ms, num, other}, {t0 + 4200*us, num, first}, {t0 + 12*ms, num, other},
		{t0 + 12050*us, num, first},
	}
}

func collect(t *testing.T, src Source, n int) []Event {
	t.Helper()
	var got []Event
	timeout := time.After(5 * time.Second)
	for len(got) < n {
		select {
		case e, ok := <-src.Events():
			if !ok {
				t.Fatalf("events closed after %v", got)
			}
			got = append(got, e)
		case <-timeout:
			t.Fatalf("timed out after %v", got)
		}
	}
	return got
}

func TestWatcherPressRelease(t *testing.T) {
	var script []fakeEdge
	script = append(script, chatter(27, 100*ms, true)...)
	script = append(script, chatter(17, 100*ms+2*time.Microsecond, true)...)
	// Sort by instant; the two chatters interleave.
	for i := range script {
		for j := i + 1; j < len(script); j++ {
			if script[j].at < script[i].at {
				script[i], script[j] = script[j], script[i]
			}
		}
	}
	script = append(script, chatter(17, 2*time.Second, false)...)
	f := newFakeLines([]int{17, 27}, 3, script) // both high: released
	o := DefaultOpts
	o.Clock = f.clock
	w, err := start(testLines, f, []int{17, 27}, &o)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, w, 5)
	want := []Event{
		{"right", Press, 100 * ms},
		{"left", Press, 100*ms + 2*time.Microsecond},
		{"right", Hold, 1600 * ms},
		{"left", Hold, 1600*ms + 2*time.Microsecond},
		{"left", Release, 2 * time.Second},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: got %v want %v (all %v)", i, got[i], want[i], got)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-w.Events(); ok {
		t.Fatal("events still open after Close")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		t.Fatal("lines not released")
	}
	for _, to := range f.timeouts {
		if to < 0 {
			t.Fatalf("WaitForEdge called with %v: returns at once on gpioioctl", to)
		}
	}
}

func TestWatcherAlreadyDown(t *testing.T) {
	// left is down at start: nothing until it is released and pressed again.
	script := append(chatter(17, 50*ms, false), chatter(17, 500*ms, true)...)
	f := newFakeLines([]int{17, 27}, 2, script)
	o := DefaultOpts
	o.Clock = f.clock
	w, err := start(testLines, f, []int{17, 27}, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := collect(t, w, 2)
	if got[0] != (Event{"left", Release, 50 * ms}) || got[1] != (Event{"left", Press, 500 * ms}) {
		t.Fatalf("got %v", got)
	}
}

func TestWatcherCloseDoesNotHang(t *testing.T) {
	f := newFakeLines([]int{17, 27}, 3, nil)
	f.lostHalts = 2 // the first two Halts race with a new deadline and are lost
	o := DefaultOpts
	o.Clock = f.clock
	w, err := start(testLines, f, []int{17, 27}, &o)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // let it block in WaitForEdge(0)
	done := make(chan error)
	go func() { done <- w.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Close hangs")
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestWatcherError(t *testing.T) {
	f := newFakeLines([]int{17, 27}, 3, chatter(17, 10*ms, true))
	f.failAfter = 3
	o := DefaultOpts
	o.Clock = f.clock
	w, err := start(testLines, f, []int{17, 27}, &o)
	if err != nil {
		t.Fatal(err)
	}
	for range w.Events() {
	}
	err = w.Close()
	if err == nil || !strings.Contains(err.Error(), "button: waiting for an edge: read /dev/gpiochip0: input/output error") {
		t.Fatalf("got %v", err)
	}
}

func TestWatcherReadError(t *testing.T) {
	f := newFakeLines([]int{17}, 1, nil)
	f.readErr = errors.New("bad file descriptor")
	_, err := start(testLines[:1], f, []int{17}, &DefaultOpts)
	if err == nil || err.Error() != "button: reading GPIO17: bad file descriptor" {
		t.Fatalf("got %v", err)
	}
}

func TestOpenBadLines(t *testing.T) {
	tests := []struct {
		lines []Line
		want  string
	}{
		{nil, "button: no buttons to watch"},
		{[]Line{{"", "GPIO4"}}, "button on GPIO4: no name"},
		{[]Line{{"left", ""}}, `button "left": no GPIO line`},
		{[]Line{{"left", "GPIO4"}, {"left", "GPIO5"}}, `button "left": listed twice`},
		{[]Line{{"left", "GPIO4"}, {"right", "GPIO4"}}, `button "right": GPIO4 is already used by button "left"`},
	}
	for _, tt := range tests {
		_, err := Open(tt.lines, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Open(%v) = %v, want %q", tt.lines, err, tt.want)
		}
	}
}

func TestOpenNoSuchLine(t *testing.T) {
	// Names no machine has: the error must name the button and the line,
	// and come at once.
	start := time.Now()
	_, err := Open([]Line{{"left", "GPIO_ZEITNOT_NONE"}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), `button "left": no GPIO line named GPIO_ZEITNOT_NONE on this machine`) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}
