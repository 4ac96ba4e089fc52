package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/zeitnot/zeitnot/appliance/daemon"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer/simbuzzer"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
	"github.com/zeitnot/zeitnot/drivers/monotonic"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/sim/termdraw"
)

// Keys is the simulator's key map, shown under the displays.
var Keys = []struct{ Key, Does string }{
	{"z", "left lever"},
	{"m", "right lever"},
	{"space", "pause / resume / start"},
	{"up or +", "plus"},
	{"down or -", "minus"},
	{"enter", "ok"},
	{"tab", "hold ok: menu"},
	{"x / n", "announce left / right (X / N: hold, the spoken menu)"},
	{"q", "quit"},
}

// key is what one key press does: a tap, or a hold, of buttons.
type key struct {
	buttons []string
	hold    bool
	quit    bool
}

func decodeKey(b []byte) (key, int) {
	if len(b) >= 3 && b[0] == 0x1b && b[1] == '[' {
		switch b[2] {
		case 'A':
			return key{buttons: []string{ui.Plus}}, 3
		case 'B':
			return key{buttons: []string{ui.Minus}}, 3
		}
		return key{}, 3
	}
	switch b[0] {
	case 'z', 'Z', 'a':
		return key{buttons: []string{ui.Left}}, 1
	case 'm', 'M', 'l':
		return key{buttons: []string{ui.Right}}, 1
	case ' ':
		return key{buttons: []string{ui.Pause}}, 1
	case '+', '=':
		return key{buttons: []string{ui.Plus}}, 1
	case '-', '_':
		return key{buttons: []string{ui.Minus}}, 1
	case '\r', '\n':
		return key{buttons: []string{ui.OK}}, 1
	case '\t':
		return key{buttons: []string{ui.OK}, hold: true}, 1
	case 'x':
		return key{buttons: []string{ui.AnnounceLeft}}, 1
	case 'n':
		return key{buttons: []string{ui.AnnounceRight}}, 1
	case 'X':
		return key{buttons: []string{ui.AnnounceLeft}, hold: true}, 1
	case 'N':
		return key{buttons: []string{ui.AnnounceRight}, hold: true}, 1
	case 'q', 'Q', 3, 4: // q, ctrl-c, ctrl-d
		return key{quit: true}, 1
	}
	return key{}, 1
}

// DefaultStateDir is where the terminal simulator keeps its settings,
// presets and game between runs: zeitnot/sim under the user's state
// directory ($XDG_STATE_HOME, by default ~/.local/state).
func DefaultStateDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no state directory: %w (set XDG_STATE_HOME or use --state-dir)", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "zeitnot", "sim")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return dir, nil
}

// push plays a key into the simulated buttons, stamped now.
func push(p daemon.Pusher, k key) {
	now := monotonic.Now()
	for _, b := range k.buttons {
		p.Push(button.Event{Button: b, Kind: button.Press, At: now})
	}
	if k.hold {
		for _, b := range k.buttons {
			p.Push(button.Event{Button: b, Kind: button.Hold, At: now})
		}
	}
	for _, b := range k.buttons {
		p.Push(button.Event{Button: b, Kind: button.Release, At: now})
	}
}

// buzzerShown is how long the terminal shows a pattern the buzzer played.
const buzzerShown = 1500 * time.Millisecond

// TermOpts configure the terminal simulator.
type TermOpts struct {
	Profile    string
	ConfigPath string
	StateDir   string // "" is DefaultStateDir(): settings and the game stay between runs
	In         *os.File
	Out        io.Writer
}

