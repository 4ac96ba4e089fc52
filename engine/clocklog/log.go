package clocklog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Format is the version of the log format this package writes. Logs of
// version 1 to Format are read.
const Format = 1

// Verb is what an event does.
type Verb uint8

const (
	Start Verb = iota + 1
	Press
	Pause
	Resume
	Show
	Checkpoint
	SetTime
	AddTime
	SetMoves
	SetPeriod
	SetTurn
	ClearOverstep
)

var verbNames = [...]string{
	Start:         "start",
	Press:         "press",
	Pause:         "pause",
	Resume:        "resume",
	Show:          "show",
	Checkpoint:    "checkpoint",
	SetTime:       "set",
	AddTime:       "add",
	SetMoves:      "moves",
	SetPeriod:     "period",
	SetTurn:       "turn",
	ClearOverstep: "clear-overstep",
}

func (v Verb) String() string {
	if v > 0 && int(v) < len(verbNames) {
		return verbNames[v]
	}
	return fmt.Sprintf("Verb(%d)", v)
}

// args is how many arguments a verb takes: 0, 1 (a side) or 2 (a side and a
// number).
func (v Verb) args() int {
	switch v {
	case Press, SetTurn, ClearOverstep:
		return 1
	case SetTime, AddTime, SetMoves, SetPeriod:
		return 2
	}
	return 0
}

func parseVerb(s string) (Verb, bool) {
	for i, n := range verbNames {
		if n == s && i > 0 {
			return Verb(i), true
		}
	}
	return 0, false
}

// Event is one event line.
type Event struct {
	At    int64
	Verb  Verb
	Side  clock.Side // for verbs that name a side; NoSide otherwise
	Value int64      // the number of set, add, moves and period
}

// Apply applies e to c. It reports whether e changed the clock, and an error
// for a correction the clock refused (e.g. while running).
func Apply(c *clock.Clock, e Event) (bool, error) {
	switch e.Verb {
	case Start:
		return c.Start(e.At), nil
	case Press:
		return c.Press(e.At, e.Side), nil
	case Pause:
		return c.Pause(e.At), nil
	case Resume:
		return c.Resume(e.At), nil
	case Show, Checkpoint:
		c.Advance(e.At)
		return false, nil
	}
	var err error
	switch e.Verb {
	case SetTime:
		err = c.SetTime(e.At, e.Side, e.Value)
	case AddTime:
		err = c.AddTime(e.At, e.Side, e.Value)
	case SetMoves:
		err = c.SetMoves(e.At, e.Side, int(e.Value))
	case SetPeriod:
		err = c.SetPeriod(e.At, e.Side, int(e.Value))
	case SetTurn:
		err = c.SetTurn(e.At, e.Side)
	case ClearOverstep:
		err = c.ClearOverstep(e.At, e.Side)
	default:
		return false, fmt.Errorf("clocklog: unknown verb %d", e.Verb)
	}
	return err == nil, err
}

// AppendEvent appends e as a log line, with its newline, to b.
func AppendEvent(b []byte, e Event) []byte {
	b = strconv.AppendInt(b, e.At, 10)
	b = append(b, ' ')
	b = append(b, e.Verb.String()...)
	switch e.Verb.args() {
	case 1:
		b = append(b, ' ')
		b = append(b, e.Side.String()...)
	case 2:
		b = append(b, ' ')
		b = append(b, e.Side.String()...)
		b = append(b, ' ')
		if e.Verb == AddTime && e.Value >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, e.Value, 10)
	}
	return append(b, '\n')
}

// String is the event's log line without the newline.
func (e Event) String() string {
	b := AppendEvent(nil, e)
	return string(b[:len(b)-1])
}

// Header is what a log says before its events.
type Header struct {
	Format   int
	Controls timecontrol.Pair
	Options  clock.Options
}

