package store

import (
	"fmt"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

func statePayload(game string) *protocol.StateMsg {
	raw := fmt.Sprintf(`{"hall":"club","board":77,"game":%q,"time":1700000000000,"state":{"at":0,"running":"white","paused":false,"first_flag":"none",`+
		`"white":{"ms":300000,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":300000,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false,"warning":%q}}`, game, strings.Repeat("x", 60))
	m, err := protocol.ParseStateMsg([]byte(raw))
	if err != nil {
		panic(err)
	}
	return &m
}

// 40,000 valid states of new game ids grew boards/77.json to 5,840,928
// bytes, and the hall refused to start on it (the limit was 4,194,304).
// Now a board keeps MaxGames, its file stays under MaxBoardFile, and the
// store opens again on what it wrote.
func TestBoardFileBounded(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40000
	at := time.UnixMilli(1700000000000)
	for i := range n {
		s.PutState(77, statePayload(fmt.Sprintf("attack-%05d-%s", i, strings.Repeat("g", 22))), at)
		s.SetPlayers(77, fmt.Sprintf("attack-%05d-%s", i, strings.Repeat("g", 22)), Players{White: strings.Repeat("W", 1000), Black: "b"})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "boards", "77.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d states of new games: boards/77.json %d bytes, %d games refused", n, fi.Size(), s.Stats().RefusedGames)
	if fi.Size() > MaxBoardFile {
		t.Errorf("boards/77.json is %d bytes, more than %d", fi.Size(), MaxBoardFile)
	}
	if got := s.Stats().RefusedGames; got != n-MaxGames {
		t.Errorf("%d games refused, want %d", got, n-MaxGames)
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatalf("the store does not open on what it wrote: %v", err)
	}
	defer s2.Close()
	if b, _ := s2.Board(77); len(b.Games) != MaxGames || len(s2.Damaged()) != 0 {
		t.Errorf("after a restart: %d games, damaged %q", len(b.Games), s2.Damaged())
	}
}

// 20,500 one-line games kept a file open each, and after a restart the
// hall held 19,998 of its 20,000 fds. Now no file is held open, while
// running or after Open.
func TestNoFileHeldPerGame(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	before := openFDs(t)
	const boards, games = 3, 300
	for b := 1; b <= boards; b++ {
		for g := range games {
			if _, err := s.PutLine(b, fmt.Sprintf("g%04d", g), 1, clocklog.WithChecksum("format 2")); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	running := openFDs(t) - before
	s.Close()
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	reopened := openFDs(t) - before
	t.Logf("%d one-line games: %d more fds while running, %d after a restart", boards*games, running, reopened)
	if running > 5 || reopened > 5 {
		t.Errorf("%d and %d more fds, want none held per game", running, reopened)
	}
	if lines, _ := s2.Lines(3, "g0299"); len(lines) != 1 {
		t.Errorf("after a restart: %q", lines)
	}
}

// What one board can make the hall keep: MaxLines a game, MaxBoardBytes
// of lines.
func TestLinesBounded(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := int64(1); i <= MaxLines; i++ {
		if _, err := s.PutLine(4, "long", i, clocklog.WithChecksum("1 press white")); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if _, err := s.PutLine(4, "long", MaxLines+1, "x"); err == nil {
		t.Error("a line past MaxLines kept")
	}
	big := clocklog.WithChecksum(strings.Repeat("y", protocol.MaxLine-10)) // MaxLine bytes with its checksum
	kept := 0
	for g := 0; g < MaxGames && kept*protocol.MaxLine <= MaxBoardBytes+protocol.MaxLine; g++ {
		for i := int64(1); i <= 100; i++ {
			if ok, _ := s.PutLine(5, fmt.Sprintf("b%d", g), i, big); ok {
				kept++
			}
		}
	}
	if kept*protocol.MaxLine > MaxBoardBytes {
		t.Errorf("board 5 kept %d bytes of lines, more than %d", kept*protocol.MaxLine, MaxBoardBytes)
	}
}

// The store opens on a damaged directory, keeps what it can read, sets
// aside what it cannot and says so.
func TestOpensDamaged(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 5; i++ {
		s.PutLine(5, "g5", i, clocklog.WithChecksum(fmt.Sprintf("%d press white", i*1000)))
	}
	s.PutState(6, statePayload("0006-aaaaaa"), time.Now())
	s.Close()
	write := func(p, data string) {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	write("boards/3.json", `{"board": 3, "state": {`)
	os.Symlink("/etc/passwd", filepath.Join(dir, "boards", "4.json"))
	lines, _ := os.ReadFile(filepath.Join(dir, "games", "5", "g5.lines"))
	ls := strings.SplitAfter(string(lines), "\n")
	write("games/5/g5.lines", ls[0]+ls[1]+"garbage here\n"+ls[2]+ls[3]+ls[4]+"6 torn")
	os.MkdirAll(filepath.Join(dir, "games", "7"), 0o750)
	write("games/7/g7.lines", "\x00\x01\x02\n")
	s2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open on a damaged directory: %v", err)
	}
	defer s2.Close()
	dm := s2.Damaged()
	t.Logf("damaged: %q", dm)
	if len(dm) != 4 {
		t.Errorf("%d damaged, want 4 (3.json, 4.json, g5's line, g7)", len(dm))
	}
	for _, p := range []string{"boards/3.json.damaged", "boards/4.json.damaged", "games/5/g5.lines.damaged", "games/7/g7.lines.damaged"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if got, _ := s2.Lines(5, "g5"); len(got) != 5 {
		t.Errorf("board 5's readable lines: %q", got)
	}
	if b, ok := s2.Board(6); !ok || b.Game != "0006-aaaaaa" {
		t.Errorf("board 6 lost: %+v", b)
	}
	// Open again: nothing damaged any more, nothing lost.
	s2.Close()
	s3, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if dm := s3.Damaged(); len(dm) != 0 {
		t.Errorf("damaged after the second Open: %q", dm)
	}
	if got, _ := s3.Lines(5, "g5"); len(got) != 5 {
		t.Errorf("board 5's lines after the second Open: %q", got)
	}
}
