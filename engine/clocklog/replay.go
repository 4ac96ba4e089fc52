package clocklog

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// SideClock is one side's clock in JSON: the time, moves, period, flag
// and overstep mark of a side, what a clock state reports of it
// (PlayerJSON) and what a takeover carries to another clock.
type SideClock struct {
	Ms       int64 `json:"ms"`     // time left (the time used in count-up)
	Moves    int   `json:"moves"`  // moves made
	Period   int   `json:"period"` // the period it is in, from 1
	Flag     bool  `json:"flag"`
	Overstep bool  `json:"overstep"`
}

// PlayerJSON is one side in the JSON form of a clock state: its clock and
// the mode of its period.
type PlayerJSON struct {
	SideClock
	Mode         string `json:"mode"`
	DelayMs      int64  `json:"delay_ms"`
	Overtime     bool   `json:"overtime"`
	OvertimeLeft int    `json:"overtime_left"`
	QuotaLeft    int    `json:"quota_left"`
	// Increment is the arbiter's increment per move (FIDE Guidelines
	// III.4, the increment event); left out when there is none.
	Increment int64 `json:"increment_ms,omitempty"`
}

// StateJSON is the JSON form of a clock state that replay prints for every
// show, and that the daemon's status reports.
type StateJSON struct {
	At        int64      `json:"at"`
	Running   string     `json:"running"`
	Paused    bool       `json:"paused"`
	FirstFlag string     `json:"first_flag"`
	White     PlayerJSON `json:"white"`
	Black     PlayerJSON `json:"black"`
	ToMove    string     `json:"to_move"`
	Started   bool       `json:"started"`
	Stopped   bool       `json:"stopped"`
}

// ToJSON converts a state to its JSON form.
func ToJSON(s clock.State) StateJSON {
	pj := func(p clock.PlayerState) PlayerJSON {
		return PlayerJSON{
			SideClock: SideClock{Ms: p.Ms, Moves: p.Moves, Period: p.Period, Flag: p.Flag, Overstep: p.Overstep},
			Mode:      p.Mode.String(), DelayMs: p.DelayMs, Overtime: p.Overtime,
			OvertimeLeft: p.OvertimeLeft, QuotaLeft: p.QuotaLeft, Increment: p.Increment,
		}
	}
	return StateJSON{
		At: s.At, Running: s.Running.String(), Paused: s.Paused, FirstFlag: s.FirstFlag.String(),
		White: pj(s.Player[clock.White]), Black: pj(s.Player[clock.Black]),
		ToMove: s.ToMove.String(), Started: s.Started, Stopped: s.Stopped,
	}
}

// Handlers receive what a replay produces. Any of them may be nil.
type Handlers struct {
	Show    func(clock.State)                  // at every show event
	Move    func(clock.Move)                   // at every completed move
	Refused func(line int, e Event, err error) // a correction the clock refused
}

// Replay applies the events of l to a new clock and returns it.
func Replay(l *Log, h Handlers) (*clock.Clock, error) {
	c, err := l.NewClock()
	if err != nil {
		return nil, err
	}
	for i, e := range l.Events {
		changed, err := Apply(c, e)
		if err != nil && h.Refused != nil {
			line := 0
			if i < len(l.Lines) {
				line = l.Lines[i]
			}
			h.Refused(line, e, err)
		}
		switch {
		case e.Verb == Show && h.Show != nil:
			h.Show(c.State(e.At))
		case e.Verb == Press && changed && h.Move != nil:
			h.Move(c.LastMove())
		}
	}
	return c, nil
}

// WriteShows replays l and writes one JSON line per show event to w. A log
// without a show (a game as the journal saved it) gets one line, the clock
// at its last instant, as a show there would print it. Refused corrections
// are reported on warn, if not nil.
func WriteShows(l *Log, w io.Writer, warn io.Writer, file string) error {
	enc := json.NewEncoder(w)
	var werr error
	c, err := Replay(l, Handlers{
		Show: func(s clock.State) {
			if werr == nil {
				werr = enc.Encode(ToJSON(s))
			}
		},
		Refused: func(line int, e Event, err error) {
			if warn != nil {
				fmt.Fprintf(warn, "%s:%d: %s ignored: %v\n", file, line, e.Verb, err)
			}
		},
	})
	if err != nil {
		return err
	}
	if werr == nil && !hasShow(l) {
		werr = enc.Encode(ToJSON(c.State(c.Now())))
	}
	return werr
}

func hasShow(l *Log) bool {
	for _, e := range l.Events {
		if e.Verb == Show {
			return true
		}
	}
	return false
}

// WriteClk replays l and writes one line per completed move, in PGN comment
// form: "12. {[%clk 1:21:07] [%emt 0:02:31]}" for White's 12th move, "12..."
// for Black's. %clk is the time left after the move, increment included,
// and %emt the time the move took. A count-up clock has no time left: its
// moves get "[%egt 0:12:40]", the side's elapsed game time, instead of
// %clk.
func WriteClk(l *Log, w io.Writer) error {
	countUp := [2]bool{l.Controls.White.IsCountUp(), l.Controls.Black.IsCountUp()}
	var werr error
	_, err := Replay(l, Handlers{Move: func(m clock.Move) {
		if werr != nil {
			return
		}
		dots := "."
		if m.Side == clock.Black {
			dots = "..."
		}
		left := "clk"
		if countUp[m.Side] {
			left = "egt"
		}
		_, werr = fmt.Fprintf(w, "%d%s {[%%%s %s] [%%emt %s]}\n", m.Number, dots, left, PGNTime(m.After), PGNTime(m.Used))
	}})
	if err != nil {
		return err
	}
	return werr
}

// PGNTime writes ms as h:mm:ss, with tenths when they are not zero
// (truncated, never rounded up).
func PGNTime(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	b := strconv.AppendInt(nil, ms/3600000, 10)
	b = append(b, ':', byte('0'+ms/600000%6), byte('0'+ms/60000%10), ':', byte('0'+ms/10000%6), byte('0'+ms/1000%10))
	if t := ms / 100 % 10; t != 0 {
		b = append(b, '.', byte('0'+t))
	}
	return string(b)
}
