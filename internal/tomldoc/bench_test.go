package tomldoc

import (
	"errors"
	"strings"
	"testing"
)

// Documents that made the parser slow, each just under the 1 MiB that the
// clock's files may have: one long array on one line, and many dotted keys.
func longArray(n int) []byte {
	return []byte("x = [" + strings.Repeat("1,", n-1) + "1]\n")
}

func dottedKeys(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("game.k")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(itoa(i))
		b.WriteString(" = 1\n")
	}
	return []byte(b.String())
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// benchParse parses doc, which Parse refuses (over MaxValues) or not.
func benchParse(b *testing.B, doc []byte, refused bool) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(doc); (err != nil) != refused {
			b.Fatalf("Parse: %v, want refused %v", err, refused)
		}
	}
}

// Those documents, over MaxValues: refused. Before MaxValues and the
// linear column count, 500k elements took over 300 s.
func BenchmarkParseArray64k(b *testing.B)  { benchParse(b, longArray(64<<10), true) }
func BenchmarkParseArray500k(b *testing.B) { benchParse(b, longArray(500_000), true) }
func BenchmarkParseDotted60k(b *testing.B) { benchParse(b, dottedKeys(60_000), true) }

// The largest documents Parse takes: MaxValues elements on one line, or
// keys in one table.
func BenchmarkParseArrayMax(b *testing.B)  { benchParse(b, longArray(MaxValues-1), false) }
func BenchmarkParseDottedMax(b *testing.B) { benchParse(b, dottedKeys(MaxValues), false) }

func TestMaxValues(t *testing.T) {
	commas := strings.Repeat(",", MaxValues+1)
	for _, tc := range []struct {
		name, doc string
		refused   bool
	}{
		{"array at the bound", string(longArray(MaxValues - 1)), false},
		{"array past it", string(longArray(MaxValues)), true},
		{"half a million", string(longArray(500_000)), true},
		{"keys at the bound", string(dottedKeys(MaxValues)), false},
		{"keys past it", string(dottedKeys(MaxValues + 1)), true},
		{"commas in a basic string", "s = \"" + commas + "\"\n", false},
		{"in a literal string", "s = '" + commas + "'\n", false},
		{"in a multi-line string", "s = \"\"\"\n" + commas + "\\\"\"\"\"\"\"\nt = 1\n", false},
		{"in a multi-line literal", "s = '''" + commas + "''''\nt = 1\n", false},
		{"in a comment", "# " + commas + "\nt = 1\n", false},
		{"in a quoted key", "\"" + commas + "\" = 1\n", false},
		{"inline table keys", "u = [" + strings.Repeat("{a = 1},", MaxValues) + "]\n", true},
	} {
		_, err := Parse([]byte(tc.doc))
		var te *Error
		if tc.refused {
			if !errors.As(err, &te) || !strings.Contains(te.Msg, "not a configuration file") || te.Line < 1 {
				t.Errorf("%s: Parse: %v, want refused past %d values", tc.name, err, MaxValues)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Parse: %v", tc.name, err)
		}
	}
}
