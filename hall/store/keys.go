package store

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// How the hall came to know a board's key (Board.KeyFrom).
const (
	// KeyLearned: from the board's first online message that carried
	// one (trust on first use), not yet confirmed by the arbiter. The
	// hall does not check lines against it.
	KeyLearned = "learned"
	// KeyConfirmed: the arbiter confirmed it, comparing its fingerprint
	// with the board's.
	KeyConfirmed = "confirmed"
	// KeyConfigured: given in hall.toml's [keys].
	KeyConfigured = "config"
)

// OfferKey takes the key of board n's online message (protocol.FormatKey
// form, checked by the caller). The first key the board offers is
// learned; another key after it is kept aside as OtherKey, for the
// arbiter to see and confirm, and never used until then.
func (s *Store) OfferKey(n int, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	switch {
	case key == "" || key == b.Key:
		// The key the hall knows; another offered before stays shown
		// until the arbiter confirms or dismisses it.
		return
	case b.Key == "":
		b.Key, b.KeyFrom = key, KeyLearned
	case key == b.OtherKey:
		return
	default:
		b.OtherKey = key
	}
	s.changed(b, OnlineChange)
}

// ConfirmKey makes key, which board n offered (its Key while learned, or
// its OtherKey), the one the hall checks the board's lines with: the
// arbiter confirmed it. A board whose key hall.toml gives keeps that key.
func (s *Store) ConfirmKey(n int, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	switch {
	case key == "" || key != b.Key && key != b.OtherKey:
		return fmt.Errorf("board %d does not offer that key (any more): reload the page", n)
	case b.KeyFrom == KeyConfigured && key != b.Key:
		return fmt.Errorf("board %d's key is given in hall.toml ([keys]): change it there and restart the hall", n)
	case key == b.Key && b.KeyFrom != KeyLearned:
		return nil
	}
	if key == b.OtherKey {
		b.OtherKey = ""
	}
	b.Key, b.KeyFrom = key, KeyConfirmed
	s.changed(b, OnlineChange)
	return nil
}

// DismissKey drops key, the other key board n offered (OtherKey), from
// the arbiter's page: the hall goes on with the key it knows.
func (s *Store) DismissKey(n int, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	if key == "" || key != b.OtherKey {
		return fmt.Errorf("board %d does not offer that key (any more): reload the page", n)
	}
	b.OtherKey = ""
	s.changed(b, OnlineChange)
	return nil
}

// ConfigKeys sets the keys hall.toml gives, by board: each is the one the
// hall checks that board's lines with from the first. A key the board
// offered before that is not the configured one stays shown as OtherKey.
// A board whose configured key is no longer in hall.toml goes back to a
// learned key, for the arbiter to confirm again.
func (s *Store) ConfigKeys(keys map[int]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, b := range s.boards {
		if _, ok := keys[n]; !ok && b.KeyFrom == KeyConfigured {
			b.KeyFrom = KeyLearned
			s.changed(b, OnlineChange)
		}
	}
	for n, key := range keys {
		b := s.board(n)
		if b.Key == key && b.KeyFrom == KeyConfigured {
			continue
		}
		if b.Key != "" && b.Key != key && b.OtherKey == "" {
			b.OtherKey = b.Key
		}
		if b.OtherKey == key {
			b.OtherKey = ""
		}
		b.Key, b.KeyFrom = key, KeyConfigured
		s.changed(b, OnlineChange)
	}
}

// SigningKey returns the key the hall checks board n's log lines with:
// a confirmed or configured key. ok is false while the hall has none (no
// key, or one learned and not confirmed): the board's lines are then
// taken unchecked, as from a clock that does not sign.
func (s *Store) SigningKey(n int) (key ed25519.PublicKey, from string, ok bool) {
	s.mu.Lock()
	b := s.boards[n]
	var k, f string
	if b != nil {
		k, f = b.Key, b.KeyFrom
	}
	s.mu.Unlock()
	if k == "" || f == KeyLearned {
		return nil, f, false
	}
	pub, err := protocol.ParseKey(k)
	if err != nil {
		// A key the hall kept is one it checked; a damaged board file
		// refuses every line rather than none.
		return ed25519.PublicKey{}, f, true
	}
	return pub, f, true
}

