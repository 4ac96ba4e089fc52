package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/clip"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// The requests the hall link makes of the daemon beyond status and watch
// (docs/hall-protocol.md, "What the daemon serves the link"): the game's
// journal lines, and the hall's commands. Their arguments are compact
// JSON of the protocol package's types, already checked by the link; the
// daemon checks them again, refusing unknown fields. Each answer is
// one line: JSON, "ok" (with a detail after it for the hall), or
// "error: TEXT". Every command carried out is a comment line in the
// game's journal ("# hall: ..."); none changes a running game's times or
// moves.

// HallFile keeps the round and the players' names in the state directory.
const HallFile = "hall.json"

// Control answers one control request that works on the clock (status,
// log and the hall's commands) at monotonic instant now, in the event
// loop. handled is false for a request it does not know. The caller steps
// the loop after it.
func (m *Machine) Control(cmd, arg string, now time.Duration) (answer string, handled bool) {
	if m.Time != nil {
		m.Core.SetTimeOfDay(m.Time.Read(now))
	}
	if strings.ContainsFunc(arg, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		// The socket reads one line; a line break or a NUL in an
		// argument is not a request anyone meant (and the answer must
		// stay one line).
		switch cmd {
		case protocol.ReqStatus, protocol.ReqLog, "next-game", "round", "players", "pause", "resume", "start", "takeover", "result":
			return fmt.Sprintf("error: %s: control characters in the request", cmd), true
		}
	}
	switch cmd {
	case protocol.ReqStatus:
		b, err := json.Marshal(m.Status(now))
		if err != nil {
			return "error: " + err.Error(), true
		}
		return string(b), true
	case protocol.ReqLog:
		return m.logRequest(arg), true
	case "next-game", "round", "players", "pause", "resume", "start", "takeover", "result":
		ans, err := m.hallCommand(cmd, arg, now)
		if err != nil {
			return "error: " + err.Error(), true
		}
		return ans, true
	}
	return "", false
}

// logRequest answers "log" and "log GAME FROM".
func (m *Machine) logRequest(arg string) string {
	s := m.Core.Session()
	if arg == "" {
		game, n := s.LogInfo()
		b, _ := json.Marshal(protocol.LogInfo{Game: game, Lines: n})
		return string(b)
	}
	game, fromS, ok := strings.Cut(arg, " ")
	from, err := strconv.ParseInt(fromS, 10, 64)
	if !ok || err != nil || from < 1 {
		return fmt.Sprintf("error: log %s: want log GAME FROM, FROM a line number from 1", clip.Text(arg, 37))
	}
	lines, more, err := s.LogLines(game, from, protocol.MaxLogLines, protocol.MaxLogBytes)
	var ng *session.NoGameError
	switch {
	case errors.As(err, &ng):
		return "error: no game " + game
	case err != nil:
		return "error: log " + game + ": " + err.Error()
	}
	cur, _ := s.LogInfo()
	b, _ := json.Marshal(protocol.LogLines{Game: game, From: from, Lines: lines, More: more, Current: cur})
	return string(b)
}

// hallCommand carries out one of the hall's commands.
func (m *Machine) hallCommand(cmd, arg string, now time.Duration) (string, error) {
	c := m.Core
	switch cmd {
	case "pause":
		if arg != "" {
			return "", fmt.Errorf("pause takes no argument")
		}
		if !c.HallPause(now, "hall") {
			return "ok not running", nil
		}
		return "ok", nil
	case "resume":
		if arg != "" {
			return "", fmt.Errorf("resume takes no argument")
		}
		ok, err := c.HallResume(now, "hall")
		if err != nil {
			return "", fmt.Errorf("resume: %v", err)
		}
		if !ok {
			return "ok not paused", nil
		}
		return "ok", nil
	case "start":
		if arg != "" {
			return "", fmt.Errorf("start takes no argument")
		}
		detail, err := c.HallStart(now, "hall")
		if err != nil {
			return "", fmt.Errorf("start: %v", err)
		}
		return strings.TrimSpace("ok " + detail), nil
	case "next-game":
		var a protocol.NextGameArg
		if err := protocol.DecodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if err := a.Check(); err != nil {
			return "", fmt.Errorf("next-game: %v", err)
		}
		if _, err := c.NextGame(now, a.Control, a.Options, "hall"); err != nil {
			return "", fmt.Errorf("next-game: %v", err)
		}
		return "ok", nil
	case "round":
		var a protocol.RoundArg
		if err := protocol.DecodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if a.StartMs == nil {
			return "", errors.New("round: missing field start_ms")
		}
		detail, err := c.SetRound(now, ui.Round{StartMs: *a.StartMs, DefaultMs: a.DefaultMs}, "hall")
		if err != nil {
			return "", fmt.Errorf("round: %v", err)
		}
		return strings.TrimSpace("ok " + detail), nil
	case "players":
		var a protocol.PlayersArg
		if err := protocol.DecodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if err := a.Check(); err != nil {
			return "", fmt.Errorf("players: %v", err)
		}
		if a.Round != 0 {
			w, b := c.Players().White, c.Players().Black
			if a.White != nil {
				w = *a.White
			}
			if a.Black != nil {
				b = *a.Black
			}
			if err := c.Pairing(now, a.Round, a.Board, w, b, "hall"); err != nil {
				return "", fmt.Errorf("players: %v", err)
			}
			return fmt.Sprintf("ok round %d board %d: game %s", a.Round, a.Board, c.Session().GameID()), nil
		}
		c.SetPlayers(now, a.White, a.Black, "hall")
		return "ok", nil
	case "result":
		var a protocol.ResultArg
		if err := protocol.DecodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if err := a.Check(); err != nil {
			return "", fmt.Errorf("result: %v", err)
		}
		if err := c.HallResult(now, a.Result); err != nil {
			return "", err
		}
		return "ok", nil
	case "takeover":
		var a protocol.TakeoverArg
		if err := protocol.DecodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		t, age, err := m.takeover(a, now)
		if err != nil {
			return "", fmt.Errorf("takeover: %v", err)
		}
		if err := c.TakeOver(now, t, "hall"); err != nil {
			if errors.Is(err, ui.ErrInProgress) {
				return "", err
			}
			return "", fmt.Errorf("takeover: %v", err)
		}
		// The reply says how old the source was: the hall shows it on
		// the spare's card and page, not only in its journal.
		return strings.TrimSpace("ok " + age), nil
	}
	return "", fmt.Errorf("unknown command %q", cmd)
}

