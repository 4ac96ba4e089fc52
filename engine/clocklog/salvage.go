package clocklog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Report says what salvage found in a log and what it did about it. Every
// line it could not take as written is counted and has a Problem naming it.
type Report struct {
	File   string
	Format int // the version the log was read as
	Lines  int // lines read

	// Torn is set when the last line had no newline: a write cut by a power
	// loss, never made durable nor shown, and dropped. It is not damage and
	// not counted in Dropped.
	Torn bool
	// Dropped counts the lines whose content is lost: damaged lines (a
	// wrong checksum, unreadable, an instant out of order, a header line
	// after the events, a line cut by a read error) and the lines after a
	// damage salvage could not get past.
	Dropped int
	// Repaired counts damaged lines restored exactly: a format 2 line with
	// one flipped bit (the one flip that gives a right checksum), a line
	// split in two or two lines run together by a flipped newline.
	Repaired int
	// Inferred counts events put in the place of a dropped line (see the
	// package doc); each is also counted in Dropped.
	Inferred int
	// Defaulted names the options whose header line was damaged and that no
	// checkpoint restates: their defaults were used.
	Defaulted []string
	// Err is the read error that ended the log before its end, if any: the
	// rest of it was not read.
	Err error
	// Problems says what happened, one entry per line concerned, in line
	// order; a torn last line has one too. When salvage returns no Log,
	// they say why, and the counts are of what was read before it gave up.
	// Past MaxProblems entries the counts go on, and one last entry says
	// how many more problems there were.
	Problems []*Error

	omitted, omittedLine int
}

// MaxProblems is how many problems a Report lists, so that salvaging a
// large file of garbage takes bounded memory.
const MaxProblems = 1000

// Clean reports whether the log was read as written: no damage, nothing
// repaired, dropped or guessed. A torn last line alone is clean.
func (r *Report) Clean() bool {
	n := len(r.Problems)
	if r.Torn {
		n--
	}
	return n == 0
}

