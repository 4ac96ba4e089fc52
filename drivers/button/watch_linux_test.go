package button

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/drivers/monotonic"
)

// pipeSource returns an fdSource on the read end of a pipe, as on a line
// request, and the write end, where a test plays the kernel: it writes
// struct gpio_v2_line_event records stamped with CLOCK_MONOTONIC.
func pipeSource(t *testing.T, levels *atomic.Uint64) (*fdSource, int) {
	t.Helper()
	littleEndian(t)
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	src, err := newFdSource(p[0], func() (uint64, error) { return levels.Load(), nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(p[1]) })
	return src, p[1]
}

// kernelNow is CLOCK_MONOTONIC in nanoseconds, the kernel's stamp.
func kernelNow() uint64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return uint64(ts.Nano())
}

// TestFdSourcePipe runs a watcher on the real clock and the real ppoll,
// read and eventfd, with records written to a pipe: the events' instants
// are the records' stamps, exactly.
func TestFdSourcePipe(t *testing.T) {
	var levels atomic.Uint64
	levels.Store(3)
	src, wfd := pipeSource(t, &levels)
	o := DefaultOpts
	o.Debounce = 5 * ms
	o.HoldAfter = 0
	w, err := start(testLines, src, []uint32{17, 27}, &o, monotonic.FromKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	t0 := kernelNow() - uint64(ms)
	var b []byte
	// left: a bouncing press from t0; right: a press 40 µs later.
	b = append(b, record(t0, eventFallingEdge, 17, 1, 1)...)
	b = append(b, record(t0+20_000, eventRisingEdge, 27, 2, 1)...) // read back bounced
	b = append(b, record(t0+40_000, eventFallingEdge, 27, 3, 2)...)
	b = append(b, record(t0+300_000, eventRisingEdge, 17, 4, 2)...)
	b = append(b, record(t0+1_100_000, eventFallingEdge, 17, 5, 3)...)
	levels.Store(0)
	if _, err := unix.Write(wfd, b); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, w, 2), []Event{
		{Button: "left", Kind: Press, At: monotonic.FromKernel(t0)},
		{Button: "right", Kind: Press, At: monotonic.FromKernel(t0 + 20_000)},
	})
	// Close wakes the watcher out of ppoll at once.
	start := time.Now()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Close took %v", d)
	}
}

func TestFdSourceClosedPipe(t *testing.T) {
	var levels atomic.Uint64
	src, wfd := pipeSource(t, &levels)
	w, err := start(testLines, src, []uint32{17, 27}, &DefaultOpts, monotonic.FromKernel)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(wfd)
	for range w.Events() {
	}
	if err := w.Close(); err == nil || err.Error() != "button: reading edges: the line request was closed" {
		t.Fatalf("Close = %v", err)
	}
}

// timedSource records, for every record read, how long after its stamp
// the reader got to it.
type timedSource struct {
	*fdSource
	mu   sync.Mutex
	late []time.Duration
}

func (s *timedSource) read(p []byte) (int, error) {
	n, err := s.fdSource.read(p)
	now := monotonic.Now()
	s.mu.Lock()
	for off := 0; off+eventSize <= n; off += eventSize {
		s.late = append(s.late, now-monotonic.FromKernel(decodeEvent(p[off:]).timestampNs))
	}
	s.mu.Unlock()
	return n, err
}

// TestStampVersusWakeUnderLoad measures how late the watcher wakes for an
// edge while every P of the Go scheduler is busy, and checks that the
// events' instants are the stamps all the same. A writer plays the kernel:
// it stamps a lever's edge with CLOCK_MONOTONIC and writes the record to a
// pipe at once, every 15 ms. Run with -v for the figures.
func TestStampVersusWakeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("1.5 s under load")
	}
	var levels atomic.Uint64
	levels.Store(1)
	fsrc, wfd := pipeSource(t, &levels)
	src := &timedSource{fdSource: fsrc}
	o := DefaultOpts
	o.Debounce = 2 * ms
	o.HoldAfter = 0
	w, err := start(testLines[:1], src, []uint32{17}, &o, monotonic.FromKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	// The load: a busy goroutine per P, for the whole run.
	stop := make(chan struct{})
	var busy sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		busy.Add(1)
		go func() {
			defer busy.Done()
			for x := 0; ; x++ {
				if x%1024 == 0 {
					select {
					case <-stop:
						return
					default:
					}
				}
			}
		}()
	}
	const n = 60 // 30 presses and 30 releases
	var mu sync.Mutex
	var stamps, queued []uint64
	go func() {
		for i := range n {
			time.Sleep(15 * time.Millisecond) // a press or release every 15 ms: the pace under test
			id := uint32(eventFallingEdge)
			if i%2 == 1 {
				id = eventRisingEdge
			}
			ts := kernelNow()
			_, _ = unix.Write(wfd, record(ts, id, 17, uint32(i+1), uint32(i+1)))
			q := kernelNow()
			mu.Lock()
			stamps, queued = append(stamps, ts), append(queued, q)
			mu.Unlock()
		}
	}()
	var got []Event
	for len(got) < n {
		select {
		case e := <-w.Events():
			got = append(got, e)
		case <-time.After(20 * time.Second):
			t.Fatalf("timed out after %d events", len(got))
		}
	}
	close(stop)
	busy.Wait()
	mu.Lock()
	defer mu.Unlock()
	// Unlike the kernel's interrupt thread, the writer here is an ordinary
	// goroutine: under this load it may itself be held up between the stamp
	// and the write. An event queued more than settleLag after its stamp may
	// count from later (see settleLag); those are left out of the check.
	slow := 0
	for i, e := range got {
		want := Event{Button: "left", Kind: Press, At: monotonic.FromKernel(stamps[i])}
		if i%2 == 1 {
			want.Kind = Release
		}
		if time.Duration(queued[i]-stamps[i]) >= settleLag {
			slow++
			if e.Kind != want.Kind || e.At < want.At {
				t.Fatalf("event %d: %v, want %v or later", i, e, want)
			}
			continue
		}
		if e != want {
			t.Fatalf("event %d: %v, want %v", i, e, want)
		}
	}
	src.mu.Lock()
	late := slices.Sorted(slices.Values(src.late))
	src.mu.Unlock()
	t.Logf("%d edges, a busy goroutine on each of GOMAXPROCS=%d: the reader woke after the stamp by p50 %v, p90 %v, p99 %v, max %v; the %d events queued within %v of their stamp counted from it exactly (%d queued later by the loaded writer)",
		len(late), runtime.GOMAXPROCS(0),
		late[len(late)/2], late[len(late)*9/10], late[len(late)*99/100], late[len(late)-1], n-slow, settleLag, slow)
	if slow > n/2 {
		t.Logf("the machine is too busy for this writer to play the kernel: the check says little")
	}
}
