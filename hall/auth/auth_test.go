package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

func testAuth(clk *wallclocktest.Clock) *Auth {
	h, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	return New(Opts{Users: map[string]string{"anna": string(h)}, Clock: clk})
}

// TestBruteForce: wrong passwords for anna every 0.5 s; the guesser waits,
// anna from another address logs in every time: the guesser is locked
// out, never the account.
func TestBruteForce(t *testing.T) {
	clk := wallclocktest.New(time.Unix(1000, 0))
	a := testAuth(clk)
	for i := 0; i < 3; i++ {
		if _, err := a.Login("10.0.0.1", "anna", "guess"); !errors.Is(err, ErrBadLogin) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	// The fourth, even with the right password, waits.
	_, err := a.Login("10.0.0.1", "anna", "correct horse")
	var tm *ErrTooMany
	if !errors.As(err, &tm) || tm.RetryAfter <= 0 {
		t.Fatalf("fourth attempt: %v", err)
	}
	refused := 0
	for i := range 120 {
		if _, err := a.Login("10.0.0.1", "anna", "guess"); errors.As(err, &tm) {
			refused++
		}
		if i%15 == 14 {
			if _, err := a.Login("10.0.0.2", "anna", "correct horse"); err != nil {
				t.Errorf("anna's login at %v: %v", time.Duration(i)*500*time.Millisecond, err)
			}
		}
		clk.Advance(500 * time.Millisecond)
	}
	if refused < 110 {
		t.Errorf("%d of the guesser's 120 attempts refused", refused)
	}
	clk.Advance(2 * time.Hour)
	if _, err := a.Login("10.0.0.1", "anna", "correct horse"); err != nil {
		t.Fatalf("after the failures are forgotten: %v", err)
	}
}

func TestSessionAndCSRF(t *testing.T) {
	clk := wallclocktest.New(time.Unix(1000, 0))
	a := testAuth(clk)
	tok, err := a.Login("127.0.0.1", "anna", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/arbiter", nil)
	r.AddCookie(&http.Cookie{Name: CookieName, Value: tok})
	s := a.Session(r)
	if s == nil || s.User != "anna" || s.CSRF == "" {
		t.Fatalf("session %+v", s)
	}
	post := func(csrf, origin string) bool {
		r := httptest.NewRequest("POST", "http://hall.example/arbiter", strings.NewReader(url.Values{"csrf": {csrf}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		return CheckCSRF(r, s)
	}
	if !post(s.CSRF, "") || !post(s.CSRF, "http://hall.example") {
		t.Error("the right token refused")
	}
	if post("", "") || post("x"+s.CSRF, "") || post(s.CSRF, "http://evil.example") {
		t.Error("a wrong token or origin accepted")
	}
	clk.Advance(13 * time.Hour)
	if a.Session(r) != nil {
		t.Error("a session outlived its TTL")
	}
}

// TestBearer: the API token in the Authorization header; wrong ones count
// as failed logins of the address, which then waits, with the right token
// too, until it may try again.
func TestBearer(t *testing.T) {
	clk := wallclocktest.New(time.Unix(1000, 0))
	a := New(Opts{Clock: clk})
	req := func(addr, header string) *http.Request {
		r := httptest.NewRequest("GET", "/api/tournament.trf", nil)
		r.RemoteAddr = addr + ":4000"
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		return r
	}
	const tok = "0123456789abcdef"
	if err := a.Bearer(req("10.0.0.1", "Bearer "+tok), tok); err != nil {
		t.Fatalf("the right token: %v", err)
	}
	if err := a.Bearer(req("10.0.0.1", "Bearer "+tok), ""); !errors.Is(err, ErrBadToken) {
		t.Errorf("no token configured: %v", err)
	}
	var tm *ErrTooMany
	refused := false
	for i, h := range []string{"", "Basic " + tok, "Bearer 0123456789abcdeX", "Bearer", "bearer " + tok, "Bearer x"} {
		err := a.Bearer(req("10.0.0.2", h), tok)
		if errors.As(err, &tm) {
			refused = true
			break
		}
		if !errors.Is(err, ErrBadToken) {
			t.Errorf("attempt %d (%q): %v", i, h, err)
		}
	}
	if !refused {
		t.Fatal("six wrong tokens from one address, and it need not wait")
	}
	if err := a.Bearer(req("10.0.0.2", "Bearer "+tok), tok); !errors.As(err, &tm) || tm.RetryAfter <= 0 {
		t.Fatalf("a waiting address with the right token: %v", err)
	}
	if err := a.Bearer(req("10.0.0.3", "Bearer "+tok), tok); err != nil {
		t.Errorf("another address: %v", err)
	}
	clk.Advance(tm.RetryAfter + time.Second)
	if err := a.Bearer(req("10.0.0.2", "Bearer "+tok), tok); err != nil {
		t.Errorf("after the wait: %v", err)
	}
}
