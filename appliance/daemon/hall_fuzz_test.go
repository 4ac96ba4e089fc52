package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/ui"
)

// FuzzHallRequest: whatever the socket brings, the hall's requests answer
// one line, ok or JSON or error: TEXT, and never panic; a refused command
// leaves the game as it was.
func FuzzHallRequest(f *testing.F) {
	for _, s := range []string{
		"log", "log 0001-abcdef 1", "log x -1", "log  ",
		`next-game {"control":"fide-classical","options":{"after-flag":"continue"}}`,
		`round {"start_ms":1772904600000,"default_ms":1800000}`,
		`players {"white":"Carlsen, Magnus","black":""}`,
		"pause",
		`takeover {"board":7,"control":"40/5400+30:1800+30","to_move":"black","white":{"ms":4200000,"moves":21,"period":1},"black":{"ms":4100500,"moves":20,"period":2,"overstep":true},"at":1}`,
		`next-game {"control":"300+2"}{}`, `round {"start_ms":-1}`, `players {"white":"\u0000"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m := &Machine{Core: ui.New(ui.Opts{Settings: ui.DefaultSettings, Life: "f00d00"})}
		m.Core.SetTimeOfDay(ui.TimeOfDay{Mono: 0, UnixMs: 1772904000000, Source: ui.SourceNTP, Zone: time.UTC})
		m.Core.Button(pressAt("right", 0)) // a game in progress
		before := m.Core.Status(time.Second)
		cmd, arg, _ := strings.Cut(line, " ")
		a, ok := m.Control(cmd, strings.TrimSpace(arg), time.Second)
		if !ok {
			return
		}
		if strings.ContainsAny(a, "\n\r") {
			t.Fatalf("%q: answer of more than one line: %q", line, a)
		}
		if !strings.HasPrefix(a, "ok") && !strings.HasPrefix(a, "{") && !strings.HasPrefix(a, "error: ") {
			t.Fatalf("%q: answer %q", line, a)
		}
		after := m.Core.Status(time.Second)
		// No command changes a running game's times or moves.
		if after.White.Ms != before.White.Ms || after.Black.Ms != before.Black.Ms || after.White.Moves != before.White.Moves || after.Black.Moves != before.Black.Moves || after.Game != before.Game {
			t.Fatalf("%q (%q) changed the game: %+v -> %+v", line, a, before.StateJSON, after.StateJSON)
		}
	})
}
