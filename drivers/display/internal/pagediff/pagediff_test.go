package pagediff

import (
	"reflect"
	"testing"
)

func TestRunsFirstIsFull(t *testing.T) {
	s := New(8, 2)
	next := make([]byte, 16)
	got := s.Runs(next, 3)
	want := []Run{{0, 0, 8}, {1, 0, 8}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Runs = %v, want %v", got, want)
	}
	for _, r := range got {
		s.Commit(next, r)
	}
	s.Done()
	if got := s.Runs(next, 3); len(got) != 0 {
		t.Errorf("same frame again gives %v", got)
	}
}

func TestRunsMergeAndSplit(t *testing.T) {
	s := New(16, 2)
	prev := make([]byte, 32)
	for _, r := range s.Runs(prev, 2) {
		s.Commit(prev, r)
	}
	s.Done()
	next := make([]byte, 32)
	next[1], next[4] = 1, 1 // gap of 2: merged
	next[8], next[14] = 1, 1
	next[16+15] = 1
	got := s.Runs(next, 2)
	want := []Run{{0, 1, 5}, {0, 8, 9}, {0, 14, 15}, {1, 15, 16}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Runs = %v, want %v", got, want)
	}
	for _, r := range got[:2] {
		s.Commit(next, r)
	}
	// Runs not committed are still different.
	got = s.Runs(next, 2)
	want = []Run{{0, 14, 15}, {1, 15, 16}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after partial commit Runs = %v, want %v", got, want)
	}
	s.Invalidate()
	if got := s.Runs(next, 2); len(got) != 2 || got[0] != (Run{0, 0, 16}) {
		t.Errorf("after Invalidate Runs = %v", got)
	}
}

func TestRunsAllocs(t *testing.T) {
	s := New(128, 8)
	a, b := make([]byte, 1024), make([]byte, 1024)
	for i := range b {
		if i%2 == 0 {
			b[i] = 0xFF // worst case: every other byte differs
		}
	}
	s.Runs(a, 0)
	s.Done()
	n := testing.AllocsPerRun(50, func() { s.Runs(b, 0) })
	if n != 0 {
		t.Errorf("Runs allocates %v times", n)
	}
	if got := len(s.Runs(b, 0)); got != 8*64 {
		t.Errorf("len(Runs) = %d, want %d", got, 8*64)
	}
}