// String summarises the report in a few words: "clean", "torn last line
// dropped", or counts such as "2 lines dropped (1 event inferred), 1
// repaired".
func (r *Report) String() string {
	if r.Clean() {
		if r.Torn {
			return "clean, torn last line dropped"
		}
		return "clean"
	}
	var parts []string
	if r.Dropped > 0 {
		s := plural(r.Dropped, "line") + " dropped"
		if r.Inferred > 0 {
			s += " (" + plural(r.Inferred, "event") + " inferred)"
		}
		parts = append(parts, s)
	}
	if r.Repaired > 0 {
		parts = append(parts, plural(r.Repaired, "line")+" repaired")
	}
	if len(r.Defaulted) > 0 {
		parts = append(parts, "default "+strings.Join(r.Defaulted, ", "))
	}
	if r.Torn {
		parts = append(parts, "torn last line dropped")
	}
	if len(parts) == 0 {
		parts = append(parts, plural(len(r.Problems), "problem"))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func (r *Report) add(line int, format string, args ...any) {
	if len(r.Problems) >= MaxProblems {
		r.omitted++
		r.omittedLine = max(line, 1)
		return
	}
	r.Problems = append(r.Problems, &Error{File: r.File, Line: max(line, 1), Msg: fmt.Sprintf(format, args...)})
}

// finish puts the problems in line order and says how many were left out.
func (r *Report) finish() {
	sort.SliceStable(r.Problems, func(i, j int) bool { return r.Problems[i].Line < r.Problems[j].Line })
	if r.omitted > 0 {
		r.Problems = append(r.Problems, &Error{File: r.File, Line: r.omittedLine,
			Msg: fmt.Sprintf("%d more problems, up to this line, are not listed", r.omitted)})
		r.omitted = 0
	}
}

// Salvage reads as much of a damaged log as can be trusted, as
// SalvageReport does, and returns its problems as errors. The returned Log
// is nil only if no control can be found for the game.
func Salvage(name string, r io.Reader) (*Log, []error) {
	l, rep := SalvageReport(name, r)
	var errs []error
	for _, p := range rep.Problems {
		errs = append(errs, p)
	}
	return l, errs
}

// Limits of repair: the longest line tried (longer than any this package
// writes) and how many lines of one log are tried, so that a log of
// garbage is read in bounded time.
const (
	repairMax   = 512
	repairLines = 256
)

// Lookahead is how far salvage looks, in lines, to decide on a line: the
// lines that tell the format, the events after a damage that must follow
// from the events before it, the checkpoints that restate a damaged
// header. A Salvager holds a few times Lookahead lines of a log at most,
// so it reads a log of any size in bounded memory.
const Lookahead = 128

// SalvageReport reads as much of a damaged log as can be trusted, and says
// exactly what it could not take as written. It is what recovery after a
// power cut uses. The rules are in the package doc; in short: a torn last
// line is dropped; in format 2 a line with one flipped bit is repaired; a
// damaged header line is dropped and what it said is taken from the
// checkpoints that restate the header; a damaged event line is dropped, or
// replaced by the one event the lines after it need, as long as the lines
// after it then follow from the events before it; where they do not,
// salvage stops and drops the rest. The returned Log is nil only if no
// control can be found for the game, or the log is of a newer format.
//
// SalvageReport collects what a Salvager gives: a log read with one is
// the same, event for event and problem for problem.
func SalvageReport(name string, r io.Reader) (*Log, *Report) {
	s := NewSalvager(name, r)
	h, ok := s.Header()
	if !ok {
		return nil, s.Report()
	}
	l := &Log{Header: h}
	for s.Next() {
		if e := s.Entry(); !e.Comment {
			l.Events = append(l.Events, e.Event)
			l.Lines = append(l.Lines, e.Line)
		}
	}
	return l, s.Report()
}

// Entry is what a Salvager gives back, in the log's order: an event, or a
// comment line (but those amid damaged lines, and past the first Lookahead
// among the header lines).
type Entry struct {
	// Line is the line the entry was read from; an inferred event has the
	// line of the damage it stands for.
	Line    int
	Event   Event  // the event, if Comment is false
	Comment bool   // a comment line (one outside the damage)
	Text    string // the comment's text, after '#' and a space
}

// A Salvager reads a log as SalvageReport does, a line at a time: it holds
// a few times Lookahead lines of the log at most (and MaxProblems
// problems), whatever its size. Header reads the header; Next then gives
// each event and comment kept, and Report says what was found once Next
// has returned false.
type Salvager struct {
	name   string
	br     *bufio.Reader
	buf    []byte
	rep    *Report
	format int

	// Reading: lines read, the first ones held until the format is known.
	n       int
	eof     bool
	started bool
	pre     lineQueue

	// Repair and parsing.
	tried     int
	sawEvent  bool      // an event line read: a newer format line is damage now
	restated  *restated // the last checkpoint's restated header
	abort     bool      // a newer format: no log
	parsed    lineQueue
	parseDone bool

	// Order: lines from the last event kept on wait until it cannot be
	// found out of order any more.
	pending        lineQueue
	last           *line // the last event kept, while it waits
	kept           int   // events kept in order
	lastAt, prevAt int64 // the instants of the last two
	pos            int   // lines ordered
	lastPos        int   // the line count at the last event kept
	firstSeen      bool
	fin            lineQueue // lines decided, for the header and the events
	free           []*line   // lines done with, for reuse

	// The header, then the events.
	headerDone bool
	ok         bool
	b          *builder
	clock      *clock.Clock
	lastN      int
	conflict   bool
	entry      Entry
	early      []Entry // comments among the header lines, given first

	// A run of damaged lines: the first (its problem waits for the
	// decision), how many, the last one's number.
	regFirst *line
	regCount int
	regLast  int
	stopped  bool // salvage could not get past a damage: the rest is dropped
	stopLine int
	done     bool
}

// NewSalvager returns a Salvager of the log read from r; name is the file
// name used in problems.
func NewSalvager(name string, r io.Reader) *Salvager {
	return &Salvager{name: name, br: bufio.NewReaderSize(r, MaxLine+1), rep: &Report{File: name}}
}

// Report is what salvage found. It is complete once Header returned false
// or Next returned false; the Report is the Salvager's own, not a copy.
func (s *Salvager) Report() *Report {
	s.rep.Lines = s.n
	if s.done || s.headerDone && !s.ok {
		s.rep.finish()
	}
	return s.rep
}

// Entry is the event or comment Next moved to.
func (s *Salvager) Entry() Entry { return s.entry }

// Header reads the log's header: its lines, and what the first
// checkpoints restate in place of damaged ones. It is false when the log
// holds no game (no control in the header nor in a checkpoint within
// Lookahead lines of the first event, or a newer format); Report then says
// why, and salvage reads no further.
func (s *Salvager) Header() (Header, bool) {
	if s.headerDone {
		if !s.ok {
			return Header{}, false
		}
		return s.b.log.Header, true
	}
	s.headerDone = true
	s.start()
	b := newBuilder(s.name, s.format)
	s.b = b
	headerDamaged := false
	for {
		l := s.finAt(0)
		if l == nil || l.damaged == "" && l.kind == eventLine {
			break
		}
		s.fin.pop()
		s.lastN = l.n
		switch {
		case l.damaged != "":
			headerDamaged = true
			s.region(l)
		case l.kind == headerLine:
			b.header(l)
			if s.regFirst != nil {
				// The damaged lines before this one are header lines.
				s.dropFirst("dropped: %s", s.regFirst.damaged)
			}
		case s.regFirst == nil && len(s.early) < Lookahead:
			if text, ok := commentText(l.text); ok {
				s.early = append(s.early, Entry{Line: l.n, Comment: true, Text: text})
			}
		}
		s.recycle(l)
	}
	if s.abort {
		return Header{}, false
	}
	var window []*line
	for i := 0; i < Lookahead; i++ {
		l := s.finAt(i)
		if l == nil {
			break
		}
		window = append(window, l)
	}
	restore(b, window, s.rep, headerDamaged)
	need := s.lastN
	if first := s.finAt(0); first != nil {
		need = first.n
	}
	if err := b.finish(need); err != nil {
		s.rep.Problems = append(s.rep.Problems, err.(*Error))
		return Header{}, false
	}
	c, err := b.log.NewClock()
	if err != nil {
		s.rep.add(need, "%v", err)
		return Header{}, false
	}
	s.clock, s.ok = c, true
	return b.log.Header, true
}

// Next moves to the next event or comment kept (Entry), and reports
// whether there is one.
func (s *Salvager) Next() bool {
	if !s.headerDone {
		s.Header()
	}
	if !s.ok || s.done {
		return false
	}
	if len(s.early) > 0 {
		s.entry, s.early = s.early[0], s.early[1:]
		return true
	}
	for {
		if s.regFirst != nil {
			if s.decide() {
				return true
			}
			continue
		}
		if s.stopped {
			s.drain()
			return false
		}
		l := s.fin.pop()
		if l == nil {
			if l = s.finAt(0); l != nil {
				s.fin.pop()
			}
		}
		if l == nil {
			s.done = true
			return false
		}
		s.lastN = l.n
		s.checkRestate(l)
		switch {
		case l.damaged != "":
			s.region(l)
			// The run goes on over damaged lines and comments, up to
			// the next event.
			for {
				x := s.finAt(0)
				if x == nil || x.damaged == "" && x.kind == eventLine {
					break
				}
				s.fin.pop()
				if x.damaged != "" {
					s.region(x)
				}
				s.recycle(x)
			}
		case l.kind == eventLine:
			Apply(s.clock, l.ev)
			s.b.lastAt = l.ev.At
			s.entry = Entry{Line: l.n, Event: l.ev}
			s.recycle(l)
			return true
		default:
			text, ok := commentText(l.text)
			n := l.n
			s.recycle(l)
			if ok {
				s.entry = Entry{Line: n, Comment: true, Text: text}
				return true
			}
		}
	}
}

// recycle takes back a line salvage is done with, for reuse.
func (s *Salvager) recycle(l *line) {
	if l != s.regFirst && len(s.free) < 16 {
		*l = line{}
		s.free = append(s.free, l)
	}
}

// commentText returns the text of a comment line: after its '#' and one
// space.
func commentText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "#") {
		return "", false
	}
	return strings.TrimPrefix(t[1:], " "), true
}

