package store

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The store reads a game's log as its lines arrive: a line more is one
// line parsed, a read of the log parses nothing, and the log is the one
// clocklog.ReadLog reads of the game's lines; its version changes with
// each line, and survives nothing: a restart reads each line once.
func TestLogReadAsLinesArrive(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{"format 2", "control 300+2", "0 start"}
	for i := 1; i <= 200; i++ {
		lines = append(lines, fmt.Sprintf("%d press %s", i*1000, []string{"white", "black"}[i%2]))
	}
	for i, l := range lines[:100] {
		if _, err := s.PutLine(7, "g7", int64(i+1), sum(l)); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Stats().Parsed; got != 100 {
		t.Fatalf("parsed %d lines for 100 lines, want 100", got)
	}
	first, _ := s.Log(7, "g7")
	for range 10 {
		s.Log(7, "g7")
	}
	if _, err := s.PutLine(7, "g7", 101, sum(lines[100])); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Parsed; got != 101 {
		t.Errorf("parsed %d lines after 11 reads and 1 line more, want 101: a line more is one line parsed", got)
	}
	gl, ok := s.Log(7, "g7")
	if !ok || gl.Err != nil || gl.Lines != 101 || len(gl.Log.Events) != 99 {
		t.Fatalf("log %+v %v: want 101 lines, 99 events", gl, ok)
	}
	if gl.Version == first.Version {
		t.Errorf("version %d before and after a line", gl.Version)
	}
	if len(first.Log.Events) != 98 {
		t.Errorf("the log read before the line has %d events, want 98: it changed", len(first.Log.Events))
	}
	var text strings.Builder
	for _, l := range lines[:101] {
		text.WriteString(sum(l) + "\n")
	}
	want, err := clocklog.ReadLog("whole", []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gl.Log.Events) != fmt.Sprint(want.Events) || !reflect.DeepEqual(gl.Log.Header, want.Header) {
		t.Errorf("the store's log is not ReadLog's of its lines")
	}
	if _, ok := s.Log(7, "none"); ok {
		t.Errorf("a game without lines has a log")
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Stats().Parsed; got != 101 {
		t.Errorf("a restart parsed %d lines, want the 101", got)
	}
	if gl, _ := s.Log(7, "g7"); gl.Lines != 101 || len(gl.Log.Events) != 99 {
		t.Errorf("after a restart: %d lines, %d events", gl.Lines, len(gl.Log.Events))
	}
}

// A log the reader stops on (an instant that goes back, which a held
// line past a gap can bring) is read whole as recovery reads it: what
// can be trusted of it, not an error; a log with no control is an error
// naming the game.
func TestLogReadWhole(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.PutLine(1, "g1", 1, sum("format 2")); err != nil {
		t.Fatal(err)
	}
	if gl, _ := s.Log(1, "g1"); gl.Log != nil || gl.Err == nil || !strings.Contains(gl.Err.Error(), "board 1 game g1") {
		t.Errorf("a log without control: %+v, want an error naming board 1 game g1", gl)
	}
	for i, l := range []string{"control 300", "0 start", "1000 press white", "2000 bogus black", "3000 press black"} {
		if _, err := s.PutLine(1, "g1", int64(i+2), sum(l)); err != nil {
			t.Fatal(err)
		}
	}
	gl, _ := s.Log(1, "g1")
	if gl.Err != nil || gl.Log == nil || len(gl.Log.Events) < 2 {
		t.Fatalf("a damaged log: %+v, want what can be trusted of it", gl)
	}
}
