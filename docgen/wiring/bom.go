package wiring

import (
	"fmt"
	"io"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/profile"
)

// Item is one line of a bill of materials.
type Item struct {
	Qty  int
	Part string   // its common name
	Spec string   // ratings and what to look for
	For  []string // what it is for in this build; empty for what every build has
}

// The parts every build has, whatever its profile.
var (
	itemPi = Item{Qty: 1, Part: "Raspberry Pi 4 Model B or 3 Model B+",
		Spec: "any RAM size; a 3 B or a Zero 2 W works too, a Pi 5 does not (image/README.md); build A's enclosure (hardware/enclosure-a.scad) takes the 85 × 56 mm boards"}
	itemSupply = Item{Qty: 1, Part: "USB power supply",
		Spec: "5.1 V 3 A USB-C for a Pi 4, 5.1 V 2.5 A micro-USB for a Pi 3; or a power bank or UPS board of that rating"}
	itemCard = Item{Qty: 1, Part: "microSD card",
		Spec: "8 GB or more, Class 10 (U1), A1; the image itself is under 1 GB"}
	itemStandoffs = Item{Qty: 4, Part: "M2.5 standoffs with screws",
		Spec: "10 mm or longer, for the Pi's four mounting holes (58 × 49 mm apart)"}
	itemBoard = Item{Qty: 1, Part: "perfboard, about 5 × 7 cm",
		Spec: "carries the transistors and resistors, and joins the wires that share a header pin (the dots in the diagram)"}
)

// quietSwitch is what the levers' and the buttons' switches must meet:
// FIDE's 2026 chapter, 3.1.6.
const quietSwitch = "at most 40 dB at 1 m (FIDE 3.1.6), measured as docs/building.md says"

// BOM is the bill of materials of w's build: the Pi, its supply and card,
// then every part the profile names, with its quantity, its ratings and
// what it is for. Parts of the same kind are one line.
func (w *Wiring) BOM() []Item {
	var items []Item
	add := func(it Item) {
		for i := range items {
			if items[i].Part == it.Part && items[i].Spec == it.Spec {
				items[i].Qty += it.Qty
				items[i].For = append(items[i].For, it.For...)
				return
			}
		}
		items = append(items, it)
	}
	add(itemPi)
	add(itemSupply)
	add(itemCard)
	p := w.Profile
	for i := range p.Displays {
		d := &p.Displays[i]
		m := modules[d.Type]
		add(Item{Qty: 1, Part: m.kind(d), Spec: m.spec(d), For: []string{displayTitle(d)}})
	}
	spades := 0
	for _, b := range p.Buttons {
		if !Lever(b.Name) {
			add(Item{Qty: 1, Part: "12 × 12 mm tact switch with round cap",
				Spec: "momentary, 4 legs, the soft (silent) kind: " + quietSwitch + "; wire two diagonal legs; mounted on perfboard behind the front, the cap through it",
				For:  []string{b.Name}})
			continue
		}
		spades += 2
		it := Item{Qty: 1, Part: "30 mm arcade push button",
			Spec: "momentary, snap-in, with a silent microswitch (COM, NO, NC): " + quietSwitch + "; fits a 28 mm hole",
			For:  []string{b.Name + " lever"}}
		if lit(p, b.Name) {
			spades += 2
			it.Part = "30 mm arcade push button with LED"
			it.Spec = "momentary, snap-in, with a silent microswitch (COM, NO, NC): " + quietSwitch + "; a 5 V LED (a 12 V one is dim on 5 V); fits a 28 mm hole"
		}
		add(it)
	}
	npn := 0
	for _, d := range w.Devices {
		for _, pin := range d.Pins {
			if strings.HasPrefix(pin.Name, "base") {
				npn++
				add(Item{Qty: 1, Part: "NPN transistor, 2N2222 or S8050",
					Spec: "TO-92, 25 V / 500 mA or more; emitter to GND, collector to the load's minus",
					For:  []string{d.Title}})
				add(Item{Qty: 1, Part: "1 kΩ resistor, 1/4 W",
					Spec: "from the GPIO line to the transistor's base",
					For:  []string{d.Title}})
			}
			if strings.HasPrefix(pin.Name, "anode via") {
				add(Item{Qty: 1, Part: "3 mm LED", Spec: "any colour, about 10 mA", For: []string{d.Title}})
				add(Item{Qty: 1, Part: "330 Ω resistor, 1/4 W", Spec: "from 3.3 V to the LED's anode", For: []string{d.Title}})
			}
		}
	}
	switch bz := p.Buzzer; {
	case bz.Type == "active" && bz.ActiveLow:
		add(Item{Qty: 1, Part: "active buzzer module, low-level trigger", Spec: "3 pins: I/O, VCC, GND; 3.3 V", For: []string{"buzzer"}})
	case bz.Type == "active":
		add(Item{Qty: 1, Part: "active buzzer, 3.3–5 V, 12 mm",
			Spec: "with its own oscillator (sounds on DC); + to 5 V, − to the transistor's collector; a 1N4148 diode across it if it is the magnetic kind",
			For:  []string{"buzzer"}})
	case bz.Type == "pwm":
		add(Item{Qty: 1, Part: "passive piezo buzzer, 12 mm",
			Spec: "no oscillator of its own: the PWM plays it; + to 5 V, − to the transistor's collector",
			For:  []string{"buzzer"}})
	}
	if bt := p.Battery; bt.Type != "none" && bt.Type != "" {
		add(Item{Qty: 1, Part: "UPS board or module with a " + strings.ToUpper(bt.Type) + " gauge",
			Spec: fmt.Sprintf("gauge at I²C 0x%02X; with its battery (%s)", bt.Address, packText(p)),
			For:  []string{"battery gauge"}})
	}
	if p.PowerLoss.Pin != "" {
		add(Item{Qty: 1, Part: "UPS board's power-fail output", Spec: "a line that changes when the external supply fails; most UPS boards have one", For: []string{"power-loss line"}})
	}
	if r := p.RTC; r.Type != "none" && r.Type != "" {
		add(itemRTC(r.Address))
	}
	if npn > 0 || shared(w) {
		add(itemBoard)
	}
	add(itemStandoffs)
	add(Item{Qty: w.Wires(), Part: "jumper wires with a female Dupont end, 20 cm",
		Spec: "one per wire of the diagram; cut the other end off where it is crimped or soldered"})
	if spades > 0 {
		add(Item{Qty: spades, Part: "female spade terminals",
			Spec: "to fit the microswitch and LED tabs of the arcade buttons: 4.8 mm on most, 2.8 mm on some"})
	}
	return items
}