// region adds a damaged line to the run of damaged lines. Every line but
// the first is dropped at once; the first waits to know whether an event
// is put in its place.
func (s *Salvager) region(l *line) {
	if s.regFirst == nil {
		s.regFirst, s.regCount, s.regLast = l, 1, l.n
		return
	}
	s.regCount++
	s.regLast = l.n
	s.rep.Dropped++
	s.rep.add(l.n, "dropped: %s", l.damaged)
}

// dropFirst drops the first line of the run, with the problem given, and
// ends the run.
func (s *Salvager) dropFirst(format string, args ...any) {
	first := s.regFirst
	s.rep.Dropped++
	s.rep.add(first.n, format, args...)
	s.regFirst, s.regCount, s.regLast = nil, 0, 0
	s.recycle(first)
}

// decide settles a run of damaged lines by the events after it (up to the
// next damage, within Lookahead lines): skipped if they follow from the
// events before it, else the one event they need put in its place, else
// salvage stops there. It reports whether it put an event in (Entry).
func (s *Salvager) decide() bool {
	var evs []Event
	for i := 0; i < Lookahead; i++ {
		l := s.finAt(i)
		if l == nil || l.damaged != "" {
			break
		}
		if l.kind == eventLine {
			evs = append(evs, l.ev)
		}
	}
	own := int64(-1)
	if s.regCount == 1 {
		if f := strings.Fields(s.regFirst.raw); len(f) > 0 {
			if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				own = v
			}
		}
	}
	n, why, last := s.regFirst.n, s.regFirst.damaged, s.regLast
	guess, note, ok := infer(s.clock, s.b.lastAt, own, evs)
	if ok && guess != nil {
		s.rep.Inferred++
		s.dropFirst("dropped: %s; in its place %q, the one event the lines after it need%s", why, guess.String(), note)
		Apply(s.clock, *guess)
		s.b.lastAt = guess.At
		s.entry = Entry{Line: n, Event: *guess}
		return true
	}
	s.dropFirst("dropped: %s", why)
	if !ok {
		s.stopped, s.stopLine = true, last
	}
	return false
}

