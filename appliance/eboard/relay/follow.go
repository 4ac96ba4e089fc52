package relay

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/protocol"
)

// Request is one request for the daemon's control socket: "CMD ARG".
type Request struct{ Cmd, Arg string }

func (r Request) String() string { return strings.TrimSpace(r.Cmd + " " + r.Arg) }

// Follower follows a game on the board: it takes the board's events, the
// daemon's watch events and the daemon's answer to eboard-game, and says
// what to tell the daemon. It is a pure state machine: every input
// carries its instant, on the time base of the board's events; it reads
// no clock and starts no goroutine. It is not safe for concurrent use.
type Follower struct {
	settler *eboard.Settler
	stable  time.Duration

	// The game, as the daemon last said.
	have    bool // the daemon's game is known (eboard-game answered since the stream began)
	game    string
	presses int
	white   bool // White is to move, by the clock
	full    int  // the number of the move to make, by the clock (FEN's fullmove)
	running bool
	setUp   bool // the arbiter chose the board's set-up as the game's start

	tr      *moves.Tracker     // the position the game stands at; nil: not known
	at      int                // the press tr's position stands after
	gap     bool               // moves went missing: the next press, start or resume takes the board's position
	found   map[int]moves.Move // the moves found in this game, by press, to hand again to a daemon that lost them
	pending []pend             // what waits for the Settler, in its order

	board      bool          // the board is up
	changed    time.Duration // when the board's position last changed
	state      string        // protocol.BoardOK, ...
	illegal    int
	detail     string
	sent       protocol.EBoardStateArg // the last state sent
	beat       time.Duration           // when it was sent
	out        []Request
	fenOf      *moves.Tracker // the tracker and press fenText is of
	fenAt      int
	fenText    string
	lastBoard  fen.Placement
	boardKnown bool
}

// pend is a press, a start or a resume waiting for the board's position.
type pend struct {
	n     int  // the press the position is after
	take  bool // a start or resume: a position the board shows that the game does not lead to is taken
	white bool // White is to move after it
	full  int  // the number of the move to make after it
	drop  bool // of a game no longer followed
}

// NewFollower returns a follower that believes a position once it has
// stood as opts says (settings.EBoard.SettleOpts).
func NewFollower(opts eboard.SettleOpts) *Follower {
	s := eboard.NewSettler(&opts)
	return &Follower{settler: s, stable: opts.Stable, state: protocol.BoardLost, detail: "no board yet", found: map[int]moves.Move{}}
}

// Game takes the daemon's answer to eboard-game at now: the game the
// clock plays and its moves so far. The follower replays the moves to
// learn where the game stands (a game resumed after a restart of the
// daemon or of this process); moves the daemon lost and this follower
// found are handed to it again.
func (f *Follower) Game(g protocol.EBoardGame) {
	if g.Game != f.game {
		f.found = map[int]moves.Move{}
		for i := range f.pending {
			f.pending[i].drop = true
		}
		f.illegal = 0
	}
	f.have, f.game, f.presses, f.white, f.running, f.full, f.setUp = true, g.Game, g.Presses, g.ToMove == "white", g.Running, g.FullMove, g.SetUp
	f.tr, f.at, f.gap = nil, g.From, false
	tr, err := moves.New(g.FEN)
	if err != nil {
		f.gap = true
		return
	}
	for i, uci := range g.Moves {
		n := g.From + 1 + i
		if uci == "" {
			m, ok := f.found[n]
			if !ok {
				continue // no move at that press (ILLEGAL?): the position stayed
			}
			uci = m.UCI
			if n > g.Presses-16 {
				f.send(protocol.ReqEBoardMove, protocol.EBoardMoveArg{Game: f.game, Press: n, SAN: m.SAN, UCI: m.UCI, FEN: m.FEN})
			}
		}
		if _, err := tr.Play(uci); err != nil {
			f.gap = true
			return
		}
		f.at = n
	}
	f.tr = tr
}

// Down says the daemon is not there: nothing is sent until Game again.
func (f *Follower) Down() { f.have = false }

