package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/needtool"
)

// fakeDTS is the part of a Raspberry Pi device tree that patch-dtb.sh
// edits: the GPIO controller with SPI0's pin group, SPI0 and I2C1 off,
// empty aliases.
const fakeDTS = `/dts-v1/;
/ {
	#address-cells = <1>;
	#size-cells = <1>;
	aliases { };
	soc {
		#address-cells = <1>;
		#size-cells = <1>;
		gpio@7e200000 {
			reg = <0x7e200000 0xb4>;
			spi0_gpio7 { brcm,pins = <7 8 9 10 11>; };
		};
		spi@7e204000 {
			reg = <0x7e204000 0x200>;
			#address-cells = <1>;
			#size-cells = <0>;
			status = "disabled";
		};
		i2c@7e804000 {
			reg = <0x7e804000 0x1000>;
			#address-cells = <1>;
			#size-cells = <0>;
			status = "disabled";
		};
	};
};
`

// patchDTB compiles fakeDTS into a directory as a Pi 3's device tree and
// runs patch-dtb.sh on it with the environment env.
func patchDTB(t *testing.T, env ...string) (dtb, out string, err error) {
	t.Helper()
	for _, tool := range []string{"bash", "dtc", "fdtput", "fdtget"} {
		needtool.Path(t, "apt-get install device-tree-compiler", tool)
	}
	dir := t.TempDir()
	dtb = filepath.Join(dir, "bcm2837-rpi-3-b.dtb")
	src := filepath.Join(dir, "fake.dts")
	if err := os.WriteFile(src, []byte(fakeDTS), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtb, src).CombinedOutput(); err != nil {
		t.Fatalf("dtc: %v\n%s", err, b)
	}
	cmd := exec.Command("bash", "../patch-dtb.sh", dir)
	cmd.Env = append(os.Environ(), env...)
	b, err := cmd.CombinedOutput()
	return dtb, string(b), err
}

func fdtget(t *testing.T, args ...string) string {
	t.Helper()
	b, err := exec.Command("fdtget", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("fdtget %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return strings.TrimSpace(string(b))
}

// TestPatchDTB: the patches the image's device trees get, with and
// without RTC=ds3231.
func TestPatchDTB(t *testing.T) {
	dtb, out, err := patchDTB(t, "RTC=", "PWM=0")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, c := range [][]string{
		{"/soc/spi@7e204000", "status", "okay"},
		{"/soc/spi@7e204000/spidev@1", "compatible", "zeitnot,spidev"},
		{"/soc/i2c@7e804000", "status", "okay"},
		{"/soc/i2c@7e804000", "clock-frequency", "400000"},
		{"/aliases", "i2c1", "/soc/i2c@7e804000"},
	} {
		if got := fdtget(t, dtb, c[0], c[1]); got != c[2] {
			t.Errorf("%s %s = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	if b, err := exec.Command("fdtget", "-l", dtb, "/soc/i2c@7e804000").CombinedOutput(); err != nil || strings.Contains(string(b), "rtc") {
		t.Errorf("an RTC node without RTC=ds3231: %v %s", err, b)
	}

	dtb, out, err = patchDTB(t, "RTC=ds3231")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := fdtget(t, dtb, "/soc/i2c@7e804000/rtc@68", "compatible"); got != "maxim,ds3231" {
		t.Errorf("compatible %q", got)
	}
	if got := fdtget(t, "-t", "x", dtb, "/soc/i2c@7e804000/rtc@68", "reg"); got != "68" {
		t.Errorf("reg %q", got)
	}
	if !strings.Contains(out, "DS3231 at 0x68 on I2C1") {
		t.Errorf("output %q", out)
	}

	if _, out, err = patchDTB(t, "RTC=pcf8523"); err == nil || !strings.Contains(out, "RTC=pcf8523: the only real-time clock known is ds3231") {
		t.Errorf("RTC=pcf8523: %v %q", err, out)
	}
}
