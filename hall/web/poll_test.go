package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// getTagged is get with If-None-Match etag.
func getTagged(srv http.Handler, url, etag string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", url, nil)
	req.Header.Set("If-None-Match", etag)
	srv.ServeHTTP(rec, req)
	return rec
}

// The PGN URLs answer with an ETag; a poll that sends it back gets 304
// Not Modified without a body while nothing changed, and the PGN again,
// with another ETag, once a line joins a game. A repeat poll of
// /round.pgn parses no line and writes no game again; a line more costs
// the parse of that line.
func TestPGNNotModified(t *testing.T) {
	played := time.Date(2026, 3, 7, 19, 30, 0, 0, time.UTC)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(played)})
	for n := 1; n <= 3; n++ {
		hallGame(t, st, n, fmt.Sprintf("000%d-aaaaaa", n), boardGames[n].log(), store.Players{White: "A", Black: "B"}, `{"at":1000,"running":"none","started":true,"stopped":true}`, played)
	}
	for _, url := range []string{"/round.pgn", "/round.pgn?boards=2-3", "/api/games.pgn", "/api/boards/2/pgn"} {
		rec, body := get(t, srv, url)
		etag := rec.Header().Get("ETag")
		if rec.Code != 200 || etag == "" || !strings.Contains(body, "[Event ") {
			t.Fatalf("GET %s: %d, ETag %q\n%s", url, rec.Code, etag, body)
		}
		parsed := st.Stats().Parsed
		for _, tag := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
			if again := getTagged(srv, url, tag); again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("ETag") != etag {
				t.Errorf("GET %s with If-None-Match %s: %d, ETag %q, %d bytes; want 304, the same ETag, no body", url, tag, again.Code, again.Header().Get("ETag"), again.Body.Len())
			}
		}
		if again := getTagged(srv, url, `"other"`); again.Code != 200 || again.Body.String() != body {
			t.Errorf("GET %s with another ETag: %d, want 200 and the same PGN", url, again.Code)
		}
		if got := st.Stats().Parsed; got != parsed {
			t.Errorf("GET %s again parsed %d lines, want none", url, got-parsed)
		}
	}
	rec, _ := get(t, srv, "/round.pgn")
	etag := rec.Header().Get("ETag")
	lines, _ := st.Lines(2, "0002-aaaaaa")
	parsed := st.Stats().Parsed
	if _, err := st.PutLine(2, "0002-aaaaaa", int64(len(lines)+1), clocklog.WithChecksum("9000000 result 1-0 arbiter")); err != nil {
		t.Fatal(err)
	}
	if got := st.Stats().Parsed - parsed; got != 1 {
		t.Errorf("a line more parsed %d lines, want 1", got)
	}
	changed := getTagged(srv, "/round.pgn", etag)
	if changed.Code != 200 || changed.Header().Get("ETag") == etag || !strings.Contains(changed.Body.String(), `[Result "1-0"]`) {
		t.Errorf("after a line: %d, ETag %q (was %q)\n%s", changed.Code, changed.Header().Get("ETag"), etag, changed.Body.String())
	}
	if got := st.Stats().Parsed - parsed; got != 1 {
		t.Errorf("the feed after a line more parsed %d lines, want the 1 line", got)
	}
	t.Logf("a repeat poll of 4 PGN URLs: 304, no body, 0 lines parsed; a line more: 1 line parsed, the feed 200 with a new ETag")
}

