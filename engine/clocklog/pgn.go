package clocklog

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// PGNTags are the tags of a game that its clock log does not hold: who
// played, where and when. An empty value is written as PGN's unknown, "?"
// ("????.??.??" for the date). Extra tags follow the ones WritePGN writes,
// in order; a name must be a PGN symbol (letters, digits, '_').
type PGNTags struct {
	Event, Site, Date, Round, White, Black string
	Extra                                  [][2]string
}

// pgnLine is the longest line WritePGN writes, as PGN's export format asks
// (at most 79 characters in movetext lines, section 8.2.2.2 of the
// standard).
const pgnLine = 79

// WritePGN replays l and writes it to w as one PGN game. The clock knows
// the times but not the moves, so the movetext has, for every move the
// clock saw completed, its move number and the comment WriteClk writes for
// it ("12. {[%clk 1:21:07] [%emt 0:02:31]}"), for a program or a person to
// put the moves in; nothing else is in it but a last comment naming the
// side whose flag fell first, if one did, and the result, "*": the clock
// does not know the result.
//
// The tags are the Seven Tag Roster (from t; Result "*"), then
// TimeControl (the control as played in its notation, which extends the
// PGN tag's; WHITE|BLACK when the sides' differ: the log's, with an
// arbiter's increment from the move it was given before, 300+5@31, see
// clock.Played), and WhiteClock and
// BlackClock: each side's clock at the log's last instant, as %clk writes
// it (count-up: the time used), so that a game cut short shows where it
// stood. Then t.Extra.
func WritePGN(l *Log, w io.Writer, t PGNTags) error {
	var moves strings.Builder
	if err := WriteClk(l, &moves); err != nil {
		return err
	}
	c, err := Replay(l, Handlers{})
	if err != nil {
		return err
	}
	st := c.State(c.Now())
	bw := bufio.NewWriter(w)
	tag := func(name, value, unknown string) {
		if value == "" {
			value = unknown
		}
		fmt.Fprintf(bw, "[%s \"%s\"]\n", name, pgnEscape(value))
	}
	tag("Event", t.Event, "?")
	tag("Site", t.Site, "?")
	tag("Date", t.Date, "????.??.??")
	tag("Round", t.Round, "?")
	tag("White", t.White, "?")
	tag("Black", t.Black, "?")
	tag("Result", "*", "")
	tag("TimeControl", timecontrol.FormatPair(c.Played()), "")
	tag("WhiteClock", PGNTime(st.Player[clock.White].Ms), "")
	tag("BlackClock", PGNTime(st.Player[clock.Black].Ms), "")
	for _, x := range t.Extra {
		if !pgnSymbol(x[0]) {
			return fmt.Errorf("clocklog: PGN tag name %q: want letters, digits and '_'", x[0])
		}
		tag(x[0], x[1], "?")
	}
	bw.WriteString("\n")

	// The movetext: each move's number and comment as one token, so that
	// a line is never broken inside a comment.
	var tokens []string
	for _, ln := range strings.Split(strings.TrimSuffix(moves.String(), "\n"), "\n") {
		if ln != "" {
			tokens = append(tokens, ln)
		}
	}
	if st.FirstFlag != clock.NoSide {
		tokens = append(tokens, "{"+pgnSideName(st.FirstFlag)+"'s flag fell first}")
	}
	tokens = append(tokens, "*")
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

func pgnSideName(s clock.Side) string {
	if s == clock.Black {
		return "Black"
	}
	return "White"
}

// pgnEscape makes s a PGN string's contents: a backslash and a quote are
// escaped, control characters (which PGN does not allow) become spaces.
func pgnEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
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
