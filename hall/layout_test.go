package hall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

// overflowJS lists every time on the page whose text does not fit its
// box: wider than the element (scrollWidth > clientWidth), than its side
// or than the window.
const overflowJS = `(() => { const bad = []; const vw = document.documentElement.clientWidth;
	for (const t of document.querySelectorAll(".side .t")) {
		const r = t.getBoundingClientRect(), s = t.closest(".side").getBoundingClientRect();
		if (t.scrollWidth > t.clientWidth || r.right > s.right + 0.5 || r.left < s.left - 0.5 || s.right > vw + 0.5)
			bad.push(t.closest("article").id + " " + JSON.stringify(t.textContent) + ": text " + t.scrollWidth + " px in a box of " + t.clientWidth + ", side " + Math.round(s.left) + "-" + Math.round(s.right) + ", window " + vw);
	}
	if (document.documentElement.scrollWidth > vw) bad.push("the page is " + document.documentElement.scrollWidth + " px wide, the window " + vw);
	return bad; })()`

// layoutSize is a window of the layout tests.
type layoutSize struct {
	name string
	w, h int
	opts []chromedp.EmulateViewportOption
}

// emulate makes ctx's page that window.
func (z layoutSize) emulate(t *testing.T, ctx context.Context) {
	do(t, ctx, chromedp.EmulateViewport(int64(z.w), int64(z.h), z.opts...))
}

// layoutSizes are the windows the layout tests look at: a laptop's, a
// large screen's and a phone's, both ways.
var layoutSizes = []layoutSize{
	{"1280x900", 1280, 900, nil},
	{"1920x1080", 1920, 1080, nil},
	{"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}},
	{"phone-landscape", 844, 390, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}},
}

// layoutShots is where the layout tests' pictures go, to look at, not for
// the docs: ZEITNOT_LAYOUT_SHOTS keeps them.
func layoutShots(t *testing.T) string {
	if dir := os.Getenv("ZEITNOT_LAYOUT_SHOTS"); dir != "" {
		return dir
	}
	return t.TempDir()
}

// Every time format fits its box on /board/N (the page for demonstration
// screens, FIDE 6.14) and on the hall's page, at a laptop's, a large
// screen's and a phone's size (cut off, 32:40 showed as 32:4 from 10:00
// up).
func TestBrowserTimesFit(t *testing.T) {
	h := startHall(t, nil)
	// Each board shows its base on both sides, not started: one format each.
	formats := []struct{ control, text string }{
		{"19+0", "0:19.0"},     // tenths
		{"300+0", "5:00"},      // m:ss
		{"1960+0", "32:40"},    // mm:ss
		{"7199+0", "1:59:59"},  // h:mm:ss
		{"35999+0", "9:59:59"}, // the widest h:mm:ss
		{"*60", "1:00"},        // hourglass
	}
	var clocks []*fakeclock.Clock
	for i, f := range formats {
		clocks = append(clocks, dialClock(t, brokerURL(h), i+1, func(o *fakeclock.Opts) { o.Control = f.control }))
	}
	waitIdle(t, clocks...)
	base := "http://" + h.HTTPAddr()
	// Sixteen pictures to look at (layoutShots).
	dir := layoutShots(t)
	for _, size := range layoutSizes {
		ctx := browser(t, size.w, size.h)
		size.emulate(t, ctx)
		for i, f := range formats {
			n := i + 1
			do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(fmt.Sprintf("%s/board/%d", base, n)), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#b%d .t", n))))
			if got := run(t, ctx, chromedp.Text(chromedp.CSS(fmt.Sprintf("#b%d .side.white .t", n)))); got != f.text {
				t.Errorf("%s /board/%d: white shows %q, the clock %q", size.name, n, got, f.text)
			}
			for _, bad := range run(t, ctx, chromedp.Evaluate[[]string](overflowJS)) {
				t.Errorf("%s /board/%d: %s", size.name, n, bad)
			}
			if n == 3 || n == 5 {
				shot(t, ctx, dir, fmt.Sprintf("layout-board%d-%s.png", n, size.name))
			}
		}
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/"))
		waitFor(t, 10*time.Second, "the hall's page to show every board", func() bool {
			return run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.board .side .t").length`)) == 2*len(formats)
		})
		for _, bad := range run(t, ctx, chromedp.Evaluate[[]string](overflowJS)) {
			t.Errorf("%s /: %s", size.name, bad)
		}
		shot(t, ctx, dir, "layout-hall-"+size.name+".png")
	}
	t.Logf("screenshots in %s", filepath.Clean(dir))
}

