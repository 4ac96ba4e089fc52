// Package limit holds the hall's limits against a hostile network: how
// often one address may fail a login (the arbiter's pages and the clocks'
// MQTT CONNECT alike), and how many connections one address and everyone
// together may hold open on a listener, with room kept for the clocks and
// the arbiter.
package limit

import (
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/internal/ratelimit"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// Key is what the limits count by for addr (an IP address, with or
// without a port): the IPv4 address, or the /64 of an IPv6 address (one
// device on a Wi-Fi gets a whole /64 to pick addresses from).
func Key(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		addr = h
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// LoginOpts configure Logins. The zero value of a field takes its default.
type LoginOpts struct {
	// Free is how many attempts an address makes before it waits between
	// them (default 3).
	Free int
	// Wait is the first wait after the free attempts; each failure after
	// that doubles it, up to MaxWait (defaults 2 s and 10 min).
	Wait, MaxWait time.Duration
	// Forget is how long an address's failures are remembered after its
	// last attempt (default 1 h).
	Forget time.Duration
	// AccountBurst and AccountEvery: the attempts on one account, Burst at
	// once then one per Every (defaults 10 and 10 s). Past them an address
	// that has failed before waits for the account's next token; an
	// address that has not failed never does.
	AccountBurst int
	AccountEvery time.Duration
	// Burst and Every are the same for all accounts together (defaults
	// 30 and 1 s): they bound the password checks an attack from many
	// addresses costs to about one per new address plus one per Every.
	Burst int
	Every time.Duration
	// MaxAddrs bounds the addresses remembered (default 65536); a full
	// table forgets the ones whose failures are over, then those not yet
	// waiting, and then lets a new address in only on the global tokens.
	MaxAddrs int
	// Clock is the limits' time (nil: wallclock.Real).
	Clock wallclock.Clock
}

// Logins decides whether a login attempt may be checked at all, before
// its password is hashed: it locks out the guesser (by address, with a
// backoff), never the account, and never refuses an address that has not
// failed.
type Logins struct {
	o LoginOpts

	mu       sync.Mutex
	addrs    map[string]*addrState
	accounts map[string]*ratelimit.Bucket
	all      *ratelimit.Bucket
}

type addrState struct {
	fails int // attempts not followed by a success
	last  time.Time
}

// bucket is a ratelimit.Bucket of burst tokens, one every every.
func bucket(burst int, every time.Duration) *ratelimit.Bucket {
	return ratelimit.New(1/every.Seconds(), burst)
}

// take takes a token from b if there is one; else it says how long until
// there is, at least a millisecond: a wait is never 0, which says "go ahead".
func take(b *ratelimit.Bucket, now time.Time) (bool, time.Duration) {
	ok, wait := b.Take(now)
	if ok {
		return true, 0
	}
	return false, max(time.Millisecond, wait)
}

// NewLogins returns a Logins for o.
func NewLogins(o LoginOpts) *Logins {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	defInt := func(d *int, v int) {
		if *d <= 0 {
			*d = v
		}
	}
	defInt(&o.Free, 3)
	def(&o.Wait, 2*time.Second)
	def(&o.MaxWait, 10*time.Minute)
	def(&o.Forget, time.Hour)
	defInt(&o.AccountBurst, 10)
	def(&o.AccountEvery, 10*time.Second)
	defInt(&o.Burst, 30)
	def(&o.Every, time.Second)
	defInt(&o.MaxAddrs, 65536)
	o.Clock = wallclock.Or(o.Clock)
	return &Logins{o: o, addrs: map[string]*addrState{}, accounts: map[string]*ratelimit.Bucket{}, all: bucket(o.Burst, o.Every)}
}

// backoff is the wait after fails failures (fails >= Free).
func (l *Logins) backoff(fails int) time.Duration {
	d := l.o.Wait
	for i := l.o.Free; i < fails && d < l.o.MaxWait; i++ {
		d *= 2
	}
	return min(d, l.o.MaxWait)
}

// Attempt asks whether the client at addr may try the password of account
// now ("" for an unknown account: they share one). It returns 0 if so, and
// counts the attempt as a failure until Succeeded says otherwise; else
// how long the client should wait, and the attempt is not counted.
func (l *Logins) Attempt(addr, account string) time.Duration {
	now := l.o.Clock.Now()
	k := Key(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.addrs[k]
	if a != nil && now.Sub(a.last) > l.o.Forget {
		a.fails = 0
	}
	if a == nil {
		if len(l.addrs) >= l.o.MaxAddrs {
			l.prune(now)
		}
		if len(l.addrs) >= l.o.MaxAddrs {
			// No room to remember another address: an attack from
			// very many. Let it in on the global tokens only.
			if ok, wait := take(l.all, now); !ok {
				return wait
			}
			return 0
		}
		a = &addrState{}
		l.addrs[k] = a
	}
	if a.fails >= l.o.Free {
		if wait := a.last.Add(l.backoff(a.fails)).Sub(now); wait > 0 {
			return wait
		}
	}
	acc := l.accounts[account]
	if acc == nil {
		if len(l.accounts) >= l.o.MaxAddrs {
			clear(l.accounts)
		}
		acc = bucket(l.o.AccountBurst, l.o.AccountEvery)
		l.accounts[account] = acc
	}
	if a.fails == 0 {
		// An address that has not failed goes ahead, and uses up the
		// tokens the ones that have failed wait for.
		acc.Take(now)
		l.all.Take(now)
	} else {
		okA, waitA := take(acc, now)
		if !okA {
			return waitA
		}
		if ok, wait := take(l.all, now); !ok {
			acc.Give(now) // not used
			return wait
		}
	}
	a.fails++
	a.last = now
	return 0
}

// Succeeded clears the failures of addr: its attempt was right.
func (l *Logins) Succeeded(addr string) {
	l.mu.Lock()
	delete(l.addrs, Key(addr))
	l.mu.Unlock()
}

// prune forgets the addresses whose failures are forgotten, and if that
// is not enough those not yet waiting (forgetting them gives them their
// few free attempts again, no more); l.mu held.
func (l *Logins) prune(now time.Time) {
	for k, a := range l.addrs {
		if now.Sub(a.last) > l.o.Forget {
			delete(l.addrs, k)
		}
	}
	if len(l.addrs) < l.o.MaxAddrs {
		return
	}
	for k, a := range l.addrs {
		if a.fails < l.o.Free {
			delete(l.addrs, k)
		}
	}
}

// Addrs is how many addresses Logins remembers.
func (l *Logins) Addrs() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.addrs)
}