// drain reads and counts the lines after a damage salvage could not get
// past.
func (s *Salvager) drain() {
	rest := 0
	for {
		l := s.finAt(0)
		if l == nil {
			break
		}
		s.fin.pop()
		s.checkRestate(l)
		if l.damaged != "" || l.kind == eventLine {
			rest++
		}
		s.recycle(l)
	}
	if rest > 0 {
		s.rep.Dropped += rest
		s.rep.add(s.stopLine, "dropped the %d lines after line %d: they do not follow from the events before it, with or without one event in place of the damage", rest, s.stopLine)
	}
	s.done = true
}

// checkRestate reports the first checkpoint that restates the header
// otherwise than the header.
func (s *Salvager) checkRestate(l *line) {
	if s.conflict || l.damaged != "" || l.restate == nil {
		return
	}
	if msg := s.b.checkRestate(l); msg != "" {
		s.rep.add(l.n, "%s: the header's is used", msg)
		s.conflict = true
	}
}

// start reads the first Lookahead lines and decides the format by them.
func (s *Salvager) start() {
	if s.started {
		return
	}
	s.started = true
	var first []*line
	for len(first) < Lookahead {
		l := s.read()
		if l == nil {
			break
		}
		first = append(first, l)
	}
	s.format = version(first)
	s.rep.Format = s.format
	for _, l := range first {
		s.check(l)
		s.pre.push(l)
	}
}

