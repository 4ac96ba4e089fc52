package button

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/zeitnot/zeitnot/internal/wait"
)

const us = time.Microsecond

// record encodes one struct gpio_v2_line_event as read(2) returns it on a
// little-endian machine (arm, arm64, x86), field by field at the uAPI's
// offsets: written out here, not with the code under test.
func record(ts uint64, id, offset, seqno, lineSeqno uint32) []byte {
	b := make([]byte, 48)
	for i := range 8 {
		b[i] = byte(ts >> (8 * i))
	}
	for k, v := range []uint32{id, offset, seqno, lineSeqno} {
		for i := range 4 {
			b[8+4*k+i] = byte(v >> (8 * i))
		}
	}
	return b // bytes 24 to 47: padding[6], zero
}

func littleEndian(t *testing.T) {
	t.Helper()
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("the records here are little-endian, as on every Raspberry Pi")
	}
}

func TestDecodeEvent(t *testing.T) {
	littleEndian(t)
	// A falling edge on line 17 at 5000.000123456 s, the 258th event of the
	// request and the 3rd of the line, as the kernel's bytes.
	b := []byte{
		0x40, 0x32, 0x3b, 0x27, 0x8c, 0x04, 0x00, 0x00, // timestamp_ns 5000000123456 (0x48c273b3240)
		0x02, 0x00, 0x00, 0x00, // id: falling
		0x11, 0x00, 0x00, 0x00, // offset 17
		0x02, 0x01, 0x00, 0x00, // seqno 258
		0x03, 0x00, 0x00, 0x00, // line_seqno 3
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	}
	want := lineEvent{timestampNs: 5000000123456, id: eventFallingEdge, offset: 17, seqno: 258, lineSeqno: 3}
	if got := decodeEvent(b); got != want {
		t.Fatalf("decodeEvent = %+v, want %+v", got, want)
	}
	if got := decodeEvent(record(5000000123456, 2, 17, 258, 3)); got != want {
		t.Fatalf("the test's encoder disagrees: %+v", got)
	}
}

// TestUAPILayout pins the structs to the kernel's sizes and offsets and the
// ioctl numbers to include/uapi/linux/gpio.h's. uapi.go also checks them at
// compile time; this says which is wrong. Run it on 32-bit ARM too:
// GOARCH=arm GOARM=7 go test -c && qemu-arm-static ./button.test -test.run UAPI.
func TestUAPILayout(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"sizeof(struct gpio_v2_line_request)", unsafe.Sizeof(lineRequest{}), 592},
		{"offsetof(gpio_v2_line_request, consumer)", unsafe.Offsetof(lineRequest{}.consumer), 256},
		{"offsetof(gpio_v2_line_request, config)", unsafe.Offsetof(lineRequest{}.config), 288},
		{"offsetof(gpio_v2_line_request, num_lines)", unsafe.Offsetof(lineRequest{}.numLines), 560},
		{"offsetof(gpio_v2_line_request, event_buffer_size)", unsafe.Offsetof(lineRequest{}.eventBufferSize), 564},
		{"offsetof(gpio_v2_line_request, fd)", unsafe.Offsetof(lineRequest{}.fd), 588},
		{"sizeof(struct gpio_v2_line_config)", unsafe.Sizeof(lineConfig{}), 272},
		{"offsetof(gpio_v2_line_config, num_attrs)", unsafe.Offsetof(lineConfig{}.numAttrs), 8},
		{"offsetof(gpio_v2_line_config, attrs)", unsafe.Offsetof(lineConfig{}.attrs), 32},
		{"sizeof(struct gpio_v2_line_config_attribute)", unsafe.Sizeof(lineConfigAttribute{}), 24},
		{"offsetof(gpio_v2_line_config_attribute, mask)", unsafe.Offsetof(lineConfigAttribute{}.mask), 16},
		{"sizeof(struct gpio_v2_line_attribute)", unsafe.Sizeof(lineAttribute{}), 16},
		{"offsetof(gpio_v2_line_attribute, value)", unsafe.Offsetof(lineAttribute{}.value), 8},
		{"sizeof(struct gpio_v2_line_values)", unsafe.Sizeof(lineValues{}), 16},
		{"GPIO_V2_GET_LINE_IOCTL", getLineIoctl, 0xC250B407},
		{"GPIO_V2_LINE_GET_VALUES_IOCTL", getValuesIoctl, 0xC010B40E},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d (%#x), want %d (%#x)", c.what, c.got, c.got, c.want, c.want)
		}
	}
}

