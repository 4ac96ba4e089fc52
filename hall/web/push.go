package web

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/hall/broadcast"
)

// pushView is the push to lichess's broadcasts as the arbiter's page
// shows it: each range's round, its last push and lichess's answer for
// each game, or its last error. The token is never in it.
type pushView struct {
	URL    string
	Ranges []pushRange
}

type pushRange struct {
	Round, Boards string
	Pushes        int
	Last          string // the last accepted push's time of day, "" none yet
	Sent, Left    int
	Error, Retry  string
	Stopped       bool
	Games         []broadcast.GameStatus
}

// pushView is Opts.Broadcast's state, its times in the hall's zone; nil
// when the hall pushes nothing.
func (s *Server) pushView() *pushView {
	if s.o.Broadcast == nil {
		return nil
	}
	st := s.o.Broadcast()
	if st == nil {
		return nil
	}
	clock := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(s.zone()).Format("15:04:05")
	}
	v := &pushView{URL: st.URL}
	for _, r := range st.Ranges {
		pr := pushRange{Round: r.Round, Boards: r.Boards, Pushes: r.Pushes, Last: clock(r.Last), Sent: r.Sent, Left: r.Left, Stopped: r.Stopped, Games: r.Games}
		if pr.Boards == "" {
			pr.Boards = "all"
		}
		if r.Error != "" {
			pr.Error = fmt.Sprintf("%s (at %s)", r.Error, clock(r.ErrorAt))
		}
		if !r.Retry.IsZero() {
			pr.Retry = clock(r.Retry)
		}
		v.Ranges = append(v.Ranges, pr)
	}
	return v
}
