package buzzer

import (
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/physic"
)

// Opts configures a buzzer.
type Opts struct {
	// ActiveLow means the buzzer sounds when its GPIO is low, as on modules
	// with a PNP transistor ("low level trigger"). Active buzzer only.
	ActiveLow bool
	// Frequency is the pitch of a passive buzzer. Most sound loudest between
	// 2 and 4 kHz. PWM buzzer only.
	Frequency physic.Frequency
	// SysfsRoot is where the kernel PWM interface lives. PWM buzzer only.
	SysfsRoot string
}

// DefaultOpts: active high, 2.7 kHz, /sys/class/pwm.
var DefaultOpts = Opts{
	Frequency: 2700 * physic.Hertz,
	SysfsRoot: "/sys/class/pwm",
}

// output switches the sound of one device.
type output interface {
	set(on bool) error
	close() error
}

// stopper is the part of *time.Timer the player needs.
type stopper interface{ Stop() bool }

// Dev is a buzzer playing patterns in the background. It implements Buzzer.
//
// A write that fails while a pattern plays in the background stops the
// pattern; the error is returned by the next Play, SetMuted does not report
// it, and Close returns it if nothing read it.
type Dev struct {
	name  string
	out   output
	after func(time.Duration, func()) stopper

	mu     sync.Mutex
	gen    uint64 // bumped by every Play, SetMuted(true) and Close
	timer  stopper
	seq    []Tone
	step   int
	on     bool // the output's state, if known
	known  bool // false after a failed write: the next one always happens
	muted  bool
	closed bool
	err    error // a background failure not yet reported
}

var _ Buzzer = (*Dev)(nil)

func newDev(name string, out output) *Dev {
	return &Dev{
		name:  name,
		out:   out,
		known: true, // outputs start silent
		after: func(d time.Duration, f func()) stopper {
			return time.AfterFunc(d, f)
		},
	}
}

// String implements Buzzer.
func (d *Dev) String() string { return d.name }

// Play implements Buzzer. The first tone starts before Play returns; the
// rest play in the background.
func (d *Dev) Play(p Pattern) error {
	if int(p) >= len(tones) || len(tones[p]) == 0 {
		return fmt.Errorf("buzzer: %s: unknown pattern %d", d.name, p)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("buzzer: %s: closed", d.name)
	}
	err := d.err
	d.err = nil
	if d.muted {
		return err
	}
	d.cancel()
	d.seq = tones[p]
	d.step = 0
	if e := d.run(d.gen, false); e != nil {
		return e
	}
	return err
}

// SetMuted implements Buzzer. Muting silences a pattern that is playing.
func (d *Dev) SetMuted(muted bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.muted = muted
	if muted && !d.closed {
		d.cancel()
		if err := d.write(false); err != nil && d.err == nil {
			d.err = err
		}
	}
}

// Close implements Buzzer: it silences the buzzer and releases it. Later
// calls to Play fail.
func (d *Dev) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	d.cancel()
	err := d.err
	d.err = nil
	if e := d.write(false); e != nil && err == nil {
		err = e
	}
	if e := d.out.close(); e != nil && err == nil {
		err = e
	}
	return err
}

// cancel stops the pattern in progress; callbacks already due see a new
// generation and do nothing. d.mu is held.
func (d *Dev) cancel() {
	d.gen++
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.seq = nil
}

// run performs the current half step of the sequence and schedules the
// next: the on phase of tone d.step, or (off) its off phase. d.mu is held.
func (d *Dev) run(gen uint64, off bool) error {
	for d.step < len(d.seq) {
		t := d.seq[d.step]
		if !off && t.On > 0 {
			if err := d.write(true); err != nil {
				d.seq = nil
				return err
			}
			d.schedule(gen, t.On, true)
			return nil
		}
		if err := d.write(false); err != nil {
			d.seq = nil
			return err
		}
		d.step++
		off = false
		if t.Off > 0 && d.step < len(d.seq) {
			d.schedule(gen, t.Off, false)
			return nil
		}
	}
	d.seq = nil
	return d.write(false)
}

func (d *Dev) schedule(gen uint64, after time.Duration, off bool) {
	d.timer = d.after(after, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if gen != d.gen {
			return
		}
		if err := d.run(gen, off); err != nil && d.err == nil {
			d.err = err
		}
	})
}

// write switches the sound, skipping writes that change nothing.
func (d *Dev) write(on bool) error {
	if d.known && d.on == on {
		return nil
	}
	if err := d.out.set(on); err != nil {
		d.known = false
		return err
	}
	d.on, d.known = on, true
	return nil
}
