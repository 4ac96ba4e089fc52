package clock_test

import (
	"os"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/clocklog/clocklogtest"
)

// The promise of the package, "a game is a function of its inputs", as a
// property of generated games of every mode and option (clocklogtest.Game:
// multi-period quotas on both triggers, repeating periods, Fischer also
// from a later move, delay, Bronstein, byo-yomi, Canadian, hourglass,
// count-up, first increment on and off, after-flag freeze and continue,
// pauses, flags and every correction while paused): inserting shows into
// the log or taking them out, or calling State and Advance in between,
// changes no state at any instant, and a clock looked at every step (the
// reference, which settles every expiry on its own) agrees with one that
// settles many at once (clocklogtest.Check).

// TestShowsChangeNothingAcrossPeriods runs the property on a log where one
// settle crossed three periods of a repeating control and, before the fix,
// lost the overstep (clocklog's testdata/overstep-across-periods.log).
func TestShowsChangeNothingAcrossPeriods(t *testing.T) {
	f, err := os.Open("../clocklog/testdata/overstep-across-periods.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := clocklog.Parse("overstep-across-periods.log", f)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 20; seed++ {
		if err := clocklogtest.Check(l, clocklogtest.FromSeed(seed, 1<<20)); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// TestShowsChangeNothing runs the property on a table of seeds: 300
// games, 5000 without -short.
func TestShowsChangeNothing(t *testing.T) {
	n := uint64(5000)
	if testing.Short() {
		n = 300
	}
	for seed := uint64(0); seed < n; seed++ {
		l := clocklogtest.Game(clocklogtest.FromSeed(seed, 1<<20), clocklogtest.DefaultOpts)
		if err := clocklogtest.Check(l, clocklogtest.FromSeed(seed+1<<32, 1<<20)); err != nil {
			t.Fatalf("seed %d, control %s, options %+v: %v", seed, l.Controls, l.Options, err)
		}
	}
}

// FuzzShowsChangeNothing is the property with the game and the instants
// looked at drawn from the fuzz input:
//
//	go test -run '^$' -fuzz FuzzShowsChangeNothing -fuzztime 60s ./engine/clock/
func FuzzShowsChangeNothing(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		strings.Repeat("\x03\x09\x00\x07\x01", 40),
		strings.Repeat("\x09\xff\x13\x02\x08", 60),
		strings.Repeat("\x05\x11\x0e\x7f\x10\x03", 50),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := clocklogtest.FromBytes(data)
		l := clocklogtest.Game(src, clocklogtest.Opts{Events: 48, Span: 40 * 60 * 1000, Corrections: true})
		if err := clocklogtest.Check(l, src); err != nil {
			t.Fatalf("control %s, options %+v, events %v: %v", l.Controls, l.Options, l.Events, err)
		}
	})
}
