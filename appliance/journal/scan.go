package journal

import (
	"bufio"
	"bytes"
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

// chunkText is how much of a journal is handed to the clock log's reader
// at a time (a variable for tests), and maxHeader how long its lines
// before the first event may be.
var chunkText = 64 << 10

const maxHeader = 64 << 10

// scan is what reading a journal gave.
type scan struct {
	header  *clocklog.Header // nil: no usable header, no game
	clock   *clock.Clock     // the game replayed up to the last good line
	last    int64            // the instant of the last event kept
	events  int              // events kept
	good    int64            // offset just after the last line kept
	dropped []error          // what was not kept, exactly
	lost    int              // lines not kept
	readErr error            // the file could not be read to its end
}

// lineReader reads a journal's lines, keeping file offsets.
type lineReader struct {
	br    *bufio.Reader
	off   int64 // file offset of the next line
	long  []byte
	err   error // the read error that ended the file, if not io.EOF
	ended bool
}

// next returns the next line with its newline (none on a last, torn line)
// and its file offset. A line longer than clocklog.MaxLine comes back cut
// to MaxLine+1 bytes plus a newline, for the clock log's reader to reject.
func (lr *lineReader) next() (line []byte, at int64, ok bool) {
	if lr.ended {
		return nil, lr.off, false
	}
	at = lr.off
	lr.long = lr.long[:0]
	for {
		b, err := lr.br.ReadSlice('\n')
		lr.off += int64(len(b))
		if len(lr.long) <= clocklog.MaxLine {
			lr.long = append(lr.long, b[:min(len(b), clocklog.MaxLine+1-len(lr.long))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			lr.ended = true
			if !errors.Is(err, io.EOF) {
				lr.err = err
				lr.off = at // an unfinished line read before an error is not used
				return nil, at, false
			}
			if len(lr.long) == 0 {
				return nil, at, false
			}
		}
		if len(lr.long) > clocklog.MaxLine && lr.long[len(lr.long)-1] != '\n' {
			lr.long = append(lr.long, '\n')
		}
		return lr.long, at, true
	}
}

// scanJournal reads a journal from r, replaying its events one chunk at a
// time, so that its memory does not grow with the journal. name is the
// file name used in errors.
//
// The clock log's reader is given each chunk of whole lines behind the
// journal's own header lines and the last event line before the chunk, so
// that it checks each chunk exactly as it would check the whole file: a
// header line after an event, an instant before the previous one.
func scanJournal(name string, r io.Reader) *scan {
	s := &scan{}
	lr := &lineReader{br: bufio.NewReaderSize(Unpad(r), 64<<10)}
	var (
		header []byte  // lines before the first event, verbatim
		prev   []byte  // the last event line, verbatim
		seen   bool    // an event has been read: header is complete
		chunk  []byte  // whole lines of this chunk
		starts []int   // where each line of chunk starts in chunk
		offs   []int64 // and in the file
		line0  = 1     // the file's line number of chunk's first line
		input  []byte
	)
	for {
		chunk, starts, offs = chunk[:0], starts[:0], offs[:0]
		for len(chunk) < chunkText {
			b, at, ok := lr.next()
			if !ok {
				break
			}
			starts = append(starts, len(chunk))
			offs = append(offs, at)
			chunk = append(chunk, b...)
		}
		n := len(starts)
		// input is the header, the previous event line, then the chunk.
		input = append(input[:0], header...)
		pre := bytes.Count(header, []byte{'\n'})
		if seen {
			input = append(input, prev...)
			pre++
		}
		input = append(input, chunk...)
		l, errs := clocklog.Salvage(name, bytes.NewReader(input))
		bad, first := firstBad(errs, pre, n)
		final := lr.ended || bad < n
		if l == nil {
			if !seen && !lr.ended && len(input) <= maxHeader {
				// Header lines only so far; the control line may come in
				// the next chunk.
				header = append(header[:0], input...)
				line0 += n
				continue
			}
			s.dropped = fix(errs, pre, line0)
			s.readErrAt(name, lr)
			return s
		}
		lastEvent := -1
		for i, e := range l.Events {
			ln := l.Lines[i] - pre - 1 // line index in chunk
			if ln < 0 {
				continue // the previous event line, already applied
			}
			if ln >= bad {
				break
			}
			if !seen {
				seen = true
				header = append(header[:0], input[:lineStart(input, l.Lines[i]-1)]...)
			}
			if s.clock == nil {
				if !s.start(name, l.Header) {
					return s
				}
			}
			clocklog.Apply(s.clock, e)
			s.last = e.At
			s.events++
			lastEvent = ln
		}
		if !seen && !final {
			if len(input) <= maxHeader {
				header = append(header[:0], input...)
				line0 += n
				continue
			}
			// A real journal's first event comes in its first lines.
			bad, first = 0, &clocklog.Error{File: name, Line: line0, Msg: fmt.Sprintf("no event in the first %d bytes", len(input))}
		}
		if s.clock == nil && !s.start(name, l.Header) {
			return s
		}
		if lastEvent >= 0 {
			end := len(chunk)
			if lastEvent+1 < n {
				end = starts[lastEvent+1]
			}
			prev = append(prev[:0], chunk[starts[lastEvent]:end]...)
		}
		if bad < n {
			s.good = offs[bad]
			s.dropped = append(s.dropped, fix([]error{first}, pre, line0)...)
			rest := n - bad - 1
			for {
				if _, _, ok := lr.next(); !ok {
					break
				}
				rest++
			}
			s.lost = rest + 1
			if rest > 0 {
				s.dropped = append(s.dropped, &clocklog.Error{File: name, Line: line0 + bad,
					Msg: fmt.Sprintf("dropped the %d lines after line %d", rest, line0+bad)})
			}
			s.readErrAt(name, lr)
			return s
		}
		s.good = lr.off
		line0 += n
		if lr.ended {
			s.readErrAt(name, lr)
			return s
		}
	}
}

// start sets up the game's clock from its header.
func (s *scan) start(name string, h clocklog.Header) bool {
	c, err := clock.New(h.Controls, h.Options)
	if err != nil {
		s.dropped = append(s.dropped, fmt.Errorf("%s: %v", name, err))
		return false
	}
	s.header, s.clock = &h, c
	return true
}

// firstBad finds the first line of a chunk of n lines that the clock log's
// reader refused, given its errors for an input of pre lines then the
// chunk: n if none. An error about the lines before the chunk, or about no
// line, counts for the chunk's last line.
func firstBad(errs []error, pre, n int) (int, error) {
	bad := n
	var first error
	for _, err := range errs {
		i := n - 1
		var le *clocklog.Error
		if errors.As(err, &le) && le.Line > pre {
			i = min(le.Line-pre-1, n-1)
		}
		if i >= 0 && i < bad {
			bad, first = i, err
		}
	}
	return bad, first
}

// readErrAt records the read error that ended the file, if any.
func (s *scan) readErrAt(name string, lr *lineReader) {
	if lr.err != nil {
		s.readErr = lr.err
		s.dropped = append(s.dropped, fmt.Errorf("%s: read error after byte %d: %v: the rest could not be read", name, lr.off, unwrapPath(lr.err)))
	}
}

// fix gives the clock log's errors the file's line numbers.
func fix(errs []error, pre, line0 int) []error {
	var out []error
	for _, err := range errs {
		var le *clocklog.Error
		if errors.As(err, &le) {
			ln := le.Line
			if ln > pre {
				ln = line0 + ln - pre - 1
			} else {
				ln = line0
			}
			err = &clocklog.Error{File: le.File, Line: ln, Msg: le.Msg}
		}
		out = append(out, err)
	}
	return out
}

// lineStart is the offset of line n+1 (n lines skipped) in b.
func lineStart(b []byte, n int) int {
	off := 0
	for ; n > 0; n-- {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			return len(b)
		}
		off += i + 1
	}
	return off
}
