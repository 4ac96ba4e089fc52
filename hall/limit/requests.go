package limit

import (
	"sync"
	"sync/atomic"
)

// Requests bounds how many requests one address (Key) has under way at
// once: a poller of the pages or the API that sends its next request
// before the last is answered, or many at once, gets no more of the
// hall's time than PerAddr requests' worth; past it the request is
// refused (the hall answers 429 with Retry-After).
type Requests struct {
	per     int
	mu      sync.Mutex
	open    map[string]int
	refused atomic.Int64
}

// NewRequests returns a Requests of perAddr requests an address (0 or
// less: no bound).
func NewRequests(perAddr int) *Requests {
	return &Requests{per: perAddr, open: map[string]int{}}
}

// Take counts a request from addr (an IP address, with or without a
// port) under way; false, and nothing counted, when addr has PerAddr
// under way already. Each Take that returned true needs its Done.
func (q *Requests) Take(addr string) bool {
	if q.per <= 0 {
		return true
	}
	k := Key(addr)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.open[k] >= q.per {
		q.refused.Add(1)
		return false
	}
	q.open[k]++
	return true
}

// Done counts addr's request answered.
func (q *Requests) Done(addr string) {
	if q.per <= 0 {
		return
	}
	k := Key(addr)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.open[k]--; q.open[k] <= 0 {
		delete(q.open, k)
	}
}

// Refused counts the requests refused so far.
func (q *Requests) Refused() int64 { return q.refused.Load() }
