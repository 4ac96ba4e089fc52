package link

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/protocol"
)

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
