package config

import "testing"

// TestShippedConfig checks the zeitnot.toml the SD image installs as
// /etc/zeitnot/zeitnot.toml.
func TestShippedConfig(t *testing.T) {
	if errs := Check("zeitnot.toml"); len(errs) > 0 {
		t.Fatal(errs)
	}
	c, _ := Load("zeitnot.toml", Defaults("sim"), nil)
	if c.Profile != "two-ssd1306-i2c" || c.Control != "fide-classical" {
		t.Errorf("shipped config: %+v", c)
	}
}
