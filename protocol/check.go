package protocol

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the protocol.
const (
	// MaxBoard is the highest board number; boards count from 1.
	MaxBoard = 9999
	// MaxRound is the highest round number of a pairing.
	MaxRound = 999
	// MaxHall is the longest hall name, in bytes.
	MaxHall = 64
	// MaxGameID is the longest game id, in bytes.
	MaxGameID = 64
	// MaxName is the longest player name, in characters.
	MaxName = 64
	// MaxControl is the longest time control of next-game, in bytes.
	MaxControl = 100

	// MaxRequest is what the control socket reads of one request line,
	// without the newline (appliance/control reads at most 512 bytes).
	MaxRequest = 511
	// MaxLogLines and MaxLogBytes bound one "log GAME FROM" answer.
	MaxLogLines = 256
	MaxLogBytes = 64 << 10
	// MaxAnswer bounds what a client reads of any answer line.
	MaxAnswer = 1 << 20

	// MaxCommand is the largest command payload, in bytes.
	MaxCommand = 1024
	// MaxMessage is the largest state, online or reply message the hall
	// takes, in bytes.
	MaxMessage = 16 << 10
	// MaxLine is the longest journal line of a log message, in bytes.
	MaxLine = 1024
)

// bare reports whether c may be in a hall name or a game id: a letter, a
// digit, '-' or '_'.
func bare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func allBare(s string) bool {
	for i := 0; i < len(s); i++ {
		if !bare(s[i]) {
			return false
		}
	}
	return true
}

// CheckGame checks a game id: 1 to MaxGameID letters, digits, '-' or '_'.
func CheckGame(id string) error {
	if id == "" || len(id) > MaxGameID || !allBare(id) {
		return fmt.Errorf("game id %q: want 1 to %d letters, digits, '-' or '_'", short(id), MaxGameID)
	}
	return nil
}

// ValidGame reports whether id is a game id (CheckGame).
func ValidGame(id string) bool { return CheckGame(id) == nil }

// CheckHall checks a hall name: one MQTT topic level of 1 to MaxHall
// letters, digits, '-' and '_', so it can never widen a subscription.
func CheckHall(s string) error {
	if s == "" || len(s) > MaxHall || !allBare(s) {
		return fmt.Errorf("want 1 to %d letters, digits, '-' or '_' (it is an MQTT topic level), got %q", MaxHall, short(s))
	}
	return nil
}

// CheckBoard checks a board number: 1 to MaxBoard.
func CheckBoard(n int) error {
	if n < 1 || n > MaxBoard {
		return fmt.Errorf("board %d: want 1 to %d", n, MaxBoard)
	}
	return nil
}

// CheckName checks a player's name: UTF-8, at most MaxName characters,
// no control characters. "" is no name.
func CheckName(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("name %q is not UTF-8", short(s))
	}
	if n := utf8.RuneCountInString(s); n > MaxName {
		return fmt.Errorf("name of %d characters, at most %d", n, MaxName)
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return fmt.Errorf("control characters in name %q", short(s))
	}
	return nil
}

// short cuts s for an error message.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
