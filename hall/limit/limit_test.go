package limit

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

func newFake() *wallclocktest.Clock         { return wallclocktest.New(time.Unix(1e9, 0)) }
func (l *Logins) try(addr, acc string) bool { return l.Attempt(addr, acc) == 0 }

// Wrong passwords for arbiter every 0.5 s refused the real arbiter's right
// one 7 times of 8. The guesser waits, the arbiter from an address that
// has not failed never does.
func TestGuesserNotAccountLockedOut(t *testing.T) {
	ft := newFake()
	l := NewLogins(LoginOpts{Clock: ft})
	guesses, arbiter := 0, 0
	for i := range 240 { // 120 s, a guess every 0.5 s
		if l.try("192.0.2.66", "arbiter") {
			guesses++
		}
		if i%30 == 29 { // the arbiter logs in every 15 s
			if !l.try("192.0.2.10", "arbiter") {
				t.Errorf("at %v the arbiter's login was refused", time.Duration(i)*500*time.Millisecond)
			} else {
				arbiter++
				l.Succeeded("192.0.2.10")
			}
		}
		ft.Advance(500 * time.Millisecond)
	}
	t.Logf("240 guesses in 120 s: %d checked; the arbiter's 8 logins: %d checked", guesses, arbiter)
	// 3 free, then waits of 2, 4, 8, 16, 32, 64 s.
	if guesses > 9 {
		t.Errorf("%d guesses checked in 120 s, want at most 9", guesses)
	}
}

// 1,000 failed logins from 200 addresses cost 63 CPU-seconds. Each new
// address gets its attempts; past the account's burst an address that has
// failed waits for the account's tokens.
func TestManyAddressesBounded(t *testing.T) {
	ft := newFake()
	l := NewLogins(LoginOpts{Clock: ft})
	checked := 0
	for round := range 5 {
		for a := range 200 {
			if l.try("198.51.100."+strconv.Itoa(a), "arbiter") {
				checked++
			}
			ft.Advance(65 * time.Second / 1000)
		}
		_ = round
	}
	t.Logf("1,000 failed logins from 200 addresses in 65 s: %d checked", checked)
	// 200 first attempts, plus the account's 10 and one per 10 s.
	if checked > 200+10+7 {
		t.Errorf("%d checked, want at most 217", checked)
	}
	if !l.try("198.51.100.250", "arbiter") {
		t.Error("a new address was refused")
	}
}

func TestForgetAndBound(t *testing.T) {
	ft := newFake()
	l := NewLogins(LoginOpts{Clock: ft, MaxAddrs: 100})
	for a := range 500 {
		l.try("10.0."+strconv.Itoa(a/256)+"."+strconv.Itoa(a%256), "x")
		ft.Advance(time.Second)
	}
	if n := l.Addrs(); n > 100 {
		t.Errorf("%d addresses remembered, at most 100", n)
	}
	for range 3 {
		l.try("10.9.9.9", "x")
	}
	if l.try("10.9.9.9", "x") {
		t.Error("a fourth attempt at once was checked")
	}
	ft.Advance(2 * time.Hour)
	if !l.try("10.9.9.9", "x") {
		t.Error("failures not forgotten after 2 h")
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:5000":       "192.0.2.1",
		"[2001:db8::1]:80":     "2001:db8::/64",
		"2001:db8::ffff:1":     "2001:db8::/64",
		"[::ffff:192.0.2.7]:1": "192.0.2.7",
		"[fe80::1%eth0]:1":     "fe80::/64",
		"not an address":       "not an address",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

// One address holds PerAddr connections; past Total the oldest unknown is
// closed for the newest, a Known one never.
func TestListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := NewListener(raw, ListenerOpts{PerAddr: 2, Total: 3})
	defer l.Close()
	accepted := make(chan *Conn, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c.(*Conn)
		}
	}()
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial("127.0.0.2")
	first := <-accepted
	first.Known()
	dial("127.0.0.2")
	<-accepted
	dial("127.0.0.2") // a third from one address: closed at once
	dial("127.0.0.3")
	<-accepted
	dial("127.0.0.4") // a fourth in all: the oldest unknown closed
	<-accepted
	if l.Refused() != 1 || l.Evicted() != 1 || l.Open() != 3 {
		t.Errorf("refused %d, evicted %d, open %d; want 1, 1, 3", l.Refused(), l.Evicted(), l.Open())
	}
	if first.elem != nil {
		t.Error("the known connection is in the unknown list")
	}
}
