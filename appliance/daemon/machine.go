// Package daemon runs the clock: it loads the config, opens the hardware
// profile's devices, and drives the core from one event loop (button events
// with their edge instants, the control socket, display refreshes, the
// systemd watchdog). The simulator runs the same Machine on fake devices.
package daemon

import (
	"fmt"
	"strings"
	"time"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/core"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// Output is one display with the screen that draws on it.
type Output struct {
	Name  string
	Role  screen.Role
	Pixel display.Pixel // one of Pixel and Text is set
	Text  display.Text

	ps     *screen.PixelScreen
	ts     *screen.TextScreen
	frame  *image1bit.VerticalLSB
	failed error // the last draw failed; retried at every render
	level  int   // brightness set, percent; -1 before the first
}

func roleOf(s string) screen.Role {
	switch s {
	case "left":
		return screen.Left
	case "right":
		return screen.Right
	}
	return screen.Both
}

// NewOutputs makes the outputs of the displays a profile opened.
func NewOutputs(ds []profile.OpenDisplay) []*Output {
	var outs []*Output
	for _, d := range ds {
		o := &Output{Name: d.Name, Role: roleOf(d.Role), Pixel: d.Pixel, Text: d.Text, level: -1}
		switch {
		case d.Pixel != nil:
			o.ps = screen.NewPixelScreen(d.Pixel.Bounds(), o.Role)
			o.frame = display.NewFrame(d.Pixel.Bounds())
		case d.Text != nil:
			cols, lines := d.Text.Size()
			kind := screen.Segments
			if strings.HasPrefix(d.Type, "hd44780") || d.Type == "sim-lcd" {
				kind = screen.Characters
			}
			o.ts = screen.NewTextScreen(kind, cols, lines, o.Role)
		default:
			continue
		}
		outs = append(outs, o)
	}
	return outs
}

func (o *Output) device() string {
	if o.Pixel != nil {
		return o.Pixel.String()
	}
	return o.Text.String()
}

// render draws v on the output. A failure is kept and retried next time.
func (o *Output) render(v *screen.View, brightness int) error {
	var err error
	if brightness != o.level {
		lvl := uint8(min(max(brightness, 0), 100) * 255 / 100)
		if o.Pixel != nil {
			err = o.Pixel.SetBrightness(lvl)
		} else {
			err = o.Text.SetBrightness(lvl)
		}
		if err == nil {
			o.level = brightness
		}
	}
	if err == nil {
		if o.Pixel != nil {
			o.ps.Draw(v, o.frame)
			err = o.Pixel.Draw(o.frame)
		} else {
			err = o.Text.Show(o.ts.Render(v))
		}
	}
	o.failed = err
	return err
}

// Machine is the clock: the core and its displays, driven by Step.
type Machine struct {
	Core    *core.Core
	Outputs []*Output
	Log     func(string)
	// AfterRender, if set, is called after every render (the simulator
	// draws the terminal from there).
	AfterRender func(now time.Duration)
	devWarn     string // the warning the machine set for failing displays

	watchers []*control.Watch // `zeitnot watch` clients
	pending  []session.Event  // events of this turn, for the watchers
}

// Render draws the view at now on every display. A display that fails is
// reported once, shown as a warning on the others, and retried at every
// render until it works again; the clock keeps time regardless.
func (m *Machine) Render(now time.Duration) {
	v := m.Core.View(now)
	bright := m.Core.Settings().Brightness
	var bad string
	for _, o := range m.Outputs {
		was := o.failed
		if err := o.render(&v, bright); err != nil {
			bad = "DISPLAY " + o.Name
			if was == nil && m.Log != nil {
				m.Log(fmt.Sprintf("display %q (%s): %v", o.Name, o.device(), err))
			}
		} else if was != nil && m.Log != nil {
			m.Log(fmt.Sprintf("display %q (%s): back", o.Name, o.device()))
		}
	}
	if bad != m.devWarn {
		// Only clear a warning this machine set; storage warnings stay.
		m.Core.SetDeviceWarning(bad)
		m.devWarn = bad
	}
}