// read reads the next line; nil at the end. A read error ends the log: the
// line it cut is dropped.
func (s *Salvager) read() *line {
	if s.eof {
		return nil
	}
	raw, err := readLine(s.br, &s.buf)
	if err != nil && !errors.Is(err, io.EOF) {
		s.eof = true
		s.rep.Err = err
		if raw != nil {
			s.n++
			s.rep.Dropped++
			s.rep.add(s.n, "read error in this line: %v: the line and the rest of the log are lost", err)
		} else {
			s.rep.add(s.n, "read error after this line: %v: the rest of the log is lost", err)
		}
		return nil
	}
	if raw == nil {
		s.eof = true
		return nil
	}
	s.n++
	torn := errors.Is(err, io.EOF)
	if torn {
		s.eof = true
	}
	var l *line
	if n := len(s.free); n > 0 {
		l, s.free = s.free[n-1], s.free[:n-1]
	}
	return newLine(l, s.n, raw, torn)
}

// check sets the text of a line, or marks it damaged, by the format.
func (s *Salvager) check(l *line) {
	if s.format == 2 {
		verifyLine(l)
	} else {
		readTextLine(l)
	}
}

// rawNext returns the next line read and checked; nil at the end.
func (s *Salvager) rawNext() *line {
	if l := s.pre.pop(); l != nil {
		return l
	}
	l := s.read()
	if l != nil {
		s.check(l)
	}
	return l
}

// rawPeek returns the line rawNext will return, without taking it.
func (s *Salvager) rawPeek() *line {
	if s.pre.len() == 0 {
		l := s.read()
		if l == nil {
			return nil
		}
		s.check(l)
		s.pre.push(l)
	}
	return s.pre.at(0)
}

// parseMore takes the next line read: drops a torn last line, repairs a
// damaged one, parses it. It returns false at the end.
func (s *Salvager) parseMore() bool {
	if s.parseDone {
		return false
	}
	l := s.rawNext()
	if l == nil {
		s.parseDone = true
		return false
	}
	switch {
	case l.torn:
		// The last line without its newline is a write cut short; in
		// format 2 it may instead be a whole line whose newline flipped.
		if fixed := repairNewline(l, s.format); fixed != nil {
			s.rep.Repaired++
			s.rep.add(l.n, "repaired: %s", fixed.repaired)
			s.parse(fixed)
		} else {
			s.rep.Torn = true
			s.rep.add(l.n, "last line %q has no newline (torn write): dropped", l.raw)
		}
	case l.damaged != "" && s.format == 2 && s.tried < repairLines:
		s.tried++
		// A torn last line is never the rest of a split line: it is
		// dropped, or whole.
		next := s.rawPeek()
		if next != nil && next.torn {
			next = nil
		}
		fixed, used := repair(l, next, s.format)
		if fixed == nil {
			s.parse(l)
			break
		}
		s.rep.Repaired++
		s.rep.add(l.n, "repaired: %s", fixed[0].repaired)
		if used == 2 {
			s.rawNext()
		}
		for _, f := range fixed {
			s.parse(f)
		}
	default:
		s.parse(l)
	}
	return true
}

// parse reads a line that is not damaged and queues it for ordering. A
// format line of a newer format before any event means the log is not for
// this version to read.
func (s *Salvager) parse(l *line) {
	if l.damaged == "" {
		l.reuse = s.restated
		msg := l.parseText(s.format)
		l.reuse = nil
		if l.restate != nil {
			s.restated = l.restate
		}
		if msg != "" {
			if l.dir == "format" && l.format > Format && s.format == 2 && !s.sawEvent {
				s.rep.add(l.n, "%s", msg)
				s.abort, s.parseDone = true, true
				return
			}
			l.damaged = msg
		} else if l.kind == eventLine {
			s.sawEvent = true
		}
	}
	s.parsed.push(l)
}

