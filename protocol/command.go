package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Scope says where a command came from: the board's own topic or the
// hall's topic for every board.
type Scope uint8

// The scopes.
const (
	ScopeBoard Scope = iota + 1 // zeitnot/v1/{hall}/board/{board}/cmd
	ScopeAll                    // zeitnot/v1/{hall}/all/cmd
)

// Command is one validated command from the hall.
type Command struct {
	ID   string // the sender's id, echoed in the reply; may be ""
	Name string // one of the commands of cmdSpecs: next-game, round, ...
	// Arg is the control request's argument: compact JSON the daemon
	// decodes, "" for pause. For takeover the link builds it from the
	// source board's state (see TakeoverArg).
	Arg  string
	From int // takeover: the board whose game this clock takes over
}

// Request is the control-socket request line (without newline).
func (c Command) Request() string {
	if c.Arg == "" {
		return c.Name
	}
	return c.Name + " " + c.Arg
}

// cmdSpec is one command of the schema: its fields and where it may come
// from. One table: the parser, the documentation test and the fake daemon
// read it.
type cmdSpec struct {
	name     string
	required []string
	optional []string
	all      bool // accepted on the hall's all/cmd topic too
	parse    func(f fields) (arg string, from int, err error)
}

var cmdSpecs = []cmdSpec{
	{name: "next-game", required: []string{"control"}, optional: []string{"options"}, all: true, parse: parseNextGame},
	{name: "round", required: []string{"start"}, optional: []string{"default_time"}, all: true, parse: parseRound},
	// players with round and board is a round's pairing: the clock opens a
	// new game for it (it refuses while its game runs); without them it
	// is the arbiter's correction of the names of the game it holds.
	{name: "players", optional: []string{"white", "black", "round", "board"}, parse: parsePlayers},
	{name: "pause", all: true, parse: func(fields) (string, int, error) { return "", 0, nil }},
	// resume lifts only a pause the hall made: the clock refuses one its
	// arbiter made at the board (ui.HallResume).
	{name: "resume", all: true, parse: func(fields) (string, int, error) { return "", 0, nil }},
	{name: "start", all: true, parse: func(fields) (string, int, error) { return "", 0, nil }},
	{name: "takeover", required: []string{"board"}, parse: parseTakeover},
	{name: "result", required: []string{"result"}, parse: parseResult},
	// resend is the link's, not the daemon's: it publishes a game's log
	// lines again from a line the hall is missing (a broker that
	// restarted without the hall's session lost it).
	{name: "resend", required: []string{"game", "from"}, parse: parseResend},
	// update is the link's too: it fetches the bundle from the hall into
	// the spool and offers it to the daemon (update-offer).
	{name: "update", required: []string{"url", "sha256", "size"}, optional: []string{"version", "name"}, parse: parseUpdate},
}

func specOf(name string) (cmdSpec, bool) {
	for _, s := range cmdSpecs {
		if s.name == name {
			return s, true
		}
	}
	return cmdSpec{}, false
}

func specNames() string {
	n := make([]string, len(cmdSpecs))
	for i, s := range cmdSpecs {
		n[i] = s.name
	}
	return strings.Join(n, ", ")
}

// ParseCommand validates one command payload. The returned Command has ID
// and Name filled in as far as they could be read, also with an error, so
// the refusal can be answered.
func ParseCommand(payload []byte, scope Scope) (Command, error) {
	var c Command
	if len(payload) > MaxCommand {
		return c, fmt.Errorf("command of %d bytes refused, at most %d", len(payload), MaxCommand)
	}
	if !utf8.Valid(payload) {
		return c, errors.New("command is not UTF-8 text")
	}
	f, err := object(payload)
	if err != nil {
		return c, fmt.Errorf("command: %w", err)
	}
	if _, ok := f["id"]; ok {
		id, err := f.str("id", 64)
		if err == nil && strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
			err = fmt.Errorf("id: want printable ASCII, got %q", id)
		}
		if err != nil {
			return c, err
		}
		c.ID = id
	}
	if _, ok := f["cmd"]; !ok {
		return c, fmt.Errorf("no cmd; want one of %s", specNames())
	}
	name, err := f.str("cmd", 32)
	if err != nil {
		return c, err
	}
	spec, ok := specOf(name)
	if !ok {
		return c, fmt.Errorf("unknown cmd %q; want one of %s", name, specNames())
	}
	c.Name = name
	if scope == ScopeAll && !spec.all {
		return c, fmt.Errorf("%s is for one board: send it to zeitnot/%s/{hall}/board/{board}/cmd", name, Version)
	}
	for k := range f {
		if k != "id" && k != "cmd" && !slices.Contains(spec.required, k) && !slices.Contains(spec.optional, k) {
			return c, fmt.Errorf("%s: unknown field %q; it takes %s", name, k, fieldList(spec))
		}
	}
	for _, k := range spec.required {
		if _, ok := f[k]; !ok {
			return c, fmt.Errorf("%s: missing field %q", name, k)
		}
	}
	c.Arg, c.From, err = spec.parse(f)
	if err != nil {
		return c, fmt.Errorf("%s: %w", name, err)
	}
	if len(c.Request()) > MaxRequest {
		return c, fmt.Errorf("%s: the request would be %d bytes, the control socket takes %d", name, len(c.Request()), MaxRequest)
	}
	return c, nil
}

