package clock

import (
	"encoding"
	"fmt"
)

// The option enums are written as words, the same in the clock log, the
// configuration file and the menus. The tables below are the one place those
// words are defined.

var triggerNames = [...]string{OnFlag: "flag", OnMoves: "moves"}

var afterFlagNames = [...]string{Freeze: "freeze", Continue: "continue"}

var (
	_ encoding.TextMarshaler   = OnFlag
	_ encoding.TextUnmarshaler = new(Trigger)
	_ encoding.TextMarshaler   = Freeze
	_ encoding.TextUnmarshaler = new(AfterFlag)
)

func (t Trigger) String() string {
	if int(t) < len(triggerNames) {
		return triggerNames[t]
	}
	return fmt.Sprintf("Trigger(%d)", t)
}

// MarshalText writes "flag" or "moves"; a value outside the enum is an error.
func (t Trigger) MarshalText() ([]byte, error) {
	if int(t) >= len(triggerNames) {
		return nil, fmt.Errorf("clock: no period trigger %d", t)
	}
	return []byte(triggerNames[t]), nil
}

// UnmarshalText reads "flag" or "moves".
func (t *Trigger) UnmarshalText(b []byte) error {
	for i, n := range triggerNames {
		if string(b) == n {
			*t = Trigger(i)
			return nil
		}
	}
	return fmt.Errorf("clock: period trigger: want flag or moves, got %q", b)
}

func (a AfterFlag) String() string {
	if int(a) < len(afterFlagNames) {
		return afterFlagNames[a]
	}
	return fmt.Sprintf("AfterFlag(%d)", a)
}

// MarshalText writes "freeze" or "continue"; a value outside the enum is an
// error.
func (a AfterFlag) MarshalText() ([]byte, error) {
	if int(a) >= len(afterFlagNames) {
		return nil, fmt.Errorf("clock: no after-flag behaviour %d", a)
	}
	return []byte(afterFlagNames[a]), nil
}

// UnmarshalText reads "freeze" or "continue".
func (a *AfterFlag) UnmarshalText(b []byte) error {
	for i, n := range afterFlagNames {
		if string(b) == n {
			*a = AfterFlag(i)
			return nil
		}
	}
	return fmt.Errorf("clock: after flag: want freeze or continue, got %q", b)
}
