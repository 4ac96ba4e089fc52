package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

const ms = time.Millisecond

func newSession(t *testing.T, dir, spec string) (*Session, *[]Event) {
	t.Helper()
	s := New(Opts{StateDir: dir, LowTimeMs: 10000})
	var got []Event
	s.Subscribe(func(e Event) { got = append(got, e) })
	if s.Recover(0) {
		t.Fatal("recovered a game from an empty directory")
	}
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.NewGame(0, pair, clock.DefaultOptions, ""); err != nil {
		t.Fatal(err)
	}
	return s, &got
}

// tick wakes the session every 100 ms from from to to, as a loop would.
func tick(s *Session, from, to time.Duration) {
	for t := from; t <= to; t += 100 * ms {
		s.Tick(t)
	}
}

func kinds(es []Event) string {
	var k []string
	for _, e := range es {
		k = append(k, e.Kind.String())
	}
	return strings.Join(k, " ")
}

// TestEvents: every change to the game is said once, in order, with the
// journal line written for it, and subscribers hear of nothing that did not
// happen (a refused press, a pause of a paused clock).
func TestEvents(t *testing.T) {
	s, got := newSession(t, t.TempDir(), "15+0")
	s.Start(1000 * ms)
	s.Press(1500*ms, clock.Black) // not Black's turn: refused
	s.Press(3000*ms, clock.White)
	s.Pause(4000 * ms)
	s.Pause(4100 * ms) // already paused
	s.Resume(5000 * ms)
	tick(s, 5000*ms, 11000*ms) // Black runs below 10 s, then flags at 19 s
	s.Press(11200*ms, clock.Black)
	tick(s, 11200*ms, 40000*ms)
	want := "new-game started pressed paused resumed low-time pressed low-time flagged"
	if k := kinds(*got); k != want {
		t.Fatalf("events:\n got %s\nwant %s", k, want)
	}
	pressed := (*got)[2]
	// The journal line as written, with its checksum.
	if pressed.At != 3000 || pressed.Side != clock.White || !strings.HasPrefix(pressed.Line, "3000 press white *") {
		t.Errorf("pressed event %+v", pressed)
	}
	b, err := json.Marshal(pressed)
	if err != nil || !strings.HasPrefix(string(b), `{"event":"pressed","at":3000,"side":"white","line":"3000 press white *`) {
		t.Errorf("JSON %s %v", b, err)
	}
	if f := (*got)[len(*got)-1]; f.Side != clock.White {
		t.Errorf("flag of %v, want white (15 s and 6 s used)", f.Side)
	}
}

func TestRecoveredEventAndState(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "300+2")
	s.Start(0)
	s.Press(12400*ms, clock.White)
	tick(s, 12400*ms, 20000*ms)
	s.Close() // power cut: nothing more reaches the disk

	r := New(Opts{StateDir: dir})
	var got []Event
	r.Subscribe(func(e Event) { got = append(got, e) })
	if !r.Recover(5 * time.Second) {
		t.Fatal("nothing recovered")
	}
	if kinds(got) != "recovered" || !r.Recovered() {
		t.Fatalf("events %s, recovered %v", kinds(got), r.Recovered())
	}
	st := r.State(5 * time.Second)
	if !st.Paused || st.Player[clock.White].Moves != 1 {
		t.Errorf("recovered state %+v", st)
	}
	// Black ran 7.6 s before the cut, and the journal proves all of it but
	// at most the last second: 300 s + 2 s, less 6.6 s to 7.6 s.
	if b := st.Player[clock.Black].Ms; b < 302000-7600 || b > 302000-6600 {
		t.Errorf("black has %d ms", b)
	}
	if !r.Resume(6*time.Second) || r.Recovered() {
		t.Error("resume does not end the recovered state")
	}
}

func TestStorageTroubleKeepsRunning(t *testing.T) {
	s, got := newSession(t, t.TempDir(), "5400+30")
	s.Start(0)
	// The journal's file goes away under the clock (read-only remount,
	// card pulled): the clock runs on and says so.
	s.swapJournal(nil)
	*got = nil
	s.jr = nil
	tick(s, 0, 2*time.Second)
	if !s.Press(2*time.Second, clock.White) {
		t.Fatal("press refused")
	}
	if st := s.State(2 * time.Second); st.Player[clock.White].Moves != 1 || st.Running != clock.Black {
		t.Errorf("after a lost journal: %+v", st)
	}
}

func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	s, got := newSession(t, dir, "5400+30")
	s.Start(0)
	// The journal's next writes hit a full disk.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	s.swapJournal(full)
	before, _ := os.ReadFile(filepath.Join(dir, journal.File))
	*got = nil
	tick(s, 0, 3*time.Second)
	s.Press(3*time.Second, clock.White)
	st := s.State(3 * time.Second)
	if st.Player[clock.White].Moves != 1 || st.Running != clock.Black {
		t.Errorf("the clock stopped keeping time: %+v", st)
	}
	if s.Warning() != "DISK FULL" {
		t.Errorf("warning %q", s.Warning())
	}
	// The trouble is said once, when it starts (at the first checkpoint),
	// not at every line that fails after it.
	if k := kinds(*got); k != "storage pressed" {
		t.Errorf("events %s, want the storage trouble once, then the press", k)
	}
	after, _ := os.ReadFile(filepath.Join(dir, journal.File))
	if string(after) != string(before) {
		t.Error("what was durable changed")
	}
}

