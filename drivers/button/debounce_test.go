package button

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

// edge is one raw edge of a scenario.
type edge struct {
	i       int
	pressed bool
	at      time.Duration
}

// emitted is an event and the instant Advance handed it out.
type emitted struct {
	Event
	when time.Duration
}

// drive feeds edges to d the way the GPIO watcher does: it sleeps until the
// next edge or the next deadline, whichever comes first, and calls Advance
// after every edge and at every deadline, up to end.
func drive(t testing.TB, d *Debouncer, edges []edge, end time.Duration) []emitted {
	var out []emitted
	var buf []Event
	next := Never
	k := 0
	for {
		now := end
		if k < len(edges) && edges[k].at <= now {
			now = edges[k].at
		}
		if next < now {
			now = next
		} else if k < len(edges) && edges[k].at == now {
			for k < len(edges) && edges[k].at == now {
				d.Edge(edges[k].i, edges[k].pressed, now)
				k++
			}
		}
		buf, next = d.Advance(now, buf[:0])
		for _, e := range buf {
			out = append(out, emitted{e, now})
		}
		if now >= end && k >= len(edges) && next > end {
			return out
		}
		if now >= end && next <= end {
			t.Fatalf("deadline %v not after %v", next, now)
		}
	}
}

// bounce appends the edges of one contact change of button i: the first
// edge at t0 goes to level, then chatter at random intervals for about
// chatter, ending at level.
func bounce(r *rand.Rand, edges []edge, i int, level bool, t0, chatter time.Duration) []edge {
	edges = append(edges, edge{i, level, t0})
	t := t0
	cur := level
	for {
		step := time.Duration(10+r.IntN(3000)) * time.Microsecond
		if t+step > t0+chatter {
			break
		}
		t += step
		cur = !cur
		edges = append(edges, edge{i, cur, t})
	}
	if cur != level {
		edges = append(edges, edge{i, level, t0 + chatter})
	}
	return edges
}

func kinds(evs []emitted) string {
	s := ""
	for _, e := range evs {
		s += fmt.Sprintf("%s %s@%v; ", e.Button, e.Kind, e.At)
	}
	return s
}

func TestDebounceBouncingPress(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		t0 := time.Duration(1+r.IntN(1000)) * ms
		chatter := time.Duration(5000+r.IntN(15001)) * time.Microsecond // 5 to 20 ms
		up := t0 + 300*ms
		upChatter := time.Duration(5000+r.IntN(15001)) * time.Microsecond
		edges := bounce(r, nil, 0, true, t0, chatter)
		edges = bounce(r, edges, 0, false, up, upChatter)
		d := NewDebouncer([]string{"left"}, &DefaultOpts)
		got := drive(t, d, edges, up+time.Second)
		want := []Event{{Button: "left", Kind: Press, At: t0}, {Button: "left", Kind: Release, At: up}}
		if len(got) != 2 || got[0].Event != want[0] || got[1].Event != want[1] {
			t.Fatalf("seed %d: chatter %v, %d edges: got %s want press@%v release@%v", seed, chatter, len(edges), kinds(got), t0, up)
		}
		// Handed out once the window closes, not later.
		if got[0].when != t0+DefaultOpts.Debounce {
			t.Fatalf("seed %d: press handed out at %v, want %v", seed, got[0].when, t0+DefaultOpts.Debounce)
		}
	}
}

func TestDebounceSpikesIgnored(t *testing.T) {
	for _, width := range []time.Duration{time.Microsecond, 50 * time.Microsecond, ms, 10 * ms, 19999 * time.Microsecond, 20 * ms} {
		t.Run(width.String(), func(t *testing.T) {
			d := NewDebouncer([]string{"left"}, &DefaultOpts)
			edges := []edge{{0, true, 100 * ms}, {0, false, 100*ms + width}}
			if got := drive(t, d, edges, time.Second); len(got) != 0 {
				t.Fatalf("spike of %v gave %s", width, kinds(got))
			}
		})
	}
	// A spike train on a held button does not release it.
	d := NewDebouncer([]string{"left"}, &DefaultOpts)
	edges := []edge{{0, true, 0}}
	for k := range 20 {
		at := 100*ms + time.Duration(k)*37*ms
		edges = append(edges, edge{0, false, at}, edge{0, true, at + 200*time.Microsecond})
	}
	got := drive(t, d, edges, time.Second)
	if len(got) != 1 || got[0].Kind != Press {
		t.Fatalf("spikes on a held button gave %s", kinds(got))
	}
}

