package screen

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest"
)

var (
	update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")
	sheet  = flag.String("sheet", "", "also write the golden screens, four scenes a sheet, to PATH_NN.png")
)

const goldenScale = 4

func white(ms int64) Player { return Player{Ms: ms, White: true} }
func black(ms int64) Player { return Player{Ms: ms} }

// scenes are the main screens, by name.
func scenes() []struct {
	name string
	v    View
} {
	withMoves := func(p Player, moves, period int) Player {
		p.ShowMoves, p.Moves, p.Periods, p.Period = true, moves, true, period
		return p
	}
	start := View{Game: Game{
		Left:        withMoves(white(5430000), 0, 1),
		Right:       withMoves(black(5430000), 0, 1),
		TenthsBelow: DefaultTenthsBelow,
	}}
	start.Game.Left.ToMove = true

	running := View{Game: Game{
		Left:        withMoves(white(5345000), 12, 1),
		Right:       withMoves(black(3492000), 12, 1),
		Started:     true,
		TenthsBelow: DefaultTenthsBelow,
	}}
	running.Game.Left.Running, running.Game.Left.ToMove = true, true

	period := running
	period.Game.Left = withMoves(white(2705000), 41, 2)
	period.Game.Right = withMoves(black(1830000), 41, 2)
	period.Game.Right.Running, period.Game.Right.ToMove = true, true

	tenths := View{Game: Game{Left: white(9700), Right: black(192000), Started: true, TenthsBelow: DefaultTenthsBelow}}
	tenths.Game.Left.Running, tenths.Game.Left.ToMove = true, true

	flags := View{Game: Game{Left: white(0), Right: black(0), Started: true, TenthsBelow: DefaultTenthsBelow}}
	flags.Game.Left.Flag, flags.Game.Left.FirstFlag = true, true
	flags.Game.Right.Flag, flags.Game.Right.ToMove = true, true

	flag1 := View{Game: Game{Left: white(184000), Right: black(0), Started: true, TenthsBelow: DefaultTenthsBelow}}
	flag1.Game.Right.Flag, flag1.Game.Right.FirstFlag, flag1.Game.Right.ToMove = true, true, true

	overstep := View{Game: Game{
		Left:        withMoves(white(1812000), 38, 2),
		Right:       withMoves(black(2450000), 39, 2),
		Started:     true,
		TenthsBelow: DefaultTenthsBelow,
	}}
	overstep.Game.Left.Overstep, overstep.Game.Left.Running, overstep.Game.Left.ToMove = true, true, true

	delay := View{Game: Game{Left: white(299000), Right: black(312000), Started: true, TenthsBelow: DefaultTenthsBelow}}
	delay.Game.Left.Delay, delay.Game.Left.DelayMs, delay.Game.Left.Running, delay.Game.Left.ToMove = true, 3400, true, true
	delay.Game.Right.Delay, delay.Game.Right.DelayMs = true, 5000

	byoyomi := View{Game: Game{Left: white(27300), Right: black(0), Started: true, TenthsBelow: 10000}}
	byoyomi.Game.Left.Overtime, byoyomi.Game.Left.OTLeft, byoyomi.Game.Left.Running, byoyomi.Game.Left.ToMove = true, 3, true, true
	byoyomi.Game.Right.Overtime, byoyomi.Game.Right.OTLeft, byoyomi.Game.Right.Ms = true, 5, 600000

	paused := running
	paused.Game.Paused = true
	paused.Game.Left.Running = false

	recovered := paused
	recovered.Game.Banner = "RECOVERED"

	// A notice while a clock runs: the journal cannot be written.
	warning := running
	warning.Game.Banner = "SAVE FAILED"

	// White's flag fell, then time was added and the game goes on.
	added := View{Game: Game{Left: white(27300), Right: black(95000), Started: true, TenthsBelow: DefaultTenthsBelow}}
	added.Game.Left.Flag, added.Game.Left.FirstFlag = true, true
	added.Game.Left.Running, added.Game.Left.ToMove = true, true

	menu := View{Kind: KindMenu, Menu: Menu{
		Title:  "Start game",
		Items:  []string{"Last: 90/40+30+30s", "Blitz 3+2", "Blitz 5+3", "Rapid 15+10", "Rapid 25+10", "Classic 90/40+30+30s", "Custom..."},
		Cursor: 2,
		Hint:   "+/- choose  ok start",
	}}
	edit := View{Kind: KindMenu, Menu: Menu{
		Title:   "Set time: White",
		Items:   []string{"Time 1:30:00", "Moves 12", "Period 1"},
		Cursor:  0,
		Editing: true,
		Field:   [2]int{7, 9},
		Hint:    "+/- change  ok next",
	}}
	message := View{Kind: KindMessage, Message: []string{
		`zeitnot.toml:12: tenths_below: want a duration like "20s", got "abc"`,
		"Using safe defaults",
	}}
	// A drawn game: its result on the paused game's banner, and the
	// result menu with the cursor on the draw.
	draw := paused
	draw.Game.Banner, draw.Game.BannerShort = "RESULT ½-½", "½-½"
	result := View{Kind: KindMenu, Menu: Menu{
		Title:  "Result?",
		Items:  []string{"1-0", "½-½", "0-1"},
		Cursor: 1,
		Hint:   "+- ok  pause: back",
	}}
	// An update from a USB stick (appliance/ui/update.go): the question,
	// the progress and a refusal, on the ready screen's banner.
	updateAsk := View{Kind: KindMenu, Menu: Menu{Title: "Update to 1.4.0?", Items: []string{"ok: install", "pause: cancel"}, Cursor: -1}}
	updating := start
	updating.Game.Banner = "UPDATING 40%"
	refused := View{Kind: KindMessage, Message: []string{"Update refused:",
		"its signature is not from this clock's key: signature verification failed: unable to get local issuer certificate"}}
	return []struct {
		name string
		v    View
	}{
		{"start", start},
		{"running", running},
		{"period", period},
		{"tenths", tenths},
		{"flags", flags},
		{"flag", flag1},
		{"overstep", overstep},
		{"delay", delay},
		{"byoyomi", byoyomi},
		{"paused", paused},
		{"recovered", recovered},
		{"warning", warning},
		{"added", added},
		{"menu", menu},
		{"edit", edit},
		{"message", message},
		{"draw", draw},
		{"result", result},
		{"update", updateAsk},
		{"updating", updating},
		{"update_refused", refused},
	}
}

