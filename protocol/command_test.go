package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		payload string
		scope   Scope
		request string // "" when refused
		err     string
	}{
		{`{"cmd":"pause"}`, ScopeAll, "pause", ""},
		{` { "id" : "7" , "cmd" : "pause" } `, ScopeBoard, "pause", ""},
		{`{"cmd":"next-game","control":"300+2","options":{"first-increment":"off","period-trigger":"moves"}}`, ScopeAll,
			`next-game {"control":"300+2","options":{"first-increment":"off","period-trigger":"moves"}}`, ""},
		{`{"cmd":"next-game","control":"armageddon"}`, ScopeBoard, `next-game {"control":"armageddon"}`, ""},
		{`{"cmd":"next-game","control":"300","options":{"after-flag":"freeze","after-flag":"continue"}}`, ScopeBoard, "", `next-game: options: field "after-flag" given twice`},
		{`{"cmd":"next-game","control":"300","options":{"sound":"on"}}`, ScopeBoard, "", `next-game: unknown option "sound", want one of first-increment, period-trigger, after-flag`},
		{`{"cmd":"next-game","control":"300","options":[]}`, ScopeBoard, "", `next-game: options: want a JSON object`},
		{`{"cmd":"next-game","control":"` + strings.Repeat("9", 101) + `"}`, ScopeBoard, "", `next-game: control: longer than 100 bytes`},
		{`{"cmd":"round","start":"2026-03-07T18:30:00Z"}`, ScopeAll, `round {"start_ms":1772908200000,"default_ms":0}`, ""},
		{`{"cmd":"round","start":"1970-01-01T00:00:00Z"}`, ScopeAll, "", `round: start: "1970-01-01T00:00:00Z" is not a plausible round start`},
		{`{"cmd":"round","start":"2026-03-07T18:30:00Z","default_time":"25h"}`, ScopeAll, "", `round: default_time: want a duration from "0s" to "24h", like "30m", got "25h"`},
		{`{"cmd":"round","default_time":"1h"}`, ScopeAll, "", `round: missing field "start"`},
		{`{"cmd":"players","white":"` + strings.Repeat("é", 64) + `"}`, ScopeBoard, `players {"white":"` + strings.Repeat("é", 64) + `"}`, ""},
		{`{"cmd":"players","white":"` + strings.Repeat("é", 65) + `"}`, ScopeBoard, "", `players: white: 65 characters, at most 64`},
		{`{"cmd":"players","white":"","black":null}`, ScopeBoard, "", `players: black: want a string, got null`},
		{`{"cmd":"players","white":""}`, ScopeBoard, `players {"white":""}`, ""},
		{`{"cmd":"players","white":"<script>\"x\""}`, ScopeBoard, `players {"white":"\u003cscript\u003e\"x\""}`, ""},
		{`{"cmd":"start"}`, ScopeAll, "start", ""},
		{`{"id":"s1","cmd":"start"}`, ScopeBoard, "start", ""},
		{`{"cmd":"start","at":"now"}`, ScopeBoard, "", `start: unknown field "at"; it takes no fields but id`},
		{`{"cmd":"takeover","board":7}`, ScopeBoard, "takeover", ""},
		{`{"cmd":"takeover","board":"7"}`, ScopeBoard, "", `takeover: board: want a whole number from 1 to 9999, got "7"`},
		{`{"cmd":"takeover","board":10000}`, ScopeBoard, "", `takeover: board: want a whole number from 1 to 9999, got 10000`},
		{`{"cmd":"takeover","board":7e0}`, ScopeBoard, "", `takeover: board: want a whole number from 1 to 9999, got 7e0`},
		{`{"cmd":"resend","game":"0017-3fa2c1","from":12}`, ScopeBoard, `resend {"game":"0017-3fa2c1","from":12}`, ""},
		{`{"cmd":"resend","game":"0017","from":12}`, ScopeAll, "", `resend is for one board: send it to zeitnot/v1/{hall}/board/{board}/cmd`},
		{`{"cmd":"resend","game":"0017","from":0}`, ScopeBoard, "", `resend: from: want a whole number from 1 to 1099511627776, got 0`},
		{`{"cmd":"resend","game":"../x","from":1}`, ScopeBoard, "", `resend: game id "../x": want 1 to 64 letters, digits, '-' or '_'`},
		{`{"cmd":"resend","from":1}`, ScopeBoard, "", `resend: missing field "game"`},
		{`{"cmd":"update","url":"http://hall.local:8080/update/z-1.4.0.raucb","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":87031808,"version":"1.4.0","name":"z-1.4.0.raucb"}`, ScopeBoard,
			`update {"url":"http://hall.local:8080/update/z-1.4.0.raucb","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":87031808,"version":"1.4.0","name":"z-1.4.0.raucb"}`, ""},
		{`{"cmd":"update","url":"https://10.0.0.1/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1}`, ScopeBoard, `update {"url":"https://10.0.0.1/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1}`, ""},
		{`{"cmd":"update","url":"http://h/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1}`, ScopeAll, "", `update is for one board: send it to zeitnot/v1/{hall}/board/{board}/cmd`},
		{`{"cmd":"update","url":"file:///etc/passwd","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1}`, ScopeBoard, "", `update: url: want an http or https URL of the hall, like "http://hall.local:8080/update/zeitnot-1.4.0.raucb", got "file:///etc/passwd"`},
		{`{"cmd":"update","url":"http://u:p@h/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1}`, ScopeBoard, "", `update: url: want an http or https URL of the hall, like "http://hall.local:8080/update/zeitnot-1.4.0.raucb", got "http://u:p@h/u"`},
		{`{"cmd":"update","url":"http://h/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":536870913}`, ScopeBoard, "", `update: size: want a whole number from 1 to 536870912, got 536870913`},
		{`{"cmd":"update","url":"http://h/u","sha256":"ABC","size":1}`, ScopeBoard, "", `update: sha256: want 64 lowercase hex digits`},
		{`{"cmd":"update","url":"http://h/u","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":1,"name":"../x.raucb"}`, ScopeBoard, "", `update: name: file "../x.raucb": a name in the spool, not a path`},
		{`{"cmd":"update","url":"http://h/u","size":1}`, ScopeBoard, "", `update: missing field "sha256"`},
		{`{"cmd":"Pause"}`, ScopeBoard, "", `unknown cmd "Pause"; want one of next-game, round, players, pause, resume, start, takeover, result, resend, update`},
		{`{"cmd":["pause"]}`, ScopeBoard, "", `cmd: want a string, got ["pause"]`},
		{`{"id":7,"cmd":"pause"}`, ScopeBoard, "", `id: want a string, got 7`},
		{`{"id":"a\nb","cmd":"pause"}`, ScopeBoard, "", `id: control characters in "a\nb"`},
		{`{"id":"é","cmd":"pause"}`, ScopeBoard, "", `id: want printable ASCII, got "é"`},
		{`"pause"`, ScopeBoard, "", `command: want a JSON object`},
		{``, ScopeBoard, "", `command: not JSON: unexpected end`},
		{`{}`, ScopeBoard, "", `no cmd; want one of next-game, round, players, pause, resume, start, takeover, result, resend, update`},
		{strings.Repeat(" ", 1025), ScopeBoard, "", `command of 1025 bytes refused, at most 1024`},
	}
	for _, tt := range tests {
		c, err := ParseCommand([]byte(tt.payload), tt.scope)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%.60s: %v, want %s", tt.payload, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%.60s: %v", tt.payload, err)
		case tt.err == "" && c.Request() != tt.request:
			t.Errorf("%.60s: request %s, want %s", tt.payload, c.Request(), tt.request)
		}
	}
}

