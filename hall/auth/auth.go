// Package auth guards the arbiter's pages: passwords hashed with bcrypt,
// a session cookie, a CSRF token in every form, and logins rate-limited
// per address and per user so that passwords cannot be guessed at speed.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// CookieName is the session cookie.
const CookieName = "zeitnot_hall"

// Opts configure an Auth.
type Opts struct {
	// Users are the arbiters: name -> bcrypt hash.
	Users map[string]string
	// SessionTTL is how long a session lasts without use (default 12 h).
	SessionTTL time.Duration
	// Secure marks the cookie Secure (the pages are served over HTTPS).
	Secure bool
	// Burst and Every limit the login attempts of one address and of one
	// user name: Burst at once, then one per Every (defaults 5 and 10 s).
	Burst int
	Every time.Duration
	Now   func() time.Time
}

// Session is a logged-in arbiter.
type Session struct {
	User string
	CSRF string
	seen time.Time
}

// Auth checks logins and keeps the sessions, in memory: a restart of the
// hall logs the arbiters out.
type Auth struct {
	o Opts

	mu       sync.Mutex
	sessions map[string]*Session
	buckets  map[string]*bucket
	dummy    []byte
}

// New returns an Auth for o.
func New(o Opts) *Auth {
	if o.SessionTTL == 0 {
		o.SessionTTL = 12 * time.Hour
	}
	if o.Burst == 0 {
		o.Burst = 5
	}
	if o.Every == 0 {
		o.Every = 10 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	d, _ := bcrypt.GenerateFromPassword([]byte("not a password"), bcrypt.DefaultCost)
	return &Auth{o: o, sessions: map[string]*Session{}, buckets: map[string]*bucket{}, dummy: d}
}

// Hash returns the bcrypt hash of password, for the hall config.
func Hash(password string) (string, error) {
	if len(password) < 8 {
		return "", errors.New("a password of at least 8 characters, please")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	return string(h), err
}

// CheckHash reports whether h is a bcrypt hash.
func CheckHash(h string) error {
	_, err := bcrypt.Cost([]byte(h))
	return err
}

// ErrTooMany is returned by Login when the address or user has used its
// attempts; RetryAfter says when to try again.
type ErrTooMany struct{ RetryAfter time.Duration }

func (e *ErrTooMany) Error() string {
	return "too many login attempts; try again in " + e.RetryAfter.Round(time.Second).String()
}

// ErrBadLogin is a wrong user name or password.
var ErrBadLogin = errors.New("wrong user name or password")

type bucket struct {
	tokens float64
	last   time.Time
}

// take takes a token from the bucket of k.
func (a *Auth) take(k string, now time.Time) (bool, time.Duration) {
	b := a.buckets[k]
	if b == nil {
		if len(a.buckets) > 100000 {
			clear(a.buckets) // an attack from many addresses: start over rather than grow
		}
		b = &bucket{tokens: float64(a.o.Burst), last: now}
		a.buckets[k] = b
	}
	b.tokens = min(float64(a.o.Burst), b.tokens+now.Sub(b.last).Seconds()/a.o.Every.Seconds())
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) * float64(a.o.Every))
}

// Login checks user and password from the client at addr and returns a
// new session's token.
func (a *Auth) Login(addr, user, password string) (string, error) {
	now := a.o.Now()
	a.mu.Lock()
	okA, waitA := a.take("addr "+addr, now)
	okU, waitU := a.take("user "+user, now)
	a.mu.Unlock()
	if !okA || !okU {
		return "", &ErrTooMany{RetryAfter: max(waitA, waitU)}
	}
	hash, known := a.o.Users[user]
	h := []byte(hash)
	if !known {
		h = a.dummy // the same work, so the time does not tell which users exist
	}
	if bcrypt.CompareHashAndPassword(h, []byte(password)) != nil || !known {
		return "", ErrBadLogin
	}
	tok := token()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions[tok] = &Session{User: user, CSRF: token(), seen: now}
	return tok, nil
}

func token() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Session returns the session of r's cookie, or nil.
func (a *Auth) Session(r *http.Request) *Session {
	c, err := r.Cookie(CookieName)
	if err != nil {
		return nil
	}
	now := a.o.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[c.Value]
	if s == nil {
		return nil
	}
	if now.Sub(s.seen) > a.o.SessionTTL {
		delete(a.sessions, c.Value)
		return nil
	}
	s.seen = now
	cp := *s
	return &cp
}

// SetCookie sets the session cookie for tok.
func (a *Auth) SetCookie(w http.ResponseWriter, tok string) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, Secure: a.o.Secure, SameSite: http.SameSiteStrictMode})
}

// Logout ends r's session and clears the cookie.
func (a *Auth) Logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		a.mu.Lock()
		delete(a.sessions, c.Value)
		a.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: a.o.Secure, SameSite: http.SameSiteStrictMode})
}

// CheckCSRF reports whether the form of r carries s's token, and, if the
// browser says where the form came from, that it came from this host.
func CheckCSRF(r *http.Request, s *Session) bool {
	if s == nil {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		if !sameHost(o, r.Host) {
			return false
		}
	}
	got := r.PostFormValue("csrf")
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.CSRF)) == 1
}

func sameHost(origin, host string) bool {
	o := origin
	if i := strings.Index(o, "://"); i >= 0 {
		o = o[i+3:]
	}
	return strings.EqualFold(o, host)
}

// ClientAddr is the address of r's client, without the port.
func ClientAddr(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// ErrBadToken is a request for the API with no token, or a wrong one.
var ErrBadToken = errors.New("want Authorization: Bearer TOKEN with the hall's API token (hall.toml api_token_file)")

// Bearer checks the API token of a request from a script: the
// Authorization header's "Bearer TOKEN", compared with want in constant
// time. A wrong token costs its address one of the attempts a login has
// (Opts.Burst, then one per Every); an address that has used them gets
// ErrTooMany, with the right token too, until it may try again. An empty
// want (no api_token_file) refuses every token.
func (a *Auth) Bearer(r *http.Request, want string) error {
	now := a.o.Now()
	k := "token " + ClientAddr(r)
	a.mu.Lock()
	defer a.mu.Unlock()
	if b := a.buckets[k]; b != nil {
		if left := min(float64(a.o.Burst), b.tokens+now.Sub(b.last).Seconds()/a.o.Every.Seconds()); left < 1 {
			return &ErrTooMany{RetryAfter: time.Duration((1 - left) * float64(a.o.Every))}
		}
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok && want != "" && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(want)) == 1 {
		return nil
	}
	a.take(k, now)
	return ErrBadToken
}
