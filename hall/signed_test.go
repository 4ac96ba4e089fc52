package hall

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"html"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// arbiterForms logs in and returns a poster of /arbiter's forms (with the
// page's CSRF token; it returns the page the form leads to) and a getter
// of pages.
func arbiterForms(t *testing.T, h *Hall) (post func(url.Values) string, page func(string) string) {
	t.Helper()
	cl := arbiterClient(t, h)
	base := "http://" + h.HTTPAddr()
	page = func(path string) string {
		resp, err := cl.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return html.UnescapeString(string(b))
	}
	post = func(v url.Values) string {
		m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page("/arbiter"))
		if m == nil {
			t.Fatal("no CSRF token on /arbiter")
		}
		v.Set("csrf", m[1])
		resp, err := cl.PostForm(base+"/arbiter", v)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return html.UnescapeString(string(b))
	}
	return post, page
}

func newKey(t testing.TB) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func pubOf(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

// nextLine is a line with a right checksum that may follow lines: the
// last event's instant and text.
func nextLine(lines []string, text string) string {
	at := "0"
	for i := len(lines) - 1; i >= 0; i-- {
		if f, _, _ := strings.Cut(lines[i], " "); f != "" && f[0] >= '0' && f[0] <= '9' {
			at = f
			break
		}
	}
	return clocklog.WithChecksum(at + " " + text)
}

// TestForgedSignature: board 3 signs its lines; the hall learns its key
// when it joins, takes its lines as before and shows the key's
// fingerprint on /arbiter, where the arbiter confirms it. From then on a
// forger who publishes, as the board, the next line with a right checksum
// comes first in vain: without a signature, with another key's, or with
// the board's signature of another line, it is refused and kept as
// evidence (once), and the board's own line for that seq is taken when it comes.
// Without the signature the forged line would have stood (first line
// stands, TestForgedLogLines).
func TestForgedSignature(t *testing.T) {
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 3, func(o *fakeclock.Opts) { o.Sign = true })
	c.Press()
	c.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{3: c})
	key := protocol.FormatKey(c.PublicKey())
	fp := protocol.KeyFingerprint(c.PublicKey())
	wait.For(t, 10*time.Second, "board 3's key learned", func() bool {
		b, _ := h.Store().Board(3)
		return b.Key == key && b.KeyFrom == store.KeyLearned
	})
	post, page := arbiterForms(t, h)
	if p := page("/arbiter"); !strings.Contains(p, `id="keys"`) || !strings.Contains(p, "Board 3's key: "+fp+" (learned when it joined, not confirmed)") {
		t.Fatalf("/arbiter does not ask to confirm board 3's key %s:\n%s", fp, p)
	}
	if p := post(url.Values{"action": {"confirm-key"}, "board": {"3"}, "key": {key}}); !strings.Contains(p, "board 3: key "+fp+" confirmed") || strings.Contains(p, `id="keys"`) {
		t.Fatalf("confirming the key:\n%s", p)
	}
	if _, from, ok := h.Store().SigningKey(3); !ok || from != store.KeyConfirmed {
		t.Fatalf("board 3's key after the confirmation: %s, %v", from, ok)
	}

	game := c.Game()
	lines := c.Lines()
	seq := int64(len(lines) + 1)
	forged := nextLine(lines, "result 1-0 players")
	r := NewReceiver("test", h.Store())
	topic := protocol.TopicsFor("test", 3).Log
	other := newKey(t)
	for _, tt := range []struct {
		name, sig, want string
	}{
		{"no signature", "", "no signature"},
		{"another key's", protocol.SignLine(other, "test", 3, game, seq, forged), "does not verify"},
		{"the board's signature of line 2", c.SignLine(game, 2, lines[1]), "does not verify"},
		{"the board's signature for board 4", c.SignLineAs(4, game, seq, forged), "does not verify"},
	} {
		b, _ := json.Marshal(protocol.LogMsg{Game: game, Seq: seq, Line: forged, Sig: tt.sig})
		err := r.Receive(topic, b)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "board 3") || !strings.Contains(err.Error(), "confirmed by the arbiter") {
			t.Errorf("a forged line with %s: %v, want refused: %s", tt.name, err, tt.want)
		}
	}
	// The same forged line, however signed, is one piece of evidence.
	if got, _ := h.Store().Lines(3, game); len(got) != len(lines) {
		t.Errorf("the hall has %d lines after the forgeries, want %d", len(got), len(lines))
	}
	c.Press()
	c.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{3: c})
	cs := h.Store().Conflicts(3, game)
	if len(cs) != 1 {
		t.Fatalf("evidence: %+v, want the forged line once", cs)
	}
	for _, cf := range cs {
		if cf.Seq != seq || cf.SetAside != forged || cf.Kept != c.Lines()[seq-1] {
			t.Errorf("evidence %+v, want line %d %q set aside and the clock's %q kept", cf, seq, forged, c.Lines()[seq-1])
		}
	}
	if p := page("/arbiter"); !strings.Contains(p, "Board 3, game "+game+"</a>: 1 conflict") {
		t.Errorf("/arbiter does not show the evidence:\n%s", p)
	}
	if p := page("/arbiter/board/3?game=" + game); !strings.Contains(p, forged) || !strings.Contains(p, "no signature") {
		t.Errorf("the board's log page does not show the evidence and why:\n%s", p)
	}
	// A forged line for a game the hall has no line of is evidence too.
	b, _ := json.Marshal(protocol.LogMsg{Game: "forged-1", Seq: 1, Line: clocklog.WithChecksum("format 2")})
	if r.Receive(topic, b) == nil {
		t.Error("an unsigned line of a new game was taken")
	}
	if p := page("/arbiter"); !strings.Contains(p, "Board 3, game forged-1</a>: 1 conflict") {
		t.Errorf("/arbiter does not show the forged game:\n%s", p)
	}
	t.Logf("forged %q as line %d: refused 4 ways, kept once as evidence; the clock's line %d taken", forged, seq, seq)
}

// TestKeyChange: once board 4's key is confirmed, an online message with
// another key does not replace it: the new key is shown on /arbiter and
// lines signed with it are refused, until the arbiter confirms it (or
// dismisses it).
func TestKeyChange(t *testing.T) {
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 4, func(o *fakeclock.Opts) { o.Sign = true })
	c.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{4: c})
	old := protocol.FormatKey(c.PublicKey())
	wait.For(t, 10*time.Second, "board 4's key learned", func() bool { b, _ := h.Store().Board(4); return b.Key == old })
	if err := h.Store().ConfirmKey(4, old); err != nil {
		t.Fatal(err)
	}
	r := NewReceiver("test", h.Store())
	tp := protocol.TopicsFor("test", 4)
	nk := newKey(t)
	newKey := protocol.FormatKey(pubOf(nk))
	on, _ := json.Marshal(protocol.OnlineMsg{Online: true, Clock: true, Log: "ok", Key: newKey})
	if err := r.Receive(tp.Online, on); err != nil {
		t.Fatal(err)
	}
	b, _ := h.Store().Board(4)
	if b.Key != old || b.KeyFrom != store.KeyConfirmed || b.OtherKey != newKey {
		t.Fatalf("after the other key: key %s from %s, other %s", b.Key, b.KeyFrom, b.OtherKey)
	}
	post, page := arbiterForms(t, h)
	nfp, ofp := protocol.KeyFingerprint(pubOf(nk)), protocol.KeyFingerprint(c.PublicKey())
	if p := page("/arbiter"); !strings.Contains(p, "Board 4 offers another key: "+nfp) || !strings.Contains(p, "confirmed, "+ofp) {
		t.Errorf("/arbiter does not show the key change:\n%s", p)
	}
	game, lines := c.Game(), c.Lines()
	seq := int64(len(lines) + 1)
	line := nextLine(lines, "press white")
	msg, _ := json.Marshal(protocol.LogMsg{Game: game, Seq: seq, Line: line, Sig: protocol.SignLine(nk, "test", 4, game, seq, line)})
	if err := r.Receive(tp.Log, msg); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a line signed with the new key before it is confirmed: %v", err)
	}
	// A bad key in the online message is refused.
	bad, _ := json.Marshal(protocol.OnlineMsg{Online: true, Key: "ed25519:AAAA"})
	if err := r.Receive(tp.Online, bad); err == nil || !strings.Contains(err.Error(), "board 4") {
		t.Errorf("an online message with a bad key: %v", err)
	}
	// A stale form (another key than the one offered) changes nothing.
	if p := post(url.Values{"action": {"confirm-key"}, "board": {"4"}, "key": {protocol.FormatKey(pubOf(newKeyFor(t)))}}); !strings.Contains(p, "does not offer that key") {
		t.Errorf("confirming a key board 4 does not offer:\n%s", p)
	}
	if p := post(url.Values{"action": {"confirm-key"}, "board": {"4"}, "key": {newKey}}); !strings.Contains(p, "board 4: key "+nfp+" confirmed") {
		t.Fatalf("confirming the new key:\n%s", p)
	}
	if err := r.Receive(tp.Log, msg); err != nil {
		t.Errorf("the line signed with the confirmed new key: %v", err)
	}
	if got, _ := h.Store().Lines(4, game); len(got) != int(seq) {
		t.Errorf("the hall has %d lines, want %d", len(got), seq)
	}
	// Another change, dismissed: the hall keeps the key it knows.
	third := protocol.FormatKey(pubOf(newKeyFor(t)))
	on, _ = json.Marshal(protocol.OnlineMsg{Online: true, Key: third})
	if err := r.Receive(tp.Online, on); err != nil {
		t.Fatal(err)
	}
	if p := post(url.Values{"action": {"dismiss-key"}, "board": {"4"}, "key": {third}}); !strings.Contains(p, "dismissed") || strings.Contains(p, `id="keys"`) {
		t.Errorf("dismissing the third key:\n%s", p)
	}
	if b, _ := h.Store().Board(4); b.Key != newKey || b.OtherKey != "" {
		t.Errorf("after the dismissal: key %s, other %s", b.Key, b.OtherKey)
	}
}

