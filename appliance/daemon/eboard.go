package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/ratelimit"
	"github.com/zeitnot/zeitnot/protocol"
)

// The e-board process's requests (docs/hall-protocol.md, "What the daemon
// serves the e-board process"): eboard-game, eboard-move, eboard-position
// and eboard-state. The process reads an untrusted USB device and is
// untrusted itself: every argument is checked for its form, a move must
// name a press of the current game that has no move yet, a position the
// current press, and the requests are rate-limited. A silent or dead
// process changes nothing but the status's board: the clock runs as it
// does without one.

// Limits of the e-board requests.
const (
	// eboardRate and eboardBurst bound the requests a second the daemon
	// takes from the process; more are refused without being read.
	eboardRate  = 10
	eboardBurst = 30
	// eboardNoteRate and eboardNoteBurst bound the journal lines the
	// process's position and state changes cost (a move line costs one
	// per press and is not counted here).
	eboardNoteRate  = 0.5
	eboardNoteBurst = 8
	// eboardWindow is how far back a move may name its press: the
	// process's Settler answers at most 16 presses at a time.
	eboardWindow = 16
)

// eboardPeer is what the daemon knows of the e-board process.
type eboardPeer struct {
	heard    bool          // a request came since the daemon started
	last     time.Duration // when the last one came
	game     string        // the game the fields below are of
	answered int           // the highest press the process answered (a move, ILLEGAL?), or the presses when the game was taken up
	status   protocol.BoardStatus
	detail   string // the last state's detail, for the journal's note
	noted    string // the last state noted in the journal
	requests *ratelimit.Bucket
	notes    *ratelimit.Bucket

	// The positions of game fensGame from its position line at
	// fensFrom: the FEN after each press whose move was taken, so that a
	// move is checked on one position, not a replay of the game.
	fens     map[int]string
	fensGame string
	fensFrom int
}

// eboardRequest reports whether cmd is one of the e-board process's.
func eboardRequest(cmd string) bool { return strings.HasPrefix(cmd, "eboard-") }

// EBoard answers one of the e-board process's requests at monotonic
// instant now, in the event loop. changed says whether the clock's state
// changed (a line journaled, the board's state): only then does the loop
// need a Step, so a flood of requests costs no render.
func (m *Machine) EBoard(cmd, arg string, now time.Duration) (answer string, changed bool) {
	p := &m.eboard
	if p.requests == nil {
		p.requests = ratelimit.New(eboardRate, eboardBurst)
		p.notes = ratelimit.New(eboardNoteRate, eboardNoteBurst)
	}
	if ok, _ := p.requests.Take(instant(now)); !ok {
		return "error: eboard: too many requests", false
	}
	before := m.boardStatus()
	ans, err := m.eboardRequest(cmd, arg, now)
	if err != nil {
		return "error: " + err.Error(), false
	}
	after := m.boardStatus()
	changed = (before == nil) != (after == nil) || before != nil && *before != *after
	m.boardChanged(before, after)
	return ans, changed
}

// boardChanged gives the core the board's status and, when its state
// changed, tells the watchers (a "board" event, and with it the state
// line): the hall sees ILLEGAL? or a lost board at once, not at the next
// press.
func (m *Machine) boardChanged(before, after *protocol.BoardStatus) {
	m.Core.SetBoard(after)
	if after != nil && (before == nil || before.State != after.State) {
		s := m.Core.Session()
		s.Emit(session.Event{Kind: session.BoardChanged, At: s.LogMs(m.eboard.last), Side: clock.NoSide, Text: after.State})
	}
}

// instant puts a monotonic instant on the time.Time a rate limiter takes.
func instant(d time.Duration) time.Time { return time.Unix(0, 0).Add(d) }

