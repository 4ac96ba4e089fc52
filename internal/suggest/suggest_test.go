package suggest

import "testing"

func TestNearest(t *testing.T) {
	keys := []string{"broker", "hall", "board", "sound", "display"}
	for _, c := range []struct{ in, want string }{
		{"brokr", "broker"},    // one edit
		{"borad", "board"},     // two edits
		{"sond", "sound"},      // short word: one edit
		{"hal", "hall"},        // one edit
		{"xyz", ""},            // nothing close
		{"boardxxx", ""},       // three edits
		{"displya", "display"}, // a swap is two edits
	} {
		if got := Nearest(c.in, keys); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance = %d, want 3", d)
	}
}
