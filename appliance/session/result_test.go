package session

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// TestResultSurvivesPowerCut: a result is a journal line, said as a result
// event, refused while a clock runs, and back after a power cut; a new
// game has none.
func TestResultSurvivesPowerCut(t *testing.T) {
	dir := t.TempDir()
	s, got := newSession(t, dir, "15+0")
	s.Start(1000 * ms)
	s.Press(3000*ms, clock.White)
	if err := s.SetResult(3500*ms, clocklog.WhiteWins, clocklog.Players); err == nil {
		t.Error("a result while Black's clock runs was taken")
	}
	if err := s.SetResult(3500*ms, clocklog.NoResult, clocklog.Players); err == nil {
		t.Error("players took a result back")
	}
	s.Pause(4000 * ms)
	if err := s.SetResult(5000*ms, clocklog.BlackWins, clocklog.Players); err != nil {
		t.Fatal(err)
	}
	last := (*got)[len(*got)-1]
	if last.Kind != Resulted || !strings.HasPrefix(last.Line, "5000 result 0-1 players *") {
		t.Errorf("last event %+v", last)
	}
	if err := s.SetResult(6000*ms, clocklog.Draw, clocklog.Arbiter); err != nil {
		t.Fatal(err)
	}
	// The power goes: no Close.
	s2 := New(Opts{StateDir: dir})
	if !s2.Recover(0) {
		t.Fatal("nothing recovered")
	}
	if r, by := s2.Result(); r != clocklog.Draw || by != clocklog.Arbiter {
		t.Errorf("recovered result %v %v, want 1/2-1/2 arbiter", r, by)
	}
	s2.NewGame(7000*ms, s2.Clock().Controls(), clock.DefaultOptions, "")
	if r, by := s2.Result(); r != clocklog.NoResult || by != 0 {
		t.Errorf("a new game has result %v %v", r, by)
	}
	s2.Close()
}
