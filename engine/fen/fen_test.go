package fen

import (
	"strings"
	"testing"
)

func TestPlacementRoundTrip(t *testing.T) {
	// A whole FEN's placement, an empty board, castling and promotion
	// squares, lone kings in the corners.
	const placements = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR 8/8/8/8/8/8/8/8 r3k2r/pPpq1ppp/2n5/3Pp3/8/5N2/P4PPP/R3K2R 7k/8/8/8/8/8/8/K7"
	for _, s := range strings.Fields(placements) {
		p, err := ParsePlacement(s + " w - - 0 1")
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := p.String(); got != s {
			t.Errorf("ParsePlacement(%q).String() = %q", s, got)
		}
	}
	if Start[NewSquare(4, 0)] != WhiteKing || Start[NewSquare(3, 7)] != BlackQueen {
		t.Error("Start has no white king on e1 or no black queen on d8")
	}
	var p Placement
	p[NewSquare(0, 0)] = Unknown
	if got := p.String(); got != "8/8/8/8/8/8/8/?7" {
		t.Errorf("an Unknown piece: %q", got)
	}
}

func TestParsePlacementErrors(t *testing.T) {
	for _, tc := range []struct{ s, err string }{
		{"", `FEN placement "": want 8 ranks, got 1`},
		{"8/8/8", `FEN placement "8/8/8": want 8 ranks, got 3`},
		{"8/8/8/8/8/8/8/8/8", "want 8 ranks, got 9"},
		{"9/8/8/8/8/8/8/8", `FEN rank 8: "9" is no piece`},
		{"8/8/0/8/8/8/8/8", `FEN rank 6: "0" is no piece`},
		{"7/8/8/8/8/8/8/8", "FEN rank 8: 7 squares, want 8"},
		{"x7/8/8/8/8/8/8/8", `FEN rank 8: "x" is no piece`},
		{"8/8/8/8/8/8/8/?7", `FEN rank 1: "?" is no piece`},
		{"ppppppppp/8/8/8/8/8/8/8", "FEN rank 8: 9 squares, want 8"},
		{"8/8/8/8/8/8/8/44p", "FEN rank 1: 9 squares, want 8"},
	} {
		_, err := ParsePlacement(tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParsePlacement(%q) = %v, want %q", tc.s, err, tc.err)
		}
	}
}

func TestParse(t *testing.T) {
	p, err := Parse("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq c6 1 2")
	if err != nil {
		t.Fatal(err)
	}
	if !p.BlackToMove || p.Castling != "KQkq" || p.EnPassant != "c6" || p.HalfMoves != 1 || p.FullMove != 2 || p.Placement[NewSquare(5, 2)] != WhiteKnight {
		t.Errorf("%+v", p)
	}
	if got := p.String(); got != "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq c6 1 2" {
		t.Errorf("Position.String = %q", got)
	}
	for _, tc := range []struct{ s, err string }{
		{StartFEN, ""},
		{"8/8/8/8/8/8/4k3/4K2R w K - 0 60", ""},
		{"8/8/8/8/8/8/8/8 w - - 0 1", ""}, // the form only: no kings is the rules' matter
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "want 6 fields, got 4"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", "want 6 fields, got 7"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "FEN placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", `FEN side to move "x"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", `FEN castling "KK"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", `FEN castling "KQkqK"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w X - 0 1", `FEN castling "X"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w  - 0 1", `FEN castling ""`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - e4 0 1", `FEN en passant "e4"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - -1 1", `FEN halfmove clock "-1"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - +1 1", `FEN halfmove clock "+1"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 0", `FEN move number "0"`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 100000", `FEN move number "100000"`},
	} {
		err := Check(tc.s)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Check(%q) = %v, want %q", tc.s, err, tc.err)
		}
	}
}

func TestSquare(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Square
	}{{"a1", 0}, {"h1", 7}, {"a2", 8}, {"e4", 28}, {"h8", 63}} {
		got, err := ParseSquare(tc.s)
		if err != nil || got != tc.want || got.String() != tc.s {
			t.Errorf("ParseSquare(%q) = %d, %v; String %q", tc.s, got, err, got.String())
		}
	}
	for _, s := range []string{"", "i1", "a9", "a0", "e44"} {
		if _, err := ParseSquare(s); err == nil {
			t.Errorf("ParseSquare(%q) succeeded", s)
		}
	}
	if NoSquare.String() != "-" {
		t.Error("NoSquare.String")
	}
}

// Any text ParsePlacement takes is written back the same but for runs
// of empty squares, which String writes as one digit, and what String
// writes reads back to the same placement; Check takes a whole FEN only
// when its placement reads.
func FuzzPlacement(f *testing.F) {
	f.Add(StartFEN)
	f.Add("8/8/8/8/8/8/4k3/4K2R w K - 0 60")
	f.Add("r3k2r/pPpq1ppp/2n5/3Pp3/8/5N2/P4PPP/R3K2R b kq - 0 12")
	f.Add("44/8/8/8/8/8/8/11111111 w - - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePlacement(s)
		if cerr := Check(s); cerr == nil && err != nil {
			t.Fatalf("Check(%q) took a FEN whose placement does not read: %v", s, err)
		}
		if err != nil {
			return
		}
		out := p.String()
		q, err := ParsePlacement(out)
		if err != nil || q != p {
			t.Fatalf("%q: String %q reads back as %v, %v", s, out, q.String(), err)
		}
		if len(out) > 71 || strings.Contains(out, "?") {
			t.Fatalf("%q: String %q", s, out)
		}
		if whole, err := Parse(s); err == nil {
			again, err := Parse(whole.String())
			if err != nil || again != whole {
				t.Fatalf("%q: Position.String %q reads back as %+v, %v", s, whole.String(), again, err)
			}
		}
	})
}
