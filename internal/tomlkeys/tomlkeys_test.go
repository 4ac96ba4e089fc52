package tomlkeys

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
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
	got := Lines(src)
	for k, line := range want {
		segs := strings.Split(k, ".")
		if k == "game.quoted.key" {
			segs = []string{"game", "quoted.key"}
		}
		for i, s := range segs {
			if strings.HasPrefix(s, "#") {
				segs[i] = Index(int(s[1] - '0'))
			}
		}
		if g, ok := got[Key(segs...)]; !ok || g != line {
			t.Errorf("%s: line %d (found %v), want %d", k, g, ok, line)
		}
	}
	for _, k := range []string{"one", "two", "a", "x"} {
		if l, ok := got[k]; ok {
			t.Errorf("%q is a value, recorded as a key on line %d", k, l)
		}
	}
}

func TestUnindexed(t *testing.T) {
	src := `# comment = 1
top = "a # not a comment"
multi = """
fake = 1
"""
lit = '''x
[fake]'''
arr = [
  1, # c
  [2, 3],
  { a = 1 },
]
"quoted.key" = 1
dotted . key = { x = 1, "y" = { z = 2 } }

[table . 'sub']
k = 'v'
[[arr_t]]
e = 1
[[arr_t]]
e = 2
`
	got := Unindexed(Lines(src))
	want := map[string]int{
		"top": 2, "multi": 3, "lit": 6, "arr": 8, "quoted.key": 13,
		"dotted\x00key": 14, "dotted\x00key\x00x": 14, "dotted\x00key\x00y": 14, "dotted\x00key\x00y\x00z": 14,
		"table\x00sub": 16, "table\x00sub\x00k": 17, "arr_t": 18, "arr_t\x00e": 19, "arr\x00a": 11,
	}
	for k, l := range want {
		if got[k] != l {
			t.Errorf("%q: line %d, want %d", k, got[k], l)
		}
	}
	// Anything else is the parent of a key above (dotted, table . 'sub'),
	// never text from a value.
	parent := map[string]bool{}
	for k := range want {
		for i := range len(k) {
			if k[i] == 0 {
				parent[k[:i]] = true
			}
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok && !parent[k] {
			t.Errorf("unexpected key %q at line %d", k, got[k])
		}
	}
}

// Lines must end and not panic on anything, TOML or not.
func TestLinesGarbage(t *testing.T) {
	for _, src := range garbage {
		Lines(src)
	}
}

var garbage = []string{
	"", "[", "[[", "[a", "a", "a =", "a = \"", "a = '''", `a = """\`, "a = [", "a = [[[[",
	"a = {", "a = { b", "a = { b = ", "a = {{", "\"", "'", "a.", "a.\"", "[a.\"b]\n", "a = [,]", "a = [}]",
	"a = \"\\u12\"", "a = \"\\U0000004", strings.Repeat("[", 10000), strings.Repeat("a = {", 500),
	"\x00\xff\xfe", "a = [\n{x=1}\n,\n]",
}

// FuzzLines checks that Lines ends without a panic on any input and records
// only lines inside it.
func FuzzLines(f *testing.F) {
	for _, src := range garbage {
		f.Add(src)
	}
	f.Add("[[a]]\nb = 1\n[a.c]\nd = [1, { e = 2 }]\n")
	f.Fuzz(func(t *testing.T, src string) {
		n := strings.Count(src, "\n") + 1
		for k, l := range Unindexed(Lines(src)) {
			if l < 1 || l > n {
				t.Fatalf("%q on line %d of %d", k, l, n)
			}
		}
	})
}
