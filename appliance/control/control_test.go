package control

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		for r := range s.Requests {
			switch r.Cmd {
			case "status":
				r.Reply(`{"running":"white"}`)
			case "press":
				if r.Arg == "left" {
					r.Reply("ok")
				} else {
					r.Reply("error: no button " + r.Arg)
				}
			}
		}
	}()
	if got, err := Call(path, "status"); err != nil || got != `{"running":"white"}` {
		t.Errorf("status: %q %v", got, err)
	}
	if got, err := Call(path, "press", "left"); err != nil || got != "ok" {
		t.Errorf("press: %q %v", got, err)
	}
	if _, err := Call(path, "press", "nose"); err == nil || err.Error() != "no button nose" {
		t.Errorf("bad press: %v", err)
	}
	// A stale socket file is replaced.
	s.Close()
	s2, err := Listen(path)
	if err != nil {
		t.Fatalf("relisten over stale socket: %v", err)
	}
	s2.Close()
}

func TestNoDaemon(t *testing.T) {
	_, err := Call(filepath.Join(t.TempDir(), "none.sock"), "status")
	if err == nil || !strings.Contains(err.Error(), "is zeitnot running?") {
		t.Errorf("got %v", err)
	}
}
