package clocklog

import (
	"bytes"
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
	// after the events) and the lines after a damage salvage could not get
	// past.
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
	// Problems says what happened, one entry per line concerned, in line
	// order; a torn last line has one too. When salvage returns no Log,
	// they say why, and the counts are of what was read before it gave up.
	Problems []*Error
}

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
	r.Problems = append(r.Problems, &Error{File: r.File, Line: max(line, 1), Msg: fmt.Sprintf(format, args...)})
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
func SalvageReport(name string, r io.Reader) (*Log, *Report) {
	l, rep := salvage(name, r)
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].Line < rep.Problems[j].Line })
	return l, rep
}

func salvage(name string, r io.Reader) (*Log, *Report) {
	lines, rerr := readLines(r)
	rep := &Report{File: name, Lines: len(lines)}
	format := version(lines)
	rep.Format = format
	if format == 2 {
		verify(lines)
	} else {
		readText(lines)
	}
	if rerr != nil {
		rep.add(len(lines), "read: %v", rerr)
	}

	// The last line without its newline is a write cut short; in format 2
	// it may instead be a whole line whose newline flipped.
	if n := len(lines); n > 0 && lines[n-1].torn {
		l := lines[n-1]
		if fixed := repairNewline(l, format); fixed != nil {
			lines[n-1] = fixed
			rep.Repaired++
			rep.add(l.n, "repaired: %s", fixed.repaired)
		} else {
			rep.Torn = true
			rep.add(l.n, "last line %q has no newline (torn write): dropped", string(l.raw))
			lines = lines[:n-1]
		}
	}

	// Repair what one flipped bit damaged.
	if format == 2 {
		var out []*line
		tried := 0
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if l.damaged == "" || tried >= repairLines {
				out = append(out, l)
				continue
			}
			tried++
			fixed, used := repair(lines, i, format)
			if fixed == nil {
				out = append(out, l)
				continue
			}
			rep.Repaired++
			rep.add(l.n, "repaired: %s", fixed[0].repaired)
			out = append(out, fixed...)
			i += used - 1
		}
		lines = out
	}

	for _, l := range lines {
		if l.damaged != "" {
			continue
		}
		if msg := l.parseText(format); msg != "" {
			if l.dir == "format" && l.format > Format && format == 2 {
				rep.add(l.n, "%s", msg)
				return nil, rep
			}
			l.damaged = msg
		}
	}
	outOfOrder(lines)
	first := -1 // the first event
	for i, l := range lines {
		if l.damaged != "" {
			continue
		}
		if l.kind == eventLine && first < 0 {
			first = i
		}
		if l.kind == headerLine && first >= 0 {
			l.damaged = fmt.Sprintf("%q after the first event: header lines come first", l.dir)
		}
	}

	// The header: its lines, then what checkpoints restate in place of
	// damaged ones.
	b := newBuilder(name, format)
	end := -1 // the last header line
	headerDamaged := false
	for i, l := range lines {
		if first >= 0 && i >= first {
			break
		}
		switch {
		case l.damaged != "":
			headerDamaged = true
		case l.kind == headerLine:
			b.header(l)
			end = i
		}
	}
	for i, l := range lines {
		if i > end {
			break
		}
		if l.damaged != "" {
			rep.Dropped++
			rep.add(l.n, "dropped: %s", l.damaged)
		}
	}
	restore(b, lines, rep, headerDamaged)
	need := len(lines)
	if first >= 0 {
		need = lines[first].n
	} else if len(lines) > 0 {
		need = lines[len(lines)-1].n
	}
	if err := b.finish(need); err != nil {
		rep.Problems = append(rep.Problems, err.(*Error))
		return nil, rep
	}
	c, err := b.log.NewClock()
	if err != nil {
		rep.add(need, "%v", err)
		return nil, rep
	}
	conflict := false
	for _, l := range lines {
		if l.damaged == "" && l.restate != nil && !conflict {
			if msg := b.checkRestate(l); msg != "" {
				rep.add(l.n, "%s: the header's is used", msg)
				conflict = true
			}
		}
	}

	// The events, and what to do at each damage.
	for i := end + 1; i < len(lines); {
		l := lines[i]
		if l.damaged == "" {
			if l.kind == eventLine {
				Apply(c, l.ev)
				b.event(l.ev, l.n)
			}
			i++
			continue
		}
		j := i
		var region []*line
		for ; j < len(lines) && (lines[j].damaged != "" || lines[j].kind != eventLine); j++ {
			if lines[j].damaged != "" {
				region = append(region, lines[j])
			}
		}
		var window []*line
		for k := j; k < len(lines) && lines[k].damaged == ""; k++ {
			if lines[k].kind == eventLine {
				window = append(window, lines[k])
			}
		}
		guess, ok := infer(c, b.lastAt, region, window)
		for _, d := range region {
			rep.Dropped++
			if ok && guess != nil && d == region[0] {
				rep.Inferred++
				rep.add(d.n, "dropped: %s; in its place %q, the one event the lines after it need", d.damaged, guess.String())
				continue
			}
			rep.add(d.n, "dropped: %s", d.damaged)
		}
		if !ok {
			rest := 0
			for _, r := range lines[j:] {
				if r.damaged != "" || r.kind == eventLine {
					rest++
				}
			}
			if rest > 0 {
				last := region[len(region)-1].n
				rep.Dropped += rest
				rep.add(last, "dropped the %d lines after line %d: they do not follow from the events before it, with or without one event in place of the damage", rest, last)
			}
			break
		}
		if guess != nil {
			Apply(c, *guess)
			b.event(*guess, region[0].n)
		}
		i = j
	}
	return b.log, rep
}

