package daemon

import (
	"slices"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// SpeechChannels are the earphones a profile has: a side has one if it
// has that side's announce button (the builders' guide wires the two
// jacks with the buttons).
func SpeechChannels(p *profile.Profile) (left, right bool) {
	has := func(name string) bool {
		return slices.ContainsFunc(p.Buttons, func(b button.Line) bool { return b.Name == name })
	}
	return has(ui.AnnounceLeft), has(ui.AnnounceRight)
}

// AttachSpeech makes the machine speak through a player: espeak-ng into
// the stereo output, each earphone on its channel, played by aplay on
// ALSA's default device, all on the player's goroutine, beside the loop.
// A profile with no announce button gets no speech. The player is
// returned to be closed (nil for none).
func (m *Machine) AttachSpeech(p *profile.Profile, wpm int) *audio.Player {
	left, right := SpeechChannels(p)
	if !left && !right || slices.ContainsFunc(p.Buttons, func(b button.Line) bool { return strings.HasPrefix(b.Line, "sim:") }) {
		// The simulator speaks into files (zeitnot-sim --audio).
		return nil
	}
	pl := audio.NewPlayer(&audio.Espeak{WPM: wpm}, &audio.Aplay{}, func(s string) {
		if m.Log != nil {
			m.Log("speech: " + s)
		}
	})
	m.Speak = func(now time.Duration, as []speech.Announcement) {
		us := Utterances(as, left, right)
		if len(us) > 0 {
			pl.Say(us...)
		}
	}
	return pl
}

// Utterances are the announcements for the channels a build has, as the
// audio player takes them.
func Utterances(as []speech.Announcement, left, right bool) []audio.Utterance {
	var us []audio.Utterance
	for _, a := range as {
		if a.Channel == speech.Left && !left || a.Channel == speech.Right && !right {
			continue
		}
		ch := audio.Left
		if a.Channel == speech.Right {
			ch = audio.Right
		}
		us = append(us, audio.Utterance{Channel: ch, Voice: string(a.Lang), Text: a.Text})
	}
	return us
}