// RunTerminal runs the clock in the terminal until q.
func RunTerminal(o TermOpts) error {
	fd := int(o.In.Fd())
	if !term.IsTerminal(fd) {
		return errors.New("standard input is not a terminal: run the simulator in one, or headless with --script")
	}
	if o.Profile == "" {
		o.Profile = "sim"
	}
	if o.StateDir == "" {
		dir, err := DefaultStateDir()
		if err != nil {
			return err
		}
		o.StateDir = dir
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return err
	}
	defer term.Restore(fd, old)
	out := bufio.NewWriter(o.Out)
	fmt.Fprint(out, "\x1b[?1049h\x1b[?25l") // alternate screen, no cursor
	out.Flush()
	defer func() {
		fmt.Fprint(o.Out, "\x1b[?25h\x1b[?1049l")
	}()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logw := &termLog{}
	var pusher daemon.Pusher
	ready := make(chan struct{})
	last := ""
	draw := func(m *daemon.Machine, now time.Duration) {
		w, h, err := term.GetSize(fd)
		if err != nil {
			w, h = 80, 24
		}
		s := Screen(m, now, w, h, logw.Lines())
		if s == last {
			return
		}
		last = s
		fmt.Fprint(out, "\x1b[H\x1b[2J", strings.ReplaceAll(s, "\n", "\r\n"))
		out.Flush()
	}
	go func() {
		<-ready
		buf := make([]byte, 64)
		for {
			n, err := o.In.Read(buf)
			if err != nil {
				cancel()
				return
			}
			for b := buf[:n]; len(b) > 0; {
				k, used := decodeKey(b)
				b = b[used:]
				if k.quit {
					cancel()
					return
				}
				if len(k.buttons) > 0 && pusher != nil {
					push(pusher, k)
				}
			}
		}
	}()
	return daemon.Run(ctx, daemon.Opts{
		ConfigPath:      o.ConfigPath,
		StateDir:        o.StateDir,
		Profile:         o.Profile,
		FallbackProfile: "sim",
		Log:             logw,
		OnStart: func(m *daemon.Machine, devs *profile.Devices) {
			pusher, _ = devs.Buttons.(daemon.Pusher)
			// The spoken clock's words, among the log lines under the
			// displays (a scripted run writes them as sound: --audio).
			m.Speak = func(now time.Duration, as []speech.Announcement) {
				for _, a := range as {
					fmt.Fprintf(logw, "said into the %s earphone (%s): %s\n", a.Channel, a.Lang, a.Text)
				}
			}
			close(ready)
		},
		AfterRender: draw,
	})
}

// termLog keeps the daemon's last log lines, shown under the displays.
// The state the loop started in (daemon.RunningLine) is left out: the live
// status line above them shows the state after every step, and that old
// one stayed there, stale, for the whole game.
type termLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *termLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if !strings.HasPrefix(line, daemon.RunningPrefix) {
			l.lines = append(l.lines, line)
		}
	}
	if len(l.lines) > 4 {
		l.lines = l.lines[len(l.lines)-4:]
	}
	return len(b), nil
}

// Lines returns a copy of the lines kept.
func (l *termLog) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// textMinWidth is the narrowest terminal that gets menus and messages as
// text rather than as pictures of the displays.
const textMinWidth = 40

// menuLines writes a menu or message view as plain text: the title, the
// items with the cursor marked, the hint.
func menuLines(v screen.View) (string, []string) {
	if v.Kind == screen.KindMessage {
		return " message ", append([]string(nil), v.Message...)
	}
	m := v.Menu
	lines := []string{" " + m.Title, ""}
	for i, it := range m.Items {
		mark := "  "
		if i == m.Cursor {
			mark = "> "
			if m.Editing {
				mark = "* "
			}
		}
		lines = append(lines, mark+it)
	}
	if m.Hint != "" {
		lines = append(lines, "", " "+m.Hint)
	}
	return " menu, on the displays ", lines
}