// An address has at most MaxRequestsPerAddr page and API requests under
// way: the next is answered 429 with Retry-After, another address is
// served, the live stream is not counted, and loopback is exempt unless
// limited.
func TestRequestsPerAddr(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, loopbackLimited := range []bool{false, true} {
		srv, err := New(Opts{Store: st, Hall: "club", MaxRequestsPerAddr: 2, RequestsLoopbackLimited: loopbackLimited})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		// Two requests from 192.0.2.1 held under way.
		for range 2 {
			if !srv.requests.Take("192.0.2.1:4000") {
				t.Fatal("the first two requests refused")
			}
		}
		from := func(addr, path string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", path, nil)
			req.RemoteAddr = addr
			srv.ServeHTTP(rec, req)
			return rec
		}
		rec := from("192.0.2.1:4001", "/round.pgn")
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), "at most 2") {
			t.Errorf("a third request: %d, Retry-After %q: %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
		}
		if rec := from("192.0.2.2:4000", "/round.pgn"); rec.Code != 200 {
			t.Errorf("another address: %d", rec.Code)
		}
		srv.requests.Done("192.0.2.1:4000")
		if rec := from("192.0.2.1:4002", "/api/boards"); rec.Code != 200 {
			t.Errorf("after one is done: %d", rec.Code)
		}
		srv.requests.Take("127.0.0.1:1")
		srv.requests.Take("127.0.0.1:2")
		want := 200
		if loopbackLimited {
			want = http.StatusTooManyRequests
		}
		if rec := from("127.0.0.1:3", "/round.pgn"); rec.Code != want {
			t.Errorf("loopback, limited %v: %d, want %d", loopbackLimited, rec.Code, want)
		}
	}
	t.Logf("a third request under way from one address at a bound of 2: 429, Retry-After 1")
}

// BenchmarkRoundFeedPolls polls /round.pgn of 100 games of 483 lines
// each over real HTTP on the loopback, side by side with Go's
// http.FileServer serving the same bytes: the hall as a poller that
// sends no ETag finds it (200), as one that sends it back (304), and the
// file server (200). polls/s is the rate of answers with 8 pollers.
func BenchmarkRoundFeedPolls(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	srv, err := New(Opts{Store: st, Hall: "club", Clock: wallclocktest.New(time.Date(2026, 3, 7, 19, 30, 0, 0, time.UTC))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	lines := []string{"format 2", "control 5400+30", "0 start"}
	side := []string{"white", "black"}
	for i := 0; i < 80; i++ {
		at := int64(i) * 60000
		for c := int64(1); c < 6; c++ {
			lines = append(lines, fmt.Sprintf("%d checkpoint %s control=5400+30", at+c*10000, side[i%2]))
		}
		lines = append(lines, fmt.Sprintf("%d press %s", at+60000, side[i%2]))
	}
	for n := 1; n <= 100; n++ {
		for i, l := range lines {
			if _, err := st.PutLine(n, fmt.Sprintf("%04d-aaaaaa", n), int64(i+1), clocklog.WithChecksum(l)); err != nil {
				b.Fatal(err)
			}
		}
	}
	hall := httptest.NewServer(srv)
	b.Cleanup(hall.Close)
	resp, err := http.Get(hall.URL + "/round.pgn")
	if err != nil {
		b.Fatal(err)
	}
	body, etag := readAll(b, resp), resp.Header.Get("ETag")
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "round.pgn"), body, 0o644); err != nil {
		b.Fatal(err)
	}
	files := httptest.NewServer(http.FileServer(http.Dir(dir)))
	b.Cleanup(files.Close)
	for _, c := range []struct{ name, url, etag string }{
		{"hall", hall.URL + "/round.pgn", ""},
		{"hall-304", hall.URL + "/round.pgn", etag},
		{"fileserver", files.URL + "/round.pgn", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			start := time.Now()
			var wg sync.WaitGroup
			var next sync.Mutex
			left := b.N
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						next.Lock()
						if left == 0 {
							next.Unlock()
							return
						}
						left--
						next.Unlock()
						req, _ := http.NewRequest("GET", c.url, nil)
						if c.etag != "" {
							req.Header.Set("If-None-Match", c.etag)
						}
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						readAll(b, resp)
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "polls/s")
		})
	}
}

func readAll(tb testing.TB, resp *http.Response) []byte {
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