// takeover checks a takeover's argument and makes the session's Takeover
// of it, with the journal's note of where it comes from and how old the
// state is.
func (m *Machine) takeover(a protocol.TakeoverArg, now time.Duration) (t session.Takeover, detail string, err error) {
	pair, opt, err := a.Check()
	if err != nil {
		return t, "", err
	}
	t.Controls, t.Options = pair, opt
	t.ToMove = clock.White
	if a.ToMove == "black" {
		t.ToMove = clock.Black
	}
	t.Side[clock.White], t.Side[clock.Black] = *a.White, *a.Black
	note := fmt.Sprintf("takeover of board %d", a.Board)
	if a.Game != "" {
		note += " game " + a.Game
	}
	note += fmt.Sprintf(", %s to move, white %s moves %d period %d, black %s moves %d period %d",
		a.ToMove, clocklogTime(a.White.Ms), a.White.Moves, a.White.Period, clocklogTime(a.Black.Ms), a.Black.Moves, a.Black.Period)
	if a.At > 0 {
		note += ", as its state of " + time.UnixMilli(a.At).UTC().Format("2006-01-02T15:04:05.000Z") + " showed it"
		if tod := m.Core.TimeOfDay(); tod.Source != ui.SourceNone {
			age := time.Duration(tod.UnixMs+(now-tod.Mono).Milliseconds()-a.At) * time.Millisecond
			note += fmt.Sprintf(" (%s before this takeover, by this clock's %s time)", age, tod.Source)
			detail = fmt.Sprintf("board %d's state was %s old", a.Board, age.Round(10*time.Millisecond))
			if a.Running != "" && age > 0 {
				// The source's clock ran on after its state: the running
				// side's time is settled to this instant by the state's
				// own rule (protocol.Status.Shown), as the dead clock
				// would show it now (unsettled, a state 2.07 s old gave
				// the running side 2.07 s).
				w, b := settle(a, pair, age)
				t.Side[clock.White].Ms, t.Side[clock.Black].Ms = w, b
				note += fmt.Sprintf("; %s ran: settled to this takeover, white %s, black %s", a.Running, clocklogTime(w), clocklogTime(b))
				detail += fmt.Sprintf("; %s's time settled to the takeover", a.Running)
			}
		}
	}
	t.Note = note + " (FIDE 6.10: the arbiter checks the times before resuming)"
	if detail == "" {
		detail = fmt.Sprintf("the age of board %d's state is not known (no trusted time of day)", a.Board)
	}
	return t, detail, nil
}

// settle is the source's times age after its state, its running side
// run on by the state's rule (protocol.Status.Shown) with the mode of
// each side's period.
func settle(a protocol.TakeoverArg, pair timecontrol.Pair, age time.Duration) (white, black int64) {
	var s protocol.Status
	s.Running = a.Running
	mode := func(c timecontrol.Control, period int) string {
		if p, ok := c.Period(period); ok {
			return p.Mode.String()
		}
		return ""
	}
	s.White = protocol.Side{SideClock: clocklog.SideClock{Ms: a.White.Ms}, Mode: mode(pair.White, a.White.Period)}
	s.Black = protocol.Side{SideClock: clocklog.SideClock{Ms: a.Black.Ms}, Mode: mode(pair.Black, a.Black.Period)}
	return s.Shown(age)
}

// clocklogTime writes a side's time for the journal's note: h:mm:ss.mmm.
func clocklogTime(ms int64) string {
	return fmt.Sprintf("%d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// loadHall reads the hall's state kept in the state directory.
func loadHall(dir string) (ui.HallState, error) {
	var h ui.HallState
	if dir == "" {
		return h, nil
	}
	path := filepath.Join(dir, HallFile)
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 64 << 10, NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(b))
		err = dec.Decode(&h)
	}
	if err != nil {
		return ui.HallState{}, fmt.Errorf("%s: %v; the round and the players' names are not kept", path, err)
	}
	if h.Round.StartMs < 0 || h.Round.DefaultMs < 0 || h.Round.DefaultMs > ui.MaxDefault.Milliseconds() || protocol.CheckName(h.Players.White) != nil || protocol.CheckName(h.Players.Black) != nil {
		return ui.HallState{}, fmt.Errorf("%s: values out of range; the round and the players' names are not kept", path)
	}
	return h, nil
}

// SaveHall keeps the round and the players' names.
func (f *fileStore) SaveHall(h ui.HallState) error {
	b, _ := json.Marshal(h)
	return atomicfile.WriteFile(filepath.Join(f.dir, HallFile), append(b, '\n'), 0o644)
}