// Event takes one event of the watch stream; at is its instant (a press's
// first edge, from mono_ns) on the follower's time base.
func (f *Follower) Event(e protocol.Event, at time.Duration) {
	if !f.have {
		return
	}
	switch e.Event {
	case protocol.EventPressed:
		if e.Press <= f.presses {
			return // the daemon's eboard-game counted it already
		}
		f.presses, f.running = e.Press, true
		f.white = e.Side != "white"
		if e.Side == "black" {
			f.full++
		}
		f.settler.Press(at)
		f.pending = append(f.pending, pend{n: e.Press, white: f.white, full: f.full})
	case protocol.EventStarted, protocol.EventResumed:
		f.running = true
		f.settler.Press(at)
		f.pending = append(f.pending, pend{n: f.presses, take: true, white: f.white, full: f.full})
	case protocol.EventPaused:
		f.running = false
	}
}

// Board takes one of the board's events.
func (f *Follower) Board(ev eboard.Event) {
	f.board = true
	if !f.boardKnown || ev.Position != f.lastBoard {
		f.changed, f.lastBoard, f.boardKnown = ev.At, ev.Position, true
	}
	f.settler.Observe(ev.At, ev.Position)
	if ev.Gap {
		// The driver dropped the changes after this one (it fell behind a
		// flooding board): until its next event the position is unknown,
		// not this one standing.
		f.settler.Lost(ev.At)
	}
}

// StableAt is when the board's position, if it changes no more, will
// have stood long enough to be believed: Advance is due then.
func (f *Follower) StableAt() time.Duration {
	if !f.board || !f.boardKnown {
		return eboard.Never
	}
	return f.changed + f.stable
}

// Lost says the board is gone (unplugged, not answering), and why.
func (f *Follower) Lost(err error) {
	f.board = false
	f.set(protocol.BoardLost, 0, detailOf(err.Error()))
}

// Advance does what is due at now and returns the requests to send, and
// when it must be called again.
func (f *Follower) Advance(now time.Duration) ([]Request, time.Duration) {
	answers, next := f.settler.Advance(now)
	for _, s := range answers {
		if len(f.pending) == 0 {
			break
		}
		p := f.pending[0]
		f.pending = f.pending[1:]
		if !p.drop {
			f.answer(p, s)
		}
	}
	if len(f.pending) == 0 {
		f.check(now)
	}
	if f.board && f.boardKnown && now < f.changed+f.stable {
		next = min(next, f.changed+f.stable)
	}
	if f.have {
		arg := protocol.EBoardStateArg{Game: f.game, State: f.state, Press: f.at, Detail: f.detail}
		if f.state == protocol.BoardIllegal {
			arg.Illegal = f.illegal
		}
		arg.FEN = f.fen()
		if arg != f.sent || now-f.beat >= protocol.EBoardBeat {
			f.send(protocol.ReqEBoardState, arg)
			f.sent, f.beat = arg, now
		}
		next = min(next, f.beat+protocol.EBoardBeat)
	}
	out := f.out
	f.out = nil
	return out, next
}

// answer takes the board's position at a press, start or resume.
func (f *Follower) answer(p pend, s eboard.Settled) {
	if !f.board {
		// The press came while the board was gone: its position (if the
		// Settler has one) is the last the board showed, not the one at
		// the press.
		f.gap = true
		return
	}
	if p.take || f.tr == nil || f.gap {
		if !s.OK {
			return
		}
		if f.tr != nil && !f.gap && (f.tr.Check(&s.Position) == nil || p.take && f.tr.Explains(&s.Position)) {
			// The game's position, or a move made while the clock
			// stood still, which the next press completes.
			return
		}
		if why := f.refuse(p, &s.Position); why != "" {
			// Not the game's: BOARD? until the board shows it again
			// (check), never a position of the game.
			f.set(protocol.BoardMismatch, 0, detailOf(why))
			return
		}
		f.take(s.Position, p)
		return
	}
	m, err := f.tr.PressSettled(s)
	if err == nil {
		f.at, f.found[p.n] = p.n, m
		f.send(protocol.ReqEBoardMove, protocol.EBoardMoveArg{Game: f.game, Press: p.n, SAN: m.SAN, UCI: m.UCI, FEN: m.FEN})
		f.set(protocol.BoardOK, 0, "")
		return
	}
	var ill *moves.IllegalError
	detail := err.Error()
	switch {
	case errors.As(err, &ill):
		sq := make([]string, len(ill.Changed))
		for i, c := range ill.Changed {
			sq[i] = c.String()
		}
		detail = "changed " + strings.Join(sq, " ")
		if ill.Matches > 1 {
			detail = fmt.Sprintf("%d legal moves fit, %s", ill.Matches, detail)
		}
	case errors.Is(err, moves.ErrNoMove):
		detail = "the board shows no move"
	case errors.Is(err, moves.ErrUnsettled):
		detail = "the board never stood still after the press"
	}
	f.set(protocol.BoardIllegal, p.n, detailOf(detail))
}