// AppendHeader appends the header lines of h to b.
func AppendHeader(b []byte, h Header) []byte {
	b = fmt.Appendf(b, "format %d\n", Format)
	if h.Controls.White.Equal(h.Controls.Black) {
		b = fmt.Appendf(b, "control %s\n", timecontrol.Format(h.Controls.White))
	} else {
		b = fmt.Appendf(b, "control white %s\n", timecontrol.Format(h.Controls.White))
		b = fmt.Appendf(b, "control black %s\n", timecontrol.Format(h.Controls.Black))
	}
	for _, name := range clock.OptionNames {
		b = fmt.Appendf(b, "option %s %s\n", name, h.Options.Get(name))
	}
	return b
}

// Log is a parsed clock log.
type Log struct {
	Header
	Events []Event
	Lines  []int // Lines[i] is the line number of Events[i]
}

// NewClock returns a clock set up as the log's header says.
func (l *Log) NewClock() (*clock.Clock, error) {
	return clock.New(l.Controls, l.Options)
}

// Error is a problem on one line of a log.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// MaxLine is the longest line read; a longer one is an error.
const MaxLine = 4096

// Parse reads a whole log and stops at the first malformed line. name is the
// file name used in errors.
func Parse(name string, r io.Reader) (*Log, error) {
	l, errs := parse(name, r, false)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return l, nil
}

// Salvage reads as much of a damaged log as is valid: it keeps every event
// up to the first bad line, and returns one error for that line and what was
// dropped after it. It is what recovery after a power cut uses: a torn last
// line, a truncated or corrupt file still give back every event before the
// damage. The returned Log is nil only if the header itself is unusable.
func Salvage(name string, r io.Reader) (*Log, []error) {
	return parse(name, r, true)
}

type reader struct {
	name    string
	line    int
	log     *Log
	white   timecontrol.Control
	black   timecontrol.Control
	events  bool // an event has been read
	lastAt  int64
	headerO bool
}

func (p *reader) errorf(format string, args ...any) *Error {
	return &Error{File: p.name, Line: max(p.line, 1), Msg: fmt.Sprintf(format, args...)}
}

func parse(name string, r io.Reader, salvage bool) (*Log, []error) {
	p := &reader{name: name, log: &Log{Header: Header{Format: Format, Options: clock.DefaultOptions}}}
	br := bufio.NewReaderSize(r, MaxLine+1)
	var errs []error
	for {
		raw, rerr := readLine(br)
		if raw == nil && rerr != nil {
			if !errors.Is(rerr, io.EOF) {
				errs = append(errs, p.errorf("read: %v", rerr))
			}
			break
		}
		p.line++
		var err error
		switch {
		case len(raw) > MaxLine:
			err = p.errorf("line longer than %d bytes", MaxLine)
		case errors.Is(rerr, io.EOF) && salvage:
			// A last line without its newline may have been cut by a
			// power loss: it is applied only if complete and valid,
			// which the newline alone proves. Drop it.
			err = p.errorf("last line %q has no newline (torn write): dropped", string(raw))
		default:
			err = p.directive(string(raw))
		}
		if err != nil {
			errs = append(errs, err)
			if salvage {
				if rest := countRest(br); rest > 0 {
					errs = append(errs, p.errorf("dropped the %d lines after line %d", rest, p.line))
				}
			}
			break
		}
		if rerr != nil {
			break
		}
	}
	if p.log != nil && len(errs) == 0 || salvage {
		if err := p.finish(); err != nil {
			errs = append(errs, err)
			return nil, errs
		}
	}
	return p.log, errs
}

// readLine reads one line without its newline. At the end of the input it
// returns the last, unterminated line with io.EOF, or nil and io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			if len(line) > MaxLine {
				// Skip the rest of an overlong line.
				for err == bufio.ErrBufferFull {
					_, err = br.ReadSlice('\n')
				}
				if err != nil && !errors.Is(err, io.EOF) {
					return nil, err
				}
				return line, nil
			}
			continue
		}
		if err != nil {
			if len(line) == 0 {
				return nil, err
			}
			return line, err
		}
		return line[:len(line)-1], nil
	}
}

func countRest(br *bufio.Reader) int {
	n := 0
	for {
		line, err := readLine(br)
		if line != nil {
			n++
		}
		if err != nil {
			return n
		}
	}
}

