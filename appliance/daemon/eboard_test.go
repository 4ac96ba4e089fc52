package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

const fenE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

// eboardAsk is one e-board request as the loop handles it: a Step only
// when it changed something.
func (h *hallRig) eboard(cmd, arg string) string {
	h.t.Helper()
	a, changed := h.m.EBoard(cmd, arg, h.now)
	if changed {
		h.m.Step(h.now)
	}
	return a
}

func journalText(t *testing.T, state string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimRight(string(b), "\x00")
}

// TestEBoardRequests: the daemon takes the e-board process's move of a
// press it had, journals it, streams it and fills the status's board;
// it refuses what no press of the current game explains, shows ILLEGAL?
// and BOARD? for the arbiter, and takes a silent process's board as lost.
func TestEBoardRequests(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	h := bootHall(t, filepath.Join(dir, "none.toml"), state, false)
	h.m.MonoNs = func(d time.Duration) int64 { return int64(d) + 1e12 }
	if st := h.m.Status(h.now); st.Board != nil {
		t.Fatalf("a board before the process spoke: %+v", st.Board)
	}
	w := control.NewWatch()
	h.m.Watch(w, h.now)

	var g protocol.EBoardGame
	strict(t, h.eboard("eboard-game", ""), &g)
	if g.Presses != 0 || g.From != 0 || g.FEN != fen.StartFEN || len(g.Moves) != 0 || g.ToMove != "white" || g.Running || g.Check() != nil {
		t.Fatalf("eboard-game %+v", g)
	}
	game := g.Game
	h.button("right") // White's clock starts
	h.now += 2 * time.Second
	h.button("left") // press 1
	pressAt := h.now
	h.now += 300 * time.Millisecond
	mv := protocol.EBoardMoveArg{Game: game, Press: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4}
	if a := h.eboard("eboard-move", mustJSON(mv)); a != "ok" {
		t.Fatalf("eboard-move: %s", a)
	}
	st := h.m.Status(h.now)
	if st.Board == nil || *st.Board != (protocol.BoardStatus{State: "ok", FEN: fenE4, Ply: 1, SAN: "e4", UCI: "e2e4"}) {
		t.Errorf("board %+v", st.Board)
	}
	if j := journalText(t, state); !strings.Contains(j, "\n2300 move 1 e4 e2e4 *") {
		t.Errorf("journal:\n%s", j)
	}
	var pressed, moved protocol.Event
	for _, l := range w.Queued() {
		var e protocol.Event
		json.Unmarshal([]byte(l), &e)
		switch e.Event {
		case "pressed":
			pressed = e
		case "move":
			moved = e
		}
	}
	if pressed.Press != 1 || pressed.MonoNs != int64(pressAt)+1e12 {
		t.Errorf("pressed event %+v: want press 1 at %d", pressed, int64(pressAt)+1e12)
	}
	if moved.Press != 1 || !strings.HasPrefix(moved.Line, "2300 move 1 e4 e2e4 *") || moved.Seq == 0 {
		t.Errorf("move event %+v", moved)
	}

	for _, c := range []struct{ cmd, arg, want string }{
		{"eboard-move", mustJSON(mv), "error: eboard-move: press 1 has its move"},
		{"eboard-move", mustJSON(protocol.EBoardMoveArg{Game: game, Press: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4}), "error: eboard-move: press 2: the game has had 1"},
		{"eboard-move", mustJSON(protocol.EBoardMoveArg{Game: "0001-other", Press: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4}), "error: eboard-move: game 0001-other is not the clock's game, " + game},
		{"eboard-move", `{"game":"` + game + `","press":1,"san":"e4;rm","uci":"e2e4","fen":"x"}`, `error: eboard-move: move "e4;rm" "e2e4" is not SAN and UCI`},
		{"eboard-move", `{"game":"` + game + `","press":1,"extra":1}`, `error: eboard-move: unknown field "extra"`},
		{"eboard-move", `[1,2]`, `error: eboard-move needs a JSON object, got "[1,2]"`},
		{"eboard-position", mustJSON(protocol.EBoardPositionArg{Game: game, Press: 0, FEN: fen.StartFEN}), "error: eboard-position: press 0: a position is taken at the game's last press, 1"},
		{"eboard-state", mustJSON(protocol.EBoardStateArg{Game: game, State: "illegal", Press: 1, Illegal: 5}), "error: eboard-state: press 1, illegal 5: the game has had 1"},
		{"eboard-state", mustJSON(protocol.EBoardStateArg{Game: game, State: "on fire"}), `error: eboard-state: state "on fire", want ok, illegal, mismatch or lost`},
		{"eboard-game", "x", "error: eboard-game takes no argument"},
		{"eboard-nosuch", "", `error: unknown command "eboard-nosuch"`},
	} {
		if a := h.eboard(c.cmd, c.arg); a != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.cmd, c.arg, a, c.want)
		}
	}

	// Press 2: no legal move explains the board.
	h.now += time.Second
	h.button("right")
	ill := protocol.EBoardStateArg{Game: game, State: "illegal", Press: 1, FEN: fenE4, Illegal: 2, Detail: "changed e7 e4"}
	if a := h.eboard("eboard-state", mustJSON(ill)); a != "ok" {
		t.Fatalf("eboard-state: %s", a)
	}
	boardEvent := false
	for _, l := range w.Queued() {
		boardEvent = boardEvent || strings.Contains(l, `{"event":"board","at":`) && strings.Contains(l, `"text":"illegal"`)
	}
	if !boardEvent {
		t.Error("no board event for the watchers at ILLEGAL?")
	}
	if v := h.m.Core.View(h.now); v.Game.Banner != "ILLEGAL?" {
		t.Errorf("banner %q, want ILLEGAL?", v.Game.Banner)
	}
	if b := h.m.Status(h.now).Board; b == nil || b.State != "illegal" || b.MissingFrom != 2 || b.Ply != 1 {
		t.Errorf("board after ILLEGAL? %+v", b)
	}
	if j := journalText(t, state); !strings.Contains(j, "# eboard: illegal: ILLEGAL? at press 2: changed e7 e4") {
		t.Errorf("journal:\n%s", j)
	}
	// The arbiter puts the position back: the board is ok again.
	h.now += time.Second
	if a := h.eboard("eboard-state", mustJSON(protocol.EBoardStateArg{Game: game, State: "ok", Press: 1, FEN: fenE4})); a != "ok" {
		t.Fatalf("eboard-state: %s", a)
	}
	if v := h.m.Core.View(h.now); v.Game.Banner != "" {
		t.Errorf("banner %q after the position was put back", v.Game.Banner)
	}
	if a := h.eboard("eboard-state", mustJSON(protocol.EBoardStateArg{Game: game, State: "mismatch", Press: 1, FEN: fenE4})); a != "ok" {
		t.Fatalf("eboard-state: %s", a)
	}
	if v := h.m.Core.View(h.now); v.Game.Banner != "BOARD?" {
		t.Errorf("banner %q, want BOARD?", v.Game.Banner)
	}
	// The process goes silent: after 6 s its board is lost, and the clock
	// shows nothing of it.
	next, ok := h.m.Step(h.now)
	if !ok || next > h.now+protocol.EBoardSilence {
		t.Errorf("next wake %v %v: the silence is not watched", next, ok)
	}
	h.now += protocol.EBoardSilence
	h.m.Step(h.now)
	b := h.m.Status(h.now).Board
	if b == nil || b.State != "lost" || b.MissingFrom != 2 {
		t.Errorf("board of a silent process %+v", b)
	}
	if v := h.m.Core.View(h.now); v.Game.Banner != "" {
		t.Errorf("banner %q with the board lost", v.Game.Banner)
	}
	// A new game: the board is left out until the process takes it up.
	pair, _ := timecontrol.ParsePair("300+2")
	if err := h.m.Core.Session().NewGame(h.now, pair, clock.DefaultOptions, ""); err != nil {
		t.Fatal(err)
	}
	h.m.Step(h.now)
	if b := h.m.Status(h.now).Board; b != nil {
		t.Errorf("the new game has the old game's board %+v", b)
	}
}

