package max7219

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

func words(r *spitest.Record, from int) [][2]byte {
	r.Lock()
	defer r.Unlock()
	var w [][2]byte
	for _, op := range r.Ops[from:] {
		if len(op.W) != 2 {
			w = append(w, [2]byte{0xFF, 0xFF})
			continue
		}
		w = append(w, [2]byte{op.W[0], op.W[1]})
	}
	return w
}

func TestInitAndShow(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]byte{
		{0x0C, 0}, {0x0F, 0}, {0x09, 0}, {0x0B, 7}, {0x0A, 15},
		{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 0}, {8, 0},
	}
	if got := words(rec, 0); !reflect.DeepEqual(got, want) {
		t.Fatalf("init = %x\nwant   %x", got, want)
	}
	n := len(rec.Ops)
	if err := d.Show("1:29:05.3"); err != nil {
		t.Fatal(err)
	}
	// "1.29.05.3" on 8 digits, left-aligned: 1. 2 9. 0 5. 3 _ _; the
	// rightmost digit is register 1, and blank digits are already blank.
	want = [][2]byte{
		{8, 0x30 | 0x80}, // 1.
		{7, 0x6D},        // 2
		{6, 0x7B | 0x80}, // 9.
		{5, 0x7E},        // 0
		{4, 0x5B | 0x80}, // 5.
		{3, 0x79},        // 3
		{0x0C, 1},        // display on
	}
	if got := words(rec, n); !reflect.DeepEqual(got, want) {
		t.Errorf("Show = %x\nwant   %x", got, want)
	}
	n = len(rec.Ops)
	_ = d.Show("1:29:05.3")
	if len(rec.Ops) != n {
		t.Error("the same text again was sent")
	}
	_ = d.Show("1:29:05.2")
	if got := words(rec, n); !reflect.DeepEqual(got, [][2]byte{{3, 0x6D}}) {
		t.Errorf("changing the last digit sent %x", got)
	}
}

func TestLeftFirstBrightnessHalt(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, &Opts{Digits: 4, LeftFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := d.Size(); c != 4 {
		t.Errorf("Size = %d", c)
	}
	n := len(rec.Ops)
	_ = d.Show("PAUS")
	_ = d.SetBrightness(0x7F)
	_ = d.Halt()
	_ = d.Show("PAUS")
	want := [][2]byte{{1, 0x67}, {2, 0x77}, {3, 0x3E}, {4, 0x5B}, {0x0C, 1}, {0x0A, 7}, {0x0C, 0}, {0x0C, 1}}
	if got := words(rec, n); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %x\nwant %x", got, want)
	}
	if words(rec, 0)[3] != [2]byte{0x0B, 3} {
		t.Errorf("scan limit for 4 digits: %x", words(rec, 0)[3])
	}
}

// failPort is an SPI port whose conn fails while fail is set.
type failPort struct {
	spitest.Record
	fail bool
}

type failConn struct {
	spi.Conn
	p *failPort
}

func (c failConn) Tx(w, r []byte) error {
	if c.p.fail {
		return errors.New("spi: transfer failed")
	}
	return c.Conn.Tx(w, r)
}

func (p *failPort) Connect(f physic.Frequency, m spi.Mode, bits int) (spi.Conn, error) {
	c, err := p.Record.Connect(f, m, bits)
	return failConn{c, p}, err
}

func TestErrorResendsAll(t *testing.T) {
	p := &failPort{}
	d, err := New(p, &Opts{Digits: 4})
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Show("1234")
	p.fail = true
	if err := d.Show("1235"); err == nil || !strings.HasPrefix(err.Error(), "max7219 on record: register 0x01") {
		t.Fatalf("Show on a failing port = %v", err)
	}
	p.fail = false
	n := len(p.Ops)
	_ = d.Show("1235")
	if got := len(p.Ops) - n; got != 4 {
		t.Errorf("after an error Show sent %d words, want all 4 digits", got)
	}
}

func TestBadOpts(t *testing.T) {
	for _, o := range []Opts{{Digits: 0}, {Digits: 9}, {Digits: 8, Speed: 20 * physic.MegaHertz}, {Digits: 8, Speed: -physic.Hertz}} {
		if _, err := New(&spitest.Record{}, &o); err == nil {
			t.Errorf("New(%+v) succeeded", o)
		}
	}
}