// parsedAt returns the i-th line parsed and not yet ordered; nil past the
// end.
func (s *Salvager) parsedAt(i int) *line {
	for s.parsed.len() <= i {
		if !s.parseMore() {
			return nil
		}
	}
	return s.parsed.at(i)
}

// finAt returns the i-th line decided (ordered) and not yet taken; nil
// past the end.
func (s *Salvager) finAt(i int) *line {
	for s.fin.len() <= i {
		if !s.orderStep() {
			return nil
		}
	}
	return s.fin.at(i)
}

// orderStep decides the order of one more line, or passes on one that is
// decided. It returns false at the end.
//
// When an instant is earlier than the one before it, either it is too
// early or the one before is too late: the one before is taken as the
// damaged one if it is also later than the next instant after, the events
// around it are in order without it, and it lies within Lookahead lines.
// So the last event kept, and the lines after it, wait until an event
// after it is kept, or Lookahead lines have passed.
func (s *Salvager) orderStep() bool {
	if h := s.pending.at0(); h != nil {
		if h != s.last || s.pos-s.lastPos > Lookahead || s.parsedAt(0) == nil {
			s.pending.pop()
			if h == s.last {
				s.last = nil // decided: only its instant counts now
			}
			s.decided(h)
			return true
		}
	}
	l := s.parsed.pop()
	if l == nil {
		if l = s.parsedAt(0); l == nil {
			return false
		}
		s.parsed.pop()
	}
	s.pos++
	if l.damaged == "" && l.kind == eventLine {
		s.order(l)
	}
	s.pending.push(l)
	return true
}

func (s *Salvager) order(l *line) {
	if s.kept == 0 || l.ev.At >= s.lastAt {
		s.prevAt, s.lastAt = s.lastAt, l.ev.At
		s.last, s.lastPos = l, s.pos
		s.kept++
		return
	}
	last := s.last
	before := s.kept < 2 || l.ev.At >= s.prevAt
	after := false
	if before && last != nil && s.pos-s.lastPos <= Lookahead {
		for i := 0; i < Lookahead; i++ {
			x := s.parsedAt(i)
			if x == nil {
				break
			}
			if x.damaged == "" && x.kind == eventLine {
				after = x.ev.At < last.ev.At
				break
			}
		}
	}
	if before && after {
		last.damaged = fmt.Sprintf("instant %d is later than the events after it (%d): out of order", last.ev.At, l.ev.At)
		s.last, s.lastPos, s.lastAt = l, s.pos, l.ev.At
		return
	}
	l.damaged = fmt.Sprintf("instant %d is before the previous event's %d: out of order", l.ev.At, s.lastAt)
}

// decided passes on a line whose order is decided: a header line after the
// first event is damage.
func (s *Salvager) decided(l *line) {
	if l.damaged == "" {
		switch {
		case l.kind == eventLine:
			s.firstSeen = true
		case l.kind == headerLine && s.firstSeen:
			l.damaged = fmt.Sprintf("%q after the first event: header lines come first", l.dir)
		}
	}
	s.fin.push(l)
}

// lineQueue is a queue of lines.
type lineQueue struct {
	buf  []*line
	head int
}

func (q *lineQueue) len() int { return len(q.buf) - q.head }

func (q *lineQueue) at(i int) *line { return q.buf[q.head+i] }

func (q *lineQueue) at0() *line {
	if q.len() == 0 {
		return nil
	}
	return q.buf[q.head]
}

func (q *lineQueue) push(l *line) {
	if q.head > 0 && q.head == len(q.buf) {
		q.buf, q.head = q.buf[:0], 0
	} else if q.head >= 64 && q.head*2 >= len(q.buf) {
		n := copy(q.buf, q.buf[q.head:])
		clear(q.buf[n:])
		q.buf, q.head = q.buf[:n], 0
	}
	q.buf = append(q.buf, l)
}