func (m *Machine) eboardRequest(cmd, arg string, now time.Duration) (string, error) {
	s := m.Core.Session()
	p := &m.eboard
	p.follow(m)
	if cmd == protocol.ReqEBoardGame {
		if arg != "" {
			return "", errors.New("eboard-game takes no argument")
		}
		p.heard, p.last = true, now
		from, fen, moves := s.BoardGame()
		st := s.State(now)
		g := protocol.EBoardGame{Game: s.GameID(), Presses: s.Presses(), ToMove: st.ToMove.String(),
			Running: st.Running != clock.NoSide, From: from, FEN: fen, Moves: moves, SetUp: m.Core.SetUpStart()}
		if g.ToMove != "black" {
			g.ToMove = "white"
		}
		g.FullMove = st.Player[clock.White].Moves + 1
		if g.ToMove == "black" {
			g.FullMove = st.Player[clock.Black].Moves + 1
		}
		g.FullMove = min(max(g.FullMove, 1), clocklog.MaxPly)
		b, err := json.Marshal(g)
		return string(b), err
	}
	var game string
	var apply func() error
	switch cmd {
	case protocol.ReqEBoardMove:
		var a protocol.EBoardMoveArg
		if err := decode(cmd, arg, &a); err != nil {
			return "", err
		}
		game = a.Game
		apply = func() error {
			switch {
			case a.Press > s.Presses():
				return fmt.Errorf("eboard-move: press %d: the game has had %d", a.Press, s.Presses())
			case a.Press <= s.Presses()-eboardWindow:
				return fmt.Errorf("eboard-move: press %d is %d presses old: too late", a.Press, s.Presses()-a.Press)
			}
			if _, _, ok := s.BoardMove(a.Press); ok {
				return fmt.Errorf("eboard-move: press %d has its move", a.Press)
			}
			tr, err := p.before(s, a.Press)
			if err != nil {
				return fmt.Errorf("eboard-move: press %d: %v", a.Press, err)
			}
			if last := p.lastMove(); last > a.Press {
				return fmt.Errorf("eboard-move: press %d: press %d after it has its move", a.Press, last)
			}
			mv, err := tr.Play(a.UCI) // on an error the tracker stays before the move
			switch {
			case err != nil:
				return fmt.Errorf("eboard-move: press %d: %s is no legal move of %s", a.Press, a.UCI, tr.FEN())
			case mv.SAN != a.SAN:
				return fmt.Errorf("eboard-move: press %d: %s is %s, not %s", a.Press, a.UCI, mv.SAN, a.SAN)
			}
			if err := s.RecordMove(now, a.Press, a.SAN, a.UCI); err != nil {
				return fmt.Errorf("eboard-move: %v", err)
			}
			p.fens[a.Press] = tr.FEN()
			p.answered = max(p.answered, a.Press)
			p.status = protocol.BoardStatus{State: protocol.BoardOK, FEN: a.FEN, Ply: a.Press, SAN: a.SAN, UCI: a.UCI}
			p.detail = ""
			return nil
		}
	case protocol.ReqEBoardPosition:
		var a protocol.EBoardPositionArg
		if err := decode(cmd, arg, &a); err != nil {
			return "", err
		}
		game = a.Game
		apply = func() error {
			if a.Press != s.Presses() {
				return fmt.Errorf("eboard-position: press %d: a position is taken at the game's last press, %d", a.Press, s.Presses())
			}
			if ok, _ := p.notes.Take(instant(now)); !ok {
				return errors.New("eboard-position: too many positions")
			}
			if _, err := moves.New(a.FEN); err != nil {
				return fmt.Errorf("eboard-position: press %d: %v", a.Press, strings.TrimPrefix(err.Error(), "moves: "))
			}
			if err := s.RecordPosition(now, a.Press, a.FEN); err != nil {
				return fmt.Errorf("eboard-position: %v", err)
			}
			p.answered = max(p.answered, a.Press)
			p.status = protocol.BoardStatus{State: protocol.BoardOK, FEN: a.FEN, Ply: a.Press}
			p.detail = ""
			p.fens = nil // the game goes on from the new position line
			return nil
		}
	case protocol.ReqEBoardState:
		var a protocol.EBoardStateArg
		if err := decode(cmd, arg, &a); err != nil {
			return "", err
		}
		game = a.Game
		apply = func() error {
			from, _, _ := s.BoardGame()
			switch {
			case a.Press > s.Presses() || a.Illegal > s.Presses():
				return fmt.Errorf("eboard-state: press %d, illegal %d: the game has had %d", a.Press, a.Illegal, s.Presses())
			case a.FEN != "" && a.Press < from:
				return fmt.Errorf("eboard-state: press %d: the board's position was set after press %d", a.Press, from)
			}
			st := p.status
			st.State = a.State
			if a.FEN != "" && (a.FEN != st.FEN || a.Press != st.Ply) {
				st.FEN, st.Ply, st.SAN, st.UCI = a.FEN, a.Press, "", ""
				if san, uci, ok := s.BoardMove(a.Press); ok {
					st.SAN, st.UCI = san, uci
				}
			}
			if a.Illegal > 0 {
				p.answered = max(p.answered, a.Illegal)
			}
			p.status, p.detail = st, a.Detail
			if a.Illegal > 0 {
				p.detail = fmt.Sprintf("ILLEGAL? at press %d", a.Illegal)
				if a.Detail != "" {
					p.detail += ": " + a.Detail
				}
			}
			return nil
		}
	default:
		return "", fmt.Errorf("unknown command %q", cmd)
	}
	if game != s.GameID() {
		return "", fmt.Errorf("%s: game %s is not the clock's game, %s", cmd, game, s.GameID())
	}
	if err := apply(); err != nil {
		return "", err
	}
	p.heard, p.last = true, now
	p.note(m)
	return "ok", nil
}

