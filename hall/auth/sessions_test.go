package auth

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

func fileAuth(clk *wallclocktest.Clock, file string, logf func(string, ...any)) *Auth {
	h, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	return New(Opts{Users: map[string]string{"anna": string(h)}, Clock: clk, File: file, Logf: logf})
}

func sessionOf(a *Auth, tok string) *Session {
	r := httptest.NewRequest("GET", "/arbiter", nil)
	r.Header.Set("Cookie", CookieName+"="+tok)
	return a.Session(r)
}

// A session outlives the Auth (a restart of the hall) through its file:
// the same token, the same CSRF token; the file is 0600 and holds no
// token; an expired session is dropped when the file is read; a logout
// ends a session for good.
func TestSessionsKeptInFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), SessionsFile)
	clk := wallclocktest.New(time.Unix(100000, 0))
	a := fileAuth(clk, file, t.Logf)
	tok, err := a.Login("127.0.0.1", "anna", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	old, err := a.Login("127.0.0.1", "anna", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	csrf := sessionOf(a, tok).CSRF
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("%s: mode %o, want 600", file, m)
	}
	data, _ := os.ReadFile(file)
	if strings.Contains(string(data), tok) || strings.Contains(string(data), old) {
		t.Errorf("%s holds a session's token:\n%s", file, data)
	}

	// Eleven hours on, the first session is used, the other not; the
	// hall restarts an hour and a half later: the first holds (12 h
	// from its last use), the other has expired and is gone from the
	// file too.
	clk.Advance(11 * time.Hour)
	if sessionOf(a, tok) == nil {
		t.Fatal("the session before the restart")
	}
	clk.Advance(90 * time.Minute)
	b := fileAuth(clk, file, t.Logf)
	s := sessionOf(b, tok)
	if s == nil || s.User != "anna" || s.CSRF != csrf {
		t.Fatalf("after the restart: %+v, want anna's session with its CSRF token", s)
	}
	if sessionOf(b, old) != nil {
		t.Error("an expired session holds after the restart")
	}
	data, _ = os.ReadFile(file)
	if n := strings.Count(string(data), `"token_sha256"`); n != 1 {
		t.Errorf("%s keeps %d sessions, want 1:\n%s", file, n, data)
	}

	// The logout ends it, also for the hall after the next restart.
	r := httptest.NewRequest("POST", "/logout", nil)
	r.Header.Set("Cookie", CookieName+"="+tok)
	b.Logout(httptest.NewRecorder(), r)
	if sessionOf(b, tok) != nil {
		t.Error("the session holds after the logout")
	}
	if sessionOf(fileAuth(clk, file, t.Logf), tok) != nil {
		t.Error("the session holds after the logout and a restart")
	}
}

// A sessions' file the hall cannot read logs the arbiters out, saying
// what is wrong with it, and starts no session from it.
func TestSessionsFileBad(t *testing.T) {
	dir := t.TempDir()
	clk := wallclocktest.New(time.Unix(100000, 0))
	for _, c := range []struct{ name, data, want string }{
		{"not json", "sessions\n", "invalid character"},
		{"unknown field", `{"sessions":[],"tokens":["x"]}`, `unknown field "tokens"`},
		{"bad key", `{"sessions":[{"token_sha256":"abc","user":"anna","csrf":"x","seen":"2026-01-01T00:00:00Z"}]}`, "session 1: token_sha256 or csrf"},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
		os.WriteFile(file, []byte(c.data), 0o600)
		var said []string
		a := fileAuth(clk, file, func(f string, x ...any) { said = append(said, strings.TrimSpace(sprintf(f, x...))) })
		if len(a.sessions) != 0 {
			t.Errorf("%s: %d sessions", c.name, len(a.sessions))
		}
		if len(said) == 0 || !strings.Contains(said[0], file) || !strings.Contains(said[0], c.want) {
			t.Errorf("%s: the hall said %q, want the file and %q", c.name, said, c.want)
		}
	}
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }
