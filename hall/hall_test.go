package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/devtools/sseclient"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/protocol"
)

// startHall starts a hall with the embedded broker on free loopback ports.
func startHall(t testing.TB, mod func(*Config)) *Hall {
	t.Helper()
	return startHallOpts(t, mod, Opts{Logf: t.Logf})
}

func startHallOpts(t testing.TB, mod func(*Config), o Opts) *Hall {
	t.Helper()
	cfg := DefaultConfig()
	cfg.HTTP, cfg.MQTT, cfg.Data, cfg.Hall = "127.0.0.1:0", "127.0.0.1:0", t.TempDir(), "test"
	if mod != nil {
		mod(&cfg)
	}
	h, err := Start(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func brokerURL(h *Hall) *url.URL { return &url.URL{Scheme: "mqtt", Host: h.MQTTAddr()} }

func dialClock(t testing.TB, u *url.URL, board int, mod func(*fakeclock.Opts)) *fakeclock.Clock {
	t.Helper()
	o := fakeclock.Opts{Broker: u, Hall: "test", Board: board, Control: "300+2"}
	if mod != nil {
		mod(&o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := fakeclock.Dial(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func get(t testing.TB, h *Hall, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + h.HTTPAddr() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func waitFor(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitIdle(t testing.TB, cs ...*fakeclock.Clock) {
	t.Helper()
	waitFor(t, 10*time.Second, "the clocks to have sent everything", func() bool {
		for _, c := range cs {
			if !c.Idle() {
				return false
			}
		}
		return true
	})
}

// A press arrives on the live stream, in the API, in the log and the PGN.
func TestPressToPage(t *testing.T) {
	h := startHall(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := sseclient.Dial(ctx, "http://"+h.HTTPAddr()+"/events", 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := dialClock(t, brokerURL(h), 7, nil)
	var lat []time.Duration
	for i := 0; i < 6; i++ {
		held, moves := c.Press()
		for {
			ev, ok := <-s.C
			if !ok {
				t.Fatalf("stream ended: %v", s.Err)
			}
			var v web.View
			if ev.Name != "board" || json.Unmarshal([]byte(ev.Data), &v) != nil || v.Board != 7 || v.State == nil {
				continue
			}
			cs, err := protocol.ParseStatus(v.State)
			if err != nil {
				t.Fatal(err)
			}
			if cs.White.Moves+cs.Black.Moves == moves && v.Time == held.UnixMilli() && cs.Started {
				lat = append(lat, ev.At.Sub(held))
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Logf("press to live stream: %v", lat)
	waitIdle(t, c)
	code, body := get(t, h, "/api/boards")
	var boards []struct {
		Board  int             `json:"board"`
		Online bool            `json:"online"`
		State  json.RawMessage `json:"state"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &boards) != nil || len(boards) != 1 || boards[0].Board != 7 || !boards[0].Online {
		t.Fatalf("/api/boards: %d %s", code, body)
	}
	var m protocol.StateMsg
	if json.Unmarshal(boards[0].State, &m) != nil || m.Board != 7 || m.Game != c.Game() {
		t.Fatalf("/api/boards state: %s", boards[0].State)
	}
	code, body = get(t, h, "/api/boards/7/log")
	if want := strings.Join(c.Lines(), "\n") + "\n"; code != 200 || body != want {
		t.Fatalf("/api/boards/7/log: %d\n%s\nwant\n%s", code, body, want)
	}
	code, body = get(t, h, "/api/boards/7/pgn")
	if code != 200 || !strings.Contains(body, `[TimeControl "300+2"]`) || !strings.Contains(body, "3. clk ") {
		t.Fatalf("/api/boards/7/pgn: %d\n%s", code, body)
	}
	if code, _ := get(t, h, "/api/boards/8"); code != 404 {
		t.Errorf("/api/boards/8: %d, want 404", code)
	}
	if code, _ := get(t, h, "/api/boards/x/log"); code != 404 {
		t.Errorf("/api/boards/x/log: %d, want 404", code)
	}
	// The hall restarts: nothing is lost.
	dir := h.cfg.Data
	h.Close()
	h2 := startHall(t, func(c *Config) { c.Data = dir })
	code, body = get(t, h2, "/api/boards/7/log")
	if want := strings.Join(c.Lines(), "\n") + "\n"; code != 200 || body != want {
		t.Fatalf("after a restart, /api/boards/7/log: %d\n%s\nwant\n%s", code, body, want)
	}
}

// What a clock may not do on the embedded broker.
func TestClockMisbehaves(t *testing.T) {
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 3, nil)
	c.Press()
	waitIdle(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	before, _ := h.Store().Board(3)
	lines, _ := h.Store().Lines(3, c.Game())
	// A forged command, to its own board and to all.
	for _, topic := range []string{c.Topics().Cmd, c.Topics().All, protocol.TopicsFor("test", 4).Cmd} {
		if err := c.Publish(ctx, topic, []byte(`{"cmd":"pause"}`), false); err == nil {
			t.Errorf("a clock published a command on %s", topic)
		}
	}
	// Another board's topics.
	other := protocol.TopicsFor("test", 4)
	if err := c.Publish(ctx, other.State, []byte(`{"hall":"test","board":4,"time":1,"state":{"running":"none","white":{},"black":{}}}`), true); err == nil {
		t.Error("board 3 published board 4's state")
	}
	// Malformed and lying messages on its own topics.
	for _, p := range []struct{ topic, payload string }{
		{c.Topics().State, `{"hall":"test","board":4,"time":1,"state":{"running":"none"}}`},
		{c.Topics().State, `not json`},
		{c.Topics().State, `{"hall":"test","board":3,"time":1,"state":{"running":"sideways"}}`},
		{c.Topics().State, `{"hall":"test","board":3,"time":1,"state":{"running":"none"}} {}`},
		// A state without white froze the pages.
		{c.Topics().State, `{"hall":"test","board":3,"time":1,"state":{"at":0,"running":"none","paused":false,"first_flag":"none","black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false}}`},
		{c.Topics().Log, `{"game":"../../etc","seq":1,"line":"x"}`},
		{c.Topics().Log, `{"game":"g","seq":0,"line":"x"}`},
		{c.Topics().Log, fmt.Sprintf(`{"game":"g","seq":1,"line":"%s"}`, strings.Repeat("x", 2000))},
		{c.Topics().Online, `[]`},
		{c.Topics().Reply, `{"board":9,"ok":true}`},
		{c.Topics().State, strings.Repeat(" ", 20<<10) + "{}"},
	} {
		if err := c.Publish(ctx, p.topic, []byte(p.payload), false); err == nil {
			t.Errorf("accepted on %s: %.60s", p.topic, p.payload)
		}
	}
	after, _ := h.Store().Board(3)
	if a, b := fmt.Sprint(json.Marshal(after.State)), fmt.Sprint(json.Marshal(before.State)); a != b {
		t.Errorf("the state changed: %s", a)
	}
	if _, ok := h.Store().Board(4); ok {
		t.Error("the hall has a board 4")
	}
	if l, _ := h.Store().Lines(3, c.Game()); len(l) != len(lines) {
		t.Errorf("lines %d, want %d", len(l), len(lines))
	}
	// An oversized packet costs the clock its connection, not the hall.
	octx, ocancel := context.WithTimeout(ctx, time.Second)
	c.Publish(octx, c.Topics().State, make([]byte, 100<<10), false)
	ocancel()
	c.Press()
	waitIdle(t, c)
	if code, _ := get(t, h, "/api/boards/3"); code != 200 {
		t.Errorf("the hall after an oversized message: %d", code)
	}
}
