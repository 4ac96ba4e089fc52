// Package preset is the catalogue of named time controls a club clock
// offers out of the box.
package preset

import (
	"fmt"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Preset is a named time control.
type Preset struct {
	Key     string // short, stable identifier, e.g. "fide-classical"
	Name    string // what a display shows, at most 16 characters
	Group   string // FIDE, Online, US, Go, Other: the menu's sections
	Spec    string // timecontrol notation, "WHITE|BLACK" when the players differ
	Options clock.Options
}

// Controls parses the preset's notation.
func (p Preset) Controls() (timecontrol.Pair, error) {
	pair, err := timecontrol.ParsePair(p.Spec)
	if err != nil {
		return pair, fmt.Errorf("preset %s: %w", p.Key, err)
	}
	return pair, nil
}

var fide = clock.DefaultOptions

// moves is FIDE practice with the next period added on the move count, as
// US Chess tournament directors often set their clocks.
var moves = clock.Options{FirstIncrement: true, PeriodTrigger: clock.OnMoves, AfterFlag: clock.Freeze}

// All is the catalogue, in menu order, grouped as arbiters look for a
// control: classical, rapid, blitz, Armageddon, US delay, other. Every
// preset stops the clock at a flag (after-flag freeze, the default): no
// rule of FIDE or US Chess asks a clock to run on after a flag, and a
// frozen clock keeps the evidence for the arbiter. Play-on after a flag is
// an option (after-flag continue) for events that want it. The
// classifications follow the FIDE Laws: rapid is more than 10 and less than
// 60 minutes a player, counting 60 moves of increment (A.1); blitz is 10
// minutes or less (B.1). FIDE events play Armageddon with an increment of
// 2 or 3 s from move 61 (armageddon-61-2, armageddon-61-3).
//
// The classical presets are the controls of FIDE-rated standard events:
// 90 minutes with 30 s a move from move 1 (fide-90-30, the usual control
// of open tournaments, first in the menu), 90 minutes for 40 moves then
// 30 minutes with 30 s a move (fide-classical, team and title events),
// 120/40 + 60/20 + 15 minutes with 30 s from move 61 (fide-classical-120),
// 60 minutes with 30 s a move (fide-60-30, the shortest standard control,
// for events of lower-rated players), and the club leagues' 2 hours for 40
// moves then 30 minutes without increment (club-120-40-30). Rapid and
// blitz are those of the FIDE World Rapid and Blitz (15+10, 3+2) and of
// clubs (25+10, 10+5, 5+3, 5+0, 3+0); US delay those of US Chess events.
// Some online controls equal a FIDE one (online-3-2 is fide-blitz-3); they
// keep their keys for config files, and the menu lists each control once.
var All = []Preset{
	{"fide-90-30", "FIDE 90+30", "Classical", "5400+30", fide},
	{"fide-classical", "FIDE 90/40+30", "Classical", "40/5400+30:1800+30", fide},
	{"fide-classical-120", "FIDE 120/40", "Classical", "40/7200:20/3600:900+30", fide},
	{"fide-60-30", "FIDE 60+30", "Classical", "3600+30", fide},
	{"club-120-40-30", "Club 120/40+30'", "Classical", "40/7200:1800", fide},
	{"fide-rapid-25", "Rapid 25+10", "Rapid", "1500+10", fide},
	{"fide-rapid-15", "Rapid 15+10", "Rapid", "900+10", fide},
	{"online-15-10", "Online 15+10", "Rapid", "900+10", fide},
	{"fide-rapid-10", "Rapid 10+5", "Rapid", "600+5", fide},
	{"fide-blitz-5", "Blitz 5+3", "Blitz", "300+3", fide},
	{"online-5-3", "Online 5+3", "Blitz", "300+3", fide},
	{"fide-blitz-3", "Blitz 3+2", "Blitz", "180+2", fide},
	{"online-3-2", "Online 3+2", "Blitz", "180+2", fide},
	{"blitz-5", "Blitz 5+0", "Blitz", "300", fide},
	{"blitz-3", "Blitz 3+0", "Blitz", "180", fide},
	{"online-10", "Online 10+0", "Blitz", "600", fide},
	{"bullet-1", "Bullet 1+0", "Blitz", "60", fide},
	{"armageddon", "Armageddon 5v4", "Armageddon", "300|240", fide},
	{"armageddon-inc", "Armageddon 5v4+2", "Armageddon", "300+2|240+2", fide},
	{"armageddon-61-2", "Armag. 5v4 +2@61", "Armageddon", "300+2@61|240+2@61", fide},
	{"armageddon-61-3", "Armag. 5v4 +3@61", "Armageddon", "300+3@61|240+3@61", fide},
	{"us-g90-d5", "US G/90;d5", "US delay", "5400d5", fide},
	{"us-g60-d5", "US G/60;d5", "US delay", "3600d5", fide},
	{"us-g45-d5", "US G/45;d5", "US delay", "2700d5", fide},
	{"us-g30-d5", "US G/30;d5", "US delay", "1800d5", fide},
	{"us-g5-d3", "US G/5;d3", "US delay", "300d3", fide},
	{"us-40-120-d5", "US 40/120,SD/30", "US delay", "40/7200d5:1800d5", moves},
	{"bronstein-g25", "Bronstein 25;b5", "US delay", "1500b5", fide},
	{"byoyomi-60", "Byo-yomi 60+5x30", "Other", "3600~5x30", fide},
	{"byoyomi-10", "Byo-yomi 10+3x30", "Other", "600~3x30", fide},
	{"canadian-60", "Canada 60 25/10", "Other", "3600~25/600", fide},
	{"canadian-30", "Canada 30 20/5", "Other", "1800~20/300", fide},
	{"hourglass-1", "Hourglass 1 min", "Other", "*60", fide},
	{"hourglass-3", "Hourglass 3 min", "Other", "*180", fide},
	{"count-up", "Count up", "Other", "^", fide},
}

// ByKey returns the preset with key k.
func ByKey(k string) (Preset, bool) {
	for _, p := range All {
		if p.Key == k {
			return p, true
		}
	}
	return Preset{}, false
}

// Keys lists every preset key, for error messages.
func Keys() string {
	keys := make([]string, len(All))
	for i, p := range All {
		keys[i] = p.Key
	}
	return strings.Join(keys, ", ")
}
