// Package pagediff finds what changed between two frames of a page-organised
// monochrome panel (SSD1306, SH1106: one byte is 8 vertical pixels, a page is
// a band of 8 rows), so a driver sends only the changed columns of the
// changed pages.
package pagediff

// Run is a span of changed bytes in one page: columns [Col, End).
type Run struct {
	Page, Col, End int
}

// Shadow holds what the panel shows, as far as the driver knows.
type Shadow struct {
	buf   []byte
	w     int
	pages int
	valid bool
	runs  []Run
}

// New returns a Shadow for a panel w columns wide and pages pages high. It
// starts unknown: the first Runs covers every page.
func New(w, pages int) *Shadow {
	return &Shadow{
		buf:   make([]byte, w*pages),
		w:     w,
		pages: pages,
		// At most one run per two columns per page.
		runs: make([]Run, 0, pages*(w+1)/2),
	}
}

// Invalidate forgets what the panel shows: the next Runs covers every page.
// Call it when a send failed.
func (s *Shadow) Invalidate() { s.valid = false }

// Valid reports whether the shadow is known to match the panel.
func (s *Shadow) Valid() bool { return s.valid }

// Runs returns the spans where next differs from the shadow, page by page,
// left to right. Two spans separated by at most gap unchanged bytes are
// merged, since resending gap bytes costs less than addressing a new span.
// When the shadow is unknown there is one run per whole page. next must hold
// w*pages bytes. The slice is reused by the next call. Runs does not change
// the shadow: call Commit for each run sent and Done after the last.
func (s *Shadow) Runs(next []byte, gap int) []Run {
	s.runs = s.runs[:0]
	for p := 0; p < s.pages; p++ {
		if !s.valid {
			s.runs = append(s.runs, Run{Page: p, Col: 0, End: s.w})
			continue
		}
		old := s.buf[p*s.w : (p+1)*s.w]
		cur := next[p*s.w : (p+1)*s.w]
		start := -1 // first column of the open run
		last := -1  // last changed column of the open run
		for c := 0; c < s.w; c++ {
			if old[c] == cur[c] {
				continue
			}
			if start >= 0 && c-last-1 > gap {
				s.runs = append(s.runs, Run{Page: p, Col: start, End: last + 1})
				start = -1
			}
			if start < 0 {
				start = c
			}
			last = c
		}
		if start >= 0 {
			s.runs = append(s.runs, Run{Page: p, Col: start, End: last + 1})
		}
	}
	return s.runs
}

// Commit records that r of next is now on the panel.
func (s *Shadow) Commit(next []byte, r Run) {
	o := r.Page * s.w
	copy(s.buf[o+r.Col:o+r.End], next[o+r.Col:o+r.End])
}

// Done marks the shadow valid after every run of a Runs call was committed.
func (s *Shadow) Done() { s.valid = true }
