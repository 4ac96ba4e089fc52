package limit

import "testing"

// An address has at most PerAddr requests under way: the next is refused
// until one is done; another address, and the same address's other port,
// count apart and alike; an IPv6 /64 is one address.
func TestRequests(t *testing.T) {
	q := NewRequests(2)
	steps := []struct {
		take, done string
		want       bool
	}{
		{take: "192.0.2.1:1000", want: true},
		{take: "192.0.2.1:1001", want: true},
		{take: "192.0.2.1:1002", want: false},
		{take: "192.0.2.2:1000", want: true},
		{done: "192.0.2.1:1000"},
		{take: "192.0.2.1:1003", want: true},
		{take: "192.0.2.1:1004", want: false},
		{take: "[2001:db8::1]:80", want: true},
		{take: "[2001:db8::2]:80", want: true},
		{take: "[2001:db8::3]:80", want: false},
	}
	for i, s := range steps {
		if s.done != "" {
			q.Done(s.done)
			continue
		}
		if got := q.Take(s.take); got != s.want {
			t.Errorf("step %d: Take(%s) = %v, want %v", i, s.take, got, s.want)
		}
	}
	if q.Refused() != 3 {
		t.Errorf("refused %d, want 3", q.Refused())
	}
	free := NewRequests(0)
	for range 100 {
		if !free.Take("192.0.2.1:1") {
			t.Fatal("no bound refused a request")
		}
	}
}
