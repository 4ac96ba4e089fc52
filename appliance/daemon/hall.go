package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/appliance/core"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// The requests the hall link makes of the daemon beyond status and watch
// (docs/hall-protocol.md, "What the daemon serves the link"): the game's
// journal lines, and the hall's commands. Their arguments are compact
// JSON, already checked by the link (appliance/link has the same types);
// the daemon checks them again, refusing unknown fields. Each answer is
// one line: JSON, "ok" (with a detail after it for the hall), or
// "error: TEXT". Every command carried out is a comment line in the
// game's journal ("# hall: ..."); none changes a running game's times or
// moves.

// HallFile keeps the round and the players' names in the state directory.
const HallFile = "hall.json"

// logInfo is the answer to "log".
type logInfo struct {
	Game  string `json:"game"`
	Lines int64  `json:"lines"`
}

// logLines is the answer to "log GAME FROM".
type logLines struct {
	Game    string   `json:"game"`
	From    int64    `json:"from"`
	Lines   []string `json:"lines"`
	More    bool     `json:"more"`
	Current string   `json:"current"`
}

// nextGameArg is the argument of next-game.
type nextGameArg struct {
	Control *string           `json:"control"`
	Options map[string]string `json:"options"`
}

// roundArg is the argument of round.
type roundArg struct {
	StartMs   *int64 `json:"start_ms"`
	DefaultMs int64  `json:"default_ms"`
}

// playersArg is the argument of players.
type playersArg struct {
	White *string `json:"white"`
	Black *string `json:"black"`
}

// takeoverArg is the argument of takeover.
type takeoverArg struct {
	Board   int               `json:"board"`
	Game    string            `json:"game"`
	Control string            `json:"control"`
	Options map[string]string `json:"options"`
	ToMove  string            `json:"to_move"`
	White   *takeoverSide     `json:"white"`
	Black   *takeoverSide     `json:"black"`
	At      int64             `json:"at"`
}

type takeoverSide struct {
	Ms       int64 `json:"ms"`
	Moves    int   `json:"moves"`
	Period   int   `json:"period"`
	Overstep bool  `json:"overstep"`
}

// maxName is the longest player name, in characters.
const maxName = 64

// decodeArg reads a request's argument: one JSON object of v's fields,
// nothing after it.
func decodeArg(cmd, arg string, v any) error {
	if !strings.HasPrefix(arg, "{") {
		return fmt.Errorf("%s needs a JSON object, got %q", cmd, short(arg))
	}
	dec := json.NewDecoder(strings.NewReader(arg))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", cmd, strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: more after the JSON object", cmd)
	}
	return nil
}

func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

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
		case "status", "log", "next-game", "round", "players", "pause", "takeover":
			return fmt.Sprintf("error: %s: control characters in the request", cmd), true
		}
	}
	switch cmd {
	case "status":
		b, err := json.Marshal(m.Status(now))
		if err != nil {
			return "error: " + err.Error(), true
		}
		return string(b), true
	case "log":
		return m.logRequest(arg), true
	case "next-game", "round", "players", "pause", "takeover":
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
		b, _ := json.Marshal(logInfo{Game: game, Lines: n})
		return string(b)
	}
	game, fromS, ok := strings.Cut(arg, " ")
	from, err := strconv.ParseInt(fromS, 10, 64)
	if !ok || err != nil || from < 1 {
		return fmt.Sprintf("error: log %s: want log GAME FROM, FROM a line number from 1", short(arg))
	}
	lines, more, err := s.LogLines(game, from, session.MaxLogLines, session.MaxLogBytes)
	var ng *session.NoGameError
	switch {
	case errors.As(err, &ng):
		return "error: no game " + game
	case err != nil:
		return "error: log " + game + ": " + err.Error()
	}
	cur, _ := s.LogInfo()
	b, _ := json.Marshal(logLines{Game: game, From: from, Lines: lines, More: more, Current: cur})
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
	case "next-game":
		var a nextGameArg
		if err := decodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if a.Control == nil || *a.Control == "" {
			return "", errors.New("next-game: missing field control")
		}
		if len(*a.Control) > 100 {
			return "", errors.New("next-game: control longer than 100 bytes")
		}
		var opt clock.Options
		for k, v := range a.Options {
			if err := opt.Set(k, v); err != nil {
				return "", fmt.Errorf("next-game: options: %v", err)
			}
		}
		if _, err := c.NextGame(now, *a.Control, a.Options, "hall"); err != nil {
			return "", fmt.Errorf("next-game: %v", err)
		}
		return "ok", nil
	case "round":
		var a roundArg
		if err := decodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if a.StartMs == nil {
			return "", errors.New("round: missing field start_ms")
		}
		detail, err := c.SetRound(now, core.Round{StartMs: *a.StartMs, DefaultMs: a.DefaultMs}, "hall")
		if err != nil {
			return "", fmt.Errorf("round: %v", err)
		}
		return strings.TrimSpace("ok " + detail), nil
	case "players":
		var a playersArg
		if err := decodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		if a.White == nil && a.Black == nil {
			return "", errors.New("players: give white, black or both")
		}
		for _, p := range []*string{a.White, a.Black} {
			if p == nil {
				continue
			}
			*p = strings.TrimSpace(*p)
			if err := checkName(*p); err != nil {
				return "", fmt.Errorf("players: %v", err)
			}
		}
		c.SetPlayers(now, a.White, a.Black, "hall")
		return "ok", nil
	case "takeover":
		var a takeoverArg
		if err := decodeArg(cmd, arg, &a); err != nil {
			return "", err
		}
		t, err := m.takeover(a, now)
		if err != nil {
			return "", fmt.Errorf("takeover: %v", err)
		}
		if err := c.TakeOver(now, t, "hall"); err != nil {
			if errors.Is(err, core.ErrInProgress) {
				return "", err
			}
			return "", fmt.Errorf("takeover: %v", err)
		}
		return "ok", nil
	}
	return "", fmt.Errorf("unknown command %q", cmd)
}

