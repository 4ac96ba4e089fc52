// Package store keeps what the hall received from its clocks: each board's
// last state, presence and reply, and every game's log lines, on disk in
// the hall's data directory so that a restart loses nothing.
//
// The layout of the directory:
//
//	boards/N.json          board N: its last state and online messages, when
//	                       they arrived, the players the hall set; rewritten
//	                       at most once a second while it changes
//	games/N/GAME.lines     every log line of board N's game GAME received,
//	                       one "SEQ LINE" a line, in the order received, no
//	                       seq twice; appended before the broker acknowledges
//	                       the line to the clock (embedded broker) or before
//	                       the hall acknowledges it to the broker
//
// What one board can make the hall keep is bounded: MaxGames games,
// MaxLines lines a game, MaxBoardBytes bytes of lines in all, and a
// boards/N.json the store can read back (MaxBoardFile). No file is held
// open: a line is appended by opening the game's file, writing, closing.
//
// Open starts on any directory the store wrote and on a damaged one: what
// it cannot read is set aside (renamed to NAME.damaged, a game's
// unreadable lines copied there and the readable ones kept), and Damaged
// says what, for the arbiter's page.
//
// Log lines are kept by seq: a duplicate (QoS 1 sends a line again after
// a lost acknowledgement) is dropped, a line after a gap is kept and
// waited on: Lines gives lines 1, 2, ... up to the first missing one.
//
// Every change is announced to the subscribers (Subscribe) with the board
// it concerns, in the order the store took it.
package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/clip"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// MaxLines is the most lines one game keeps; a game that goes past it is
// damage or an attack, not chess (a long game's log is under 2,000).
const MaxLines = 20000

// MaxGames is the most games one board keeps: a state or line of a new
// game past it is refused (a board plays a few games an evening; a new
// event starts a new data directory).
const MaxGames = 500

// MaxBoardBytes is the most bytes of log lines one board keeps, all its
// games together.
const MaxBoardBytes = 16 << 20

// MaxBoardFile is the largest boards/N.json the store writes; Open reads
// up to MaxBoardRead, so whatever it wrote, also before these bounds, it
// reads back.
const MaxBoardFile = 4 << 20

// MaxBoardRead is the largest boards/N.json Open reads.
const MaxBoardRead = 64 << 20

// MaxPlayer is the longest player's name kept, in bytes.
const MaxPlayer = 200

// Players are the names the hall set for a board's game.
type Players = protocol.Players