func fieldList(s cmdSpec) string {
	all := append(append([]string{}, s.required...), s.optional...)
	if len(all) == 0 {
		return "no fields but id"
	}
	return strings.Join(all, ", ") + " (and id)"
}

// fields are the members of a JSON object, each kept raw.
type fields map[string]json.RawMessage

// object reads one JSON object and nothing after it, refusing duplicate
// keys (encoding/json would keep the last one silently).
func object(b []byte) (fields, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", cleanJSONError(err))
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("want a JSON object")
	}
	f := fields{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %v", cleanJSONError(err))
		}
		k := t.(string) // object keys are strings
		if _, dup := f[k]; dup {
			return nil, fmt.Errorf("field %q given twice", k)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", cleanJSONError(err))
		}
		f[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %v", cleanJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the JSON object")
	}
	return f, nil
}

func cleanJSONError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("unexpected end")
	}
	return err
}

// str reads field k as a string of at most max bytes without control
// characters.
func (f fields) str(k string, max int) (string, error) {
	var s string
	if string(f[k]) == "null" || json.Unmarshal(f[k], &s) != nil {
		return "", fmt.Errorf("%s: want a string, got %s", k, short(string(f[k])))
	}
	if len(s) > max {
		return "", fmt.Errorf("%s: longer than %d bytes", k, max)
	}
	if strings.ContainsFunc(s, isControl) {
		return "", fmt.Errorf("%s: control characters in %q", k, s)
	}
	return s, nil
}

// integer reads field k as a whole number from lo to hi.
func (f fields) integer(k string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(string(f[k]), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want a whole number from %d to %d, got %s", k, lo, hi, short(string(f[k])))
	}
	return n, nil
}

func parseNextGame(f fields) (string, int, error) {
	ctl, err := f.str("control", 100)
	if err != nil {
		return "", 0, err
	}
	if _, ok := preset.ByKey(ctl); !ok {
		if _, err := timecontrol.ParsePair(ctl); err != nil {
			return "", 0, fmt.Errorf("control: %q is neither a preset key nor a time control: %v", ctl, err)
		}
	}
	a := NextGameArg{Control: ctl}
	if raw, ok := f["options"]; ok {
		o, err := object(raw)
		if err != nil {
			return "", 0, fmt.Errorf("options: %w", err)
		}
		a.Options = map[string]string{}
		var opt clock.Options
		for k := range o {
			v, err := o.str(k, 16)
			if err != nil {
				return "", 0, fmt.Errorf("options: %w", err)
			}
			if err := opt.Set(k, v); err != nil {
				return "", 0, err
			}
			a.Options[k] = v
		}
	}
	return Compact(a), 0, nil
}

const maxDefaultTime = 24 * time.Hour

func parseRound(f fields) (string, int, error) {
	a := RoundArg{StartMs: new(int64)}
	s, err := f.str("start", 64)
	if err != nil {
		return "", 0, err
	}
	if s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return "", 0, fmt.Errorf("start: want an RFC 3339 time like \"2026-03-07T18:30:00+01:00\", or \"\" for none, got %q", s)
		}
		if t.Year() < 2000 || t.Year() > 2999 {
			return "", 0, fmt.Errorf("start: %q is not a plausible round start", s)
		}
		*a.StartMs = t.UnixMilli()
	}
	if _, ok := f["default_time"]; ok {
		s, err := f.str("default_time", 32)
		if err != nil {
			return "", 0, err
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 || d > maxDefaultTime {
			return "", 0, fmt.Errorf("default_time: want a duration from \"0s\" to \"24h\", like \"30m\", got %q", s)
		}
		a.DefaultMs = d.Milliseconds()
	}
	return Compact(a), 0, nil
}

