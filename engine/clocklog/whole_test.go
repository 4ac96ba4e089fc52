package clocklog

// The whole-file salvage this package had before it streamed: every rule
// applied to all the lines at once. It is kept here as the reference the
// streaming Salvager is checked against: on a log shorter than Lookahead
// lines, with no read error, the two must give the same log and the same
// report (FuzzParse).

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

func salvageWhole(name string, r io.Reader) (*Log, *Report) {
	l, rep := salvageWholeUnsorted(name, r)
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].Line < rep.Problems[j].Line })
	return l, rep
}

func salvageWholeUnsorted(name string, r io.Reader) (*Log, *Report) {
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
			rep.add(l.n, "last line %q has no newline (torn write): dropped", l.raw)
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
			var next *line
			if i+1 < len(lines) {
				next = lines[i+1]
			}
			fixed, used := repair(l, next, format)
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

	sawEvent := false
	for _, l := range lines {
		if l.damaged != "" {
			continue
		}
		if msg := l.parseText(format); msg != "" {
			if l.dir == "format" && l.format > Format && format == 2 && !sawEvent {
				rep.add(l.n, "%s", msg)
				return nil, rep
			}
			l.damaged = msg
		}
		if l.damaged == "" && l.kind == eventLine {
			sawEvent = true
		}
	}
	outOfOrderWhole(lines)
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
	// The same rule as the Salvager's, given all the lines at once.
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
		guess, note, ok := inferWhole(c, b.lastAt, region, window)
		for _, d := range region {
			rep.Dropped++
			if ok && guess != nil && d == region[0] {
				rep.Inferred++
				rep.add(d.n, "dropped: %s; in its place %q, the one event the lines after it need%s", d.damaged, guess.String(), note)
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

// outOfOrder marks the event lines whose instant breaks the order of their
// neighbours. When an instant is earlier than the one before it, either it
// is too early or the one before is too late: the one before is taken as
// the damaged one if it is also later than the instant after, and the
// events around it are in order without it.
func outOfOrderWhole(lines []*line) {
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

// inferWhole is infer for a damaged region of the whole file: the events
// of window follow it, the events before it are in c (the last at lo).
func inferWhole(c *clock.Clock, lo int64, region, window []*line) (guess *Event, note string, ok bool) {
	var evs []Event
	for _, l := range window {
		evs = append(evs, l.ev)
	}
	// The damaged line's own instant, read from its text here; the rule
	// itself is the Salvager's.
	own := int64(-1)
	if len(region) == 1 {
		if f := strings.Fields(region[0].raw); len(f) > 0 {
			if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				own = v
			}
		}
	}
	return infer(c, lo, own, evs)
}

// checkWhole compares the streaming salvage of s with the whole-file
// reference, for a log short enough that the windows do not matter.
func checkWhole(t *testing.T, s string) {
	t.Helper()
	if strings.Count(s, "\n") >= Lookahead-2 {
		return
	}
	got, grep := SalvageReport("f", strings.NewReader(s))
	want, wrep := salvageWhole("f", strings.NewReader(s))
	if (got == nil) != (want == nil) {
		t.Fatalf("%q: streaming log %v, whole %v\n%v\n%v", s, got, want, grep.Problems, wrep.Problems)
	}
	if got == nil {
		return
	}
	if !sameLog(got, want) || !slices.Equal(got.Lines, want.Lines) {
		t.Fatalf("%q: streaming salvage\n%+v\nwhole\n%+v", s, got, want)
	}
	if grep.Format != wrep.Format || grep.Lines != wrep.Lines || grep.Torn != wrep.Torn || grep.Dropped != wrep.Dropped ||
		grep.Repaired != wrep.Repaired || grep.Inferred != wrep.Inferred || !slices.Equal(grep.Defaulted, wrep.Defaulted) ||
		fmt.Sprint(grep.Problems) != fmt.Sprint(wrep.Problems) {
		t.Fatalf("%q: streaming report\n%+v\n%v\nwhole\n%+v\n%v", s, grep, grep.Problems, wrep, wrep.Problems)
	}
}