func (q *lineQueue) pop() *line {
	if q.len() == 0 {
		return nil
	}
	l := q.buf[q.head]
	q.buf[q.head] = nil
	q.head++
	return l
}

// restore fills what the header lacks from the first checkpoints that
// restate it, among the lines given (the first Lookahead lines from the
// first event).
func restore(b *builder, lines []*line, rep *Report, headerDamaged bool) {
	for _, l := range lines {
		re := l.restate
		if l.damaged != "" || re == nil {
			continue
		}
		if re.controls != nil && (b.white == nil || b.black == nil) {
			if b.white == nil {
				b.white = re.controls.White
			}
			if b.black == nil {
				b.black = re.controls.Black
			}
			rep.add(l.n, "control %s taken from this checkpoint, in place of the header's", timecontrol.FormatPair(*re.controls))
		}
		if !headerDamaged {
			continue
		}
		for _, name := range clock.OptionNames {
			if re.set[name] && !b.opts[name] {
				b.log.Options.Set(name, re.options.Get(name))
				b.opts[name] = true
				rep.add(l.n, "option %s %s taken from this checkpoint, in place of the header's", name, re.options.Get(name))
			}
		}
	}
	if !headerDamaged {
		return
	}
	for _, name := range clock.OptionNames {
		if !b.opts[name] {
			v := b.log.Options.Get(name)
			rep.Defaulted = append(rep.Defaulted, name+" "+v)
			rep.add(1, "option %s is in no readable line of the damaged header nor in any checkpoint: its default %s is used", name, v)
		}
	}
}

// MaxLineGap is the longest, in ms, a journal goes without a line while a
// clock runs, and CheckpointDue how long after its last line the writer
// (appliance/session) writes a checkpoint: on time, or late by its loop's
// wake-up, within MaxLineGap. Salvage relies on them for the instant of a
// lost press: CheckpointDue before the checkpoint that follows it.
const (
	MaxLineGap    = 1000
	CheckpointDue = 800
)

// infer decides what stood in a run of damaged lines, given the clock c
// after the events before it (the last at instant lo) and the events evs
// after it (up to the next damage or Lookahead lines). Nothing, if the
// events follow from c as it is; else the one event (start, a press by the
// side to move, pause or resume) that makes them follow. ok is false when
// neither, or more than one event, does.
//
// The instant of an inferred event is the damaged line's own (own, -1 if
// none, or the run is of more than one line) if it lies between its
// neighbours. Else note says within which bounds it lay, as the journal
// writes a line at least every MaxLineGap ms while a clock runs. A press
// followed by a checkpoint is taken CheckpointDue before it, where the
// writer put it but for its wake-up's delay (taken at the line before, a
// press moved by 267 ms); followed by another event, at the
// earliest instant the bounds allow. A pause (the clock ran before it) is
// taken at the line before, a start or a resume (the clock runs after it)
// at the line after: the time in between counts for no one.
func infer(c *clock.Clock, lo, own int64, evs []Event) (guess *Event, note string, ok bool) {
	if follows(*c, nil, evs) {
		return nil, "", true
	}
	hi := lo
	if len(evs) > 0 {
		hi = evs[0].At
	}
	if own < lo || own > hi {
		own = -1
	}
	// A press: the clock ran before it and after it.
	press, pressHi := max(lo, hi-MaxLineGap), min(hi, lo+MaxLineGap)
	if len(evs) > 0 && evs[0].Verb == Checkpoint {
		press = min(max(press, hi-CheckpointDue), pressHi)
	}
	var found []Event
	for _, e := range []Event{
		{At: hi, Verb: Start, Side: clock.NoSide},
		{At: press, Verb: Press},
		{At: lo, Verb: Pause, Side: clock.NoSide},
		{At: hi, Verb: Resume, Side: clock.NoSide},
	} {
		if own >= 0 {
			e.At = own
		}
		if e.Verb == Press {
			e.Side = c.State(e.At).ToMove
		}
		if follows(*c, &e, evs) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return nil, "", false
	}
	g := &found[0]
	if own < 0 {
		from, to := max(lo, hi-MaxLineGap), hi
		switch g.Verb {
		case Press:
			from, to = max(lo, hi-MaxLineGap), pressHi
		case Pause:
			from, to = lo, min(hi, lo+MaxLineGap)
		}
		note = fmt.Sprintf("; its instant is not in the journal: it lay between %d and %d, taken at %d", from, to, g.At)
	}
	return g, note, true
}

