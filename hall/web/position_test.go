package web

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// /position.svg draws a FEN's pieces, marks the last move's squares, and
// refuses what is no FEN or no UCI move.
func TestPositionSVG(t *testing.T) {
	_, srv := pgnServer(t, Opts{Hall: "club"})
	fen := "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
	rec, body := get(t, srv, positionURL(fen, "g1f3"))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
	// 16 black figures, 16 white ones drawn twice (filled, outlined).
	if n := strings.Count(body, `fill="#000">`); n != 32 {
		t.Errorf("%d black-drawn figures, want 32:\n%s", n, body)
	}
	if n := strings.Count(body, "\u265e"); n != 4 { // the solid knight: two black, two white fillings
		t.Errorf("%d solid knights, want 4", n)
	}
	if n := strings.Count(body, `fill="`+lastMark+`"`); n != 2 {
		t.Errorf("%d squares marked, want 2 (g1, f3)", n)
	}
	if !strings.Contains(body, `<rect x="270" y="315" width="45" height="45" fill="`+lastMark+`"/>`) || !strings.Contains(body, `<rect x="225" y="225" width="45" height="45" fill="`+lastMark+`"/>`) {
		t.Errorf("g1 and f3 are not the squares marked:\n%s", body)
	}
	for _, bad := range []string{"/position.svg", "/position.svg?fen=8/8", "/position.svg?fen=" + strings.ReplaceAll(fen, " ", "_") + "&last=<script>", "/position.svg?fen=<svg>_w_-_-_0_1"} {
		if rec, _ := get(t, srv, bad); rec.Code != 400 {
			t.Errorf("%s: %d, want 400", bad, rec.Code)
		}
	}
}

// A board's view carries its position from the board status and its
// moves from the log; a board without an electronic board has none.
func TestViewPosition(t *testing.T) {
	now := time.Date(2026, 3, 7, 19, 30, 0, 0, time.UTC)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(now)})
	fen := "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	hallGame(t, st, 1, "0001-aaaaaa", "control 300+2\n0 start\n1000 press white\n1200 move 1 e4 e2e4\n2000 press black\n2300 move 2 c5 c7c5\n", store.Players{},
		`{"at":2300,"running":"white","started":true,"to_move":"white","board":{"state":"ok","fen":"`+fen+`","ply":2,"san":"c5","uci":"c7c5"}}`, now)
	hallGame(t, st, 2, "0002-aaaaaa", "control 300+2\n0 start\n1000 press white\n", store.Players{}, `{"running":"black","started":true,"to_move":"black"}`, now)
	views := map[int]View{}
	for _, v := range srv.views() {
		views[v.Board] = v
	}
	p := views[1].Position
	if p == nil || p.FEN != fen || p.Ply != 2 || p.Last != "c7c5" || p.LastSAN != "c5" || strings.Join(p.Moves, " ") != "e4 c5" || p.First != 1 || p.Image != positionURL(fen, "c7c5") || p.State != "ok" {
		b, _ := json.Marshal(p)
		t.Errorf("board 1's position: %s", b)
	}
	if views[2].Position != nil {
		t.Errorf("board 2 (no electronic board) has a position: %+v", views[2].Position)
	}
	if rec, _ := get(t, srv, views[1].Position.Image); rec.Code != 200 {
		t.Errorf("the view's image: %d", rec.Code)
	}
	// A move line after the state is announced: the view's moves follow.
	sub := st.Subscribe(8)
	if _, err := st.PutLine(1, "0001-aaaaaa", 8, clocklog.WithChecksum("3000 press white")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutLine(1, "0001-aaaaaa", 9, clocklog.WithChecksum("3200 move 3 Nf3 g1f3")); err != nil {
		t.Fatal(err)
	}
	if ev := <-sub.C; ev.What != store.LogChange {
		t.Errorf("a press line: %v, want LogChange", ev.What)
	}
	ev := <-sub.C
	if ev.What != store.MovesChange {
		t.Fatalf("a move line: %v, want MovesChange", ev.What)
	}
	if v := srv.viewAt(ev.Snap, srv.o.Clock.Now()); v.Position == nil || len(v.Position.Moves) != 3 || v.Position.Moves[2] != "Nf3" {
		t.Errorf("the view after the move line: %+v", v.Position)
	}
}

// Any FEN the log takes is drawn as well-formed SVG with one figure (two
// for White) per piece, and never makes the hall panic.
func FuzzDrawPosition(f *testing.F) {
	f.Add(fen.StartFEN, "e2e4")
	f.Add("8/8/8/8/8/8/4k3/4K2R w K - 0 60", "")
	f.Add("KKKKKKKK/8/8/8/8/8/8/kkkkkkkk b - - 0 1", "h8a1q")
	f.Fuzz(func(t *testing.T, position, last string) {
		if fen.Check(position) != nil || last != "" && !clocklog.IsUCI(last) {
			return
		}
		svg := drawPosition(position, last)
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q %q: %v\n%s", position, last, err, svg)
			}
		}
		placement, _, _ := strings.Cut(position, " ")
		white, black := 0, 0
		for _, c := range placement {
			switch {
			case strings.ContainsRune("KQRBNP", c):
				white++
			case strings.ContainsRune("kqrbnp", c):
				black++
			}
		}
		if n := strings.Count(svg, "&#xfe0e;</text>"); n != 2*white+black {
			t.Errorf("%q: %d figures drawn, want %d", position, n, 2*white+black)
		}
	})
}
