package core

import (
	"os"

	"github.com/zeitnot/zeitnot/appliance/journal"
)

// journalOn wraps an open file as a journal, for fault injection.
func journalOn(f *os.File) *journal.Journal { return journal.Wrap(f) }