// refuse says why the board's position pos, at a start, a resume or the
// first press after moves went missing, is not taken as the game's, or
// "". A game starts from its position unless the arbiter chose the
// board's set-up (protocol.EBoardGame.SetUp); at a resume the board
// shows the game's position or a move on from it (answer), since no
// move is made while the clock stands; after moves went missing the
// board's position must be one the game can have reached
// (moves.Reachable).
func (f *Follower) refuse(p pend, pos *fen.Placement) string {
	switch {
	case f.tr == nil:
		return "" // nothing known to hold it to: a legal position is taken
	case f.gap:
		if err := moves.Reachable(new(f.tr.Placement()), pos); err != nil {
			return "the board's position does not follow from the game's: " + strings.TrimPrefix(err.Error(), "moves: ")
		}
		return ""
	case p.n == 0 && !f.setUp:
		return "not the game's start: set the board up as the game starts, or the arbiter chooses the board's set-up"
	case p.n == 0:
		return ""
	}
	return "not the game's position: put it back (the clock stood, so no move was made)"
}

// take takes pos as the position after press p.n: the arbiter set it up
// (a start or resume), or moves went missing.
func (f *Follower) take(pos fen.Placement, p pend) {
	fen, err := moves.FromBoard(&pos, p.white, p.full)
	if err != nil {
		f.gap = true
		f.set(protocol.BoardMismatch, 0, detailOf(strings.TrimPrefix(err.Error(), "moves: ")))
		return
	}
	tr, err := moves.New(fen)
	if err != nil {
		f.gap = true
		f.set(protocol.BoardMismatch, 0, detailOf(strings.TrimPrefix(err.Error(), "moves: ")))
		return
	}
	f.tr, f.at, f.gap = tr, p.n, false
	f.send(protocol.ReqEBoardPosition, protocol.EBoardPositionArg{Game: f.game, Press: p.n, FEN: fen})
	f.set(protocol.BoardOK, 0, "")
}

// check compares the board, once still, with the game's position while no
// press waits: an ILLEGAL? or a mismatch ends when the arbiter has put the
// position back; a board that differs while no clock runs is a mismatch.
func (f *Follower) check(now time.Duration) {
	if !f.board {
		return
	}
	pos, stable := f.settler.Current(now)
	switch {
	case !stable:
	case f.tr != nil && f.gap && moves.Reachable(new(f.tr.Placement()), &pos) != nil:
		err := moves.Reachable(new(f.tr.Placement()), &pos)
		f.set(protocol.BoardMismatch, 0, detailOf("the board's position does not follow from the game's: "+err.Error()))
	case f.tr == nil || f.gap:
		f.set(protocol.BoardLost, 0, "moves missing: the board's position is taken at the next press, start or resume")
	case f.tr.Check(&pos) == nil:
		f.set(protocol.BoardOK, 0, "")
	case !f.running && f.state != protocol.BoardIllegal:
		err := f.tr.Check(&pos)
		var mm *moves.MismatchError
		detail := err.Error()
		if errors.As(err, &mm) {
			sq := make([]string, len(mm.Changed))
			for i, c := range mm.Changed {
				sq[i] = c.String()
			}
			detail = "differs on " + strings.Join(sq, " ")
		}
		f.set(protocol.BoardMismatch, 0, detailOf(detail))
	case f.state == protocol.BoardLost:
		f.set(protocol.BoardOK, 0, "")
	}
}

// fen is the FEN of the game's position, "" when it is not known;
// computed once a position (a flood of board events asks at each).
func (f *Follower) fen() string {
	if f.tr == nil {
		return ""
	}
	if f.tr != f.fenOf || f.at != f.fenAt {
		f.fenOf, f.fenAt, f.fenText = f.tr, f.at, f.tr.FEN()
	}
	return f.fenText
}

func (f *Follower) set(state string, illegal int, detail string) {
	f.state, f.illegal, f.detail = state, illegal, detail
}

func (f *Follower) send(cmd string, arg any) {
	b, _ := json.Marshal(arg)
	f.out = append(f.out, Request{cmd, string(b)})
}

// detailOf makes s a state's detail: printable ASCII, at most
// protocol.MaxEBoardDetail bytes.
func detailOf(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	if len(b) > protocol.MaxEBoardDetail {
		b = append(b[:protocol.MaxEBoardDetail-3], "..."...)
	}
	return string(b)
}
