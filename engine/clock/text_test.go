package clock

import (
	"encoding"
	"strings"
	"testing"
)

func TestOptionText(t *testing.T) {
	var trig Trigger
	var af AfterFlag
	cases := []struct {
		v interface {
			encoding.TextMarshaler
			String() string
		}
		into encoding.TextUnmarshaler
		text string
		back func() any
		want any
	}{
		{OnFlag, &trig, "flag", func() any { return trig }, OnFlag},
		{OnMoves, &trig, "moves", func() any { return trig }, OnMoves},
		{Freeze, &af, "freeze", func() any { return af }, Freeze},
		{Continue, &af, "continue", func() any { return af }, Continue},
	}
	for _, tc := range cases {
		b, err := tc.v.MarshalText()
		if err != nil || string(b) != tc.text || tc.v.String() != tc.text {
			t.Errorf("%v: MarshalText %q %v, String %q; want %q", tc.want, b, err, tc.v.String(), tc.text)
		}
		if err := tc.into.UnmarshalText([]byte(tc.text)); err != nil || tc.back() != tc.want {
			t.Errorf("UnmarshalText(%q) = %v %v, want %v", tc.text, tc.back(), err, tc.want)
		}
	}
}

func TestOptionTextErrors(t *testing.T) {
	var trig Trigger = OnMoves
	var af AfterFlag = Continue
	bad := []struct {
		into encoding.TextUnmarshaler
		text string
		want string
	}{
		{&trig, "", `want flag or moves, got ""`},
		{&trig, "Flag", `want flag or moves, got "Flag"`},
		{&trig, "moves ", `got "moves "`},
		{&af, "melt", `want freeze or continue, got "melt"`},
		{&af, "1", `got "1"`},
	}
	for _, tc := range bad {
		err := tc.into.UnmarshalText([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UnmarshalText(%q): %v, want %s", tc.text, err, tc.want)
		}
	}
	if trig != OnMoves || af != Continue {
		t.Errorf("a failed UnmarshalText changed the value: %v %v", trig, af)
	}
	if b, err := Trigger(7).MarshalText(); err == nil {
		t.Errorf("Trigger(7).MarshalText() = %q, want an error", b)
	}
	if b, err := AfterFlag(9).MarshalText(); err == nil {
		t.Errorf("AfterFlag(9).MarshalText() = %q, want an error", b)
	}
	if s := Trigger(7).String(); s != "Trigger(7)" {
		t.Errorf("String of a bad trigger: %q", s)
	}
}

// TestOptionsSetGet checks the clock log's option words go through the same
// tables.
func TestOptionsSetGet(t *testing.T) {
	var o Options
	for _, kv := range [][2]string{{OptFirstIncrement, "off"}, {OptPeriodTrigger, "moves"}, {OptAfterFlag, "continue"}} {
		if err := o.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		if got := o.Get(kv[0]); got != kv[1] {
			t.Errorf("Get(%s) = %q, want %q", kv[0], got, kv[1])
		}
	}
	if o != (Options{FirstIncrement: false, PeriodTrigger: OnMoves, AfterFlag: Continue}) {
		t.Errorf("options %+v", o)
	}
	if err := o.Set(OptPeriodTrigger, "trigeer"); err == nil || err.Error() != `option period-trigger: want flag or moves, got "trigeer"` {
		t.Errorf("bad value: %v", err)
	}
}
