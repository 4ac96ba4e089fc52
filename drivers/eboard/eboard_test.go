package eboard

import (
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/fen"
)

const ms = time.Millisecond

func pos(s string) fen.Placement { return fen.MustParsePlacement(s) }

var (
	p0 = fen.Start
	p1 = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")   // e2 lifted
	p2 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR") // e4
	p3 = pos("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR") // e3
)

type obs struct {
	at time.Duration
	p  fen.Placement
}

// TestSettler: the position at a press, table-driven.
func TestSettler(t *testing.T) {
	opts := &SettleOpts{Stable: 250 * ms, MaxWait: 5 * time.Second, Keep: 2 * time.Second}
	for _, tc := range []struct {
		name   string
		obs    []obs
		press  time.Duration
		now    time.Duration // Advance at this instant
		want   fen.Placement
		since  time.Duration
		ok     bool
		answer bool // an answer is due at now
		next   time.Duration
		held   *fen.Placement
	}{
		{"stable long before the press", []obs{{0, p0}, {100 * ms, p1}, {400 * ms, p2}}, 2000 * ms, 2000 * ms, p2, 400 * ms, true, true, 0, nil},
		{"placed just before the press: wait for Stable", []obs{{0, p0}, {100 * ms, p1}, {400 * ms, p2}}, 500 * ms, 500 * ms, fen.Placement{}, 0, false, false, 650 * ms, nil},
		{"placed just before the press: answered at Stable", []obs{{0, p0}, {100 * ms, p1}, {400 * ms, p2}}, 500 * ms, 650 * ms, p2, 400 * ms, true, true, 0, nil},
		{"a later change does not undo a stable answer", []obs{{0, p0}, {400 * ms, p2}, {700 * ms, p1}}, 500 * ms, 800 * ms, p2, 400 * ms, true, true, 0, nil},
		{"press in a transient: the next stable position", []obs{{0, p0}, {400 * ms, p3}, {450 * ms, p1}, {500 * ms, p2}}, 420 * ms, 800 * ms, p2, 500 * ms, true, true, 0, &p3},
		{"quick press, quick opponent: the position held at the press too", []obs{{0, p0}, {400 * ms, p2}, {550 * ms, p1}}, 450 * ms, 800 * ms, p1, 550 * ms, true, true, 0, &p2},
		{"press in a transient, next not yet stable", []obs{{0, p0}, {400 * ms, p3}, {450 * ms, p1}, {500 * ms, p2}}, 420 * ms, 600 * ms, fen.Placement{}, 0, false, false, 750 * ms, nil},
		{"knocked piece put back before the press", []obs{{0, p0}, {400 * ms, p2}, {500 * ms, p3}, {1200 * ms, p2}}, 2000 * ms, 2000 * ms, p2, 1200 * ms, true, true, 0, nil},
		{"press before any report: no position (the board came after it)", []obs{{1000 * ms, p2}}, 500 * ms, 1250 * ms, fen.Placement{}, 0, false, true, 0, nil},
		{"nothing stable within MaxWait", []obs{{0, p0}}, 0, 5000 * ms, p0, 0, true, true, 0, nil},
		{"no board at all gives up at MaxWait", nil, 0, 5000 * ms, fen.Placement{}, 0, false, true, 0, nil},
		{"no board at all waits until MaxWait", nil, 0, 4000 * ms, fen.Placement{}, 0, false, false, 5000 * ms, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSettler(opts)
			for _, o := range tc.obs {
				s.Observe(o.at, o.p)
			}
			s.Press(tc.press)
			got, next := s.Advance(tc.now)
			if !tc.answer {
				if len(got) != 0 || next != tc.next {
					t.Fatalf("got %+v next %v, want no answer, next %v", got, next, tc.next)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d answers, want 1", len(got))
			}
			g := got[0]
			if g.OK != tc.ok || g.Position != tc.want || g.Since != tc.since || g.Press != tc.press || g.HasHeld != (tc.held != nil) || tc.held != nil && g.Held != *tc.held {
				t.Errorf("got %+v (%s), want ok %v %s since %v", g, g.Position.String(), tc.ok, tc.want.String(), tc.since)
			}
			if next != Never {
				t.Errorf("next = %v, want Never", next)
			}
		})
	}
}

