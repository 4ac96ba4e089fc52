package screen

import "testing"

func TestFormatTime(t *testing.T) {
	cases := []struct {
		ms      int64
		countUp bool
		want    string
	}{
		{5430000, false, "1:30:30"},
		{3600000, false, "1:00:00"},
		{3599001, false, "1:00:00"}, // rounded up: still a whole hour to go
		{3599000, false, "59:59"},
		{600000, false, "10:00"},
		{61000, false, "1:01"},
		{20000, false, "0:20"},
		{19999, false, "0:20.0"},
		{19901, false, "0:20.0"},
		{19900, false, "0:19.9"},
		{9700, false, "0:09.7"},
		{1, false, "0:00.1"}, // never zero before the flag
		{0, false, "0:00.0"},
		{999, true, "0:00"},
		{3725999, true, "1:02:05"},
	}
	for _, tc := range cases {
		if got := FormatTime(tc.ms, DefaultTenthsBelow, tc.countUp); got != tc.want {
			t.Errorf("FormatTime(%d, countUp=%v) = %q, want %q", tc.ms, tc.countUp, got, tc.want)
		}
	}
}

// TestUntilChange checks, for every ms around the interesting edges, that
// the text stays the same for UntilChange-1 ms and changes after exactly
// UntilChange ms.
func TestUntilChange(t *testing.T) {
	for _, countUp := range []bool{false, true} {
		for ms := int64(1); ms < 25000; ms += 7 {
			d := UntilChange(ms, DefaultTenthsBelow, countUp)
			if d <= 0 {
				t.Fatalf("ms %d: UntilChange %d", ms, d)
			}
			next := ms - d
			prev := ms - (d - 1)
			if countUp {
				next, prev = ms+d, ms+d-1
			}
			now := FormatTime(ms, DefaultTenthsBelow, countUp)
			if FormatTime(prev, DefaultTenthsBelow, countUp) != now {
				t.Fatalf("ms %d countUp=%v: text changed before %d ms", ms, countUp, d)
			}
			if FormatTime(next, DefaultTenthsBelow, countUp) == now {
				t.Fatalf("ms %d countUp=%v: text %q unchanged after %d ms", ms, countUp, now, d)
			}
		}
	}
}
