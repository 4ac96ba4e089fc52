package dgt

import (
	"fmt"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// Commands to the board.
const (
	CmdReset         = 0x40
	CmdSendBoard     = 0x42
	CmdUpdateBoard   = 0x44
	CmdUpdateNice    = 0x4b
	CmdSerial        = 0x45
	CmdBattery       = 0x4c
	CmdVersion       = 0x4d
	CmdLongSerial    = 0x55
	CmdSendTrademark = 0x47
)

// Message ids from the board: 0x80 | code.
const (
	MsgBoardDump  = 0x86
	MsgClock      = 0x8d
	MsgField      = 0x8e
	MsgEEMoves    = 0x8f
	MsgBusAddress = 0x90
	MsgSerial     = 0x91
	MsgTrademark  = 0x92
	MsgVersion    = 0x93
	MsgBattery    = 0xa0
	MsgLongSerial = 0xa2
)

// Sizes, header included.
const (
	SizeBoardDump = 67
	SizeField     = 5
	SizeVersion   = 5
	headerSize    = 3
	maxFrame      = 1<<14 - 1 // two 7-bit length bytes
)

// sizes gives, per message id the decoder keeps, the least and greatest
// total size it accepts. Messages of other ids are framed and skipped.
var sizes = map[byte][2]int{
	MsgBoardDump:  {SizeBoardDump, SizeBoardDump},
	MsgField:      {SizeField, SizeField},
	MsgVersion:    {SizeVersion, SizeVersion},
	MsgSerial:     {headerSize + 1, headerSize + 16},
	MsgLongSerial: {headerSize + 1, headerSize + 16},
	MsgBattery:    {headerSize + 1, 32},
	MsgTrademark:  {headerSize, 300},
}

const maxKept = 300

// dgtPieces maps DGT piece codes to eboard pieces.
var dgtPieces = [16]fen.Piece{
	fen.Empty,
	fen.WhitePawn, fen.WhiteRook, fen.WhiteKnight, fen.WhiteBishop, fen.WhiteKing, fen.WhiteQueen,
	fen.BlackPawn, fen.BlackRook, fen.BlackKnight, fen.BlackBishop, fen.BlackKing, fen.BlackQueen,
	fen.Unknown, fen.Unknown, fen.Unknown,
}

// Code returns the DGT piece code of p, and false for fen.Unknown.
func Code(p fen.Piece) (byte, bool) {
	for c, q := range dgtPieces[:13] {
		if q == p {
			return byte(c), true
		}
	}
	return 0, false
}

// FieldSquare converts a DGT field number (0 is a8, 63 is h1) to an
// fen.Square.
func FieldSquare(field byte) fen.Square {
	return fen.NewSquare(int(field%8), 7-int(field/8))
}

// SquareField converts an fen.Square to a DGT field number.
func SquareField(s fen.Square) byte { return byte((7-s.Rank())*8 + s.File()) }

// Kind is what a message says.
type Kind uint8

// The kinds of Message.
const (
	KindBoard      Kind = iota + 1 // Position is the whole board
	KindField                      // Square now holds Piece
	KindSerial                     // Text is the serial number
	KindLongSerial                 // Text is the long serial number
	KindVersion                    // Text is the version, "1.7"
	KindBattery                    // Battery
	KindTrademark                  // Text is the trademark message
)

// Message is one message decoded from the board.
type Message struct {
	Kind     Kind
	Position fen.Placement  // KindBoard
	Square   fen.Square     // KindField
	Piece    fen.Piece      // KindField
	Text     string         // KindSerial, KindLongSerial, KindVersion, KindTrademark
	Battery  eboard.Battery // KindBattery
}

// Stats counts what a Decoder threw away.
type Stats struct {
	Messages int // messages decoded
	Skipped  int // well-framed messages of kinds not kept (clock, EEPROM)
	Dropped  int // bytes thrown away: garbage, broken or lying messages
	// Last says why bytes were last dropped ("message 0x86 of 203 bytes,
	// want 67"), "" if none were.
	Last string
}

// Decoder decodes the stream of bytes from a board into messages. Its zero
// value is ready. It is a pure state machine, not safe for concurrent use.
type Decoder struct {
	state   uint8 // 0 wait for id, 1 want length high, 2 want length low, 3 data
	id      byte
	size    int // total size of the message being read
	got     int // bytes of it read, header included
	keep    bool
	buf     [maxKept]byte
	n       int
	stats   Stats
	last    reason
	inRun   bool // bytes were dropped since the last message framed
	resyncs int  // count of drops since the last call to Resynced
}

// Stats returns the counts so far.
func (d *Decoder) Stats() Stats {
	s := d.stats
	s.Last = d.last.String()
	return s
}

// reason is why bytes were dropped, kept unformatted so that garbage costs
// no allocation.
type reason struct {
	why  uint8
	id   byte // the message's id
	b    byte // the byte that ended it, or the stray byte
	size int  // the message's length, or bytes read of it
}

const (
	whyNone uint8 = iota
	whyOutside
	whyCut
	whyShort
	whySize
	whyRange
)

func (r reason) String() string {
	switch r.why {
	case whyOutside:
		return fmt.Sprintf("byte 0x%02x outside a message", r.b)
	case whyCut:
		return fmt.Sprintf("message 0x%02x cut short after %d bytes by 0x%02x", r.id, r.size, r.b)
	case whyShort:
		return fmt.Sprintf("message 0x%02x of %d bytes, shorter than its header", r.id, r.size)
	case whySize:
		lim := sizes[r.id]
		want := itoa(lim[0])
		if lim[1] != lim[0] {
			want += " to " + itoa(lim[1])
		}
		return fmt.Sprintf("message 0x%02x of %d bytes, want %s", r.id, r.size, want)
	case whyRange:
		return fmt.Sprintf("message 0x%02x holds a value out of range", r.id)
	}
	return ""
}

// Resynced reports whether bytes were dropped since the last call: the
// caller may then ask the board for a dump, since a field update may have
// been lost.
func (d *Decoder) Resynced() bool {
	r := d.resyncs > 0
	d.resyncs = 0
	return r
}

func (d *Decoder) drop(n int, why reason) {
	d.stats.Dropped += n
	// Stray bytes after a dropped message are its data: the reason is the
	// message's.
	if why.why != whyOutside || !d.inRun {
		d.last = why
	}
	d.inRun = true
	d.resyncs++
	d.state = 0
}

// Feed decodes p, calling emit for each message completed by it, in order.
// It keeps a partial message for the next call. It never fails: bytes that
// make no message are counted in Stats.Dropped.
func (d *Decoder) Feed(p []byte, emit func(Message)) {
	for _, b := range p {
		if b&0x80 != 0 {
			if d.state != 0 {
				// A new message starts inside one: the one being read
				// was cut short or lied about its length.
				d.drop(d.got, reason{whyCut, d.id, b, d.got})
			}
			d.id, d.state, d.got = b, 1, 1
			continue
		}
		switch d.state {
		case 0:
			d.drop(1, reason{whyOutside, 0, b, 0})
		case 1:
			d.size = int(b) << 7
			d.state, d.got = 2, 2
		case 2:
			d.size |= int(b)
			d.got = 3
			lim, kept := sizes[d.id]
			switch {
			case d.size < headerSize:
				d.drop(d.got, reason{whyShort, d.id, 0, d.size})
				continue
			case kept && (d.size < lim[0] || d.size > lim[1]):
				d.drop(d.got, reason{whySize, d.id, 0, d.size})
				continue
			}
			d.keep = kept
			d.n = 0
			d.state = 3
			if d.size == headerSize {
				d.finish(emit)
			}
		case 3:
			if d.keep {
				d.buf[d.n] = b
				d.n++
			}
			d.got++
			if d.got == d.size {
				d.finish(emit)
			}
		}
	}
}

func (d *Decoder) finish(emit func(Message)) {
	d.state = 0
	d.inRun = false
	if !d.keep {
		d.stats.Skipped++
		return
	}
	m, ok := parse(d.id, d.buf[:d.n])
	if !ok {
		d.drop(d.size, reason{whyRange, d.id, 0, d.size})
		return
	}
	d.stats.Messages++
	emit(m)
}

// parse reads the data of a kept message; false if it is not well formed.
func parse(id byte, data []byte) (Message, bool) {
	var m Message
	switch id {
	case MsgBoardDump:
		m.Kind = KindBoard
		for i, c := range data {
			if c > 15 {
				return m, false
			}
			m.Position[FieldSquare(byte(i))] = dgtPieces[c]
		}
	case MsgField:
		if data[0] > 63 || data[1] > 15 {
			return m, false
		}
		m.Kind, m.Square, m.Piece = KindField, FieldSquare(data[0]), dgtPieces[data[1]]
	case MsgSerial, MsgLongSerial, MsgTrademark:
		m.Kind = map[byte]Kind{MsgSerial: KindSerial, MsgLongSerial: KindLongSerial, MsgTrademark: KindTrademark}[id]
		m.Text = printable(data)
	case MsgVersion:
		m.Kind = KindVersion
		m.Text = itoa(int(data[0])) + "." + itoa(int(data[1]))
	case MsgBattery:
		if data[0] > 100 {
			return m, false
		}
		m.Kind = KindBattery
		m.Battery = eboard.Battery{Known: true, Percent: int(data[0])}
		if len(data) >= 9 {
			m.Battery.Charging = data[8]&1 != 0
		}
	default:
		return m, false
	}
	return m, true
}

// printable keeps the printable ASCII of b, with runs of other bytes (line
// breaks in the trademark) as one space, trimmed.
func printable(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			out = append(out, c)
		} else if len(out) > 0 && out[len(out)-1] != ' ' {
			out = append(out, ' ')
		}
	}
	for len(out) > 0 && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
	}
	return string(out)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Encode returns the bytes of a message as a board sends it: id, the two
// length bytes and data. Data bytes must have their top bit clear. For the
// simulator and tests.
func Encode(id byte, data ...byte) []byte {
	n := headerSize + len(data)
	return append([]byte{id, byte(n>>7) & 0x7f, byte(n) & 0x7f}, data...)
}

// EncodeBoard returns the board dump of p.
func EncodeBoard(p *fen.Placement) []byte {
	data := make([]byte, 64)
	for f := range data {
		c, ok := Code(p[FieldSquare(byte(f))])
		if !ok {
			c = 13
		}
		data[f] = c
	}
	return Encode(MsgBoardDump, data...)
}

// EncodeField returns the field update saying s now holds p.
func EncodeField(s fen.Square, p fen.Piece) []byte {
	c, ok := Code(p)
	if !ok {
		c = 13
	}
	return Encode(MsgField, SquareField(s), c)
}
