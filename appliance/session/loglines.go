package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// The journal's lines for the hall (docs/hall-protocol.md, "Line
// numbers"): line N of a game is the N-th line of its journal counting the
// header, the events and the checkpoints, not comments or blank lines. The
// session reads them back from the files (the current journal, and the
// archive by id), so a line the link never saw is served all the same;
// only lines on disk are served: while the journal holds lines in memory
// (a full disk) the count stays where the disk is.

// markEvery is how many numbered lines apart the line index keeps an
// offset: a request reads at most this many lines before its first.
const markEvery = 256

// NoGameError is LogLines' answer for a game the session does not have
// (any more): the archive keeps the last journal.Keep games.
type NoGameError struct{ Game string }

func (e *NoGameError) Error() string { return "no game " + e.Game }

// lineIndex is where the numbered lines of one journal file are.
type lineIndex struct {
	path  string
	fi    os.FileInfo // the file indexed: another file at path starts afresh
	end   int64       // bytes indexed: up to the end of the last complete line read
	count int64       // numbered lines before end
	marks []int64     // marks[k]: the offset of line k*markEvery+1
}

// update reads the lines added to the file since the last update. A file
// replaced at the same path (a recovery that rewrote the journal) is read
// from its start.
func (x *lineIndex) update() error {
	f, err := regfile.Open(x.path, regfile.Opts{NoFollow: true})
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if x.fi == nil || !os.SameFile(x.fi, fi) || fi.Size() < x.end {
		x.fi, x.end, x.count, x.marks = fi, 0, 0, x.marks[:0]
	}
	if _, err := f.Seek(x.end, io.SeekStart); err != nil {
		return err
	}
	return x.scan(bufio.NewReaderSize(f, 32<<10), x.end, -1, func(int64, []byte) bool { return true })
}

// scan reads complete lines from r, which is at offset off, numbering them
// on from x.count when indexing (stop < 0), and calls f with each numbered
// line and its number; f returns false to stop. It stops at the first NUL
// byte (the journal's zero padding after its last line) and at a line
// without its newline.
func (x *lineIndex) scan(r *bufio.Reader, off int64, stop int64, f func(n int64, line []byte) bool) error {
	n := x.count
	if stop >= 0 {
		n = 0 // the caller numbers
	}
	for stop < 0 || off < stop {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// Longer than any journal line: damage; nothing after it is
			// served, as with a NUL byte.
			return nil
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if bytes.IndexByte(line, 0) >= 0 {
			return nil
		}
		start := off
		off += int64(len(line))
		text := bytes.TrimRight(line, "\r\n")
		if !numbered(text) {
			if stop < 0 {
				x.end = off
			}
			continue
		}
		if stop < 0 {
			if x.count%markEvery == 0 {
				x.marks = append(x.marks, start)
			}
			x.count++
			x.end = off
			continue
		}
		n++
		if !f(n, text) {
			return nil
		}
	}
	return nil
}

// numbered reports whether a journal line counts: not a comment, not blank.
func numbered(text []byte) bool {
	t := bytes.TrimSpace(text)
	return len(t) > 0 && t[0] != '#'
}

// lines returns the numbered lines from, from+1, ... of the indexed part
// of the file, within the bounds; more says there are more after them.
func (x *lineIndex) lines(from int64, maxLines, maxBytes int) ([]string, bool, error) {
	out := []string{}
	if from > x.count {
		return out, false, nil
	}
	k := (from - 1) / markEvery
	f, err := regfile.Open(x.path, regfile.Opts{NoFollow: true})
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !os.SameFile(fi, x.fi) {
		return nil, false, fmt.Errorf("%s changed while it was read", x.path)
	}
	if _, err := f.Seek(x.marks[k], io.SeekStart); err != nil {
		return nil, false, err
	}
	first := k * markEvery // the lines before the mark
	size := 0
	more := false
	err = x.scan(bufio.NewReaderSize(f, 32<<10), x.marks[k], x.end, func(n int64, line []byte) bool {
		num := first + n
		if num < from {
			return true
		}
		if len(out) == maxLines || len(out) > 0 && size+len(line) > maxBytes {
			// (A first line longer than maxBytes goes alone: an answer
			// always moves on. The index takes lines up to 32 KiB, the
			// answers' 64 KiB hold any of them.)
			more = true
			return false
		}
		out = append(out, string(line))
		size += len(line)
		return true
	})
	if err != nil {
		return nil, false, err
	}
	if !more && from-1+int64(len(out)) < x.count {
		more = true
	}
	return out, more, nil
}

// LogInfo is the current game's id and how many numbered lines its
// journal has on disk.
func (s *Session) LogInfo() (string, int64) {
	if s.jr == nil {
		return s.id, int64(len(s.mem))
	}
	x := s.currentIndex()
	return s.id, x.count
}

// currentIndex brings the current journal's index up to date, as far as
// the lines are on disk.
func (s *Session) currentIndex() *lineIndex {
	path := s.jr.Path()
	if s.cur == nil || s.cur.path != path {
		s.cur = &lineIndex{path: path}
	}
	if s.jr.Pending() == 0 {
		// With nothing held, every complete line in the file is durable.
		err := s.cur.update()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			if msg := fmt.Sprintf("log: %v", err); msg != s.logErr {
				s.log(msg) // once, not at every request
				s.logErr = msg
			}
		} else {
			s.logErr = ""
		}
	}
	return s.cur
}

