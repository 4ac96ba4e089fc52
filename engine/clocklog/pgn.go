package clocklog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// PGNGame is what a game's PGN needs beyond its clock log: who played,
// where and when, the result once it is known, and the moves once a
// board knows them. An empty tag value is written as PGN's unknown, "?"
// ("????.??.??" for the date).
type PGNGame struct {
	Event, Site, Date, Round, White, Black string
	// Result is the game's result, "1-0", "0-1" or "1/2-1/2", as a
	// result entered and confirmed says it; "*" while none is known; ""
	// takes the log's last result line (ResultOf), "*" if it has none. The clock alone never knows it: a fallen flag is a loss
	// only if the opponent can still mate (FIDE 6.9), which the arbiter
	// decides, so a flag without a result stays "*" (the flag is named
	// in the movetext).
	Result string
	// Moves are the moves' SAN ("e4", "Nf3", "O-O", "exd8=Q+") in the
	// order the clock saw them completed: Moves[i] is the move of the
	// i-th completed move's press. A move that is missing or "" and
	// every move after it are not known: their clock readings go to the
	// clock record comment (see WritePGN). Nil takes the log's own move
	// lines (an e-board's: BoardOf, Board.PGNMoves), with the position
	// they start from as the SetUp and FEN tags when it is not the
	// initial one.
	Moves []string
	// Extra tags follow the ones WritePGN writes, in order; a name must
	// be a PGN symbol (letters, digits, '_').
	Extra [][2]string
	// ClocksAt is the log instant WhiteClock and BlackClock are read at:
	// the moment the PGN is written, for a game under way (the hall's
	// feed and its push to a broadcast give it), so that the tags follow
	// the clock between the moves (a period's time added, a pause, a
	// correction). 0, or an instant before the log's last, reads them at
	// the log's last instant. A result freezes them where the game ended:
	// at the result line that ended it (the first of the log's last
	// result lines not taken back), or, with Result given here and not
	// "*", at the log's last instant.
	ClocksAt int64
}

// PGN results, as the Result tag and the movetext's end write them.
var pgnResults = []string{"1-0", "0-1", "1/2-1/2", "*"}

// pgnLine is the longest line WritePGN writes, as PGN's export format asks
// (at most 79 characters in movetext lines, section 8.2.2.2 of the
// standard).
const pgnLine = 79

// RecordPrefix starts the clock record comment: the clock readings of
// the moves whose SAN is not known.
const RecordPrefix = "clock record, moves not known:"

