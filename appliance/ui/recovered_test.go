package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRecoveredWithLoss: a journal whose header was damaged (a bit flip in
// an option line) still gives the game back, and the clock says that lines
// were lost, not the same RECOVERED as a clean recovery.
func TestRecoveredWithLoss(t *testing.T) {
	for _, damage := range []struct{ name, from, to string }{
		// More than one bit: a single flipped bit is repaired, not lost.
		{"option", "option period-trigger", "option period_triggex"},
		{"start", "0 start", "0 stbrt"},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := t.TempDir()
			d := newDriver(t, Opts{StateDir: dir})
			d.press(Right)
			d.wait(5 * time.Second)
			d.press(Left)
			d.wait(5 * time.Second)
			d.press(Right)
			d.wait(3 * time.Second)
			want := d.status()
			d.c.Close() // the power goes

			path := filepath.Join(dir, "game.log")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			bad := bytes.Replace(data, []byte(damage.from), []byte(damage.to), 1)
			if bytes.Equal(bad, data) {
				t.Fatalf("no %q in the journal:\n%s", damage.from, data)
			}
			os.WriteFile(path, bad, 0o644)

			r := newDriver(t, Opts{StateDir: dir, Now: d.now})
			r.now = d.now
			st := r.status()
			if !st.Recovered || !st.Started || st.White.Moves != 1 || st.Black.Moves != 1 {
				t.Fatalf("after the damage: %+v", st)
			}
			if st.Dropped < 1 {
				t.Errorf("dropped %d, want the damaged line counted", st.Dropped)
			}
			if b := r.c.View(r.now).Game.Banner; b != "RECOVERED 1 LOST" {
				t.Errorf("banner %q, want RECOVERED 1 LOST", b)
			}
			// The status says so too, for the hall and zeitnot status.
			if w := st.Warning; w != "recovered with 1 journal lines lost: check the times and moves" {
				t.Errorf("status warning %q", w)
			}
			if d := st.White.Ms - want.White.Ms; d != 0 {
				t.Errorf("white (waiting) off by %d ms", d)
			}
		})
	}
}
