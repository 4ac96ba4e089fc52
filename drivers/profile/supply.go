package profile

// The supply of a profile: what the build draws, and the battery that
// draw needs for a day's event and FIDE's ten hours after the warning.
// The build's parts list (docgen/wiring) and the FIDE dossier
// (docgen/dossier) print what Pack works out here, from the one figure
// in the profile file.

import (
	"math"
	"strings"
)

// Supply is what a build draws from its 5 V supply while a clock runs:
// the displays on and one lever's LED lit.
type Supply struct {
	CurrentMA int    // current at 5.1 V, in mA; 0 when the profile says none
	Basis     string // how the figure was found: "measured with ..." or "estimated from ..."
	Line      int    // line of [supply] in the file, 0 if absent
}

type fileSupply struct {
	CurrentMA *int64
	Basis     string
}

// The assumptions of the battery's sizing (Pack), stated in the builders'
// guide (docs/building.md, "The FIDE equipment rules").
const (
	// EventHours is a full day's event: two rounds of 90 min + 30 s a
	// move, with the time between them, or a day of rapid.
	EventHours = 12
	// ReserveHours is FIDE's: "at least 10 h of flawless running after
	// the low-battery warning" (2026 chapter, 3.1.3).
	ReserveHours = 10
	// SupplyVolts is the Pi's supply voltage.
	SupplyVolts = 5.1
	// ConverterEfficiency is the share of a battery's energy a 5 V
	// boost converter delivers.
	ConverterEfficiency = 0.85
	// CellMAh and CellVolts are one 18650 Li-ion cell: 3,000 mAh at a
	// nominal 3.6 V, 10.8 Wh.
	CellMAh   = 3000
	CellVolts = 3.6
	// GaugeMargin is the points added to the warning threshold for the
	// voltage gauge's error in the flat middle of a Li-ion curve.
	GaugeMargin = 5
)

// Pack is the battery a build needs: the fewest 18650 cells in parallel
// that run EventHours before the warning and ReserveHours after it, with
// the warning threshold (the profile's [battery] low_percent) that leaves
// ReserveHours however far the gauge is off by GaugeMargin.
type Pack struct {
	Watts      float64 // the build's draw: SupplyVolts × CurrentMA
	EventWh    float64 // battery energy for EventHours, the converter's loss included
	ReserveWh  float64 // battery energy for ReserveHours
	Cells      int     // 18650 cells of CellMAh in parallel
	Wh         float64 // what the cells hold
	LowPercent int     // the warning threshold: the reserve's share of Wh, plus GaugeMargin, rounded up to 5
	FullHours  float64 // hours the full pack runs the build
}

// Pack works out the battery of s; ok is false when the profile states no
// draw.
func (s Supply) Pack() (Pack, bool) {
	if s.CurrentMA <= 0 {
		return Pack{}, false
	}
	w := SupplyVolts * float64(s.CurrentMA) / 1000
	p := Pack{Watts: w, EventWh: w * EventHours / ConverterEfficiency, ReserveWh: w * ReserveHours / ConverterEfficiency}
	const cellWh = CellVolts * CellMAh / 1000
	for p.Cells = 1; ; p.Cells++ {
		p.Wh = float64(p.Cells) * cellWh
		p.LowPercent = int(math.Ceil((100*p.ReserveWh/p.Wh+GaugeMargin)/5)) * 5
		if p.LowPercent < 100 && float64(100-p.LowPercent)/100*p.Wh >= p.EventWh {
			break
		}
	}
	p.FullHours = p.Wh * ConverterEfficiency / w
	return p, true
}

func (c *checker) supply(p *Profile, f *file) {
	fs := f.Supply
	if fs == nil {
		return
	}
	line := c.line("supply")
	p.Supply = Supply{Basis: strings.TrimSpace(fs.Basis), Line: line}
	if fs.CurrentMA == nil {
		c.errAt(line, "supply: missing required field current_ma (the build's current at 5.1 V while a clock runs, in mA)")
	} else if v := *fs.CurrentMA; v < 1 || v > 5000 {
		c.errAt(c.line("supply", "current_ma"), "supply: current_ma %d is not between 1 and 5000", v)
	} else {
		p.Supply.CurrentMA = int(v)
	}
	if p.Supply.Basis == "" {
		c.errAt(line, "supply: missing required field basis (how current_ma was found: \"measured with ...\" or \"estimated from ...\")")
	}
}