// TestLatePressAfterCheckpoint: a press whose edge is older than the last
// checkpoint (it spent its debounce time in the driver while the loop woke)
// never writes the journal backwards, so recovery reads all of it.
func TestLatePressAfterCheckpoint(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "5400+30")
	s.Start(0)
	tick(s, 0, 3*time.Second)
	// The loop wakes and writes a checkpoint exactly now...
	now := s.Mono(s.lastLine() + checkpointDue)
	s.Tick(now)
	if s.lastLine() != s.Ms(now) {
		t.Fatal("no checkpoint written at the wake-up")
	}
	// ...and then gets a press whose first edge was 15 ms earlier.
	s.Press(now-15*ms, clock.White)
	tick(s, now, now+2*time.Second)
	r, err := journal.Recover(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Dropped) != 0 {
		t.Fatalf("journal went backwards: %v", r.Dropped)
	}
	if got := r.Clock.State(r.Last).Player[clock.White].Moves; got != 1 {
		t.Errorf("white moves %d in the journal", got)
	}
}

// TestNextDue: while a clock runs the session wants a wake-up for the next
// checkpoint; paused, none.
func TestNextDue(t *testing.T) {
	s, _ := newSession(t, "", "300+0")
	if _, ok := s.NextDue(0); ok {
		t.Error("unstarted clock wants a wake-up")
	}
	s.Start(0)
	if at, ok := s.NextDue(200 * ms); !ok || at != checkpointDue*ms {
		t.Errorf("NextDue = %v %v, want the checkpoint at %d ms", at, ok, checkpointDue)
	}
	s.Pause(300 * ms)
	if _, ok := s.NextDue(400 * ms); ok {
		t.Error("paused clock wants a wake-up")
	}
}

// TestFlagSurvivesAPowerCut: a flag that stops the clock is in the journal
// at once; a power cut after it brings the game back flagged, not at the
// last checkpoint before the flag.
func TestFlagSurvivesAPowerCut(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "60")
	s.Start(0)
	// The loop wakes for each checkpoint and at the flag's instant, as the
	// daemon's does (NextDue).
	now := time.Duration(0)
	for i := 0; i < 200; i++ {
		next, ok := s.NextDue(now)
		if !ok {
			break
		}
		now = next
		s.Tick(now)
	}
	if st := s.State(now); st.FirstFlag != clock.White || st.Running != clock.NoSide {
		t.Fatalf("no frozen flag after a minute: %+v", st)
	}
	s.Close() // the power goes

	r := New(Opts{StateDir: dir})
	r.Recover(now + time.Second)
	st := r.State(now + time.Second)
	if st.FirstFlag != clock.White || st.Player[clock.White].Ms != 0 {
		t.Errorf("after the cut: flag %v, white %d ms", st.FirstFlag, st.Player[clock.White].Ms)
	}
}

// TestLateWakeUps: the loop may wake late (a loaded CPU, a slow bus); a
// wake-up up to CheckpointSlack late still writes a checkpoint within
// CheckpointEvery of the last line, and an overdue checkpoint is due at
// once.
func TestLateWakeUps(t *testing.T) {
	for _, late := range []time.Duration{0, 50 * ms, CheckpointSlack * ms} {
		s, _ := newSession(t, t.TempDir(), "5400")
		s.Start(0)
		now := time.Duration(0)
		for i := 0; i < 20; i++ {
			due, ok := s.NextDue(now)
			if !ok {
				t.Fatal("a running clock wants no wake-up")
			}
			before := s.lastLine()
			now = due + late
			s.Tick(now)
			if gap := s.lastLine() - before; gap > CheckpointEvery {
				t.Fatalf("%v late: a checkpoint %d ms after the last line", late, gap)
			}
		}
	}
	// Overdue: the wake-up came after the due time had passed unseen.
	s, _ := newSession(t, t.TempDir(), "5400")
	s.Start(0)
	if due, _ := s.NextDue(5 * time.Second); due != 5*time.Second+ms {
		t.Errorf("an overdue checkpoint is due at %v, want at once", due)
	}
}

// TestTroubleWarning: the warning is chosen by the system's error, wherever
// it is wrapped, not by words in the message.
func TestTroubleWarning(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "write", Path: "/var/lib/zeitnot/game.log", Err: syscall.ENOSPC}, "DISK FULL"},
		{fmt.Errorf("write settings.toml: sync: %w", syscall.ENOSPC), "DISK FULL"},
		{&fs.PathError{Op: "open", Path: "/var/lib/zeitnot/game.log", Err: syscall.EROFS}, "READ-ONLY"},
		{fmt.Errorf("write presets.toml: create temporary file: %w", syscall.EACCES), "READ-ONLY"},
		{&fs.PathError{Op: "write", Path: "/var/lib/zeitnot/game.log", Err: syscall.EIO}, "SAVE FAILED"},
		// Words alone are not the disk's state.
		{errors.New(`preset name " x": want no space at the start or end`), "SAVE FAILED"},
		{errors.New("the stick is read-only"), "SAVE FAILED"},
	} {
		s, _ := newSession(t, t.TempDir(), "300+2")
		s.Trouble(c.err)
		if got := s.Warning(); got != c.want {
			t.Errorf("Trouble(%v): warning %q, want %q", c.err, got, c.want)
		}
	}
}
