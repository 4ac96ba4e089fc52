package tomldoc

import (
	"errors"
	"strconv"
	"strings"
)

// FileError is one problem of a TOML file, at its line and key:
// "FILE:LINE: KEY: MSG". The [hall] and [network] tables of zeitnot.toml
// and the hall server's hall.toml report their problems as FileErrors.
type FileError struct {
	File string
	Line int    // from 1; 0 for the whole file
	Key  string // "hall.board"; "" for the whole file or a syntax error
	Msg  string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ParseFile is Parse for the file named name: a syntax error comes back as
// a *FileError at its line.
func ParseFile(name string, data []byte) (*Doc, *FileError) {
	doc, err := Parse(data)
	if err != nil {
		e := &FileError{File: name, Line: 1, Msg: err.Error()}
		var te *Error
		if errors.As(err, &te) {
			e.Line, e.Msg = te.Line, te.Msg
		}
		return nil, e
	}
	return doc, nil
}