// TestEBoardPeerKeepsTime: a peer that floods the socket with garbage
// and with requests that are well formed changes nothing of the clock:
// the journal's presses, flags and times are those of the same game
// without it, and the flood costs a bounded number of journal lines.
func TestEBoardPeerKeepsTime(t *testing.T) {
	play := func(flood bool) (clockLines string, refused, all int) {
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		h := bootHall(t, filepath.Join(dir, "none.toml"), state, false)
		h.button("right")
		garbage := []string{"", "{", "null", `{"game":1}`, strings.Repeat("[", 400), "{\"game\":\"\xff\"}", `{"game":"x","press":-1,"san":"","uci":"","fen":""}`}
		for i := range 40 {
			if flood {
				g := h.m.Core.Session().GameID()
				for k := range 250 {
					var a string
					switch k % 4 {
					case 0:
						a = h.eboard("eboard-move", garbage[k%len(garbage)])
					case 1:
						a = h.eboard("eboard-state", mustJSON(protocol.EBoardStateArg{Game: g, State: []string{"ok", "mismatch", "lost"}[k%3], Detail: fmt.Sprint(k)}))
					case 2:
						a = h.eboard("eboard-move", mustJSON(protocol.EBoardMoveArg{Game: g, Press: k % 50, SAN: "e4", UCI: "e2e4", FEN: fenE4}))
					case 3:
						a = h.eboard("eboard-position", mustJSON(protocol.EBoardPositionArg{Game: g, Press: i, FEN: fenE4}))
					}
					if strings.HasPrefix(a, "error: ") {
						refused++
					}
					h.now += time.Millisecond / 4
				}
			} else {
				h.now += 250 * time.Millisecond / 4
			}
			h.now += 1500 * time.Millisecond
			h.button([]string{"left", "right"}[i%2])
			h.m.Step(h.now)
		}
		var lines []string
		all = strings.Count(journalText(t, state), "\n")
		for _, l := range strings.Split(journalText(t, state), "\n") {
			if f := strings.Fields(l); len(f) > 1 && (f[1] == "press" || f[1] == "start") {
				lines = append(lines, l)
			}
		}
		st := h.m.Status(h.now)
		lines = append(lines, fmt.Sprintf("white %d black %d", st.White.Ms, st.Black.Ms))
		return strings.Join(lines, "\n"), refused, all
	}
	quiet, _, quietLines := play(false)
	loud, refused, loudLines := play(true)
	// At most a move line a press, and the notes' rate over the game's
	// minute: 40 + 8 + 31.
	if extra := loudLines - quietLines; extra > 40+8+32 {
		t.Errorf("the flood cost %d journal lines", extra)
	}
	t.Logf("%d of 10000 requests refused; %d journal lines more", refused, loudLines-quietLines)
	if quiet != loud {
		t.Errorf("the flood changed the clock's journal:\nwithout:\n%s\nwith:\n%s", quiet, loud)
	}
	if refused < 9000 {
		t.Errorf("only %d of 10000 requests refused", refused)
	}
}

