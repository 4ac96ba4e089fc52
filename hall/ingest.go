package hall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/clip"
)

// Receiver checks the messages the clocks publish and keeps them in the
// store. It is what both the embedded broker's hook and the client of an
// outside broker hand every message to.
type Receiver struct {
	hall   string
	prefix string // zeitnot/v1/{hall}/board/
	st     *store.Store
	now    func() time.Time
}

// NewReceiver returns a Receiver for hall's topics that keeps what it takes
// in st.
func NewReceiver(hall string, st *store.Store) *Receiver {
	return &Receiver{hall: hall, prefix: "zeitnot/" + link.Version + "/" + hall + "/board/", st: st, now: time.Now}
}

// Filter is the topic filter of everything the hall reads.
func (r *Receiver) Filter() string { return r.prefix + "+/+" }

// ErrNotMine is returned for a topic the hall does not read (a command,
// another hall): not an error of the message.
var ErrNotMine = errors.New("not a topic the hall reads")

// BoardOf returns the board and the last level of a topic the hall reads:
// zeitnot/v1/{hall}/board/{board}/{kind}.
func (r *Receiver) BoardOf(topic string) (int, string, bool) {
	rest, ok := strings.CutPrefix(topic, r.prefix)
	if !ok {
		return 0, "", false
	}
	bs, kind, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(kind, "/") {
		return 0, "", false
	}
	n, err := strconv.Atoi(bs)
	if err != nil || n < 1 || n > link.MaxBoard || strconv.Itoa(n) != bs {
		return 0, "", false
	}
	return n, kind, true
}

// Receive checks one message and keeps it. It returns ErrNotMine for
// topics the hall does not keep (commands), and an error saying what is
// wrong for a message that breaks the protocol; such a message is not
// kept.
func (r *Receiver) Receive(topic string, payload []byte) error {
	n, kind, ok := r.BoardOf(topic)
	if !ok {
		return ErrNotMine
	}
	if len(payload) > store.MaxPayload {
		return fmt.Errorf("%s: %d bytes, at most %d", topic, len(payload), store.MaxPayload)
	}
	now := r.now()
	switch kind {
	case "state":
		var m link.StateMsg
		if err := strict(payload, &m); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
		if m.Board != n || m.Hall != r.hall {
			return fmt.Errorf("%s: the message is of hall %q board %d", topic, m.Hall, m.Board)
		}
		if m.Game != "" && !store.ValidGame(m.Game) {
			return fmt.Errorf("%s: game %q is not a game id", topic, clip.Text(m.Game, 40))
		}
		if _, err := link.ParseState(m.State); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
		r.st.PutState(n, m.Game, payload, now)
	case "log":
		var m link.LogMsg
		if err := strict(payload, &m); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
		if _, err := r.st.PutLine(n, m.Game, m.Seq, m.Line); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
	case "online":
		var m link.OnlineMsg
		if err := strict(payload, &m); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
		r.st.PutOnline(n, payload, now)
	case "reply":
		var m link.Reply
		if err := strict(payload, &m); err != nil {
			return fmt.Errorf("%s: %v", topic, err)
		}
		if m.Board != n {
			return fmt.Errorf("%s: a reply of board %d", topic, m.Board)
		}
		r.st.PutReply(n, payload)
	default:
		return ErrNotMine
	}
	return nil
}

// strict decodes one JSON object into v: nothing after it. Unknown fields
// are allowed (a later version 1 may add fields).
func strict(payload []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(payload))
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("not the message's JSON: %v", err)
	}
	if d.More() {
		return errors.New("data after the JSON object")
	}
	if bytes.HasPrefix(bytes.TrimSpace(payload), []byte("null")) {
		return errors.New("null, want an object")
	}
	return nil
}
