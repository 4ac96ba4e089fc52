package simled

import "testing"

func TestLED(t *testing.T) {
	l := &LED{Name: "left"}
	if l.On() || l.String() != "simulated led left" {
		t.Fatalf("zero LED: on %v, %q", l.On(), l)
	}
	l.Set(true)
	if !l.On() {
		t.Fatal("not lit after Set(true)")
	}
	l.Close()
	if l.On() || l.Set(true) == nil {
		t.Fatal("Close leaves it lit or settable")
	}
}
