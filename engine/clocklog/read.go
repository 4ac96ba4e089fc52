package clocklog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// MaxLine is the longest line read; a longer one is an error.
const MaxLine = 4096

// Line kinds.
const (
	blankLine  = iota // blank, or only a comment
	headerLine        // format, control or option
	eventLine         // MS VERB [ARGS]
)

// line is one line of a log as read, and what was made of it.
type line struct {
	n    int    // line number, from 1
	raw  string // as read, without the newline
	torn bool   // the last line, without its newline
	sum  int    // noSum, badSum or goodSum: how raw ends
	end  int    // with a good checksum, where its text ends in raw

	text     string // the line without its checksum (format 2), as repaired
	damaged  string // why the line cannot be used; "" if it can
	repaired string // how a damaged line was repaired; "" if it was not

	kind int
	// Header lines.
	dir    string     // format, control or option
	format int        // format N
	side   clock.Side // control white|black; NoSide for both
	ctl    timecontrol.Control
	name   string // option NAME VALUE
	value  string
	// Event lines.
	ev      Event
	restate *restated // what a checkpoint restates of the header
	reuse   *restated // the previous checkpoint's, taken if it restates the same
}

// How a line ends.
const (
	noSum   = iota // not like a format 2 line
	badSum         // like a format 2 line, with a wrong checksum
	goodSum        // a format 2 line with its right checksum
)

// newLine makes line n of raw (which it copies) and checks how it ends. It
// uses l if not nil.
func newLine(l *line, n int, raw []byte, torn bool) *line {
	if l == nil {
		l = new(line)
	}
	*l = line{n: n, raw: string(raw), torn: torn}
	if text, ok := checked(raw); ok {
		l.sum, l.end = goodSum, len(text)
	} else if hasChecksum(raw) {
		l.sum = badSum
	}
	return l
}

// restated is the header a checkpoint repeats.
type restated struct {
	controls *timecontrol.Pair
	options  clock.Options
	set      map[string]bool // the options named
	args     []string        // as written
}

// readLines reads every line of r. A read error ends the lines with an
// error.
func readLines(r io.Reader) ([]*line, error) {
	br := bufio.NewReaderSize(r, MaxLine+1)
	var lines []*line
	var buf []byte
	for {
		raw, err := readLine(br, &buf)
		if raw != nil {
			lines = append(lines, newLine(nil, len(lines)+1, raw, errors.Is(err, io.EOF)))
		}
		if errors.Is(err, io.EOF) {
			return lines, nil
		}
		if err != nil {
			return lines, err
		}
	}
}

// readLine reads one line without its newline. At the end of the input it
// returns the last, unterminated line with io.EOF, or nil and io.EOF. A
// line longer than MaxLine is returned cut to MaxLine+1 bytes. The line is
// valid until the next call: it is in buf, or in br's buffer.
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	chunk, err := br.ReadSlice('\n')
	if err == nil {
		return chunk[:len(chunk)-1], nil
	}
	line := append((*buf)[:0], chunk...)
	defer func() { *buf = line[:0] }()
	for err == bufio.ErrBufferFull {
		if len(line) > MaxLine {
			// Skip the rest of an overlong line.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return line[:MaxLine+1], err
			}
			return line[:MaxLine+1], nil
		}
		chunk, err = br.ReadSlice('\n')
		line = append(line, chunk...)
	}
	if err != nil {
		if len(line) == 0 {
			return nil, err
		}
		return line, err
	}
	return line[:len(line)-1], nil
}

