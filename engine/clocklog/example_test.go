package clocklog_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// The journal of a game in format 2: the header, events, a checkpoint that
// restates the header, and a note. It is the example of the package doc.
func ExampleAppendHeader() {
	pair, _ := timecontrol.ParsePair("300+2")
	h := clocklog.Header{Controls: pair, Options: clock.DefaultOptions}
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendEvent(b, clocklog.Event{At: 0, Verb: clocklog.Start, Side: clock.NoSide})
	b = clocklog.AppendEvent(b, clocklog.Event{At: 4000, Verb: clocklog.Press, Side: clock.White})
	b = clocklog.AppendCheckpoint(b, 5000, clock.Black, h)
	b = clocklog.AppendComment(b, "a note")
	os.Stdout.Write(b)
	// Output:
	// format 2 *5a1bec3d
	// control 300+2 *6c2bd659
	// option first-increment on *02883036
	// option period-trigger flag *d9d1862e
	// option after-flag freeze *0a68f448
	// 0 start *37990e4f
	// 4000 press white *5a0bcfa9
	// 5000 checkpoint black control=300+2 first-increment=on period-trigger=flag after-flag=freeze *9533eda9
	// # a note *99b96953
}

// A bit flipped in an instant (4000 became 4001) is found and repaired; the
// report says so.
func ExampleSalvageReport() {
	log := "format 2 *5a1bec3d\n" +
		"control 300+2 *6c2bd659\n" +
		"0 start *37990e4f\n" +
		"4001 press white *5a0bcfa9\n"
	l, rep := clocklog.SalvageReport("game.log", strings.NewReader(log))
	fmt.Println(l.Events[1])
	fmt.Println(rep)
	fmt.Println(rep.Problems[0])
	// Output:
	// 4000 press white
	// 1 line repaired
	// game.log:4: repaired: one flipped bit at column 4
}

// A Salvager reads a log of any size a line at a time: here a journal whose
// press by black was destroyed; the press white made next shows it was
// there, so it is put back.
func ExampleSalvager() {
	log := "format 2 *5a1bec3d\n" +
		"control 300+2 *6c2bd659\n" +
		"0 start *37990e4f\n" +
		"4000 press white *5a0bcfa9\n" +
		"# a note *99b96953\n" +
		"?????????????????????\n" +
		"9000 press white *e7e6419b\n"
	s := clocklog.NewSalvager("game.log", strings.NewReader(log))
	if _, ok := s.Header(); !ok {
		fmt.Println(s.Report().Problems)
		return
	}
	for s.Next() {
		if e := s.Entry(); e.Comment {
			fmt.Printf("line %d: # %s\n", e.Line, e.Text)
		} else {
			fmt.Printf("line %d: %s\n", e.Line, e.Event)
		}
	}
	fmt.Println(s.Report())
	// Output:
	// line 3: 0 start
	// line 4: 4000 press white
	// line 5: # a note
	// line 6: 8000 press black
	// line 7: 9000 press white
	// 1 line dropped (1 event inferred)
}
