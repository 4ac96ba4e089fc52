package daemon

import (
	"encoding/json"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/drivers/button"
)

// Step is one turn of the event loop at instant now, the same for the
// daemon on the monotonic clock and the simulator on its virtual one: the
// time of day read for the core, the core's time-driven work (checkpoints,
// flags, sounds, banners, the round's start), a render of every display,
// the LEDs, the AfterRender hook, and the stream to watchers. It returns the next instant the loop must wake at; ok=false:
// nothing happens until input.
func (m *Machine) Step(now time.Duration) (next time.Duration, ok bool) {
	if m.Time != nil {
		// The one place the daemon reads the time of day.
		m.Core.SetTimeOfDay(m.Time.Read(now))
	}
	m.Core.Tick(now)
	m.updateTick(now)
	m.Render(now)
	m.light(now)
	if m.AfterRender != nil {
		m.AfterRender(now)
	}
	eb, ebOK := m.eboardWake(now)
	m.flush(now)
	if as := m.Core.TakeSpeech(); len(as) > 0 && m.Speak != nil {
		m.Speak(now, as)
	}
	next, ok = m.Core.NextWake(now)
	if ebOK && (!ok || eb < next) {
		next, ok = eb, true
	}
	return next, ok
}

// Input hands one button event to the core and steps the loop at its
// instant (a press counts from its first edge; the loop runs at now).
func (m *Machine) Input(ev button.Event, now time.Duration) (time.Duration, bool) {
	m.Core.Button(ev)
	return m.Step(max(now, ev.At))
}

// Watch adds a watcher: it gets the state now as its first line, then one
// line per event and one state line after each turn of the loop that had
// events.
func (m *Machine) Watch(w *control.Watch, now time.Duration) string {
	m.watchers = append(m.watchers, w)
	return m.stateLine(now)
}

func (m *Machine) stateLine(now time.Duration) string {
	b, err := json.Marshal(struct {
		State any `json:"state"`
	}{m.Status(now)})
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// listen is the machine's subscription to the session's events.
func (m *Machine) listen(e session.Event) {
	if len(m.watchers) > 0 {
		m.pending = append(m.pending, e)
	}
}

// flush sends the events of this turn, then the state, to every watcher,
// and forgets the ones that are gone.
func (m *Machine) flush(now time.Duration) {
	if len(m.pending) == 0 {
		return
	}
	lines := make([]string, 0, len(m.pending)+1)
	for i := range m.pending {
		e := m.pending[i].Protocol()
		if m.pending[i].Kind == session.Pressed && m.MonoNs != nil {
			e.MonoNs = m.MonoNs(m.pending[i].Mono)
		}
		b, err := json.Marshal(e)
		if err == nil {
			lines = append(lines, string(b))
		}
	}
	lines = append(lines, m.stateLine(now))
	m.pending = m.pending[:0]
	keep := m.watchers[:0]
	for _, w := range m.watchers {
		alive := true
		for _, l := range lines {
			if !w.Send(l) {
				alive = false
				break
			}
		}
		if alive {
			keep = append(keep, w)
		}
	}
	clear(m.watchers[len(keep):])
	m.watchers = keep
}