// TestEBoardGarbageIsNoBoard: requests the daemon refuses are no sign of
// life: a peer that sends only those leaves the clock without a board.
func TestEBoardGarbageIsNoBoard(t *testing.T) {
	dir := t.TempDir()
	h := bootHall(t, filepath.Join(dir, "none.toml"), filepath.Join(dir, "state"), false)
	for _, c := range [][2]string{{"eboard-move", "{"}, {"eboard-state", `{"game":"x","state":"ok"}`}, {"eboard-game", "1"}, {"eboard-position", "null"}} {
		if a := h.eboard(c[0], c[1]); !strings.HasPrefix(a, "error: ") {
			t.Errorf("%s %s: %s", c[0], c[1], a)
		}
	}
	if b := h.m.Status(h.now).Board; b != nil {
		t.Errorf("a board from garbage: %+v", b)
	}
}

// BenchmarkEBoardRefused is what one refused e-board request costs the
// event loop: over the rate, and within it with an argument of the wrong
// form.
func BenchmarkEBoardRefused(b *testing.B) {
	dir := b.TempDir()
	var now time.Duration
	m, devs := Setup(Opts{ConfigPath: filepath.Join(dir, "none.toml"), StateDir: filepath.Join(dir, "state"), FallbackProfile: config.SimProfile, Now: func() time.Duration { return now }}, func(string) {})
	defer devs.Close()
	defer m.Core.Close()
	arg := `{"game":"x","press":1,"san":"e4","uci":"e2e4","fen":"8/8/8/8/8/8/8/8 w - - 0 1","extra":1}`
	for _, c := range []struct {
		name  string
		every time.Duration
	}{{"over-the-rate", time.Millisecond}, {"decoded", time.Second}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				now += c.every
				m.EBoard("eboard-move", arg, now)
			}
		})
	}
}

