package hall

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
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

// Every time format fits its box on /board/N (the page for demonstration
// screens, FIDE 6.14) and on the hall's page, at a laptop's, a large
// screen's and a phone's size (issue 24.6: 32:4 for 32:40 from 10:00 up).
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
	// Sixteen pictures to look at, not for the docs: ZEITNOT_LAYOUT_SHOTS
	// keeps them.
	dir := os.Getenv("ZEITNOT_LAYOUT_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, size := range []struct {
		name string
		w, h int
		opts []chromedp.EmulateViewportOption
	}{
		{"1280x900", 1280, 900, nil},
		{"1920x1080", 1920, 1080, nil},
		{"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}},
		{"phone-landscape", 844, 390, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}},
	} {
		ctx := browser(t, size.w, size.h)
		do(t, ctx, chromedp.EmulateViewport(int64(size.w), int64(size.h), size.opts...))
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
