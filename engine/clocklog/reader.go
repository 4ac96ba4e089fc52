package clocklog

import (
	"fmt"
	"slices"
	"strings"
)

// Reader reads a format 2 log (the clock's journal) one line at a time,
// as its lines arrive: each line is read once, and Log is the log of the
// lines so far, as Parse reads them. It is for a reader that holds a log
// as it grows (the hall keeps every game's so): a line more costs the
// parse of that line, not of the whole log again.
//
// A Reader stops at the first line it cannot use, as Parse does: Err is
// then that line's error and every line after it is ignored. A caller
// that wants what can be trusted of such a log reads it whole with
// ReadLog (its Salvage).
type Reader struct {
	name   string
	b      *builder
	n      int // lines read
	events bool
	err    error
	last   *restated // the last checkpoint's restatement, for the next one
}

// NewReader returns a Reader of the log named name (the file name used in
// errors).
func NewReader(name string) *Reader {
	return &Reader{name: name, b: newBuilder(name, 2)}
}

// Add reads the next line, without its newline. It returns the line's
// error, or the earlier one that stopped the Reader.
func (r *Reader) Add(raw string) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	return r.add(newLine(nil, r.n, []byte(raw), false))
}

// AddChecked reads the next line, as Add, for a line the caller has
// already found to end in its right checksum (CheckLine says summed and
// ok): its last ten bytes are taken as the checksum without computing it
// again. A line that does not end like a checksum is read as Add reads it.
func (r *Reader) AddChecked(raw string) error {
	if r.err != nil {
		return r.err
	}
	r.n++
	t := strings.TrimSuffix(raw, "\r")
	if !hasChecksum([]byte(t)) {
		return r.add(newLine(nil, r.n, []byte(raw), false))
	}
	return r.add(&line{n: r.n, raw: raw, sum: goodSum, end: len(t) - 10})
}

// add reads line l, numbered r.n.
func (r *Reader) add(l *line) error {
	l.reuse = r.last
	verifyLine(l)
	errorf := func(msg string) error {
		r.err = &Error{File: r.name, Line: r.n, Msg: msg}
		return r.err
	}
	if l.damaged != "" {
		return errorf(l.damaged)
	}
	if msg := l.parseText(2); msg != "" {
		return errorf(msg)
	}
	switch l.kind {
	case headerLine:
		if r.events {
			return errorf(fmt.Sprintf("%q after the first event: header lines come first", l.dir))
		}
		r.b.header(l)
	case eventLine:
		if r.events && l.ev.At < r.b.lastAt {
			return errorf(fmt.Sprintf("instant %d is before the previous event's %d: instants never decrease", l.ev.At, r.b.lastAt))
		}
		if !r.events {
			if err := r.b.finish(l.n); err != nil {
				r.err = err
				return err
			}
			r.events = true
		}
		if msg := r.b.checkRestate(l); msg != "" {
			return errorf(msg)
		}
		if l.restate != nil {
			r.last = l.restate
		}
		r.b.event(l.ev, l.n)
	}
	return nil
}

// Lines is how many lines the Reader has read, the one that stopped it
// included.
func (r *Reader) Lines() int { return r.n }

// Err is the error of the line that stopped the Reader, nil if none did.
func (r *Reader) Err() error { return r.err }

// Events is how many events the Reader has read.
func (r *Reader) Events() int { return len(r.b.log.Events) }

// Log returns the log of the lines read so far, or the error that
// stopped the Reader; a log without events yet needs its header's
// control, as Parse does. The log returned does not change as the
// Reader reads on: lines read later are not in it.
func (r *Reader) Log() (*Log, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.events {
		if err := r.b.finish(max(r.n, 1)); err != nil {
			return nil, err
		}
	}
	l := *r.b.log
	l.Events = slices.Clip(l.Events)
	l.Lines = slices.Clip(l.Lines)
	return &l, nil
}

// Until is l cut at instant at: its header and its events at or before
// it. The events are l's, not copied.
func (l *Log) Until(at int64) *Log {
	n, _ := slices.BinarySearchFunc(l.Events, at+1, func(e Event, t int64) int {
		switch {
		case e.At < t:
			return -1
		case e.At > t:
			return 1
		}
		return 0
	})
	c := *l
	c.Events = l.Events[:n:n]
	c.Lines = l.Lines[:n:n]
	return &c
}