func itemRTC(addr uint16) Item {
	return Item{Qty: 1, Part: "DS3231 real-time clock module",
		Spec: fmt.Sprintf("I²C 0x%02X, 3.3 V, with a CR2032 coin cell (on a board that charges its cell, such as the ZS-042, use an LIR2032 or remove the charging resistor); the SD image built with RTC=ds3231 (image/README.md)", addr),
		For:  []string{"real-time clock"}}
}

// Optional is what the build may add: the parts of the profile sections it
// does not have, each with the section that names it.
func (w *Wiring) Optional() []Item {
	var items []Item
	p := w.Profile
	if p.RTC.Type == "none" || p.RTC.Type == "" {
		it := itemRTC(0x68)
		it.For = []string{"[rtc]"}
		items = append(items, it)
	}
	if (p.Battery.Type == "none" || p.Battery.Type == "") && p.PowerLoss.Pin == "" {
		items = append(items, Item{Qty: 1, Part: "UPS board with a battery gauge",
			Spec: "an INA219 (I²C 0x40 to 0x4F) or MAX17048 (0x36) gauge on GPIO2/3, and a power-fail output; its battery: " + packText(p),
			For:  []string{"[battery]", "[power_loss]"}})
	}
	return items
}

// Wires is the number of wires of the build: one per device pin.
func (w *Wiring) Wires() int {
	n := 0
	for _, d := range w.Devices {
		n += len(d.Pins)
	}
	return n
}

// shared reports whether two wires meet at one header pin.
func shared(w *Wiring) bool {
	seen := map[int]bool{}
	for _, d := range w.Devices {
		for _, p := range d.Pins {
			if seen[p.Header] {
				return true
			}
			seen[p.Header] = true
		}
	}
	return false
}