func (p *reader) finish() error {
	if p.white == nil && p.black == nil {
		return p.errorf("no control line: a log needs 'control SPEC' before its events")
	}
	if p.white == nil {
		return p.errorf("no control for white: add 'control white SPEC'")
	}
	if p.black == nil {
		return p.errorf("no control for black: add 'control black SPEC'")
	}
	p.log.Controls = timecontrol.Pair{White: p.white, Black: p.black}
	if err := p.log.Controls.Validate(); err != nil {
		return p.errorf("%v", err)
	}
	return nil
}

func (p *reader) directive(line string) error {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(line, "\r")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil
	}
	for _, f := range fields {
		for _, r := range f {
			if r == 0xfffd || r < 0x20 {
				return p.errorf("invalid character in %q", f)
			}
		}
	}
	head := fields[0]
	if head[0] >= '0' && head[0] <= '9' || head[0] == '-' || head[0] == '+' {
		return p.event(fields)
	}
	if p.events {
		return p.errorf("%q after the first event: header lines come first", head)
	}
	switch head {
	case "format":
		if len(fields) != 2 {
			return p.errorf("want 'format N'")
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 1 {
			return p.errorf("format: want a version number, got %q", fields[1])
		}
		if n > Format {
			return p.errorf("format %d is newer than this zeitnot reads (up to %d)", n, Format)
		}
		p.log.Format = n
	case "control":
		switch len(fields) {
		case 2:
			c, err := timecontrol.Parse(fields[1])
			if err != nil {
				return p.errorf("control: %v", err)
			}
			p.white, p.black = c, c
		case 3:
			side, err := clock.ParseSide(fields[1])
			if err != nil {
				return p.errorf("control: %v", err)
			}
			c, err := timecontrol.Parse(fields[2])
			if err != nil {
				return p.errorf("control %s: %v", fields[1], err)
			}
			if side == clock.White {
				p.white = c
			} else {
				p.black = c
			}
		default:
			return p.errorf("want 'control SPEC' or 'control white|black SPEC'")
		}
	case "option":
		if len(fields) != 3 {
			return p.errorf("want 'option NAME VALUE'")
		}
		if err := p.log.Options.Set(fields[1], fields[2]); err != nil {
			return p.errorf("%v", err)
		}
	default:
		return p.errorf("unknown directive %q, want format, control, option or 'MS VERB'", head)
	}
	return nil
}

func (p *reader) event(fields []string) error {
	at, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || at < 0 || at > clock.MaxInstant || fields[0][0] == '+' {
		return p.errorf("instant %q: want milliseconds, a whole number from 0 to %d", fields[0], clock.MaxInstant)
	}
	if p.events && at < p.lastAt {
		return p.errorf("instant %d is before the previous event's %d: instants never decrease", at, p.lastAt)
	}
	if len(fields) < 2 {
		return p.errorf("instant %d has no verb", at)
	}
	verb, ok := parseVerb(fields[1])
	if !ok {
		return p.errorf("unknown verb %q, want start, press, pause, resume, show, checkpoint, set, add, moves, period, turn or clear-overstep", fields[1])
	}
	if p.white == nil || p.black == nil {
		if err := p.finish(); err != nil {
			return err
		}
	}
	e := Event{At: at, Verb: verb, Side: clock.NoSide}
	n := verb.args()
	if len(fields)-2 != n {
		return p.errorf("%s takes %d argument(s), got %d", verb, n, len(fields)-2)
	}
	if n >= 1 {
		if e.Side, err = clock.ParseSide(fields[2]); err != nil {
			return p.errorf("%s: %v", verb, err)
		}
	}
	if n == 2 {
		s := fields[3]
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
			return p.errorf("%s %s: bad number %q", verb, fields[2], s)
		}
		e.Value = v
	}
	p.events = true
	p.lastAt = at
	p.log.Events = append(p.log.Events, e)
	p.log.Lines = append(p.log.Lines, p.line)
	return nil
}