// TestEBoardMovesAreLegal: the process is untrusted, so the daemon holds
// what it hands to the rules: a move must be legal from the game's
// position with its SAN, and a position must be one a game can have (one
// king each, no pawn on the first or last rank, no more pieces than
// promotions give). What it refuses is not journaled.
func TestEBoardMovesAreLegal(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	h := bootHall(t, filepath.Join(dir, "none.toml"), state, false)
	var g protocol.EBoardGame
	strict(t, h.eboard("eboard-game", ""), &g)
	game := g.Game
	h.button("right") // White's clock starts
	h.now += time.Second
	h.button("left") // press 1
	h.now += time.Second
	move := func(press int, san, uci string) string {
		return h.eboard("eboard-move", mustJSON(protocol.EBoardMoveArg{Game: game, Press: press, SAN: san, UCI: uci, FEN: fenE4}))
	}
	for _, c := range []struct{ san, uci, want string }{
		{"a1", "a2a1", "error: eboard-move: press 1: a2a1 is no legal move of " + fen.StartFEN},
		{"e5", "e2e5", "error: eboard-move: press 1: e2e5 is no legal move of " + fen.StartFEN},
		{"e5", "e7e5", "error: eboard-move: press 1: e7e5 is no legal move of " + fen.StartFEN},
		{"d4", "e2e4", "error: eboard-move: press 1: e2e4 is e4, not d4"},
		{"e4", "e2e4", "ok"},
	} {
		if a := move(1, c.san, c.uci); a != c.want {
			t.Errorf("move %s %s:\n got %s\nwant %s", c.san, c.uci, a, c.want)
		}
	}
	// Press 2 has no move (ILLEGAL? on the board); press 3's is Black's
	// reply from the position press 1 left.
	h.button("right")
	h.now += time.Second
	h.button("left")
	h.now += time.Second
	if a := move(3, "Nf3", "g1f3"); a != "error: eboard-move: press 3: g1f3 is no legal move of rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Errorf("White's move for Black's press: %s", a)
	}
	if a := move(3, "e5", "e7e5"); a != "ok" {
		t.Errorf("Black's reply: %s", a)
	}
	h.button("right") // press 4
	h.now += time.Second
	for _, c := range []struct{ fen, want string }{
		{"4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 b - - 0 3", "has 15 promoted pieces"},
		{"4k3/8/8/8/8/8/8/P3K3 b - - 0 3", "a pawn on a1"},
		{"4k3/8/8/8/8/8/8/8 b - - 0 3", "0 white and 1 black kings"},
	} {
		a := h.eboard("eboard-position", mustJSON(protocol.EBoardPositionArg{Game: game, Press: 4, FEN: c.fen}))
		if !strings.HasPrefix(a, "error: eboard-position: press 4: ") || !strings.Contains(a, c.want) {
			t.Errorf("position %s: %s, want an error with %q", c.fen, a, c.want)
		}
	}
	j := journalText(t, state)
	if !strings.Contains(j, " move 1 e4 e2e4 ") || !strings.Contains(j, " move 3 e5 e7e5 ") || strings.Count(j, " move ") != 2 || strings.Contains(j, " position ") {
		t.Errorf("journal:\n%s", j)
	}
}

// BenchmarkEBoardLegalMove is the daemon's check of one move of the
// e-board process, in the event loop: on the position kept from the last
// move, and (once a game, when the daemon has kept nothing: it restarted)
// the replay of a 200-ply game's moves.
func BenchmarkEBoardLegalMove(b *testing.B) {
	tr, _ := moves.New("")
	var ucis, fens []string
	for len(ucis) < 200 {
		// Knights out and back: a long game that never ends.
		for _, u := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
			fens = append(fens, tr.FEN())
			if _, err := tr.Play(u); err != nil {
				b.Fatal(err)
			}
			ucis = append(ucis, u)
		}
	}
	b.Run("kept", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			t, err := moves.New(fens[i%len(fens)])
			if err != nil {
				b.Fatal(err)
			}
			if _, err := t.Play(ucis[i%len(ucis)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay 200 plies", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t, _ := moves.New("")
			for _, u := range ucis {
				if _, err := t.Play(u); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