// TestSettlerLatePress: a press that reaches the Settler after later
// changes (it crossed a socket) finds the position at its instant.
func TestSettlerLatePress(t *testing.T) {
	s := NewSettler(nil)
	s.Observe(0, p0)
	s.Observe(100*ms, p2)
	s.Observe(2000*ms, p1) // the opponent lifts a piece
	s.Press(1500 * ms)
	got, _ := s.Advance(2010 * ms)
	if len(got) != 1 || got[0].Position != p2 {
		t.Fatalf("got %+v, want p2", got)
	}
}

// TestSettlerBounded: 100,000 changes keep at most 2048 in memory, and the
// answer to a press is still found.
func TestSettlerBounded(t *testing.T) {
	s := NewSettler(nil)
	for i := range 100000 {
		p := p0
		if i%2 == 1 {
			p = p1
		}
		s.Observe(time.Duration(i)*100*time.Microsecond, p)
		if len(s.hist) > 2*maxHistory {
			t.Fatalf("%d intervals kept", len(s.hist))
		}
	}
	s.Observe(10*time.Second, p2)
	s.Press(10 * time.Second)
	got, _ := s.Advance(11 * time.Second)
	if len(got) != 1 || got[0].Position != p2 {
		t.Fatalf("got %+v", got)
	}
	s.Observe(12*time.Second, p1)
	for range 20 {
		s.Press(12 * time.Second)
	}
	got, _ = s.Advance(12 * time.Second)
	if len(got) != 4 {
		t.Fatalf("20 waiting presses: %d answered at once, want the 4 oldest", len(got))
	}
	for _, g := range got {
		if g.OK {
			t.Fatalf("a press beyond 16 was answered with a position: %+v", g)
		}
	}
}

func TestCurrent(t *testing.T) {
	s := NewSettler(nil)
	if _, ok := s.Current(0); ok {
		t.Fatal("stable before any report")
	}
	s.Observe(0, p0)
	if _, ok := s.Current(100 * ms); ok {
		t.Fatal("stable after 100 ms")
	}
	if p, ok := s.Current(250 * ms); !ok || p != p0 {
		t.Fatal("not stable after 250 ms")
	}
}

// BenchmarkSettler: one change observed and the Settler asked, as for every
// field update.
func BenchmarkSettler(b *testing.B) {
	s := NewSettler(nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		at := time.Duration(i) * time.Millisecond
		if i%2 == 0 {
			s.Observe(at, p0)
		} else {
			s.Observe(at, p1)
		}
		s.Advance(at)
		i++
	}
}

