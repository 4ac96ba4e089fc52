package dgt

import (
	"bytes"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// startDump is the board dump of the initial position as a DGT board sends
// it: a8 first, so the black pieces come first.
var startDump = []byte{
	0x86, 0x00, 0x43,
	0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08, // a8..h8: r n b q k b n r
	0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
	0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02, // a1..h1: R N B Q K B N R
}

func decodeAll(p []byte) ([]Message, Stats) {
	var d Decoder
	var out []Message
	d.Feed(p, func(m Message) { out = append(out, m) })
	return out, d.Stats()
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestDecodeFrames(t *testing.T) {
	e2 := fen.NewSquare(4, 1)
	e4 := fen.NewSquare(4, 3)
	for _, tc := range []struct {
		name    string
		in      []byte
		want    []Message
		dropped int
		skipped int
	}{
		{"initial dump", startDump, []Message{{Kind: KindBoard, Position: fen.Start}}, 0, 0},
		// Field 52 is e2 (row 6 from a8, file 4); 36 is e4.
		{"e2 lifted", []byte{0x8e, 0x00, 0x05, 52, 0x00}, []Message{{Kind: KindField, Square: e2, Piece: fen.Empty}}, 0, 0},
		{"white pawn on e4", []byte{0x8e, 0x00, 0x05, 36, 0x01}, []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 0, 0},
		{"black queen on h1", []byte{0x8e, 0x00, 0x05, 63, 0x0c}, []Message{{Kind: KindField, Square: fen.NewSquare(7, 0), Piece: fen.BlackQueen}}, 0, 0},
		{"pointing device", []byte{0x8e, 0x00, 0x05, 0, 0x0d}, []Message{{Kind: KindField, Square: fen.NewSquare(0, 7), Piece: fen.Unknown}}, 0, 0},
		{"serial (new firmware)", []byte{0x91, 0x00, 0x08, '0', '1', '0', '2', '5'}, []Message{{Kind: KindSerial, Text: "01025"}}, 0, 0},
		{"serial (1.03 header)", []byte{0x91, 0x00, 0x0c, '0', '0', '1', '3', '7', ' ', '1', '.', '0'}, []Message{{Kind: KindSerial, Text: "00137 1.0"}}, 0, 0},
		{"long serial", cat([]byte{0xa2, 0x00, 0x0d}, []byte("0123456789")), []Message{{Kind: KindLongSerial, Text: "0123456789"}}, 0, 0},
		{"version 1.2", []byte{0x93, 0x00, 0x05, 0x01, 0x02}, []Message{{Kind: KindVersion, Text: "1.2"}}, 0, 0},
		{"battery 87% charging", []byte{0xa0, 0x00, 0x0c, 87, 0x7f, 0x7f, 1, 2, 0, 3, 4, 0x01}, []Message{{Kind: KindBattery, Battery: eboard.Battery{Known: true, Percent: 87, Charging: true}}}, 0, 0},
		{"battery, short form", []byte{0xa0, 0x00, 0x07, 50, 1, 2, 3}, []Message{{Kind: KindBattery, Battery: eboard.Battery{Known: true, Percent: 50}}}, 0, 0},
		{"trademark", cat([]byte{0x92, 0x00, 0x03 + 10}, []byte("DGT\r\nBoard")), []Message{{Kind: KindTrademark, Text: "DGT Board"}}, 0, 0},
		{"clock times skipped", []byte{0x8d, 0x00, 0x0a, 0, 0x05, 0, 0, 0x05, 0, 0x01}, nil, 0, 1},
		{"empty message skipped", []byte{0x80, 0x00, 0x03}, nil, 0, 1},

		{"garbage before a frame", cat([]byte{0x00, 0x13, 0x7f}, []byte{0x8e, 0x00, 0x05, 52, 0x00}), []Message{{Kind: KindField, Square: e2}}, 3, 0},
		{"frame cut short by another", cat([]byte{0x86, 0x00, 0x43, 1, 2, 3}, []byte{0x8e, 0x00, 0x05, 36, 0x01}), []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 6, 0},
		{"field update that lies about its length", cat([]byte{0x8e, 0x00, 0x06, 36, 1, 1}, []byte{0x8e, 0x00, 0x05, 36, 0x01}), []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 6, 0},
		{"dump of 200 squares", cat([]byte{0x86, 0x01, 0x4b}, make([]byte, 200), []byte{0x8e, 0x00, 0x05, 36, 0x01}), []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 203, 0},
		{"length below the header", cat([]byte{0x8e, 0x00, 0x02}, []byte{0x8e, 0x00, 0x05, 36, 0x01}), []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 3, 0},
		{"field off the board", []byte{0x8e, 0x00, 0x05, 64, 0x01}, nil, 5, 0},
		{"piece code 16", []byte{0x8e, 0x00, 0x05, 3, 0x10}, nil, 5, 0},
		{"battery over 100%", []byte{0xa0, 0x00, 0x04, 101}, nil, 4, 0},
		{"dump with a code above 15", cat(startDump[:10], []byte{0x7f}, startDump[11:]), nil, 67, 0},
		{"unknown id, long, then a frame", cat([]byte{0xff, 0x7f, 0x7f}, bytes.Repeat([]byte{1}, 100), []byte{0x8e, 0x00, 0x05, 36, 0x01}), []Message{{Kind: KindField, Square: e4, Piece: fen.WhitePawn}}, 103, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, st := decodeAll(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d messages %+v, want %d", len(got), got, len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("message %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			if st.Dropped != tc.dropped || st.Skipped != tc.skipped {
				t.Errorf("dropped %d skipped %d, want %d and %d", st.Dropped, st.Skipped, tc.dropped, tc.skipped)
			}
		})
	}
}

// TestDecodeByteAtATime: a stream split anywhere decodes as a whole.
func TestDecodeByteAtATime(t *testing.T) {
	in := cat([]byte{0x01, 0x02}, startDump, []byte{0x8e, 0x00, 0x05, 52, 0x00}, []byte{0x93, 0x00, 0x05, 1, 7})
	whole, _ := decodeAll(in)
	var d Decoder
	var split []Message
	for i := range in {
		d.Feed(in[i:i+1], func(m Message) { split = append(split, m) })
	}
	if len(whole) != 3 || len(split) != 3 {
		t.Fatalf("whole %d, split %d messages, want 3", len(whole), len(split))
	}
	for i := range whole {
		if whole[i] != split[i] {
			t.Errorf("message %d: whole %+v, split %+v", i, whole[i], split[i])
		}
	}
	if !d.Resynced() || d.Resynced() {
		t.Error("Resynced should report the dropped garbage once")
	}
}

// TestEncodeRoundTrip: what the simulator encodes, the decoder reads back.
func TestEncodeRoundTrip(t *testing.T) {
	pos := fen.MustParsePlacement("r3k2r/pPpq1ppp/2n5/3Pp3/8/5N2/P4PPP/R3K2R")
	got, st := decodeAll(cat(EncodeBoard(&pos), EncodeField(fen.NewSquare(1, 7), fen.WhiteKnight)))
	if st.Dropped != 0 || len(got) != 2 {
		t.Fatalf("got %+v, stats %+v", got, st)
	}
	if got[0].Position != pos {
		t.Errorf("dump read back as %s, want %s", got[0].Position.String(), pos.String())
	}
	if got[1].Square != fen.NewSquare(1, 7) || got[1].Piece != fen.WhiteKnight {
		t.Errorf("field update read back as %+v", got[1])
	}
	if !bytes.Equal(EncodeBoard(&fen.Start), startDump) {
		t.Errorf("EncodeBoard(Start) = % x, want % x", EncodeBoard(&fen.Start), startDump)
	}
}

func TestSquareField(t *testing.T) {
	for f := byte(0); f < 64; f++ {
		if SquareField(FieldSquare(f)) != f {
			t.Fatalf("field %d does not round-trip", f)
		}
	}
	if s := FieldSquare(0).String(); s != "a8" {
		t.Errorf("field 0 = %s, want a8", s)
	}
	if s := FieldSquare(63).String(); s != "h1" {
		t.Errorf("field 63 = %s, want h1", s)
	}
	if s := FieldSquare(57).String(); s != "b1" {
		t.Errorf("field 57 = %s, want b1", s)
	}
}

// TestTenThousandUpdates: a second of 10,000 field updates, far above what
// 9600 baud carries (192 a second), decodes to 10,000 messages, all kept.
func TestTenThousandUpdates(t *testing.T) {
	var in []byte
	for i := range 10000 {
		in = append(in, EncodeField(fen.Square(i%64), fen.Piece(i%13))...)
	}
	got, st := decodeAll(in)
	if len(got) != 10000 || st.Dropped != 0 {
		t.Fatalf("%d messages, %d bytes dropped", len(got), st.Dropped)
	}
}

func BenchmarkDecodeFieldUpdates(b *testing.B) {
	var in []byte
	for i := range 1000 {
		in = append(in, EncodeField(fen.Square(i%64), fen.Piece(i%13))...)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var d Decoder
		d.Feed(in, func(Message) { n++ })
	}
}

// FuzzDecode: any input decodes without panic; every byte is accounted for
// (decoded, skipped, dropped, or still held as a partial message); every
// message is well formed; and splitting the input changes nothing.
func FuzzDecode(f *testing.F) {
	f.Add(startDump)
	f.Add([]byte{0x8e, 0x00, 0x05, 52, 0x00})
	f.Add(cat([]byte{0x86, 0x01, 0x4b}, make([]byte, 200)))
	f.Add([]byte{0x91, 0x00, 0x08, '0', '1', '0', '2', '5', 0x93, 0x00, 0x05, 1, 2})
	f.Add([]byte{0xa0, 0x00, 0x0c, 87, 0x7f, 0x7f, 1, 2, 0, 3, 4, 0x01})
	f.Add([]byte{0x8d, 0x00, 0x0a, 0, 0x05, 0, 0, 0x05, 0, 0x01, 0xff, 0x7f, 0x7f, 0x80})
	f.Add([]byte{0x8e, 0x00, 0x06, 36, 1, 1, 0x8e, 0x00, 0x05, 36, 0x01})
	f.Fuzz(func(t *testing.T, in []byte) {
		var d Decoder
		var whole []Message
		d.Feed(in, func(m Message) {
			switch m.Kind {
			case KindBoard:
			case KindField:
				if m.Square > 63 || m.Piece > fen.Unknown {
					t.Fatalf("bad field update %+v", m)
				}
			case KindSerial, KindLongSerial, KindVersion, KindTrademark:
				if len(m.Text) > 300 {
					t.Fatalf("text of %d bytes", len(m.Text))
				}
			case KindBattery:
				if m.Battery.Percent < 0 || m.Battery.Percent > 100 {
					t.Fatalf("battery %d%%", m.Battery.Percent)
				}
			default:
				t.Fatalf("message of kind %d", m.Kind)
			}
			whole = append(whole, m)
		})
		st := d.Stats()
		if st.Messages != len(whole) {
			t.Fatalf("Stats.Messages %d, %d emitted", st.Messages, len(whole))
		}
		if st.Dropped > len(in) {
			t.Fatalf("dropped %d of %d bytes", st.Dropped, len(in))
		}
		var s Decoder
		var split []Message
		for i := 0; i < len(in); i += 7 {
			s.Feed(in[i:min(i+7, len(in))], func(m Message) { split = append(split, m) })
		}
		if len(split) != len(whole) || s.Stats() != st {
			t.Fatalf("split: %d messages %+v, whole: %d %+v", len(split), s.Stats(), len(whole), st)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("message %d differs when split", i)
			}
		}
	})
}