// ruyLopez is the Breyer: each move's SAN, UCI and the position after it.
var ruyLopez = [][3]string{
	{"e4", "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
	{"e5", "e7e5", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
	{"Nf3", "g1f3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
	{"Nc6", "b8c6", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"},
	{"Bb5", "f1b5", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"},
	{"a6", "a7a6", "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"},
	{"Ba4", "b5a4", "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"},
	{"Nf6", "g8f6", "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"},
	{"O-O", "e1g1", "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5"},
	{"Be7", "f8e7", "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"},
	{"Re1", "f1e1", "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 5 6"},
	{"b5", "b7b5", "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 7"},
	{"Bb3", "a4b3", "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 b kq - 1 7"},
	{"d6", "d7d6", "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 w kq - 0 8"},
	{"c3", "c2c3", "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1 b kq - 0 8"},
	{"O-O", "e8g8", "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1 w - - 1 9"},
	{"h3", "h2h3", "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9"},
	{"Nb8", "c6b8", "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 w - - 1 10"},
	{"d4", "d2d4", "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 b - - 0 10"},
	{"Nbd7", "b8d7", "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11"},
}

// shuffle is ply moves of both knights going out and back (1. Nf3 Nf6 2.
// Ng1 Ng8 ...): a long game with real positions.
func shuffle(plies int) [][3]string {
	ranks := [4]string{"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R", "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R",
		"rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"}
	moves := [4][2]string{{"Nf3", "g1f3"}, {"Nf6", "g8f6"}, {"Ng1", "f3g1"}, {"Ng8", "f6g8"}}
	var out [][3]string
	for i := 0; i < plies; i++ {
		side := "b"
		if i%2 == 1 {
			side = "w"
		}
		fen := fmt.Sprintf("%s %s KQkq - %d %d", ranks[i%4], side, i+1, 1+(i+1)/2)
		out = append(out, [3]string{moves[i%4][0], moves[i%4][1], fen})
	}
	return out
}

// boardViewJS lists what does not fit on a page with positions: the
// drawing wider than its box or the window, a move list wider than its
// box, and on /board/N the position and the clocks taller than the
// window (a demonstration screen does not scroll).
const boardViewJS = `(() => { const bad = []; const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
	for (const img of document.querySelectorAll("img.pos-img")) {
		const r = img.getBoundingClientRect(), a = img.closest("article").getBoundingClientRect();
		if (!img.complete || img.naturalWidth === 0) bad.push(img.closest("article").id + ": the position's picture did not load");
		if (r.right > a.right + 0.5 || r.left < a.left - 0.5 || r.right > vw + 0.5) bad.push(img.closest("article").id + ": the position " + Math.round(r.left) + "-" + Math.round(r.right) + " outside its board " + Math.round(a.left) + "-" + Math.round(a.right));
		if (document.body.classList.contains("single") && !window.matchMedia("(orientation: portrait), (max-width: 700px)").matches && r.bottom > vh + 0.5) bad.push("the position ends at " + Math.round(r.bottom) + " px, the window at " + vh);
	}
	for (const e of document.querySelectorAll(".movelist .mv, .movelist .mn, .lastmove, .noclaim, .moves .tag")) {
		if (e.scrollWidth > e.clientWidth + 0.5 && getComputedStyle(e).display !== "inline") bad.push(JSON.stringify(e.textContent) + ": text " + e.scrollWidth + " px in a box of " + e.clientWidth);
		const r = e.getBoundingClientRect();
		if (r.right > vw + 0.5) bad.push(JSON.stringify(e.textContent) + " ends at " + Math.round(r.right) + " px, the window at " + vw);
	}
	return bad; })()`

// The board view (FIDE 6.14): the position, the last move, the clocks and
// the moves fit /board/N and the hall's page at every size, the drawing
// loads, and both pages say no claim can be based on them.
func TestBrowserBoardView(t *testing.T) {
	h := startHall(t, nil)
	games := [][][3]string{ruyLopez, shuffle(161), ruyLopez[:1]}
	var clocks []*fakeclock.Clock
	for i, g := range games {
		c := dialClock(t, brokerURL(h), i+1, func(o *fakeclock.Opts) { o.Control = "5400+30" })
		h.Store().SetPlayers(i+1, c.Game(), store.Players{White: "Vachier-Lagrave, Maxime", Black: "Nepomniachtchi, Ian"})
		c.Press() // the start
		for _, m := range g {
			c.Move(m[0], m[1], m[2])
		}
		clocks = append(clocks, c)
	}
	// Board 3's board stops answering: Black's first move is not known.
	clocks[2].Press()
	clocks[2].SetBoard(&protocol.BoardStatus{State: protocol.BoardLost, FEN: ruyLopez[0][2], Ply: 1, SAN: "e4", UCI: "e2e4", MissingFrom: 2})
	// Board 4 has no electronic board: it looks as it always did.
	clocks = append(clocks, dialClock(t, brokerURL(h), 4, nil))
	waitIdle(t, clocks...)
	base := "http://" + h.HTTPAddr()
	dir := layoutShots(t)
	for _, size := range layoutSizes {
		ctx := browser(t, size.w, size.h)
		size.emulate(t, ctx)
		for n := 1; n <= 3; n++ {
			do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(fmt.Sprintf("%s/board/%d", base, n)), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#b%d .t", n))))
			waitFor(t, 10*time.Second, "the position's picture", func() bool {
				return run(t, ctx, chromedp.Evaluate[bool](`(() => { const i = document.querySelector("img.pos-img"); return !!i && i.complete && i.naturalWidth > 0; })()`))
			})
			want := games[n-1][len(games[n-1])-1][0]
			if got := run(t, ctx, chromedp.Text(chromedp.CSS(".movelist .lastmv"))); got != want {
				t.Errorf("%s /board/%d: the last move shows %q, want %q", size.name, n, got, want)
			}
			if got := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(".movelist .mv").length`)); got != len(games[n-1]) {
				t.Errorf("%s /board/%d: %d moves in the list, want %d", size.name, n, got, len(games[n-1]))
			}
			if got := run(t, ctx, chromedp.Text(chromedp.CSS(".pos .noclaim"))); !strings.Contains(got, "6.14") || !strings.Contains(got, "no claim") {
				t.Errorf("%s /board/%d: the page does not say no claim can be based on it: %q", size.name, n, got)
			}
			for _, bad := range append(run(t, ctx, chromedp.Evaluate[[]string](overflowJS)), run(t, ctx, chromedp.Evaluate[[]string](boardViewJS))...) {
				t.Errorf("%s /board/%d: %s", size.name, n, bad)
			}
			if n == 3 {
				got := run(t, ctx, chromedp.Text(chromedp.CSS("#b3")))
				if !strings.Contains(got, "moves not known from move 1 (Black's)") || !strings.Contains(got, "board: not answering") {
					t.Errorf("%s /board/3: the lost board's moves are not marked incomplete: %q", size.name, got)
				}
			}
			shot(t, ctx, dir, fmt.Sprintf("board-view%d-%s.png", n, size.name))
			if n == 1 && size.name == "1280x900" {
				shot(t, ctx, shots(t), "board-eboard.png") // the README's
			}
		}
		// Board 4, without an electronic board, has no position.
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/board/4"), chromedp.WaitVisible(chromedp.CSS("#b4 .t")))
		if got := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(".pos, .movelist, .noclaim").length`)); got != 0 {
			t.Errorf("%s /board/4 (no electronic board): %d position elements", size.name, got)
		}
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/"))
		waitFor(t, 10*time.Second, "the hall's page to show the positions", func() bool {
			return run(t, ctx, chromedp.Evaluate[bool](`document.querySelectorAll("article.board .side .t").length === 8 && [...document.querySelectorAll("img.pos-img")].filter(i => i.complete && i.naturalWidth > 0).length === 3`))
		})
		if got := run(t, ctx, chromedp.Evaluate[bool](`!document.getElementById("noclaim").hidden && document.getElementById("noclaim").textContent.includes("6.14")`)); !got {
			t.Errorf("%s /: the note that no claim can be based on the displays is not shown", size.name)
		}
		if got := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .lastmove"))); got != "10... Nbd7" {
			t.Errorf("%s /: board 1's last move shows %q, want 10... Nbd7", size.name, got)
		}
		for _, bad := range append(run(t, ctx, chromedp.Evaluate[[]string](overflowJS)), run(t, ctx, chromedp.Evaluate[[]string](boardViewJS))...) {
			t.Errorf("%s /: %s", size.name, bad)
		}
		shot(t, ctx, dir, "board-view-hall-"+size.name+".png")
	}
	t.Logf("screenshots in %s", filepath.Clean(dir))
}
