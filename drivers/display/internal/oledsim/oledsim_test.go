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
		{NewSSD1306(), []byte{0x00, 0x21, 0, 9}}, // window in page mode
		{NewSSD1306(), []byte{0x00, 0x22, 0, 1}}, // window in page mode
		// Page addressing in horizontal mode.
		{NewSSD1306(), []byte{0x00, 0x20, 0x00, 0xB1}},
		{NewSSD1306(), []byte{0x00, 0x20, 0x00, 0x05}},
		{NewSSD1306(), []byte{0x00, 0x20, 0x00, 0x12}},
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

func TestPageModeInsideColumnWindow(t *testing.T) {
	c := NewSSD1306()
	// A window of columns 10 to 11, then page addressing again.
	if err := c.I2C([]byte{0x00, 0x20, 0x00, 0x21, 10, 11, 0x20, 0x02, 0xB0, 0x0A, 0x10}); err != nil {
		t.Fatal(err)
	}
	if err := c.I2C([]byte{0x40, 1, 2}); err != nil {
		t.Errorf("data inside the column window: %v", err)
	}
	if err := c.I2C([]byte{0x40, 3}); err == nil {
		t.Error("page addressing data past the column window's end accepted")
	}
	// Widened again, page addressing reaches every column.
	if err := c.I2C([]byte{0x00, 0x20, 0x00, 0x21, 0, 127, 0x20, 0x02, 0xB0, 0x0E, 0x17, 0x40, 1, 2}); err != nil {
		t.Error(err)
	}
}

func TestArgumentsInALaterWrite(t *testing.T) {
	for _, cut := range [][]byte{
		{0x00, 0x20, 0x00, 0x21, 5}, // a window cut after one argument
		{0x00, 0x20},                // a mode without its argument
		{0x00, 0x20, 0x00, 0x22},
	} {
		c := NewSSD1306()
		if err := c.I2C(cut); err != nil {
			t.Fatal(err)
		}
		// Two 0xA4 (display follows RAM) complete it; what follows is read
		// as commands again.
		if err := c.I2C([]byte{0x00, 0xA4, 0xA4, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7}); err != nil {
			t.Fatalf("after % x: %v", cut, err)
		}
		if err := c.I2C([]byte{0x40, 9}); err != nil {
			t.Fatal(err)
		}
		if c.RAM[0] != 9 {
			t.Errorf("after % x: RAM[0] = %d, want 9", cut, c.RAM[0])
		}
	}
}
