package protocol

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A board signs each log line it publishes with its own Ed25519 key, so
// that the hall can tell the board's lines from lines anyone else
// publishes on its log topic (with the board's MQTT password, or on the
// hall's laptop). The signature is over SignedText: the hall, the board,
// the game, the seq and the line, so a signed line cannot be replayed as
// another seq, game, board or hall.

// KeyPrefix starts a public key as the online message and hall.toml write
// it: "ed25519:" and the 32 bytes in standard base64.
const KeyPrefix = "ed25519:"

// signContext separates the signed text of a log line from anything else
// an Ed25519 key might sign.
const signContext = "zeitnot/v1 log line"

// SignedText is what a log line's signature is over: the context, then
// hall, board, game and seq, each after a NUL, then a NUL and the line.
// Hall names and game ids have no NUL and the line comes last, so no two
// lines have the same text.
func SignedText(hall string, board int, game string, seq int64, line string) []byte {
	b := make([]byte, 0, len(signContext)+len(hall)+len(game)+len(line)+32)
	b = append(b, signContext...)
	b = append(b, 0)
	b = append(b, hall...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(board), 10)
	b = append(b, 0)
	b = append(b, game...)
	b = append(b, 0)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, 0)
	return append(b, line...)
}

// SignLine returns the log message's sig for line seq of board's game in
// hall: the Ed25519 signature of SignedText, in standard base64.
func SignLine(key ed25519.PrivateKey, hall string, board int, game string, seq int64, line string) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(key, SignedText(hall, board, game, seq, line)))
}

// ErrNoSig is VerifyLine's error for a line without a signature.
var ErrNoSig = errors.New("no signature")

// VerifyLine checks sig, a log message's sig, against the board's public
// key: nil if key signed line seq of board's game in hall.
func VerifyLine(key ed25519.PublicKey, hall string, board int, game string, seq int64, line, sig string) error {
	if sig == "" {
		return ErrNoSig
	}
	s, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(s) != ed25519.SignatureSize {
		return fmt.Errorf("sig: want %d bytes in base64", ed25519.SignatureSize)
	}
	if len(key) != ed25519.PublicKeySize {
		return errors.New("no valid public key to check the signature with")
	}
	if !ed25519.Verify(key, SignedText(hall, board, game, seq, line), s) {
		return errors.New("the signature does not verify with the board's key")
	}
	return nil
}

// FormatKey writes a public key as the online message carries it:
// "ed25519:" and the key in standard base64.
func FormatKey(key ed25519.PublicKey) string {
	return KeyPrefix + base64.StdEncoding.EncodeToString(key)
}

// ParseKey reads a public key FormatKey wrote.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b64, ok := strings.CutPrefix(s, KeyPrefix)
	if !ok {
		return nil, fmt.Errorf("key %q: want %q and the public key in base64", short(s), KeyPrefix)
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("key %q: want %d bytes in base64 after %q", short(s), ed25519.PublicKeySize, KeyPrefix)
	}
	return ed25519.PublicKey(b), nil
}

// KeyFingerprint is a short name of a public key for people to compare: the
// first 8 bytes of its SHA-256 in hex, in groups of four digits. The
// link logs it when it starts; the arbiter's page shows it.
func KeyFingerprint(key ed25519.PublicKey) string {
	sum := sha256.Sum256(key)
	h := hex.EncodeToString(sum[:8])
	return h[0:4] + " " + h[4:8] + " " + h[8:12] + " " + h[12:16]
}
