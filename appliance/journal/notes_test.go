package journal

import (
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The notes read back as the session and the menu write them, in both
// formats; the last names count, the first id.
func TestReadNotes(t *testing.T) {
	var b []byte
	b = clocklog.AppendComment(b, IDNote+"0017-3fa2c1")
	b = append(b, "0 start *37990e4f\n"...)
	b = clocklog.AppendComment(b, PlayersNote("hall", "Carlsen, Magnus", `Ca"ruana`))
	b = append(b, "# menu: players white \"Ju, Wenjun\", black \"Łukasz\"\n"...)
	b = clocklog.AppendComment(b, IDNote+"0018-3fa2c1")
	b = append(b, "# hall: players white broken\n"...)
	n := ReadNotes(b)
	if n != (Notes{ID: "0017-3fa2c1", White: "Ju, Wenjun", Black: "Łukasz"}) {
		t.Errorf("%+v", n)
	}
	if n := ReadNotes(clocklog.AppendComment(nil, PlayersNote("hall", "A", `B"`))); n.Black != `B"` {
		t.Errorf("%+v", n)
	}
	if n := ReadNotes([]byte("control 60\n")); n != (Notes{}) {
		t.Errorf("%+v", n)
	}
}