// checkName checks a player's name: at most maxName characters, no
// control characters.
func checkName(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("name %q is not UTF-8", short(s))
	}
	if n := utf8.RuneCountInString(s); n > maxName {
		return fmt.Errorf("name of %d characters, at most %d", n, maxName)
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return fmt.Errorf("control characters in name %q", s)
	}
	return nil
}

// takeover checks a takeover's argument and makes the session's Takeover
// of it, with the journal's note of where it comes from and how old the
// state is.
func (m *Machine) takeover(a takeoverArg, now time.Duration) (session.Takeover, error) {
	var t session.Takeover
	if a.Board < 1 || a.Board > 9999 {
		return t, fmt.Errorf("board %d: want 1 to 9999", a.Board)
	}
	if a.Game != "" && !validGame(a.Game) {
		return t, fmt.Errorf("game %q: want 1 to 64 letters, digits, '-' or '_'", short(a.Game))
	}
	pair, err := timecontrol.ParsePair(a.Control)
	if err != nil {
		return t, fmt.Errorf("control %q: %v", short(a.Control), err)
	}
	t.Controls, t.Options = pair, clock.DefaultOptions
	for k, v := range a.Options {
		if err := t.Options.Set(k, v); err != nil {
			return t, fmt.Errorf("options: %v", err)
		}
	}
	switch a.ToMove {
	case "white":
		t.ToMove = clock.White
	case "black":
		t.ToMove = clock.Black
	default:
		return t, fmt.Errorf("to_move %q: want white or black", a.ToMove)
	}
	for i, s := range []*takeoverSide{a.White, a.Black} {
		name := []string{"white", "black"}[i]
		if s == nil {
			return t, fmt.Errorf("missing field %s", name)
		}
		if s.Ms < 0 || s.Ms > clock.MaxTime || s.Moves < 0 || s.Moves > 9999 || s.Period < 1 || s.Period > 9999 {
			return t, fmt.Errorf("%s: ms %d, moves %d, period %d out of range", name, s.Ms, s.Moves, s.Period)
		}
		t.Side[[]clock.Side{clock.White, clock.Black}[i]] = session.TakeoverSide{Ms: s.Ms, Moves: s.Moves, Period: s.Period, Overstep: s.Overstep}
	}
	note := fmt.Sprintf("takeover of board %d", a.Board)
	if a.Game != "" {
		note += " game " + a.Game
	}
	note += fmt.Sprintf(", %s to move, white %s moves %d period %d, black %s moves %d period %d",
		a.ToMove, clocklogTime(a.White.Ms), a.White.Moves, a.White.Period, clocklogTime(a.Black.Ms), a.Black.Moves, a.Black.Period)
	if a.At > 0 {
		note += ", as its state of " + time.UnixMilli(a.At).UTC().Format("2006-01-02T15:04:05.000Z") + " showed it"
		if tod := m.Core.TimeOfDay(); tod.Source != core.SourceNone {
			age := time.Duration(tod.UnixMs+(now-tod.Mono).Milliseconds()-a.At) * time.Millisecond
			note += fmt.Sprintf(" (%s before this takeover, by this clock's %s time)", age, tod.Source)
		}
	}
	t.Note = note + " (FIDE 6.10: the arbiter checks the times before resuming)"
	return t, nil
}

// clocklogTime writes a side's time for the journal's note: h:mm:ss.mmm.
func clocklogTime(ms int64) string {
	return fmt.Sprintf("%d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

func validGame(g string) bool {
	if g == "" || len(g) > 64 {
		return false
	}
	for i := 0; i < len(g); i++ {
		c := g[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// loadHall reads the hall's state kept in the state directory.
func loadHall(dir string) (core.HallState, error) {
	var h core.HallState
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
		return core.HallState{}, fmt.Errorf("%s: %v; the round and the players' names are not kept", path, err)
	}
	if h.Round.StartMs < 0 || h.Round.DefaultMs < 0 || h.Round.DefaultMs > core.MaxDefault.Milliseconds() || checkName(h.Players.White) != nil || checkName(h.Players.Black) != nil {
		return core.HallState{}, fmt.Errorf("%s: values out of range; the round and the players' names are not kept", path)
	}
	return h, nil
}

// SaveHall keeps the round and the players' names.
func (f *fileStore) SaveHall(h core.HallState) error {
	b, _ := json.Marshal(h)
	return atomicfile.WriteFile(filepath.Join(f.dir, HallFile), append(b, '\n'), 0o644)
}
