package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// runSpeak is `zeitnot hardware speak`: the spoken clock's audio path
// from end to end, espeak-ng to aplay (or a WAV file), for a builder
// checking the jacks and for the image's boot test.
func runSpeak(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hardware speak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	side := fs.String("side", "left", "the earphone: left or right")
	lang := fs.String("lang", "en", "the language: en, de, es or fr")
	device := fs.String("device", "", "the ALSA device aplay plays to (default: ALSA's default; \"null\" plays to nothing)")
	wav := fs.String("wav", "", "write the stereo WAV to this file instead of playing it")
	wpm := fs.Int("words-per-minute", audio.DefaultWPM, "how fast")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: zeitnot hardware speak [--side left|right] [--lang L] [--device D | --wav FILE] [TEXT...]\n\nSays TEXT (default: a sample announcement) into one earphone, the other channel silent.")
		fs.PrintDefaults()
	}
	rest, err := subcmd.ParseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	l, err := speech.ParseLang(*lang)
	if err != nil || l == speech.Off {
		fmt.Fprintf(stderr, "zeitnot hardware speak: --lang %q: want en, de, es or fr\n", *lang)
		return 2
	}
	ch := audio.Left
	switch *side {
	case "left":
	case "right":
		ch = audio.Right
	default:
		fmt.Fprintf(stderr, "zeitnot hardware speak: --side %q: want left or right\n", *side)
		return 2
	}
	text := strings.Join(rest, " ")
	if text == "" {
		text = speech.Own(l, speech.Player{Ms: (3600 + 29*60 + 50) * 1000, Moves: 12})
	}
	ctx := context.Background()
	m, err := (&audio.Espeak{WPM: *wpm}).Synthesize(ctx, string(l), text)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot hardware speak: %v\n", err)
		return 1
	}
	s := audio.OnChannel(m, ch, 0)
	if *wav != "" {
		f, err := os.Create(*wav)
		if err == nil {
			err = audio.WriteWAV(f, s)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot hardware speak: %v\n", err)
			return 1
		}
	} else if err := (&audio.Aplay{Device: *device}).Play(ctx, s); err != nil {
		fmt.Fprintf(stderr, "zeitnot hardware speak: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "said into the %s earphone (%s, %.1f s): %s\n", ch, l, s.Duration().Seconds(), text)
	return 0
}