func newKeyFor(t *testing.T) ed25519.PrivateKey { return newKey(t) }

// TestConfiguredKey: board 5's key is in hall.toml's [keys]. The hall
// checks its lines from the first: a forger's first line, before the
// board joins, is refused; the board's own signed lines are taken, and
// the card has the key as configured, with nothing to confirm.
func TestConfiguredKey(t *testing.T) {
	k := newKey(t)
	h := startHall(t, func(c *Config) { c.Keys = map[int]string{5: protocol.FormatKey(pubOf(k))} })
	r := NewReceiver("test", h.Store())
	b, _ := json.Marshal(protocol.LogMsg{Game: "g5-1", Seq: 1, Line: clocklog.WithChecksum("format 2")})
	if err := r.Receive(protocol.TopicsFor("test", 5).Log, b); err == nil || !strings.Contains(err.Error(), "given in hall.toml") {
		t.Fatalf("a forged first line: %v", err)
	}
	c := dialClock(t, brokerURL(h), 5, func(o *fakeclock.Opts) { o.Key = k })
	c.Press()
	c.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{5: c})
	if bd, _ := h.Store().Board(5); bd.KeyFrom != store.KeyConfigured || bd.OtherKey != "" {
		t.Errorf("board 5's key from %q, other %q", bd.KeyFrom, bd.OtherKey)
	}
	_, page := arbiterForms(t, h)
	if p := page("/arbiter"); strings.Contains(p, `id="keys"`) {
		t.Errorf("/arbiter asks to confirm a configured key:\n%s", p)
	}
	// An unsigned clock on board 6 is taken as before.
	u := dialClock(t, brokerURL(h), 6, nil)
	u.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{6: u})
	if _, _, ok := h.Store().SigningKey(6); ok {
		t.Error("board 6 has a signing key")
	}
}

// BenchmarkReceiveSigned is the hall's intake of one log line with and
// without the signature check: parse, verify (Ed25519), keep. The
// difference is what a board's key costs per line.
func BenchmarkReceiveSigned(b *testing.B) {
	for _, signed := range []bool{false, true} {
		name := "unsigned"
		if signed {
			name = "signed"
		}
		b.Run(name, func(b *testing.B) {
			st, err := store.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			k := newKey(b)
			if signed {
				st.ConfigKeys(map[int]string{1: protocol.FormatKey(pubOf(k))})
			}
			r := NewReceiver("test", st)
			topic := protocol.TopicsFor("test", 1).Log
			// Games of 1000 lines, the lines made before the clock runs.
			const perGame = 1000
			lines := make([]string, perGame)
			for i := range lines {
				lines[i] = clocklog.WithChecksum(strconv.Itoa(i*1000) + " press white")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				game := "g" + strconv.Itoa(i/perGame)
				seq := int64(i%perGame + 1)
				line := lines[i%perGame]
				m := protocol.LogMsg{Game: game, Seq: seq, Line: line}
				if signed {
					b.StopTimer()
					m.Sig = protocol.SignLine(k, "test", 1, game, seq, line)
					b.StartTimer()
				}
				p, _ := json.Marshal(m)
				if err := r.Receive(topic, p); err != nil && !strings.Contains(err.Error(), "games") {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerifyLine is the signature check alone.
func BenchmarkVerifyLine(b *testing.B) {
	k := newKey(b)
	pub := pubOf(k)
	line := clocklog.WithChecksum("1234567 press white")
	sig := protocol.SignLine(k, "test", 1, "0017-3fa2c1", 57, line)
	b.ReportAllocs()
	for b.Loop() {
		if err := protocol.VerifyLine(pub, "test", 1, "0017-3fa2c1", 57, line, sig); err != nil {
			b.Fatal(err)
		}
	}
}