// kedge is an edge on a line as the kernel sees it.
type kedge struct {
	at     time.Duration // the edge, stamped in the hard interrupt
	offset uint32
	high   bool          // the level after the edge
	late   time.Duration // from the stamp to the event being queued (the interrupt thread)
	back   bool          // the interrupt thread reads the level back inverted (it bounced back)
}

// fakeKernel is an edgeSource that plays a GPIO line request on a virtual
// clock. Edges are numbered as the kernel numbers them (seqno per request,
// line_seqno per line) when they happen, queued late, dropped oldest first
// when the buffer is full, and read as binary records. The clock only moves
// when the watcher waits: to the next queued event, or by the timeout; with
// nothing left it blocks until wake.
type fakeKernel struct {
	mu        sync.Mutex
	now       time.Duration
	script    []kedge // by at
	offsets   []uint32
	levelBits uint64
	seqno     uint32
	lineSeqno map[uint32]uint32
	inflight  []queued // numbered, not yet queued
	fifo      [][]byte
	capacity  int           // 0: unbounded
	stall     time.Duration // the watcher does not run before this instant
	chunk     int           // bytes per read, 0: whole records only
	partial   []byte
	woken     chan struct{}
	wakeOnce  sync.Once
	readErr   error
	eof       bool
	levelsErr error
	closed    bool
	waits     []time.Duration
}

type queued struct {
	due time.Duration
	rec []byte
}

func newFakeKernel(offsets []uint32, levels uint64, script []kedge) *fakeKernel {
	slices.SortStableFunc(script, func(a, b kedge) int { return int(a.at - b.at) })
	return &fakeKernel{offsets: offsets, levelBits: levels, script: script, lineSeqno: map[uint32]uint32{}, woken: make(chan struct{})}
}

func (k *fakeKernel) clock() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.now
}

// advance moves the clock to t, numbering the edges that happen and
// queueing the events that are due.
func (k *fakeKernel) advance(t time.Duration) {
	k.now = max(k.now, t)
	for len(k.script) > 0 && k.script[0].at <= k.now {
		e := k.script[0]
		k.script = k.script[1:]
		bit := uint64(1) << slices.Index(k.offsets, e.offset)
		if e.high {
			k.levelBits |= bit
		} else {
			k.levelBits &^= bit
		}
		k.seqno++
		k.lineSeqno[e.offset]++
		id := uint32(eventFallingEdge)
		if e.high != e.back {
			id = eventRisingEdge
		}
		k.inflight = append(k.inflight, queued{e.at + e.late, record(uint64(e.at), id, e.offset, k.seqno, k.lineSeqno[e.offset])})
	}
	slices.SortStableFunc(k.inflight, func(a, b queued) int { return int(a.due - b.due) })
	for len(k.inflight) > 0 && k.inflight[0].due <= k.now {
		if k.capacity > 0 && len(k.fifo) == k.capacity {
			k.fifo = k.fifo[1:] // the kernel drops the oldest
		}
		k.fifo = append(k.fifo, k.inflight[0].rec)
		k.inflight = k.inflight[1:]
	}
}

// nextDue is the next instant something happens.
func (k *fakeKernel) nextDue() (time.Duration, bool) {
	t, ok := time.Duration(0), false
	if len(k.script) > 0 {
		t, ok = k.script[0].at, true
	}
	for _, q := range k.inflight {
		if !ok || q.due < t {
			t, ok = q.due, true
		}
	}
	return t, ok
}

func (k *fakeKernel) wait(timeout time.Duration) error {
	k.mu.Lock()
	k.waits = append(k.waits, timeout)
	if k.now < k.stall {
		k.advance(k.stall) // the process was not running; the kernel was
	}
	for len(k.fifo) == 0 && len(k.partial) == 0 && !k.eof && k.readErr == nil {
		t, ok := k.nextDue()
		if !ok {
			if timeout >= 0 {
				k.advance(k.now + timeout)
				break
			}
			k.mu.Unlock()
			<-k.woken
			return nil
		}
		if timeout >= 0 && t > k.now+timeout {
			k.advance(k.now + timeout)
			break
		}
		k.advance(t)
	}
	k.mu.Unlock()
	select {
	case <-k.woken:
	default:
	}
	return nil
}

func (k *fakeKernel) read(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.readErr != nil {
		return 0, k.readErr
	}
	for len(k.fifo) > 0 && len(k.partial) < len(p) {
		k.partial = append(k.partial, k.fifo[0]...)
		k.fifo = k.fifo[1:]
	}
	if len(k.partial) == 0 {
		if k.eof {
			return 0, io.EOF
		}
		return 0, nil
	}
	n := len(k.partial) / eventSize * eventSize
	if k.chunk > 0 {
		n = min(len(k.partial), k.chunk)
	}
	n = min(n, len(p))
	copy(p, k.partial[:n])
	k.partial = k.partial[n:]
	return n, nil
}

