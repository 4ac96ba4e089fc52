package power_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
	"github.com/zeitnot/zeitnot/drivers/power/powertest"
)

func TestLiIonPercent(t *testing.T) {
	mv := physic.MilliVolt
	for _, c := range []struct {
		v    physic.ElectricPotential
		want float64
	}{
		{0, 0},
		{2500 * mv, 0},
		{3000 * mv, 0},
		{3680 * mv, 10},
		{3710 * mv, 15},
		{3840 * mv, 50},
		{3860 * mv, 55},
		{4200 * mv, 100},
		{4350 * mv, 100},
	} {
		if got := power.LiIon.Percent(c.v); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %g%%, want %g%%", c.v, got, c.want)
		}
	}
	if err := power.LiIon.Check(); err != nil {
		t.Fatal(err)
	}
	// Never falls as the voltage rises.
	last := -1.0
	for v := 2900 * mv; v <= 4300*mv; v += mv {
		p := power.LiIon.Percent(v)
		if p < last || p < 0 || p > 100 {
			t.Fatalf("%s: %g%% after %g%%", v, p, last)
		}
		last = p
	}
}

func TestCurveCheck(t *testing.T) {
	mv := physic.MilliVolt
	for _, c := range []struct {
		curve power.Curve
		want  string
	}{
		{power.Curve{{3000 * mv, 0}}, "at least two points, got 1"},
		{power.Curve{{3000 * mv, 0}, {3000 * mv, 50}}, "point 2: 3V is not above the voltage before it, 3V"},
		{power.Curve{{3000 * mv, 0}, {4000 * mv, 120}}, "point 2 (4V): 120% is not between 0 and 100"},
		{power.Curve{{3000 * mv, 50}, {4000 * mv, 20}}, "point 2 (4V): 20% is below the 50% before it"},
	} {
		err := c.curve.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.curve, err, c.want)
		}
	}
	if (power.Curve{}).Percent(3*physic.Volt) != 0 {
		t.Error("an empty curve gives a state of charge")
	}
}

func TestLossEvents(t *testing.T) {
	l := powertest.NewLoss()
	l.Push(true, 5*time.Second)
	l.Push(false, 7*time.Second)
	for _, want := range []power.LossEvent{{Lost: true, At: 5 * time.Second}, {Lost: false, At: 7 * time.Second}} {
		select {
		case e := <-l.Events():
			if e != want {
				t.Fatalf("got %+v, want %+v", e, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
	}
	l.Push(true, 8*time.Second) // not read: Close must not hang on it
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-l.Events(); ok {
		t.Fatal("events still open after Close")
	}
}

func TestReadingString(t *testing.T) {
	r := power.Reading{Voltage: 3712 * physic.MilliVolt, Percent: 17.4}
	if s := r.String(); s != "17% 3.712V" {
		t.Errorf("%q", s)
	}
	r.Current, r.HasCurrent = -512*physic.MilliAmpere, true
	if s := r.String(); s != "17% 3.712V -512mA" {
		t.Errorf("%q", s)
	}
}
