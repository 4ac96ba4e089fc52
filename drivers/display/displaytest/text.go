package displaytest

import (
	"fmt"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
)

// Text is a fake display.Text: the simulator's text display
// (simdisplay.Text) with a history of the texts shown and failures on
// demand.
type Text struct {
	dev *simdisplay.Text

	mu      sync.Mutex // held across each call, so dev and history agree
	history []string
	shows   int
	fail    error
}

// NewText returns a blank fake text display named name, cols cells wide and
// lines lines high (each clamped to [1, 80]), at full brightness.
func NewText(name string, cols, lines int) *Text {
	return &Text{dev: simdisplay.NewText(name, cols, lines)}
}

// String implements display.Text.
func (t *Text) String() string { return t.dev.String() }

// Size implements display.Text.
func (t *Text) Size() (cols, lines int) { return t.dev.Size() }

// Show implements display.Text. It records text as given; the history only
// grows when the text differs from the one shown. It wakes a halted display.
func (t *Text) Show(text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.takeFail(); err != nil {
		return err
	}
	t.shows++
	same := text == t.dev.Text() && !t.dev.Halted() && len(t.history) > 0
	if err := t.dev.Show(text); err != nil || same {
		return err
	}
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
	return t.dev.SetBrightness(level)
}

// Halt implements display.Text: the display goes blank; Text still returns
// the last text shown.
func (t *Text) Halt() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.takeFail(); err != nil {
		return err
	}
	return t.dev.Halt()
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
		return fmt.Errorf("displaytest: %s: %w", t, err)
	}
	return nil
}

// Text returns the last text shown, "" at first.
func (t *Text) Text() string { return t.dev.Text() }

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
func (t *Text) Brightness() uint8 { return t.dev.Brightness() }

// Halted reports whether Halt was called since the last Show.
func (t *Text) Halted() bool { return t.dev.Halted() }

var _ display.Text = (*Text)(nil)
