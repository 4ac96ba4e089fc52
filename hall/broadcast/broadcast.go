package broadcast

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// DefaultURL is lichess's.
const DefaultURL = "https://lichess.org"

// DefaultInterval is the least time between two pushes, by default.
const DefaultInterval = 5 * time.Second

// MaxBackoff is the longest wait before a failed push is tried again.
const MaxBackoff = 5 * time.Minute

// DefaultRetryAfter is how long a 429 without a Retry-After waits: a
// minute, as lichess asks of a client it limits.
const DefaultRetryAfter = time.Minute

// MaxGames is the most games one push may hold (lichess's limit, and
// web.MaxFeedGames).
const MaxGames = 100

// Range is one lichess round and the hall's boards it shows.
type Range struct {
	// Round is the lichess round's id, 8 letters and digits (CheckRound).
	Round string
	// Boards is the boards' selection as /round.pgn?boards= takes it
	// ("1-100"); "" for every board.
	Boards string
}

// Feed is the round's feed of a selection of boards at an instant:
// web.Server.RoundPGN.
type Feed func(boards string, now time.Time) (pgn string, games, left int, err error)

// Opts configure a Pusher.
type Opts struct {
	// URL is lichess's (DefaultURL when ""); tests give a stand-in's
	// (lichesstest).
	URL string
	// Token is the broadcaster's lichess token, scope study:write.
	Token []byte
	// Ranges are the rounds pushed, each with its boards.
	Ranges []Range
	// Interval is the least time between two pushes (DefaultInterval
	// when 0); also the first backoff.
	Interval time.Duration
	// Feed gives what is pushed.
	Feed Feed
	// Clock is the hall's clock: the instant of a push, and the waits
	// (wallclock.Real when nil).
	Clock wallclock.Clock
	// After waits d (a timer on Clock when nil): the interval, a backoff,
	// a 429's wait. Tests give one that records what is waited.
	After func(d time.Duration) <-chan time.Time
	// Client makes the requests (a client with a 30 s timeout when nil).
	Client *http.Client
	// Logf gets the pusher's log lines (never the token).
	Logf func(format string, a ...any)
}

// Status is what the arbiter's page shows of the pushes.
type Status struct {
	URL    string
	Ranges []RangeStatus
}

// RangeStatus is one range's pushes.
type RangeStatus struct {
	Round, Boards string
	// Pushes is how many pushes lichess accepted; Last the last one's
	// instant, Games how many games it held.
	Pushes int
	Last   time.Time
	Sent   int
	// Left is how many of the range's games the last push left out: more
	// than MaxGames (give the range fewer boards).
	Left int
	// Error is the last push's error ("" after one accepted), At when
	// it came; Retry when the next try is due.
	Error   string
	ErrorAt time.Time
	Retry   time.Time
	// Stopped: lichess refused the token (401); nothing more is pushed.
	Stopped bool
	// Games are lichess's answers to the last accepted push, a game
	// each, in the push's order.
	Games []GameStatus
}

// GameStatus is lichess's answer for one game of a push.
type GameStatus struct {
	Board, White, Black string // its tags
	Moves               int    // the moves lichess took
	Error               string // or why it took none
}

// Pusher pushes the ranges.
type Pusher struct {
	o       Opts
	changed chan struct{}
	stop    context.CancelFunc
	done    chan struct{}

	mu     sync.Mutex
	status []RangeStatus
}

// CheckRound checks a lichess round id: 8 letters and digits.
func CheckRound(id string) error {
	ok := len(id) == 8
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if !ok {
		return fmt.Errorf("round %q: want the lichess round's id, 8 letters and digits (the last part of the round's URL, lichess.org/broadcast/…/…/ID)", id)
	}
	return nil
}

