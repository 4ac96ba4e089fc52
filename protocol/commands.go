package protocol

import (
	"encoding/json"
	"strings"
	"time"
)

// The hall's commands, typed: each value encodes itself as the payload
// a clock takes on its cmd topic (or all/cmd), with the fields of its
// row in cmdSpecs. The hall builds these and never a map; the clocks
// read the payload with ParseCommand. TestHallCommands holds the types
// and the schema to each other.

// HallCommand is one command of the hall to the clocks.
type HallCommand interface {
	// Name is the command's cmd field: next-game, round, ...
	Name() string
	// Payload is the command's JSON payload with id (at most 64
	// printable ASCII bytes; "" for none). It is not checked:
	// ParseCommand says whether a clock takes it.
	Payload(id string) []byte
}

// payload marshals the command name with id and the members of args, a
// struct whose fields are the command's (nil: none).
func payload(id, name string, args any) []byte {
	head, _ := json.Marshal(struct {
		ID  string `json:"id,omitempty"`
		Cmd string `json:"cmd"`
	}{id, name})
	if args == nil {
		return head
	}
	body, err := json.Marshal(args)
	if err != nil || len(body) <= 2 {
		return head // no members: {}
	}
	// {"id":..,"cmd":..} and {"a":..} joined: {"id":..,"cmd":..,"a":..}.
	return append(append(head[:len(head)-1], ','), body[1:]...)
}

// NextGameCmd sets the control of the clock's next game (and of its current
// one if it has not started).
type NextGameCmd struct {
	Control string            `json:"control"`           // a preset key or a notation
	Options map[string]string `json:"options,omitempty"` // clock options by name
}

// Name is "next-game".
func (NextGameCmd) Name() string { return "next-game" }

// Payload is the next-game command with id.
func (c NextGameCmd) Payload(id string) []byte { return payload(id, c.Name(), c) }

// RoundCmd is the round's scheduled start and its default time (FIDE 6.6).
type RoundCmd struct {
	Start       time.Time     // the scheduled start; zero: none
	DefaultTime time.Duration // the default time; 0: none
}

// Name is "round".
func (RoundCmd) Name() string { return "round" }

// Payload is the round command with id: the start in RFC 3339 with its
// zone's offset, the default time in Go's duration syntax (30m, 1h30m).
func (c RoundCmd) Payload(id string) []byte {
	a := struct {
		Start       string `json:"start"`
		DefaultTime string `json:"default_time,omitempty"`
	}{}
	if !c.Start.IsZero() {
		a.Start = c.Start.Format(time.RFC3339)
	}
	if c.DefaultTime != 0 {
		a.DefaultTime = shortDuration(c.DefaultTime)
	}
	return payload(id, c.Name(), a)
}

// shortDuration is d as people write it in Go's syntax: 30m, 1h, 1h30m,
// 45s (time.Duration.String says 30m0s, 1h0m0s).
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// PlayersCmd gives a clock names: with Round and Board, a round's pairing
// (the clock opens a new game for it); without, the arbiter's correction
// of the names of the game it holds. A nil name is left as it is.
type PlayersCmd struct {
	White *string `json:"white,omitempty"`
	Black *string `json:"black,omitempty"`
	Round int     `json:"round,omitempty"`
	Board int     `json:"board,omitempty"`
}

// Name is "players".
func (PlayersCmd) Name() string { return "players" }

// Payload is the players command with id.
func (c PlayersCmd) Payload(id string) []byte { return payload(id, c.Name(), c) }

// PauseCmd pauses the running clock.
type PauseCmd struct{}

// Name is "pause".
func (PauseCmd) Name() string { return "pause" }

// Payload is the pause command with id.
func (c PauseCmd) Payload(id string) []byte { return payload(id, c.Name(), nil) }

// ResumeCmd resumes a game the hall paused, and only that.
type ResumeCmd struct{}

// Name is "resume".
func (ResumeCmd) Name() string { return "resume" }

// Payload is the resume command with id.
func (c ResumeCmd) Payload(id string) []byte { return payload(id, c.Name(), nil) }

// StartCmd starts the clock's game now (White's clock runs), also one that
// waits for the round's scheduled start.
type StartCmd struct{}

// Name is "start".
func (StartCmd) Name() string { return "start" }

// Payload is the start command with id.
func (c StartCmd) Payload(id string) []byte { return payload(id, c.Name(), nil) }

// TakeoverCmd makes the clock it goes to take over board Board's game
// (FIDE 6.10).
type TakeoverCmd struct {
	Board int `json:"board"`
}

// Name is "takeover".
func (TakeoverCmd) Name() string { return "takeover" }

// Payload is the takeover command with id.
func (c TakeoverCmd) Payload(id string) []byte { return payload(id, c.Name(), c) }

// ResultCmd is the arbiter's result of the clock's game: 1-0, 1/2-1/2, 0-1,
// or * to take it back.
type ResultCmd struct {
	Result string `json:"result"`
}

// Name is "result".
func (ResultCmd) Name() string { return "result" }

// Payload is the result command with id.
func (c ResultCmd) Payload(id string) []byte { return payload(id, c.Name(), c) }

// UpdateCmd tells one clock to fetch a bundle from the hall and offer it
// to its daemon (the link's own command, like resend; see
// docs/hall-protocol.md, "Updates"). It is also the command's argument
// as the link reads it.
type UpdateCmd struct {
	// URL is the bundle's http or https URL on the hall; the link takes
	// only its own hall's host.
	URL    string `json:"url"`
	SHA256 string `json:"sha256"` // 64 lowercase hex digits
	Size   int64  `json:"size"`   // 1 to MaxBundle bytes
	// Version is the bundle's version as the hall knows it, for people.
	Version string `json:"version,omitempty"`
	// Name is the bundle's name in the clock's spool (CheckBundleName);
	// "" for one the link makes from the hash.
	File string `json:"name,omitempty"`
}

// Name is "update".
func (UpdateCmd) Name() string { return "update" }

// Payload is the update command with id.
func (c UpdateCmd) Payload(id string) []byte { return payload(id, c.Name(), c) }

// Name is "resend": ResendArg is the resend command too.
func (ResendArg) Name() string { return "resend" }

var (
	_ HallCommand = NextGameCmd{}
	_ HallCommand = RoundCmd{}
	_ HallCommand = PlayersCmd{}
	_ HallCommand = PauseCmd{}
	_ HallCommand = ResumeCmd{}
	_ HallCommand = StartCmd{}
	_ HallCommand = TakeoverCmd{}
	_ HallCommand = ResultCmd{}
	_ HallCommand = ResendArg{}
	_ HallCommand = UpdateCmd{}
)
