package session

import (
	"os"

	"github.com/zeitnot/zeitnot/appliance/journal"
)

// swapJournal closes the session's journal and, if f is not nil, writes
// on f from now on, for fault injection.
func (s *Session) swapJournal(f *os.File) {
	s.jr.Close()
	if f != nil {
		s.jr = journal.Wrap(f)
	}
}

// lastLine is the log instant of the last line written.
func (s *Session) lastLine() int64 { return s.lastLog }
