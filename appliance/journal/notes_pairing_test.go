package journal

import "testing"

func TestReadNotesPairing(t *testing.T) {
	data := "format 2\n# game 0003-aa\n# hall: round 1 board 3: players white \"A\", black \"B\"\n# hall: players white \"A\", black \"C\"\n"
	n := ReadNotes([]byte(data))
	if n.Round != 1 || n.Board != 3 || n.White != "A" || n.Black != "C" {
		t.Errorf("%+v", n)
	}
	if r, b, ok := ParsePairing(PairingNote("hall", 12, 7, "x", "y")); !ok || r != 12 || b != 7 {
		t.Errorf("ParsePairing: %d %d %v", r, b, ok)
	}
	if _, _, ok := ParsePairing(PlayersNote("hall", "x", "y")); ok {
		t.Error("a players note read as a pairing")
	}
}