// Board is what the store knows of one board.
type Board struct {
	Board int `json:"board"`
	// State is the last state message, decoded once at intake (its
	// status as the clock published it is State.Raw); nil if none came.
	// A message is never changed in place: a new one replaces it.
	State *protocol.StateMsg `json:"state,omitempty"`
	// StateAt is when the hall received State, Unix ms.
	StateAt int64 `json:"state_at,omitempty"`
	// Online is the last online message, nil if none came.
	Online *protocol.OnlineMsg `json:"online,omitempty"`
	// OnlineAt is when the hall received Online, Unix ms.
	OnlineAt int64 `json:"online_at,omitempty"`
	// Reply is the last reply to a command.
	Reply *protocol.Reply `json:"reply,omitempty"`
	// ReplyAt is when the hall received Reply, Unix ms.
	ReplyAt int64 `json:"reply_at,omitempty"`
	// Game is the game of the last state that named one.
	Game string `json:"game,omitempty"`
	// Games are the ids of the games the store has lines or states of,
	// in the order first seen.
	Games []string `json:"games,omitempty"`
	// Players by game id.
	Players map[string]Players `json:"players,omitempty"`
	// Pairings are, by game id, the round and board each game was
	// opened for (the state's pairing): the hall binds a round's board
	// to the game that carries it, never by the players' names.
	Pairings map[string]protocol.Pairing `json:"pairings,omitempty"`
	// Started is when each game's clock was first seen running, Unix ms
	// on the board's clock (the time of the first state of the game with
	// started true): the game's date in its PGN.
	Started map[string]int64 `json:"started,omitempty"`
	// NextPlayers are names set for the board's next game, not yet started.
	NextPlayers *Players `json:"next_players,omitempty"`
	// Takeovers are the games this board's clock took over as a spare
	// (takeover.go), oldest first; AskedTakeover is one the hall sent and
	// the spare has not answered.
	Takeovers     []Takeover `json:"takeovers,omitempty"`
	AskedTakeover *Takeover  `json:"asked_takeover,omitempty"`
	// ReplacedBy is the spare clock that last took over this board's
	// game (Store.Replaced says whether it still carries it).
	ReplacedBy int `json:"replaced_by,omitempty"`
	// BoardStatus is, by game id, the board status (an electronic
	// board's, FIDE 6.14) of the game's last state that had one (moves.go).
	BoardStatus map[string]protocol.BoardStatus `json:"board_status,omitempty"`
	// Epoch is, by game id, the Unix ms of the game's log instant 0 on the
	// board's clock (a state's time less its at): the round's feed cuts a
	// game's log at a wall-clock instant (its broadcast delay).
	Epoch map[string]int64 `json:"epoch,omitempty"`
	// Key is the public key the hall knows the board by (keys.go,
	// protocol.FormatKey), "" while it knows none; KeyFrom says how it
	// came to know it: KeyLearned, KeyConfirmed or KeyConfigured.
	Key     string `json:"key,omitempty"`
	KeyFrom string `json:"key_from,omitempty"`
	// OtherKey is another key the board's online message offered after
	// Key: a key change, shown to the arbiter and never used unless the
	// arbiter confirms it.
	OtherKey string `json:"other_key,omitempty"`
	// Version counts the changes of the board in this run of the hall.
	Version uint64 `json:"-"`
}

// IsOnline reports whether the board's last online message says online.
func (b *Board) IsOnline() bool { return b.Online != nil && b.Online.Online }

func (b *Board) clone() Board {
	c := *b
	c.Games = slices.Clone(b.Games)
	if b.Players != nil {
		c.Players = make(map[string]Players, len(b.Players))
		for k, v := range b.Players {
			c.Players[k] = v
		}
	}
	if b.NextPlayers != nil {
		p := *b.NextPlayers
		c.NextPlayers = &p
	}
	c.Started = maps.Clone(b.Started)
	c.Takeovers = slices.Clone(b.Takeovers)
	if b.AskedTakeover != nil {
		t := *b.AskedTakeover
		c.AskedTakeover = &t
	}
	c.BoardStatus = maps.Clone(b.BoardStatus)
	c.Epoch = maps.Clone(b.Epoch)
	c.Pairings = maps.Clone(b.Pairings)
	return c
}

// GameOf is the last game of the board that carries round's pairing for
// board (Pairings), "" when none does.
func (b *Board) GameOf(round, board int) string {
	want := protocol.Pairing{Round: round, Board: board}
	for i := len(b.Games) - 1; i >= 0; i-- {
		if b.Pairings[b.Games[i]] == want {
			return b.Games[i]
		}
	}
	return ""
}

// game is one game's lines.
type game struct {
	lines []string         // lines 1..len: contiguous from 1
	ahead map[int64]string // lines after a gap
	// conflicts are the lines that met another for their seq (lines.go)
	conflicts []Conflict
	// heldTaken are the seqs of lines taken from ahead when their gap
	// filled, not in order: they never block a line that comes in order.
	heldTaken map[int64]bool
	// lastEvent is the last of lines that is an event (0: none), and
	// lastAt its instant: the next line must not go back from it.
	lastEvent, lastAt int64
	seen              int // how many lines the file holds
	// rd reads the lines as they come (log.go): lines[:fed] are read,
	// and events of them are in board. nil: to be read from line 1.
	rd     *clocklog.Reader
	fed    int
	events int
	// unchecked: lines[:unchecked] were read back from the game's file
	// and their checksums not checked yet (the Reader checks them);
	// PutLine checked every line after them (checkSum), once.
	unchecked int
	// board is what the lines' move and position lines say (moves.go).
	board clocklog.Board
	// version is the store's logVersion when the lines last changed.
	version uint64
	// whole is the log read whole when rd stopped, at its version.
	whole *GameLog
}

