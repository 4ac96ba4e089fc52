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
	// Round and Board are the pairing the game was opened for, from
	// the last "# BY: round R board K: players ..."; 0 when none.
	Round, Board int
}

// IDNote starts the comment that names the game: "game 0017-3fa2c1".
const IDNote = "game "

// PlayersNote is the comment of names set for the game by BY (the hall,
// the menu): "hall: players white "Carlsen, Magnus", black "Caruana,
// Fabiano"".
func PlayersNote(by, white, black string) string {
	return fmt.Sprintf("%s: players white %q, black %q", by, white, black)
}

// PairingNote is the comment of a round's pairing, journaled in the new
// game the clock opened for it: "hall: round 2 board 5: players white
// "Carlsen, Magnus", black "Caruana, Fabiano"".
func PairingNote(by string, round, board int, white, black string) string {
	return fmt.Sprintf("%s: round %d board %d: players white %q, black %q", by, round, board, white, black)
}

// ParsePairing reads the round and board of a comment's text (without
// "# " and checksum) that PairingNote wrote; ok is false for any other.
func ParsePairing(text string) (round, board int, ok bool) {
	_, rest, found := strings.Cut(text, ": round ")
	if !found {
		return 0, 0, false
	}
	rest, _, found = strings.Cut(rest, ": players white ")
	if !found {
		return 0, 0, false
	}
	rs, bs, found := strings.Cut(rest, " board ")
	if !found {
		return 0, 0, false
	}
	r, err1 := strconv.Atoi(rs)
	b, err2 := strconv.Atoi(bs)
	if err1 != nil || err2 != nil || r < 1 || b < 1 {
		return 0, 0, false
	}
	return r, b, true
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
			if r, k, ok := ParsePairing(text); ok {
				n.Round, n.Board = r, k
			}
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
