package buzzer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/internal/wait"
)

const ms = time.Millisecond

// sched is a virtual clock for Dev's timers. Fired runs them in order of
// their instants.
type sched struct {
	now       time.Duration
	timers    []*vtimer
	stopIsLie bool // Stop reports success but the callback still runs, as when it raced
}

type vtimer struct {
	at      time.Duration
	f       func()
	stopped bool
	s       *sched
}

func (t *vtimer) Stop() bool {
	if !t.s.stopIsLie {
		t.stopped = true
	}
	return true
}

func (s *sched) after(d time.Duration, f func()) stopper {
	t := &vtimer{at: s.now + d, f: f, s: s}
	s.timers = append(s.timers, t)
	return t
}

// advance runs the timers due up to until.
func (s *sched) advance(until time.Duration) {
	for {
		slices.SortStableFunc(s.timers, func(a, b *vtimer) int { return int(a.at - b.at) })
		if len(s.timers) == 0 || s.timers[0].at > until {
			s.now = max(s.now, until)
			return
		}
		t := s.timers[0]
		s.timers = s.timers[1:]
		s.now = t.at
		if !t.stopped {
			t.f()
		}
	}
}

// recPin is a gpiotest.Pin that logs what is written to it and when.
type recPin struct {
	*gpiotest.Pin
	s   *sched
	log []string
	err error
}

func (p *recPin) Out(l gpio.Level) error {
	if p.err != nil {
		return p.err
	}
	p.log = append(p.log, fmt.Sprintf("%v@%v", l, p.s.now))
	return p.Pin.Out(l)
}