// checked splits a format 2 line into its text and checksum and reports
// whether the checksum is the text's. A line is TEXT, a space, '*' and 8
// lowercase hex digits; a carriage return at the end is allowed.
func checked(raw []byte) ([]byte, bool) {
	raw = bytes.TrimSuffix(raw, []byte{'\r'})
	n := len(raw)
	if n < 10 || raw[n-10] != ' ' || raw[n-9] != '*' {
		return nil, false
	}
	var sum uint32
	for _, c := range raw[n-8:] {
		switch {
		case c >= '0' && c <= '9':
			sum = sum<<4 | uint32(c-'0')
		case c >= 'a' && c <= 'f':
			sum = sum<<4 | uint32(c-'a'+10)
		default:
			return nil, false
		}
	}
	text := raw[:n-10]
	return text, checksum(text) == sum
}

// CheckLine splits one line of a format 2 journal, without its newline,
// into its text and checksum: text is the line without " *XXXXXXXX",
// summed whether the line ends like a format 2 line, ok whether its
// checksum is its text's. A line without a checksum comes back whole,
// summed and ok false.
func CheckLine(line []byte) (text []byte, summed, ok bool) {
	if !hasChecksum(line) {
		return bytes.TrimSuffix(line, []byte{'\r'}), false, false
	}
	text, ok = checked(line)
	if !ok {
		t := bytes.TrimSuffix(line, []byte{'\r'})
		text = t[:len(t)-10]
	}
	return text, true, ok
}

// Instant returns the instant an event line of the log starts with, as
// the log reads it: the first word, a whole number of milliseconds from 0
// to clock.MaxInstant without a sign. It is false for a header line, a
// comment, a blank line and a line whose first word is no instant; it
// reads nothing else of the line (not its checksum).
func Instant(line string) (int64, bool) {
	line = strings.TrimLeft(line, " \t")
	word := line
	if i := strings.IndexAny(line, " \t\r"); i >= 0 {
		word = line[:i]
	}
	if word == "" || len(word) > 18 {
		return 0, false
	}
	var at int64
	for i := 0; i < len(word); i++ {
		if word[i] < '0' || word[i] > '9' {
			return 0, false
		}
		at = at*10 + int64(word[i]-'0')
	}
	return at, at <= clock.MaxInstant
}

// WithChecksum is text as a format 2 line: text, " *" and its checksum
// in 8 lowercase hex digits, without a newline.
func WithChecksum(text string) string {
	b := endLine([]byte(text), 0)
	return string(b[:len(b)-1])
}