type key struct {
	board int
	game  string
}

// Stats count what the store refused or dropped since it started.
type Stats struct {
	Duplicates int64 // log lines received again, dropped
	Refused    int64 // log lines refused (too long, too many)
	// RefusedGames counts states and lines of a new game refused because
	// the board has MaxGames.
	RefusedGames int64
	// Parsed counts the log lines the store read into games' logs
	// (log.go): each line once as it arrives, again only when a game's
	// reading starts over or a log is read whole.
	Parsed int64
}

// Store is the hall's data. Its methods are safe for concurrent use.
type Store struct {
	dir string

	mu        sync.Mutex
	boards    map[int]*Board
	games     map[key]*game
	bytes     map[int]int64 // bytes of lines kept, by board
	dirty     map[int]bool
	unsynced  map[key]bool // game files written since the last Flush
	damaged   []string
	boardErrs map[int]string // boards whose file could not be written
	subs      map[*Sub]struct{}
	stats     Stats
	closed    bool
	// logVersion counts the changes of every game's lines (GameLog).
	logVersion uint64
	// version counts every change of the boards (Version).
	version uint64

	flushStop chan struct{}
	flushDone chan struct{}
}

// Opts are a store's options; the zero value is the defaults.
type Opts struct {
	// Clock ticks the store's flush, once a second; nil is the real one.
	Clock wallclock.Clock
}

// Open opens (creating it if needed) the store in dir and reads what an
// earlier run kept.
func Open(dir string) (*Store, error) { return OpenWith(dir, Opts{}) }

// OpenWith is Open with options.
func OpenWith(dir string, o Opts) (*Store, error) {
	for _, d := range []string{dir, filepath.Join(dir, "boards"), filepath.Join(dir, "games")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("hall data: %w", err)
		}
	}
	s := &Store{dir: dir, boards: map[int]*Board{}, games: map[key]*game{}, bytes: map[int]int64{}, dirty: map[int]bool{}, unsynced: map[key]bool{},
		boardErrs: map[int]string{}, subs: map[*Sub]struct{}{}, flushStop: make(chan struct{}), flushDone: make(chan struct{})}
	if err := s.load(); err != nil {
		return nil, err
	}
	go s.flusher(wallclock.Or(o.Clock).NewTicker(time.Second))
	return s, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) load() error {
	ents, err := os.ReadDir(filepath.Join(s.dir, "boards"))
	if err != nil {
		return fmt.Errorf("hall data: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		n, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if !strings.HasSuffix(name, ".json") || err != nil || n < 1 {
			continue
		}
		p := filepath.Join(s.dir, "boards", name)
		data, err := regfile.ReadFile(p, regfile.Opts{Max: MaxBoardRead, NoFollow: true})
		b := &Board{}
		if err == nil {
			err = json.Unmarshal(data, b)
		}
		if err != nil {
			s.setAside(p, fmt.Sprintf("board %d's file: %v", n, err))
			continue
		}
		b.Board = n
		s.boards[n] = b
	}
	gdirs, err := os.ReadDir(filepath.Join(s.dir, "games"))
	if err != nil {
		return fmt.Errorf("hall data: %w", err)
	}
	for _, d := range gdirs {
		n, err := strconv.Atoi(d.Name())
		if err != nil || n < 1 || !d.IsDir() {
			continue
		}
		dir := filepath.Join(s.dir, "games", d.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			s.damaged = append(s.damaged, fmt.Sprintf("%s: %v (left as it is)", dir, err))
			continue
		}
		var refused []string
		for _, f := range files {
			if id, ok := strings.CutSuffix(f.Name(), refusedSuffix); ok && protocol.ValidGame(id) {
				refused = append(refused, id)
			}
			id, ok := strings.CutSuffix(f.Name(), ".lines")
			if !ok || !protocol.ValidGame(id) {
				continue
			}
			s.loadGame(n, id)
		}
		for _, id := range refused {
			s.loadRefused(n, id) // after the lines: the evidence names the line kept
		}
	}
	return nil
}

