package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestHallCommands: every typed command's payload is taken by
// ParseCommand as that command with the same fields, on a board's topic
// and (where the schema allows) on all/cmd; every command of the schema
// has a typed value.
func TestHallCommands(t *testing.T) {
	vienna := time.FixedZone("CET", 3600)
	start := time.Date(2026, 3, 7, 18, 30, 0, 0, vienna)
	tests := []struct {
		cmd HallCommand
		// arg is what the request's argument decodes to (nil: none);
		// from is takeover's board.
		arg  any
		from int
	}{
		{NextGameCmd{Control: "5400+30"}, &NextGameArg{Control: "5400+30"}, 0},
		{NextGameCmd{Control: "fide-classical", Options: map[string]string{"after-flag": "freeze", "first-increment": "off"}},
			&NextGameArg{Control: "fide-classical", Options: map[string]string{"after-flag": "freeze", "first-increment": "off"}}, 0},
		{RoundCmd{Start: start}, &RoundArg{StartMs: new(start.UnixMilli())}, 0},
		{RoundCmd{Start: start, DefaultTime: 30 * time.Minute}, &RoundArg{StartMs: new(start.UnixMilli()), DefaultMs: 1800000}, 0},
		{RoundCmd{}, &RoundArg{StartMs: new(int64(0))}, 0},
		{PlayersCmd{White: new("Meier, Jürgen"), Black: new("Łukasiewicz, Zofia"), Round: 2, Board: 5},
			&PlayersArg{White: new("Meier, Jürgen"), Black: new("Łukasiewicz, Zofia"), Round: 2, Board: 5}, 0},
		{PlayersCmd{White: new(""), Black: new("O'Brien, Seán")}, &PlayersArg{White: new(""), Black: new("O'Brien, Seán")}, 0},
		{PlayersCmd{Black: new("Zhu, Wei")}, &PlayersArg{Black: new("Zhu, Wei")}, 0},
		{PauseCmd{}, nil, 0},
		{ResumeCmd{}, nil, 0},
		{StartCmd{}, nil, 0},
		{TakeoverCmd{Board: 7}, nil, 7},
		{ResultCmd{Result: "1/2-1/2"}, &ResultArg{Result: "1/2-1/2"}, 0},
		{ResultCmd{Result: "*"}, &ResultArg{Result: "*"}, 0},
		{ResendArg{Game: "0017-3fa2c1", From: 12}, &ResendArg{Game: "0017-3fa2c1", From: 12}, 0},
		{UpdateCmd{URL: "http://hall.local:8080/update/zeitnot-1.4.0.raucb", SHA256: strings.Repeat("ab", 32), Size: 87031808, Version: "1.4.0", File: "zeitnot-1.4.0.raucb"},
			&UpdateCmd{URL: "http://hall.local:8080/update/zeitnot-1.4.0.raucb", SHA256: strings.Repeat("ab", 32), Size: 87031808, Version: "1.4.0", File: "zeitnot-1.4.0.raucb"}, 0},
		{UpdateCmd{URL: "https://10.0.0.1/u", SHA256: strings.Repeat("0", 64), Size: 1}, &UpdateCmd{URL: "https://10.0.0.1/u", SHA256: strings.Repeat("0", 64), Size: 1}, 0},
	}
	typed := map[string]bool{}
	for _, tt := range tests {
		name := tt.cmd.Name()
		typed[name] = true
		spec, ok := specOf(name)
		if !ok {
			t.Errorf("%T: %q is no command of cmdSpecs", tt.cmd, name)
			continue
		}
		for _, id := range []string{"", "h42-7"} {
			p := tt.cmd.Payload(id)
			scopes := []Scope{ScopeBoard}
			if spec.all {
				scopes = append(scopes, ScopeAll)
			}
			for _, sc := range scopes {
				c, err := ParseCommand(p, sc)
				if err != nil {
					t.Errorf("%T %s (scope %d): refused: %v", tt.cmd, p, sc, err)
					continue
				}
				if c.Name != name || c.ID != id || c.From != tt.from {
					t.Errorf("%s: parsed as %q id %q from %d, want %q id %q from %d", p, c.Name, c.ID, c.From, name, id, tt.from)
				}
				if tt.arg == nil {
					if c.Arg != "" {
						t.Errorf("%s: argument %s, want none", p, c.Arg)
					}
					continue
				}
				got := reflect.New(reflect.TypeOf(tt.arg).Elem()).Interface()
				if err := DecodeArg(name, c.Arg, got); err != nil {
					t.Errorf("%s: argument %s: %v", p, c.Arg, err)
				} else if !reflect.DeepEqual(got, tt.arg) {
					t.Errorf("%s: argument %s, want %s", p, c.Arg, Compact(tt.arg))
				}
			}
		}
	}
	for _, s := range cmdSpecs {
		if !typed[s.name] {
			t.Errorf("command %s has no typed value (protocol/commands.go)", s.name)
		}
	}
}

// TestHallCommandPayload: the payloads are the JSON objects the
// document shows, id first when given, nothing empty left in.
func TestHallCommandPayload(t *testing.T) {
	tests := []struct {
		cmd  HallCommand
		id   string
		want string
	}{
		{PauseCmd{}, "", `{"cmd":"pause"}`},
		{StartCmd{}, "h1", `{"id":"h1","cmd":"start"}`},
		{NextGameCmd{Control: "5400+30"}, "", `{"cmd":"next-game","control":"5400+30"}`},
		{RoundCmd{}, "", `{"cmd":"round","start":""}`},
		{RoundCmd{Start: time.Date(2026, 3, 7, 18, 30, 0, 0, time.FixedZone("CET", 3600)), DefaultTime: time.Hour}, "", `{"cmd":"round","start":"2026-03-07T18:30:00+01:00","default_time":"1h"}`},
		{RoundCmd{DefaultTime: 30 * time.Minute}, "", `{"cmd":"round","start":"","default_time":"30m"}`},
		{RoundCmd{DefaultTime: 90*time.Minute + 30*time.Second}, "", `{"cmd":"round","start":"","default_time":"1h30m30s"}`},
		{RoundCmd{DefaultTime: 45 * time.Second}, "", `{"cmd":"round","start":"","default_time":"45s"}`},
		{PlayersCmd{White: new("A"), Black: new("B"), Round: 1, Board: 3}, "x", `{"id":"x","cmd":"players","white":"A","black":"B","round":1,"board":3}`},
		{TakeoverCmd{Board: 7}, "t", `{"id":"t","cmd":"takeover","board":7}`},
		{ResultCmd{Result: "1-0"}, "", `{"cmd":"result","result":"1-0"}`},
	}
	for _, tt := range tests {
		got := string(tt.cmd.Payload(tt.id))
		if got != tt.want {
			t.Errorf("%T: %s, want %s", tt.cmd, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%T: %s is not JSON", tt.cmd, got)
		}
	}
}
