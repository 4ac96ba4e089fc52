package clocklog

import (
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Format is the version of the log format this package writes. Logs of
// version 1 to Format are read.
const Format = 2

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum is the CRC-32C (Castagnoli) of a line's text.
func checksum(text []byte) uint32 { return crc32.Checksum(text, castagnoli) }

// endLine ends the line whose text is b[start:]: it appends the format 2
// checksum, " *" and 8 lowercase hex digits, and the newline.
func endLine(b []byte, start int) []byte {
	sum := checksum(b[start:])
	b = append(b, ' ', '*')
	const hex = "0123456789abcdef"
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, hex[sum>>uint(shift)&0xf])
	}
	return append(b, '\n')
}

// AppendHeader appends the header lines of h to b, in format 2 (whatever
// h.Format says): the format line, the control line(s) and every option.
func AppendHeader(b []byte, h Header) []byte {
	line := func(parts ...string) {
		start := len(b)
		b = append(b, strings.Join(parts, " ")...)
		b = endLine(b, start)
	}
	line("format", strconv.Itoa(Format))
	if h.Controls.White.Equal(h.Controls.Black) {
		line("control", timecontrol.Format(h.Controls.White))
	} else {
		line("control", "white", timecontrol.Format(h.Controls.White))
		line("control", "black", timecontrol.Format(h.Controls.Black))
	}
	for _, name := range clock.OptionNames {
		line("option", name, h.Options.Get(name))
	}
	return b
}

// AppendEvent appends e as a format 2 log line, with its checksum and
// newline, to b. A checkpoint names its running side if e.Side does.
func AppendEvent(b []byte, e Event) []byte {
	start := len(b)
	b = appendEventText(b, e)
	return endLine(b, start)
}

// AppendCheckpoint appends a checkpoint at instant at that also restates
// the header h: the running side (if White or Black), the controls and every
// option, so that a log whose header is damaged can still be read. The
// journal writes it for its checkpoints while a clock runs.
func AppendCheckpoint(b []byte, at int64, running clock.Side, h Header) []byte {
	start := len(b)
	b = appendEventText(b, Event{At: at, Verb: Checkpoint, Side: running})
	b = append(b, " control="...)
	b = append(b, timecontrol.FormatPair(h.Controls)...)
	for _, name := range clock.OptionNames {
		b = append(b, ' ')
		b = append(b, name...)
		b = append(b, '=')
		b = append(b, h.Options.Get(name)...)
	}
	return endLine(b, start)
}

// AppendComment appends a comment line, "# text" with its checksum, to b.
// Line breaks in text become spaces.
func AppendComment(b []byte, text string) []byte {
	start := len(b)
	b = append(b, "# "...)
	for _, r := range text {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		b = append(b, string(r)...)
	}
	return endLine(b, start)
}

// appendEventText appends the text of e's line: no checksum, no newline.
func appendEventText(b []byte, e Event) []byte {
	b = strconv.AppendInt(b, e.At, 10)
	b = append(b, ' ')
	b = append(b, e.Verb.String()...)
	if e.Verb == GameResult {
		b = append(b, ' ')
		b = append(b, e.Result.String()...)
		b = append(b, ' ')
		return append(b, e.By.String()...)
	}
	switch e.Verb {
	case BoardMove:
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.Value, 10)
		b = append(b, ' ')
		b = append(b, e.Board.SAN...)
		b = append(b, ' ')
		return append(b, e.Board.UCI...)
	case BoardPosition:
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.Value, 10)
		b = append(b, ' ')
		return append(b, e.Board.FEN...)
	}
	n := e.Verb.args()
	if e.Verb == Checkpoint && (e.Side == clock.White || e.Side == clock.Black) {
		n = 1
	}
	switch n {
	case 1:
		b = append(b, ' ')
		b = append(b, e.Side.String()...)
	case 2:
		b = append(b, ' ')
		b = append(b, sideWord(e)...)
		b = append(b, ' ')
		if e.Verb == AddTime && e.Value >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, e.Value, 10)
	}
	return b
}