// setAside renames what the store cannot read to NAME.damaged (.damaged-2,
// ... if that is taken) and notes it; s.mu need not be held (Open).
func (s *Store) setAside(p, why string) string {
	to := p + ".damaged"
	for i := 2; i < 100; i++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s.damaged-%d", p, i)
	}
	if err := os.Rename(p, to); err != nil {
		s.damaged = append(s.damaged, fmt.Sprintf("%s: %s; it could not be set aside: %v", p, why, err))
		return ""
	}
	s.damaged = append(s.damaged, fmt.Sprintf("%s: %s; set aside as %s", p, why, filepath.Base(to)))
	return to
}

// loadGame reads a .lines file. A last line without its newline (the hall
// stopped while writing it) is dropped: the clock sends it again, as the
// broker never acknowledged it. A file with lines it cannot read is copied
// to .damaged and rewritten with the lines it can.
func (s *Store) loadGame(board int, id string) {
	p := s.gamePath(board, id)
	data, err := regfile.ReadFile(p, regfile.Opts{Max: MaxLines * (protocol.MaxLine + 24), NoFollow: true})
	if err != nil {
		s.setAside(p, fmt.Sprintf("board %d game %s: %v", board, id, err))
		return
	}
	g := &game{ahead: map[int64]string{}}
	var good []byte
	var bad []string
	lineNo := 0
	rest := data
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break // a torn last line: cut off
		}
		raw := rest[:i+1]
		rest = rest[i+1:]
		lineNo++
		txt := string(raw[:i])
		seqS, line, ok := strings.Cut(txt, " ")
		seq, perr := strconv.ParseInt(seqS, 10, 64)
		if !ok || perr != nil || seq < 1 || len(line) > protocol.MaxLine || strings.ContainsRune(line, '\r') {
			if len(bad) < 3 {
				bad = append(bad, fmt.Sprintf("line %d %q", lineNo, clip.Text(txt, 60)))
			}
			continue
		}
		// Every record is kept: another line for a seq is a conflict
		// again (lines.go), the evidence the arbiter's page shows.
		g.add(seq, line)
		good = append(good, raw...)
		g.seen++
		s.bytes[board] += int64(len(line))
	}
	if len(bad) > 0 {
		if err := os.WriteFile(p+".damaged", data, 0o640); err != nil {
			s.damaged = append(s.damaged, fmt.Sprintf("%s: unreadable lines (%s); the copy could not be kept: %v", p, strings.Join(bad, ", "), err))
		} else {
			s.damaged = append(s.damaged, fmt.Sprintf("%s: unreadable lines (%s); the file as it was is %s.damaged, the %d readable lines kept", p, strings.Join(bad, ", "), filepath.Base(p), g.seen))
		}
	}
	if len(bad) > 0 || len(good) != len(data) {
		if err := atomicfile.WriteFile(p, good, 0o640); err != nil {
			s.damaged = append(s.damaged, fmt.Sprintf("%s: %v", p, err))
		}
	}
	g.unchecked = len(g.lines)
	g.read(s, board, id)
	s.games[key{board, id}] = g
	b := s.board(board)
	if !slices.Contains(b.Games, id) {
		b.Games = append(b.Games, id)
	}
}

// Damaged says what Open found damaged in the data directory and set
// aside, one sentence each; nil for none.
func (s *Store) Damaged() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.damaged)
	for n, e := range s.boardErrs {
		out = append(out, fmt.Sprintf("board %d: %s", n, e))
	}
	return out
}

func (s *Store) gamePath(board int, id string) string {
	return filepath.Join(s.dir, "games", strconv.Itoa(board), id+".lines")
}

// board returns board n, created if needed; s.mu held.
func (s *Store) board(n int) *Board {
	b := s.boards[n]
	if b == nil {
		b = &Board{Board: n}
		s.boards[n] = b
	}
	return b
}

