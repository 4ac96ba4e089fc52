package simdgt_test

import (
	"bytes"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

func sq(s string) fen.Square {
	q, err := fen.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

// steps writes the changes of a hand as "e2- e4P" (square, then the piece
// placed, "-" for a lift) and a press as "|".
func steps(h *simdgt.Hand) string {
	var out []string
	for _, s := range h.Steps {
		switch {
		case s.Press:
			out = append(out, "|")
		case s.Piece == fen.Empty:
			out = append(out, s.Square.String()+"-")
		default:
			out = append(out, s.Square.String()+s.Piece.String())
		}
	}
	return strings.Join(out, " ")
}

func TestHandGestures(t *testing.T) {
	for _, tc := range []struct {
		fen, uci string
		g        simdgt.Gesture
		want     string
	}{
		{"", "e2e4", simdgt.Plain, "e2- e4P |"},
		{"", "e2e4", simdgt.Slide, "e2- e3P e3- e4P |"},
		{"", "g1f3", simdgt.Slide, "g1- f3N |"}, // a knight jumps
		{"4k3/8/8/3p4/4P3/8/8/4K3", "e4d5", simdgt.TargetFirst, "d5- e4- d5P |"},
		{"4k3/8/8/3p4/4P3/8/8/4K3", "e4d5", simdgt.MoverFirst, "e4- d5- d5P |"},
		{"r3k2r/8/8/8/8/8/8/R3K2R", "e1g1", simdgt.KingFirst, "e1- g1K h1- f1R |"},
		{"r3k2r/8/8/8/8/8/8/R3K2R", "e1c1", simdgt.RookFirst, "a1- d1R e1- c1K |"},
		{"r3k2r/8/8/8/8/8/8/R3K2R", "e8c8", simdgt.KingFirst, "e8- c8k a8- d8r |"},
		{"4k3/8/8/3Pp3/8/8/8/4K3", "d5e6", simdgt.MoverFirst, "d5- e6P e5- |"},
		{"4k3/8/8/3Pp3/8/8/8/4K3", "d5e6", simdgt.TargetFirst, "e5- d5- e6P |"},
		{"8/P6k/8/8/8/8/6K1/8", "a7a8n", simdgt.Plain, "a7- a8N |"},
		{"8/8/8/8/8/7k/p7/6K1", "a2a1q", simdgt.Plain, "a2- a1q |"},
		{"4k3/8/8/8/8/8/8/RN2K3", "a1a2", simdgt.Knock, "a1- a2R b1- b1N |"},
		{"4k3/8/8/8/8/8/8/R3K3", "a1a3", simdgt.Knock, "a1- a3R |"}, // nothing near to knock
		{"4k3/8/8/8/8/8/8/R3K3", "a1a3", simdgt.Correct, "a1- b3R b3- a3R |"},
	} {
		t.Run(tc.uci+"/"+tc.g.String(), func(t *testing.T) {
			pos := fen.Start
			if tc.fen != "" {
				pos = fen.MustParsePlacement(tc.fen)
			}
			h := simdgt.NewHand(pos, 0)
			if err := h.Move(tc.uci, tc.g); err != nil {
				t.Fatal(err)
			}
			if got := steps(h); got != tc.want {
				t.Fatalf("steps %q, want %q", got, tc.want)
			}
			for i := 1; i < len(h.Steps); i++ {
				if h.Steps[i].At <= h.Steps[i-1].At {
					t.Fatalf("instants do not increase: %+v", h.Steps)
				}
			}
		})
	}
}

func TestHandErrors(t *testing.T) {
	for _, uci := range []string{"", "e2", "e2e2", "e3e4", "i2i4", "a7a8k", "e2e4x"} {
		h := simdgt.NewHand(fen.Start, 0)
		if err := h.Move(uci, simdgt.Plain); err == nil {
			t.Errorf("Move(%q) succeeded", uci)
		}
	}
}

func TestHandRestore(t *testing.T) {
	h := simdgt.NewHand(fen.Start, 0)
	h.Make("e7e4", simdgt.Plain)
	h.Restore(fen.Start)
	if h.Pos != fen.Start {
		t.Fatalf("restored to %s", h.Pos.String())
	}
}

// TestProtocol: the simulated board answers commands byte for byte as the
// header describes, and sends field updates only in update mode.
func TestProtocol(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	sim := simdgt.New(fen.Start, &simdgt.Opts{Serial: "01025", Version: [2]byte{1, 2}, Battery: 64})
	go sim.Serve(b)
	read := func(n int) []byte {
		t.Helper()
		buf := make([]byte, n)
		if _, err := io.ReadFull(a, buf); err != nil {
			t.Fatal(err)
		}
		return buf
	}
	sim.Lift(sq("e2")) // idle: nothing sent
	a.Write([]byte{dgt.CmdSerial})
	if got := read(8); !bytes.Equal(got, []byte{0x91, 0, 8, '0', '1', '0', '2', '5'}) {
		t.Errorf("serial % x", got)
	}
	a.Write([]byte{dgt.CmdVersion})
	if got := read(5); !bytes.Equal(got, []byte{0x93, 0, 5, 1, 2}) {
		t.Errorf("version % x", got)
	}
	a.Write([]byte{dgt.CmdBattery})
	if got := read(12); got[0] != 0xa0 || got[2] != 12 || got[3] != 64 {
		t.Errorf("battery % x", got)
	}
	a.Write([]byte{dgt.CmdSendBoard})
	want := fen.Start
	want[sq("e2")] = fen.Empty
	if got := read(67); !bytes.Equal(got, dgt.EncodeBoard(&want)) {
		t.Errorf("dump % x", got)
	}
	a.Write([]byte{dgt.CmdUpdateBoard, dgt.CmdVersion})
	read(5) // the board has taken the command before it
	go sim.Place(sq("e4"), fen.WhitePawn)
	if got := read(5); !bytes.Equal(got, []byte{0x8e, 0, 5, 36, 1}) {
		t.Errorf("field update % x", got)
	}
}
