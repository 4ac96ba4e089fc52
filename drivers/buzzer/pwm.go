package buzzer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"periph.io/x/conn/v3/physic"
)

// exportWait is how long OpenPWM waits for a channel to appear, and become
// writable, after exporting it: udev sets the group of the new files a few
// milliseconds after the kernel creates them.
var exportWait = time.Second

// OpenPWM returns the passive buzzer (a bare piezo or magnetic transducer,
// which needs a square wave) on channel of the kernel PWM chip chip, as
// /sys/class/pwm/pwmchip<chip>/pwm<channel>, and silences it. It exports the
// channel if needed, and unexports it on Close if it did. opts nil means
// DefaultOpts; Frequency and SysfsRoot are used.
//
// The chip exists once the PWM is enabled in the device tree, e.g.
// dtoverlay=pwm,pin=18,func=2 in config.txt for GPIO18 on channel 0.
func OpenPWM(chip, channel int, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	root := opts.SysfsRoot
	if root == "" {
		root = DefaultOpts.SysfsRoot
	}
	chipName := fmt.Sprintf("pwmchip%d", chip)
	name := fmt.Sprintf("%s/pwm%d", chipName, channel)
	if chip < 0 || channel < 0 {
		return nil, fmt.Errorf("buzzer: %s: invalid chip or channel", name)
	}
	f := opts.Frequency
	if f <= 0 || f > 100*physic.KiloHertz {
		return nil, fmt.Errorf("buzzer: %s: frequency %s out of range (up to 100kHz)", name, f)
	}
	period := f.Period().Nanoseconds()
	chipDir := filepath.Join(root, chipName)
	if _, err := os.Stat(chipDir); err != nil {
		return nil, fmt.Errorf("buzzer: %s: not found in %s (is the PWM enabled with dtoverlay=pwm in config.txt?)", chipName, root)
	}
	p := &pwmOut{
		name: name,
		chip: chipDir,
		dir:  filepath.Join(chipDir, fmt.Sprintf("pwm%d", channel)),
		ch:   channel,
		on:   strconv.FormatInt(period/2, 10),
	}
	if _, err := os.Stat(p.dir); errors.Is(err, fs.ErrNotExist) {
		if err := writeFile(filepath.Join(chipDir, "export"), strconv.Itoa(channel)); err != nil {
			return nil, fmt.Errorf("buzzer: %s: export: %w", name, err)
		}
		p.exported = true
	}
	// Wait for the channel's files to be there and writable.
	deadline := time.Now().Add(exportWait)
	for {
		err := p.write("duty_cycle", "0")
		if err == nil {
			break
		}
		if time.Now().After(deadline) || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)) {
			p.close()
			return nil, err
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.write("period", strconv.FormatInt(period, 10)); err != nil {
		p.close()
		return nil, err
	}
	if err := p.write("enable", "1"); err != nil {
		p.close()
		return nil, err
	}
	return newDev(fmt.Sprintf("passive buzzer on %s at %s", name, f), p), nil
}

type pwmOut struct {
	name     string // "pwmchip0/pwm0"
	chip     string // sysfs directory of the chip
	dir      string // sysfs directory of the channel
	ch       int
	on       string // duty_cycle when sounding: half the period
	exported bool
}

// set sounds a square wave (half duty) or silences it (duty 0). The channel
// stays enabled so that it idles low.
func (p *pwmOut) set(on bool) error {
	if on {
		return p.write("duty_cycle", p.on)
	}
	return p.write("duty_cycle", "0")
}

// close disables the channel and unexports it if OpenPWM exported it.
func (p *pwmOut) close() error {
	err := p.write("enable", "0")
	if p.exported {
		if e := writeFile(filepath.Join(p.chip, "unexport"), strconv.Itoa(p.ch)); e != nil && err == nil {
			err = fmt.Errorf("buzzer: %s: unexport: %w", p.name, e)
		}
	}
	return err
}

// write writes value to the channel's attribute file, with an error such as
// "buzzer: pwmchip0/pwm0: write duty_cycle: permission denied".
func (p *pwmOut) write(attr, value string) error {
	if err := writeFile(filepath.Join(p.dir, attr), value); err != nil {
		return fmt.Errorf("buzzer: %s: write %s: %w", p.name, attr, err)
	}
	return nil
}

// writeFile writes an existing sysfs attribute. It does not create files,
// and returns the bare cause ("permission denied") without the path.
func writeFile(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err == nil {
		_, err = f.WriteString(value)
		if e := f.Close(); err == nil {
			err = e
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