// changed marks board n changed and tells the subscribers; s.mu held.
func (s *Store) changed(b *Board, what Change) {
	b.Version++
	s.version++
	s.dirty[b.Board] = true
	if len(s.subs) == 0 {
		return
	}
	ev := Event{Board: b.Board, What: what, Version: b.Version}
	if what != LogChange {
		ev.Snap = b.clone()
	}
	for sub := range s.subs {
		select {
		case sub.C <- ev:
		default:
			sub.overflow = true
			if !sub.closed {
				sub.closed = true
				close(sub.C)
			}
			delete(s.subs, sub)
		}
	}
}

// Change says what changed on a board.
type Change uint8

// The changes.
const (
	StateChange Change = iota + 1
	OnlineChange
	ReplyChange
	LogChange
	PlayersChange
	// MovesChange is a log line that is a move or position line (an
	// electronic board's), once the lines before it are there: the
	// views show the moves.
	MovesChange
)

// Event tells a subscriber that a board changed.
type Event struct {
	Board   int
	What    Change
	Version uint64
	// Snap is the board as this change left it (not for LogChange): a
	// subscriber that shows every change sees each state, even when the
	// next one has come in since.
	Snap Board
}

// Sub is a subscription to the store's changes.
type Sub struct {
	// C delivers the events. It is closed when the subscriber fell
	// behind by more than its buffer (Overflowed then says so), or by
	// Unsubscribe.
	C        chan Event
	overflow bool
	closed   bool
}

// Subscribe returns a subscription with room for buffer events.
func (s *Store) Subscribe(buffer int) *Sub {
	sub := &Sub{C: make(chan Event, buffer)}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	return sub
}

// Unsubscribe ends sub.
func (s *Store) Unsubscribe(sub *Sub) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs, sub)
	if !sub.closed {
		sub.closed = true
		close(sub.C)
	}
}

// Overflowed reports whether sub was closed because it fell behind.
func (s *Store) Overflowed(sub *Sub) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sub.overflow
}

// PutState keeps board n's state message (already checked: see
// protocol.ParseStateMsg), received at at. The store keeps m; the caller
// does not change it after.
func (s *Store) PutState(n int, m *protocol.StateMsg, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	b.State = m
	b.StateAt = at.UnixMilli()
	game := m.Game
	if game != "" {
		if b.Game != game && b.NextPlayers != nil {
			// Names set for the next game belong to the game that
			// follows the one they were set during.
			if b.Players == nil {
				b.Players = map[string]Players{}
			}
			if _, ok := b.Players[game]; !ok {
				b.Players[game] = *b.NextPlayers
			}
			b.NextPlayers = nil
		}
		b.Game = game
		takeoverState(b, game)
		if !slices.Contains(b.Games, game) {
			if len(b.Games) >= MaxGames {
				// The state is the board's last all the same; its game
				// is not kept.
				s.stats.RefusedGames++
				s.changed(b, StateChange)
				return
			}
			b.Games = append(b.Games, game)
		}
		if p := m.State.Pairing; p != nil {
			if _, ok := b.Pairings[game]; !ok {
				if b.Pairings == nil {
					b.Pairings = map[string]protocol.Pairing{}
				}
				b.Pairings[game] = *p
				// The names came with the pairing: the game's own,
				// whatever the hall sent the board since.
				if pl := m.State.Players; pl != nil {
					if b.Players == nil {
						b.Players = map[string]Players{}
					}
					b.Players[game] = Players{White: clip.Bytes(pl.White, MaxPlayer), Black: clip.Bytes(pl.Black, MaxPlayer)}
				}
			}
		}
		if bs := m.State.Board; bs != nil {
			if b.BoardStatus == nil {
				b.BoardStatus = map[string]protocol.BoardStatus{}
			}
			b.BoardStatus[game] = *bs
		}
		if m.Time > 0 {
			if b.Epoch == nil {
				b.Epoch = map[string]int64{}
			}
			b.Epoch[game] = m.Time - m.State.At
		}
		if _, ok := b.Started[game]; !ok {
			if ms := m.Time; m.State.Started && ms > 0 {
				if b.Started == nil {
					b.Started = map[string]int64{}
				}
				b.Started[game] = ms
			}
		}
	}
	s.changed(b, StateChange)
}