// Start starts pushing the ranges, a first push at once.
func Start(o Opts) (*Pusher, error) {
	if len(o.Ranges) == 0 {
		return nil, errors.New("broadcast: no round to push to")
	}
	for _, r := range o.Ranges {
		if err := CheckRound(r.Round); err != nil {
			return nil, fmt.Errorf("broadcast: %v", err)
		}
	}
	if len(o.Token) == 0 || bytes.ContainsAny(o.Token, " \t\r\n") {
		return nil, errors.New("broadcast: the token is empty or has white space")
	}
	if o.Feed == nil {
		return nil, errors.New("broadcast: no feed")
	}
	if o.URL == "" {
		o.URL = DefaultURL
	}
	o.URL = strings.TrimSuffix(o.URL, "/")
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	o.Clock = wallclock.Or(o.Clock)
	if o.After == nil {
		clk := o.Clock
		o.After = func(d time.Duration) <-chan time.Time { return clk.NewTimer(d).C() }
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pusher{o: o, changed: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	for _, r := range o.Ranges {
		p.status = append(p.status, RangeStatus{Round: r.Round, Boards: r.Boards})
	}
	p.Changed()
	go p.run(ctx)
	return p, nil
}

// Changed tells the pusher a game changed: a push follows, once the
// interval since the last one has passed. It never blocks.
func (p *Pusher) Changed() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// Interval is the least time between two pushes.
func (p *Pusher) Interval() time.Duration { return p.o.Interval }

// Close stops the pushes and waits for the one under way.
func (p *Pusher) Close() {
	p.stop()
	<-p.done
}

// Status returns the pushes' state.
func (p *Pusher) Status() Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Status{URL: p.o.URL, Ranges: make([]RangeStatus, len(p.status))}
	for i, r := range p.status {
		r.Games = append([]GameStatus(nil), r.Games...)
		s.Ranges[i] = r
	}
	return s
}

// wait waits d or until ctx ends; false when ctx ended.
func (p *Pusher) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-p.o.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

func (p *Pusher) run(ctx context.Context) {
	defer close(p.done)
	sent := make([]string, len(p.o.Ranges)) // each range's PGN lichess last accepted
	failures := 0
	var last time.Time // the last push's instant
	retry := time.Duration(0)
	for {
		if retry == 0 {
			select {
			case <-p.changed:
			case <-ctx.Done():
				return
			}
		}
		wait := retry
		if !last.IsZero() {
			wait = max(wait, p.o.Interval-p.o.Clock.Now().Sub(last))
		}
		if !p.wait(ctx, wait) {
			return
		}
		select {
		case <-p.changed: // a change meanwhile goes with this push
		default:
		}
		now := p.o.Clock.Now()
		retry = 0
		pushed := false
		for i, r := range p.o.Ranges {
			if p.stopped(i) {
				continue
			}
			pgn, games, left, err := p.o.Feed(r.Boards, now)
			if err != nil {
				p.failed(i, now, fmt.Errorf("the round's feed: %v", err), 0)
				continue
			}
			if pgn == sent[i] {
				continue // lichess has it
			}
			pushed = true
			ans, err := p.push(ctx, r, pgn)
			if ctx.Err() != nil {
				return
			}
			var he *httpError
			switch {
			case err == nil:
				sent[i] = pgn
				failures = 0
				p.accepted(i, now, games, left, ans)
			case errors.As(err, &he) && he.code == http.StatusUnauthorized:
				p.failed(i, now, err, 0)
				p.mu.Lock()
				p.status[i].Stopped = true
				p.mu.Unlock()
				p.o.Logf("broadcast: round %s: lichess refused the token (401): no more pushes; put a token of scope study:write in the token file and restart the hall", r.Round)
			case errors.As(err, &he) && he.code == http.StatusTooManyRequests:
				w := max(he.retryAfter, p.o.Interval)
				retry = max(retry, w)
				p.failed(i, now, err, w)
			default:
				failures++
				b := backoff(p.o.Interval, failures)
				retry = max(retry, b)
				p.failed(i, now, err, b)
			}
		}
		if pushed {
			last = now
		}
	}
}

// backoff is the wait before try n+1 after n failures: the interval,
// doubled each failure, at most MaxBackoff.
func backoff(interval time.Duration, n int) time.Duration {
	d := interval
	for i := 1; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

func (p *Pusher) stopped(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status[i].Stopped
}

func (p *Pusher) accepted(i int, now time.Time, games, left int, ans []GameStatus) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := &p.status[i]
	if s.Error != "" {
		p.o.Logf("broadcast: round %s: pushed again", s.Round)
	}
	s.Pushes++
	s.Last, s.Sent, s.Left, s.Games = now, games, left, ans
	s.Error, s.ErrorAt, s.Retry = "", time.Time{}, time.Time{}
}

func (p *Pusher) failed(i int, now time.Time, err error, retry time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := &p.status[i]
	if s.Error != err.Error() {
		p.o.Logf("broadcast: round %s: %v", s.Round, err)
	}
	s.Error, s.ErrorAt, s.Retry = err.Error(), now, time.Time{}
	if retry > 0 {
		s.Retry = now.Add(retry)
	}
}

// httpError is lichess's refusal of a push.
type httpError struct {
	code       int
	msg        string
	retryAfter time.Duration // a 429's
}

func (e *httpError) Error() string {
	what := map[int]string{
		http.StatusUnauthorized:    "the token is refused (wrong, expired, or without the scope study:write)",
		http.StatusForbidden:       "the token's account may not push to this round (it must be the broadcast's owner or a contributor)",
		http.StatusNotFound:        "no such round (check the round id)",
		http.StatusTooManyRequests: "too many requests",
	}[e.code]
	s := fmt.Sprintf("lichess answered %d %s", e.code, http.StatusText(e.code))
	if what != "" {
		s += ": " + what
	}
	if e.msg != "" {
		s += ": " + e.msg
	}
	return s
}

// answer is the push's answer, lichess-org/api BroadcastPgnPush.
type answer struct {
	Games []struct {
		Tags  map[string]string `json:"tags"`
		Moves int               `json:"moves"`
		Error string            `json:"error"`
	} `json:"games"`
	Error string `json:"error"`
}

// maxAnswer bounds the answer read: a hundred games' tags are far less.
const maxAnswer = 1 << 20

// push sends pgn to r's round and reads lichess's answer for each game.
func (p *Pusher) push(ctx context.Context, r Range, pgn string) ([]GameStatus, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.o.URL+"/api/broadcast/round/"+r.Round+"/push", strings.NewReader(pgn))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+string(p.o.Token))
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("User-Agent", "zeitnot-hall")
	resp, err := p.o.Client.Do(req)
	if err != nil {
		return nil, err // a *url.Error names the URL, which holds no secret
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("reading lichess's answer: %v", err)
	}
	var a answer
	jerr := json.Unmarshal(body, &a)
	if resp.StatusCode != http.StatusOK {
		e := &httpError{code: resp.StatusCode, msg: a.Error}
		if len(e.msg) > 200 {
			e.msg = e.msg[:200]
		}
		if e.code == http.StatusTooManyRequests {
			e.retryAfter = retryAfter(resp.Header.Get("Retry-After"), p.o.Clock.Now())
		}
		return nil, e
	}
	if jerr != nil {
		return nil, fmt.Errorf("lichess's answer is not the push's JSON: %v", jerr)
	}
	out := make([]GameStatus, 0, len(a.Games))
	for _, g := range a.Games {
		out = append(out, GameStatus{Board: g.Tags["Board"], White: g.Tags["White"], Black: g.Tags["Black"], Moves: g.Moves, Error: g.Error})
	}
	return out, nil
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date;
// DefaultRetryAfter when it has neither.
func retryAfter(h string, now time.Time) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, time.Hour)
	}
	if t, err := http.ParseTime(h); err == nil {
		return min(max(t.Sub(now), time.Second), time.Hour)
	}
	return DefaultRetryAfter
}