func TestDebounceShortestPulse(t *testing.T) {
	// A pulse just longer than Debounce is a press and a release.
	d := NewDebouncer([]string{"ok"}, &DefaultOpts)
	edges := []edge{{0, true, 10 * ms}, {0, false, 30*ms + time.Microsecond}}
	got := drive(t, d, edges, time.Second)
	want := "ok press@10ms; ok release@30.001ms; "
	if kinds(got) != want {
		t.Fatalf("got %s want %s", kinds(got), want)
	}
}

func TestDebounceHold(t *testing.T) {
	tests := []struct {
		name string
		down time.Duration
		want string
	}{
		{"short", time.Second, "menu press@1s; menu release@2s; "},
		{"long", 2 * time.Second, "menu press@1s; menu hold@2.5s; menu release@3s; "},
		{"release at hold instant", 1500 * ms, "menu press@1s; menu hold@2.5s; menu release@2.5s; "},
		{"release just before", 1500*ms - time.Microsecond, "menu press@1s; menu release@2.499999s; "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDebouncer([]string{"menu"}, &DefaultOpts)
			edges := []edge{{0, true, time.Second}, {0, false, time.Second + tt.down}}
			got := drive(t, d, edges, 10*time.Second)
			if kinds(got) != tt.want {
				t.Fatalf("got %s want %s", kinds(got), tt.want)
			}
		})
	}
	// The hold is handed out at its instant, not at the release.
	d := NewDebouncer([]string{"menu"}, &DefaultOpts)
	got := drive(t, d, []edge{{0, true, 0}}, 5*time.Second)
	if len(got) != 2 || got[1].Kind != Hold || got[1].when != 1500*ms {
		t.Fatalf("got %s, hold handed out at %v", kinds(got), got[len(got)-1].when)
	}
}

func TestDebounceHoldDisabled(t *testing.T) {
	o := DefaultOpts
	o.HoldAfter = 0
	d := NewDebouncer([]string{"menu"}, &o)
	got := drive(t, d, []edge{{0, true, 0}, {0, false, time.Minute}}, 2*time.Minute)
	if kinds(got) != "menu press@0s; menu release@1m0s; " {
		t.Fatalf("got %s", kinds(got))
	}
}

func TestDebounceHeldForMinutes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := bounce(r, nil, 0, true, 5*ms, 18*ms)
	edges = bounce(r, edges, 0, false, 7*time.Minute, 15*ms)
	d := NewDebouncer([]string{"left"}, &DefaultOpts)
	got := drive(t, d, edges, 8*time.Minute)
	want := "left press@5ms; left hold@1.505s; left release@7m0s; "
	if kinds(got) != want {
		t.Fatalf("got %s want %s", kinds(got), want)
	}
}

func TestDebounceFiftyPerSecond(t *testing.T) {
	// 50 presses a second: 20 ms period, 10 ms down, 1 ms of chatter at
	// each change. A 20 ms debounce cannot follow that (it allows one change
	// per 20 ms), so it is set to 4 ms, as for a fast tact switch.
	o := DefaultOpts
	o.Debounce = 4 * ms
	r := rand.New(rand.NewPCG(3, 4))
	var edges []edge
	var want string
	for k := range 50 {
		t0 := time.Duration(k) * 20 * ms
		edges = bounce(r, edges, 0, true, t0, ms)
		edges = bounce(r, edges, 0, false, t0+10*ms, ms)
		want += fmt.Sprintf("plus press@%v; plus release@%v; ", t0, t0+10*ms)
	}
	d := NewDebouncer([]string{"plus"}, &o)
	got := drive(t, d, edges, 2*time.Second)
	if kinds(got) != want {
		t.Fatalf("got %s\nwant %s", kinds(got), want)
	}
}

func TestDebounceTwoButtonsOrder(t *testing.T) {
	names := []string{"left", "right"}
	r := rand.New(rand.NewPCG(5, 6))
	tests := []struct {
		name        string
		left, right time.Duration
		want        string
	}{
		// right's first edge is 3 µs earlier but left settles first.
		{"right first", 100*ms + 3*time.Microsecond, 100 * ms, "right press@100ms; left press@100.003ms; "},
		{"left first", 100 * ms, 100*ms + time.Microsecond, "left press@100ms; right press@100.001ms; "},
		{"same instant", 100 * ms, 100 * ms, "left press@100ms; right press@100ms; "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var edges []edge
			edges = bounce(r, edges, 1, true, tt.right, 19*ms)
			edges = bounce(r, edges, 0, true, tt.left, 2*ms)
			slices.SortStableFunc(edges, func(a, b edge) int { return int(a.at - b.at) })
			d := NewDebouncer(names, &DefaultOpts)
			got := drive(t, d, edges, time.Second)
			if kinds(got) != tt.want {
				t.Fatalf("got %s want %s", kinds(got), tt.want)
			}
		})
	}
}

