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
)

func testAuth(now *time.Time) *Auth {
	h, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	return New(Opts{Users: map[string]string{"anna": string(h)}, Now: func() time.Time { return *now }})
}

// Issue 22, finding 7: wrong passwords for anna every 0.5 s; the guesser
// waits, anna from another address logs in every time.
func TestBruteForce(t *testing.T) {
	now := time.Unix(1000, 0)
	a := testAuth(&now)
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
		now = now.Add(500 * time.Millisecond)
	}
	if refused < 110 {
		t.Errorf("%d of the guesser's 120 attempts refused", refused)
	}
	now = now.Add(2 * time.Hour)
	if _, err := a.Login("10.0.0.1", "anna", "correct horse"); err != nil {
		t.Fatalf("after the failures are forgotten: %v", err)
	}
}

func TestSessionAndCSRF(t *testing.T) {
	now := time.Unix(1000, 0)
	a := testAuth(&now)
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
	now = now.Add(13 * time.Hour)
	if a.Session(r) != nil {
		t.Error("a session outlived its TTL")
	}
}