func (k *fakeKernel) levels() (uint64, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.levelBits, k.levelsErr
}

func (k *fakeKernel) wake() { k.wakeOnce.Do(func() { close(k.woken) }) }

func (k *fakeKernel) close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	return nil
}

var testLines = []Line{{"left", "GPIO17"}, {"right", "GPIO27"}}

// startFake watches testLines (offsets 17 and 27) on k.
func startFake(t *testing.T, k *fakeKernel, o Opts) *watcher {
	t.Helper()
	o.Clock = k.clock
	w, err := start(testLines[:len(k.offsets)], k, k.offsets, &o, func(ns uint64) time.Duration { return time.Duration(ns) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// chatter returns the edges of an active-low contact change on line at t0
// with bounces: down ends low, up ends high.
func chatter(offset uint32, t0 time.Duration, down bool) []kedge {
	first := !down // the level after the first edge: low for a press
	var e []kedge
	level := first
	for _, d := range []time.Duration{0, 300 * us, 1100 * us, 4 * ms, 4200 * us, 12 * ms, 12050 * us} {
		e = append(e, kedge{at: t0 + d, offset: offset, high: level})
		level = !level
	}
	return e
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

func checkEvents(t *testing.T, got, want []Event) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

func TestWatcherPressRelease(t *testing.T) {
	script := slices.Concat(chatter(27, 100*ms, true), chatter(17, 100*ms+2*us, true), chatter(17, 2*time.Second, false))
	k := newFakeKernel([]uint32{17, 27}, 3, script) // both high: released
	w := startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 5), []Event{
		{Button: "right", Kind: Press, At: 100 * ms},
		{Button: "left", Kind: Press, At: 100*ms + 2*us},
		{Button: "right", Kind: Hold, At: 1600 * ms},
		{Button: "left", Kind: Hold, At: 1600*ms + 2*us},
		{Button: "left", Kind: Release, At: 2 * time.Second},
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-w.Events(); ok {
		t.Fatal("events still open after Close")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.closed {
		t.Fatal("lines not released")
	}
}

// TestWatcherStampsNotWakeups: however late the reader gets to an event,
// the press counts from the kernel's stamp of its first edge. Here each
// event is queued up to 1.9 ms after its edge, and the two levers' events
// come out of order.
func TestWatcherStampsNotWakeups(t *testing.T) {
	script := slices.Concat(chatter(17, 100*ms, true), chatter(27, 100*ms+40*us, false), chatter(17, 900*ms, false))
	for i := range script {
		script[i].late = time.Duration(1900-i*37%1900) * us
	}
	k := newFakeKernel([]uint32{17, 27}, 1, script) // left released, right down
	w := startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 3), []Event{
		{Button: "left", Kind: Press, At: 100 * ms},
		{Button: "right", Kind: Release, At: 100*ms + 40*us},
		{Button: "left", Kind: Release, At: 900 * ms},
	})
}

// TestWatcherReadBackBounced: the kernel reads the level back after the
// edge, and a bouncing contact may be back where it was: the event of the
// first edge then says "high" on a press. The press still counts from it.
func TestWatcherReadBackBounced(t *testing.T) {
	script := chatter(17, 100*ms, true)
	script[0].back = true
	k := newFakeKernel([]uint32{17}, 1, script)
	w := startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 1), []Event{{Button: "left", Kind: Press, At: 100 * ms}})

	// A lone blip read back at its old level is noise, not a press.
	// Both its events read back high.
	k = newFakeKernel([]uint32{17}, 1, []kedge{{at: 50 * ms, offset: 17, high: false, back: true}, {at: 50*ms + us, offset: 17, high: true}, {at: 500 * ms, offset: 17, high: false}})
	w = startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 1), []Event{{Button: "left", Kind: Press, At: 500 * ms}})
}

// TestWatcherPartialReads: records split across reads, as a pipe may
// return them, are put back together.
func TestWatcherPartialReads(t *testing.T) {
	k := newFakeKernel([]uint32{17, 27}, 3, slices.Concat(chatter(17, 10*ms, true), chatter(27, 11*ms, true)))
	k.chunk = 29
	w := startFake(t, k, Opts{ActiveLow: true, Debounce: 20 * ms})
	checkEvents(t, collect(t, w, 2), []Event{
		{Button: "left", Kind: Press, At: 10 * ms},
		{Button: "right", Kind: Press, At: 11 * ms},
	})
}

