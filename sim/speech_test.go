package sim

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/internal/needtool"
)

// The spoken clock (FIDE Appendix D.2.6.1) in the simulator: the tests the
// FIDE dossier cites for it.

// club writes a club config for a test.
func club(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "zeitnot.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// needEspeak skips the test without espeak-ng (fails in CI).
func needEspeak(t *testing.T) {
	t.Helper()
	needtool.Path(t, "apt-get install espeak-ng", "espeak-ng")
}

// readWAV reads one of the --audio directory's files.
func readWAV(t *testing.T, dir, name string) audio.Sound {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := audio.ReadWAV(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(s.Ch) != 2 {
		t.Fatalf("%s: %d channels, want stereo", name, len(s.Ch))
	}
	return s
}

// last is the last thing the spoken clock said.
func (c *clockT) last() Spoken {
	c.t.Helper()
	if len(c.v.Said) == 0 {
		c.t.Fatal("nothing said")
	}
	return c.v.Said[len(c.v.Said)-1]
}

// saidIs checks everything said so far, each as "SIDE: TEXT".
func (c *clockT) saidIs(when string, want ...string) {
	c.t.Helper()
	var texts []string
	for _, s := range c.v.Said {
		texts = append(texts, s.Side+": "+s.Text)
	}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		c.t.Errorf("%s: said %q, want %q", when, texts, want)
	}
}

// TestAnnounceScript: the script language's announce buttons, and the
// state line's announced, whose text is the engine's state at the press:
// the state line printed at the press's instant, before it, has the
// times and moves the announcement says.
func TestAnnounceScript(t *testing.T) {
	script := `0 tap right
12400 tap left
31000 tap right
45678 state
45678 tap announce-left
45678 state
46000 tap announce-left
46000 state
47000 state
`
	var out bytes.Buffer
	if err := RunScript(ScriptOpts{StateDir: t.TempDir(), Out: &out}, "test.sim", strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	type side struct {
		Ms    int64 `json:"ms"`
		Moves int   `json:"moves"`
	}
	var lines []struct {
		White, Black side
		Announced    []Spoken `json:"announced"`
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var s struct {
			White, Black side
			Announced    []Spoken `json:"announced"`
		}
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		lines = append(lines, s)
	}
	if len(lines) != 4 || len(lines[0].Announced) != 0 || len(lines[3].Announced) != 0 {
		t.Fatalf("state lines: %+v", lines)
	}
	at := lines[0] // the clock at the first press
	own := speech.Own(speech.English, speech.Player{Ms: at.White.Ms, Moves: at.White.Moves})
	if got := lines[1].Announced; len(got) != 1 || got[0] != (Spoken{At: 45678, Side: "left", Lang: "en", Text: own}) {
		t.Errorf("first press: %+v, want %q on the left", got, own)
	}
	if own != "one hour thirty minutes thirty-three seconds, move one" {
		// White: 5400 s + 30 s before move 1, + 30 s after it, less
		// 12.4 s for move 1 and 14.678 s since black's press: 5432.922 s,
		// said as the display shows it, 1:30:33.
		t.Errorf("own time %q", own)
	}
	opp := speech.Opponent(speech.English, speech.Player{Ms: at.Black.Ms, Moves: at.Black.Moves}, true)
	if got := lines[2].Announced; len(got) != 1 || got[0].Text != opp || got[0].Side != "left" {
		t.Errorf("second press: %+v, want %q", got, opp)
	}
}

// TestAnnounceAgainWindow: a second press within AnnounceAgain speaks the
// opponent's clock; a later one, or a third, the player's own again.
func TestAnnounceAgainWindow(t *testing.T) {
	c := start(t, ScriptOpts{})
	c.tap(ui.Right)
	c.tap(ui.AnnounceRight)
	if s := c.last(); s.Side != "right" || strings.HasPrefix(s.Text, "opponent") {
		t.Fatalf("first press: %+v", s)
	}
	c.tap(ui.AnnounceRight)
	if s := c.last(); !strings.HasPrefix(s.Text, "opponent, ") || !strings.HasSuffix(s.Text, ", opponent's move") {
		t.Errorf("second press: %+v", s)
	}
	c.tap(ui.AnnounceRight)
	if s := c.last(); strings.HasPrefix(s.Text, "opponent") {
		t.Errorf("third press: %+v", s)
	}
	c.wait(ui.AnnounceAgain + time.Second)
	c.tap(ui.AnnounceRight)
	if s := c.last(); strings.HasPrefix(s.Text, "opponent") {
		t.Errorf("a press after the window: %+v", s)
	}
}

// TestAnnounceChannel: an announcement is in its player's channel of the
// stereo WAV, and the other channel is silent: nothing is spoken into the
// other player's earphone.
func TestAnnounceChannel(t *testing.T) {
	needEspeak(t)
	dir := t.TempDir()
	c := start(t, ScriptOpts{Audio: dir})
	c.tap(ui.Right)
	c.tap(ui.AnnounceLeft, ui.AnnounceRight)
	if c.v.audioErr != nil {
		t.Fatal(c.v.audioErr)
	}
	for _, f := range []struct {
		name          string
		loud, silent  audio.Channel
		wantSaidSides string
	}{{"001-left.wav", audio.Left, audio.Right, "left"}, {"002-right.wav", audio.Right, audio.Left, "right"}} {
		s := readWAV(t, dir, f.name)
		if _, ok := s.FirstSound(f.loud); !ok {
			t.Errorf("%s: the %s channel is silent", f.name, f.loud)
		}
		if at, ok := s.FirstSound(f.silent); ok {
			t.Errorf("%s: the %s channel has sound at %v", f.name, f.silent, at)
		}
	}
	if len(c.v.Said) != 2 || c.v.Said[0].File != "001-left.wav" || c.v.Said[1].File != "002-right.wav" {
		t.Errorf("said %+v", c.v.Said)
	}
	if !t.Failed() {
		t.Logf("figure channel: the left player's announcement only in the left channel, the right player's only in the right; the other channel silent in both")
	}
}

// twelveMoves plays a sudden-death 90-minute game to White's 12th move,
// White on the left having used exactly 10 s, and Black's clock running:
// White's clock stands at 1:29:50 after 12 moves.
func twelveMoves(t *testing.T, o ScriptOpts) *clockT {
	o.ConfigPath = club(t, "[game]\ncontrol = \"5400\"\n")
	c := start(t, o)
	lever := func(name string) {
		c.v.Button(name, button.Press)
		c.v.Button(name, button.Release)
	}
	lever(ui.Right) // Black's lever starts White's clock
	for i := range 12 {
		used := 500 * time.Millisecond
		if i == 0 {
			used = 10*time.Second - 11*used
		}
		c.wait(used)
		lever(ui.Left) // White's move
		if i < 11 {
			c.wait(2 * time.Second)
			lever(ui.Right) // Black's
		}
	}
	c.wait(3 * time.Second) // Black thinks
	if st := c.state(); st.White.Ms != 5390000 || st.White.Moves != 12 || st.Running != "black" {
		t.Fatalf("white %+v, running %s", st.White, st.Running)
	}
	return c
}

// TestAnnounceDuration: "one hour twenty-nine minutes fifty seconds, move
// twelve" takes at most 2.5 s at the default speed: the WAV the simulator
// wrote for the press that said it, and the same announcement in every
// language.
func TestAnnounceDuration(t *testing.T) {
	needEspeak(t)
	dir := t.TempDir()
	c := twelveMoves(t, ScriptOpts{Audio: dir})
	c.tap(ui.AnnounceLeft)
	said := c.last()
	if said.Text != "one hour twenty-nine minutes fifty seconds, move twelve" {
		t.Fatalf("said %q", said.Text)
	}
	if d := readWAV(t, dir, said.File).Duration(); d > 2500*time.Millisecond {
		t.Errorf("%q takes %v in %s, want at most 2.5 s", said.Text, d, said.File)
	} else {
		t.Logf("%q: %v", said.Text, d)
	}
	synth := &audio.Espeak{WPM: c.v.M.Core.Settings().SpeechWPM}
	for _, l := range speech.Langs {
		text := speech.Own(l, speech.Player{Ms: 5390000, Moves: 12})
		s, err := synth.Synthesize(t.Context(), string(l), text)
		if err != nil {
			t.Fatal(err)
		}
		if d := s.Duration(); d > 2500*time.Millisecond {
			t.Errorf("%s: %q takes %v, want at most 2.5 s", l, text, d)
		} else {
			t.Logf("%s: %q: %v", l, text, d)
		}
	}
}

// TestAnnounceTwelveMoves: after twelve moves with 10 s used, the left
// player's press says exactly the example of the rules: "one hour
// twenty-nine minutes fifty seconds, move twelve".
func TestAnnounceTwelveMoves(t *testing.T) {
	c := twelveMoves(t, ScriptOpts{})
	c.tap(ui.AnnounceLeft)
	if got, want := c.last(), (Spoken{At: c.last().At, Side: "left", Lang: "en", Text: "one hour twenty-nine minutes fifty seconds, move twelve"}); got != want {
		t.Errorf("said %+v, want %+v", got, want)
	}
}

// TestAnnounceLatency: the announcement's first sound, in virtual time
// from the press's first edge, is within 300 ms: the WAV starts at the
// press, so its silence before the speech is the latency. A press the
// loop got 40 ms after its edge is 40 ms later still (the time spoken is
// the edge's). Real synthesis time is BenchmarkSynthesize (drivers/audio).
func TestAnnounceLatency(t *testing.T) {
	needEspeak(t)
	dir := t.TempDir()
	c := start(t, ScriptOpts{Audio: dir})
	c.tap(ui.Right)
	c.wait(5 * time.Second)
	c.tap(ui.AnnounceLeft)
	edge := c.v.Now()
	c.v.M.Input(button.Event{Button: ui.AnnounceRight, Kind: button.Press, At: edge - 40*time.Millisecond}, edge)
	if c.v.audioErr != nil {
		t.Fatal(c.v.audioErr)
	}
	for i, f := range []struct {
		name string
		ch   audio.Channel
		late time.Duration
	}{{"001-left.wav", audio.Left, 0}, {"002-right.wav", audio.Right, 40 * time.Millisecond}} {
		s := readWAV(t, dir, f.name)
		at, ok := s.FirstSound(f.ch)
		if !ok || at < f.late || at > 300*time.Millisecond {
			t.Errorf("%s: first sound %v after the press (%v), want %v to 300 ms", f.name, at, ok, f.late)
		}
		t.Logf("%s: first sound %v after the press", f.name, at)
		if i == 0 {
			t.Logf("figure latency: first sound %v after the press (limit 300 ms), %v long", at.Round(time.Millisecond), s.Duration().Round(10*time.Millisecond))
		}
		if i == 1 && c.v.Said[1].At != (edge-40*time.Millisecond).Milliseconds() {
			t.Errorf("the late press is said at %d, want its edge %d", c.v.Said[1].At, (edge - 40*time.Millisecond).Milliseconds())
		}
	}
	// The time said is the clock's at the edge, not at the loop's turn.
	st := c.v.M.Core.Session().State(edge - 40*time.Millisecond)
	if want := speech.Own(speech.English, speech.Player{Ms: st.Player[1].Ms, Moves: st.Player[1].Moves}); c.v.Said[1].Text != want {
		t.Errorf("said %q, want %q", c.v.Said[1].Text, want)
	}
}

// TestAnnounceLanguages: each side speaks its own language (the config's
// [speech]); a side that is off says nothing, not even a flag.
func TestAnnounceLanguages(t *testing.T) {
	c := start(t, ScriptOpts{ConfigPath: club(t, "[game]\ncontrol = \"60\"\n[speech]\nleft = \"de\"\nright = \"fr\"\n")})
	c.tap(ui.Right)
	c.wait(20 * time.Second)
	c.tap(ui.AnnounceLeft, ui.AnnounceRight)
	got := c.v.Said
	if len(got) != 2 || got[0].Lang != "de" || got[0].Text != "vierzig Sekunden, Zug null" ||
		got[1].Lang != "fr" || got[1].Text != "une minute, coup zéro" {
		t.Errorf("said %+v", got)
	}
	c = start(t, ScriptOpts{ConfigPath: club(t, "[game]\ncontrol = \"60\"\n[speech]\nleft = \"es\"\nright = \"off\"\n")})
	c.tap(ui.Right)
	c.wait(2 * time.Minute)
	c.tap(ui.AnnounceRight)
	if got := c.v.Said; len(got) != 1 || got[0] != (Spoken{At: got[0].At, Side: "left", Lang: "es", Text: "tu bandera cayó"}) {
		t.Errorf("after the flag, with the right side off: %+v", got)
	}
}

// TestAnnouncePassedOnFlagTrigger: with period-trigger flag, passing the
// control is said when the quota is made, with the time then; the next
// period's time, added when the period's time runs out, is not said again.
func TestAnnouncePassedOnFlagTrigger(t *testing.T) {
	c := start(t, ScriptOpts{ConfigPath: club(t, "[game]\ncontrol = \"2/60:30\"\nperiod_trigger = \"flag\"\n")})
	c.tap(ui.Right)
	c.tap(ui.Left, ui.Right, ui.Left) // White's second move makes the quota
	c.saidIs("after the quota", "left: time control passed, one minute", "right: opponent passed the time control")
	c.v.Said = nil
	c.tap(ui.Right)          // Black's second move, also the quota
	c.wait(61 * time.Second) // White's first period runs out: the next begins
	if p := c.state().White.Period; p != 2 {
		t.Fatalf("white in period %d, want 2", p)
	}
	if len(c.v.Said) != 2 || c.v.Said[1].Text != "time control passed, one minute" || c.v.Said[1].Side != "right" {
		t.Errorf("said %+v, want Black's passing only", c.v.Said)
	}
}

// TestAnnounceEvents: what the clock says unasked: a time control passed
// (to both players, each from their side), a flag, and the result
// proposed for the players to agree.
func TestAnnounceEvents(t *testing.T) {
	c := start(t, ScriptOpts{ConfigPath: club(t, "[game]\ncontrol = \"2/60:30\"\nperiod_trigger = \"moves\"\n")})
	c.tap(ui.Right)
	c.tap(ui.Left, ui.Right, ui.Left) // White's second move completes the quota
	c.saidIs("after the quota", "left: time control passed, one minute thirty seconds", "right: opponent passed the time control")
	c.v.Said = nil
	c.wait(5 * time.Minute) // Black's flag
	if got := c.v.Said; len(got) != 2 || got[0].Text != "opponent's flag fell" || got[1].Text != "your flag fell" {
		t.Errorf("the flag: %+v", got)
	}
	c.v.Said = nil
	c.tap(ui.Minus) // the players' result
	c.tap(ui.OK)    // the proposed one: White wins on time
	if got := c.v.Said; len(got) != 2 || got[0].Text != "result proposed, white wins, press your lever to agree" || got[1].Side != "right" {
		t.Errorf("the result: %+v", got)
	}
}

// TestSpokenMenuSetup90_30: a blind player sets a 90'+30" game alone: the
// spoken menu on with a hold of their announce button, then each press
// chosen from what was said, and nothing else (this test reads no
// display). The game is the FIDE 90+30, White's clock at 1:30:30, and the
// player's announce button says so.
func TestSpokenMenuSetup90_30(t *testing.T) {
	c := start(t, ScriptOpts{})
	c.hold(ui.AnnounceLeft)
	if s := c.v.Said; len(s) < 2 || s[1].Text != "spoken menu on" || s[1].Side != "left" {
		t.Fatalf("the hold: %+v", s)
	}
	c.hold(ui.OK) // the menu, as every clock opens it
	// The player knows 90+30 is a classical control, hears each page's
	// entries and their buttons, opens a submenu to hear it, and goes back
	// (pause) from one that does not have it.
	keys := map[string]string{"left lever": ui.Left, "right lever": ui.Right, "minus": ui.Minus, "plus": ui.Plus, "ok": ui.OK}
	var find func(depth int) bool
	find = func(depth int) bool {
		said := c.last().Text
		var subs []string
		for _, part := range strings.Split(said, ". ") {
			k, label, ok := strings.Cut(part, ": ")
			if !ok || keys[k] == "" {
				continue
			}
			if strings.HasPrefix(label, "ninety minutes plus thirty seconds") && !strings.HasSuffix(label, ", submenu") && k != "ok" {
				c.tap(keys[k])
				return true
			}
			if strings.HasSuffix(label, ", submenu") && (depth > 0 || strings.Contains(strings.ToLower(label), "classical")) {
				subs = append(subs, keys[k])
			}
		}
		for _, k := range subs {
			c.tap(k)
			if find(depth + 1) {
				return true
			}
			c.tap(ui.Pause) // back
		}
		return false
	}
	if !find(0) {
		t.Fatalf("no 90+30 found by ear; said %+v", c.v.Said)
	}
	if got := c.last().Text; got != "FIDE ninety plus thirty" {
		t.Errorf("after the pick: %q", got)
	}
	if c.presses != 5 {
		t.Errorf("%d presses, want 5 (docs/players.md)", c.presses)
	}
	t.Logf("figure menu: 90'+30\" set by ear alone in %d presses after the hold that turns the spoken menu on", c.presses)
	c.tap(ui.AnnounceLeft)
	if got := c.last().Text; got != "one hour thirty minutes thirty seconds, move zero" {
		t.Errorf("the announce press: %q", got)
	}
	if st := c.state(); st.Control != "5400+30" || st.White.Ms != 5430000 || st.Started {
		t.Errorf("the clock: control %s, white %d ms, started %v", st.Control, st.White.Ms, st.Started)
	}
	// The hold again: the spoken menu off.
	c.hold(ui.AnnounceLeft)
	if got := c.last().Text; got != "spoken menu off" {
		t.Errorf("the second hold: %q", got)
	}
	c.hold(ui.OK)
	if got := c.last().Text; got != "spoken menu off" {
		t.Errorf("the menu spoke with the spoken menu off: %q", got)
	}
}
