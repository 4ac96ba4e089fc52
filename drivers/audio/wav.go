package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// Channel is a channel of a stereo sound.
type Channel int

// The channels of a stereo sound.
const (
	Left  Channel = 0
	Right Channel = 1
)

func (c Channel) String() string {
	if c == Right {
		return "right"
	}
	return "left"
}

// Sound is 16-bit PCM: Ch[i] is channel i's samples at Rate per second.
// Channels may differ in length; a shorter one is silent at its end.
type Sound struct {
	Rate int
	Ch   [][]int16
}

// Frames is the length of the longest channel.
func (s Sound) Frames() int {
	n := 0
	for _, c := range s.Ch {
		n = max(n, len(c))
	}
	return n
}

// Duration is how long the sound plays.
func (s Sound) Duration() time.Duration {
	if s.Rate <= 0 {
		return 0
	}
	return time.Duration(s.Frames()) * time.Second / time.Duration(s.Rate)
}

// Silence is the level at or below which a sample counts as silent: about
// -60 dB of full scale, below any speech and above a synthesizer's
// rounding noise.
const Silence = 32

// FirstSound is the instant of channel ch's first sample louder than
// Silence, and false if it has none.
func (s Sound) FirstSound(ch Channel) (time.Duration, bool) {
	if int(ch) >= len(s.Ch) || s.Rate <= 0 {
		return 0, false
	}
	for i, v := range s.Ch[ch] {
		if v > Silence || v < -Silence {
			return time.Duration(i) * time.Second / time.Duration(s.Rate), true
		}
	}
	return 0, false
}

// OnChannel makes a stereo sound of the mono sound m (its first channel)
// on ch, the other channel silent, after lead of silence on both.
func OnChannel(m Sound, ch Channel, lead time.Duration) Sound {
	out := Sound{Rate: m.Rate, Ch: make([][]int16, 2)}
	var mono []int16
	if len(m.Ch) > 0 {
		mono = m.Ch[0]
	}
	pad := int(lead * time.Duration(m.Rate) / time.Second)
	c := make([]int16, pad+len(mono))
	copy(c[pad:], mono)
	out.Ch[ch] = c
	out.Ch[1-ch] = make([]int16, len(c))
	return out
}

// Mix lays the stereo sounds on each other, sample by sample, clipped; all
// must have one rate (the first's; others are left out).
func Mix(ss ...Sound) Sound {
	if len(ss) == 0 {
		return Sound{}
	}
	out := Sound{Rate: ss[0].Rate, Ch: make([][]int16, 2)}
	n := 0
	for _, s := range ss {
		if s.Rate == out.Rate {
			n = max(n, s.Frames())
		}
	}
	for ch := range out.Ch {
		acc := make([]int32, n)
		for _, s := range ss {
			if s.Rate != out.Rate || ch >= len(s.Ch) {
				continue
			}
			for i, v := range s.Ch[ch] {
				acc[i] += int32(v)
			}
		}
		c := make([]int16, n)
		for i, v := range acc {
			c[i] = int16(min(max(v, -32768), 32767))
		}
		out.Ch[ch] = c
	}
	return out
}

// WriteWAV writes s as a RIFF WAVE file of 16-bit PCM, its channels
// interleaved.
func WriteWAV(w io.Writer, s Sound) error {
	nch := len(s.Ch)
	if nch == 0 || s.Rate <= 0 {
		return errors.New("audio: WriteWAV: no channels or no rate")
	}
	frames := s.Frames()
	data := frames * nch * 2
	var b bytes.Buffer
	b.Grow(44 + data)
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+data))
	b.WriteString("WAVEfmt ")
	binary.Write(&b, binary.LittleEndian, struct {
		Size       uint32
		Format     uint16
		Channels   uint16
		Rate       uint32
		ByteRate   uint32
		BlockAlign uint16
		Bits       uint16
	}{16, 1, uint16(nch), uint32(s.Rate), uint32(s.Rate * nch * 2), uint16(nch * 2), 16})
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(data))
	sample := make([]byte, 2)
	for i := 0; i < frames; i++ {
		for _, c := range s.Ch {
			var v int16
			if i < len(c) {
				v = c[i]
			}
			binary.LittleEndian.PutUint16(sample, uint16(v))
			b.Write(sample)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// MaxWAV is the most ReadWAV reads: a minute of 16-bit stereo at 48 kHz,
// more than any announcement.
const MaxWAV = 60 * 48000 * 2 * 2

// ReadWAV reads a RIFF WAVE file of 16-bit PCM, of at most MaxWAV bytes
// of samples. A data chunk whose size is larger than what follows (a
// stream's header, as espeak-ng --stdout writes it) is read to the end.
func ReadWAV(r io.Reader) (Sound, error) {
	bad := func(format string, args ...any) (Sound, error) {
		return Sound{}, fmt.Errorf("audio: WAV: "+format, args...)
	}
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return bad("header: %v", err)
	}
	if string(hdr[:4]) != "RIFF" || string(hdr[8:]) != "WAVE" {
		return bad("not a RIFF WAVE file")
	}
	var nch, bits int
	rate := 0
	for {
		var ck [8]byte
		if _, err := io.ReadFull(r, ck[:]); err != nil {
			return bad("no data chunk: %v", err)
		}
		size := int64(binary.LittleEndian.Uint32(ck[4:]))
		switch string(ck[:4]) {
		case "fmt ":
			if size < 16 || size > 1024 {
				return bad("fmt chunk of %d bytes", size)
			}
			f := make([]byte, size+size%2)
			if _, err := io.ReadFull(r, f); err != nil {
				return bad("fmt chunk: %v", err)
			}
			if format := binary.LittleEndian.Uint16(f); format != 1 {
				return bad("format %d, want 1 (PCM)", format)
			}
			nch = int(binary.LittleEndian.Uint16(f[2:]))
			rate = int(binary.LittleEndian.Uint32(f[4:]))
			bits = int(binary.LittleEndian.Uint16(f[14:]))
			if bits != 16 || nch < 1 || nch > 8 || rate < 1000 || rate > 192000 {
				return bad("%d channels of %d bits at %d Hz, want 16-bit PCM", nch, bits, rate)
			}
		case "data":
			if nch == 0 {
				return bad("data before fmt")
			}
			raw, err := io.ReadAll(io.LimitReader(r, min(size, MaxWAV+1)))
			if err != nil {
				return bad("data: %v", err)
			}
			if len(raw) > MaxWAV {
				return bad("more than %d bytes of samples", MaxWAV)
			}
			frames := len(raw) / (2 * nch)
			s := Sound{Rate: rate, Ch: make([][]int16, nch)}
			for c := range s.Ch {
				s.Ch[c] = make([]int16, frames)
			}
			for i := 0; i < frames; i++ {
				for c := 0; c < nch; c++ {
					s.Ch[c][i] = int16(binary.LittleEndian.Uint16(raw[(i*nch+c)*2:]))
				}
			}
			return s, nil
		default:
			if size > 1<<20 {
				return bad("chunk %q of %d bytes", ck[:4], size)
			}
			if _, err := io.CopyN(io.Discard, r, size+size%2); err != nil {
				return bad("chunk %q: %v", ck[:4], err)
			}
		}
	}
}