func newActive(t *testing.T, opts *Opts) (*Dev, *recPin, *sched) {
	t.Helper()
	s := &sched{}
	p := &recPin{Pin: &gpiotest.Pin{N: "GPIO18", Num: 18}, s: s}
	d, err := NewActive(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	d.after = s.after
	p.log = nil
	return d, p, s
}

// sequence is what a pattern writes, from the table, starting at t0.
func sequence(p Pattern, t0 time.Duration, on, off string) []string {
	var out []string
	t := t0
	for _, tone := range p.Tones() {
		out = append(out, fmt.Sprintf("%s@%v", on, t))
		t += tone.On
		out = append(out, fmt.Sprintf("%s@%v", off, t))
		t += tone.Off
	}
	return out
}

func TestActivePatterns(t *testing.T) {
	for _, p := range []Pattern{Beep, DoubleBeep, Alarm} {
		t.Run(p.String(), func(t *testing.T) {
			d, pin, s := newActive(t, nil)
			if err := d.Play(p); err != nil {
				t.Fatal(err)
			}
			// Play returned with the first tone on and the rest to come.
			if len(pin.log) != 1 || pin.log[0] != "High@0s" {
				t.Fatalf("after Play: %v", pin.log)
			}
			s.advance(10 * time.Second)
			want := sequence(p, 0, "High", "Low")
			if !slices.Equal(pin.log, want) {
				t.Fatalf("got %v\nwant %v", pin.log, want)
			}
			if pin.L != gpio.Low {
				t.Fatal("left sounding")
			}
		})
	}
}

func TestPatternTable(t *testing.T) {
	if got := Beep.Duration(); got != 60*ms {
		t.Fatalf("beep lasts %v", got)
	}
	if got := Alarm.Duration(); got < time.Second || got > 3*time.Second {
		t.Fatalf("alarm lasts %v", got)
	}
	if Pattern(0).Tones() != nil || Pattern(9).Tones() != nil || Pattern(9).Duration() != 0 {
		t.Fatal("unknown pattern has tones")
	}
	tt := DoubleBeep.Tones()
	tt[0].On = time.Hour
	if DoubleBeep.Tones()[0].On == time.Hour {
		t.Fatal("Tones returned the table itself")
	}
}

func TestActiveLow(t *testing.T) {
	o := DefaultOpts
	o.ActiveLow = true
	s := &sched{}
	pin := &recPin{Pin: &gpiotest.Pin{N: "GPIO18"}, s: s}
	d, err := NewActive(pin, &o)
	if err != nil {
		t.Fatal(err)
	}
	d.after = s.after
	if err := d.Play(Beep); err != nil {
		t.Fatal(err)
	}
	s.advance(time.Second)
	want := []string{"High@0s", "Low@0s", "High@60ms"} // silenced at open, then beep
	if !slices.Equal(pin.log, want) {
		t.Fatalf("got %v want %v", pin.log, want)
	}
}

func TestPlayCutsShort(t *testing.T) {
	d, pin, s := newActive(t, nil)
	s.stopIsLie = true // the old pattern's timers still fire; they must do nothing
	d.Play(Alarm)
	s.advance(350 * ms) // first tone done, in the gap
	d.Play(DoubleBeep)
	s.advance(10 * time.Second)
	want := append([]string{"High@0s", "Low@300ms"}, sequence(DoubleBeep, 350*ms, "High", "Low")...)
	if !slices.Equal(pin.log, want) {
		t.Fatalf("got %v\nwant %v", pin.log, want)
	}
	// Cut while sounding: the new pattern keeps the sound on and its own
	// timing runs from the new Play.
	pin.log = nil
	s.now = 20 * time.Second
	d.Play(Alarm)
	s.advance(20*time.Second + 100*ms)
	d.Play(Beep)
	s.advance(30 * time.Second)
	want = []string{"High@20s", "Low@20.16s"}
	if !slices.Equal(pin.log, want) {
		t.Fatalf("got %v want %v", pin.log, want)
	}
}

func TestMuted(t *testing.T) {
	d, pin, s := newActive(t, nil)
	d.Play(Alarm)
	s.advance(100 * ms)
	d.SetMuted(true)
	if pin.L != gpio.Low {
		t.Fatal("muting left it sounding")
	}
	if err := d.Play(Beep); err != nil {
		t.Fatal(err)
	}
	s.advance(10 * time.Second)
	if want := []string{"High@0s", "Low@100ms"}; !slices.Equal(pin.log, want) {
		t.Fatalf("got %v want %v", pin.log, want)
	}
	d.SetMuted(false)
	d.Play(Beep)
	s.advance(20 * time.Second)
	if want := []string{"High@0s", "Low@100ms", "High@10s", "Low@10.06s"}; !slices.Equal(pin.log, want) {
		t.Fatalf("got %v want %v", pin.log, want)
	}
}

func TestCloseSilences(t *testing.T) {
	d, pin, s := newActive(t, nil)
	d.Play(Alarm)
	s.advance(50 * ms)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	s.advance(10 * time.Second)
	if want := []string{"High@0s", "Low@50ms"}; !slices.Equal(pin.log, want) {
		t.Fatalf("got %v want %v", pin.log, want)
	}
	if err := d.Play(Beep); err == nil || err.Error() != "buzzer: active buzzer on GPIO18: closed" {
		t.Fatalf("Play after Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestUnknownPattern(t *testing.T) {
	d, _, _ := newActive(t, nil)
	if err := d.Play(Pattern(42)); err == nil || err.Error() != "buzzer: active buzzer on GPIO18: unknown pattern 42" {
		t.Fatalf("got %v", err)
	}
}

func TestActiveErrors(t *testing.T) {
	d, pin, s := newActive(t, nil)
	pin.err = errors.New("line released")
	if err := d.Play(Beep); err == nil || err.Error() != "buzzer: GPIO18: line released" {
		t.Fatalf("got %v", err)
	}
	// A failure in the background is reported by the next Play.
	pin.err = nil
	d.Play(DoubleBeep)
	pin.err = errors.New("line released")
	s.advance(time.Second)
	pin.err = nil
	if err := d.Play(Beep); err == nil || !strings.Contains(err.Error(), "line released") {
		t.Fatalf("background error not reported: %v", err)
	}
	if err := d.Play(Beep); err != nil {
		t.Fatalf("reported twice: %v", err)
	}
	if _, err := NewActive(nil, nil); err == nil {
		t.Fatal("nil pin accepted")
	}
}

func TestOpenActiveNoLine(t *testing.T) {
	_, err := OpenActive("GPIO_ZEITNOT_NONE", nil)
	if err == nil || err.Error() != "buzzer: no GPIO line named GPIO_ZEITNOT_NONE on this machine" {
		t.Fatalf("got %v", err)
	}
}

// fakePWM makes a sysfs PWM tree under a temporary directory. If exported,
// pwm<ch> exists already; otherwise a goroutine plays the kernel and creates
// it when the channel number is written to export.
func fakePWM(t *testing.T, chip, ch int, exported bool) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	chipDir := filepath.Join(root, fmt.Sprintf("pwmchip%d", chip))
	dir = filepath.Join(chipDir, fmt.Sprintf("pwm%d", ch))
	for _, f := range []string{"export", "unexport"} {
		write(t, filepath.Join(chipDir, f), "")
	}
	mk := func() {
		for _, f := range []string{"period", "duty_cycle", "enable"} {
			write(t, filepath.Join(dir, f), "0")
		}
	}
	if exported {
		mk()
		return
	}
	done := make(chan struct{})
	t.Cleanup(func() { <-done })
	go func() {
		defer close(done)
		if wait.Within(time.Second, func() bool {
			b, _ := os.ReadFile(filepath.Join(chipDir, "export"))
			return string(b) == fmt.Sprint(ch)
		}) {
			mk()
		}
	}()
	return
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPWM(t *testing.T) {
	root, dir := fakePWM(t, 0, 1, true)
	o := DefaultOpts
	o.SysfsRoot = root
	o.Frequency = 2 * physic.KiloHertz
	d, err := OpenPWM(0, 1, &o)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.String(); got != "passive buzzer on pwmchip0/pwm1 at 2kHz" {
		t.Fatalf("String() = %q", got)
	}
	if read(t, filepath.Join(dir, "period")) != "500000" || read(t, filepath.Join(dir, "enable")) != "1" || read(t, filepath.Join(dir, "duty_cycle")) != "0" {
		t.Fatal("not set up")
	}
	s := &sched{}
	d.after = s.after
	// Step through the pattern and read duty_cycle at every change.
	var got []string
	duty := func() { got = append(got, fmt.Sprintf("%s@%v", read(t, filepath.Join(dir, "duty_cycle")), s.now)) }
	d.Play(DoubleBeep)
	duty()
	for len(s.timers) > 0 {
		s.advance(s.timers[0].at)
		duty()
	}
	want := sequence(DoubleBeep, 0, "250000", "0")
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "enable")) != "0" {
		t.Fatal("not disabled on Close")
	}
	if read(t, filepath.Join(filepath.Dir(dir), "unexport")) != "" {
		t.Fatal("unexported a channel it did not export")
	}
}

func TestPWMExport(t *testing.T) {
	root, dir := fakePWM(t, 2, 0, false)
	o := DefaultOpts
	o.SysfsRoot = root
	d, err := OpenPWM(2, 0, &o)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "period")) != "370370" {
		t.Fatalf("period %q for 2.7kHz", read(t, filepath.Join(dir, "period")))
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(filepath.Dir(dir), "unexport")) != "0" {
		t.Fatal("channel not unexported")
	}
}