// Refuse keeps line seq of board n's game id as evidence, refused for why
// (a signature that does not verify): a conflict (Conflicts) with the line
// the hall has for seq, if any, kept in the game's .refused file for the
// next start. It is never served. A game the hall has no line of gets the
// evidence too, up to MaxGames games of the board.
func (s *Store) Refuse(n int, id string, seq int64, line, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Refused++
	if !protocol.ValidGame(id) || seq < 1 {
		return
	}
	k := key{n, id}
	g := s.games[k]
	if g == nil {
		count := 0
		for gk := range s.games {
			if gk.board == n {
				count++
			}
		}
		if count >= MaxGames {
			return
		}
		g = &game{ahead: map[int64]string{}}
		s.games[k] = g
	}
	if len(g.conflicts) >= MaxConflicts {
		return
	}
	for _, c := range g.conflicts {
		if c.Seq == seq && c.SetAside == line {
			return // the same line again (QoS 1): the evidence has it
		}
	}
	g.refuse(seq, line, why)
	// The evidence outlives a restart: a record in the game's .refused
	// file, beside its lines.
	rec, _ := json.Marshal(refusedRec{Seq: seq, Line: line, Why: why})
	p := s.refusedPath(n, id)
	err := os.MkdirAll(filepath.Dir(p), 0o750)
	if err == nil {
		err = appendFile(p, append(rec, '\n'))
	}
	if err != nil && len(s.damaged) < 100 {
		s.damaged = append(s.damaged, fmt.Sprintf("board %d game %s: the evidence of line %d, refused, is in memory only: %v", n, id, seq, err))
	}
	s.changed(s.board(n), LogChange)
}

// refusedSuffix ends the file of a game's lines refused for their
// signature: one JSON record (refusedRec) a line.
const refusedSuffix = ".refused"

type refusedRec struct {
	Seq  int64  `json:"seq"`
	Line string `json:"line"`
	Why  string `json:"why"`
}

func (s *Store) refusedPath(board int, id string) string {
	return filepath.Join(s.dir, "games", strconv.Itoa(board), id+refusedSuffix)
}

// refuse adds line seq, refused for why, to the evidence.
func (g *game) refuse(seq int64, line, why string) {
	kept, _ := g.get(seq)
	if seq > int64(len(g.lines)) {
		kept = "" // a held line is not the one served
	}
	g.conflicts = append(g.conflicts, Conflict{Seq: seq, Kept: kept, SetAside: line, Why: why})
}

// loadRefused reads the evidence of board's game id refused for its
// signature (Refuse) back; s.mu need not be held (Open). Records it cannot
// read are left out and named in Damaged.
func (s *Store) loadRefused(board int, id string) {
	p := s.refusedPath(board, id)
	data, err := regfile.ReadFile(p, regfile.Opts{Max: MaxConflicts * (4*protocol.MaxLine + 1024), NoFollow: true})
	if err != nil {
		s.damaged = append(s.damaged, fmt.Sprintf("%s: %v (left as it is)", p, err))
		return
	}
	k := key{board, id}
	g := s.games[k]
	if g == nil {
		g = &game{ahead: map[int64]string{}}
		s.games[k] = g
	}
	bad := 0
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r refusedRec
		if l == "" || json.Unmarshal([]byte(l), &r) != nil || r.Seq < 1 || len(r.Line) > protocol.MaxLine {
			if bad++; bad == 1 {
				s.damaged = append(s.damaged, fmt.Sprintf("%s: line %d is no record of a refused line (left out)", p, i+1))
			}
			continue
		}
		if len(g.conflicts) < MaxConflicts {
			g.refuse(r.Seq, r.Line, r.Why)
		}
	}
}
