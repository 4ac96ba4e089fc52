// Package auth guards the arbiter's pages: passwords hashed with bcrypt,
// a session cookie, a CSRF token in every form (the login form too), and
// failed logins limited per address with a backoff (limit.Logins): the
// guesser waits, never the arbiter at another address, and a limited
// attempt is refused before its password is hashed.
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

	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// CookieName is the session cookie.
const CookieName = "zeitnot_hall"

// Opts configure an Auth.
type Opts struct {
	// Users are the arbiters: name -> bcrypt hash.
	Users map[string]string
	// SessionTTL is how long a session lasts without use (default 12 h).
	SessionTTL time.Duration
	// Secure marks the cookie Secure always; without it the cookie is
	// Secure when the request came over TLS, or through a proxy that says
	// so (X-Forwarded-Proto: https).
	Secure bool
	// Limits are the login limits (limit.LoginOpts' defaults; their Clock
	// is Opts.Clock).
	Limits limit.LoginOpts
	// Clock is the sessions' and the limits' time (nil: wallclock.Real).
	Clock wallclock.Clock
	// File keeps the sessions across a restart of the hall (sessions.go):
	// the hall's data directory's SessionsFile. "": in memory only.
	File string
	// Logf says what of File could not be read or written (nil: nothing).
	Logf func(format string, a ...any)
}

// Session is a logged-in arbiter.
type Session struct {
	User string
	CSRF string
	seen time.Time
	// saved is the seen the file has.
	saved time.Time
}

// Auth checks logins and keeps the sessions, by a hash of their tokens,
// in memory and in Opts.File: a restart of the hall keeps the arbiters
// logged in.
type Auth struct {
	o Opts

	logins *limit.Logins
	hashes chan struct{} // one bcrypt at a time: logins never take both cores

	mu       sync.Mutex
	sessions map[string]*Session // by tokenKey
	dummy    []byte
}

// New returns an Auth for o.
func New(o Opts) *Auth {
	if o.SessionTTL == 0 {
		o.SessionTTL = 12 * time.Hour
	}
	o.Clock = wallclock.Or(o.Clock)
	if o.Limits.Clock == nil {
		o.Limits.Clock = o.Clock
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	d, _ := bcrypt.GenerateFromPassword([]byte("not a password"), bcrypt.DefaultCost)
	a := &Auth{o: o, logins: limit.NewLogins(o.Limits), hashes: make(chan struct{}, 1), sessions: map[string]*Session{}, dummy: d}
	a.load()
	return a
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

// ErrTooMany is returned by Login when the address has failed too often
// lately; RetryAfter says when to try again.
type ErrTooMany struct{ RetryAfter time.Duration }

func (e *ErrTooMany) Error() string {
	return "too many failed logins from your address; try again in " + max(e.RetryAfter, time.Second).Round(time.Second).String()
}

// ErrBadLogin is a wrong user name or password.
var ErrBadLogin = errors.New("wrong user name or password")

// Login checks user and password from the client at addr and returns a
// new session's token. An attempt the limits refuse costs no hash.
func (a *Auth) Login(addr, user, password string) (string, error) {
	hash, known := a.o.Users[user]
	account := ""
	if known {
		account = user
	}
	if wait := a.logins.Attempt(addr, account); wait > 0 {
		return "", &ErrTooMany{RetryAfter: wait}
	}
	h := []byte(hash)
	if !known {
		h = a.dummy // the same work, so the time does not tell which users exist
	}
	a.hashes <- struct{}{}
	err := bcrypt.CompareHashAndPassword(h, []byte(password))
	<-a.hashes
	if err != nil || !known {
		return "", ErrBadLogin
	}
	a.logins.Succeeded(addr)
	tok := token()
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.o.Clock.Now()
	a.sessions[tokenKey(tok)] = &Session{User: user, CSRF: token(), seen: now, saved: now}
	a.save()
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
	now := a.o.Clock.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	k := tokenKey(c.Value)
	s := a.sessions[k]
	if s == nil {
		return nil
	}
	if now.Sub(s.seen) > a.o.SessionTTL {
		delete(a.sessions, k)
		a.save()
		return nil
	}
	s.seen = now
	if now.Sub(s.saved) >= saveEvery {
		a.save()
	}
	cp := *s
	return &cp
}

// secure reports whether r's cookies are to be Secure: always with
// Opts.Secure, else when r came over TLS or a proxy says it did (a forged
// X-Forwarded-Proto only makes the forger's own cookie stricter).
func (a *Auth) secure(r *http.Request) bool {
	return a.o.Secure || r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// SetCookie sets the session cookie for tok, in the answer to r.
func (a *Auth) SetCookie(w http.ResponseWriter, r *http.Request, tok string) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, Secure: a.secure(r), SameSite: http.SameSiteStrictMode})
	http.SetCookie(w, &http.Cookie{Name: LoginCookieName, Value: "", Path: "/login", MaxAge: -1, HttpOnly: true, Secure: a.secure(r), SameSite: http.SameSiteStrictMode})
}

// LoginCookieName is the cookie that carries the login form's CSRF token.
const LoginCookieName = "zeitnot_login"

// LoginToken returns the CSRF token for the login form answering r, and
// sets it in a cookie the form's POST must bring back with it (a form
// another site makes cannot read it, so cannot log the arbiter's browser
// in as someone else).
func (a *Auth) LoginToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(LoginCookieName); err == nil && len(c.Value) == 43 {
		return c.Value
	}
	tok := token()
	http.SetCookie(w, &http.Cookie{Name: LoginCookieName, Value: tok, Path: "/login", MaxAge: 3600, HttpOnly: true, Secure: a.secure(r), SameSite: http.SameSiteStrictMode})
	return tok
}

// CheckLoginCSRF reports whether the login form of r carries the token of
// its cookie, and, if the browser says where the form came from, that it
// came from this host.
func CheckLoginCSRF(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" && o != "null" && !sameHost(o, r.Host) {
		return false
	}
	c, err := r.Cookie(LoginCookieName)
	got := r.PostFormValue("csrf")
	return err == nil && c.Value != "" && got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(c.Value)) == 1
}

// Logout ends r's session and clears the cookie.
func (a *Auth) Logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		a.mu.Lock()
		if _, ok := a.sessions[tokenKey(c.Value)]; ok {
			delete(a.sessions, tokenKey(c.Value))
			a.save()
		}
		a.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: a.secure(r), SameSite: http.SameSiteStrictMode})
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
// time. It takes the login's limits (limit.Logins, the token as one more
// account): a wrong token counts as a failed login of its address, and
// an address that must wait gets ErrTooMany, with the right token too,
// until it may try again. An empty want (no api_token_file) refuses every
// token.
func (a *Auth) Bearer(r *http.Request, want string) error {
	addr := ClientAddr(r)
	if wait := a.logins.Attempt(addr, "\x00api-token"); wait > 0 {
		return &ErrTooMany{RetryAfter: wait}
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok && want != "" && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(want)) == 1 {
		a.logins.Succeeded(addr)
		return nil
	}
	return ErrBadToken
}
