package journal

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// Unpad returns a reader of r without its zero padding: the NUL bytes at
// the end of a journal file are its unused, preallocated end, not text.
// NUL bytes followed by anything else are passed on (they are damage, for
// the clock log's reader to report). It holds no more than a count of the
// NUL bytes it has not yet passed on.
func Unpad(r io.Reader) io.Reader { return &unpad{r: r, buf: make([]byte, 32<<10)} }

type unpad struct {
	r     io.Reader
	buf   []byte
	zeros int64  // NUL bytes read and not yet passed on
	emit  int64  // of them, how many are known to be followed by text
	pend  []byte // text read after them
	err   error
}

var zeroBlock = make([]byte, 64<<10)

func (u *unpad) Read(p []byte) (int, error) {
	for {
		if u.emit > 0 {
			n := copy(p, zeroBlock[:min(int64(len(zeroBlock)), u.emit)])
			u.emit -= int64(n)
			return n, nil
		}
		if len(u.pend) > 0 {
			n := copy(p, u.pend)
			u.pend = u.pend[n:]
			return n, nil
		}
		if u.err != nil {
			return 0, u.err // at the end, withheld NUL bytes were padding
		}
		n, err := u.r.Read(u.buf)
		b := u.buf[:n]
		if last := lastNonNUL(b); last < 0 {
			u.zeros += int64(n)
		} else {
			u.emit, u.zeros = u.zeros, int64(n-last-1)
			u.pend = b[:last+1]
		}
		u.err = err
	}
}

func lastNonNUL(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0 {
			return i
		}
	}
	return -1
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// scan is what reading a journal gave.
type scan struct {
	header  *clocklog.Header // nil: no usable header, no game
	clock   *clock.Clock     // the game replayed up to the last event kept
	last    int64            // the instant of the last event kept
	events  int              // events kept
	result  clocklog.Event   // the last result line kept; Verb 0 if none
	text    int64            // bytes of text: the journal without its padding
	report  *clocklog.Report // what salvage found
	readErr error            // the file could not be read to its end
}

// dropped returns the report's problems as errors.
func (s *scan) dropped() []error {
	var errs []error
	for _, p := range s.report.Problems {
		errs = append(errs, p)
	}
	return errs
}

// lost is how many lines were not used.
func (s *scan) lost() int {
	n := s.report.Dropped
	if s.report.Torn {
		n++
	}
	return n
}

// whole reports whether the journal was read as written, to its end, in
// the format this version writes: it can go on in place, after its text.
func (s *scan) whole() bool {
	return s.header != nil && s.readErr == nil && len(s.report.Problems) == 0 && s.report.Format == clocklog.Format
}

// scanJournal reads a journal from r (without its padding) and replays its
// game: clocklog's Salvager streams it, so that memory does not grow with
// the journal, and gives exactly what clocklog.SalvageReport gives for the
// whole text. name is the file name used in problems.
func scanJournal(name string, r io.Reader) *scan {
	cr := &counter{r: Unpad(r)}
	sv := clocklog.NewSalvager(name, cr)
	s := &scan{}
	h, ok := sv.Header()
	// The Salvager has set up the same clock: this cannot fail.
	if c, err := clock.New(h.Controls, h.Options); ok && err == nil {
		s.header, s.clock = &h, c
		for sv.Next() {
			if e := sv.Entry(); !e.Comment {
				clocklog.Apply(c, e.Event)
				s.last = e.Event.At
				s.events++
				if e.Event.Verb == clocklog.GameResult {
					s.result = e.Event
				}
			}
		}
	}
	s.report = sv.Report()
	s.readErr = s.report.Err
	s.text = cr.n
	return s
}

// rewrite writes the game a journal holds to w, in this version's format:
// the header, then every event and comment salvage kept, checkpoints
// restating the header. It reads src as scanJournal did, and writes the
// events s counted: it fails if they are not there (the file changed), and
// stops before any further one (a read error that went away), so that the
// file holds the game as recovered. It returns the bytes written.
func rewrite(w io.Writer, name string, src io.ReaderAt, s *scan) (int64, error) {
	sv := clocklog.NewSalvager(name, Unpad(io.NewSectionReader(src, 0, 1<<62)))
	h, ok := sv.Header()
	if !ok {
		return 0, errors.New("the journal holds no game now")
	}
	h.Format = clocklog.Format
	bw := bufio.NewWriterSize(w, 64<<10)
	b := clocklog.AppendHeader(nil, h)
	var n int64
	events := 0
	var last int64
	for sv.Next() {
		e := sv.Entry()
		if !e.Comment && events == s.events {
			break
		}
		switch {
		case e.Comment:
			b = clocklog.AppendComment(b, e.Text)
		case e.Event.Verb == clocklog.Checkpoint:
			b = clocklog.AppendCheckpoint(b, e.Event.At, e.Event.Side, h)
		default:
			b = clocklog.AppendEvent(b, e.Event)
		}
		if !e.Comment {
			events++
			last = e.Event.At
		}
		if len(b) >= 32<<10 {
			k, err := bw.Write(b)
			n += int64(k)
			if err != nil {
				return n, err
			}
			b = b[:0]
		}
	}
	if events != s.events || last != s.last {
		return n, fmt.Errorf("the journal changed while it was read: %d events to %d, then %d to %d", s.events, s.last, events, last)
	}
	k, err := bw.Write(b)
	n += int64(k)
	if err == nil {
		err = bw.Flush()
	}
	return n, err
}
