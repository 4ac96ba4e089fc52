package screen

import (
	"image"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
)

// TestDefaultWord: a side marked DEFAULT (FIDE 6.6) says so on every
// family, after a flag and an overstep, before the banner.
func TestDefaultWord(t *testing.T) {
	g := Game{Started: true, Banner: "RECOVERED",
		Left:  Player{Ms: 5400000, White: true, Running: true, ToMove: true, Default: true, Overstep: true},
		Right: Player{Ms: 5430000, Default: true}}
	var buf [numWordKinds]word
	var long, short, seg []string
	for _, w := range statusWords(buf[:0], allWords, &g.Left, &g.Right, &g) {
		long, short, seg = append(long, w.long()), append(short, w.short()), append(seg, w.seg())
	}
	if got := strings.Join(long, "|"); got != "OVERSTEP|DEFAULT|RECOVERED" {
		t.Errorf("long forms %s", got)
	}
	if got := strings.Join(short, "|"); got != "OS|DEF|RECOVERED" {
		t.Errorf("short forms %s", got)
	}
	if got := strings.Join(seg, "|"); got != "oP|dF|" {
		t.Errorf("segment forms %s", got)
	}
	g.Left.Overstep, g.Banner = false, ""
	v := View{Kind: KindGame, Game: g}
	if got := NewTextScreen(Characters, 16, 2, Left).Render(&v); !strings.Contains(got, "DEFAULT") {
		t.Errorf("16x2 LCD, one player:\n%s", got)
	}
	if got := NewTextScreen(Characters, 16, 2, Both).Render(&v); !strings.Contains(got, "DEF") {
		t.Errorf("16x2 LCD, both players:\n%s", got)
	}
	if got := NewTextScreen(Segments, 8, 1, Right).Render(&v); !strings.HasPrefix(got, "dF") {
		t.Errorf("8 digits: %q", got)
	}
	// A pixel panel draws it in the header: the frame differs from one
	// without it.
	r := image.Rect(0, 0, 128, 64)
	s := NewPixelScreen(r, Right)
	with, without := display.NewFrame(r), display.NewFrame(r)
	s.Draw(&v, with)
	v.Game.Right.Default = false
	s.Draw(&v, without)
	if string(with.Pix) == string(without.Pix) {
		t.Error("the pixel panel does not show DEFAULT")
	}
}

// TestBannerShort: a banner too long for its place takes its short form
// where it has one: the countdown on a two-player 16x2 LCD.
func TestBannerShort(t *testing.T) {
	v := View{Kind: KindGame, Game: Game{Banner: "START 1:00:59 NTP", BannerShort: "1:00:59 NTP",
		Left: Player{Ms: 5430000, White: true, ToMove: true}, Right: Player{Ms: 5430000}}}
	if got := NewTextScreen(Characters, 16, 2, Both).Render(&v); got != "1:30:30  1:30:30\nW 1:00:59 NTP  B" {
		t.Errorf("16x2, both:\n%s", got)
	}
	if got := NewTextScreen(Characters, 20, 2, Left).Render(&v); !strings.HasSuffix(got, "\nSTART 1:00:59 NTP   ") {
		t.Errorf("20x2, one player: %q", got)
	}
	v.Game.BannerShort = ""
	if got := NewTextScreen(Characters, 16, 2, Both).Render(&v); got != "1:30:30  1:30:30\nW              B" {
		t.Errorf("16x2, both, no short form:\n%s", got)
	}
	// A pixel panel draws either form without trouble.
	r := image.Rect(0, 0, 128, 64)
	for _, role := range []Role{Left, Both} {
		NewPixelScreen(r, role).Draw(&v, display.NewFrame(r))
	}
}
