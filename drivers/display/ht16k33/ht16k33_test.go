package ht16k33

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

func writes(r *i2ctest.Record, from int) [][]byte {
	var w [][]byte
	for _, op := range r.Ops[from:] {
		if op.Addr != 0x71 {
			w = append(w, []byte("wrong address"))
			continue
		}
		w = append(w, op.W)
	}
	return w
}

func check(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d writes % x, want %d % x", what, len(got), got, len(want), want)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s: write %d = % x, want % x", what, i, got[i], want[i])
		}
	}
}

func g(r rune) byte { return sevenseg.Glyph(r) }

func TestInitAndShow(t *testing.T) {
	rec := &i2ctest.Record{}
	d, err := New(rec, &Opts{Addr: 0x71})
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "ht16k33 on record@0x71" {
		t.Errorf("String = %q", d.String())
	}
	// All 16 bytes of display RAM cleared, not only the digits' rows: it
	// powers up random.
	check(t, "init", writes(rec, 0), [][]byte{{0x21}, {0x80}, {0xEF}, make([]byte, 1+16)})
	n := len(rec.Ops)
	if err := d.Show("12:34"); err != nil {
		t.Fatal(err)
	}
	check(t, "12:34", writes(rec, n), [][]byte{
		{0x00, g('1'), 0, g('2'), 0, 0x02, 0, g('3'), 0, g('4'), 0},
		{0x81},
	})
	n = len(rec.Ops)
	_ = d.Show("12:34")
	check(t, "same text", writes(rec, n), nil)
	// A colon after the first digit is not the backpack's: it becomes a
	// point.
	_ = d.Show("0:09.7")
	check(t, "0:09.7", writes(rec, n), [][]byte{
		{0x00, g('0') | 0x80, 0, g('0'), 0, 0, 0, g('9') | 0x80, 0, g('7'), 0},
	})
	n = len(rec.Ops)
	_ = d.SetBrightness(0)
	_ = d.Halt()
	_ = d.Show("0:09.7")
	check(t, "dim, halt, show", writes(rec, n), [][]byte{{0xE0}, {0x80}, {0x81}})
}

type failBus struct {
	i2ctest.Record
	fail bool
}

func (b *failBus) Tx(addr uint16, w, r []byte) error {
	if b.fail {
		return errors.New("no such device or address")
	}
	return b.Record.Tx(addr, w, r)
}

func TestErrors(t *testing.T) {
	b := &failBus{fail: true}
	if _, err := New(b, nil); err == nil || !strings.HasPrefix(err.Error(), "ht16k33 on record@0x70: command 0x21") {
		t.Errorf("New with no backpack = %v", err)
	}
	b.fail = false
	d, err := New(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Show("PAUS")
	b.fail = true
	if err := d.Show("FLAG"); err == nil {
		t.Fatal("Show on a failing bus succeeded")
	}
	b.fail = false
	n := len(b.Ops)
	_ = d.Show("FLAG")
	if len(b.Ops) == n {
		t.Error("after an error the digits were not resent")
	}
	for _, o := range []Opts{{Addr: 0x6F}, {Addr: 0x78}, {}} {
		if _, err := New(&i2ctest.Record{}, &o); err == nil {
			t.Errorf("New(%+v) succeeded", o)
		}
	}
}
