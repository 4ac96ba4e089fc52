package audio

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// Sink plays a sound, returning when it has played or ctx ends.
type Sink interface {
	Play(ctx context.Context, s Sound) error
}

// Aplay plays through ALSA's aplay, a process for each sound.
type Aplay struct {
	Path   string // the program; "" is aplay on PATH
	Device string // the ALSA device; "" is ALSA's default
}

var _ Sink = &Aplay{}

// Play pipes s to aplay as a WAV file.
func (a *Aplay) Play(ctx context.Context, s Sound) error {
	path := a.Path
	if path == "" {
		path = "aplay"
	}
	args := []string{"-q"}
	if a.Device != "" {
		args = append(args, "-D", a.Device)
	}
	var wav bytes.Buffer
	if err := WriteWAV(&wav, s); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, path, append(args, "-")...)
	cmd.Stdin = &wav
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("audio: aplay: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// Utterance is a text to say on one channel.
type Utterance struct {
	Channel Channel
	Voice   string
	Text    string
}

// Player says utterances on a goroutine of its own: Say hands them over
// and returns at once.
type Player struct {
	synth Synth
	sink  Sink
	log   func(string)

	mu      sync.Mutex
	queue   []Utterance
	cancel  context.CancelFunc // of what plays now
	wake    chan struct{}
	done    chan struct{}
	closed  bool
	lastErr string
}

// MaxQueue is the most utterances a Player holds; more are dropped.
const MaxQueue = 16

// NewPlayer starts a player. log gets each new error once (nil drops
// them).
func NewPlayer(synth Synth, sink Sink, log func(string)) *Player {
	p := &Player{synth: synth, sink: sink, log: log, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run()
	return p
}

// Say queues utterances said at one instant (at most one per channel is
// kept: the last) and cuts what plays now. It never blocks.
func (p *Player) Say(us ...Utterance) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	for _, u := range us {
		if len(p.queue) < MaxQueue {
			p.queue = append(p.queue, u)
		}
	}
	if p.cancel != nil {
		p.cancel()
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Close stops the player, cutting what plays.
func (p *Player) Close() error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		if p.cancel != nil {
			p.cancel()
		}
		close(p.wake)
	}
	p.mu.Unlock()
	<-p.done
	return nil
}

func (p *Player) run() {
	defer close(p.done)
	for range p.wake {
		for {
			p.mu.Lock()
			batch := p.queue
			p.queue = nil
			if len(batch) == 0 || p.closed {
				p.mu.Unlock()
				break
			}
			ctx, cancel := context.WithCancel(context.Background())
			p.cancel = cancel
			p.mu.Unlock()
			p.play(ctx, batch)
			cancel()
			p.mu.Lock()
			p.cancel = nil
			p.mu.Unlock()
		}
	}
}

// play says the latest utterance of each channel, both at once.
func (p *Player) play(ctx context.Context, batch []Utterance) {
	var last [2]*Utterance
	for i := range batch {
		if c := batch[i].Channel; c == Left || c == Right {
			last[c] = &batch[i]
		}
	}
	var sounds []Sound
	for _, u := range last {
		if u == nil {
			continue
		}
		m, err := p.synth.Synthesize(ctx, u.Voice, u.Text)
		if err != nil {
			p.fail(err)
			continue
		}
		sounds = append(sounds, OnChannel(m, u.Channel, 0))
	}
	if len(sounds) == 0 || ctx.Err() != nil {
		return
	}
	if err := p.sink.Play(ctx, Mix(sounds...)); err != nil {
		p.fail(err)
	}
}

func (p *Player) fail(err error) {
	if err == nil || p.log == nil || err.Error() == p.lastErr {
		return
	}
	p.lastErr = err.Error()
	p.log(err.Error())
}