// TestResendPayload: the hall's resend command reads back as what it asks.
func TestResendPayload(t *testing.T) {
	a := ResendArg{Game: strings.Repeat("g", MaxGameID), From: MaxSeq}
	c, err := ParseCommand(a.Payload("resend-1099511627776"), ScopeBoard)
	if err != nil {
		t.Fatal(err)
	}
	var back ResendArg
	if err := json.Unmarshal([]byte(c.Arg), &back); err != nil || back != a || c.ID != "resend-1099511627776" || c.Name != "resend" {
		t.Errorf("resend %+v read back as %+v (%v), id %q, name %q", a, back, err, c.ID, c.Name)
	}
}

// TestLargestCommandFitsTheSocket: every command the schema accepts makes
// a request the control socket reads whole.
func TestLargestCommandFitsTheSocket(t *testing.T) {
	name := strings.Repeat("\u0800", MaxName) // 3 bytes, escaped by nobody
	for _, p := range []string{
		`{"cmd":"players","white":"` + name + `","black":"` + name + `"}`,
		`{"cmd":"next-game","control":"` + strings.Repeat("40/5400+30:", 8) + `1800+3","options":{"first-increment":"off","period-trigger":"moves","after-flag":"continue"}}`,
	} {
		c, err := ParseCommand([]byte(p), ScopeBoard)
		if err != nil {
			t.Errorf("%.40s: %v", p, err)
			continue
		}
		if len(c.Request()) > MaxRequest {
			t.Errorf("%s: %d bytes", c.Request(), len(c.Request()))
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		`{"cmd":"pause"}`,
		`{"id":"x","cmd":"next-game","control":"40/5400+30:1800+30","options":{"after-flag":"continue"}}`,
		`{"cmd":"round","start":"2026-03-07T18:30:00+01:00","default_time":"30m"}`,
		`{"cmd":"players","white":"A","black":"B"}`,
		`{"cmd":"takeover","board":7}`,
		`{"cmd":"resend","game":"0017","from":3}`,
		`{"cmd":"update","url":"http://hall.local:8080/update/z.raucb","sha256":"5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592","size":87031808,"version":"1.4.0","name":"z.raucb"}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, b []byte, all bool) {
		scope := ScopeBoard
		if all {
			scope = ScopeAll
		}
		c, err := ParseCommand(b, scope)
		if err != nil {
			return
		}
		if len(b) > MaxCommand || !utf8.Valid(b) || len(c.Request()) > MaxRequest || strings.ContainsAny(c.Request(), "\n\r") {
			t.Fatalf("accepted %q as %q", b, c.Request())
		}
		if c.Arg != "" && !json.Valid([]byte(c.Arg)) {
			t.Fatalf("argument %q is not JSON", c.Arg)
		}
	})
}
