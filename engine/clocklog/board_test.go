package clocklog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// A board's lines read back as written, and say what is wrong with them
// naming the line.
func TestBoardLines(t *testing.T) {
	for _, tt := range []struct {
		line, err string
		ev        Event
	}{
		{line: "1250 move 1 e4 e2e4", ev: Event{At: 1250, Verb: BoardMove, Side: clock.NoSide, Value: 1, Board: BoardText{SAN: "e4", UCI: "e2e4"}}},
		{line: "9000 move 57 exd8=N+ e7d8n", ev: Event{At: 9000, Verb: BoardMove, Side: clock.NoSide, Value: 57, Board: BoardText{SAN: "exd8=N+", UCI: "e7d8n"}}},
		// A mate's '#' is the SAN's, not a comment (the mate of a game
		// was unreadable: "move takes 3 argument(s), got 2").
		{line: "240300 move 4 Qh4# d8h4", ev: Event{At: 240300, Verb: BoardMove, Side: clock.NoSide, Value: 4, Board: BoardText{SAN: "Qh4#", UCI: "d8h4"}}},
		{line: "9000 move 77 exf8=Q# e7f8q", ev: Event{At: 9000, Verb: BoardMove, Side: clock.NoSide, Value: 77, Board: BoardText{SAN: "exf8=Q#", UCI: "e7f8q"}}},
		{line: "9000 move 2 O-O-O e8c8", ev: Event{At: 9000, Verb: BoardMove, Side: clock.NoSide, Value: 2, Board: BoardText{SAN: "O-O-O", UCI: "e8c8"}}},
		// Mate: the '#' in the SAN starts no comment (read as one, it lost
		// every game's mating move in the hall's PGN, end to end).
		{line: "4000 move 4 Qh4# d8h4", ev: Event{At: 4000, Verb: BoardMove, Side: clock.NoSide, Value: 4, Board: BoardText{SAN: "Qh4#", UCI: "d8h4"}}},
		{line: "4000 move 61 bxa8=Q# b7a8q", ev: Event{At: 4000, Verb: BoardMove, Side: clock.NoSide, Value: 61, Board: BoardText{SAN: "bxa8=Q#", UCI: "b7a8q"}}},
		{line: "0 position 0 " + fen.StartFEN, ev: Event{At: 0, Verb: BoardPosition, Side: clock.NoSide, Value: 0, Board: BoardText{FEN: fen.StartFEN}}},
		{line: "70000 position 12 8/8/8/4k3/8/8/4K3/8 b - - 3 40", ev: Event{At: 70000, Verb: BoardPosition, Side: clock.NoSide, Value: 12, Board: BoardText{FEN: "8/8/8/4k3/8/8/4K3/8 b - - 3 40"}}},
		{line: "1250 move 0 e4 e2e4", err: `move: press number "0", want 1 to 9999`},
		{line: "1250 move 10000 e4 e2e4", err: `move: press number "10000", want 1 to 9999`},
		{line: "1250 move +1 e4 e2e4", err: `move: press number "+1"`},
		{line: "1250 move 1 e4", err: "move takes 3 argument(s), got 2: want 'move N SAN UCI'"},
		{line: "1250 move 1 e4 e2e4 x", err: "move takes 3 argument(s), got 4"},
		{line: "1250 move 1 e9 e2e4", err: `move 1: "e9" is not SAN`},
		{line: "1250 move 1 e4 e2e9", err: `move 1 e4: "e2e9" is not a UCI move`},
		{line: "1250 move 1 e8=Q e7e8k", err: `"e7e8k" is not a UCI move`},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", err: "position: FEN placement"},
		{line: "0 position 0 rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", err: `FEN rank 6: "9" is no piece`},
		{line: "0 position 0 rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", err: "FEN rank 6: 7 squares, want 8"},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", err: `side to move "x"`},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", err: `castling "KKkq"`},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", err: `en passant "e4"`},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", err: `move number "0"`},
		{line: "0 position 0 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", err: "position takes 7 argument(s), got 6"},
		{line: "0 position -1 " + fen.StartFEN, err: `position: press number "-1", want 0 to 9999`},
	} {
		l, err := Parse("game.log", strings.NewReader("control 300\n"+tt.line+"\n"))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "game.log:2: ") {
				t.Errorf("%q: error %v, want game.log:2: ...%s", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		if len(l.Events) != 1 || l.Events[0] != tt.ev {
			t.Errorf("%q: read %+v, want %+v", tt.line, l.Events, tt.ev)
			continue
		}
		if got := l.Events[0].String(); got != tt.line {
			t.Errorf("%q: written back as %q", tt.line, got)
		}
		b := AppendEvent(nil, l.Events[0])
		if l2, err := Parse("game.log", bytes.NewReader(append(AppendHeader(nil, l.Header), b...))); err != nil || len(l2.Events) != 1 || l2.Events[0] != tt.ev {
			t.Errorf("%q: format 2 round trip: %v %+v", tt.line, err, l2)
		}
	}
}