// restore fills what the header lacks from the first checkpoints that
// restate it.
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

// outOfOrder marks the event lines whose instant breaks the order of their
// neighbours. When an instant is earlier than the one before it, either it
// is too early or the one before is too late: the one before is taken as
// the damaged one if it is also later than the instant after, and the
// events around it are in order without it.
func outOfOrder(lines []*line) {
	var evs []*line
	for _, l := range lines {
		if l.damaged == "" && l.kind == eventLine {
			evs = append(evs, l)
		}
	}
	var kept []*line
	for i, l := range evs {
		if len(kept) == 0 || l.ev.At >= kept[len(kept)-1].ev.At {
			kept = append(kept, l)
			continue
		}
		last := kept[len(kept)-1]
		before := len(kept) < 2 || l.ev.At >= kept[len(kept)-2].ev.At
		after := i+1 < len(evs) && evs[i+1].ev.At < last.ev.At
		if before && after {
			last.damaged = fmt.Sprintf("instant %d is later than the events after it (%d): out of order", last.ev.At, l.ev.At)
			kept[len(kept)-1] = l
			continue
		}
		l.damaged = fmt.Sprintf("instant %d is before the previous event's %d: out of order", l.ev.At, last.ev.At)
	}
}

// infer decides what stood in the damaged lines of region, given the clock
// c after the events before it (the last at instant lo) and the events of
// window after it (up to the next damage or the end). Nothing, if the
// window follows from c as it is; else the one event (start, a press by the
// side to move, pause or resume) that makes it follow. ok is false when
// neither, or more than one event, does.
//
// The instant of an inferred event is the damaged line's own if it reads
// and lies between its neighbours. Else it is taken on the side where the
// clock ran, since the journal writes a line at least every second while a
// clock runs: a press or a pause (the clock ran before it) at the line
// before, a start or a resume (the clock runs after it) at the line after.
func infer(c *clock.Clock, lo int64, region, window []*line) (guess *Event, ok bool) {
	var evs []Event
	for _, l := range window {
		evs = append(evs, l.ev)
	}
	if follows(*c, nil, evs) {
		return nil, true
	}
	hi := lo
	if len(evs) > 0 {
		hi = evs[0].At
	}
	own := int64(-1)
	if len(region) == 1 {
		if f := bytes.Fields(region[0].raw); len(f) > 0 {
			if v, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil && v >= lo && v <= hi {
				own = v
			}
		}
	}
	var found []Event
	for _, e := range []Event{
		{At: hi, Verb: Start, Side: clock.NoSide},
		{At: lo, Verb: Press},
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
		return nil, false
	}
	return &found[0], true
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
		case Show:
		default:
			if err != nil {
				return false
			}
		}
	}
	return true
}

// repair tries to restore damaged line i of a format 2 log as it was before
// one bit flipped: in the line, in a newline that ran two lines together,
// or in one that split a line in two (then line i+1 is the rest). It
// returns the restored lines and how many damaged lines they replace, or
// nil if no flip, or more than one, gives lines with right checksums that
// read.
func repair(lines []*line, i int, format int) ([]*line, int) {
	l := lines[i]
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
	if i+1 < len(lines) {
		next := lines[i+1]
		if next.damaged != "" && len(l.raw)+1+len(next.raw) <= repairMax {
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
	t, ok := checked(l.raw[:n-1])
	if !ok {
		return nil
	}
	nl := &line{n: l.n, text: string(t), repaired: "the newline at its end had a flipped bit"}
	if nl.parseText(format) != "" {
		return nil
	}
	return nl
}