// Screen draws the whole simulator screen: the displays side by side (or
// stacked when the terminal is narrow), or a menu as text when the
// terminal is wide enough, and then the game screen's notice as text too;
// the LEDs and the buzzer; the clock's state and the keys.
func Screen(m *daemon.Machine, now time.Duration, width, height int, logs []string) string {
	var panels [][]string
	if v := m.Core.View(now); v.Kind != screen.KindGame && width >= textMinWidth {
		title, lines := menuLines(v)
		panels = append(panels, frameLines(title, lines))
	}
	for _, o := range m.Outputs {
		if len(panels) > 0 && m.Core.View(now).Kind != screen.KindGame {
			break
		}
		var lines []string
		switch d := o.Pixel.(type) {
		case *simdisplay.Pixel:
			lines = termdraw.Quadrants(d.Snapshot())
		}
		if t, ok := o.Text.(*simdisplay.Text); ok {
			cols, rows := t.Size()
			if rows > 1 || cols > 8 {
				lines = termdraw.LCD(t.Text(), cols, rows)
			} else {
				lines = termdraw.Segments(t.Text(), cols)
			}
		}
		title := fmt.Sprintf(" %s (%s) ", o.Name, o.Role)
		if leds, ok := m.LEDs(); ok {
			title += ledMarks(o.Role, leds) + " "
		}
		panels = append(panels, frameLines(title, lines))
	}
	var b strings.Builder
	b.WriteString("zeitnot simulator\n")
	total := 0
	for _, p := range panels {
		total += width1(p) + 1
	}
	if total <= width {
		b.WriteString(strings.Join(sideBySide(panels), "\n"))
		b.WriteString("\n")
	} else {
		for _, p := range panels {
			b.WriteString(strings.Join(p, "\n"))
			b.WriteString("\n")
		}
	}
	if v := m.Core.View(now); v.Kind == screen.KindGame && v.Game.Banner != "" && width >= textMinWidth {
		// The game screen's notice (LOCKED, WRONG PIN, RESULT 1-0, the
		// round's countdown) as text: in the pictures of the displays
		// its small letters are hard to read.
		b.WriteString("notice: " + v.Game.Banner + "\n")
	}
	b.WriteString(m.Core.StatusLine(now))
	b.WriteString("\n")
	if bz, ok := m.Buzzer.(*simbuzzer.Buzzer); ok {
		if p, ok := bz.Last(); ok && now-p.At < buzzerShown {
			fmt.Fprintf(&b, "buzzer: %s\n", p.Pattern)
		} else if bz.Muted() {
			b.WriteString("buzzer: off\n")
		} else {
			b.WriteString("buzzer: -\n")
		}
	}
	var keys []string
	for _, k := range Keys {
		keys = append(keys, k.Key+": "+k.Does)
	}
	b.WriteString(wrap(strings.Join(keys, "  "), width))
	for _, l := range logs {
		b.WriteString("\n" + trim(l, width))
	}
	return b.String()
}

// ledMarks shows the LED of a display's side: ● lit, ○ not; both, left
// first, for a display of both sides.
func ledMarks(r screen.Role, l daemon.LEDStatus) string {
	mark := func(on bool) string {
		if on {
			return "●"
		}
		return "○"
	}
	switch r {
	case screen.Left:
		return mark(l.Left)
	case screen.Right:
		return mark(l.Right)
	}
	return mark(l.Left) + mark(l.Right)
}

func frameLines(title string, lines []string) []string {
	w := 0
	for _, l := range lines {
		w = max(w, runeLen(l))
	}
	w = max(w, runeLen(title)+2)
	top := "┌" + title + strings.Repeat("─", w-runeLen(title)) + "┐"
	out := []string{top}
	for _, l := range lines {
		out = append(out, "│"+l+strings.Repeat(" ", w-runeLen(l))+"│")
	}
	return append(out, "└"+strings.Repeat("─", w)+"┘")
}

func runeLen(s string) int { return len([]rune(s)) }

func width1(p []string) int {
	w := 0
	for _, l := range p {
		w = max(w, runeLen(l))
	}
	return w
}

func sideBySide(panels [][]string) []string {
	h := 0
	for _, p := range panels {
		h = max(h, len(p))
	}
	out := make([]string, h)
	for _, p := range panels {
		w := width1(p)
		for i := 0; i < h; i++ {
			l := ""
			if i < len(p) {
				l = p[i]
			}
			out[i] += l + strings.Repeat(" ", w-runeLen(l)) + " "
		}
	}
	return out
}

func wrap(s string, width int) string {
	if width < 20 {
		return s
	}
	var lines []string
	for len(s) > width {
		cut := strings.LastIndex(s[:width], "  ")
		if cut <= 0 {
			cut = width
		}
		lines = append(lines, s[:cut])
		s = strings.TrimLeft(s[cut:], " ")
	}
	return strings.Join(append(lines, s), "\n")
}

func trim(s string, width int) string {
	r := []rune(s)
	if len(r) > width && width > 0 {
		return string(r[:width])
	}
	return s
}
