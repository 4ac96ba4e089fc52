package hd44780

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

// noSleep records the waits instead of sleeping.
func noSleep(t *testing.T) *[]time.Duration {
	var waits []time.Duration
	sleep = func(d time.Duration) { waits = append(waits, d) }
	t.Cleanup(func() { sleep = time.Sleep })
	return &waits
}

// nib is one PCF8574 nibble transfer: RS and data with E low, E high, E
// low.
func nib(v byte) []byte { return []byte{v, v | pcfE, v} }

// pcfBytes encodes bytes as the backpack sends them, backlight on.
func pcfBytes(rs bool, b ...byte) []byte {
	base := byte(pcfBL)
	if rs {
		base |= pcfRS
	}
	var out []byte
	for _, c := range b {
		out = append(out, nib(base|c&0xF0)...)
		out = append(out, nib(base|c<<4)...)
	}
	return out
}

func ops(r *i2ctest.Record, from int) [][]byte {
	var w [][]byte
	for _, op := range r.Ops[from:] {
		if op.Addr != 0x27 {
			w = append(w, []byte("wrong address"))
			continue
		}
		w = append(w, op.W)
	}
	return w
}

func checkOps(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d writes\n% x\nwant %d\n% x", what, len(got), got, len(want), want)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s: write %d = % x, want % x", what, i, got[i], want[i])
		}
	}
}

