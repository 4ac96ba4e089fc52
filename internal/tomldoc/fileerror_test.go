package tomldoc

import "testing"

func TestFileError(t *testing.T) {
	for _, tt := range []struct {
		e    FileError
		want string
	}{
		{FileError{File: "z.toml", Line: 3, Key: "hall.board", Msg: "want a number"}, "z.toml:3: hall.board: want a number"},
		{FileError{File: "z.toml", Msg: "cannot read: permission denied"}, "z.toml: cannot read: permission denied"},
		{FileError{File: "z.toml", Line: 2, Msg: "bad syntax"}, "z.toml:2: bad syntax"},
		{FileError{File: "z.toml", Line: 2, Col: 5, Msg: "expected a value"}, "z.toml:2:5: expected a value"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestParseFileSyntaxLine(t *testing.T) {
	_, e := ParseFile("z.toml", []byte("a = 1\n\nb = = 2\n"))
	if e == nil || e.File != "z.toml" || e.Line != 3 || e.Col != 5 {
		t.Fatalf("got %+v, want an error at z.toml:3", e)
	}
	if doc, e := ParseFile("z.toml", []byte("a = 1\n")); e != nil || doc.Line("a") != 1 {
		t.Fatalf("good file: %v", e)
	}
}
