package hall

import (
	"errors"
	"fmt"

	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/clip"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// Receiver checks the messages the clocks publish and keeps them in the
// store. It is what both the embedded broker's hook and the client of an
// outside broker hand every message to.
type Receiver struct {
	hall  string
	st    *store.Store
	clock wallclock.Clock // the arrivals' time: the hall's
	// missing, if set, is told of lines the store lacks: board n's game
	// from line from (resender.ask). It must not block.
	missing func(n int, game string, from int64)
	logf    func(format string, a ...any)
}

// NewReceiver returns a Receiver for hall's topics that keeps what it takes
// in st.
func NewReceiver(hall string, st *store.Store) *Receiver {
	return &Receiver{hall: hall, st: st, clock: wallclock.Real}
}

// Filter is the topic filter of everything the hall reads.
func (r *Receiver) Filter() string { return protocol.BoardsFilter(r.hall) }

// ErrNotMine is returned for a topic the hall does not read (a command,
// another hall): not an error of the message.
var ErrNotMine = errors.New("not a topic the hall reads")

// BoardOf returns the board and the last level of a topic the hall reads:
// zeitnot/v1/{hall}/board/{board}/{kind} (protocol.ParseTopic).
func (r *Receiver) BoardOf(topic string) (int, string, bool) {
	t, ok := protocol.ParseTopic(topic)
	if !ok || t.Hall != r.hall || t.Board == 0 {
		return 0, "", false
	}
	return t.Board, t.Kind, true
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
	if len(payload) > protocol.MaxMessage {
		return fmt.Errorf("%s: %d bytes, at most %d", topic, len(payload), protocol.MaxMessage)
	}
	now := r.clock.Now()
	switch kind {
	case "state":
		m, err := protocol.ParseStateMsg(payload)
		if err != nil {
			return fmt.Errorf("board %d: %s: %v", n, topic, err)
		}
		if m.Board != n || m.Hall != r.hall {
			return fmt.Errorf("board %d: %s: the message is of hall %q board %d", n, topic, clip.Text(m.Hall, 40), m.Board)
		}
		r.st.PutState(n, &m, now)
	case "log":
		m, err := protocol.ParseLogMsg(payload)
		if err != nil {
			return fmt.Errorf("board %d: %s: %v", n, topic, err)
		}
		// Once the hall knows the board's key (confirmed or configured),
		// a line it did not sign is refused whatever its checksum, and
		// kept as evidence.
		if key, from, ok := r.st.SigningKey(n); ok {
			if err := protocol.VerifyLine(key, r.hall, n, m.Game, m.Seq, m.Line, m.Sig); err != nil {
				why := fmt.Sprintf("%v (board %d's key is %s)", err, n, keyFromText(from))
				r.st.Refuse(n, m.Game, m.Seq, m.Line, why)
				return fmt.Errorf("board %d: %s: game %s line %d refused: %s", n, topic, m.Game, m.Seq, why)
			}
		}
		if _, err := r.st.PutLine(n, m.Game, m.Seq, m.Line); err != nil {
			return fmt.Errorf("board %d: %s: %v", n, topic, err)
		}
		// A line after a gap: the lines before it went astray. (A line
		// that fills the gap, as the lines asked for come, asks nothing.)
		if first, _ := r.st.Missing(n, m.Game); m.Seq > first && r.missing != nil {
			r.missing(n, m.Game, first)
		}
	case "online":
		var m protocol.OnlineMsg
		if err := protocol.Strict(payload, &m); err != nil {
			return fmt.Errorf("board %d: %s: %v", n, topic, err)
		}
		if m.Online && m.Key != "" {
			if _, err := protocol.ParseKey(m.Key); err != nil {
				return fmt.Errorf("board %d: %s: %v", n, topic, err)
			}
			r.st.OfferKey(n, m.Key)
		}
		r.st.PutOnline(n, m, now)
		// A link (re)connected, or the hall subscribed again: lines it
		// published meanwhile may have reached no one. Ask for the current
		// game from the first line the hall lacks; the link sends only
		// what it has past that.
		if g := r.st.Game(n); m.Online && g != "" && r.missing != nil {
			first, _ := r.st.Missing(n, g)
			r.missing(n, g, first)
		}
	case "reply":
		var m protocol.Reply
		if err := protocol.Strict(payload, &m); err != nil {
			return fmt.Errorf("board %d: %s: %v", n, topic, err)
		}
		if m.Board != n {
			return fmt.Errorf("board %d: %s: a reply of board %d", n, topic, m.Board)
		}
		if m.Cmd == (protocol.ResendArg{}).Name() {
			// The hall's own housekeeping, not an arbiter's command: it is
			// not the board's last reply on the arbiter's pages.
			if !m.OK && r.logf != nil {
				r.logf("board %d: resend: %s", n, m.Error)
			}
			return nil
		}
		r.st.PutReply(n, m, now)
	default:
		return ErrNotMine
	}
	return nil
}

// keyFromText says how the hall came to know a board's key, for a refusal.
func keyFromText(from string) string {
	if from == store.KeyConfigured {
		return "given in hall.toml"
	}
	return "confirmed by the arbiter"
}