// WritePGN replays l and writes it to w as one PGN game, the one PGN
// writer of zeitnot (the hall, the USB stick and `zeitnot replay --pgn`
// call it). docs/pgn.md describes the form; in short:
//
// Tags: the Seven Tag Roster (from g; Result is g.Result, or else the
// log's last result line, or "*"), then SetUp "1" and FEN when the
// log's moves start from a set-up position, then
// TimeControl in the PGN standard's form ("40/5400+30:1800+30", "180+2",
// "*60", "-" for count-up) or "?" where the standard has none
// (timecontrol.FormatPGN); ZeitnotControl, the exact control as played in
// zeitnot's notation (clock.Played: WHITE|BLACK when the sides' differ,
// "300|240"; an arbiter's increment from the move it was given before,
// "300+5@31|300+5@30"); when the arbiter gave an increment during the game
// (FIDE Guidelines III.4), ZeitnotIncrement, each accepted one as
// SIDE+SECONDS@MOVE (the side's first move that gets it; "white+5@31
// black+5@30"), also one taken back, and TimeControl is then "?"; WhiteClock and BlackClock, each side's time left at the log's
// last instant as %clk writes it (lichess's broadcasts read them so; a
// count-up side has none; at g.ClocksAt instead while the game has no
// result); then g.Extra.
//
// Movetext: each move with a known SAN gets one comment, "12. Nf3
// {[%clk 1:21:07] [%emt 0:02:31]}" ([%egt] for a count-up side's elapsed
// time instead of [%clk]), Black's "12... Nc6 {...}". The moves without
// SAN (all of them, for a clock without a board) are not written as
// moves: their readings are the clock record, "clock record, moves not
// known: 1. clk 1:30:47.6 emt 0:00:12.4; 1... clk ...", at the end of the
// last known move's comment, or as the game's one comment when no move
// is known, which every PGN reader takes as a comment. A fallen flag is
// named at the end of that same comment ("; White's flag fell first"):
// there are never two comments in a row. The result ends the movetext.
func WritePGN(l *Log, w io.Writer, g PGNGame) error {
	r, err := replayForPGN(l, g.ClocksAt, g.Result != "" && g.Result != "*")
	if err != nil {
		return err
	}
	result := g.Result
	if result == "" {
		// The log's last result line, if it has one.
		r, _ := ResultOf(l)
		result = r.String()
	}
	known := false
	for _, s := range pgnResults {
		known = known || s == result
	}
	if !known {
		return fmt.Errorf("clocklog: PGN result %q: want 1-0, 0-1, 1/2-1/2 or *", result)
	}
	for _, x := range g.Extra {
		if !pgnSymbol(x[0]) {
			return fmt.Errorf("clocklog: PGN tag name %q: want letters, digits and '_'", x[0])
		}
	}
	fen := ""
	if g.Moves == nil {
		g.Moves, fen = BoardOf(l).PGNMoves()
	}
	for i, s := range g.Moves {
		if s != "" && !pgnSAN(s) {
			return fmt.Errorf("clocklog: move %d: %q is not SAN", i+1, s)
		}
	}

	bw := bufio.NewWriter(w)
	tag := func(name, value, unknown string) {
		if value == "" {
			value = unknown
		}
		fmt.Fprintf(bw, "[%s \"%s\"]\n", name, pgnEscape(value))
	}
	tag("Event", g.Event, "?")
	tag("Site", g.Site, "?")
	tag("Date", g.Date, "????.??.??")
	tag("Round", g.Round, "?")
	tag("White", g.White, "?")
	tag("Black", g.Black, "?")
	tag("Result", result, "")
	if fen != "" {
		tag("SetUp", "1", "")
		tag("FEN", fen, "")
	}
	tc := timecontrol.FormatPGN(l.Controls)
	if len(r.increments) > 0 {
		tc = "?"
	}
	tag("TimeControl", tc, "")
	tag("ZeitnotControl", timecontrol.FormatPair(r.played), "")
	if len(r.increments) > 0 {
		tag("ZeitnotIncrement", strings.Join(r.increments, " "), "")
	}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if !r.countUp[s] {
			tag(pgnSideName(s)+"Clock", PGNTime(r.clocks.Player[s].Ms), "")
		}
	}
	for _, x := range g.Extra {
		tag(x[0], x[1], "?")
	}
	bw.WriteString("\n")

	first, blackFirst := 1, 0
	if fen != "" {
		f := strings.Fields(fen)
		if len(f) == 6 {
			first, _ = strconv.Atoi(f[5])
		}
		if len(f) == 6 && f[1] == "b" {
			blackFirst = 1
		}
	}
	// The movetext, as tokens that are never broken across lines.
	var tokens []string
	var record []string // the clock record, one token a move
	for i, m := range r.moves {
		left := "clk"
		if r.countUp[m.Side] {
			left = "egt"
		}
		number := m.Number
		if fen != "" {
			// From a set-up position the moves are numbered on from its
			// move number, the side to move first.
			number = first + (i+blackFirst)/2
		}
		num := strconv.Itoa(number) + "."
		if m.Side == clock.Black {
			num += ".."
		}
		if len(record) == 0 && i < len(g.Moves) && g.Moves[i] != "" {
			tokens = append(tokens, num, g.Moves[i], fmt.Sprintf("{[%%%s %s]", left, PGNTime(m.After)), fmt.Sprintf("[%%emt %s]}", PGNTime(m.Used)))
			continue
		}
		record = append(record, fmt.Sprintf("%s %s %s emt %s;", num, left, PGNTime(m.After), PGNTime(m.Used)))
	}
	note := ""
	if r.end.FirstFlag != clock.NoSide {
		note = pgnSideName(r.end.FirstFlag) + "'s flag fell first"
	}
	// What follows the known moves goes into one comment: the last
	// move's, or a comment of its own when no move is known. Two
	// comments in a row are one too many for chess.js.
	var more []string
	if len(record) > 0 {
		last := &record[len(record)-1]
		*last = strings.TrimSuffix(*last, ";")
		more = append([]string{RecordPrefix}, record...)
	}
	if note != "" {
		if len(more) > 0 {
			more[len(more)-1] += ";"
		}
		more = append(more, note)
	}
	switch {
	case len(more) > 0 && len(tokens) > 0:
		last := &tokens[len(tokens)-1]
		*last = strings.TrimSuffix(*last, "}")
		tokens = append(tokens, more...)
		tokens[len(tokens)-1] += "}"
	case len(more) > 0:
		more[0] = "{" + more[0]
		tokens = append(tokens, more...)
		tokens[len(tokens)-1] += "}"
	}
	tokens = append(tokens, result)
	n := 0
	for _, tok := range tokens {
		if n > 0 && n+1+len(tok) > pgnLine {
			bw.WriteString("\n")
			n = 0
		}
		if n > 0 {
			bw.WriteString(" ")
			n++
		}
		bw.WriteString(tok)
		n += len(tok)
	}
	bw.WriteString("\n\n")
	return bw.Flush()
}

