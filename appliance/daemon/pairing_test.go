package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// A round's pairing opens a new game, journaled with its round and board;
// a running game refuses it, and a finished game keeps its names.
func TestHallPairing(t *testing.T) {
	dir := t.TempDir()
	club := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(club, []byte("profile = \"sim\"\n[game]\ncontrol = \"5\"\n"), 0o644)
	h := bootHall(t, club, filepath.Join(dir, "state"), false)
	str := func(s string) *string { return &s }
	pairing := func(round, board int, w, b string) string {
		return h.ask("players", mustJSON(protocol.PlayersArg{White: str(w), Black: str(b), Round: round, Board: board}))
	}
	lines := func(game string) []string {
		var ll protocol.LogLines
		strict(t, h.ask("log", game+" 1"), &ll)
		return ll.Lines
	}
	gameOf := func() string {
		var li protocol.LogInfo
		strict(t, h.ask("log", ""), &li)
		return li.Game
	}
	pairingOf := func() protocol.Pairing {
		if p := h.m.Status(h.now).Pairing; p != nil {
			return *p
		}
		return protocol.Pairing{}
	}

	g0 := gameOf()
	if a := pairing(1, 3, "Nguyễn, Văn Thành", "Åberg, Nils"); !strings.HasPrefix(a, "ok round 1 board 3: game ") {
		t.Fatalf("pairing on an unstarted game: %s", a)
	}
	g1 := gameOf()
	if g1 == g0 {
		t.Errorf("the pairing kept game %s; want a new one", g0)
	}
	if p := pairingOf(); p != (protocol.Pairing{Round: 1, Board: 3}) {
		t.Errorf("game %s's pairing: %+v", g1, p)
	}
	// The round's control, sent after the pairing, replaces the
	// unstarted game: the new one is the pairing's.
	if a := h.ask("next-game", mustJSON(protocol.NextGameArg{Control: "fide-blitz-3"})); a != "ok" {
		t.Fatalf("next-game: %s", a)
	}
	if g := gameOf(); g == g1 || pairingOf() != (protocol.Pairing{Round: 1, Board: 3}) {
		t.Errorf("after next-game: game %s (was %s), pairing %+v", g, g1, pairingOf())
	}
	g1 = gameOf()
	h.button("right") // White's clock starts
	h.now += time.Second
	h.button("left")
	if a := pairing(2, 3, "Carlsen, Magnus", "Caruana, Fabiano"); a != "error: players: the game still runs: round 2 board 3 waits for its result" {
		t.Errorf("pairing while the game runs: %s", a)
	}
	if gameOf() != g1 {
		t.Errorf("a refused pairing changed the game")
	}
	// The arbiter's correction, mid-game, renames the running game.
	if a := h.ask("players", mustJSON(protocol.PlayersArg{Black: str("Aberg, Nils")})); a != "ok" {
		t.Fatalf("correction: %s", a)
	}
	if a := h.ask("pause", ""); a != "ok" {
		t.Fatalf("pause: %s", a)
	}
	if a := h.ask("result", `{"result":"1-0"}`); a != "ok" {
		t.Fatalf("result: %s", a)
	}
	if a := pairing(2, 3, "Carlsen, Magnus", "Caruana, Fabiano"); !strings.HasPrefix(a, "ok round 2 board 3: game ") {
		t.Fatalf("pairing after the result: %s", a)
	}
	g2 := gameOf()
	if g2 == g1 {
		t.Fatalf("round 2 reuses round 1's game %s", g1)
	}
	if p := pairingOf(); p != (protocol.Pairing{Round: 2, Board: 3}) {
		t.Errorf("round 2's game %s: pairing %+v", g2, p)
	}
	if r := strings.Join(lines(g1), "\n"); !strings.Contains(r, "result 1-0 arbiter") {
		t.Errorf("round 1's game %s lost its result: %s", g1, r)
	}
	if p := h.m.Status(h.now).Players; p == nil || p.White != "Carlsen, Magnus" {
		t.Errorf("status players %+v", p)
	}
	for _, tc := range []struct{ arg, want string }{
		{`{"white":"A","round":2}`, "error: players: a pairing gives round and board, both"},
		{`{"white":"A","round":0,"board":3}`, "error: players: a pairing gives round and board, both"},
		{`{"white":"A","round":1000,"board":3}`, "error: players: round 1000: want 1 to 999"},
	} {
		if a := h.ask("players", tc.arg); !strings.HasPrefix(a, tc.want) {
			t.Errorf("players %s: %s, want %s", tc.arg, a, tc.want)
		}
	}
}