// before is the game's position before press n, with the rules' library
// (appliance/eboard/moves): the process's move must be a legal one from
// there, with its SAN. It is the position after the last press before n
// whose move was taken (presses without a move leave it standing), kept
// as each move is taken; the game's moves from its last position line
// are replayed once, when the daemon has not kept them (it restarted,
// or a position line came).
func (p *eboardPeer) before(s *session.Session, n int) (*moves.Tracker, error) {
	from, fen, ms := s.BoardGame()
	if p.fens == nil || p.fensGame != s.GameID() || p.fensFrom != from {
		fens := map[int]string{}
		tr, err := moves.New(fen)
		if err != nil {
			return nil, fmt.Errorf("the game's position: %v", strings.TrimPrefix(err.Error(), "moves: "))
		}
		for i, u := range ms {
			if u == "" {
				continue
			}
			if _, err := tr.Play(u); err != nil {
				return nil, fmt.Errorf("the journal's move %s of press %d does not replay: %v", u, from+1+i, strings.TrimPrefix(err.Error(), "moves: "))
			}
			fens[from+1+i] = tr.FEN()
		}
		p.fens, p.fensGame, p.fensFrom = fens, s.GameID(), from
	}
	for k := n - 1; k > from; k-- {
		if f, ok := p.fens[k]; ok {
			fen = f
			break
		}
	}
	return moves.New(fen)
}

// lastMove is the last press whose move was taken, 0 if none.
func (p *eboardPeer) lastMove() int {
	last := 0
	for k := range p.fens {
		last = max(last, k)
	}
	return last
}

// decode reads and checks a request's argument.
func decode(cmd, arg string, v interface{ Check() error }) error {
	if err := protocol.DecodeArg(cmd, arg, v); err != nil {
		return err
	}
	if err := v.Check(); err != nil {
		return fmt.Errorf("%s: %v", cmd, err)
	}
	return nil
}

// follow takes up the current game if the peer's fields are of another:
// the presses before count as answered, the board's position is the last
// one the journal sets. (The process counts as heard once a request of
// its was carried out: garbage is no sign of life.)
func (p *eboardPeer) follow(m *Machine) {
	s := m.Core.Session()
	if p.game == s.GameID() {
		return
	}
	from, fen, _ := s.BoardGame()
	p.game, p.answered = s.GameID(), s.Presses()
	p.status = protocol.BoardStatus{State: protocol.BoardLost, FEN: fen, Ply: from}
	p.noted, p.detail = "", ""
}

// note writes the board's state to the journal when it changes, as a
// comment for the arbiter ("# eboard: illegal: ILLEGAL? at press 31:
// changed e2 e5"), within the notes' rate.
func (p *eboardPeer) note(m *Machine) {
	text := p.status.State
	if p.detail != "" {
		text += ": " + p.detail
	}
	if text == p.noted {
		return
	}
	if ok, _ := p.notes.Take(instant(p.last)); !ok {
		return
	}
	p.noted = text
	m.Core.Session().Note("eboard: " + text)
	m.log("eboard: " + text)
}

// boardStatus is the status's board now: nil until the process has been
// heard since the daemon started, or while the game is not the one it
// spoke of (a new game, until the process takes it up).
func (m *Machine) boardStatus() *protocol.BoardStatus {
	p := &m.eboard
	if !p.heard || p.game != m.Core.Session().GameID() {
		return nil
	}
	b := p.status
	b.MissingFrom = m.missingFrom(b.State == protocol.BoardLost)
	return &b
}

// missingFrom is the first press whose move the journal does not have,
// among those the process answered (all of the game's, while the board is
// lost), after the last position line; 0 if none.
func (m *Machine) missingFrom(lost bool) int {
	s := m.Core.Session()
	upto := m.eboard.answered
	if lost {
		upto = s.Presses()
	}
	from, _, _ := s.BoardGame()
	for n := from + 1; n <= upto && n <= s.Presses(); n++ {
		if _, _, ok := s.BoardMove(n); !ok {
			return n
		}
	}
	return 0
}

// eboardWake checks, at every Step, that the process still speaks: one
// silent for protocol.EBoardSilence has lost its board (a process that
// died, a hung one). It returns when to check next; ok=false while there
// is nothing to watch.
func (m *Machine) eboardWake(now time.Duration) (next time.Duration, ok bool) {
	p := &m.eboard
	if !p.heard || p.status.State == protocol.BoardLost || p.game != m.Core.Session().GameID() {
		m.Core.SetBoard(m.boardStatus())
		return 0, false
	}
	if due := p.last + protocol.EBoardSilence; now < due {
		return due, true
	}
	before := m.boardStatus()
	p.status.State, p.detail = protocol.BoardLost, fmt.Sprintf("the e-board process was silent for %v", protocol.EBoardSilence)
	p.note(m)
	m.boardChanged(before, m.boardStatus())
	return 0, false
}
