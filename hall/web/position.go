package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/hall/store"
)

// The position of a game played on an electronic board (FIDE 6.14): the
// pages show it, drawn by the hall (GET /position.svg), with the
// game's moves. No claim can be based on it (6.14), and the pages say so.

// Position is the board of a view: the position the clock's board status
// last explained, its last move, and the game's moves from the log.
type Position struct {
	// State is the board status's: ok, illegal, mismatch or lost; ""
	// when no state of the game had one (the moves come from the log).
	State string `json:"state,omitempty"`
	// FEN is the position after press Ply; "" when no status gave one.
	FEN string `json:"fen,omitempty"`
	Ply int    `json:"ply"`
	// Last is the last move (press Ply's) in UCI and SAN, "" for none.
	Last    string `json:"last,omitempty"`
	LastSAN string `json:"last_san,omitempty"`
	// Moves are the game's moves in SAN by press ("" for a press whose
	// move is not known), numbered from move First, Black's first when
	// BlackFirst (a game begun from a set-up position).
	Moves      []string `json:"moves"`
	First      int      `json:"first"`
	BlackFirst bool     `json:"black_first,omitempty"`
	// IncompleteFrom is the first press whose move is not known: the
	// moves are incomplete from there (0: not).
	IncompleteFrom int `json:"incomplete_from,omitempty"`
	// Image is the URL of the position drawn (positionSVG).
	Image string `json:"image,omitempty"`
}

// positionOf is the position of game g of board b, nil when the game was
// not played on an electronic board.
func (s *Server) positionOf(b store.Board, g string) *Position {
	if g == "" {
		return nil
	}
	m := s.o.Store.Moves(b.Board, g)
	if !m.HasBoard() {
		return nil
	}
	p := &Position{Moves: m.SAN, First: 1, IncompleteFrom: m.IncompleteFrom}
	if p.Moves == nil {
		p.Moves = []string{}
	}
	if from, err := fen.Parse(m.FEN); err == nil {
		p.First, p.BlackFirst = from.FullMove, from.BlackToMove
	}
	if st := m.Status; st != nil {
		p.State, p.FEN, p.Ply, p.Last, p.LastSAN = st.State, st.FEN, st.Ply, st.UCI, st.SAN
	} else if m.FEN != "" && len(m.SAN) == 0 {
		p.FEN = m.FEN
	}
	if p.FEN != "" {
		p.Image = positionURL(p.FEN, p.Last)
	}
	return p
}

// viewAt is b's view at now, with its position and its game's
// conflicts.
func (s *Server) viewAt(b store.Board, now time.Time) View {
	v := viewOf(b, now)
	s.shownTimes(&v, b)
	v.Position = s.positionOf(b, v.Game)
	if v.Game != "" {
		v.Conflicts = s.o.Store.ConflictCount(b.Board, v.Game)
	}
	return v
}

// positionURL is the URL of the drawing of fen with the move last marked.
func positionURL(fen, last string) string {
	u := "/position.svg?fen=" + strings.NewReplacer(" ", "_", "/", "%2F").Replace(fen)
	if last != "" {
		u += "&last=" + last
	}
	return u
}

// positionSVG answers GET /position.svg?fen=FEN&last=UCI: the position
// drawn, White at the bottom, the squares of the move last marked. FEN's
// spaces may be written as '_'. The drawing is a function of the query
// alone, and so cached.
func (s *Server) positionSVG(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	position := strings.ReplaceAll(q.Get("fen"), "_", " ")
	if err := fen.Check(position); err != nil {
		http.Error(w, "position.svg: "+err.Error(), http.StatusBadRequest)
		return
	}
	last := q.Get("last")
	if last != "" && !clocklog.IsUCI(last) {
		http.Error(w, fmt.Sprintf("position.svg: last %q is not a UCI move (e2e4, e7e8q)", last), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write([]byte(drawPosition(position, last)))
}

// The drawing's colours: the squares, the marked move, the coordinates.
const (
	lightSquare = "#f0d9b5"
	darkSquare  = "#b58863"
	lastMark    = "#cdd26a"
)

// pieceGlyphs are the Unicode chess symbols: the outlined (white) and the
// solid (black) figure of each piece, by its lower-case FEN letter. A white piece is the solid
// figure filled white with the outlined one drawn over it in black, so
// that its inner lines show; a black piece is the solid figure in black.
// U+FE0E asks for the text form, never an emoji.
var pieceGlyphs = map[byte][2]string{
	'k': {"\u2654", "\u265a"}, 'q': {"\u2655", "\u265b"}, 'r': {"\u2656", "\u265c"},
	'b': {"\u2657", "\u265d"}, 'n': {"\u2658", "\u265e"}, 'p': {"\u2659", "\u265f"},
}

// drawPosition draws the placement of a FEN (checked) as SVG: 8 squares
// of 45 units a side, files and ranks written in the edge squares, the
// squares of the UCI move last (or "") marked. The pieces are the font's
// chess symbols (DejaVu Sans on Debian, Segoe UI Symbol on Windows, Noto
// Sans Symbols 2 on Android): nothing is loaded from anywhere.
func drawPosition(position, last string) string {
	const sq = 45
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360" width="360" height="360" role="img">`)
	fmt.Fprintf(&b, `<title>%s</title>`, position)
	marked := map[[2]int]bool{}
	if len(last) >= 4 {
		for _, sqr := range []string{last[0:2], last[2:4]} {
			marked[[2]int{int(sqr[0] - 'a'), int('8' - sqr[1])}] = true
		}
	}
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			fill := lightSquare
			if (row+col)%2 == 1 {
				fill = darkSquare
			}
			if marked[[2]int{col, row}] {
				fill = lastMark
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, col*sq, row*sq, sq, sq, fill)
		}
	}
	// Coordinates in the colour of the other squares, small, in the corners.
	b.WriteString(`<g font-family="DejaVu Sans, Segoe UI, Roboto, sans-serif" font-size="9" font-weight="700">`)
	for i := 0; i < 8; i++ {
		// a1 is dark, a8 light: each letter and number in the colour
		// of the squares it is not on.
		fileFill, rankFill := lightSquare, darkSquare
		if i%2 == 1 {
			fileFill, rankFill = darkSquare, lightSquare
		}
		fmt.Fprintf(&b, `<text x="%d" y="357" text-anchor="end" fill="%s">%c</text>`, i*sq+sq-2, fileFill, 'a'+i)
		fmt.Fprintf(&b, `<text x="2" y="%d" fill="%s">%c</text>`, i*sq+10, rankFill, '8'-i)
	}
	b.WriteString(`</g><g font-family="DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols 2, Symbola, sans-serif" font-size="38" text-anchor="middle">`)
	placement, _ := fen.ParsePlacement(position)
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			pc := placement[fen.NewSquare(col, 7-row)]
			g, ok := pieceGlyphs[strings.ToLower(pc.String())[0]]
			if !ok {
				continue
			}
			x, y := col*sq+sq/2, row*sq+37
			if !pc.White() {
				fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#000">%s&#xfe0e;</text>`, x, y, g[1])
			} else {
				// The white stroke fills the solid figure's cut-outs.
				fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#fff" stroke="#fff" stroke-width="2.5" stroke-linejoin="round">%s&#xfe0e;</text><text x="%d" y="%d" fill="#000">%s&#xfe0e;</text>`, x, y, g[1], x, y, g[0])
			}
		}
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}