// What the board says changes no clock: a game with its move and position
// lines replays as the same game without them.
func TestBoardLinesChangeNoClock(t *testing.T) {
	with := "control 300+2\n0 position 0 " + fen.StartFEN + "\n0 start\n4000 press white\n4250 move 1 e4 e2e4\n9000 press black\n9600 move 2 c5 c7c5\n9700 pause\n12000 resume\n15000 press white\n15001 move 3 Nf3 g1f3\n20000 show\n"
	var without []string
	for _, line := range strings.Split(with, "\n") {
		if !strings.Contains(line, " move ") && !strings.Contains(line, " position ") {
			without = append(without, line)
		}
	}
	var states [2]clock.State
	for i, text := range []string{with, strings.Join(without, "\n")} {
		l, err := Parse("game.log", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Replay(l, Handlers{})
		if err != nil {
			t.Fatal(err)
		}
		states[i] = c.State(20000)
	}
	if states[0] != states[1] {
		t.Errorf("with the board's lines %+v, without %+v", states[0], states[1])
	}
}

func TestBoardOf(t *testing.T) {
	text := "control 300\n0 start\n4000 press white\n4250 move 1 e4 e2e4\n9000 press black\n15000 press white\n15001 move 3 Nf3 g1f3\n15002 move 1 d4 d2d4\n16000 pause\n16500 position 3 8/8/8/4k3/8/8/4K3/8 b - - 0 2\n17000 resume\n18000 press black\n18100 move 4 Kd5 e5d5\n"
	l, err := Parse("game.log", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	b := BoardOf(l)
	if strings.Join(b.SAN, ",") != "d4,,Nf3,Kd5" || strings.Join(b.UCI, ",") != "d2d4,,g1f3,e5d5" || b.FEN != "" || b.Reset != 3 || b.ResetFEN != "8/8/8/4k3/8/8/4K3/8 b - - 0 2" {
		t.Errorf("BoardOf = %+v", b)
	}
	san, fen := b.PGNMoves()
	if strings.Join(san, ",") != "d4,,Nf3" || fen != "" {
		t.Errorf("PGNMoves = %q, %q: want the moves up to the set-up at press 3", san, fen)
	}
}

// The PGN takes the log's moves when the game gives none, and the set-up
// position as SetUp and FEN.
func TestPGNFromBoardLines(t *testing.T) {
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	text := "control 300\n0 position 0 " + fen + "\n0 turn black\n0 start\n4000 press black\n4300 move 1 c5 c7c5\n9000 press white\n9100 move 2 Nf3 g1f3\n"
	l, err := Parse("game.log", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePGN(l, &b, PGNGame{}); err != nil {
		t.Fatal(err)
	}
	pgn := strings.ReplaceAll(b.String(), "}\n*", "} *")
	for _, want := range []string{"[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n", "1... c5 {[%clk 0:04:56] [%emt 0:00:04]} 2. Nf3 {[%clk 0:04:55] [%emt 0:00:05]} *"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN has no %q:\n%s", want, pgn)
		}
	}
	// Moves given by the game win over the log's.
	b.Reset()
	if err := WritePGN(l, &b, PGNGame{Moves: []string{}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "c5") || strings.Contains(b.String(), "FEN") {
		t.Errorf("PGN with Moves given as none still has the log's:\n%s", b.String())
	}
}
