package screen

import (
	"image"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The big digits are Go Bold (see FONTS.md), rendered once per pixel size
// with opentype and thresholded to 1-bit glyphs. A face covers only what a
// clock time needs, the ten digits, ':' and '.', and the capitals of the
// flag mark (FLAG, 1ST, 2ND).

const bigChars = "0123456789:.FLAGSTND"

// maxFaceHeight is the tallest face: a glyph column is one uint64.
const maxFaceHeight = 64

// minPPEM and maxPPEM bound the sizes tried, in pixels per em.
const (
	minPPEM = 6
	maxPPEM = 120
)

// bigGlyph is one thresholded glyph: cols[i] is column i, bit 0 the top row
// of the face.
type bigGlyph struct {
	cols []uint64
	dx   int // offset of the ink within the glyph's cell
}

// bigFace is Go Bold at one size. Digits share one cell width so a running
// time does not shift sideways; ':' and '.' are as narrow as their ink.
type bigFace struct {
	ppem   int
	h      int // height of the digits, the face's height
	digitW int // width of a digit cell
	colonW int
	dotW   int
	gap    int // space between two cells
	glyphs [len(bigChars)]bigGlyph

	// The letters' rows: lh rows from lOff rows below the digits' top
	// (above it when negative); round letters may reach a row further.
	lOff, lh int
}

func bigIndex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c == ':':
		return 10
	case c == '.':
		return 11
	}
	for i := 12; i < len(bigChars); i++ {
		if bigChars[i] == c {
			return i
		}
	}
	return -1
}

// wordRows are the rows a word of digits and letters takes: from top
// (0 or above: negative) relative to the digits' top, h rows.
func (f *bigFace) wordRows() (top, h int) {
	top = min(0, f.lOff)
	return top, max(f.h, f.lOff+f.lh) - top
}

// inkWidth is the width of text drawn with f proportionally: each
// character as wide as its ink (a space a third of a digit), f.gap
// between them. The flag mark's words are drawn so.
func (f *bigFace) inkWidth(text []byte) int {
	w := 0
	for i, c := range text {
		if i > 0 {
			w += f.gap
		}
		w += f.inkW(c)
	}
	return w
}

func (f *bigFace) inkW(c byte) int {
	if k := bigIndex(c); k >= 0 {
		return len(f.glyphs[k].cols)
	}
	return f.digitW / 3
}

// cellW is the width of the cell c takes; characters other than digits,
// ':' and '.' take a blank digit cell.
func (f *bigFace) cellW(c byte) int {
	switch c {
	case ':':
		return f.colonW
	case '.':
		return f.dotW
	}
	return f.digitW
}

// width is the width of text drawn with f.
func (f *bigFace) width(text []byte) int {
	w := 0
	for i, c := range text {
		if i > 0 {
			w += f.gap
		}
		w += f.cellW(c)
	}
	return w
}

var (
	goBoldOnce sync.Once
	goBold     *opentype.Font
	faceMu     sync.Mutex
	faceCache  = map[int]*bigFace{}
)

// faceAt returns the face of ppem pixels per em (clamped to
// [minPPEM, maxPPEM]), rendering it on first use.
func faceAt(ppem int) *bigFace {
	ppem = max(minPPEM, min(ppem, maxPPEM))
	faceMu.Lock()
	defer faceMu.Unlock()
	if f := faceCache[ppem]; f != nil {
		return f
	}
	f := renderFace(ppem)
	faceCache[ppem] = f
	return f
}

