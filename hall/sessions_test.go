package hall

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/zeitnot/zeitnot/hall/auth"
)

// freeAddr is a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The arbiter's login survives a restart of the hall: the session is in
// the data directory (0600), the same cookie and its CSRF token work on
// the new hall; a logout ends it for good, also across the next restart.
func TestSessionSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	httpAddr, mqttAddr := freeAddr(t), freeAddr(t)
	start := func() *Hall {
		return startHall(t, func(c *Config) { c.HTTP, c.MQTT, c.Data = httpAddr, mqttAddr, dir })
	}
	h := start()
	cl := arbiterClient(t, h)
	csrfOf := func(h *Hall) string {
		t.Helper()
		resp, err := cl.Get("http://" + h.HTTPAddr() + "/arbiter")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.Request.URL.Path != "/arbiter" {
			return "" // sent to the login
		}
		b, _ := io.ReadAll(resp.Body)
		if m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(b); m != nil {
			return string(m[1])
		}
		return ""
	}
	csrf := csrfOf(h)
	if csrf == "" {
		t.Fatal("no arbiter's page after the login")
	}
	fi, err := os.Stat(filepath.Join(dir, auth.SessionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("%s: mode %o, want 600", auth.SessionsFile, m)
	}
	h.Close()

	h = start()
	if got := csrfOf(h); got != csrf {
		t.Fatalf("after the restart: CSRF token %q, want the session's %q (logged out?)", got, csrf)
	}
	var cookie string
	for _, c := range cl.Jar.Cookies(&url.URL{Scheme: "http", Host: h.HTTPAddr(), Path: "/"}) {
		if c.Name == auth.CookieName {
			cookie = c.Value
		}
	}
	if cookie == "" {
		t.Fatal("no session cookie")
	}
	resp, err := cl.PostForm("http://"+h.HTTPAddr()+"/logout", map[string][]string{"csrf": {csrf}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csrfOf(h) != "" {
		t.Fatal("the session holds after the logout")
	}
	h.Close()

	// The old cookie, sent again after the next restart, is nobody's.
	h = start()
	req, _ := http.NewRequest("GET", "http://"+h.HTTPAddr()+"/arbiter", nil)
	req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: cookie})
	resp, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("/arbiter without a session: %s, want 303 to the login", resp.Status)
	}
}
