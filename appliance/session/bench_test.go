package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog/clocklogtest"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// BenchmarkPress is the session's work for one press: the clock, the
// journal line made durable, and the event with its numbered line, for a
// subscriber as the daemon's. "journal" writes to a state directory (its
// fdatasync included), "memory" keeps the game in memory only.
func BenchmarkPress(b *testing.B) {
	for _, bc := range []struct {
		name string
		dir  func() string
	}{
		{"journal", b.TempDir},
		{"memory", func() string { return "" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := New(Opts{StateDir: bc.dir(), Life: "bench0"})
			s.Recover(0)
			pair, err := timecontrol.ParsePair("90+30")
			if err != nil {
				b.Fatal(err)
			}
			if err := s.NewGame(0, pair, clock.DefaultOptions, ""); err != nil {
				b.Fatal(err)
			}
			var lines int
			s.Subscribe(func(e Event) {
				if e.Kind == Pressed && e.Line != "" {
					lines++
				}
			})
			s.Start(time.Millisecond)
			side := clock.White
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if !s.Press(time.Duration(i+2)*time.Millisecond, side) {
					b.Fatalf("press %d of %v refused", i, side)
				}
				side = 1 - side
			}
			b.StopTimer()
			if lines != b.N {
				b.Fatalf("%d pressed events with a line, want %d", lines, b.N)
			}
			s.Close()
		})
	}
}

// BenchmarkRecover is the recovery of a long game's journal at start-up:
// 20 MB as the journal writes it (clocklogtest.LongJournal), read back
// into the game; bytes/s is the journal read. (appliance/ui's
// TestHugeJournalRecovery holds a 100 MB one to bounded memory.)
func BenchmarkRecover(b *testing.B) {
	dir := b.TempDir()
	data, presses := clocklogtest.LongJournal(20 << 20)
	if err := os.WriteFile(filepath.Join(dir, journal.File), data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(Opts{StateDir: dir, Life: "bench0"})
		if !s.Recover(0) {
			b.Fatal("no game recovered")
		}
		if st := s.State(0); st.Player[clock.White].Moves+st.Player[clock.Black].Moves != presses {
			b.Fatalf("recovered %d moves, want %d", st.Player[clock.White].Moves+st.Player[clock.Black].Moves, presses)
		}
		s.Close()
	}
}