// PutOnline keeps board n's online message.
func (s *Store) PutOnline(n int, m protocol.OnlineMsg, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	b.Online = &m
	b.OnlineAt = at.UnixMilli()
	s.changed(b, OnlineChange)
}

// PutReply keeps board n's last reply, received at at.
func (s *Store) PutReply(n int, m protocol.Reply, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	b.Reply = &m
	b.ReplyAt = at.UnixMilli()
	src := s.takeoverReply(b, m, at)
	s.changed(b, ReplyChange)
	if src != 0 {
		s.changed(s.boards[src], ReplyChange) // its game is on the spare now
	}
}

// SetPlayers records the names the hall sent board n for game (""
// for the board's current game if it has not started, else the next).
func (s *Store) SetPlayers(n int, game string, p Players) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.board(n)
	p.White, p.Black = clip.Bytes(p.White, MaxPlayer), clip.Bytes(p.Black, MaxPlayer)
	if game == "" {
		p2 := p
		b.NextPlayers = &p2
	} else {
		if _, ok := b.Players[game]; !ok && !slices.Contains(b.Games, game) && len(b.Players) >= MaxGames {
			return
		}
		if b.Players == nil {
			b.Players = map[string]Players{}
		}
		b.Players[game] = p
	}
	s.changed(b, PlayersChange)
}

// ErrLine is returned by PutLine for a line it refuses.
var ErrLine = errors.New("log line refused")

// PutLine keeps line seq of board n's game, appending it to the game's
// file before it returns. A seq it has is dropped (false, nil).
func (s *Store) PutLine(n int, id string, seq int64, line string) (bool, error) {
	if !protocol.ValidGame(id) || seq < 1 || seq > MaxLines || len(line) > protocol.MaxLine || strings.ContainsAny(line, "\n\r") {
		s.mu.Lock()
		s.stats.Refused++
		s.mu.Unlock()
		return false, fmt.Errorf("%w: board %d game %q seq %d", ErrLine, n, id, seq)
	}
	if err := checkSum(line); err != nil {
		s.mu.Lock()
		s.stats.Refused++
		s.mu.Unlock()
		return false, fmt.Errorf("%w: board %d game %s line %d: %v", ErrLine, n, id, seq, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, errors.New("hall data: closed")
	}
	k := key{n, id}
	g := s.games[k]
	if dup, err := g.judge(seq, line); dup || err != nil {
		if dup {
			s.stats.Duplicates++
		} else {
			s.stats.Refused++
			err = fmt.Errorf("%w: board %d game %s line %d: %v", ErrLine, n, id, seq, err)
		}
		return false, err
	}
	b := s.board(n)
	if g == nil && !slices.Contains(b.Games, id) && len(b.Games) >= MaxGames {
		s.stats.RefusedGames++
		return false, fmt.Errorf("%w: board %d has %d games, the most the hall keeps of one board", ErrLine, n, MaxGames)
	}
	if g != nil && g.seen >= MaxLines {
		s.stats.Refused++
		return false, fmt.Errorf("%w: board %d game %s has %d lines already", ErrLine, n, id, g.seen)
	}
	if s.bytes[n]+int64(len(line)) > MaxBoardBytes {
		s.stats.Refused++
		return false, fmt.Errorf("%w: board %d has %d bytes of lines, the most the hall keeps of one board", ErrLine, n, s.bytes[n])
	}
	if g == nil {
		if err := os.MkdirAll(filepath.Dir(s.gamePath(n, id)), 0o750); err != nil {
			return false, fmt.Errorf("hall data: %w", err)
		}
		g = &game{ahead: map[int64]string{}}
		s.games[k] = g
		if !slices.Contains(b.Games, id) {
			b.Games = append(b.Games, id)
		}
	}
	rec := strconv.AppendInt(nil, seq, 10)
	rec = append(rec, ' ')
	rec = append(rec, line...)
	rec = append(rec, '\n')
	if err := appendFile(s.gamePath(n, id), rec); err != nil {
		return false, err
	}
	s.unsynced[k] = true
	s.bytes[n] += int64(len(line))
	g.seen++
	g.add(seq, line)
	what := LogChange
	if g.read(s, n, id) {
		what = MovesChange
	}
	s.changed(s.board(n), what)
	return true, nil
}

// appendFile appends rec to the file p, created if needed, and closes it:
// the store holds no file open.
func appendFile(p string, rec []byte) error {
	f, err := regfile.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640, regfile.Opts{NoFollow: true})
	if err != nil {
		return fmt.Errorf("hall data: %w", err)
	}
	_, err = f.Write(rec)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("hall data: %s: %v", p, err)
	}
	return nil
}

