// Package sseclient reads a Server-Sent Events stream as a browser's
// EventSource does, for the hall's tests and benchmark: each event with
// the instant it arrived.
package sseclient

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Event is one event of the stream.
type Event struct {
	Name string // "message" when the stream names none
	Data string
	At   time.Time // when its last line arrived
}

// Stream is an open event stream.
type Stream struct {
	C      <-chan Event // closed when the stream ends
	Err    error        // why it ended, once C is closed
	cancel context.CancelFunc
}

// Dial opens url and reads its events into C (buffer events deep; the
// reader waits when it is full, as a slow browser would).
func Dial(ctx context.Context, url string, buffer int) (*Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("%s: %s, %s", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	c := make(chan Event, buffer)
	s := &Stream{C: c, cancel: cancel}
	go func() {
		defer close(c)
		defer resp.Body.Close()
		r := bufio.NewReaderSize(resp.Body, 256<<10)
		ev := Event{}
		var data []string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				s.Err = err
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if data != nil {
					if ev.Name == "" {
						ev.Name = "message"
					}
					ev.Data = strings.Join(data, "\n")
					ev.At = time.Now()
					select {
					case c <- ev:
					case <-ctx.Done():
						return
					}
				}
				ev, data = Event{}, nil
			case strings.HasPrefix(line, ":"):
			case strings.HasPrefix(line, "event:"):
				ev.Name = strings.TrimSpace(line[6:])
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(line[5:], " "))
			}
		}
	}()
	return s, nil
}

// Close ends the stream.
func (s *Stream) Close() { s.cancel() }
