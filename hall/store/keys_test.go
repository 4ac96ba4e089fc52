package store

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
)

func testKey(b byte) string {
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = b
	return protocol.FormatKey(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
}

// TestKeys: the first key a board offers is learned, not used; the
// arbiter's confirmation makes it the signing key; another key offered
// after it is shown (OtherKey), never used until confirmed; hall.toml's
// key overrides, and one no longer configured goes back to learned. The
// keys survive a restart.
func TestKeys(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := testKey(1), testKey(2), testKey(3)
	names := map[string]string{a: "A", b: "B", c: "C", "": "-"}
	short := func(k string) string { return names[k] }
	state := func(n int) string {
		bd, _ := s.Board(n)
		_, _, ok := s.SigningKey(n)
		return strings.Join([]string{short(bd.Key), bd.KeyFrom, short(bd.OtherKey), map[bool]string{true: "checked", false: "unchecked"}[ok]}, " ")
	}
	steps := []struct {
		do   func() error
		want string
	}{
		{func() error { s.OfferKey(1, a); return nil }, "A learned - unchecked"},
		{func() error { s.OfferKey(1, b); return nil }, "A learned B unchecked"},
		{func() error { return s.ConfirmKey(1, a) }, "A confirmed B checked"},
		{func() error { s.OfferKey(1, a); return nil }, "A confirmed B checked"},
		{func() error { return s.DismissKey(1, b) }, "A confirmed - checked"},
		{func() error { s.OfferKey(1, c); return nil }, "A confirmed C checked"},
		{func() error { return s.ConfirmKey(1, c) }, "C confirmed - checked"},
		{func() error { s.ConfigKeys(map[int]string{1: b}); return nil }, "B config C checked"},
		{func() error {
			if err := s.ConfirmKey(1, c); err == nil || !strings.Contains(err.Error(), "hall.toml") {
				t.Errorf("confirming another key of a configured board: %v", err)
			}
			return nil
		}, "B config C checked"},
		{func() error { s.ConfigKeys(nil); return nil }, "B learned C unchecked"},
		{func() error { s.ConfigKeys(map[int]string{2: a}); return nil }, "A config - checked"},
	}
	for i, st := range steps {
		err := st.do()
		n := 1
		if i == len(steps)-1 {
			n = 2
		}
		if got := state(n); got != st.want {
			t.Errorf("step %d: %s (%v), want %s", i+1, got, err, st.want)
		}
	}
	if err := s.ConfirmKey(1, a); err == nil || !strings.Contains(err.Error(), "does not offer") {
		t.Errorf("confirming a key board 1 does not offer: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := state(1); got != "B learned C unchecked" {
		t.Errorf("board 1 after a restart: %s", got)
	}
	if got := state(2); got != "A config - checked" {
		t.Errorf("board 2 after a restart: %s", got)
	}
}

// TestRefusedEvidence: a line refused for its signature is evidence
// (Conflicts) beside the line the hall has, once for the same line, never
// served, and read back after a restart; a damaged record is named.
func TestRefusedEvidence(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l1, l2 := clocklog.WithChecksum("format 2"), clocklog.WithChecksum("0 start")
	forged := clocklog.WithChecksum("0 result 1-0 players")
	if _, err := s.PutLine(1, "g1", 1, l1); err != nil {
		t.Fatal(err)
	}
	s.Refuse(1, "g1", 1, forged, "no signature")
	s.Refuse(1, "g1", 2, forged, "no signature")
	s.Refuse(1, "g1", 2, forged, "another signature") // the same line: no new evidence
	s.Refuse(1, "new", 1, forged, "no signature")
	if _, err := s.PutLine(1, "g1", 2, l2); err != nil {
		t.Fatal(err)
	}
	want := []Conflict{{Seq: 1, Kept: l1, SetAside: forged, Why: "no signature"}, {Seq: 2, Kept: l2, SetAside: forged, Why: "no signature"}}
	check := func(when string) {
		t.Helper()
		cs := s.Conflicts(1, "g1")
		if len(cs) != len(want) || cs[0] != want[0] || cs[1] != want[1] {
			t.Errorf("%s: evidence %+v, want %+v", when, cs, want)
		}
		if lines, _ := s.Lines(1, "g1"); len(lines) != 2 || lines[1] != l2 {
			t.Errorf("%s: lines %q", when, lines)
		}
		if d := s.Disputed(1); d["g1"] != 2 || d["new"] != 1 {
			t.Errorf("%s: disputed %v", when, d)
		}
	}
	check("now")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "games", "1", "new.refused")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n")
	f.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("after a restart")
	if d := s.Damaged(); len(d) != 1 || !strings.Contains(d[0], p+": line 2 is no record") {
		t.Errorf("damaged: %q", d)
	}
}
