package tomldoc

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// rec is what the test schema reads.
type rec struct {
	Name  string
	N     int64
	On    bool
	Mode  string
	Path  string
	Hosts []string
	Pass  string
	Sub   struct{ X int64 }
	Users map[string]int64
	F     float64
	Any   int64
}

var subSchema = &Schema[struct{ X int64 }]{Fields: []Field[struct{ X int64 }]{
	IntField("x", 0, 9, func(s *struct{ X int64 }, n int64) { s.X = n }).Documented("a digit", "`0`"),
}}

var testSchema = &Schema[rec]{
	Fields: []Field[rec]{
		StringField("name", func(s string) error {
			if s == "bad" {
				return errors.New("not bad, please")
			}
			return nil
		}, func(r *rec, s string) { r.Name = s }).Needed("the record's name").Documented("the name", "required"),
		IntField("n", 1, 9999, func(r *rec, n int64) { r.N = n }).Documented("a number", "`1`"),
		BoolField("on", func(r *rec, b bool) { r.On = b }),
		WordField("mode", []string{"left", "right"}, func(r *rec, w string) { r.Mode = w }),
		FileField("path", func(r *rec, p string) { r.Path = p }),
		ListField("hosts", 3, nil, func(r *rec, items []Item) {
			for _, it := range items {
				r.Hosts = append(r.Hosts, it.S)
			}
		}),
		SecretField("pass", func(s string) error {
			if len(s) < 8 {
				return errors.New("want at least 8 characters")
			}
			return nil
		}, func(r *rec, s string) { r.Pass = s }),
		TableField("sub", subSchema, func(r *rec) *struct{ X int64 } { return &r.Sub }).Documented("a table", ""),
		NamesField("users", "a table [users]: name = number", func(d *Decoder, r *rec, name string, v *Value, path Key) {
			n, ok := v.V.(int64)
			if !ok {
				d.Wrong(v, path, "a whole number")
				return
			}
			if r.Users == nil {
				r.Users = map[string]int64{}
			}
			r.Users[name] = n
		}),
		FloatField("f", func(r *rec, f float64) { r.F = f }),
		IntField("any", math.MinInt64, math.MaxInt64, func(r *rec, n int64) { r.Any = n }),
		RetiredField[rec]("combination", "no longer used; remove it"),
	},
	Others: []string{"theirs"},
	Check: func(d *Decoder, r *rec, t *Tab, path Key) {
		if r.On && r.Mode == "" {
			d.Errorf(t.Get("on").Line, append(path, "on"), "needs mode")
		}
	},
}

func decodeRec(t testing.TB, src string) (rec, []error) {
	t.Helper()
	var r rec
	d, e := NewDecoder("t.toml", []byte(src))
	if e != nil {
		return r, []error{e}
	}
	d.Dir = "/etc"
	testSchema.Decode(d, &r)
	return r, d.Errors()
}

