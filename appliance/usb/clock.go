package usb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// What the exporter reads of the state directory. It only reads: every
// file is opened through regfile without following a final symbolic link
// (a link, a pipe or a device in a game's place is skipped and said), and
// bounded.
const (
	// maxGames bounds the names read from games/: the journal keeps
	// journal.Keep (100).
	maxGames = 1000
	// DefaultMaxGame bounds one finished game's log.
	DefaultMaxGame = 16 << 20
	// maxJournal bounds the running game's journal, its zero padding
	// included.
	maxJournal = 64 << 20
)

// game is a finished game in the state directory's games/ folder.
type game struct {
	num     string // "0012", from games/0012.log
	path    string
	modTime time.Time
	hash    string
}

// finishedGames lists the finished games, oldest (lowest number) first,
// with their hashes. A name that is not NNNN.log is not a game; a game
// that cannot be read is left out and said in problems.
func finishedGames(stateDir string, max int64) (games []game, problems []string, err error) {
	dir := filepath.Join(stateDir, journal.Archive)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		return nil, []string{dir + ": not a directory: no finished games read"}, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		num, ok := strings.CutSuffix(e.Name(), ".log")
		if !ok || !digits(num, 1, 9) {
			continue
		}
		if len(games) == maxGames {
			problems = append(problems, fmt.Sprintf("%s: more than %d games: the rest not read", dir, maxGames))
			break
		}
		p := filepath.Join(dir, e.Name())
		data, mt, err := readGame(p, max)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		games = append(games, game{num: num, path: p, modTime: mt, hash: hashOf(data)})
	}
	sort.Slice(games, func(i, j int) bool {
		a, _ := strconv.Atoi(games[i].num)
		b, _ := strconv.Atoi(games[j].num)
		return a < b
	})
	return games, problems, nil
}

// readGame reads a finished game's log and its modification time (when
// it was archived: the game ended then, or a little before).
func readGame(path string, max int64) ([]byte, time.Time, error) {
	f, err := regfile.Open(path, regfile.Opts{Max: max, NoFollow: true})
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, time.Time{}, fmt.Errorf("%s: larger than %d bytes: not read", path, max)
	}
	return data, fi.ModTime(), nil
}

func hashOf(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:8])
}

// currentJournal returns the running game's journal: game.log, or the
// newest game-G.log (see appliance/journal), "" if there is none.
func currentJournal(stateDir string) (string, error) {
	ents, err := os.ReadDir(stateDir)
	if err != nil {
		return "", err
	}
	best, bestGen := "", -1
	for _, e := range ents {
		g := -1
		if e.Name() == journal.File {
			g = 0
		} else if s, ok := strings.CutPrefix(e.Name(), "game-"); ok {
			if s, ok = strings.CutSuffix(s, ".log"); ok && digits(s, 1, 9) && s[0] != '0' {
				g, _ = strconv.Atoi(s)
			}
		}
		if g > bestGen {
			best, bestGen = filepath.Join(stateDir, e.Name()), g
		}
	}
	return best, nil
}

// readJournal reads the running game's journal as far as its last whole
// line: without its zero padding (journal.Unpad), and without a line the
// daemon may be writing at this moment.
func readJournal(path string) ([]byte, time.Time, error) {
	f, err := regfile.Open(path, regfile.Opts{Max: maxJournal, NoFollow: true})
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	data, err := io.ReadAll(io.LimitReader(journal.Unpad(f), maxJournal))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read %s: %w", path, err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	} else {
		data = nil
	}
	return data, fi.ModTime(), nil
}

// storage is the state directory's health, for the status file.
type storage struct {
	free, size    uint64 // bytes of the file system
	damaged, kept int    // journals kept aside (game.log.damaged.N, game.log.kept.N)
	err           error
}

func storageOf(stateDir string) storage {
	var s storage
	var st unix.Statfs_t
	if err := unix.Statfs(stateDir, &st); err != nil {
		s.err = err
	} else {
		s.free = st.Bavail * uint64(st.Bsize)
		s.size = st.Blocks * uint64(st.Bsize)
	}
	ents, err := os.ReadDir(stateDir)
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return s
	}
	for _, e := range ents {
		switch {
		case strings.HasPrefix(e.Name(), journal.File+"."+journal.Damaged):
			s.damaged++
		case strings.HasPrefix(e.Name(), journal.File+"."+journal.Kept):
			s.kept++
		}
	}
	return s
}

// hallBoard returns the board number of the [hall] table of the config
// file at path (see appliance/link), 0 if it has none or cannot be read.
// Only the number is wanted here: the link checks the table.
func hallBoard(path string) int {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: 1 << 20})
	if err != nil {
		return 0
	}
	doc, err := tomldoc.Parse(data)
	if err != nil {
		return 0
	}
	hall := doc.Root.Get("hall")
	if hall == nil || hall.Table() == nil {
		return 0
	}
	b := hall.Table().Get("board")
	if b == nil {
		return 0
	}
	if n, ok := b.V.(int64); ok && n >= 1 && n <= 9999 {
		return int(n)
	}
	return 0
}