func TestPCF8574InitAndShow(t *testing.T) {
	waits := noSleep(t)
	rec := &i2ctest.Record{}
	d, err := NewPCF8574(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "hd44780 on record@0x27" {
		t.Errorf("String = %q", d.String())
	}
	checkOps(t, "init", ops(rec, 0), [][]byte{
		{0x08},                            // backlight on, all else low
		nib(0x38),                         // 0x3: 8-bit mode, three times
		nib(0x38),                         //
		nib(0x38),                         //
		nib(0x28),                         // 0x2: 4-bit mode
		pcfBytes(false, 0x28, 0x08, 0x01), // 2 lines; display off; clear
		pcfBytes(false, 0x06),             // entry mode
	})
	wantWaits := []time.Duration{50 * time.Millisecond, 4500 * time.Microsecond, 150 * time.Microsecond, 150 * time.Microsecond, 50 * time.Microsecond, 2 * time.Millisecond}
	if !reflect.DeepEqual(*waits, wantWaits) {
		t.Errorf("init waits %v, want %v", *waits, wantWaits)
	}
	n := len(rec.Ops)
	if err := d.Show("WHITE  1:29:05\nBLACK  0:09.7"); err != nil {
		t.Fatal(err)
	}
	checkOps(t, "show", ops(rec, n), [][]byte{
		// The two spaces are blank already: skipped.
		pcfBytes(false, 0x80), pcfBytes(true, []byte("WHITE")...),
		pcfBytes(false, 0x87), pcfBytes(true, []byte("1:29:05")...),
		pcfBytes(false, 0xC0), pcfBytes(true, []byte("BLACK")...),
		pcfBytes(false, 0xC7), pcfBytes(true, []byte("0:09.7")...),
		pcfBytes(false, 0x0C), {0x08},
	})
	// Only the changed characters go out: "0:09.6" changes one character,
	// "1:28:59" three, with one unchanged ':' between that is cheaper to
	// resend than to address past.
	n = len(rec.Ops)
	if err := d.Show("WHITE  1:28:59\nBLACK  0:09.6"); err != nil {
		t.Fatal(err)
	}
	checkOps(t, "update", ops(rec, n), [][]byte{
		pcfBytes(false, 0x80+10), pcfBytes(true, '8', ':', '5', '9'),
		pcfBytes(false, 0xC0+12), pcfBytes(true, '6'),
	})
	n = len(rec.Ops)
	_ = d.Show("WHITE  1:28:59\nBLACK  0:09.6")
	checkOps(t, "same text", ops(rec, n), nil)
}

func TestPCF8574BacklightHalt(t *testing.T) {
	noSleep(t)
	rec := &i2ctest.Record{}
	d, _ := NewPCF8574(rec, &Opts{Cols: 16, Lines: 2, Addr: 0x27})
	_ = d.Show("PAUSE")
	n := len(rec.Ops)
	_ = d.SetBrightness(0)
	_ = d.Show("PAUSE")
	_ = d.SetBrightness(200)
	_ = d.Halt()
	_ = d.Show("PAUSE")
	dark := func(b []byte) []byte {
		for i := range b {
			b[i] &^= pcfBL
		}
		return b
	}
	checkOps(t, "backlight", ops(rec, n), [][]byte{
		{0x00},
		{0x08},
		pcfBytes(false, 0x08), {0x00},
		dark(pcfBytes(false, 0x0C)), {0x08},
	})
}

func TestShowCutsAndBlanks(t *testing.T) {
	noSleep(t)
	rec := &i2ctest.Record{}
	d, _ := NewPCF8574(rec, &Opts{Cols: 8, Lines: 1, Addr: 0x27})
	_ = d.Show("12:34°C ~\\é and more\nsecond line")
	if got, want := string(d.shown), "12:34\xdfC "; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
	if c, l := d.Size(); c != 8 || l != 1 {
		t.Errorf("Size = %d, %d", c, l)
	}
	// One line: function set without the 2-line bit.
	if got := rec.Ops[5].W; !bytes.Equal(got[:6], pcfBytes(false, 0x20)) {
		t.Errorf("function set for 1 line = % x", got[:6])
	}
}

type failBus struct {
	i2ctest.Record
	fail bool
}

func (b *failBus) Tx(addr uint16, w, r []byte) error {
	if b.fail {
		return errors.New("remote I/O error")
	}
	return b.Record.Tx(addr, w, r)
}

func TestErrors(t *testing.T) {
	noSleep(t)
	b := &failBus{fail: true}
	if _, err := NewPCF8574(b, nil); err == nil || !strings.HasPrefix(err.Error(), "hd44780 on record@0x27: backlight: remote I/O error") {
		t.Errorf("NewPCF8574 with no backpack = %v", err)
	}
	b.fail = false
	d, err := NewPCF8574(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Show("1:29")
	b.fail = true
	if err := d.Show("1:28"); err == nil {
		t.Fatal("Show on a failing bus succeeded")
	}
	b.fail = false
	n := len(b.Ops)
	_ = d.Show("1:28")
	// After an error both lines are rewritten in full.
	if got := len(b.Ops) - n; got != 4 {
		t.Errorf("Show after an error made %d writes, want 4", got)
	}
	for _, o := range []Opts{{Cols: 16, Lines: 2, Addr: 0x30}, {Cols: 40, Lines: 4, Addr: 0x27}, {Cols: 7, Lines: 1, Addr: 0x27}} {
		if _, err := NewPCF8574(&i2ctest.Record{}, &o); err == nil || !strings.HasPrefix(err.Error(), "hd44780: ") {
			t.Errorf("NewPCF8574(%+v) = %v", o, err)
		}
	}
	if _, err := NewGPIO(nil, nil, [4]gpio.PinOut{}, nil, nil); err == nil {
		t.Error("NewGPIO without lines succeeded")
	}
}

// lines records the module's GPIO lines and decodes a nibble, with RS, on
// each falling edge of E.
type lines struct {
	mu    sync.Mutex
	level map[string]gpio.Level
	nibs  []byte // RS in bit 4
}

type line struct {
	gpiotest.Pin
	l *lines
}

func (p *line) Out(v gpio.Level) error {
	p.l.mu.Lock()
	defer p.l.mu.Unlock()
	if p.N == "E" && p.l.level["E"] == gpio.High && v == gpio.Low {
		var n byte
		for i, d := range []string{"D4", "D5", "D6", "D7"} {
			if p.l.level[d] {
				n |= 1 << i
			}
		}
		if p.l.level["RS"] {
			n |= 0x10
		}
		p.l.nibs = append(p.l.nibs, n)
	}
	p.l.level[p.N] = v
	return p.Pin.Out(v)
}

func TestGPIO(t *testing.T) {
	noSleep(t)
	l := &lines{level: map[string]gpio.Level{}}
	pin := func(n string) *line { return &line{Pin: gpiotest.Pin{N: n}, l: l} }
	bl := pin("BL")
	d, err := NewGPIO(pin("RS"), pin("E"), [4]gpio.PinOut{pin("D4"), pin("D5"), pin("D6"), pin("D7")}, bl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.String(), "hd44780 on RS RS E E D4-D7 D4/D5/D6/D7") {
		t.Errorf("String = %q", d.String())
	}
	want := []byte{0x3, 0x3, 0x3, 0x2, 0x2, 0x8, 0x0, 0x8, 0x0, 0x1, 0x0, 0x6}
	if !bytes.Equal(l.nibs, want) {
		t.Errorf("init nibbles % x, want % x", l.nibs, want)
	}
	l.nibs = nil
	_ = d.Show("Hi")
	want = []byte{0x8, 0x0, 0x14, 0x18, 0x16, 0x19, 0x0, 0xC}
	if !bytes.Equal(l.nibs, want) {
		t.Errorf("Show(\"Hi\") nibbles % x, want % x", l.nibs, want)
	}
	_ = d.SetBrightness(0)
	if bl.Read() != gpio.Low {
		t.Error("backlight line still high at level 0")
	}
}

// lcd is the controller as the backpack's outputs drive it: it latches RS
// and D4-D7 when E falls. RS must be settled before E rises (the
// datasheet's address set-up time, tAS) and the data must not change while
// E is high, so a write that raises E must leave every other output as the
// previous write set it.
type lcd struct {
	port    byte
	nibbles []byte // RS in bit 4, D4-D7 in bits 0-3
	errs    []string
}

func (l *lcd) write(b []byte) {
	for _, v := range b {
		prev := l.port
		l.port = v
		rise := prev&pcfE == 0 && v&pcfE != 0
		fall := prev&pcfE != 0 && v&pcfE == 0
		switch {
		case rise && v&^pcfE != prev&^pcfE:
			l.errs = append(l.errs, fmt.Sprintf("E rises in the write that changes RS or data: %#02x then %#02x", prev, v))
		case prev&pcfE != 0 && v&pcfE != 0 && v != prev:
			l.errs = append(l.errs, fmt.Sprintf("RS or data change while E is high: %#02x then %#02x", prev, v))
		case fall && v|pcfE != prev:
			l.errs = append(l.errs, fmt.Sprintf("RS or data change as E falls: %#02x then %#02x", prev, v))
		case fall:
			l.nibbles = append(l.nibbles, prev>>4|(prev&pcfRS)<<4)
		}
	}
}

// TestPCF8574SetupTime: every nibble the controller latches had RS and its
// data on the lines, with E low, before E rose, as LiquidCrystal_I2C does.
func TestPCF8574SetupTime(t *testing.T) {
	noSleep(t)
	rec := &i2ctest.Record{}
	d, err := NewPCF8574(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Show("WHITE  1:29:05\nBLACK  0:09.7"); err != nil {
		t.Fatal(err)
	}
	var l lcd
	for _, op := range rec.Ops {
		l.write(op.W)
	}
	for _, e := range l.errs {
		t.Error(e)
	}
	// What was latched: the init nibbles, then each byte as two nibbles
	// with its RS.
	want := []byte{0x3, 0x3, 0x3, 0x2}
	cmd := func(rs bool, bs ...byte) {
		for _, c := range bs {
			r := byte(0)
			if rs {
				r = 0x10
			}
			want = append(want, r|c>>4, r|c&0xF)
		}
	}
	cmd(false, 0x28, 0x08, 0x01, 0x06)
	cmd(false, 0x80)
	cmd(true, []byte("WHITE")...)
	cmd(false, 0x87)
	cmd(true, []byte("1:29:05")...)
	cmd(false, 0xC0)
	cmd(true, []byte("BLACK")...)
	cmd(false, 0xC7)
	cmd(true, []byte("0:09.7")...)
	cmd(false, 0x0C)
	if !bytes.Equal(l.nibbles, want) {
		t.Errorf("latched % x\nwant    % x", l.nibbles, want)
	}
}