// follows reports whether the events evs follow from clock c (a copy),
// after the event first if not nil: as the journal writes them, every
// start, press, pause and resume changes the clock, every correction is
// accepted, and every checkpoint finds the clock running (for the side it
// names, if it names one).
func follows(c clock.Clock, first *Event, evs []Event) bool {
	if first != nil {
		if changed, _ := Apply(&c, *first); !changed {
			return false
		}
	}
	for _, e := range evs {
		changed, err := Apply(&c, e)
		switch e.Verb {
		case Start, Press, Pause, Resume:
			if !changed {
				return false
			}
		case Checkpoint:
			if err != nil || c.State(e.At).Running == clock.NoSide {
				return false
			}
		case Show, GameResult, BoardMove, BoardPosition:
		default:
			if err != nil {
				return false
			}
		}
	}
	return true
}

// repair tries to restore a damaged line l of a format 2 log as it was
// before one bit flipped: in the line, in a newline that ran two lines
// together, or in one that split a line in two (then next, the line after
// it, is the rest; nil if there is none). It returns the restored lines and
// how many damaged lines they replace, or nil if no flip, or more than
// one, gives lines with right checksums that read.
func repair(l, next *line, format int) ([]*line, int) {
	if format != 2 || l.damaged == "" || len(l.raw) > repairMax {
		return nil, 0
	}
	var found [][]*line
	used := 1
	fix := func(how string, texts ...[]byte) {
		var out []*line
		for _, t := range texts {
			nl := &line{n: l.n, text: string(t), repaired: how}
			if nl.parseText(format) != "" {
				return
			}
			out = append(out, nl)
		}
		found = append(found, out)
	}
	buf := append([]byte(nil), l.raw...)
	for j := range buf {
		for k := 0; k < 8; k++ {
			buf[j] ^= 1 << k
			if buf[j] == '\n' {
				a, aok := checked(buf[:j])
				b, bok := checked(buf[j+1:])
				if aok && bok {
					fix(fmt.Sprintf("two lines run together by a flipped newline at column %d", j+1), a, b)
				}
			} else if t, ok := checked(buf); ok {
				fix(fmt.Sprintf("one flipped bit at column %d", j+1), t)
			}
			buf[j] ^= 1 << k
		}
	}
	if next != nil && next.damaged != "" && len(l.raw)+1+len(next.raw) <= repairMax {
		joined := make([]byte, 0, len(l.raw)+1+len(next.raw))
		for k := 0; k < 8; k++ {
			joined = append(append(append(joined[:0], l.raw...), '\n'^1<<k), next.raw...)
			if t, ok := checked(joined); ok {
				n := len(found)
				fix(fmt.Sprintf("a line split by a newline flipped in at column %d", len(l.raw)+1), t)
				if len(found) > n {
					used = 2
				}
			}
		}
	}
	if len(found) != 1 {
		return nil, 0
	}
	return found[0], used
}

// repairNewline restores a last line whose newline flipped into another
// byte: the line without that byte has a right checksum.
func repairNewline(l *line, format int) *line {
	n := len(l.raw)
	if format != 2 || n < 11 || bits.OnesCount8(l.raw[n-1]^'\n') != 1 {
		return nil
	}
	t, ok := checked([]byte(l.raw[:n-1]))
	if !ok {
		return nil
	}
	nl := &line{n: l.n, text: string(t), repaired: "the newline at its end had a flipped bit"}
	if nl.parseText(format) != "" {
		return nil
	}
	return nl
}