func parseResult(f fields) (string, int, error) {
	s, err := f.str("result", 16)
	if err != nil {
		return "", 0, err
	}
	a := ResultArg{Result: s}
	if err := a.Check(); err != nil {
		return "", 0, err
	}
	return Compact(a), 0, nil
}

func parsePlayers(f fields) (string, int, error) {
	var a PlayersArg
	for _, side := range []string{"white", "black"} {
		if _, ok := f[side]; !ok {
			continue
		}
		s, err := f.str(side, 4*MaxName)
		if err != nil {
			return "", 0, err
		}
		if n := utf8.RuneCountInString(s); n > MaxName {
			return "", 0, fmt.Errorf("%s: %d characters, at most %d", side, n, MaxName)
		}
		s = strings.TrimSpace(s)
		if side == "white" {
			a.White = &s
		} else {
			a.Black = &s
		}
	}
	_, hasRound := f["round"]
	_, hasBoard := f["board"]
	if hasRound != hasBoard {
		return "", 0, errors.New("a pairing gives round and board, both")
	}
	if hasRound {
		r, err := f.integer("round", 1, MaxRound)
		if err != nil {
			return "", 0, err
		}
		b, err := f.integer("board", 1, MaxBoard)
		if err != nil {
			return "", 0, err
		}
		a.Round, a.Board = int(r), int(b)
	}
	if a.White == nil && a.Black == nil {
		return "", 0, errors.New("give white, black or both")
	}
	return Compact(a), 0, nil
}

// ResendArg is the argument of resend: publish game's log lines again,
// from line From on.
type ResendArg struct {
	Game string `json:"game"`
	From int64  `json:"from"`
}

// Payload is the resend command of a, with id (at most 64 printable
// ASCII bytes, or ""), as the hall publishes it.
func (a ResendArg) Payload(id string) []byte {
	b, _ := json.Marshal(struct {
		ID  string `json:"id,omitempty"`
		Cmd string `json:"cmd"`
		ResendArg
	}{id, "resend", a})
	return b
}

// MaxSeq is the highest line number a resend may ask for: far beyond any
// game (a game of 10,000 presses has some 12,000 lines).
const MaxSeq = 1 << 40

func parseResend(f fields) (string, int, error) {
	g, err := f.str("game", MaxGameID)
	if err != nil {
		return "", 0, err
	}
	if err := CheckGame(g); err != nil {
		return "", 0, err
	}
	n, err := f.integer("from", 1, MaxSeq)
	if err != nil {
		return "", 0, err
	}
	return Compact(ResendArg{Game: g, From: n}), 0, nil
}

// MaxUpdateURL is the longest URL of an update command, in bytes.
const MaxUpdateURL = 200

func parseUpdate(f fields) (string, int, error) {
	var a UpdateCmd
	var err error
	if a.URL, err = f.str("url", MaxUpdateURL); err != nil {
		return "", 0, err
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return "", 0, fmt.Errorf("url: want an http or https URL of the hall, like \"http://hall.local:8080/update/zeitnot-1.4.0.raucb\", got %q", short(a.URL))
	}
	if a.SHA256, err = f.str("sha256", 64); err != nil {
		return "", 0, err
	}
	if a.Size, err = f.integer("size", 1, MaxBundle); err != nil {
		return "", 0, err
	}
	if _, ok := f["version"]; ok {
		if a.Version, err = f.str("version", 32); err != nil {
			return "", 0, err
		}
	}
	if _, ok := f["name"]; ok {
		if a.File, err = f.str("name", 64); err != nil {
			return "", 0, err
		}
		if err := CheckBundleName(a.File); err != nil {
			return "", 0, fmt.Errorf("name: %w", err)
		}
	}
	// The offer the link will make checks the hash as the daemon will.
	o := UpdateOffer{Source: UpdateFromHall, File: "x.raucb", SHA256: a.SHA256, Size: a.Size, Auto: true}
	if err := o.Check(); err != nil {
		return "", 0, err
	}
	return Compact(a), 0, nil
}

func parseTakeover(f fields) (string, int, error) {
	n, err := f.integer("board", 1, MaxBoard)
	if err != nil {
		return "", 0, err
	}
	return "", int(n), nil
}

// isControl reports a control character (C0, DEL, C1).
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
