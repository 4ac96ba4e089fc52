package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
)

// gameLines is a clock's journal of a game under way for its first
// presses: a press a minute, a checkpoint every 10 s between them (the
// journal's), as format 2 lines with their checksums.
func gameLines(presses int) []string {
	out := []string{clocklog.WithChecksum("format 2"), clocklog.WithChecksum("control 5400+30"), clocklog.WithChecksum("0 start")}
	side := []string{"white", "black"}
	for i := 0; i < presses; i++ {
		at := int64(i) * 60000
		for c := int64(1); c < 6; c++ {
			out = append(out, clocklog.WithChecksum(fmt.Sprintf("%d checkpoint %s control=5400+30", at+c*10000, side[i%2])))
		}
		out = append(out, clocklog.WithChecksum(fmt.Sprintf("%d press %s", at+60000, side[i%2])))
	}
	return out
}

// TestRoundFeedPollers: 200 pollers of /round.pgn (a broadcast service
// and spectators, each from an address of its own, polling every second
// with the ETag it was given, as a browser does) while 100 boards' games, 500 lines each, are under
// way and 20 clocks send a line every 100 ms. Every line must reach the
// store (the receiver's intake, publish to store); the test gives its p99
// (the target: under 250 ms, asserted with ZEITNOT_FEED_P99=1 on a quiet
// machine) and the polls answered.
func TestRoundFeedPollers(t *testing.T) {
	if testing.Short() {
		t.Skip("a load of 200 pollers for 5 s")
	}
	h := startHallOpts(t, nil, Opts{Logf: func(string, ...any) {}})
	st := h.Store()
	const boards, presses = 100, 80
	lines := gameLines(presses)
	for n := 1; n <= boards; n++ {
		for i, l := range lines {
			if _, err := st.PutLine(n, gameID(n), int64(i+1), l); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := NewReceiver("test", st)
	seqs := make([]int64, 21)
	// intake is 20 clocks sending a line every 100 ms for d: how long
	// each line took to reach the store, in order.
	intake := func(d time.Duration) []time.Duration {
		var mu sync.Mutex
		var took []time.Duration
		var wg sync.WaitGroup
		end := time.Now().Add(d)
		for c := 1; c <= 20; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tick := time.NewTicker(100 * time.Millisecond)
				defer tick.Stop()
				for range tick.C {
					if time.Now().After(end) {
						return
					}
					if seqs[c] == 0 {
						seqs[c] = int64(len(lines))
					}
					seqs[c]++
					at := int64(presses)*60000 + seqs[c]*1000
					b, _ := json.Marshal(protocol.LogMsg{Game: gameID(c), Seq: seqs[c], Line: clocklog.WithChecksum(fmt.Sprintf("%d checkpoint white control=5400+30", at))})
					t0 := time.Now()
					if err := r.Receive(protocol.TopicsFor("test", c).Log, b); err != nil {
						t.Errorf("board %d line %d: %v", c, seqs[c], err)
						return
					}
					d := time.Since(t0)
					mu.Lock()
					took = append(took, d)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		slices.Sort(took)
		if len(took) == 0 {
			t.Fatal("no line taken")
		}
		return took
	}
	quiet := intake(2 * time.Second)

	url := "http://" + h.HTTPAddr() + "/round.pgn"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var polls, notModified, failed atomic.Int64
	for p := 0; p < 200; p++ {
		// Each poller from an address of its own, as spectators are.
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+p/250), byte(2+p%250))}}
		client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer client.CloseIdleConnections()
			// The pollers' polls spread over the second, as spectators'
			// are: each starts 5 ms after the one before.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(p) * 5 * time.Millisecond):
			}
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			etag := ""
			for {
				req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
				if etag != "" {
					req.Header.Set("If-None-Match", etag)
				}
				resp, err := client.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					polls.Add(1)
					switch resp.StatusCode {
					case http.StatusOK:
						etag = resp.Header.Get("ETag")
					case http.StatusNotModified:
						notModified.Add(1)
					default:
						failed.Add(1)
					}
				}
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		}()
	}
	start := time.Now()
	took := intake(5 * time.Second)
	elapsed := time.Since(start)
	cancel()
	wg.Wait()
	p99 := func(d []time.Duration) time.Duration { return d[len(d)*99/100].Round(time.Microsecond) }
	t.Logf("lines to the store, 200 pollers: p99 %s, p50 %s, max %s (%d lines); no pollers: p99 %s; %.0f polls/s, %d of %d 304, %d failed; 100 games of %d lines",
		p99(took), took[len(took)/2].Round(time.Microsecond), took[len(took)-1].Round(time.Microsecond), len(took), p99(quiet),
		float64(polls.Load())/elapsed.Seconds(), notModified.Load(), polls.Load(), failed.Load(), len(lines))
	// Every line reached the store (Errorf above otherwise). Its latency
	// is a measurement: on a machine that runs other work (CI, make
	// test-busy) a p99 says more of the machine than of the hall, so the
	// target is asserted where the run asks for it, on a quiet machine
	// (ZEITNOT_FEED_P99=1, docs/tests.md).
	if os.Getenv("ZEITNOT_FEED_P99") != "" && p99(took) > 250*time.Millisecond {
		t.Errorf("the clocks' lines to the store: p99 %s with 200 pollers, want under 250 ms", p99(took))
	}
	if len(took) == 0 {
		t.Error("no line reached the store")
	}
}

// gameID is board n's game in TestRoundFeedPollers.
func gameID(n int) string { return fmt.Sprintf("%04d-00aa%02x", n, n%256) }
