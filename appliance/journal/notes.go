package journal

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Notes are what a game's journal says of it in its comment lines, beside
// the clock log: its id and the players' names, for its PGN.
type Notes struct {
	ID           string // from the first "# game ID"
	White, Black string // from the last "# BY: players white "W", black "B""
}

// IDNote starts the comment that names the game: "game 0017-3fa2c1".
const IDNote = "game "

// PlayersNote is the comment of names set for the game by BY (the hall,
// the menu): "hall: players white "Carlsen, Magnus", black "Caruana,
// Fabiano"".
func PlayersNote(by, white, black string) string {
	return fmt.Sprintf("%s: players white %q, black %q", by, white, black)
}

// ReadNotes reads the notes of a journal (or an archived game's log):
// format 1 or 2 comment lines, a checksum not checked (the notes name, and
// change no time).
func ReadNotes(data []byte) Notes {
	var n Notes
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<10)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		text, ok := strings.CutPrefix(line, "# ")
		if !ok {
			continue
		}
		// Format 2: " *CCCCCCCC" at the end.
		if i := len(text) - 10; i >= 0 && text[i] == ' ' && text[i+1] == '*' {
			text = text[:i]
		}
		if id, ok := strings.CutPrefix(text, IDNote); ok && n.ID == "" && !strings.Contains(id, " ") {
			n.ID = id
			continue
		}
		if _, rest, ok := strings.Cut(text, ": players white "); ok {
			w, tail, err := unquotePrefix(rest)
			if err != nil {
				continue
			}
			tail, ok := strings.CutPrefix(tail, ", black ")
			if !ok {
				continue
			}
			b, tail, err := unquotePrefix(tail)
			if err != nil || tail != "" {
				continue
			}
			n.White, n.Black = w, b
		}
	}
	return n
}

// unquotePrefix reads the Go-quoted string s starts with.
func unquotePrefix(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err
}
