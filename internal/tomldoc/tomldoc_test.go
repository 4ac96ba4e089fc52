package tomldoc

import (
	"bytes"
	"math"
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
"\u0041" = 1
`
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
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
		"display.after_lit":         15,
		"display.after_lit.x":       17,
		"display.after_array":       20,
		"display.after_array.k2.k3": 20,
		"preset":                    22,
		"preset.name":               23,
		"preset.sub":                27,
		"preset.sub.x":              28,
		"spaced table.lit":          29,
		"spaced table.lit.A":        30,
	}
	for k, line := range want {
		path := strings.Split(k, ".")
		if k == "game.quoted.key" {
			path = []string{"game", "quoted.key"}
		}
		if k == "spaced table.lit.A" || k == "spaced table.lit" {
			path = append([]string{"spaced table"}, path[1:]...)
		}
		if got := doc.Line(path...); got != line {
			t.Errorf("%s: line %d, want %d", k, got, line)
		}
	}
	for _, k := range []string{"one", "two", "a", "x", "k1"} {
		if doc.IsDefined(k) {
			t.Errorf("%q is not a top-level key", k)
		}
	}
	// The tree has each value where it was written.
	presets := doc.Root.Values["preset"]
	if !presets.ArrayOfTables || len(presets.Array()) != 2 || presets.Array()[1].Line != 24 {
		t.Fatalf("preset: %+v", presets)
	}
	second := presets.Array()[1].Table()
	if n := second.Values["name"]; n.V != "b" || n.Line != 26 || n.Col != 1 {
		t.Errorf("second name: %+v", n)
	}
	if x := second.Values["sub"].Table().Values["x"]; x.V != int64(1) || x.Line != 28 {
		t.Errorf("sub.x: %+v", x)
	}
	arr := doc.Root.Values["display"].Table().Values["after_lit"].Array()
	if len(arr) != 3 || arr[0].Line != 16 || arr[1].Line != 17 || arr[2].Line != 18 || arr[2].Kind != Array {
		t.Errorf("array elements: %+v %+v %+v", arr[0], arr[1], arr[2])
	}
	var keys []string
	for _, k := range doc.Keys()[:6] {
		keys = append(keys, k.String())
	}
	if strings.Join(keys, " ") != `profile game game.control game."quoted.key" game.a.b.c display` {
		t.Errorf("keys in order: %q", keys)
	}
}

func TestValues(t *testing.T) {
	doc, err := Parse([]byte("s = 'lit'\nb = \"\\u00e9\"\ni = 0x1F\nj = -1_000\nf = 6.5e-1\ninf = -inf\nd = 1979-05-27\nt = 07:32:00\nok = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Root.Values
	if v["s"].V != "lit" || v["b"].V != "é" || v["i"].V != int64(31) || v["j"].V != int64(-1000) || v["f"].V != 0.65 || v["ok"].V != true {
		t.Errorf("values: s %v b %v i %v/%v j %v f %v ok %v", v["s"].V, v["b"].V, v["i"].V, v["i"].Err, v["j"].V, v["f"].V, v["ok"].V)
	}
	if f, _ := v["inf"].V.(float64); !math.IsInf(f, -1) {
		t.Errorf("-inf: %v", v["inf"].V)
	}
	if v["d"].Kind != Datetime || v["t"].Kind != Datetime || v["d"].V == nil {
		t.Errorf("dates: %+v %+v", v["d"], v["t"])
	}
	if v["j"].Raw != "-1_000" {
		t.Errorf("raw %q", v["j"].Raw)
	}
}

// A value that is well-formed but cannot be held is the problem of that
// value alone.
func TestValueErrors(t *testing.T) {
	doc, err := Parse([]byte("a = 99999999999999999999\nb = 2\nc = 2023-02-30\nd = 0x7FFFFFFFFFFFFFFF\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Root.Values
	if v["a"].Err == nil || v["a"].V != nil || v["a"].Kind != Integer || v["a"].Raw != "99999999999999999999" || v["a"].Line != 1 {
		t.Errorf("a: %+v", v["a"])
	}
	if v["b"].V != int64(2) || v["c"].Err == nil || v["d"].V != int64(math.MaxInt64) {
		t.Errorf("b %+v c %+v d %+v", v["b"], v["c"], v["d"])
	}
}

func TestNotTOML(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"[display]\nbrightness = 10\nwhite = \"left\n", 3, 14, "basic strings cannot have new lines"},
		{"[display\n", 1, 9, "expected ']' to close table name"},
		{"\n\nlock = {\n", 4, 1, "inline table is incomplete"},
		{"x = \"\x00\"", 1, 6, "control characters"},
		{"a = 1\na = 2\n", 2, 1, "key a is already defined"},
		{"[t]\nx = 1\n[t]\n", 3, 2, "table t already exists"},
		{"[a.b]\n[a]\n[a]\n", 3, 2, "table a already exists"},
		{"a = {x = 1}\na.y = 2\n", 2, 1, "key a is already defined"},
		{"a = {x = 1}\n[a.z]\n", 2, 2, "key a already exists as a value"},
		{"a = [1]\n[[a]]\n", 2, 3, "key a already exists as a value"},
		{"[[a]]\n[a]\n", 2, 2, "table a already exists as an array of tables"},
		{"[a]\n[[a]]\n", 2, 3, "key a already exists as a table"},
		{"[fruit]\napple.color = 1\n[fruit.apple]\n", 3, 2, "table apple already exists"},
		{"[a.b]\n[a]\nb.c = 1\n", 3, 1, "key b is already defined"},
		{"a = 1\na.b = 2\n", 2, 1, "key a is already defined"},
		{"é = 1", 1, 1, "invalid character at start of key"},
		{"a = 1 # ok\n\tb =", 2, 5, "expected value"},
		{"a = [\n", 2, 1, "array is incomplete"},
		{"a = 99999999999999999999\na = 1\n", 2, 1, "key a is already defined"}, // a bad value is still a key
		{"a = [1979-02-30, 2]\nb = \"\n", 2, 6, "basic strings cannot have new lines"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.src))
		e, ok := err.(*Error)
		if !ok || e.Line != tt.line || e.Col != tt.col || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("%q: %v, want %d:%d: ...%s...", tt.src, err, tt.line, tt.col, tt.msg)
		}
	}
}

// What TOML allows about tables.
func TestTables(t *testing.T) {
	for _, src := range []string{
		"[a.b]\n[a]\nx = 1\n",                               // a implicit, then defined
		"[fruit]\napple.color = 1\n[fruit.apple.texture]\n", // a sub-table of a dotted one
		"[[a]]\nx = 1\n[a.b]\ny = 2\n[[a]]\nx = 2\n",        // a sub-table of the last element
		"a = {b.c = 1, b.d = 2}\n",                          // dotted keys within an inline table
		"a.b = 1\na.c = 2\n",
		"p = [{x = 1}, {x = 2}]\n",
	} {
		if _, err := Parse([]byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	doc, _ := Parse([]byte("[[a]]\nx = 1\n[a.b]\ny = 2\n[[a]]\nx = 2\n"))
	a := doc.Root.Values["a"].Array()
	if len(a) != 2 || a[0].Table().Values["b"] == nil || a[1].Table().Values["b"] != nil {
		t.Errorf("[a.b] went into the wrong element: %+v", a)
	}
}

// Files saved by some editors start with a byte order mark.
func TestByteOrderMark(t *testing.T) {
	doc, err := Parse([]byte("\ufeffa = 1\r\n[t]\r\nb = 2\r\n"))
	if err != nil || doc.Root.Values["a"].V != int64(1) || doc.Line("t", "b") != 3 {
		t.Fatalf("%v", err)
	}
	if _, err := Parse([]byte("\ufeffa = ?")); err == nil || err.(*Error).Col != 5 {
		t.Errorf("column after the mark: %v", err)
	}
}

func TestKeyString(t *testing.T) {
	if s := (Key{"a", "b c", "", "d-_9"}).String(); s != `a."b c"."".d-_9` {
		t.Errorf("%s", s)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("a = 1\n[b]\nc.d = [1, {e = 2}]\n[[f]]\ng = 1979-05-27\n"))
	f.Add([]byte("\n\nlock = {\n"))
	f.Add([]byte("x = 99999999999999999999"))
	for _, seed := range []string{
		"[a]\nb.c = 1\n[a.b.d]\n", "a.b.c = 1\n[a.b.x]\n", "[[a]]\n[a.b]\n[[a.b.c]]\n[[a]]\n",
		"a = [{b = 1}]\n[[a]]\n", "[a.b]\n[a]\n[a.c]\n", "a = {b.c = 1}\n[a.b]\n", "[x]\ny = {z = [1, {w = 2}]}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Line < 1 || e.Line > lines || e.Col < 1 || doc != nil {
				t.Fatalf("%T %v (%d lines)", err, err, lines)
			}
			if strings.Contains(e.Msg, "cannot be defined here") {
				t.Fatalf("go-toml accepts what the tree cannot hold: %v", err)
			}
			return
		}
		var walk func(tab *Tab)
		check := func(v *Value) {
			if v.Line < 1 || v.Line > lines || v.Col < 1 {
				t.Fatalf("value at %d:%d of %d lines", v.Line, v.Col, lines)
			}
			if (v.V == nil) == (v.Err == nil) {
				t.Fatalf("value %+v: want V or Err", v)
			}
		}
		var walkValue func(v *Value)
		walkValue = func(v *Value) {
			check(v)
			for _, e := range v.Array() {
				walkValue(e)
			}
			if tab := v.Table(); tab != nil {
				walk(tab)
			}
		}
		walk = func(tab *Tab) {
			if len(tab.Keys) != len(tab.Values) {
				t.Fatalf("keys %q, values %d", tab.Keys, len(tab.Values))
			}
			for _, k := range tab.Keys {
				walkValue(tab.Values[k])
			}
		}
		walk(doc.Root)
		for _, k := range doc.Keys() {
			if l := doc.Line(k...); l < 1 || l > lines {
				t.Fatalf("key %s at line %d of %d", k, l, lines)
			}
		}
	})
}