func TestDebounceInit(t *testing.T) {
	d := NewDebouncer([]string{"left", "right"}, &DefaultOpts)
	d.Init(1, true)
	d.Init(7, true) // ignored
	if !d.Pressed(1) || d.Pressed(0) || d.Pressed(-1) {
		t.Fatal("Init did not set the state")
	}
	got := drive(t, d, []edge{{1, false, 50 * ms}, {9, true, 60 * ms}}, 5*time.Second)
	if kinds(got) != "right release@50ms; " {
		t.Fatalf("got %s", kinds(got))
	}
}

func TestDebounceTimeGoesBackwards(t *testing.T) {
	d := NewDebouncer([]string{"left"}, &DefaultOpts)
	d.Edge(0, true, 100*ms)
	d.Edge(0, false, 50*ms) // taken as 100 ms: chatter in the window
	d.Edge(0, true, 60*ms)
	evs, next := d.Advance(10*ms, nil) // taken as 100 ms
	if len(evs) != 0 || next != 120*ms {
		t.Fatalf("got %v next %v", evs, next)
	}
	evs, next = d.Advance(120*ms, nil)
	if len(evs) != 1 || evs[0] != (Event{Button: "left", Kind: Press, At: 100 * ms}) || next != 1600*ms {
		t.Fatalf("got %v next %v", evs, next)
	}
}

func TestDebounceNoDebounce(t *testing.T) {
	o := DefaultOpts
	o.Debounce = -1
	d := NewDebouncer([]string{"left"}, &o)
	got := drive(t, d, []edge{{0, true, ms}, {0, false, 2 * ms}}, time.Second)
	if kinds(got) != "left press@1ms; left release@2ms; " {
		t.Fatalf("got %s", kinds(got))
	}
}

// checkInvariants verifies what any edge sequence must give: per button the
// events alternate press, optional hold, release; At never decreases in
// emission order and equal At come in button order; an event is never
// handed out before its instant; and once the lines have been quiet the
// debounced state is the raw level.
func checkInvariants(t testing.TB, d *Debouncer, n int, edges []edge, got []emitted) {
	t.Helper()
	state := make([]Kind, n) // last kind per button; 0 = released at start
	idx := map[string]int{}
	for i := range n {
		idx[fmt.Sprint("b", i)] = i
	}
	for k, e := range got {
		i, ok := idx[e.Button]
		if !ok {
			t.Fatalf("event %d: unknown button %q", k, e.Button)
		}
		if e.At > e.when {
			t.Fatalf("event %d: %v handed out at %v, before its instant", k, e.Event, e.when)
		}
		if k > 0 {
			p := got[k-1]
			if e.At < p.At || (e.At == p.At && i < idx[p.Button]) {
				t.Fatalf("event %d: %v after %v", k, e.Event, p.Event)
			}
		}
		prev := state[i]
		switch e.Kind {
		case Press:
			if prev != 0 && prev != Release {
				t.Fatalf("event %d: press after %v: %s", k, prev, kinds(got))
			}
		case Hold:
			if prev != Press {
				t.Fatalf("event %d: hold after %v", k, prev)
			}
		case Release:
			if prev != Press && prev != Hold {
				t.Fatalf("event %d: release after %v", k, prev)
			}
		default:
			t.Fatalf("event %d: kind %v", k, e.Kind)
		}
		state[i] = e.Kind
	}
	last := make([]bool, n)
	for _, e := range edges {
		if e.i >= 0 && e.i < n {
			last[e.i] = e.pressed
		}
	}
	for i := range n {
		down := state[i] == Press || state[i] == Hold
		if down != last[i] || d.Pressed(i) != last[i] {
			t.Fatalf("button %d: raw %v, events say %v, Pressed %v", i, last[i], down, d.Pressed(i))
		}
	}
}

// edgesFromBytes turns arbitrary bytes into an edge sequence of up to 4
// buttons, with gaps from 0 to about 65 ms, including bad indices and equal
// instants.
func edgesFromBytes(b []byte) []edge {
	var edges []edge
	var t time.Duration
	for len(b) >= 3 {
		i := int(b[0]&7) - 1 // -1 and 4 to 6 are out of range
		gap := time.Duration(int(b[1])<<8|int(b[2])) * time.Microsecond
		if b[0]&0x80 != 0 {
			gap = 0
		}
		t += gap
		edges = append(edges, edge{i, b[0]&0x40 != 0, t})
		b = b[3:]
	}
	return edges
}