// pgnReplay is what WritePGN takes from a replay of the log.
type pgnReplay struct {
	moves      []clock.Move
	end        clock.State // at the log's last instant
	clocks     clock.State // WhiteClock's and BlackClock's (PGNGame.ClocksAt)
	countUp    [2]bool
	increments []string         // ZeitnotIncrement's words
	played     timecontrol.Pair // the controls as played (clock.Played)
}

// replayForPGN replays l as Replay does, keeping the moves, the clock at
// the log's last instant, the clocks for the tags (at instant at, frozen
// by a result: PGNGame.ClocksAt; over says a result the log may not
// have ended the game) and the increments the clock accepted.
func replayForPGN(l *Log, at int64, over bool) (pgnReplay, error) {
	var r pgnReplay
	c, err := l.NewClock()
	if err != nil {
		return r, err
	}
	r.countUp = [2]bool{l.Controls.White.IsCountUp(), l.Controls.Black.IsCountUp()}
	var ended *clock.State // the clocks where a result line ended the game
	for _, e := range l.Events {
		if e.Verb == GameResult {
			switch {
			case e.Result == NoResult:
				ended = nil // taken back: the game goes on
			case ended == nil:
				s := c.State(e.At)
				ended = &s
			}
		}
		var before clock.State
		if e.Verb == SetIncrement {
			before = c.State(e.At)
		}
		changed, err := Apply(c, e)
		switch {
		case e.Verb == Press && changed:
			r.moves = append(r.moves, c.LastMove())
		case e.Verb == SetIncrement && err == nil:
			sides := []clock.Side{e.Side}
			if e.Side == clock.NoSide {
				sides = []clock.Side{clock.White, clock.Black}
			}
			for _, s := range sides {
				r.increments = append(r.increments, fmt.Sprintf("%s+%s@%d", s, pgnSeconds(e.Value), before.Player[s].Moves+1))
			}
		}
	}
	r.end = c.State(c.Now())
	switch {
	case ended != nil:
		r.clocks = *ended
	case over:
		r.clocks = r.end
	default:
		r.clocks = c.State(max(at, c.Now()))
	}
	r.played = c.Played()
	return r, nil
}

// pgnSeconds writes ms as seconds, with as many decimals as it needs.
func pgnSeconds(ms int64) string {
	s := strconv.FormatInt(ms/1000, 10)
	if f := ms % 1000; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%03d", f), "0")
	}
	return s
}

// ReadLog reads a clock log that should be whole (Parse) and, if it is
// not, as recovery would (Salvage): what can be trusted of it. It is how
// the hall, the USB stick and `zeitnot replay --pgn` read a game for its
// PGN. It fails only when nothing of a game is left (no control).
func ReadLog(name string, data []byte) (*Log, error) {
	l, err := Parse(name, bytes.NewReader(data))
	if err == nil {
		return l, nil
	}
	l, errs := Salvage(name, bytes.NewReader(data))
	if l == nil {
		if len(errs) > 0 {
			return nil, errs[0]
		}
		return nil, err
	}
	return l, nil
}

func pgnSideName(s clock.Side) string {
	if s == clock.Black {
		return "Black"
	}
	return "White"
}

// pgnEscape makes s a PGN string's contents that every reader reads
// alike. PGN escapes a quote and a backslash with a backslash, but
// pgn-parser and chess.js do not read those escapes (they keep the
// backslash, or end the string at the quote), so none is written: a
// double quote becomes a single quote, a backslash a slash. Control
// characters, which PGN does not allow, become spaces.
func pgnEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteByte('\'')
		case r == '\\':
			b.WriteByte('/')
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func pgnSymbol(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// pgnSAN reports whether s is made of SAN's characters only (a move's
// legality is the board's to know): pieces, files, ranks, x, =, +, #,
// castling's O and '-'.
func pgnSAN(s string) bool {
	if len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'h' || c >= '1' && c <= '8' || strings.IndexByte("KQRBNOx=+#-", c) >= 0) {
			return false
		}
	}
	return true
}
