// Package pgnreaders feeds PGN to four third-party PGN readers, the ones
// broadcasts and chess sites build on, and compares what they read with
// the clock log the PGN was written from. Tests of everything that writes
// PGN (the hall's endpoints, the USB stick's export, `zeitnot replay
// --pgn`) call Check.
//
// The readers are npm packages pinned in package-lock.json beside this
// file: chessops, @mliebelt/pgn-parser, pgn-parser and chess.js (and ajv,
// the JSON schema validator the release's Imager check uses). read.mjs
// runs them. The first test that needs them runs `npm ci` here (once:
// node_modules is kept, and remade when the lock file changes). Without
// node and npm a test skips, saying so, unless CI is set ("true"): then
// it fails.
package pgnreaders

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/needtool"
)

// Readers are the readers read.mjs runs, by the names it reports.
var Readers = []string{"chessops", "mliebelt", "pgn-parser", "chess.js"}

// Move is one move as a reader read it.
type Move struct {
	SAN     string `json:"san"`
	Comment string `json:"comment"` // the comment after it, whitespace runs made one space
	// Clk is the reader's own reading of [%clk]/[%egt], where it has one:
	// seconds (chessops) or the text (@mliebelt/pgn-parser).
	Clk any `json:"clk"`
	// Egt and Emt are @mliebelt/pgn-parser's readings of [%egt] and
	// [%emt], which it takes out of the comment.
	Egt string `json:"egt"`
	Emt any    `json:"emt"`
}

// Game is one game as a reader read it.
type Game struct {
	Tags     map[string]string `json:"tags"`
	Moves    []Move            `json:"moves"`
	Comments []string          `json:"comments"` // game comments (before any move)
	Messages []Message         `json:"messages"` // @mliebelt/pgn-parser's warnings
}

// Message is a warning of @mliebelt/pgn-parser.
type Message struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

// Result is what one reader made of one file.
type Result struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Games []Game `json:"games"`
}

// Dir is the folder of the harness (package.json, read.mjs).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

var setup struct {
	sync.Mutex
	done bool
	err  error
}

// Ready makes node_modules match package-lock.json (npm ci), once per
// process, and returns the harness's folder. Without node or npm, or if
// npm ci fails, it skips t, or fails it when CI is "true".
func Ready(t testing.TB) string {
	t.Helper()
	dir := Dir()
	setup.Lock()
	if !setup.done {
		setup.err = install(dir)
		setup.done = true
	}
	err := setup.err
	setup.Unlock()
	if err != nil {
		needtool.Missing(t, fmt.Sprintf("the PGN readers (%s) are not installed, so the PGN is not read back: %v", dir, err))
	}
	return dir
}

