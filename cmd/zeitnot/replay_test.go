package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/repocheck"
)

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "game.log")
	os.WriteFile(good, []byte("control 40/5400+30:1800+30\n0 show\n0 start\n60000 press white\n60000 show\n"), 0o644)
	code, out, errOut := prog.Run("replay", good)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON lines, got %q", out)
	}
	if !strings.HasPrefix(lines[0], `{"at":0,"running":"none","paused":false,"first_flag":"none","white":{"ms":5430000,"moves":0,"period":1,"flag":false,"overstep":false`) {
		t.Errorf("first show: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], `{"at":60000,"running":"black","paused":false,"first_flag":"none","white":{"ms":5400000,"moves":1,`) {
		t.Errorf("second show: %s", lines[1])
	}

	code, out, _ = prog.Run("replay", "--clk", good)
	if code != 0 || out != "1. {[%clk 1:30:00] [%emt 0:01:00]}\n" {
		t.Errorf("--clk: exit %d, %q", code, out)
	}

	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, []byte("control 300\n0 start\n10 press purple\n"), 0o644)
	code, _, errOut = prog.Run("replay", bad)
	if code == 0 || !strings.Contains(errOut, "bad.log:3: press: want white or black, got \"purple\"") {
		t.Errorf("bad log: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = prog.Run("replay", filepath.Join(dir, "missing.log"))
	if code == 0 || !strings.Contains(errOut, "missing.log") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ = prog.Run("replay"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}

// TestReplayFarInstant: an instant of aeons on a repeating period kept
// replay busy for minutes. It is refused now, naming the line, and the
// farthest valid instant replays at once.
func TestReplayFarInstant(t *testing.T) {
	dir := t.TempDir()
	far := filepath.Join(dir, "far.log")
	os.WriteFile(far, []byte("control 40/60\n0 start\n4503599627370496 show\n"), 0o644)
	code, out, errOut := prog.Run("replay", far)
	if code != 1 || out != "" || !strings.Contains(errOut, `far.log:3: instant "4503599627370496": want milliseconds, a whole number from 0 to 2592000000 (30 days)`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	os.WriteFile(far, []byte("control 40/60\n0 start\n2592000000 show\n"), 0o644)
	code, out, errOut = prog.Run("replay", far)
	if code != 0 || !strings.HasPrefix(out, `{"at":2592000000,"running":"white","paused":false,"first_flag":"none","white":{"ms":60000,"moves":0,"period":43201,"flag":false,"overstep":true`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestReplayFormat2 replays a journal in format 2 and refuses one with a
// damaged line, saying what it read.
func TestReplayFormat2(t *testing.T) {
	dir := t.TempDir()
	log := "format 2 *5a1bec3d\ncontrol 300+2 *6c2bd659\n0 start *37990e4f\n4000 press white *5a0bcfa9\n4000 show *a712b15e\n"
	path := filepath.Join(dir, "game.log")
	os.WriteFile(path, []byte(log), 0o644)
	code, out, errOut := prog.Run("replay", path)
	if code != 0 || !strings.HasPrefix(out, `{"at":4000,"running":"black","paused":false,"first_flag":"none","white":{"ms":300000,"moves":1,`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	os.WriteFile(path, []byte(strings.Replace(log, "4000 press", "4001 press", 1)), 0o644)
	code, _, errOut = prog.Run("replay", path)
	if code != 1 || !strings.Contains(errOut, `game.log:4: checksum mismatch: the line is damaged (one flipped bit: it read "4000 press white")`) {
		t.Errorf("damaged: exit %d, stderr %q", code, errOut)
	}
}

// TestReplaySavedGame: a game as the journal saved it has no show line;
// replay prints the clock at its last instant, one JSON line, and says so
// in its usage.
func TestReplaySavedGame(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.log")
	os.WriteFile(path, []byte("format 2 *5a1bec3d\ncontrol 300+2 *6c2bd659\n0 start *37990e4f\n4000 press white *5a0bcfa9\n"), 0o644)
	code, out, errOut := prog.Run("replay", path)
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, `{"at":4000,"running":"black","paused":false,"first_flag":"none","white":{"ms":300000,"moves":1,`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, _, errOut = prog.Run("replay", "--help")
	if !strings.Contains(strings.Join(strings.Fields(errOut), " "), "a log without one (a game as the journal saved it) prints one line, the clock at the log's last instant") {
		t.Errorf("usage does not say so: %s", errOut)
	}
	// Not a regular file: refused at once, naming it.
	code, _, errOut = prog.Run("replay", dir)
	if code != 1 || !strings.Contains(errOut, dir) || !strings.Contains(errOut, "not a regular file") {
		t.Errorf("directory: exit %d, stderr %q", code, errOut)
	}
}

// TestReplayClkIncrement: --clk of a game where the arbiter gave both
// players 5 s per move (FIDE Guidelines III.4) after White's third move.
func TestReplayClkIncrement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.log")
	os.WriteFile(path, []byte("control 300\n0 start\n100000 press white\n190000 press black\n290000 press white\n300000 press black\n310000 pause\n320000 increment both 5000\n330000 resume\n332000 press white\n333000 press black\n"), 0o644)
	code, out, errOut := prog.Run("replay", "--clk", path)
	want := "1. {[%clk 0:03:20] [%emt 0:01:40]}\n" +
		"1... {[%clk 0:03:30] [%emt 0:01:30]}\n" +
		"2. {[%clk 0:01:40] [%emt 0:01:40]}\n" +
		"2... {[%clk 0:03:20] [%emt 0:00:10]}\n" +
		"3. {[%clk 0:01:33] [%emt 0:00:12]}\n" +
		"3... {[%clk 0:03:24] [%emt 0:00:01]}\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestDocSample replays the sample clock log of docs/developers.md and
// checks the output the document shows for it: the JSON line (its "..." elisions aside)
// and the --clk lines.
func TestDocSample(t *testing.T) {
	text := repocheck.Read(t, "docs/developers.md")
	_, section, ok := strings.Cut(text, "## The clock log")
	if !ok {
		t.Fatal("docs/developers.md has no clock log section")
	}
	blocks := fenced(section)
	if len(blocks) < 4 {
		t.Fatalf("docs/developers.md's clock log section has %d code blocks, want the log, the format 2 log, the JSON and the --clk output", len(blocks))
	}
	path := filepath.Join(t.TempDir(), "sample.log")
	os.WriteFile(path, []byte(blocks[0]), 0o644)
	code, out, errOut := prog.Run("replay", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The JSON block: one line, wrapped and elided with "...".
	json := strings.ReplaceAll(blocks[2], "\n ", "")
	rest := out
	for _, piece := range strings.Split(strings.TrimSpace(json), "...") {
		i := strings.Index(rest, piece)
		if i < 0 {
			t.Fatalf("docs/developers.md's JSON piece %q is not in the replay's output (in order):\n%s", piece, out)
		}
		rest = rest[i+len(piece):]
	}
	code, out, errOut = prog.Run("replay", "--clk", path)
	if code != 0 || out != blocks[3] {
		t.Errorf("--clk: exit %d, stderr %q:\n%s\ndocs/developers.md shows\n%s", code, errOut, out, blocks[3])
	}
	// The format 2 sample reads, and prints its last instant.
	os.WriteFile(path, []byte(blocks[1]), 0o644)
	if code, out, errOut = prog.Run("replay", path); code != 0 || !strings.HasPrefix(out, `{"at":5000,"running":"black",`) {
		t.Errorf("format 2 sample: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}

// fenced returns the text of each fenced code block in s.
func fenced(s string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(line, "```") {
			if cur != nil {
				blocks = append(blocks, cur.String())
				cur = nil
			} else {
				cur = &strings.Builder{}
			}
			continue
		}
		if cur != nil {
			cur.WriteString(line)
		}
	}
	return blocks
}

// TestReplayLiveJournal replays the running game's journal as it is on
// disk, zeros after its lines, while the game goes on.
func TestReplayLiveJournal(t *testing.T) {
	dir := t.TempDir()
	j, _, err := journal.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	pair, _ := timecontrol.ParsePair("5400+30")
	if err := j.Start(clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions}, false); err != nil {
		t.Fatal(err)
	}
	for _, e := range []clocklog.Event{
		{At: 0, Verb: clocklog.Start, Side: clock.NoSide},
		{At: 5200, Verb: clocklog.Press, Side: clock.White},
		{At: 60000, Verb: clocklog.Checkpoint, Side: clock.Black},
		{At: 65000, Verb: clocklog.Press, Side: clock.Black},
	} {
		if _, err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(j.Path()); fi.Size() < 4096 {
		t.Fatalf("the journal is not padded: %d bytes", fi.Size())
	}
	code, out, errOut := prog.Run("replay", "--clk", j.Path())
	if want := "1. {[%clk 1:30:54.8] [%emt 0:00:05.2]}\n1... {[%clk 1:30:00.2] [%emt 0:00:59.8]}\n"; code != 0 || out != want {
		t.Errorf("exit %d, stdout %q, want %q, stderr %q", code, out, want, errOut)
	}
	// A damaged journal is an error naming the line, as any log.
	b, _ := os.ReadFile(j.Path())
	b[bytes.Index(b, []byte("65000"))] = '7'
	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, b, 0o644)
	if code, _, errOut := prog.Run("replay", bad); code != 1 || !strings.Contains(errOut, "bad.log:9: checksum mismatch") {
		t.Errorf("damaged journal: exit %d, stderr %q", code, errOut)
	}
}

// replay --pgn prints, for every realistic and scripted game and for a
// format 2 journal with notes and padding, the PGN that the four PGN
// readers read back as the journal says.
func TestReplayPGN(t *testing.T) {
	dir := t.TempDir()
	var pgns []string
	var wants [][]pgnreaders.Want
	for _, j := range pgnreaders.Games() {
		path := filepath.Join(dir, j.Name)
		os.WriteFile(path, []byte(j.Log), 0o644)
		// The journal knows no moves, no result and none of the hall's
		// tags but those given.
		g := clocklog.PGNGame{Event: j.Game.Event, Round: j.Game.Round}
		code, out, errOut := prog.Run("replay", "--pgn", "--event", g.Event, "--round", g.Round, path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", j.Name, code, errOut)
		}
		l, err := j.Parse()
		if err != nil {
			t.Fatal(err)
		}
		pgns = append(pgns, out)
		wants = append(wants, []pgnreaders.Want{pgnreaders.Expect(t, l, g)})
	}
	// A journal as the clock writes it: format 2, the game's id and the
	// names in its notes, zeros after its end.
	h := clocklog.Header{Controls: timecontrol.Same(timecontrol.Control{{Time: 300000, Mode: timecontrol.Fischer, Extra: 2000}}), Options: clock.DefaultOptions}
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendComment(b, journal.IDNote+"0017-3fa2c1")
	b = clocklog.AppendEvent(b, clocklog.Event{At: 0, Verb: clocklog.Start})
	b = clocklog.AppendComment(b, journal.PlayersNote("hall", `Carlsen, "Magnus"`, "Caruana, Fabiano"))
	b = clocklog.AppendEvent(b, clocklog.Event{At: 4000, Verb: clocklog.Press, Side: clock.White})
	b = clocklog.AppendEvent(b, clocklog.Event{At: 9000, Verb: clocklog.Press, Side: clock.Black})
	path := filepath.Join(dir, "game.log")
	os.WriteFile(path, append(b, make([]byte, 4096)...), 0o644)
	code, out, errOut := prog.Run("replay", "--pgn", "--board", "12", "--date", "2026.03.07", path)
	if code != 0 {
		t.Fatalf("journal: exit %d: %s", code, errOut)
	}
	l, err := clocklog.ReadLog("game.log", b)
	if err != nil {
		t.Fatal(err)
	}
	pgns = append(pgns, out)
	wants = append(wants, []pgnreaders.Want{pgnreaders.Expect(t, l, clocklog.PGNGame{Date: "2026.03.07", White: `Carlsen, "Magnus"`, Black: "Caruana, Fabiano",
		Extra: [][2]string{{"Board", "12"}, {"ZeitnotGame", "0017-3fa2c1"}}})})
	pgnreaders.CheckAll(t, pgns, wants)

	if code, _, errOut := prog.Run("replay", "--pgn", "--clk", path); code != 2 || !strings.Contains(errOut, "not both") {
		t.Errorf("--pgn --clk: exit %d: %s", code, errOut)
	}
	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, []byte("nonsense\n"), 0o644)
	if code, out, errOut := prog.Run("replay", "--pgn", bad); code != 1 || out != "" || !strings.Contains(errOut, "bad.log") {
		t.Errorf("a log without a control: exit %d, %q, %s", code, out, errOut)
	}
}

// TestReplayPGNMoves: a journal with an e-board's move lines prints the
// real moves, each with its clock, through the one PGN writer; a press
// whose move the board did not give ends the moves, and the rest are the
// clock record.
func TestReplayPGNMoves(t *testing.T) {
	h := clocklog.Header{Controls: timecontrol.Same(timecontrol.Control{{Time: 300000, Mode: timecontrol.Fischer, Extra: 2000}}), Options: clock.DefaultOptions}
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendEvent(b, clocklog.Event{At: 0, Verb: clocklog.Start})
	side := clock.White
	for i, m := range [][2]string{{"e4", "e2e4"}, {"e5", "e7e5"}, {"Nf3", "g1f3"}, {"", ""}, {"Bb5", "f1b5"}} {
		at := int64(i+1) * 4000
		b = clocklog.AppendEvent(b, clocklog.Event{At: at, Verb: clocklog.Press, Side: side})
		side = 1 - side
		if m[0] != "" {
			b = clocklog.AppendEvent(b, clocklog.Event{At: at + 250, Verb: clocklog.BoardMove, Side: clock.NoSide, Value: int64(i + 1), Board: clocklog.BoardText{SAN: m[0], UCI: m[1]}})
		}
	}
	path := filepath.Join(t.TempDir(), "game.log")
	os.WriteFile(path, append(b, make([]byte, 4096)...), 0o644)
	code, out, errOut := prog.Run("replay", "--pgn", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"1. e4 {[%clk 0:05:00] [%emt 0:00:04]} 1... e5 {[%clk 0:05:00] [%emt 0:00:04]}",
		"2. Nf3 {[%clk 0:04:58] [%emt 0:00:04]",
		clocklog.RecordPrefix + " 2... clk",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("PGN without %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Bb5") {
		t.Errorf("a move after a missing one printed as a move:\n%s", out)
	}
}
