package tomldoc

import (
	"errors"
	"strconv"
	"strings"
)

// FileError is one problem of a TOML file, at its line and key:
// "FILE:LINE: KEY: MSG", or "FILE:LINE:COL: MSG" for a document that is
// not TOML. Every table of the clock's files and of the hall's hall.toml
// reports its problems as FileErrors (see Schema).
type FileError struct {
	File string
	Line int    // from 1; 0 for the whole file
	Col  int    // from 1, for a document that is not TOML; else 0
	Key  string // "hall.board"; "" for the whole file or a syntax error
	Msg  string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ParseFile is Parse for the file named name: a document that is not TOML
// comes back as a *FileError at its line and column.
func ParseFile(name string, data []byte) (*Doc, *FileError) {
	doc, err := Parse(data)
	if err != nil {
		e := &FileError{File: name, Line: 1, Msg: err.Error()}
		var te *Error
		if errors.As(err, &te) {
			e.Line, e.Col, e.Msg = te.Line, te.Col, te.Msg
		}
		return nil, e
	}
	return doc, nil
}
