package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/drivers/audio"
)

// Spoken is one announcement of the spoken clock, as the state line's
// announced lists it.
type Spoken struct {
	At   int64  `json:"at"`   // the instant it answers, ms of virtual time (the press's)
	Side string `json:"side"` // the earphone: left or right
	Lang string `json:"lang"`
	Text string `json:"text"`
	// File is its WAV file's name in the --audio directory, "" without one.
	File string `json:"file,omitempty"`
}

// speak is the simulated clock's speech output, in virtual time: each
// announcement is kept for the state line, and with an audio directory
// made into speech and written as a stereo WAV file there, its own
// channel carrying it and the other silent, from the instant it answers
// (the silence before the speech is the latency a player hears).
func (v *Virtual) speak(now time.Duration, as []speech.Announcement) {
	for _, a := range as {
		s := Spoken{At: a.At.Milliseconds(), Side: a.Channel.String(), Lang: string(a.Lang), Text: a.Text}
		if v.opts.Audio != "" {
			v.files++
			s.File = fmt.Sprintf("%03d-%s.wav", v.files, s.Side)
			if err := v.writeSpeech(filepath.Join(v.opts.Audio, s.File), a, now-a.At); err != nil && v.audioErr == nil {
				v.audioErr = err
			}
		}
		v.Said = append(v.Said, s)
		v.announced = append(v.announced, s)
	}
}

func (v *Virtual) writeSpeech(path string, a speech.Announcement, lead time.Duration) error {
	synth := v.opts.Synth
	if synth == nil {
		synth = &audio.Espeak{WPM: v.M.Core.Settings().SpeechWPM}
	}
	m, err := synth.Synthesize(context.Background(), string(a.Lang), a.Text)
	if err != nil {
		return err
	}
	ch := audio.Left
	if a.Channel == speech.Right {
		ch = audio.Right
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := audio.WriteWAV(f, audio.OnChannel(m, ch, max(lead, 0))); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// withAnnounced adds the announcements since the last state line to a
// status line, as announced (left out when there are none).
func (v *Virtual) withAnnounced(line string) string {
	if len(v.announced) == 0 || len(line) < 2 || line[len(line)-1] != '}' {
		return line
	}
	b, _ := json.Marshal(v.announced)
	v.announced = nil
	return line[:len(line)-1] + `,"announced":` + string(b) + "}"
}