// hasChecksum reports whether raw ends like a format 2 line, whether or not
// its checksum is right.
func hasChecksum(raw []byte) bool {
	raw = bytes.TrimSuffix(raw, []byte{'\r'})
	n := len(raw)
	if n < 10 || raw[n-10] != ' ' || raw[n-9] != '*' {
		return false
	}
	for _, c := range raw[n-8:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func blank(raw string) bool { return len(strings.TrimSpace(raw)) == 0 }

// version says which format the lines are in: 2 if any line's checksum is
// right (a damaged line cannot make a right one but by a 1 in 2^32 chance),
// or any line but a comment ends like a format 2 line (which no format 1
// line but a comment can); else 1.
func version(lines []*line) int {
	for _, l := range lines {
		if len(l.raw) > MaxLine {
			continue
		}
		if l.sum == goodSum || l.sum == badSum && commentAt(l.raw) < 0 {
			return 2
		}
	}
	return 1
}

// verify sets the text of every line of a format 2 log, or marks it
// damaged.
func verify(lines []*line) {
	for _, l := range lines {
		verifyLine(l)
	}
}

// verifyLine sets the text of a line of a format 2 log, or marks it
// damaged.
func verifyLine(l *line) {
	switch text := l.raw[:l.end]; {
	case len(l.raw) > MaxLine:
		l.damaged = fmt.Sprintf("line longer than %d bytes", MaxLine)
	case blank(l.raw) || l.sum == goodSum && blank(text):
		l.damaged = "blank line: format 2 writes none"
	case l.sum == goodSum:
		l.text = text
	case l.sum == badSum:
		l.damaged = "checksum mismatch: the line is damaged"
	default:
		l.damaged = "no checksum: every format 2 line ends in ' *' and the CRC-32C of its text in 8 hex digits"
	}
}

// readText sets the text of every line of a format 1 log.
func readText(lines []*line) {
	for _, l := range lines {
		readTextLine(l)
	}
}

// readTextLine sets the text of a line of a format 1 log.
func readTextLine(l *line) {
	if len(l.raw) > MaxLine {
		l.damaged = fmt.Sprintf("line longer than %d bytes", MaxLine)
		return
	}
	l.text = l.raw
}

// appendFields appends the fields of s to dst, as strings.Fields splits
// them.
func appendFields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		var space bool
		if c < utf8.RuneSelf {
			space = c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// commentAt is where a line's comment starts, -1 for none: a '#' at the
// start of the line or after a space or tab. A '#' within a word is
// part of it: a move line's SAN of a mate ("812340 move 57 Qh7# h5h7").
func commentAt(text string) int {
	for i := 0; i < len(text); i++ {
		if text[i] == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// parseText reads the text of a line (a format 1 line, or a format 2 line
// without its checksum) into l. It returns what is wrong with it, or "".
func (l *line) parseText(format int) string {
	text := l.text
	if i := commentAt(text); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimSuffix(text, "\r")
	var buf [16]string
	fields := appendFields(buf[:0], text)
	l.kind = blankLine
	if len(fields) == 0 {
		return ""
	}
	for _, f := range fields {
		for _, r := range f {
			if r == 0xfffd || r < 0x20 {
				return fmt.Sprintf("invalid character in %q", f)
			}
		}
	}
	head := fields[0]
	if head[0] >= '0' && head[0] <= '9' || head[0] == '-' || head[0] == '+' {
		l.kind = eventLine
		return l.parseEvent(fields)
	}
	l.kind = headerLine
	l.dir = head
	switch head {
	case "format":
		if len(fields) != 2 {
			return "want 'format N'"
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 1 {
			return fmt.Sprintf("format: want a version number, got %q", fields[1])
		}
		l.format = n
		if n > Format {
			return fmt.Sprintf("format %d is newer than this zeitnot reads (up to %d)", n, Format)
		}
		if n != format {
			if n == 2 {
				return "format 2, but no line has a right checksum: a format 2 line ends in ' *' and the CRC-32C of its text in 8 hex digits"
			}
			return fmt.Sprintf("format %d, but the lines carry format 2 checksums", n)
		}
	case "control":
		switch len(fields) {
		case 2:
			c, err := timecontrol.Parse(fields[1])
			if err != nil {
				return fmt.Sprintf("control: %v", err)
			}
			l.side, l.ctl = clock.NoSide, c
		case 3:
			side, err := clock.ParseSide(fields[1])
			if err != nil {
				return fmt.Sprintf("control: %v", err)
			}
			c, err := timecontrol.Parse(fields[2])
			if err != nil {
				return fmt.Sprintf("control %s: %v", fields[1], err)
			}
			l.side, l.ctl = side, c
		default:
			return "want 'control SPEC' or 'control white|black SPEC'"
		}
	case "option":
		if len(fields) != 3 {
			return "want 'option NAME VALUE'"
		}
		var o clock.Options
		if err := o.Set(fields[1], fields[2]); err != nil {
			return err.Error()
		}
		l.name, l.value = fields[1], fields[2]
	default:
		return fmt.Sprintf("unknown directive %q, want format, control, option or 'MS VERB'", head)
	}
	return ""
}

// argParsers read the arguments of the verbs that take more than a side
// and a number.
var argParsers = map[Verb]func(*Event, []string) string{
	GameResult:    parseResultArgs,
	BoardMove:     parseBoard,
	BoardPosition: parseBoard,
	SetIncrement:  parseIncrement,
}

func (l *line) parseEvent(fields []string) string {
	at, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || at < 0 || at > clock.MaxInstant || fields[0][0] == '+' {
		return fmt.Sprintf("instant %q: want milliseconds, a whole number from 0 to %d (30 days)", fields[0], clock.MaxInstant)
	}
	if len(fields) < 2 {
		return fmt.Sprintf("instant %d has no verb", at)
	}
	verb, ok := parseVerb(fields[1])
	if !ok {
		return fmt.Sprintf("unknown verb %q, want start, press, pause, resume, show, checkpoint, set, add, moves, period, turn, clear-overstep, increment, result, move or position", fields[1])
	}
	e := Event{At: at, Verb: verb, Side: clock.NoSide}
	args := fields[2:]
	if verb == Checkpoint {
		if msg := l.parseCheckpoint(&e, args); msg != "" {
			return msg
		}
		l.ev = e
		return ""
	}
	if parse := argParsers[verb]; parse != nil {
		if msg := parse(&e, args); msg != "" {
			return msg
		}
		l.ev = e
		return ""
	}
	n := verb.args()
	if len(args) != n {
		return fmt.Sprintf("%s takes %d argument(s), got %d", verb, n, len(args))
	}
	if n >= 1 {
		if e.Side, err = clock.ParseSide(args[0]); err != nil {
			return fmt.Sprintf("%s: %v", verb, err)
		}
	}
	if n == 2 {
		s := args[1]
		v, err := strconv.ParseInt(s, 10, 64)
		bad := err != nil
		switch verb {
		case AddTime:
			bad = bad || v < -clock.MaxTime || v > clock.MaxTime
		case SetTime:
			bad = bad || v < 0 || v > clock.MaxTime || s[0] == '+'
		default:
			bad = bad || v < 0 || v > 9999 || s[0] == '+' || verb == SetPeriod && v < 1
		}
		if bad {
			return fmt.Sprintf("%s %s: bad number %q", verb, args[0], s)
		}
		e.Value = v
	}
	l.ev = e
	return ""
}

// parseCheckpoint reads a checkpoint's arguments: an optional running side,
// then NAME=VALUE for the control and options it restates.
func (l *line) parseCheckpoint(e *Event, args []string) string {
	if len(args) > 0 && !strings.Contains(args[0], "=") {
		side, err := clock.ParseSide(args[0])
		if err != nil {
			return fmt.Sprintf("checkpoint: %v", err)
		}
		e.Side = side
		args = args[1:]
	}
	if len(args) == 0 {
		return ""
	}
	if l.reuse != nil && slices.Equal(l.reuse.args, args) {
		l.restate = l.reuse
		return ""
	}
	re := &restated{set: map[string]bool{}, args: slices.Clone(args)}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Sprintf("checkpoint: want NAME=VALUE after the side, got %q", a)
		}
		if name == "control" && re.controls == nil {
			pair, err := timecontrol.ParsePair(value)
			if err != nil {
				return fmt.Sprintf("checkpoint: control: %v", err)
			}
			if err := pair.Validate(); err != nil {
				return fmt.Sprintf("checkpoint: control: %v", err)
			}
			re.controls = &pair
			continue
		}
		if re.set[name] || name == "control" {
			return fmt.Sprintf("checkpoint: %s named twice", name)
		}
		if err := re.options.Set(name, value); err != nil {
			return fmt.Sprintf("checkpoint: %v", err)
		}
		re.set[name] = true
	}
	l.restate = re
	return ""
}

// Parse reads a whole log and stops at the first line it cannot use: a
// malformed line, or in format 2 a line whose checksum is wrong. name is the
// file name used in errors.
func Parse(name string, r io.Reader) (*Log, error) {
	lines, rerr := readLines(r)
	format := version(lines)
	if format == 2 {
		verify(lines)
	} else {
		readText(lines)
	}
	b := newBuilder(name, format)
	errorf := func(l *line, msg string, args ...any) (*Log, error) {
		return nil, &Error{File: name, Line: l.n, Msg: fmt.Sprintf(msg, args...)}
	}
	events := false
	var last *line
	for _, l := range lines {
		last = l
		if l.damaged != "" {
			msg := l.damaged
			var next *line
			if l.n < len(lines) {
				next = lines[l.n]
			}
			if fixed, _ := repair(l, next, format); fixed != nil {
				msg += fmt.Sprintf(" (one flipped bit: it read %q)", fixed[0].text)
			}
			return errorf(l, "%s", msg)
		}
		if msg := l.parseText(format); msg != "" {
			return errorf(l, "%s", msg)
		}
		switch l.kind {
		case headerLine:
			if events {
				return errorf(l, "%q after the first event: header lines come first", l.dir)
			}
			b.header(l)
		case eventLine:
			if events && l.ev.At < b.lastAt {
				return errorf(l, "instant %d is before the previous event's %d: instants never decrease", l.ev.At, b.lastAt)
			}
			if !events {
				if err := b.finish(l.n); err != nil {
					return nil, err
				}
				events = true
			}
			if msg := b.checkRestate(l); msg != "" {
				return errorf(l, "%s", msg)
			}
			b.event(l.ev, l.n)
		}
	}
	if rerr != nil {
		n := 1
		if last != nil {
			n = last.n
		}
		return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("read: %v", rerr)}
	}
	if !events {
		n := 1
		if last != nil {
			n = last.n
		}
		if err := b.finish(n); err != nil {
			return nil, err
		}
	}
	return b.log, nil
}

// builder puts a log together from its lines.
type builder struct {
	name         string
	log          *Log
	white, black timecontrol.Control
	opts         map[string]bool // options the header sets
	lastAt       int64
	done         bool // the header is complete
}

func newBuilder(name string, format int) *builder {
	return &builder{
		name: name,
		log:  &Log{Header: Header{Format: format, Options: clock.DefaultOptions}},
		opts: map[string]bool{},
	}
}

func (b *builder) header(l *line) {
	switch l.dir {
	case "control":
		switch l.side {
		case clock.White:
			b.white = l.ctl
		case clock.Black:
			b.black = l.ctl
		default:
			b.white, b.black = l.ctl, l.ctl
		}
	case "option":
		b.log.Options.Set(l.name, l.value)
		b.opts[l.name] = true
	}
}

func (b *builder) event(e Event, n int) {
	b.log.Events = append(b.log.Events, e)
	b.log.Lines = append(b.log.Lines, n)
	b.lastAt = e.At
}

// finish checks the header is complete and sets the log's controls; n is
// the line that needs it.
func (b *builder) finish(n int) error {
	errorf := func(format string, args ...any) error {
		return &Error{File: b.name, Line: max(n, 1), Msg: fmt.Sprintf(format, args...)}
	}
	if b.white == nil && b.black == nil {
		return errorf("no control line: a log needs 'control SPEC' before its events")
	}
	if b.white == nil {
		return errorf("no control for white: add 'control white SPEC'")
	}
	if b.black == nil {
		return errorf("no control for black: add 'control black SPEC'")
	}
	b.log.Controls = timecontrol.Pair{White: b.white, Black: b.black}
	if err := b.log.Controls.Validate(); err != nil {
		return errorf("%v", err)
	}
	b.done = true
	return nil
}

// checkRestate returns what a checkpoint restates differently from the
// header, or "".
func (b *builder) checkRestate(l *line) string {
	re := l.restate
	if re == nil || !b.done {
		return ""
	}
	if re.controls != nil && !re.controls.Equal(b.log.Controls) {
		return fmt.Sprintf("checkpoint restates control %s, but the header says %s", timecontrol.FormatPair(*re.controls), timecontrol.FormatPair(b.log.Controls))
	}
	for _, name := range clock.OptionNames {
		if re.set[name] && re.options.Get(name) != b.log.Options.Get(name) {
			return fmt.Sprintf("checkpoint restates option %s %s, but the header says %s", name, re.options.Get(name), b.log.Options.Get(name))
		}
	}
	return ""
}