// renderFace rasterises the big characters at ppem and keeps the pixels
// whose coverage is at least one half.
func renderFace(ppem int) *bigFace {
	goBoldOnce.Do(func() {
		f, err := opentype.Parse(gobold.TTF)
		if err != nil {
			panic("screen: the bundled Go Bold font does not parse: " + err.Error())
		}
		goBold = f
	})
	face, err := opentype.NewFace(goBold, &opentype.FaceOptions{Size: float64(ppem), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("screen: Go Bold face: " + err.Error())
	}
	defer face.Close()

	type ink struct {
		bits []bool
		r    image.Rectangle // ink bounds, relative to the baseline origin
	}
	var inks [len(bigChars)]ink
	top, bottom := 1<<30, -(1 << 30)
	ltop, lbottom := 1<<30, -(1 << 30)
	for i := range len(bigChars) {
		dr, mask, mp, _, ok := face.Glyph(fixed.Point26_6{}, rune(bigChars[i]))
		if !ok || mask == nil {
			continue
		}
		bits := make([]bool, dr.Dx()*dr.Dy())
		r := image.Rectangle{Min: image.Pt(1<<30, 1<<30), Max: image.Pt(-(1 << 30), -(1 << 30))}
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
				if a < 0x8000 {
					continue
				}
				bits[y*dr.Dx()+x] = true
				px, py := dr.Min.X+x, dr.Min.Y+y
				r.Min.X, r.Min.Y = min(r.Min.X, px), min(r.Min.Y, py)
				r.Max.X, r.Max.Y = max(r.Max.X, px+1), max(r.Max.Y, py+1)
			}
		}
		if r.Empty() {
			continue
		}
		// Re-index bits by ink coordinates.
		ib := make([]bool, r.Dx()*r.Dy())
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				ib[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = bits[(y-dr.Min.Y)*dr.Dx()+x-dr.Min.X]
			}
		}
		inks[i] = ink{ib, r}
		if i < 10 {
			top, bottom = min(top, r.Min.Y), max(bottom, r.Max.Y)
		}
		if i >= 12 {
			// Letters: their round tops and bottoms may reach a row
			// beyond the digits'.
			ltop, lbottom = min(ltop, r.Min.Y), max(lbottom, r.Max.Y)
		}
	}
	f := &bigFace{ppem: ppem}
	if top >= bottom {
		return f
	}
	if bottom-top > maxFaceHeight {
		bottom = top + maxFaceHeight
	}
	f.h = bottom - top
	f.gap = max(1, (f.h+6)/12)
	f.lOff, f.lh = 0, f.h
	if ltop < lbottom {
		lbottom = min(lbottom, ltop+maxFaceHeight)
		f.lOff, f.lh = ltop-top, lbottom-ltop
	}
	for i, in := range inks {
		w := in.r.Dx()
		g := bigGlyph{cols: make([]uint64, max(w, 0))}
		t, h := top, f.h
		if i >= 12 {
			t, h = top+f.lOff, f.lh
		}
		for x := 0; x < w; x++ {
			var col uint64
			for y := in.r.Min.Y; y < in.r.Max.Y; y++ {
				row := y - t
				if row < 0 || row >= h || !in.bits[(y-in.r.Min.Y)*w+x] {
					continue
				}
				col |= 1 << row
			}
			g.cols[x] = col
		}
		f.glyphs[i] = g
		switch {
		case i < 10:
			f.digitW = max(f.digitW, w)
		case bigChars[i] == ':':
			f.colonW = w
		case bigChars[i] == '.':
			f.dotW = w
		}
		// Letters keep their ink's own width: they are drawn
		// proportionally (inkWidth).
	}
	for i := range 10 {
		f.glyphs[i].dx = (f.digitW - len(f.glyphs[i].cols)) / 2
	}
	return f
}

// fitFace returns the largest face in which template fits a box of w x h
// pixels, or the smallest face when none does.
func fitFace(template string, w, h int) *bigFace {
	return fitBig(func(f *bigFace) bool {
		return f.h <= h && f.width([]byte(template)) <= w
	})
}

// fitWord is fitFace for a word drawn proportionally (inkWidth).
func fitWord(word []byte, w, h int) *bigFace {
	return fitBig(func(f *bigFace) bool {
		_, wh := f.wordRows()
		return wh <= h && f.inkWidth(word) <= w
	})
}

// fitBig returns the largest face that fits, or the smallest face.
func fitBig(fits func(f *bigFace) bool) *bigFace {
	lo, hi := minPPEM, maxPPEM
	if !fits(faceAt(lo)) {
		return faceAt(lo)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(faceAt(mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return faceAt(lo)
}
