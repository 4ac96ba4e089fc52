package store

import (
	"errors"
	"fmt"
	"slices"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// What the store makes of a game's log lines. The clock's journal is the
// record. The hall's receiver checks a line's signature before it comes
// here, once the board's key is known (keys.go: Refuse keeps a line that
// fails as evidence); without a key the store cannot tell the clock's link
// from another publisher, so it keeps the order lines came in as the
// authority:
//
//   - every line must carry its right format 2 checksum, as the clock's
//     journal writes it: a line without one, or with a wrong one, is
//     refused (it protects against lines not written as a journal line);
//   - the next line (seq one past the lines held from 1) must not have an
//     instant before the line before it: refused otherwise;
//   - the same line again for a seq is a copy (QoS 1), dropped;
//   - a seq's first line stands. Another line for it is a conflict: kept
//     as evidence (Conflicts), for the arbiter's page, never served, so it
//     feeds no result, export or PGN. A forger who publishes over a line
//     the link already delivered changes nothing but the evidence;
//   - a line past a gap is held aside (at most MaxHeld a game) and judged
//     only when the gap is filled: it then must not go back in time from
//     the line before it, or it is dropped to the evidence. A held line
//     never judges another, so a line published ahead cannot make the
//     store refuse the real lines after the gap (the hall asks the link
//     for the gap: resend). Nor can a held line that fit when the gap
//     filled: the next line that comes in order and cannot follow it sets
//     it aside (and the lines after it), and waits for the link's lines
//     from there;
//   - a game keeps at most MaxConflicts conflicts; past them, another line
//     for a seq it has is refused.

// MaxHeld is the most lines past a gap a game holds aside.
const MaxHeld = 256

// MaxConflicts is the most conflicts (evidence) a game keeps.
const MaxConflicts = 64

// LineAt is one line with its seq.
type LineAt struct {
	Seq  int64
	Line string
}

// Conflict is a line the store did not take for its seq: the evidence.
type Conflict struct {
	Seq int64
	// Kept is the line the store serves for Seq: the first one; empty
	// while the seq has none (a held line dropped before the real one
	// came).
	Kept string
	// SetAside is the other line for Seq, never served.
	SetAside string
	// Why says what set it aside.
	Why string
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

// get returns the line the game holds for seq, taken or held aside.
func (g *game) get(seq int64) (string, bool) {
	if seq <= int64(len(g.lines)) {
		return g.lines[seq-1], true
	}
	l, ok := g.ahead[seq]
	return l, ok
}

// fits says why line cannot be the next line (seq len+1), or "", and the
// line it cannot follow.
func (g *game) fits(line string) (int64, string) {
	t, ok := clocklog.Instant(line)
	if !ok || g.lastEvent == 0 || t >= g.lastAt {
		return 0, ""
	}
	return g.lastEvent, fmt.Sprintf("instant %d before line %d's %d", t, g.lastEvent, g.lastAt)
}

// lastInstant finds the last event line of the lines and its instant,
// for fits, after the lines were cut back.
func (g *game) lastInstant() {
	g.lastEvent, g.lastAt = 0, 0
	for s := len(g.lines); s >= 1; s-- {
		if at, ok := clocklog.Instant(g.lines[s-1]); ok {
			g.lastEvent, g.lastAt = int64(s), at
			return
		}
	}
}

// judge says what becomes of line seq: a copy of the one held (dup), or
// an error when the store cannot keep it. g may be nil (a new game).
func (g *game) judge(seq int64, line string) (dup bool, err error) {
	if g == nil {
		return false, nil
	}
	old, have := g.get(seq)
	switch {
	case have && old == line:
		return true, nil
	case have:
		if len(g.conflicts) >= MaxConflicts {
			return false, fmt.Errorf("another line for a seq the hall has, and the game has %d conflicts already, the most the hall keeps", len(g.conflicts))
		}
		return false, nil // evidence: the first line stands
	case seq == int64(len(g.lines))+1:
		// A line held past a gap and taken never blocks one that comes
		// in order: add sets it aside.
		if b, why := g.fits(line); why != "" && !g.heldTaken[b] {
			return false, errors.New(why)
		}
	case len(g.ahead) >= MaxHeld:
		return false, fmt.Errorf("%d lines held past line %d's gap already, the most the hall holds", len(g.ahead), len(g.lines)+1)
	}
	return false, nil
}

// add keeps line seq in memory, as PutLine took it (and as a restart reads
// it back, record by record): a copy changes nothing, another line for a
// seq held is evidence, a line past a gap is held aside, and the next
// line takes the held lines after it that fit.
func (g *game) add(seq int64, line string) {
	if old, ok := g.get(seq); ok {
		if old != line && len(g.conflicts) < MaxConflicts {
			why := "another line for a seq the hall had: the first stands"
			if seq > int64(len(g.lines)) {
				why = "another line for a seq held past a gap: the first held stands"
			}
			g.conflicts = append(g.conflicts, Conflict{Seq: seq, Kept: old, SetAside: line, Why: why})
		}
		return
	}
	if seq != int64(len(g.lines))+1 {
		g.ahead[seq] = line
		return
	}
	if b, why := g.fits(line); why != "" && g.heldTaken[b] {
		// The line came in order and cannot follow line b, which came
		// out of order: b and the lines after it are set aside, the line
		// waits for the link's lines b... (the receiver asks for them).
		for s := int64(len(g.lines)); s >= b; s-- {
			if len(g.conflicts) < MaxConflicts {
				g.conflicts = append(g.conflicts, Conflict{Seq: s, SetAside: g.lines[s-1], Why: fmt.Sprintf("held past a gap and taken, then line %d, in order, could not follow it: %s", seq, why)})
			}
			delete(g.heldTaken, s)
		}
		g.lines = g.lines[:b-1]
		g.unchecked = min(g.unchecked, len(g.lines))
		g.lastInstant()
		g.restart()
		g.ahead[seq] = line
		return
	}
	g.take(seq, line)
	for {
		s := int64(len(g.lines)) + 1
		next, ok := g.ahead[s]
		if !ok {
			return
		}
		delete(g.ahead, s)
		if _, why := g.fits(next); why != "" {
			// Held and out of place: evidence, and the gap is back.
			if len(g.conflicts) < MaxConflicts {
				g.conflicts = append(g.conflicts, Conflict{Seq: s, SetAside: next, Why: "held past a gap, then out of place: " + why})
			}
			return
		}
		g.take(s, next)
		if g.heldTaken == nil {
			g.heldTaken = map[int64]bool{}
		}
		g.heldTaken[s] = true
	}
}

// take appends line seq (len+1) to the lines, and names it the kept line
// of the evidence that waited for it.
func (g *game) take(seq int64, line string) {
	g.lines = append(g.lines, line)
	if at, ok := clocklog.Instant(line); ok {
		g.lastEvent, g.lastAt = seq, at
	}
	for i := range g.conflicts {
		if c := &g.conflicts[i]; c.Seq == seq && c.Kept == "" {
			c.Kept = line
		}
	}
}

// Conflicts returns the evidence of board n's game id: every line set
// aside for its seq, in the order they came.
func (s *Store) Conflicts(n int, id string) []Conflict {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[key{n, id}]
	if g == nil {
		return nil
	}
	return slices.Clone(g.conflicts)
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

// ConflictCount returns how many conflicts board n's game id has: the
// evidence Conflicts returns.
func (s *Store) ConflictCount(n int, id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.games[key{n, id}]; g != nil {
		return len(g.conflicts)
	}
	return 0
}
