package config

import (
	"strings"
	"testing"
)

func TestKeyLines(t *testing.T) {
	src := `# comment
profile = "sim" # trailing

[game]
control = "300" 
"quoted.key" = 1
a.b.c = 2

[display] # comment
  brightness = 3
multi = """
one
two"""
after_multi = 'x'
lit = '''
a
'''
after_lit = [
  1, # one
  { x = 1 },
  [2, 3],
]
after_array = { k1 = 1, k2 = { k3 = "}" } }

[[preset]]
name = "a"
[[preset]]

name = "b"
[preset.sub]
x = 1
[ "spaced table" . 'lit' ]
y = 1
esc = "a\"b"
"\u0041" = 1
`
	want := map[string]int{
		"profile":                   2,
		"game":                      4,
		"game.control":              5,
		"game.quoted.key":           6, // one segment, "quoted.key"
		"game.a":                    7,
		"game.a.b.c":                7,
		"display":                   9,
		"display.brightness":        10,
		"display.multi":             11,
		"display.after_multi":       14,
		"display.lit":               15,
		"display.after_lit":         18,
		"display.after_lit.#1":      20,
		"display.after_lit.#1.x":    20,
		"display.after_array":       23,
		"display.after_array.k2.k3": 23,
		"preset":                    25,
		"preset.#0.name":            26,
		"preset.#1":                 27,
		"preset.#1.name":            29,
		"preset.#1.sub.x":           31,
		"spaced table.lit.y":        33,
		"spaced table.lit.esc":      34,
		"spaced table.lit.A":        35,
	}
	got := keyLines(src)
	for k, line := range want {
		segs := strings.Split(k, ".")
		if k == "game.quoted.key" {
			segs = []string{"game", "quoted.key"}
		}
		for i, s := range segs {
			if strings.HasPrefix(s, "#") {
				segs[i] = index(int(s[1] - '0'))
			}
		}
		if g, ok := got[pathKey(segs...)]; !ok || g != line {
			t.Errorf("%s: line %d (found %v), want %d", k, g, ok, line)
		}
	}
	for _, k := range []string{"one", "two", "a", "x"} {
		if l, ok := got[k]; ok {
			t.Errorf("%q is a value, recorded as a key on line %d", k, l)
		}
	}
}

// keyLines must end and not panic on anything, TOML or not.
func TestKeyLinesGarbage(t *testing.T) {
	for _, src := range []string{
		"", "[", "[[", "[a", "a", "a =", "a = \"", "a = '''", `a = """\`, "a = [", "a = [[[[",
		"a = {", "a = { b", "a = { b = ", "a = {{", "\"", "'", "a.", "a.\"", "[a.\"b]\n", "a = [,]", "a = [}]",
		"a = \"\\u12\"", "a = \"\\U0000004", strings.Repeat("[", 10000), strings.Repeat("a = {", 500),
		"\x00\xff\xfe", "a = [\n{x=1}\n,\n]",
	} {
		keyLines(src)
	}
}
