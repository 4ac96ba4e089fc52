package ledtest

import (
	"errors"
	"slices"
	"testing"
)

func TestRecorder(t *testing.T) {
	r := &Recorder{Name: "left"}
	for _, on := range []bool{true, true, false, true} {
		r.Set(on)
	}
	r.FailNext(errors.New("gone"))
	if err := r.Set(false); err == nil || err.Error() != "ledtest left: gone" || !r.On() {
		t.Fatalf("FailNext: %v, on %v", err, r.On())
	}
	r.Close()
	if got := r.Changes(); !slices.Equal(got, []bool{true, false, true, false}) || !r.Closed() {
		t.Fatalf("changes %v, closed %v", got, r.Closed())
	}
}