// Markdown writes the build's page: its description, the diagram (linked
// as wiring-NAME.svg beside the page), the bill of materials, what may be
// added, and the wires, one per line.
func (w *Wiring) Markdown(out io.Writer) error {
	p := w.Profile
	var b strings.Builder
	fmt.Fprintf(&b, "# Build `%s`\n\n", p.Name)
	fmt.Fprintf(&b, "<!-- Made by `zeitnot-docs wiring --bom %s` (make wiring) from the profile; edit the profile or docgen/wiring, not this file. -->\n\n", p.Name)
	if p.Description != "" {
		fmt.Fprintf(&b, "%s.\n\n", upperFirst(p.Description))
	}
	fmt.Fprintf(&b, "![Wiring of %s](wiring-%s.svg)\n\n", p.Name, p.Name)
	b.WriteString("## Parts\n\n| qty | part | rating and notes | for |\n| ---: | --- | --- | --- |\n")
	for _, it := range w.BOM() {
		fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", it.Qty, cell(it.Part), cell(it.Spec), cell(strings.Join(it.For, ", ")))
	}
	if opt := w.Optional(); len(opt) > 0 {
		b.WriteString("\nOptional, each with the profile section that adds it:\n\n| qty | part | rating and notes | section |\n| ---: | --- | --- | --- |\n")
		for _, it := range opt {
			fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", it.Qty, cell(it.Part), cell(it.Spec), cell(strings.Join(it.For, ", ")))
		}
	}
	writePower(&b, p)
	b.WriteString("\n## Wires\n\nOne wire per line, by physical header pin (pin 1 is 3.3 V, at the SD card's end of the header; odd pins on the row toward the board). Wires that share a header pin meet on the perfboard; one wire goes on to the pin.\n\n")
	b.WriteString("| device | its pin | header pin | Pi signal | kind |\n| --- | --- | ---: | --- | --- |\n")
	for _, d := range w.Devices {
		for _, pin := range d.Pins {
			h := Header[pin.Header-1]
			sig := h.Name
			if h.Alt != "" {
				sig += " (" + h.Alt + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", cell(d.Title), cell(pin.Name), pin.Header, sig, pin.Signal)
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// packText is the battery of p's build in a few words, or where to find
// how to size one when the profile states no draw.
func packText(p *profile.Profile) string {
	pk, ok := p.Supply.Pack()
	if !ok {
		return "sized as docs/building.md, \"The FIDE equipment rules\", says"
	}
	return fmt.Sprintf("%d × 18650 Li-ion cells in parallel, %.1f V %d mAh each, %.0f Wh; see Power below", pk.Cells, profile.CellVolts, profile.CellMAh, pk.Wh)
}

// writePower writes the build's draw, from its profile's [supply], and
// the battery that draw needs for a day's event and FIDE's 10 hours after
// the low-battery warning.
func writePower(b *strings.Builder, p *profile.Profile) {
	pk, ok := p.Supply.Pack()
	if !ok {
		return
	}
	fmt.Fprintf(b, "\n## Power\n\nThis build draws %d mA at %.1f V (%.2f W) while a clock runs: %s.\n\n", p.Supply.CurrentMA, profile.SupplyVolts, pk.Watts, p.Supply.Basis)
	fmt.Fprintf(b, "On a battery, FIDE asks for a low-battery warning and then at least %d hours of flawless running (2026 chapter, 3.1.1 to 3.1.4). "+
		"For a %d-hour day before the warning and the %d hours after it, through a 5 V converter of %.0f %% efficiency, this build needs a UPS board with a battery gauge and:\n\n",
		profile.ReserveHours, profile.EventHours, profile.ReserveHours, 100*profile.ConverterEfficiency)
	b.WriteString("| battery | energy | warning (`[battery] low_percent`) | before the warning | after it | full to empty |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(b, "| %d × 18650 Li-ion, %.1f V %d mAh, in parallel | %.1f Wh | %d %% | %.1f h | %.1f h | %.1f h |\n\n",
		pk.Cells, profile.CellVolts, profile.CellMAh, pk.Wh, pk.LowPercent,
		float64(100-pk.LowPercent)/100*pk.Wh*profile.ConverterEfficiency/pk.Watts,
		float64(pk.LowPercent)/100*pk.Wh*profile.ConverterEfficiency/pk.Watts, pk.FullHours)
	fmt.Fprintf(b, "The warning's threshold has %d points to spare for the gauge's error. The figures are worked out from the profile's `[supply] current_ma` (drivers/profile, `Supply.Pack`); measure the build's draw and put it there, and `make wiring` works them out again.\n", profile.GaugeMargin)
}
