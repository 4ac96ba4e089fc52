package powertest

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
)

func TestGauge(t *testing.T) {
	g := &Gauge{Name: "ups"}
	wait := g.Wait()
	g.Set(power.Reading{Voltage: 4 * physic.Volt, Percent: 80})
	if r, err := g.Read(); err != nil || r.Percent != 80 || g.String() != "powertest ups" {
		t.Fatalf("%+v %v %q", r, err, g)
	}
	<-wait
	g.Fail(errors.New("gone"))
	if _, err := g.Read(); err == nil || g.Reads() != 2 {
		t.Fatalf("%v after %d reads", err, g.Reads())
	}
}
