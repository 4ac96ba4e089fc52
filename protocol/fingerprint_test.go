package protocol

import (
	"strings"
	"testing"
)

func TestFingerprint(t *testing.T) {
	f := FingerprintOf([]byte("a certificate"))
	s := f.String()
	if !strings.HasPrefix(s, "sha256:") || len(s) != len("sha256:")+32*3-1 || strings.Count(s, ":") != 32 {
		t.Fatalf("%s", s)
	}
	for _, in := range []string{s, strings.ToLower(s), "sha256:" + strings.ReplaceAll(s[7:], ":", ""), " " + strings.ReplaceAll(s, ":", " ")[:6] + ":" + strings.ReplaceAll(s[7:], ":", " ") + " "} {
		g, err := ParseFingerprint(in)
		if err != nil || g != f {
			t.Errorf("%q: %v %v", in, g, err)
		}
	}
	for _, in := range []string{"", s[7:], "sha1:" + s[7:], s[:len(s)-3], s + ":00", strings.Replace(s, "sha256:", "sha256:G", 1)} {
		if _, err := ParseFingerprint(in); err == nil || !strings.Contains(err.Error(), "want sha256: and 64 hex digits") {
			t.Errorf("%q: %v", in, err)
		}
	}
}