// FuzzSettler: any sequence of changes, presses and losses of the board
// gives no panic; every press is answered, in order, within MaxWait; an answer's position is one
// the board showed, from Since on, and it stood for Stable.
func FuzzSettler(f *testing.F) {
	f.Add([]byte{0, 10, 1, 20, 2, 255, 0, 5})
	f.Add([]byte{1, 1, 2, 1, 3, 1, 255, 1, 0, 200})
	f.Add([]byte{1, 100, 254, 10, 255, 10, 1, 10, 254, 10, 1, 100, 255, 0})
	f.Fuzz(func(t *testing.T, script []byte) {
		positions := []fen.Placement{p0, p1, p2, p3}
		var lost fen.Placement // stands for the time the board is away
		for i := range lost {
			lost[i] = fen.Unknown
		}
		opts := SettleOpts{Stable: 25 * ms, MaxWait: 500 * ms, Keep: 200 * ms}
		s := NewSettler(&opts)
		type change struct {
			at time.Duration
			p  fen.Placement
		}
		var shown []change
		var presses []time.Duration
		var answers []Settled
		now := time.Duration(0)
		for i := 0; i+1 < len(script); i += 2 {
			now += time.Duration(script[i+1]) * ms
			got, _ := s.Advance(now)
			answers = append(answers, got...)
			if script[i] == 255 {
				s.Press(now)
				presses = append(presses, now)
				continue
			}
			if script[i] == 254 {
				s.Lost(now)
				if len(shown) > 0 && shown[len(shown)-1].p != lost {
					shown = append(shown, change{now, lost})
				}
				continue
			}
			p := positions[int(script[i])%len(positions)]
			s.Observe(now, p)
			if len(shown) == 0 || shown[len(shown)-1].p != p {
				shown = append(shown, change{now, p})
			}
		}
		got, next := s.Advance(now + opts.MaxWait)
		answers = append(answers, got...)
		if len(answers) != len(presses) || next != Never {
			t.Fatalf("%d presses, %d answers, next %v", len(presses), len(answers), next)
		}
		for i, a := range answers {
			if a.Press != presses[i] {
				t.Fatalf("answer %d for the press at %v, want %v", i, a.Press, presses[i])
			}
			if !a.OK {
				continue
			}
			j := -1
			for k, c := range shown {
				if c.at == a.Since && c.p == a.Position {
					j = k
				}
			}
			if j < 0 {
				t.Fatalf("answer %+v: no such change shown", a)
			}
			end := now + opts.MaxWait
			if j+1 < len(shown) {
				end = shown[j+1].at
			}
			if end-a.Since < opts.Stable {
				t.Fatalf("answer %+v stood only %v", a, end-a.Since)
			}
		}
	})
}

// TestSettlerLost: a press while the board is away (unplugged) is answered
// with the first stable position after it is back, not the one before; an
// unplug and replug with the same position on the board still counts it
// afresh, and Current knows nothing while the board is away.
func TestSettlerLost(t *testing.T) {
	s := NewSettler(nil)
	s.Observe(0, p0)
	s.Observe(time.Second, p1) // stands 1 s before the unplug
	s.Lost(2 * time.Second)
	if _, ok := s.Current(3 * time.Second); ok {
		t.Error("Current knows a position while the board is away")
	}
	s.Press(2500 * time.Millisecond)
	if got, next := s.Advance(3 * time.Second); len(got) != 0 || next != 2500*time.Millisecond+DefaultSettleOpts.MaxWait {
		t.Fatalf("answered %+v while the board is away (next %v)", got, next)
	}
	s.Observe(4*time.Second, p1) // back, the same position
	if got, _ := s.Advance(4*time.Second + 100*time.Millisecond); len(got) != 0 {
		t.Fatalf("answered %+v before the position stood again", got)
	}
	got, _ := s.Advance(4*time.Second + DefaultSettleOpts.Stable)
	if len(got) != 1 || !got[0].OK || got[0].Position != p1 || got[0].Since != 4*time.Second {
		t.Fatalf("answer %+v, want p1 since 4s", got)
	}
	// Lost twice is lost once; a press long after, with the board never
	// back, gives up after MaxWait.
	s.Lost(5 * time.Second)
	s.Lost(6 * time.Second)
	s.Press(6 * time.Second)
	got, _ = s.Advance(6*time.Second + DefaultSettleOpts.MaxWait)
	if len(got) != 1 || got[0].OK {
		t.Fatalf("answer %+v, want none (OK false)", got)
	}
}

// TestSettlerPressBeforeBoard: a press before the board's first position
// (the board was opened a moment after it, as a process slow to start or
// a board plugged in late) is answered with no position, not with the
// first one that stood after it: that one may be the next move half made.
func TestSettlerPressBeforeBoard(t *testing.T) {
	s := NewSettler(nil)
	s.Press(time.Second)
	s.Observe(2*time.Second, p1)
	s.Observe(2100*time.Millisecond, p2) // stands
	got, _ := s.Advance(3 * time.Second)
	if len(got) != 1 || got[0].OK {
		t.Fatalf("answer %+v, want none (OK false)", got)
	}
	s.Press(3 * time.Second) // the next press has its position
	got, _ = s.Advance(3 * time.Second)
	if len(got) != 1 || !got[0].OK || got[0].Position != p2 {
		t.Fatalf("answer %+v, want p2", got)
	}
}