// TestWatcherOverrun: while the clock's process does not run (stopped,
// swapping) a noisy contact fills the kernel's buffer, which drops the
// oldest events: here the left lever's press. The loss is reported as
// Overrun events, the left lever's level is read back and its press counted
// from when the watcher found out, and its next event names it again:
// nothing is merged silently.
func TestWatcherOverrun(t *testing.T) {
	var script []kedge
	script = append(script, kedge{at: 100 * ms, offset: 17, high: false}) // left press
	for i := range 40 {                                                   // right: a noisy contact
		script = append(script, kedge{at: 100*ms + 10*us + time.Duration(i)*10*us, offset: 27, high: i%2 == 1})
	}
	script = append(script, kedge{at: 600 * ms, offset: 17, high: true}) // left release
	k := newFakeKernel([]uint32{17, 27}, 3, script)
	k.capacity = 16
	k.stall = 110 * ms
	w := startFake(t, k, DefaultOpts)
	// At 110 ms the buffer holds the last 16 of the 41 events: seqno 26 to
	// 41, the right contact's 25th to 40th edges.
	checkEvents(t, collect(t, w, 5), []Event{
		{Button: "", Kind: Overrun, At: 100*ms + 250*us, Lost: 25},
		{Button: "right", Kind: Overrun, At: 100*ms + 250*us, Lost: 24},
		{Button: "left", Kind: Press, At: 110*ms - settleLag},
		{Button: "left", Kind: Overrun, At: 600 * ms, Lost: 1},
		{Button: "left", Kind: Release, At: 600 * ms},
	})
	if Overrun.String() != "overrun" {
		t.Errorf("Overrun is %q", Overrun)
	}
}

// TestWatcherOverrunOneLine: when every lost edge was the line's own, one
// Overrun names it, and the rest of the chatter still gives one press.
func TestWatcherOverrunOneLine(t *testing.T) {
	var script []kedge
	for i := range 21 {
		script = append(script, kedge{at: 100*ms + time.Duration(i)*100*us, offset: 17, high: i%2 == 1})
	}
	k := newFakeKernel([]uint32{17}, 1, script)
	k.capacity = 16
	k.stall = 110 * ms
	w := startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 2), []Event{
		{Button: "left", Kind: Overrun, At: 100*ms + 500*us, Lost: 5},
		{Button: "left", Kind: Press, At: 100*ms + 500*us},
	})
}

func TestWatcherAlreadyDown(t *testing.T) {
	// left is down at start: nothing until it is released and pressed again.
	k := newFakeKernel([]uint32{17, 27}, 2, slices.Concat(chatter(17, 50*ms, false), chatter(17, 500*ms, true)))
	w := startFake(t, k, DefaultOpts)
	checkEvents(t, collect(t, w, 2), []Event{
		{Button: "left", Kind: Release, At: 50 * ms},
		{Button: "left", Kind: Press, At: 500 * ms},
	})
}

func TestWatcherCloseDoesNotHang(t *testing.T) {
	k := newFakeKernel([]uint32{17, 27}, 3, nil)
	w := startFake(t, k, DefaultOpts)
	wait.For(t, 5*time.Second, "the watcher to block in the kernel's wait", func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return len(k.waits) > 0
	})
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
	for _, to := range k.waits {
		if to != -1 {
			t.Errorf("waited %v with nothing pending, want for ever", to)
		}
	}
}

func TestWatcherErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(k *fakeKernel)
		want string
	}{
		{"read", func(k *fakeKernel) { k.readErr = errors.New("input/output error") }, "button: reading edges: input/output error"},
		{"eof", func(k *fakeKernel) { k.eof = true }, "button: reading edges: the line request was closed"},
	} {
		k := newFakeKernel([]uint32{17, 27}, 3, nil)
		tt.set(k)
		w := startFake(t, k, DefaultOpts)
		for range w.Events() {
		}
		if err := w.Close(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: Close = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestWatcherLevelsError(t *testing.T) {
	k := newFakeKernel([]uint32{17}, 1, nil)
	k.levelsErr = errors.New("bad file descriptor")
	_, err := start(testLines[:1], k, k.offsets, &DefaultOpts, nil)
	if err == nil || err.Error() != "button: reading GPIO17: bad file descriptor" {
		t.Fatalf("got %v", err)
	}
}

// TestWatcherDeadlines: the watcher sleeps until the next window closes or
// hold falls due, settleLag late, and never polls.
func TestWatcherDeadlines(t *testing.T) {
	k := newFakeKernel([]uint32{17}, 1, []kedge{{at: 100 * ms, offset: 17, high: false}})
	w := startFake(t, k, DefaultOpts)
	collect(t, w, 2) // press, hold
	k.mu.Lock()
	defer k.mu.Unlock()
	want := []time.Duration{-1, settleLag, 20 * ms, 1480 * ms}
	if len(k.waits) < len(want) || !slices.Equal(k.waits[:len(want)], want) {
		t.Fatalf("waits %v, want %v then for ever", k.waits, want)
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
	var many []Line
	for i := range 65 {
		many = append(many, Line{fmt.Sprint("b", i), fmt.Sprint("GPIO", i)})
	}
	if _, err := Open(many, nil); err == nil || err.Error() != "button: 65 buttons, at most 64 can be watched" {
		t.Errorf("65 buttons: %v", err)
	}
}

func TestOpenNoSuchLine(t *testing.T) {
	// Names no machine has: the error must name the button and the line,
	// and come at once.
	start := time.Now()
	_, err := Open([]Line{{"left", "GPIO_ZEITNOT_NONE"}, {"right", "GPIO_ZEITNOT_NTWO"}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), `button "left": no GPIO line named GPIO_ZEITNOT_NONE on this machine`) {
		t.Fatalf("got %v", err)
	}
	// Every missing line is named, not just the first.
	if !strings.Contains(err.Error(), "\n"+`button "right": no GPIO line named GPIO_ZEITNOT_NTWO on this machine`) {
		t.Errorf("the second missing line is not named: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// bytesSource is an edgeSource that reads a fixed blob in chunks.
type bytesSource struct {
	data  []byte
	chunk int
	bits  uint64
}

func (s *bytesSource) wait(time.Duration) error { return nil }
func (s *bytesSource) read(p []byte) (int, error) {
	n := min(len(s.data), s.chunk, len(p))
	copy(p, s.data[:n])
	s.data = s.data[n:]
	s.bits = s.bits*31 + uint64(n) // the lines move as the test goes
	return n, nil
}
func (s *bytesSource) levels() (uint64, error) { return s.bits, nil }
func (s *bytesSource) wake()                   {}
func (s *bytesSource) close() error            { return nil }

// FuzzRecords feeds arbitrary bytes to the watcher as event records, read
// in chunks of any size: whatever the kernel (or a corrupt read) gives,
// nothing panics, events come in order of At, and each button's presses
// and releases alternate.
func FuzzRecords(f *testing.F) {
	f.Add(slices.Concat(
		record(100e6, eventFallingEdge, 17, 1, 1), record(100e6+300e3, eventRisingEdge, 17, 2, 2),
		record(101e6, eventFallingEdge, 17, 3, 3), record(101e6+50e3, eventFallingEdge, 27, 4, 1),
		record(900e6, eventRisingEdge, 17, 9, 5), record(950e6, eventRisingEdge, 27, 10, 2)), uint8(48), uint8(3))
	f.Add(record(5, 1, 17, 7, 3), uint8(7), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, chunk, levels uint8) {
		src := &bytesSource{data: b, chunk: int(chunk)%97 + 1, bits: uint64(levels)}
		o := DefaultOpts
		var now time.Duration
		o.Clock = func() time.Duration { return now }
		// Kernel stamps count from boot: keep them within 2^50 ns (13 days).
		w, err := newWatcher(testLines, src, []uint32{17, 27}, &o, func(ns uint64) time.Duration { return time.Duration(ns & (1<<50 - 1)) })
		if err != nil {
			t.Fatal(err)
		}
		down := map[string]bool{"left": w.raw[0], "right": w.raw[1]}
		var last time.Duration
		var out []Event
		for step := 0; step < 1000 && (len(src.data) > 0 || len(w.held) > 0 || step < 3); step++ {
			if err := w.readEvents(); err != nil {
				t.Fatal(err)
			}
			now += 10 * ms
			if len(src.data) == 0 {
				now = 1 << 51 // the end: everything held is due
			}
			if err := w.feed(now); err != nil {
				t.Fatal(err)
			}
			out, _ = w.deb.Advance(now, out[:0])
			for _, e := range out {
				if e.At < last {
					t.Fatalf("%v after an event at %v", e, last)
				}
				last = e.At
				switch e.Kind {
				case Press, Release:
					if down[e.Button] == (e.Kind == Press) {
						t.Fatalf("%v while the button is already so", e)
					}
					down[e.Button] = e.Kind == Press
				case Hold:
					if !down[e.Button] {
						t.Fatalf("%v while released", e)
					}
				case Overrun:
					if e.Lost < 1 {
						t.Fatalf("%v: nothing lost", e)
					}
				default:
					t.Fatalf("kind %v", e.Kind)
				}
			}
		}
	})
}