var goldenDisplays = []struct {
	name string
	w, h int
	role Role
	opts *PixelOpts
}{
	{"128x64_left", 128, 64, Left, nil},
	{"128x64_right", 128, 64, Right, nil},
	{"128x64_both", 128, 64, Both, nil},
	{"128x32_left", 128, 32, Left, nil},
	{"128x32_both", 128, 32, Both, nil},
	{"128x64_left_1.3in", 128, 64, Left, &OLED130},
}

func TestGolden(t *testing.T) {
	var frames [][]*image.Paletted
	for _, d := range goldenDisplays {
		s := NewPixelScreenOpts(image.Rect(0, 0, d.w, d.h), d.role, d.opts)
		var row []*image.Paletted
		for _, sc := range scenes() {
			frame := display.NewFrame(image.Rect(0, 0, d.w, d.h))
			v := sc.v
			s.Draw(&v, frame)
			path := filepath.Join("testdata", sc.name+"_"+d.name+".png")
			if err := displaytest.Golden(path, frame, goldenScale, *update); err != nil {
				t.Errorf("%s: %v", path, err)
			}
			row = append(row, displaytest.Render(frame, 2))
		}
		frames = append(frames, row)
	}
	if *sheet != "" {
		// Four scenes a sheet, so each stays readable.
		for k := 0; k < len(frames[0]); k += 4 {
			var part [][]*image.Paletted
			for _, col := range frames {
				part = append(part, col[k:min(k+4, len(col))])
			}
			writeSheet(t, fmt.Sprintf("%s_%02d.png", *sheet, k/4), part)
		}
	}
}

// writeSheet puts the renders in a grid: one column per display, one row
// per scene.
func writeSheet(t *testing.T, path string, cols [][]*image.Paletted) {
	cw, ch := 0, 0
	for _, c := range cols {
		for _, f := range c {
			cw, ch = max(cw, f.Bounds().Dx()), max(ch, f.Bounds().Dy())
		}
	}
	rows := len(cols[0])
	img := image.NewRGBA(image.Rect(0, 0, len(cols)*(cw+8), rows*(ch+8)))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0x60, 0x60, 0x60, 0xFF}}, image.Point{}, draw.Src)
	for i, c := range cols {
		for j, f := range c {
			p := image.Pt(i*(cw+8)+4, j*(ch+8)+4)
			draw.Draw(img, f.Bounds().Add(p), f, image.Point{}, draw.Src)
		}
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, img); err != nil {
		t.Fatal(err)
	}
}