func propertyOpts() *Opts {
	o := DefaultOpts
	o.Debounce = 5 * ms
	o.HoldAfter = 40 * ms
	return &o
}

func TestDebounceProperties(t *testing.T) {
	names := []string{"b0", "b1", "b2", "b3"}
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 99))
		b := make([]byte, 3*r.IntN(200))
		for k := range b {
			b[k] = byte(r.Uint32())
		}
		edges := edgesFromBytes(b)
		d := NewDebouncer(names, propertyOpts())
		end := time.Second
		if len(edges) > 0 {
			end += edges[len(edges)-1].at
		}
		checkInvariants(t, d, 4, edges, drive(t, d, edges, end))
	}
}

func FuzzDebouncer(f *testing.F) {
	f.Add([]byte{0x41, 0, 10, 0x01, 0, 20})
	f.Add([]byte{0x41, 0, 1, 0x81, 0, 0, 0xc2, 0, 0, 0x02, 0x10, 0})
	f.Add([]byte{0x41, 0xff, 0xff, 0x01, 0xff, 0xff, 0x43, 0, 3})
	names := []string{"b0", "b1", "b2", "b3"}
	f.Fuzz(func(t *testing.T, b []byte) {
		edges := edgesFromBytes(b)
		d := NewDebouncer(names, propertyOpts())
		end := time.Second
		if len(edges) > 0 {
			end += edges[len(edges)-1].at
		}
		checkInvariants(t, d, 4, edges, drive(t, d, edges, end))
	})
}

func BenchmarkDebouncerEdge(b *testing.B) {
	d := NewDebouncer([]string{"left", "right", "pause", "plus", "minus", "ok"}, &DefaultOpts)
	buf := make([]Event, 0, 16)
	var at time.Duration
	b.ReportAllocs()
	for k := 0; b.Loop(); k++ {
		// A burst of chatter every 8 edges, then quiet: presses, releases
		// and the odd hold on all six buttons.
		at += 3 * ms
		i := k % 6
		d.Edge(i, k&8 == 0, at)
		buf, _ = d.Advance(at, buf[:0])
	}
}

func TestDebounceHoldWaitsForEarlierPress(t *testing.T) {
	// left is held; its hold falls at 1.5 s. right's first edge is at
	// 1.499 s and its window closes at 1.519 s: the hold must wait for it.
	d := NewDebouncer([]string{"left", "right"}, &DefaultOpts)
	edges := []edge{{0, true, 0}, {1, true, 1499 * ms}}
	got := drive(t, d, edges, 2*time.Second)
	want := "left press@0s; right press@1.499s; left hold@1.5s; "
	if kinds(got) != want {
		t.Fatalf("got %s want %s", kinds(got), want)
	}
	if got[2].when != 1519*ms {
		t.Fatalf("hold handed out at %v, want 1.519s", got[2].when)
	}
}

// TestDebounceOverrun: an Overrun is queued in order of its instant with
// the other events, before a press of the same instant (the unnamed one
// first of all), and changes no button's state.
func TestDebounceOverrun(t *testing.T) {
	d := NewDebouncer([]string{"left", "right"}, &DefaultOpts)
	d.Edge(0, true, 100*ms)
	d.Overrun(1, 3, 100*ms)
	d.Overrun(-1, 7, 100*ms)
	d.Overrun(2, 1, 100*ms)  // out of range: ignored
	d.Overrun(-2, 1, 100*ms) // out of range: ignored
	// Nothing can come before the unnamed one; right's waits for left's
	// window, which could give an event of the same instant that ranks
	// before it.
	got, next := d.Advance(110*ms, nil)
	if want := []Event{{Kind: Overrun, At: 100 * ms, Lost: 7}}; !slices.Equal(got, want) || next != 120*ms {
		t.Fatalf("before left's window closes: %v, next %v", got, next)
	}
	got, _ = d.Advance(120*ms, nil)
	want := []Event{
		{Button: "left", Kind: Press, At: 100 * ms},
		{Button: "right", Kind: Overrun, At: 100 * ms, Lost: 3},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	if d.Pressed(1) {
		t.Fatal("an Overrun pressed right")
	}
	// An instant gone by counts as the latest seen.
	d.Overrun(1, 1, 50*ms)
	if got, _ = d.Advance(130*ms, nil); len(got) != 1 || got[0].At != 120*ms {
		t.Fatalf("late Overrun: %v", got)
	}
}
