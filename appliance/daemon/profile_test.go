package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/profile"
)

const twoOLEDs = `# a build
[display.left]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3C

[display.right]
type = "sh1106"
bus = "I2C1"
address = 0x3D
size = "128x64"

[buttons]
left = "GPIO17"
right = "GPIO27"
ok = "GPIO25"
`

// TestCheckProfile: the clock's own rules for a profile: one display per
// side or one for both, and both levers; each error with its file and line,
// as the profile's own.
func TestCheckProfile(t *testing.T) {
	rep := func(old, new string) string {
		if !strings.Contains(twoOLEDs, old) {
			t.Fatalf("test edit does not apply: %s", old)
		}
		return strings.Replace(twoOLEDs, old, new, 1)
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"missing lever", rep(`right = "GPIO27"`, ``),
			[]string{`x.toml:13: missing required button right in [buttons]`}},
		{"role taken", rep(`address = 0x3D`, "address = 0x3D\nrole = \"left\""),
			[]string{
				`x.toml:11: display "right": role left is already taken by display "left"`,
				`x.toml: no display with role right`,
			}},
		{"no right", `
[display.left]
type = "sim-oled"
[buttons]
left = "sim:z"
right = "sim:b"
`, []string{`x.toml: no display with role right`}},
		{"no left", `
[display.right]
type = "sim-oled"
[buttons]
left = "sim:z"
right = "sim:b"
`, []string{`x.toml: no display with role left`}},
		{"both and left", `
[display.both]
type = "sim-oled"
[display.left]
type = "sim-oled"
[buttons]
left = "sim:z"
right = "sim:b"
`, []string{`x.toml: a display with role both and one with role left or right: use one or the other`}},
		{"role unknown", `
[display.main]
type = "sim-oled"
role = "centre"
[buttons]
left = "sim:z"
right = "sim:b"
`, []string{`x.toml:4: display "main": role "centre" is not left, right or both`}},
		{"role missing", `
[display.main]
type = "sim-oled"
[display.both]
type = "sim-lcd"
[buttons]
right = "sim:b"
`, []string{
			`x.toml:2: display "main": missing required field role (left, right or both)`,
			`x.toml:6: missing required button left in [buttons]`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := profile.Parse("x.toml", []byte(tt.src))
			if err != nil {
				t.Fatalf("the profile itself is refused: %v", err)
			}
			check(t, p, tt.want)
		})
	}
	// Parse refuses a file with no display; a profile made in code is
	// checked too.
	check(t, &profile.Profile{Source: "x.toml"}, []string{
		`x.toml: no display: add a [display.left] and a [display.right], or a [display.both]`,
		`x.toml: missing required button left in [buttons]`,
		`x.toml: missing required button right in [buttons]`,
	})
}

func check(t *testing.T, p *profile.Profile, want []string) {
	t.Helper()
	err := CheckProfile(p)
	var errs profile.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("got %v", err)
	}
	if err.Error() != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

func TestCheckProfileBuiltins(t *testing.T) {
	for _, name := range profile.Names() {
		p, err := LookupProfile(name)
		if err != nil || p.Name != name {
			t.Errorf("%s: %v", name, err)
		}
	}
	both, err := profile.Parse("both.toml", []byte("[display.main]\ntype = \"sim-oled\"\nrole = \"both\"\n[buttons]\nleft = \"sim:a\"\nright = \"sim:b\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckProfile(both); err != nil {
		t.Errorf("one display for both sides: %v", err)
	}
}

// TestLookupProfile: a profile file is first the profile's (its format),
// then the clock's (its roles and levers); the errors name the file.
func TestLookupProfile(t *testing.T) {
	dir := t.TempDir()
	noLever := filepath.Join(dir, "nolever.toml")
	os.WriteFile(noLever, []byte(strings.Replace(twoOLEDs, `left = "GPIO17"`, "", 1)), 0o644)
	badType := filepath.Join(dir, "badtype.toml")
	os.WriteFile(badType, []byte(strings.Replace(twoOLEDs, `"sh1106"`, `"sh1107"`, 1)), 0o644)
	for _, tc := range []struct{ path, want string }{
		{noLever, noLever + ":13: missing required button left in [buttons]"},
		{badType, badType + `:8: display "right": unknown type "sh1107"`},
		{"/dev/zero", "profile: open /dev/zero: not a regular file (a character device)"},
	} {
		if _, err := LookupProfile(tc.path); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("LookupProfile(%s): %v\nwant %s", tc.path, err, tc.want)
		}
	}
}
