package audio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Synth makes speech of text in a voice (a language code, "en").
type Synth interface {
	Synthesize(ctx context.Context, voice, text string) (Sound, error)
}

// Espeak is the espeak-ng synthesizer, run as a process for each text.
type Espeak struct {
	Path string // the program; "" is espeak-ng on PATH
	WPM  int    // words a minute; 0 is DefaultWPM
}

// DefaultWPM is the speed of speech: fast, as blind players ask for, and
// still clear.
const DefaultWPM = 340

var _ Synth = &Espeak{}

// Synthesize runs espeak-ng with the text on its standard input (so no
// text is taken for an option) and reads the WAV it writes.
func (e *Espeak) Synthesize(ctx context.Context, voice, text string) (Sound, error) {
	if strings.ContainsAny(voice, " /\\\x00") || voice == "" || strings.HasPrefix(voice, "-") {
		return Sound{}, fmt.Errorf("audio: espeak-ng: bad voice %q", voice)
	}
	path := e.Path
	if path == "" {
		path = "espeak-ng"
	}
	wpm := e.WPM
	if wpm <= 0 {
		wpm = DefaultWPM
	}
	cmd := exec.CommandContext(ctx, path, "--stdout", "-v", voice, "-s", fmt.Sprint(wpm))
	cmd.Stdin = strings.NewReader(text)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return Sound{}, fmt.Errorf("audio: espeak-ng -v %s: %w", voice, err)
	}
	s, err := ReadWAV(&out)
	if err != nil {
		return Sound{}, fmt.Errorf("audio: espeak-ng -v %s: %w", voice, err)
	}
	if len(s.Ch) != 1 {
		return Sound{}, errors.New("audio: espeak-ng: want mono")
	}
	return s, nil
}
