package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Fingerprint is the SHA-256 of a certificate (its DER bytes): what a
// clock's [hall] fingerprint pins and what the hall shows of its CA, so
// that a person can compare the two.
type Fingerprint [sha256.Size]byte

// FingerprintOf is the fingerprint of a certificate's DER bytes.
func FingerprintOf(der []byte) Fingerprint { return sha256.Sum256(der) }

// String writes f as "sha256:" and 32 pairs of upper-case hex digits
// joined by colons, as openssl x509 -fingerprint -sha256 does.
func (f Fingerprint) String() string {
	var b strings.Builder
	b.WriteString("sha256:")
	for i, c := range f {
		if i > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%02X", c)
	}
	return b.String()
}

// ParseFingerprint reads a fingerprint as String writes it; the colons
// may be left out, spaces are ignored, and the digits may be in either
// case, so that one copied from openssl or typed in groups is taken.
func ParseFingerprint(s string) (Fingerprint, error) {
	var f Fingerprint
	h, ok := strings.CutPrefix(strings.TrimSpace(s), "sha256:")
	if !ok {
		return f, fmt.Errorf("want sha256: and 64 hex digits (sha256:AB:CD:...), got %q", s)
	}
	h = strings.NewReplacer(":", "", " ", "").Replace(h)
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(f) {
		return f, fmt.Errorf("want sha256: and 64 hex digits (sha256:AB:CD:...), got %q", s)
	}
	copy(f[:], b)
	return f, nil
}
