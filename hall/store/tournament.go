package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"

	"github.com/zeitnot/zeitnot/hall/trf"
)

// TournamentFile is the file of the data directory that keeps the
// tournament the arbiter imported: the TRF as it came, the round the hall
// sets and its boards in the arbiter's order, and the results the arbiter
// entered in the hall. It is written whole to a temporary file and
// renamed, so a power cut leaves the old one or the new one.
const TournamentFile = "tournament.json"

// MaxTournament bounds the file: the TRF (trf.MaxSize) and its round.
const MaxTournament = trf.MaxSize + 1<<20

// Tournament is what the hall keeps of the event.
type Tournament struct {
	File string `json:"file"` // the TRF's name as uploaded
	TRF  string `json:"trf"`  // the TRF as it came (results the hall sets are added on export)
	// Round is the round the hall sets; Boards its pairings, board K
	// (the clock of board K) is Boards[K-1]: starting ranks, White
	// then Black.
	Round  int      `json:"round"`
	Boards [][2]int `json:"boards"`
	// Results are the results the arbiter entered in the hall (the
	// page, PUT /api/boards/K/result), by board: 1-0, 1/2-1/2, 0-1.
	Results map[int]string `json:"results,omitempty"`
	// Sent says the round was sent to the clocks.
	Sent bool `json:"sent,omitempty"`
	// Asked are the result commands the hall sent to the round's clocks
	// and has no reply to yet, by command id: the board. The clock's
	// reply settles each.
	Asked map[string]int `json:"asked,omitempty"`
	// Refused are the hall's results of the round a clock refused (its
	// error reply to the result command), by board: the clock's reason.
	// A refused result is not exported until the arbiter enters or
	// clears the board's result again.
	Refused map[int]string `json:"refused,omitempty"`
	// Past are the rounds before Round, oldest first, as the hall set
	// them: every round stays readable (its results, its PGN, the TRF's
	// results), its boards bound to the clocks' games by the pairing
	// each game carries (Board.Pairings).
	Past []Round `json:"past,omitempty"`
}

// Round is a round the hall set: its pairings by board and the results
// the arbiter entered in the hall, as Tournament keeps its current one.
type Round struct {
	Round   int            `json:"round"`
	Boards  [][2]int       `json:"boards"`
	Results map[int]string `json:"results,omitempty"`
	Refused map[int]string `json:"refused,omitempty"`
}

// Rounds is every round the hall set, the past ones and the current,
// oldest first.
func (t Tournament) Rounds() []Round {
	out := append([]Round(nil), t.Past...)
	if t.Round > 0 {
		out = append(out, Round{Round: t.Round, Boards: t.Boards, Results: t.Results, Refused: t.Refused})
	}
	return out
}

// RoundOf is round n of Rounds; false if the hall set no round n.
func (t Tournament) RoundOf(n int) (Round, bool) {
	for _, r := range t.Rounds() {
		if r.Round == n {
			return r, true
		}
	}
	return Round{}, false
}

// NextRound sets round n with its boards: the current round, if another,
// goes to Past (a round n or later kept there goes: it is set again).
func (t *Tournament) NextRound(n int, boards [][2]int) {
	var past []Round
	for _, r := range t.Rounds() {
		if r.Round < n {
			past = append(past, r)
		}
	}
	t.Past = past
	t.Round, t.Boards, t.Results, t.Sent, t.Asked, t.Refused = n, boards, nil, false, nil, nil
}

// Tournaments keeps the one tournament of a data directory. It is safe for
// concurrent use.
type Tournaments struct {
	path string
	mu   sync.Mutex
	t    *Tournament
}

// OpenTournament reads the tournament of data directory dir, if it has
// one. A file that cannot be read is an error naming it: nothing is
// overwritten until the arbiter imports again.
func OpenTournament(dir string) (*Tournaments, error) {
	ts := &Tournaments{path: filepath.Join(dir, TournamentFile)}
	f, err := os.Open(ts.path)
	if errors.Is(err, os.ErrNotExist) {
		return ts, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hall data: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxTournament {
		return nil, fmt.Errorf("hall data: %s: %d bytes, more than %d", ts.path, fi.Size(), MaxTournament)
	}
	var t Tournament
	if err := json.NewDecoder(f).Decode(&t); err != nil {
		return nil, fmt.Errorf("hall data: %s: %v", ts.path, err)
	}
	ts.t = &t
	return ts, nil
}

// Get returns a copy of the tournament, and false if there is none.
func (ts *Tournaments) Get() (Tournament, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.t == nil {
		return Tournament{}, false
	}
	return ts.t.clone(), true
}

func (t Tournament) clone() Tournament {
	c := t
	c.Boards = append([][2]int(nil), t.Boards...)
	c.Past = make([]Round, len(t.Past))
	for i, r := range t.Past {
		c.Past[i] = Round{Round: r.Round, Boards: append([][2]int(nil), r.Boards...), Results: maps.Clone(r.Results), Refused: maps.Clone(r.Refused)}
	}
	if len(t.Past) == 0 {
		c.Past = nil
	}
	if t.Results != nil {
		c.Results = make(map[int]string, len(t.Results))
		for k, v := range t.Results {
			c.Results[k] = v
		}
	}
	c.Asked, c.Refused = maps.Clone(t.Asked), maps.Clone(t.Refused)
	return c
}

// Update changes the tournament with f (given a copy; a new one if there
// is none) and keeps it, durably, before it returns. If f fails or the
// file cannot be written, nothing changes.
func (ts *Tournaments) Update(f func(t *Tournament) error) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var t Tournament
	if ts.t != nil {
		t = ts.t.clone()
	}
	if err := f(&t); err != nil {
		return err
	}
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if len(data) > MaxTournament {
		return fmt.Errorf("hall data: the tournament takes %d bytes, more than %d", len(data), MaxTournament)
	}
	if err := writeAtomic(ts.path, data); err != nil {
		return err
	}
	ts.t = &t
	return nil
}

// writeAtomic writes data to path through a synced temporary file and a
// rename.
func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("hall data: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("hall data: %w", err)
	}
	return nil
}
