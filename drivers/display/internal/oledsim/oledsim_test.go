package oledsim

import "testing"

func TestPageMode(t *testing.T) {
	c := NewSSD1306()
	// Page 3, column 0x7E, two bytes: the second lands in column 127.
	if err := c.I2C([]byte{0x00, 0xB3, 0x0E, 0x17}); err != nil {
		t.Fatal(err)
	}
	if err := c.I2C([]byte{0x40, 0xAA, 0x55}); err != nil {
		t.Fatal(err)
	}
	if c.RAM[3*128+126] != 0xAA || c.RAM[3*128+127] != 0x55 {
		t.Errorf("RAM = %#02x %#02x", c.RAM[3*128+126], c.RAM[3*128+127])
	}
	if err := c.Data([]byte{1}); err == nil {
		t.Error("data past the last column accepted")
	}
}

func TestHorizontalWindowAndCo(t *testing.T) {
	c := NewSSD1306()
	// Co set: one command byte per control byte.
	if err := c.I2C([]byte{0x80, 0x20, 0x80, 0x00, 0x80, 0x21, 0x80, 10, 0x80, 11, 0x00, 0x22, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := c.I2C([]byte{0x40, 1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	// A 2x2 window: the fifth byte wraps back to its first page and column.
	for i, want := range map[int]byte{128 + 10: 5, 128 + 11: 2, 256 + 10: 3, 256 + 11: 4, 128 + 12: 0} {
		if c.RAM[i] != want {
			t.Errorf("RAM[%d] = %d, want %d", i, c.RAM[i], want)
		}
	}
	if c.Page != 1 || c.Col != 11 {
		t.Errorf("after wrap: page %d col %d, want 1 and 11", c.Page, c.Col)
	}
}

func TestStrict(t *testing.T) {
	for _, tt := range []struct {
		chip *Chip
		w    []byte
	}{
		{NewSSD1306(), []byte{0x00, 0xF0}},       // unknown command
		{NewSH1106(), []byte{0x00, 0x20, 0x00}},  // no addressing modes
		{NewSSD1306(), []byte{0x01, 0xAE}},       // bad control byte
		{NewSSD1306(), []byte{0x00, 0x20, 0x07}}, // bad mode
	} {
		if err := tt.chip.I2C(tt.w); err == nil {
			t.Errorf("%s accepted % x", tt.chip.Name, tt.w)
		}
	}
	c := NewSSD1306()
	_ = c.Command(0x81)
	if err := c.Data([]byte{1}); err == nil {
		t.Error("data accepted while a command waits for its argument")
	}
	if err := c.Command(0x40); err != nil || c.Contrast != 0x40 {
		t.Errorf("argument in a later call: err %v contrast %#02x", err, c.Contrast)
	}
}
