package store

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// What the store makes of a game's log lines (issue 22, finding 5: a
// forger rewrote a board's log while its link was away):
//
//   - every line must carry its right format 2 checksum, as the clock's
//     journal writes it: a line without one, or with a wrong one, is
//     refused;
//   - a line must fit its place: an event's instant is not before the
//     instant of the line before it, nor after the one after it;
//   - the same line again for a seq is a copy (QoS 1), dropped;
//   - another line for a seq the store has is a conflict: the store keeps
//     the later one, sets aside the earlier one and every line it had
//     after that seq (they came before the later line, so they followed
//     the disputed one), and keeps all of it as evidence (Conflicts), for
//     the arbiter's page. A link that comes back sends its own lines from
//     where its broker last acknowledged, and so the served copy becomes
//     the clock's journal again; the evidence says it happened.

// LineAt is one line with its seq.
type LineAt struct {
	Seq  int64
	Line string
}

// Conflict is two different lines for one seq of a game: the evidence.
type Conflict struct {
	Seq int64
	// Kept is the later line for Seq, the one the store serves.
	Kept string
	// SetAside are the earlier line for Seq and the lines the store had
	// after it then, by seq: never served again, kept here.
	SetAside []LineAt
}

// checkSum checks a log line's format 2 checksum.
func checkSum(line string) error {
	_, summed, ok := clocklog.CheckLine([]byte(line))
	switch {
	case !summed:
		return errors.New("no format 2 checksum: every journal line ends in ' *' and the CRC-32C of its text in 8 hex digits")
	case !ok:
		return errors.New("checksum mismatch: the line is not as the clock wrote it")
	}
	return nil
}

// instant is the clock-log instant an event line starts with; false for a
// header line.
func instant(line string) (int64, bool) {
	f, _, _ := strings.Cut(line, " ")
	ms, err := strconv.ParseInt(f, 10, 64)
	return ms, err == nil && ms >= 0
}

// LinesUntil are a game's lines (1, 2, ...) up to log instant until: its
// header and every event at or before it (the round's feed cuts a game
// at its broadcast delay).
func LinesUntil(lines []string, until int64) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if at, ok := instant(l); ok && at > until {
			break // the instants never decrease
		}
		out = append(out, l)
	}
	return out
}

// get returns the line the game holds for seq.
func (g *game) get(seq int64) (string, bool) {
	if seq <= int64(len(g.lines)) {
		return g.lines[seq-1], true
	}
	l, ok := g.ahead[seq]
	return l, ok
}

// judge says what becomes of line seq: a copy of the one held (dup), or
// an error when it cannot be where it says. g may be nil (a new game).
func (g *game) judge(seq int64, line string) (dup bool, err error) {
	if g == nil {
		return false, nil
	}
	old, have := g.get(seq)
	if have && old == line {
		return true, nil
	}
	t, ok := instant(line)
	if !ok {
		return false, nil
	}
	for s := seq - 1; s >= 1; s-- {
		if l, ok := g.get(s); ok {
			if p, ok := instant(l); ok {
				if t < p {
					return false, fmt.Errorf("instant %d before line %d's %d", t, s, p)
				}
				break
			}
		}
	}
	if have {
		return false, nil // a conflict: what came after is set aside
	}
	// The nearest line after it that the store holds.
	var next int64
	for s := range g.ahead {
		if s > seq && (next == 0 || s < next) {
			if _, ok := instant(g.ahead[s]); ok {
				next = s
			}
		}
	}
	if next > 0 {
		if n, _ := instant(g.ahead[next]); t > n {
			return false, fmt.Errorf("instant %d after line %d's %d", t, next, n)
		}
	}
	return false, nil
}

// add keeps line seq in memory, as PutLine took it (and as a restart reads
// it back, record by record): a copy changes nothing, another line for a
// seq held is a conflict.
func (g *game) add(seq int64, line string) {
	if old, ok := g.get(seq); ok {
		if old == line {
			return
		}
		c := Conflict{Seq: seq, Kept: line, SetAside: []LineAt{{seq, old}}}
		if seq <= int64(len(g.lines)) {
			for i := seq; i < int64(len(g.lines)); i++ {
				c.SetAside = append(c.SetAside, LineAt{i + 1, g.lines[i]})
			}
			g.lines = g.lines[:seq-1]
		}
		var later []int64
		for s := range g.ahead {
			if s > seq {
				later = append(later, s)
			}
		}
		slices.Sort(later)
		for _, s := range later {
			c.SetAside = append(c.SetAside, LineAt{s, g.ahead[s]})
			delete(g.ahead, s)
		}
		delete(g.ahead, seq)
		g.conflicts = append(g.conflicts, c)
	}
	n := int64(len(g.lines))
	if seq != n+1 {
		g.ahead[seq] = line
		return
	}
	g.lines = append(g.lines, line)
	for {
		next, ok := g.ahead[int64(len(g.lines))+1]
		if !ok {
			break
		}
		delete(g.ahead, int64(len(g.lines))+1)
		g.lines = append(g.lines, next)
	}
}

// Conflicts returns the evidence of board n's game id: every line that met
// another for its seq, in the order they came.
func (s *Store) Conflicts(n int, id string) []Conflict {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[key{n, id}]
	if g == nil {
		return nil
	}
	out := slices.Clone(g.conflicts)
	for i := range out {
		out[i].SetAside = slices.Clone(out[i].SetAside)
	}
	return out
}

// Disputed returns board n's games that have conflicts, and how many each.
func (s *Store) Disputed(n int) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out map[string]int
	for k, g := range s.games {
		if k.board == n && len(g.conflicts) > 0 {
			if out == nil {
				out = map[string]int{}
			}
			out[k.game] = len(g.conflicts)
		}
	}
	return out
}
