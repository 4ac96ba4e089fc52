package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// LogMsg is the payload of the log topic: one line of the game's journal.
type LogMsg struct {
	Game string `json:"game"`
	Seq  int64  `json:"seq"` // from 1 within the game, no gaps
	Line string `json:"line"`
	// Sig is the board's signature of the line (SignLine); "" from a
	// clock that does not sign.
	Sig string `json:"sig,omitempty"`
}

// ParseLogMsg reads one log message and checks its form: a game id, a seq
// from 1, a line of at most MaxLine bytes of UTF-8 without line breaks.
// Whether the line belongs where it says is the reader's to judge (see
// hall/store).
func ParseLogMsg(payload []byte) (LogMsg, error) {
	var m LogMsg
	if err := Strict(payload, &m); err != nil {
		return m, err
	}
	if err := CheckGame(m.Game); err != nil {
		return m, err
	}
	switch {
	case m.Seq < 1:
		return m, fmt.Errorf("seq %d: want a line number from 1", m.Seq)
	case len(m.Line) > MaxLine:
		return m, fmt.Errorf("line %d of %d bytes, at most %d", m.Seq, len(m.Line), MaxLine)
	case strings.ContainsAny(m.Line, "\n\r") || !utf8.ValidString(m.Line):
		return m, fmt.Errorf("line %d: a line break or not UTF-8", m.Seq)
	}
	return m, nil
}

// OnlineMsg is the payload of the retained online topic; the will is
// {"online":false}.
type OnlineMsg struct {
	Online bool `json:"online"`
	// Clock says whether the link reaches the clock's daemon.
	Clock bool `json:"clock,omitempty"`
	// Log is "ok", or why the log topic gets no lines.
	Log     string `json:"log,omitempty"`
	Version string `json:"version,omitempty"`
	Since   int64  `json:"since,omitempty"`  // Unix ms the link started
	Reason  string `json:"reason,omitempty"` // with online false: "stopped" when the link was stopped
	// Key is the public key the board signs its log lines with
	// (FormatKey); "" from a clock that does not sign.
	Key string `json:"key,omitempty"`
}

// Reply is the answer to one command, published on the board's reply
// topic.
type Reply struct {
	ID     string `json:"id,omitempty"`
	Cmd    string `json:"cmd,omitempty"`
	Board  int    `json:"board"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"` // what the clock said, when it said more than ok
	Error  string `json:"error,omitempty"`  // why the command was refused
}

// Strict decodes one JSON object into v, with nothing after it. Unknown
// fields are allowed: a later version 1 may add fields.
func Strict(payload []byte, v any) error {
	if t := bytes.TrimSpace(payload); len(t) == 0 || t[0] != '{' {
		return errors.New("want a JSON object")
	}
	d := json.NewDecoder(bytes.NewReader(payload))
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("not the message's JSON: %v", trimJSON(err))
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

func trimJSON(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("unexpected end")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}
