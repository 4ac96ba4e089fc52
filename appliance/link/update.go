package link

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/appliance/spool"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// The hall's update command (docs/hall-protocol.md, "Updates"): the link
// fetches the bundle from the hall into the spool and offers it to the
// daemon. The link never installs anything; the privileged installer
// checks the bundle's signature before it writes a block.

// Fetcher fetches the bundles of the hall's update commands into a spool.
type Fetcher struct {
	// Spool is the directory the bundles go to (protocol.UpdateSpool).
	Spool string
	// Host is the only host a bundle is fetched from: the hall's, the
	// host of the broker the link is connected to.
	Host string
	// Client makes the requests; nil: one without redirects.
	Client *http.Client
	// Clock times Stall and Total (wallclock.Real when nil).
	Clock wallclock.Clock
	// Stall gives up a fetch that received nothing for this long; Total
	// one that took longer than this in all.
	Stall, Total time.Duration
}

// Fetch fetches the bundle of c into the spool with spool.Write: at most
// c.Size bytes, given its bundle name only when hash and size are c's. It
// returns the offer to make to the daemon. On any error nothing is left
// in the spool.
func (f *Fetcher) Fetch(ctx context.Context, c protocol.UpdateCmd) (protocol.UpdateOffer, error) {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return protocol.UpdateOffer{}, fmt.Errorf("url %q: want http or https", c.URL)
	}
	if !strings.EqualFold(u.Hostname(), f.Host) {
		return protocol.UpdateOffer{}, fmt.Errorf("url %q: the clock fetches updates only from its hall, %s", c.URL, f.Host)
	}
	name := c.File
	if name == "" {
		name = "hall-" + c.SHA256[:16] + ".raucb"
	}
	if err := protocol.CheckBundleName(name); err != nil {
		return protocol.UpdateOffer{}, err
	}
	clk := wallclock.Or(f.Clock)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// One timer for both limits: reset at each read to the stall time, or
	// to what is left of the total, whichever is sooner.
	start := clk.Now()
	var mu sync.Mutex
	last := start
	watch := clk.NewTimer(min(f.Stall, f.Total))
	defer watch.Stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-watch.C():
				mu.Lock()
				l := last
				mu.Unlock()
				switch {
				case now.Sub(start) >= f.Total:
					cancel(fmt.Errorf("not fetched within %s", f.Total))
					return
				case now.Sub(l) >= f.Stall:
					cancel(fmt.Errorf("the hall sent nothing for %s", f.Stall))
					return
				}
				watch.Reset(min(f.Stall-now.Sub(l), f.Total-now.Sub(start)))
			}
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL, nil)
	if err != nil {
		return protocol.UpdateOffer{}, err
	}
	client := f.Client
	if client == nil {
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("the hall's bundle URL redirects: refused")
		}}
	}
	resp, err := client.Do(req)
	if err != nil {
		return protocol.UpdateOffer{}, fetchError(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return protocol.UpdateOffer{}, fmt.Errorf("the hall answered %s", resp.Status)
	}
	if resp.ContentLength > c.Size {
		return protocol.UpdateOffer{}, fmt.Errorf("the hall sends %d bytes, the command said %d", resp.ContentLength, c.Size)
	}
	body := &progressReader{r: resp.Body, tick: func() {
		mu.Lock()
		last = clk.Now()
		mu.Unlock()
	}}
	var wrong error // not the command's bundle: said as the hall's fault
	_, _, err = spool.Write(ctx, f.Spool, name, body, c.Size, func(n int64, sum [32]byte) error {
		switch got := hex.EncodeToString(sum[:]); {
		case n != c.Size:
			wrong = fmt.Errorf("the hall sent %d bytes, the command said %d: removed", n, c.Size)
		case got != c.SHA256:
			wrong = fmt.Errorf("the bundle's SHA-256 is %s, the command said %s: removed", got, c.SHA256)
		}
		return wrong
	})
	var read *spool.ReadError
	switch {
	case wrong != nil:
		return protocol.UpdateOffer{}, wrong
	case errors.Is(err, spool.ErrTooLarge):
		return protocol.UpdateOffer{}, fmt.Errorf("the hall sent more than the command's %d bytes: removed", c.Size)
	case errors.As(err, &read):
		return protocol.UpdateOffer{}, fetchError(ctx, read.Err)
	case err != nil && context.Cause(ctx) != nil:
		return protocol.UpdateOffer{}, fetchError(ctx, err)
	case err != nil:
		return protocol.UpdateOffer{}, err
	}
	return protocol.UpdateOffer{Source: protocol.UpdateFromHall, File: name, SHA256: c.SHA256, Size: c.Size, Auto: true}, nil
}

// fetchError is err, or the watch's reason when it cancelled the fetch.
func fetchError(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return fmt.Errorf("cannot fetch the bundle: %v", err)
}

type progressReader struct {
	r    io.Reader
	tick func()
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.tick()
	}
	return n, err
}

// update is the link's own command: it fetches the bundle and offers it
// to the daemon, one update at a time, in a goroutine of its own so that
// the hall's other commands are carried out meanwhile. The reply is the
// daemon's answer to the offer.
func (l *Link) update(ctx context.Context, in incoming, c protocol.Command) error {
	var a protocol.UpdateCmd
	if err := json.Unmarshal([]byte(c.Arg), &a); err != nil {
		return fmt.Errorf("refused: %v", err) // ParseCommand made it: never
	}
	select {
	case l.updating <- struct{}{}:
	default:
		return errors.New("refused: update: a bundle is being fetched already")
	}
	f := &Fetcher{Spool: l.o.Spool, Host: l.cfg.Broker.Hostname(), Clock: l.o.Clock, Stall: l.o.FetchStall, Total: l.o.FetchTimeout}
	l.logf("update from the hall: fetching %s (%d bytes)", a.URL, a.Size)
	go func() {
		defer func() { <-l.updating }()
		r := protocol.Reply{ID: c.ID, Cmd: c.Name}
		o, err := f.Fetch(ctx, a)
		if err != nil {
			r.Error = "refused: update: " + err.Error()
			l.reply(ctx, in, r)
			return
		}
		ans, err := l.clock.Call(ctx, protocol.ReqUpdateOffer+" "+protocol.Compact(o))
		if err != nil {
			os.Remove(filepath.Join(f.Spool, o.File))
			r.Error = l.clockError(protocol.ReqUpdateOffer, err).Error()
			l.reply(ctx, in, r)
			return
		}
		r.OK = true
		r.Detail = strings.TrimSpace(strings.TrimPrefix(ans, "ok"))
		if r.Detail == "" {
			r.Detail = "offered " + o.File
		}
		l.logf("update from the hall: %s offered to the clock", o.File)
		l.reply(ctx, in, r)
	}()
	return nil
}
