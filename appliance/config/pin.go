package config

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
)

// PINLen is the length of the arbiter's PIN, in digits: entered on the
// clock with the menu buttons, a digit at a time (appliance/ui).
const PINLen = 4

// pinHashPrefix starts every PINHash.
const pinHashPrefix = "sha256:"

// CheckPIN reports whether pin is a PIN: PINLen decimal digits. The error
// never repeats pin.
func CheckPIN(pin string) error {
	if len(pin) != PINLen || strings.ContainsFunc(pin, func(r rune) bool { return r < '0' || r > '9' }) {
		return fmt.Errorf("a PIN is %d digits", PINLen)
	}
	return nil
}

// HashPIN returns what the clock keeps of a PIN: "sha256:" and the hex
// SHA-256 of "zeitnot-pin:" and the PIN. It keeps the PIN out of
// settings.toml, `zeitnot config show`, the logs and the status; it does
// not keep it from someone who holds the SD card and tries all 10,000
// PINs on a computer. The lock keeps players at the board out, not the
// owner of the card.
func HashPIN(pin string) string {
	sum := sha256.Sum256([]byte("zeitnot-pin:" + pin))
	return pinHashPrefix + hex.EncodeToString(sum[:])
}

// PINMatches reports whether pin is the PIN hash was made of, in time
// that does not depend on where they differ. No hash matches nothing.
func PINMatches(hash, pin string) bool {
	if hash == "" || CheckPIN(pin) != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(HashPIN(pin)), []byte(hash)) == 1
}

// validPINHash: "" (no PIN) or what HashPIN writes.
func validPINHash(s string) bool {
	if s == "" {
		return true
	}
	h, ok := strings.CutPrefix(s, pinHashPrefix)
	if !ok || len(h) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}
