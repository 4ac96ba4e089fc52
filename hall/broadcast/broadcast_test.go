package broadcast_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/broadcast/lichesstest"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

const token = "lip_0123456789abcdefghij"

// game is a game's PGN with the Seven Tag Roster, board n, its moves.
func game(n int, moves string) string {
	return fmt.Sprintf("[Event \"Club\"]\n[Site \"?\"]\n[Date \"2026.12.03\"]\n[Round \"1\"]\n[White \"W%d\"]\n[Black \"B%d\"]\n[Result \"*\"]\n[Board \"%d\"]\n\n%s *\n\n", n, n, n, moves)
}

// rig is a pusher on a stand-in with a feed the test sets, and a record
// of every wait the pusher asked for (each one passes at once).
type rig struct {
	lichess *lichesstest.Server
	p       *broadcast.Pusher
	mu      sync.Mutex
	pgn     string
	waits   []time.Duration
	logs    []string
}

func newRig(t *testing.T, interval time.Duration, ranges ...broadcast.Range) *rig {
	t.Helper()
	r := &rig{pgn: game(1, "1. e4 {[%clk 1:29:58]}")}
	var rounds []string
	for _, x := range ranges {
		rounds = append(rounds, x.Round)
	}
	r.lichess = lichesstest.New(t, token, rounds...)
	epoch := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	p, err := broadcast.Start(broadcast.Opts{
		URL: r.lichess.URL, Token: []byte(token), Ranges: ranges, Interval: interval,
		Clock: wallclocktest.New(epoch),
		Feed: func(boards string, now time.Time) (string, int, int, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.pgn, strings.Count(r.pgn, "[Event "), 0, nil
		},
		After: func(d time.Duration) <-chan time.Time {
			r.mu.Lock()
			r.waits = append(r.waits, d)
			r.mu.Unlock()
			c := make(chan time.Time, 1)
			c <- epoch
			return c
		},
		Logf: func(f string, a ...any) {
			r.mu.Lock()
			r.logs = append(r.logs, fmt.Sprintf(f, a...))
			r.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	r.p = p
	return r
}

func (r *rig) set(pgn string) {
	r.mu.Lock()
	r.pgn = pgn
	r.mu.Unlock()
	r.p.Changed()
}

func (r *rig) waited() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

// A push is lichess's request shape; its answer, a game each, is the
// range's status; a PGN lichess already has is not pushed again; the
// next push waits out the interval.
func TestPushAndAnswer(t *testing.T) {
	r := newRig(t, 5*time.Second, broadcast.Range{Round: "abcd1234"})
	wait.For(t, 10*time.Second, "the first push", func() bool { return len(r.lichess.Pushes()) == 1 })
	r.p.Changed() // nothing changed in the feed: no push
	r.set(game(1, "1. e4 {[%clk 1:29:58]} 1... e5 {[%clk 1:29:50]}") + game(2, "1. d4 {[%clk 1:29:59]}"))
	wait.For(t, 10*time.Second, "the second push", func() bool { return len(r.lichess.Pushes()) == 2 })
	wait.Until(t, 10*time.Second, func() string {
		s := r.p.Status().Ranges[0]
		if s.Pushes != 2 || len(s.Games) != 2 || s.Games[0].Moves != 2 || s.Games[1].Moves != 1 || s.Games[1].Board != "2" || s.Games[1].White != "W2" {
			return fmt.Sprintf("status %+v", s)
		}
		return ""
	})
	if got := r.lichess.Refused(); len(got) > 0 {
		t.Errorf("refused: %q", got)
	}
	if len(r.lichess.Pushes()) != 2 {
		t.Errorf("%d pushes, want 2 (a feed unchanged is not pushed)", len(r.lichess.Pushes()))
	}
	if w := r.waited(); len(w) == 0 || w[0] != 5*time.Second {
		t.Errorf("waits %v, want the interval, 5s, before the second push", w)
	}
	for _, p := range r.lichess.Pushes() {
		if strings.Contains(p.URL, token) || strings.Contains(p.Body, token) {
			t.Errorf("the token is in the URL or the body: %s", p.URL)
		}
		for k, v := range p.Header {
			if k != "Authorization" && strings.Contains(strings.Join(v, " "), token) {
				t.Errorf("the token is in header %s", k)
			}
		}
	}
	st := fmt.Sprintf("%+v", r.p.Status())
	r.mu.Lock()
	logs := strings.Join(r.logs, "\n")
	r.mu.Unlock()
	if strings.Contains(st, token) || strings.Contains(logs, token) {
		t.Errorf("the token is in the status or the log")
	}
}

// A failed push is tried again after a backoff that doubles; a 429 waits
// as its Retry-After says; the error is shown until a push is accepted.
func TestPushRetries(t *testing.T) {
	r := newRig(t, 2*time.Second, broadcast.Range{Round: "abcd1234"})
	wait.For(t, 10*time.Second, "the first push", func() bool { return len(r.lichess.Pushes()) == 1 })
	r.lichess.Fail(lichesstest.Failure{Code: 500}, lichesstest.Failure{Code: 502}, lichesstest.Failure{Code: 429, RetryAfter: "42"})
	r.set(game(1, "1. e4 {[%clk 1:29:58]} 1... e5 {[%clk 1:29:50]}"))
	wait.For(t, 10*time.Second, "the push after three failures", func() bool { return len(r.lichess.Pushes()) == 2 })
	w := r.waited()
	want := []time.Duration{2 * time.Second, 2 * time.Second, 4 * time.Second, 42 * time.Second}
	if fmt.Sprint(w) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v: the interval, then 2 s and 4 s of backoff, then the 429's 42 s", w, want)
	}
	wait.Until(t, 10*time.Second, func() string {
		if s := r.p.Status().Ranges[0]; s.Error != "" || s.Pushes != 2 {
			return fmt.Sprintf("status %+v, want 2 pushes and no error", s)
		}
		return ""
	})
}

// A 401: the token is wrong; the status says so and nothing more is
// pushed.
func TestPushStopsOnUnauthorized(t *testing.T) {
	r := newRig(t, time.Second, broadcast.Range{Round: "abcd1234"})
	wait.For(t, 10*time.Second, "the first push", func() bool { return len(r.lichess.Pushes()) == 1 })
	r.lichess.Fail(lichesstest.Failure{Code: 401})
	r.set(game(1, "1. e4 {[%clk 1:29:58]} 1... e5 {[%clk 1:29:50]}"))
	wait.Until(t, 10*time.Second, func() string {
		if s := r.p.Status().Ranges[0]; !s.Stopped || !strings.Contains(s.Error, "401") || !strings.Contains(s.Error, "token") {
			return fmt.Sprintf("status %+v, want stopped on the token", s)
		}
		return ""
	})
	n := len(r.lichess.Refused())
	r.set(game(1, "1. e4 {[%clk 1:29:58]} 1... c5 {[%clk 1:29:50]}"))
	r.set(game(1, "1. d4 {[%clk 1:29:58]}"))
	r.p.Close() // the pusher has taken the changes, or none: it stops either way
	if got := len(r.lichess.Refused()) + len(r.lichess.Pushes()); got != n+1 {
		t.Errorf("%d requests after the 401, want none", got-n-1)
	}
}

// Lichess's answer for a game it refused is shown with that game.
func TestPushGameError(t *testing.T) {
	r := newRig(t, time.Second, broadcast.Range{Round: "abcd1234"})
	wait.For(t, 10*time.Second, "the first push", func() bool { return len(r.lichess.Pushes()) == 1 })
	r.set(game(1, "1. e4 {[%clk 1:29:58]}") + game(2, "1. e5 {[%clk 1:29:58]}"))
	wait.Until(t, 10*time.Second, func() string {
		s := r.p.Status().Ranges[0]
		if len(s.Games) != 2 || s.Games[0].Moves != 1 || s.Games[1].Error == "" {
			return fmt.Sprintf("status %+v, want game 2's error", s)
		}
		return ""
	})
}

func TestCheckRound(t *testing.T) {
	for _, ok := range []string{"abcd1234", "ABCDefgh"} {
		if err := broadcast.CheckRound(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "abc", "abcd12345", "abcd/234", "abcd 234"} {
		if err := broadcast.CheckRound(bad); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
}
