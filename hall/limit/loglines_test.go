package limit

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLogLines: a stranger's 10,000 refused tokens in a minute write the
// burst and no more; the next line after the interval counts the rest.
func TestLogLines(t *testing.T) {
	ft := newFake()
	var lines []string
	l := NewLogLines(5, time.Minute, ft, func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) })
	for i := range 10000 {
		l.Logf("refused %d", i)
		ft.Advance(5 * time.Millisecond) // 50 s in all
	}
	if len(lines) != 5 || lines[0] != "refused 0" || lines[4] != "refused 4" {
		t.Fatalf("logged %d lines: %q", len(lines), lines[:min(len(lines), 8)])
	}
	ft.Advance(10 * time.Second)
	l.Logf("refused %d", 10000)
	want := "refused 10000 (and 9995 more like it left out of the log before, at most 5 a 1m0s)"
	if len(lines) != 6 || lines[5] != want {
		t.Fatalf("after the minute: %q, want %q", lines[5:], want)
	}
	for range 4 {
		l.Logf("quiet")
	}
	if len(lines) != 10 || strings.Contains(lines[9], "left out") {
		t.Errorf("a new interval: %q", lines[6:])
	}
}
