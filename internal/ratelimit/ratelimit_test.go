package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

func TestBucket(t *testing.T) {
	t0 := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	b := New(0.5, 3) // 3 at once, then one every 2 s
	type step struct {
		at   time.Duration
		ok   bool
		wait time.Duration
	}
	for i, s := range []step{
		{0, true, 0}, {0, true, 0}, {0, true, 0},
		{0, false, 2 * time.Second},
		{time.Second, false, time.Second}, // half a token back
		{2 * time.Second, true, 0},
		{2 * time.Second, false, 2 * time.Second},
		{time.Second, false, 2 * time.Second}, // the clock stepped back: nothing refilled
		{time.Hour, true, 0},                  // full again, not more than full
		{time.Hour, true, 0},
		{time.Hour, true, 0},
		{time.Hour, false, 2 * time.Second},
	} {
		ok, wait := b.Take(t0.Add(s.at))
		if ok != s.ok || wait != s.wait {
			t.Errorf("step %d at %v: %v %v, want %v %v", i, s.at, ok, wait, s.ok, s.wait)
		}
	}
}

// The link's commands: 3 at once, then 1 a second.
func TestBucketCommands(t *testing.T) {
	b := New(1, 3)
	t0 := time.Unix(1000, 0)
	var got []bool
	for _, dt := range []time.Duration{0, 0, 0, 0, 500 * time.Millisecond, 1000 * time.Millisecond, 1100 * time.Millisecond, 10 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second} {
		ok, _ := b.Take(t0.Add(dt))
		got = append(got, ok)
	}
	want := []bool{true, true, true, false, false, true, false, true, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Take: %v, want %v", got, want)
		}
	}
}

func TestBucketNoRate(t *testing.T) {
	b := New(0, 1)
	now := time.Now()
	if ok, _ := b.Take(now); !ok {
		t.Fatal("the first token was refused")
	}
	if ok, wait := b.Take(now.Add(time.Hour)); ok || wait <= time.Hour {
		t.Errorf("a bucket with no rate gave %v, wait %v", ok, wait)
	}
}

func ExampleBucket() {
	b := New(1, 2) // 2 at once, then 1 a second
	now := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	for _, at := range []time.Duration{0, 0, 0, 250 * time.Millisecond, time.Second} {
		ok, wait := b.Take(now.Add(at))
		fmt.Println(at, ok, wait)
	}
	// Output:
	// 0s true 0s
	// 0s true 0s
	// 0s false 1s
	// 250ms false 750ms
	// 1s true 0s
}

func TestGiveBack(t *testing.T) {
	t0 := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	b := New(1, 2)
	for i := range 2 {
		if ok, _ := b.Take(t0); !ok {
			t.Fatalf("take %d of a full bucket of 2 refused", i+1)
		}
	}
	if ok, _ := b.Take(t0); ok {
		t.Fatal("a third take at the same instant went through")
	}
	b.Give(t0)
	if ok, _ := b.Take(t0); !ok {
		t.Fatal("the token given back was not there")
	}
	b.Give(t0.Add(time.Hour))
	b.Give(t0.Add(time.Hour))
	for i := range 2 {
		if ok, _ := b.Take(t0.Add(time.Hour)); !ok {
			t.Fatalf("take %d an hour later refused", i+1)
		}
	}
	if ok, _ := b.Take(t0.Add(time.Hour)); ok {
		t.Fatal("giving back filled the bucket past its burst of 2")
	}
}