func TestPWMErrors(t *testing.T) {
	root, dir := fakePWM(t, 0, 0, true)
	o := DefaultOpts
	o.SysfsRoot = root
	if _, err := OpenPWM(1, 0, &o); err == nil || !strings.HasPrefix(err.Error(), "buzzer: pwmchip1: not found in "+root) {
		t.Fatalf("missing chip: %v", err)
	}
	bad := o
	bad.Frequency = 0
	if _, err := OpenPWM(0, 0, &bad); err == nil || !strings.Contains(err.Error(), "frequency") {
		t.Fatalf("zero frequency: %v", err)
	}
	// duty_cycle that cannot be written: the error names the device, the
	// attribute and the cause.
	d, err := OpenPWM(0, 0, &o)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "duty_cycle"))
	os.Mkdir(filepath.Join(dir, "duty_cycle"), 0o755)
	if err := d.Play(Beep); err == nil || err.Error() != "buzzer: pwmchip0/pwm0: write duty_cycle: is a directory" {
		t.Fatalf("got %v", err)
	}
	// A channel that never appears after export.
	old := exportWait
	exportWait = 20 * ms
	defer func() { exportWait = old }()
	if _, err := OpenPWM(0, 3, &o); err == nil || err.Error() != "buzzer: pwmchip0/pwm3: write duty_cycle: no such file or directory" {
		t.Fatalf("got %v", err)
	}
}

// TestRealTimers plays a pattern on the timers newDev gives a Dev
// (time.AfterFunc), in a synctest bubble: its clock moves only while every
// goroutine waits, so Play's not blocking and the tones' instants are exact
// however loaded the machine is.
func TestRealTimers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pin := &gpiotest.Pin{N: "GPIO18"}
		d, err := NewActive(pin, nil)
		if err != nil {
			t.Fatal(err)
		}
		level := func() gpio.Level {
			pin.Lock()
			defer pin.Unlock()
			return pin.L
		}
		start := time.Now()
		if err := d.Play(DoubleBeep); err != nil {
			t.Fatal(err)
		}
		if time.Since(start) != 0 {
			t.Fatalf("Play blocked for %v", time.Since(start))
		}
		// DoubleBeep: on 80 ms, off 80 ms, on 80 ms.
		for _, c := range []struct {
			at   time.Duration
			want gpio.Level
		}{
			{0, gpio.High}, {79 * ms, gpio.High}, {80 * ms, gpio.Low}, {159 * ms, gpio.Low},
			{160 * ms, gpio.High}, {239 * ms, gpio.High}, {DoubleBeep.Duration(), gpio.Low}, {5 * time.Second, gpio.Low},
		} {
			time.Sleep(c.at - time.Since(start)) // the bubble's virtual time: it advances at once
			synctest.Wait()
			if got := level(); got != c.want {
				t.Fatalf("at %v: %v, want %v", c.at, got, c.want)
			}
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
