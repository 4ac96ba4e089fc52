package protocol

import (
	"crypto/ed25519"
	"strings"
	"testing"
)

func TestSignLine(t *testing.T) {
	seed := make([]byte, ed25519.SeedSize)
	key := ed25519.NewKeyFromSeed(seed)
	pub := key.Public().(ed25519.PublicKey)
	other := ed25519.NewKeyFromSeed(append(make([]byte, ed25519.SeedSize-1), 1)).Public().(ed25519.PublicKey)
	line := "4000 press white *5a0bcfa9"
	sig := SignLine(key, "club", 5, "0017", 7, line)
	tests := []struct {
		name                string
		key                 ed25519.PublicKey
		hall, game, line, s string
		board               int
		seq                 int64
		want                string // "" verifies
	}{
		{"the line", pub, "club", "0017", line, sig, 5, 7, ""},
		{"no signature", pub, "club", "0017", line, "", 5, 7, "no signature"},
		{"another key", other, "club", "0017", line, sig, 5, 7, "does not verify"},
		{"another seq", pub, "club", "0017", line, sig, 5, 8, "does not verify"},
		{"another board", pub, "club", "0017", line, sig, 6, 7, "does not verify"},
		{"another game", pub, "club", "0018", line, sig, 5, 7, "does not verify"},
		{"another hall", pub, "open", "0017", line, sig, 5, 7, "does not verify"},
		{"another line", pub, "club", "0017", "4000 press black *5a0bcfa9", sig, 5, 7, "does not verify"},
		{"not base64", pub, "club", "0017", line, "!!", 5, 7, "want 64 bytes"},
		{"short", pub, "club", "0017", line, sig[:20], 5, 7, "want 64 bytes"},
		{"no key", nil, "club", "0017", line, sig, 5, 7, "no valid public key"},
	}
	for _, tt := range tests {
		err := VerifyLine(tt.key, tt.hall, tt.board, tt.game, tt.seq, tt.line, tt.s)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// The fields are separated: moving a digit from the board to the seq
	// is another text.
	if string(SignedText("club", 1, "g", 23, "x")) == string(SignedText("club", 12, "g", 3, "x")) {
		t.Error("board 1 seq 23 and board 12 seq 3 sign the same text")
	}
}

func TestParseKey(t *testing.T) {
	pub := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)
	s := FormatKey(pub)
	if k, err := ParseKey(s); err != nil || !k.Equal(pub) {
		t.Errorf("ParseKey(%q): %v, %v", s, k, err)
	}
	for _, bad := range []string{"", "ed25519:", "ed25519:AAAA", strings.TrimPrefix(s, KeyPrefix), "rsa:" + strings.TrimPrefix(s, KeyPrefix), s + "A"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) took it", bad)
		}
	}
	if fp := KeyFingerprint(pub); len(fp) != 19 || strings.Count(fp, " ") != 3 {
		t.Errorf("fingerprint %q", fp)
	}
}