// install runs npm ci in dir unless node_modules was made from the same
// lock file, under a lock so that test processes running at once install
// once.
func install(dir string) error {
	for _, p := range []string{"node", "npm"} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("%s is not installed (apt-get install nodejs npm)", p)
		}
	}
	lockData, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(lockData)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", ".zeitnot-lock-sha256")
	lf, err := os.OpenFile(filepath.Join(dir, ".npm-ci.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		err = <-done
		err = fmt.Errorf("npm ci took more than 5 minutes: %v", err)
	}
	if err != nil {
		return fmt.Errorf("npm ci in %s: %v: %s", dir, err, strings.TrimSpace(out.String()))
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}

// Read runs every reader on each PGN text and returns, for each text, each
// reader's Result by name.
func Read(t testing.TB, pgns ...string) []map[string]Result {
	t.Helper()
	dir := Ready(t)
	tmp := t.TempDir()
	args := []string{filepath.Join(dir, "read.mjs")}
	for i, p := range pgns {
		f := filepath.Join(tmp, fmt.Sprintf("%d.pgn", i))
		if err := os.WriteFile(f, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node read.mjs: %v: %s", err, stderr.String())
	}
	var files []struct {
		Readers map[string]Result `json:"readers"`
	}
	if err := json.Unmarshal(out, &files); err != nil {
		t.Fatalf("read.mjs printed %.200q: %v", out, err)
	}
	if len(files) != len(pgns) {
		t.Fatalf("read.mjs read %d files, want %d", len(files), len(pgns))
	}
	res := make([]map[string]Result, len(files))
	for i, f := range files {
		res[i] = f.Readers
	}
	return res
}

// OwnTags are the tags of zeitnot's own (docs/pgn.md), which
// @mliebelt/pgn-parser names as not known; its only other allowed
// warning is for tenths of a second in a clock (zeitnot writes them when
// they are not zero, as %clk allows).
var OwnTags = []string{"ZeitnotControl", "ZeitnotIncrement", "ZeitnotGame", "ZeitnotContinues"}

// Want is what a PGN game must read back as.
type Want struct {
	Tags     map[string]string // tags that must be there with these values
	NoTags   []string          // tags that must not be there
	Moves    []string          // SAN
	Comments []string          // the comment after each move
	Clk      []int64           // each move's %clk in ms; -1 for none (count-up)
	Egt, Emt []string          // each move's %egt ("" for none) and %emt
	Game     []string          // the game comments
}

// Expect is what the PGN of l must read back as, from the journal alone:
// g's tags and result, each move's SAN with its clock and time used as
// `zeitnot replay --clk` gives them, and the clock readings of the
// moves without SAN and the fallen flag in one comment after them.
func Expect(t testing.TB, l *clocklog.Log, g clocklog.PGNGame) Want {
	t.Helper()
	var clk bytes.Buffer
	if err := clocklog.WriteClk(l, &clk); err != nil {
		t.Fatal(err)
	}
	var moves []clock.Move
	refused := 0
	c, err := clocklog.Replay(l, clocklog.Handlers{
		Move: func(m clock.Move) { moves = append(moves, m) },
		Refused: func(_ int, e clocklog.Event, _ error) {
			if e.Verb == clocklog.SetIncrement {
				refused++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	increments := -refused
	for _, e := range l.Events {
		if e.Verb == clocklog.SetIncrement {
			increments++
		}
	}
	lines := strings.Split(strings.TrimSuffix(clk.String(), "\n"), "\n")
	if len(moves) == 0 {
		lines = nil
	}
	result := g.Result
	if result == "" {
		result = "*"
	}
	w := Want{Tags: map[string]string{"Result": result}}
	// What a tag value reads back as: zeitnot writes no escapes
	// (docs/pgn.md), for two of the readers do not read them.
	value := strings.NewReplacer(`"`, "'", `\`, "/").Replace
	for k, v := range map[string]string{"Event": g.Event, "Site": g.Site, "Round": g.Round, "White": g.White, "Black": g.Black, "Date": g.Date} {
		v = value(v)
		if v == "" {
			v = "?"
			if k == "Date" {
				v = "????.??.??"
			}
		}
		w.Tags[k] = v
	}
	for _, x := range g.Extra {
		w.Tags[x[0]] = value(x[1])
	}
	// The control: the standard's form, unless an arbiter's increment
	// changed it during the game; the exact one as played.
	w.Tags["TimeControl"] = timecontrol.FormatPGN(l.Controls)
	if increments > 0 {
		w.Tags["TimeControl"] = "?"
	}
	w.Tags["ZeitnotControl"] = timecontrol.FormatPair(c.Played())
	end := c.State(c.Now())
	for _, s := range []clock.Side{clock.White, clock.Black} {
		name := map[clock.Side]string{clock.White: "WhiteClock", clock.Black: "BlackClock"}[s]
		if ctl := map[clock.Side]timecontrol.Control{clock.White: l.Controls.White, clock.Black: l.Controls.Black}[s]; ctl.IsCountUp() {
			w.NoTags = append(w.NoTags, name)
		} else {
			w.Tags[name] = clocklog.PGNTime(end.Player[s].Ms)
		}
	}
	var record []string
	for i, ln := range lines {
		// "12... {[%clk 1:21:07] [%emt 0:02:31]}"
		num, rest, _ := strings.Cut(ln, " ")
		body := strings.TrimSuffix(strings.TrimPrefix(rest, "{"), "}")
		if len(record) == 0 && i < len(g.Moves) && g.Moves[i] != "" {
			w.Moves = append(w.Moves, g.Moves[i])
			w.Comments = append(w.Comments, body)
			ms := moves[i].After
			if moves[i].Side == clock.White && l.Controls.White.IsCountUp() || moves[i].Side == clock.Black && l.Controls.Black.IsCountUp() {
				ms = -1
			}
			w.Clk = append(w.Clk, ms)
			egt := ""
			if ms < 0 {
				egt = clocklog.PGNTime(moves[i].After)
			}
			w.Egt = append(w.Egt, egt)
			w.Emt = append(w.Emt, clocklog.PGNTime(moves[i].Used))
			continue
		}
		// "[%clk 1:21:07] [%emt 0:02:31]" -> "clk 1:21:07 emt 0:02:31"
		r := strings.NewReplacer("[%", "", "]", "")
		record = append(record, num+" "+r.Replace(body))
	}
	tail := ""
	if len(record) > 0 {
		tail = clocklog.RecordPrefix + " " + strings.Join(record, "; ")
	}
	if f := c.State(c.Now()).FirstFlag; f != clock.NoSide {
		name := "White"
		if f == clock.Black {
			name = "Black"
		}
		if tail != "" {
			tail += "; "
		}
		tail += name + "'s flag fell first"
	}
	if tail != "" {
		if n := len(w.Comments); n > 0 {
			w.Comments[n-1] += " " + tail
		} else {
			w.Game = []string{tail}
		}
	}
	return w
}

// Check asserts that every reader accepts pgn, reads as many games as
// want has, and reads each back as want says.
func Check(t testing.TB, pgn string, want []Want) {
	t.Helper()
	CheckAll(t, []string{pgn}, [][]Want{want})
}

// CheckAll is Check of several files with one run of the readers.
func CheckAll(t testing.TB, pgns []string, want [][]Want) {
	t.Helper()
	for fi, res := range Read(t, pgns...) {
		for _, name := range Readers {
			r, ok := res[name]
			switch {
			case !ok:
				t.Errorf("file %d: no result from %s", fi, name)
				continue
			case !r.OK:
				t.Errorf("file %d: %s refuses it: %s\n%s", fi, name, r.Error, excerpt(pgns[fi]))
				continue
			case len(r.Games) != len(want[fi]):
				t.Errorf("file %d: %s reads %d games, want %d\n%s", fi, name, len(r.Games), len(want[fi]), excerpt(pgns[fi]))
				continue
			}
			for gi, g := range r.Games {
				if err := compare(name, g, want[fi][gi]); err != "" {
					t.Errorf("file %d game %d: %s: %s", fi, gi+1, name, err)
				}
			}
		}
	}
}

func excerpt(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// compare says how g differs from w, or "".
func compare(reader string, g Game, w Want) string {
	var errs []string
	for _, m := range g.Messages {
		if own := strings.HasPrefix(m.Message, "Tag: ") && strings.Contains(m.Message, "not known") && contains(OwnTags, m.Key); own || strings.HasPrefix(m.Message, "Unusual use of millis") {
			continue
		}
		errs = append(errs, fmt.Sprintf("warning %q", m.Message))
	}
	for k, v := range w.Tags {
		if got, ok := g.Tags[k]; !ok || got != v {
			errs = append(errs, fmt.Sprintf("tag %s %q, want %q", k, got, v))
		}
	}
	for _, k := range w.NoTags {
		if _, ok := g.Tags[k]; ok {
			errs = append(errs, fmt.Sprintf("tag %s, want none", k))
		}
	}
	if len(g.Moves) != len(w.Moves) {
		errs = append(errs, fmt.Sprintf("%d moves, want %d", len(g.Moves), len(w.Moves)))
	} else {
		for i, m := range g.Moves {
			comment := w.Comments[i]
			if reader == "mliebelt" {
				// It reads the commands apart.
				comment = strings.Join(strings.Fields(commands.ReplaceAllString(comment, "")), " ")
				emt, _ := m.Emt.(string)
				if m.Egt != w.Egt[i] || emt != w.Emt[i] {
					errs = append(errs, fmt.Sprintf("move %d: egt %q emt %q, want %q %q", i+1, m.Egt, emt, w.Egt[i], w.Emt[i]))
				}
			}
			if m.SAN != w.Moves[i] || m.Comment != comment {
				errs = append(errs, fmt.Sprintf("move %d: %s {%s}, want %s {%s}", i+1, m.SAN, m.Comment, w.Moves[i], comment))
			}
			if err := compareClk(reader, m.Clk, w.Clk[i]); err != "" {
				errs = append(errs, fmt.Sprintf("move %d: %s", i+1, err))
			}
		}
	}
	if strings.Join(g.Comments, "|") != strings.Join(w.Game, "|") {
		errs = append(errs, fmt.Sprintf("game comments %q, want %q", g.Comments, w.Game))
	}
	if len(errs) > 5 {
		errs = append(errs[:5], fmt.Sprintf("and %d more", len(errs)-5))
	}
	return strings.Join(errs, "; ")
}

// commands are a comment's [%clk ...], [%egt ...] and [%emt ...].
var commands = regexp.MustCompile(`\[%(clk|egt|emt) [^\]]*\]`)

// compareClk checks a reader's own reading of a move's clock.
func compareClk(reader string, got any, ms int64) string {
	switch reader {
	case "chessops":
		// Seconds; none for [%egt], which it does not read.
		if ms < 0 {
			if got != nil {
				return fmt.Sprintf("chessops reads a clock %v from [%%egt]", got)
			}
			return ""
		}
		f, ok := got.(float64)
		if !ok || int64(f*1000+0.5) != ms/100*100 {
			return fmt.Sprintf("clock %v s, want %d ms", got, ms/100*100)
		}
	case "mliebelt":
		s, _ := got.(string)
		if ms >= 0 && s != clocklog.PGNTime(ms) {
			return fmt.Sprintf("clock %q, want %q", s, clocklog.PGNTime(ms))
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