// LogLines returns the numbered lines from, from+1, ... of game, the
// current game or an archived one: at most maxLines lines and maxBytes
// bytes of text (at least one line if there is one). more says there are
// lines after them. A game the session does not have is a *NoGameError.
func (s *Session) LogLines(game string, from int64, maxLines, maxBytes int) (lines []string, more bool, err error) {
	if from < 1 {
		return nil, false, fmt.Errorf("line %d: lines are numbered from 1", from)
	}
	maxLines, maxBytes = max(maxLines, 1), max(maxBytes, clocklog.MaxLine+1)
	if game == s.id && game != "" {
		if s.jr == nil {
			return memLines(s.mem, from, maxLines, maxBytes)
		}
		return s.currentIndex().lines(from, maxLines, maxBytes)
	}
	if !validID(game) {
		return nil, false, &NoGameError{Game: game}
	}
	for _, a := range s.archived() {
		if a.id != game {
			continue
		}
		x := s.archiveIndex(a.path)
		if err := x.update(); err != nil {
			return nil, false, fmt.Errorf("game %s: %v", game, err)
		}
		return x.lines(from, maxLines, maxBytes)
	}
	return nil, false, &NoGameError{Game: game}
}

// archiveIndex returns the index of an archived game, keeping the two
// most recently asked for.
func (s *Session) archiveIndex(path string) *lineIndex {
	for i, x := range s.arch {
		if x.path == path {
			s.arch[0], s.arch[i] = s.arch[i], s.arch[0]
			return x
		}
	}
	x := &lineIndex{path: path}
	s.arch = append([]*lineIndex{x}, s.arch...)
	if len(s.arch) > 2 {
		s.arch = s.arch[:2]
	}
	return x
}

func memLines(all []string, from int64, maxLines, maxBytes int) ([]string, bool, error) {
	out := []string{}
	size := 0
	for i := from - 1; i < int64(len(all)); i++ {
		if len(out) == maxLines || len(out) > 0 && size+len(all[i]) > maxBytes {
			return out, true, nil
		}
		out = append(out, all[i])
		size += len(all[i])
	}
	return out, false, nil
}

// remember keeps a line in memory for a session without a journal, so
// that its game's lines can be served all the same.
func (s *Session) remember(b []byte) {
	if s.jr != nil {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if numbered([]byte(l)) {
			s.mem = append(s.mem, l)
		}
	}
}

// --- what the session reads back from a journal --------------------------

// lineText returns a journal line's text without its format 2 checksum,
// and false for a line whose checksum is wrong (damage).
func lineText(line []byte) ([]byte, bool) {
	text, summed, ok := clocklog.CheckLine(bytes.TrimRight(line, "\r\n"))
	if summed && !ok {
		return nil, false
	}
	return text, true
}

// journalNotes is what the session wrote into a journal for itself.
type journalNotes struct {
	id       string  // the game's id, from its first "game ID" comment
	overstep [2]bool // overstep marks carried over by a takeover, not cleared since
	damaged  bool    // a line with a wrong checksum was skipped
	settings *gameSettings
	presses  int         // press lines: the presses that completed a move
	board    boardRecord // the move and position lines (board.go)
}

// readGameID reads only a journal's id, which comes right after the header.
func readGameID(path string) string { return readNotes(path, true).id }

func readNotes(path string, idOnly bool) journalNotes {
	n := journalNotes{board: newBoardRecord()}
	f, err := regfile.Open(path, regfile.Opts{NoFollow: true})
	if err != nil {
		return n
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 32<<10)
	for k := 0; ; k++ {
		line, err := r.ReadSlice('\n')
		if err != nil || bytes.IndexByte(line, 0) >= 0 {
			return n
		}
		text, ok := lineText(line)
		if !ok {
			n.damaged = true
			continue
		}
		if c, ok := bytes.CutPrefix(text, []byte("#")); ok {
			c = bytes.TrimSpace(c)
			if id, ok := bytes.CutPrefix(c, []byte(idNote)); ok && n.id == "" && validID(string(id)) {
				n.id = string(id)
				if idOnly {
					return n
				}
			}
			if gs, ok := parseSettingsNote(string(c)); ok {
				n.settings = &gs
			}
			if side, ok := bytes.CutPrefix(c, []byte(overstepNote)); ok {
				if s, ok := parseSide(string(side)); ok {
					n.overstep[s] = true
				}
			}
			continue
		}
		if idOnly && k > 64 {
			return n // the id comes right after the header
		}
		f := strings.Fields(string(text))
		if n.readBoardLine(f) {
			continue
		}
		if len(f) == 3 && f[1] == clocklog.ClearOverstep.String() {
			if s, ok := parseSide(f[2]); ok {
				n.overstep[s] = false
			}
		}
	}
}

func parseSide(s string) (clock.Side, bool) {
	switch s {
	case "white":
		return clock.White, true
	case "black":
		return clock.Black, true
	}
	return clock.NoSide, false
}
