package sim

import (
	"fmt"
	"image"
	"os"
	"strings"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest/framepng"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
	"github.com/zeitnot/zeitnot/sim/termdraw"
)

// Scale is how much a shot enlarges a pixel display's frame.
const Scale = 4

// Shot writes one PNG per display, PREFIX-NAME.png, and PREFIX.txt with
// what each display shows (the pixel displays drawn with block characters).
func (v *Virtual) Shot(prefix string) error {
	var txt strings.Builder
	for _, o := range v.M.Outputs {
		path := prefix + "-" + o.Name + ".png"
		fmt.Fprintf(&txt, "display %s (%s):\n", o.Name, o.Role)
		switch d := o.Pixel.(type) {
		case *simdisplay.Pixel:
			if err := framepng.Save(path, d.Snapshot(), Scale); err != nil {
				return err
			}
			txt.WriteString(strings.Join(termdraw.Quadrants(d.Snapshot()), "\n"))
			txt.WriteString("\n")
			continue
		}
		if t, ok := o.Text.(*simdisplay.Text); ok {
			shown := t.Text()
			cols, lines := t.Size()
			if err := framepng.Save(path, textFrame(shown, cols, lines), Scale); err != nil {
				return err
			}
			fmt.Fprintf(&txt, "%s\n", shown)
			continue
		}
		return fmt.Errorf("display %q is not simulated", o.Name)
	}
	return os.WriteFile(prefix+".txt", []byte(txt.String()), 0o644)
}

// textFrame draws what a text display shows as a small picture: each line
// in a 5x7 font, doubled, with a frame around it.
func textFrame(text string, cols, lines int) *image1bit.VerticalLSB {
	const scale = 2
	cell := (5 + bitfont.Spacing) * scale
	w := cols*cell + 8
	h := lines*(bitfont.Height+2)*scale + 8
	f := display.NewFrame(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		f.Set(x, 0, display.On)
		f.Set(x, h-1, display.On)
	}
	for y := 0; y < h; y++ {
		f.Set(0, y, display.On)
		f.Set(w-1, y, display.On)
	}
	for i, line := range strings.Split(text, "\n") {
		if i >= lines {
			break
		}
		bitfont.Draw(f, 4, 4+i*(bitfont.Height+2)*scale, line, scale)
	}
	return f
}