// Lines returns board n's game lines 1, 2, ... up to the first missing
// one, and how many lines after that gap it holds.
func (s *Store) Lines(n int, id string) (lines []string, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[key{n, id}]
	if g == nil {
		return nil, 0
	}
	return slices.Clone(g.lines), len(g.ahead)
}

// Missing returns the first line of board n's game id the store lacks (1
// for a game it has no line of), and how many lines it holds after that
// gap: what to ask the board's link to send again.
func (s *Store) Missing(n int, id string) (first int64, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[key{n, id}]
	if g == nil {
		return 1, 0
	}
	return int64(len(g.lines)) + 1, len(g.ahead)
}

// Version counts the changes of the boards and their games: it is the
// same while nothing the store holds changed.
func (s *Store) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Game returns the game of board n's last state that named one, or "".
func (s *Store) Game(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.boards[n]; ok {
		return b.Game
	}
	return ""
}

// Board returns a copy of board n, or false.
func (s *Store) Board(n int) (Board, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.boards[n]
	if !ok {
		return Board{}, false
	}
	return b.clone(), true
}

// Boards returns copies of every board, by number.
func (s *Store) Boards() []Board {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Board, 0, len(s.boards))
	for _, b := range s.boards {
		out = append(out, b.clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Board < out[j].Board })
	return out
}

// Stats returns the counts of refused and duplicate lines.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// flusher flushes the store at each tick of t.
func (s *Store) flusher(t wallclock.Ticker) {
	defer close(s.flushDone)
	defer t.Stop()
	for {
		select {
		case <-s.flushStop:
			return
		case <-t.C():
			s.Flush()
		}
	}
}

// Flush writes the boards that changed to disk and syncs the game files.
func (s *Store) Flush() error {
	s.mu.Lock()
	var todo []Board
	for n := range s.dirty {
		todo = append(todo, s.boards[n].clone())
	}
	clear(s.dirty)
	var files []string
	for k := range s.unsynced {
		files = append(files, s.gamePath(k.board, k.game))
	}
	clear(s.unsynced)
	s.mu.Unlock()
	var errs []error
	for _, b := range todo {
		err := s.writeBoard(b)
		s.mu.Lock()
		if err != nil {
			s.boardErrs[b.Board] = err.Error()
		} else {
			delete(s.boardErrs, b.Board)
		}
		s.mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range files {
		if f, err := regfile.OpenFile(p, os.O_RDONLY, 0, regfile.Opts{NoFollow: true}); err == nil {
			f.Sync()
			f.Close()
		}
	}
	return errors.Join(errs...)
}

func (s *Store) writeBoard(b Board) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	p := filepath.Join(s.dir, "boards", strconv.Itoa(b.Board)+".json")
	if len(data) > MaxBoardFile {
		// Never write what Open could not read back; the file on disk
		// stays as it was.
		return fmt.Errorf("hall data: %s: %d bytes, more than the %d the store writes; the file on disk is the last one that fitted", p, len(data), MaxBoardFile)
	}
	if err := atomicfile.WriteFile(p, data, 0o640); err != nil {
		return fmt.Errorf("hall data: %w", err)
	}
	return nil
}

// Close writes what is pending and closes the files.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	close(s.flushStop)
	<-s.flushDone
	err := s.Flush()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for sub := range s.subs {
		if !sub.closed {
			sub.closed = true
			close(sub.C)
		}
	}
	clear(s.subs)
	return err
}
