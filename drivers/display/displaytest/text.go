package displaytest

import (
	"fmt"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
)

// Text is a fake display.Text that records what it is asked to show.
type Text struct {
	mu          sync.Mutex
	name        string
	cols, lines int
	text        string
	history     []string
	shows       int
	brightness  uint8
	halted      bool
	fail        error
}

// NewText returns a blank fake text display named name, cols cells wide and
// lines lines high (each clamped to [1, 80]), at full brightness.
func NewText(name string, cols, lines int) *Text {
	return &Text{
		name:       name,
		cols:       max(1, min(cols, 80)),
		lines:      max(1, min(lines, 80)),
		brightness: 255,
	}
}

// String implements display.Text.
func (t *Text) String() string { return t.name }

// Size implements display.Text.
func (t *Text) Size() (cols, lines int) { return t.cols, t.lines }

// Show implements display.Text. It records text as given; the history only
// grows when the text differs from the one shown. It wakes a halted display.
func (t *Text) Show(text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.takeFail(); err != nil {
		return err
	}
	t.shows++
	if text == t.text && !t.halted && len(t.history) > 0 {
		return nil
	}
	t.halted = false
	t.text = text
	if len(t.history) >= HistoryLimit {
		copy(t.history, t.history[1:])
		t.history = t.history[:len(t.history)-1]
	}
	t.history = append(t.history, text)
	return nil
}

// SetBrightness implements display.Text.
func (t *Text) SetBrightness(level uint8) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.takeFail(); err != nil {
		return err
	}
	t.brightness = level
	return nil
}

// Halt implements display.Text: the display goes blank; Text still returns
// the last text shown.
func (t *Text) Halt() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.takeFail(); err != nil {
		return err
	}
	t.halted = true
	return nil
}

// FailNext makes the next Show, SetBrightness or Halt return err instead of
// doing anything.
func (t *Text) FailNext(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fail = err
}

func (t *Text) takeFail() error {
	err := t.fail
	if err != nil {
		t.fail = nil
		return fmt.Errorf("displaytest: %s: %w", t.name, err)
	}
	return nil
}

// Text returns the last text shown, "" at first.
func (t *Text) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.text
}

// History returns the texts shown, oldest first, without repeats of the
// same text in a row (at most HistoryLimit).
func (t *Text) History() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.history...)
}

// Shows returns how many times Show succeeded, repeats included.
func (t *Text) Shows() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.shows
}

// Brightness returns the last level set; 255 at first.
func (t *Text) Brightness() uint8 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.brightness
}

// Halted reports whether Halt was called since the last Show.
func (t *Text) Halted() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.halted
}

var _ display.Text = (*Text)(nil)
