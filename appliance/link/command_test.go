package link

import (
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

func TestLimiter(t *testing.T) {
	l := newLimiter(1, 3)
	t0 := time.Unix(1000, 0)
	var got []bool
	for _, dt := range []time.Duration{0, 0, 0, 0, 500 * time.Millisecond, 1000 * time.Millisecond, 1100 * time.Millisecond, 10 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second} {
		got = append(got, l.allow(t0.Add(dt)))
	}
	want := []bool{true, true, true, false, false, true, false, true, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allow: %v, want %v", got, want)
		}
	}
}

func TestCheckRetained(t *testing.T) {
	l := &Link{cfg: Config{Board: 12}}
	_, err := l.check(incoming{scope: protocol.ScopeBoard, payload: []byte(`{"cmd":"pause"}`), size: 15, retained: true})
	if err == nil || !strings.Contains(err.Error(), "a retained command is never carried out") {
		t.Errorf("retained: %v", err)
	}
	_, err = l.check(incoming{scope: protocol.ScopeBoard, payload: []byte(`{"cm`), size: 5000})
	if err == nil || err.Error() != "command of 5000 bytes, at most 1024" {
		t.Errorf("oversized: %v", err)
	}
}