func TestSchemaGood(t *testing.T) {
	r, errs := decodeRec(t, `name = "a"
n = 12
on = true
mode = "left"
path = "x.pem"
hosts = ["a", "b"]
pass = "12345678"
f = 2
any = -9223372036854775808
theirs = { anything = [1, "x"] }
[sub]
x = 3
[users]
ann = 1
bob = 2
`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if r.Name != "a" || r.N != 12 || !r.On || r.Mode != "left" || r.Path != "/etc/x.pem" || strings.Join(r.Hosts, ",") != "a,b" ||
		r.Pass != "12345678" || r.F != 2 || r.Any != math.MinInt64 || r.Sub.X != 3 || r.Users["ann"] != 1 || r.Users["bob"] != 2 {
		t.Errorf("got %+v", r)
	}
	// A single string is a list of one.
	r, errs = decodeRec(t, "name = \"a\"\nhosts = \"h\"\n")
	if len(errs) > 0 || len(r.Hosts) != 1 || r.Hosts[0] != "h" {
		t.Errorf("hosts = \"h\": %+v %v", r.Hosts, errs)
	}
}

func TestSchemaErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string // every error, in order
	}{
		{"wrong type", "name = 1\n", []string{`t.toml:1: name: want a string, got 1`}},
		{"range low", "name = \"a\"\nn = 0\n", []string{`t.toml:2: n: want a whole number from 1 to 9999, got 0`}},
		{"range high", "name = \"a\"\n\nn = 10000\n", []string{`t.toml:3: n: want a whole number from 1 to 9999, got 10000`}},
		{"float for int", "name = \"a\"\nn = 1.5\n", []string{`t.toml:2: n: want a whole number from 1 to 9999, got 1.5`}},
		{"bool", "name = \"a\"\non = \"yes\"\nmode = \"left\"\n", []string{`t.toml:2: on: want true or false, got "yes"`}},
		{"word", "name = \"a\"\nmode = \"up\"\n", []string{`t.toml:2: mode: want "left" or "right", got "up"`}},
		{"check", "name = \"bad\"\n", []string{`t.toml:1: name: not bad, please`}},
		{"control character", "name = \"a\\u0007b\"\n", []string{`t.toml:1: name: control characters or invalid UTF-8 in "a\ab"`}},
		{"missing", "n = 2\n", []string{`t.toml:1: name: missing: the record's name`}},
		{"unknown with suggestion", "name = \"a\"\nnam = \"b\"\n", []string{`t.toml:2: nam: unknown key (did you mean name?)`}},
		{"unknown without", "name = \"a\"\nzzzzzz = 1\n", []string{`t.toml:2: zzzzzz: unknown key; the file has name, n, on, mode, path, hosts, pass, sub, users, f, any`}},
		{"unknown in a sub-table", "name = \"a\"\n[sub]\ny = 1\n", []string{`t.toml:3: sub.y: unknown key (did you mean x?)`}},
		{"unknown far in a sub-table", "name = \"a\"\n[sub]\nlong_name = 1\n", []string{`t.toml:3: sub.long_name: unknown key; [sub] has x`}},
		{"unknown table", "name = \"a\"\n[subb]\n", []string{`t.toml:2: subb: unknown table (did you mean sub?)`}},
		{"sub range", "name = \"a\"\n[sub]\nx = 10\n", []string{`t.toml:3: sub.x: want a whole number from 0 to 9, got 10`}},
		{"sub not a table", "name = \"a\"\nsub = 3\n", []string{`t.toml:2: sub: want a table [sub], got 3`}},
		{"sub an array of tables", "name = \"a\"\n[[sub]]\nx = 1\n", []string{`t.toml:2: sub: want a table [sub], got an array`}},
		{"file empty", "name = \"a\"\npath = \"\"\n", []string{`t.toml:2: path: want a file name, got an empty string`}},
		{"list too long", "name = \"a\"\nhosts = [\"a\", \"b\", \"c\", \"d\"]\n", []string{`t.toml:2: hosts: want 1 to 3 entries, got 4 (leave hosts out for none)`}},
		{"list twice", "name = \"a\"\nhosts = [\n\"a\",\n\"A\"]\n", []string{`t.toml:4: hosts: "A" is there twice`}},
		{"list element", "name = \"a\"\nhosts = [\n1]\n", []string{`t.toml:3: hosts: want a string, got 1`}},
		{"secret kept out", "name = \"a\"\npass = \"short\"\n", []string{`t.toml:2: pass: want at least 8 characters`}},
		{"secret wrong kind", "name = \"a\"\npass = 1234567890\n", []string{`t.toml:2: pass: want a string, got a number`}},
		{"names entry", "name = \"a\"\n[users]\nann = \"x\"\n", []string{`t.toml:3: users.ann: want a whole number, got "x"`}},
		{"names not a table", "name = \"a\"\nusers = 1\n", []string{`t.toml:2: users: want a table [users]: name = number, got 1`}},
		{"retired", "name = \"a\"\ncombination = 1\n", []string{`t.toml:2: combination: no longer used; remove it`}},
		{"check across keys", "name = \"a\"\non = true\n", []string{`t.toml:2: on: needs mode`}},
		{"unreadable value", "name = \"a\"\nn = 99999999999999999999\n", []string{`t.toml:2: n: want a whole number from 1 to 9999, got 99999999999999999999`}},
		{"unreadable date in a list", "name = \"a\"\nhosts = [\"a\", 2023-02-30]\n", []string{`t.toml:2: hosts: want a string, got 2023-02-30`}},
		{"another's table", "name = \"a\"\n[theirs]\nx = 1\n", nil},
		{"another's table as a key", "name = \"a\"\ntheirs = 1\n", []string{`t.toml:2: theirs: unknown key; the file has name`}},
		{"duplicate key", "name = \"a\"\nn = 1\nn = 2\n", []string{`t.toml:3:1: `}},
		{"not TOML", "name = \"a\"\nn = = 2\n", []string{`t.toml:2:5: `}},
		{"float", "name = \"a\"\nf = \"1\"\n", []string{`t.toml:2: f: want a number, got "1"`}},
		{"any whole number", "name = \"a\"\nany = 1.5\n", []string{`t.toml:2: any: want a whole number, got 1.5`}},
		{"by line", "n = 0\nname = 1\n", []string{`t.toml:1: n: want a whole number from 1 to 9999, got 0`, `t.toml:2: name: want a string, got 1`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := decodeRec(t, tt.src)
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors %q, want %q", len(errs), errs, tt.want)
			}
			for i, err := range errs {
				var fe *FileError
				if !errors.As(err, &fe) {
					t.Fatalf("%T %v is not a *FileError", err, err)
				}
				if !strings.HasPrefix(err.Error(), tt.want[i]) {
					t.Errorf("got %q, want %q", err, tt.want[i])
				}
			}
		})
	}
}

func TestSchemaKeysAndRows(t *testing.T) {
	if got := strings.Join(testSchema.Keys(), ","); got != "name,n,on,mode,path,hosts,pass,sub,users,f,any" {
		t.Errorf("Keys: %s", got)
	}
	want := "| `name` | the name | required |\n| `n` | a number | `1` |\n| **`[sub]`** | a table | |\n| `x` | a digit | `0` |"
	if got := strings.Join(testSchema.Rows(nil), "\n"); got != want {
		t.Errorf("Rows:\n%s\nwant\n%s", got, want)
	}
}

// FuzzSchema: the decoder never panics, and every problem of any input is
// a *FileError naming the file and a line of the input.
func FuzzSchema(f *testing.F) {
	for _, s := range []string{
		"name = \"a\"\nn = 12\n[sub]\nx = 3\n",
		"hosts = [\"a\", 1, \"A\"]\n[users]\nann = 1\nbob = {}\n",
		"sub = [1]\nusers.ann = 2\npass = 'x'\npath = ''\n",
		"[[sub]]\n[[users]]\nn = 1e999\non = 2023-02-30\n",
		"theirs = 1\ncombination = [[]]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, errs := decodeRec(t, string(data))
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, err := range errs {
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != "t.toml" || fe.Line < 1 || fe.Line > lines {
				t.Fatalf("%q: %T %v is not a *FileError at a line of the input (1 to %d)", data, err, err, lines)
			}
		}
		if len(errs) == 0 && r.Name == "" {
			t.Fatalf("%q: no name and no error", data)
		}
	})
}
