package wiring

import (
	"strings"
	"testing"
)

// bcmPin is the header pin of each GPIO line, written out again from the
// Raspberry Pi's pinout so that a slip in Header shows.
var bcmPin = map[string]int{
	"GPIO0": 27, "GPIO1": 28, "GPIO2": 3, "GPIO3": 5, "GPIO4": 7, "GPIO5": 29, "GPIO6": 31,
	"GPIO7": 26, "GPIO8": 24, "GPIO9": 21, "GPIO10": 19, "GPIO11": 23, "GPIO12": 32, "GPIO13": 33,
	"GPIO14": 8, "GPIO15": 10, "GPIO16": 36, "GPIO17": 11, "GPIO18": 12, "GPIO19": 35, "GPIO20": 38,
	"GPIO21": 40, "GPIO22": 15, "GPIO23": 16, "GPIO24": 18, "GPIO25": 22, "GPIO26": 37, "GPIO27": 13,
}

var supplyPins = map[string][]int{
	"3V3": {1, 17},
	"5V":  {2, 4},
	"GND": {6, 9, 14, 20, 25, 30, 34, 39},
}

func TestHeader(t *testing.T) {
	seen := map[string]int{}
	for i, h := range Header {
		if h.Number != i+1 {
			t.Errorf("Header[%d] is pin %d", i, h.Number)
		}
		if want, ok := bcmPin[h.Name]; ok && want != h.Number {
			t.Errorf("%s on pin %d, want %d", h.Name, h.Number, want)
		}
		seen[h.Name]++
	}
	for name, pins := range supplyPins {
		if seen[name] != len(pins) {
			t.Errorf("%d %s pins, want %d", seen[name], name, len(pins))
		}
		for _, p := range pins {
			if Header[p-1].Name != name || !Header[p-1].Power() {
				t.Errorf("pin %d is %s, want %s", p, Header[p-1].Name, name)
			}
		}
	}
	for name := range bcmPin {
		if seen[name] != 1 {
			t.Errorf("%s on %d pins", name, seen[name])
		}
	}
	if len(seen) != len(bcmPin)+len(supplyPins) {
		t.Errorf("%d names on the header, want %d", len(seen), len(bcmPin)+len(supplyPins))
	}
}

func TestPinOf(t *testing.T) {
	for _, tc := range []struct {
		line string
		pin  int
	}{
		{"GPIO17", 11}, {"17", 11}, {"P1_11", 11}, {"GPIO0", 27}, {"GPIO21", 40}, {"2", 3},
	} {
		if got, err := PinOf(tc.line); got != tc.pin || err != nil {
			t.Errorf("PinOf(%q) = %d, %v; want %d", tc.line, got, err, tc.pin)
		}
	}
	for _, line := range []string{"GPIO28", "GPIO45", "P1_1", "P1_6", "P1_41", "P1_0", "-1", "", "FOO", "gpio17", "3V3", "GND"} {
		if got, err := PinOf(line); err == nil || !strings.Contains(err.Error(), "not a GPIO line on the 40-pin header") {
			t.Errorf("PinOf(%q) = %d, %v; want an error", line, got, err)
		}
	}
}
