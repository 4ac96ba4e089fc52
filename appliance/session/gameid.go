package session

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// Game ids (docs/hall-protocol.md, "Game ids"): each journal the session
// creates for a new game gets an id, NNNN-LIFE: a counter and a tag drawn
// at random once per state directory. The counter keeps ids unique over
// the board's life; the tag keeps them unique should the state directory
// ever start afresh (a hall that already holds game 0001 of this board
// must not take a new game 0001 for a copy of it).
//
// The id is written into the game's journal as a comment right after the
// header, "# game 0017-3fa2c1", so it stays with the game through recovery
// and into the archive. IDFile in the state directory keeps the counter,
// the tag and the current game's id, written atomically before the new
// journal: recovery takes the id from there when the journal's comment
// was lost, and the counter never goes back, even if IDFile is lost (the
// ids found in the journal and the archive count too).

// IDFile is the file in the state directory that keeps the game-id counter.
const IDFile = "gameid.json"

// idNote is the journal comment that names the game: "game ID".
const idNote = journal.IDNote

// idState is IDFile's content.
type idState struct {
	Life    string `json:"life"`    // the tag of this state directory
	Next    int64  `json:"next"`    // the next counter value
	Current string `json:"current"` // the id of the game the journal holds
}

// maxIDFile bounds what is read of IDFile.
const maxIDFile = 4096

// validID reports whether id is a game id as the hall protocol allows:
// 1 to 64 letters, digits, '-' or '_'.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// newLife draws a state directory's tag: 6 hex digits.
func newLife() string {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "000000"
	}
	return hex.EncodeToString(b[:])
}

// counterOf returns the counter of an id of tag life.
func counterOf(id, life string) (int64, bool) {
	num, tag, ok := strings.Cut(id, "-")
	if !ok || tag != life {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	return n, err == nil && n > 0
}

// loadIDs reads IDFile, and makes sure its counter is past every id of
// its tag found in the journal and the archive. Problems are logged; the
// ids stay unique regardless.
func (s *Session) loadIDs() {
	if s.ids.Life != "" {
		return
	}
	if s.dir == "" {
		s.ids = idState{Life: s.newLife(), Next: 1}
		return
	}
	path := filepath.Join(s.dir, IDFile)
	b, err := regfile.ReadFile(path, regfile.Opts{Max: maxIDFile, NoFollow: true})
	var st idState
	if err == nil {
		err = json.Unmarshal(b, &st)
		if err == nil && (st.Life == "" || !validID(st.Life) || strings.Contains(st.Life, "-") || st.Next < 1) {
			err = errors.New("no valid counter in it")
		}
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log(fmt.Sprintf("game ids: %s: %v; the ids go on from those in the journal and the archive", path, err))
		}
		st = idState{}
	}
	// The ids found on disk: the journal's and the archive's.
	found := s.scanIDs()
	if st.Life == "" {
		// Lost or never written: the tag of the games found, if any.
		for _, id := range found {
			if _, tag, ok := strings.Cut(id, "-"); ok && validID(tag) {
				st.Life = tag
			}
		}
		if st.Life == "" {
			st.Life = s.newLife()
		}
		st.Next = 1
	}
	for _, id := range found {
		if n, ok := counterOf(id, st.Life); ok && n >= st.Next {
			st.Next = n + 1
		}
	}
	if n, ok := counterOf(st.Current, st.Life); ok && n >= st.Next {
		st.Next = n + 1
	}
	s.ids = st
}

// scanIDs returns the ids of the games in the state directory: the
// journal's and the archived ones'.
func (s *Session) scanIDs() []string {
	var ids []string
	if s.jr != nil {
		if id := readGameID(s.jr.Path()); id != "" {
			ids = append(ids, id)
		}
	}
	for _, a := range s.archived() {
		if a.id != "" {
			ids = append(ids, a.id)
		}
	}
	return ids
}

// nextID takes the next id and writes IDFile with it as the current game
// before the game's journal is created.
func (s *Session) nextID() string {
	s.loadIDs()
	id := fmt.Sprintf("%04d-%s", s.ids.Next, s.ids.Life)
	s.ids.Next++
	s.ids.Current = id
	s.saveIDs()
	return id
}

func (s *Session) saveIDs() {
	if s.dir == "" {
		return
	}
	b, _ := json.Marshal(s.ids)
	if err := atomicfile.WriteFile(filepath.Join(s.dir, IDFile), append(b, '\n'), 0o644); err != nil {
		// The id is unique all the same for as long as the daemon runs;
		// after a restart the journal's and the archive's ids keep the
		// counter going.
		s.Trouble(err)
	}
}

// GameID is the current game's id (docs/hall-protocol.md, "Game ids").
func (s *Session) GameID() string { return s.id }

// adoptID sets the recovered game's id: its journal's, or else IDFile's
// current one (the journal's comment was lost), or else a new one; an id
// the journal did not name is written to it.
func (s *Session) adoptID(fromJournal string) {
	s.loadIDs()
	id := fromJournal
	if id == "" && validID(s.ids.Current) {
		id = s.ids.Current
	}
	if id == "" {
		id = s.nextID()
	}
	s.id = id
	if s.ids.Current != id {
		s.ids.Current = id
		s.saveIDs()
	}
	if fromJournal == "" {
		s.Note(idNote + id)
	}
}

// archivedGame is one finished game in the archive.
type archivedGame struct {
	path string
	id   string
	fi   os.FileInfo
}

// archived lists the archive's games with their ids, reading each file's
// id once (an archived file does not change).
func (s *Session) archived() []archivedGame {
	if s.dir == "" {
		return nil
	}
	dir := filepath.Join(s.dir, journal.Archive)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	if s.archive == nil {
		s.archive = map[string]archivedGame{}
	}
	seen := map[string]bool{}
	var out []archivedGame
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".log") || !e.Type().IsRegular() {
			continue
		}
		seen[name] = true
		fi, err := e.Info()
		if err != nil {
			continue
		}
		a, ok := s.archive[name]
		if !ok || !os.SameFile(a.fi, fi) || a.fi.Size() != fi.Size() {
			path := filepath.Join(dir, name)
			id := readGameID(path)
			a = archivedGame{path: path, id: id, fi: fi}
			s.archive[name] = a
		}
		out = append(out, a)
	}
	for name := range s.archive {
		if !seen[name] {
			delete(s.archive, name)
		}
	}
	return out
}
