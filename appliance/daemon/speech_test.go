package daemon

import (
	"testing"

	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// TestSpeechChannels: every reference build has both earphones (its two
// announce buttons); the boot test's machine has none, and a build
// without the buttons gets no player.
func TestSpeechChannels(t *testing.T) {
	for _, name := range []string{"two-ssd1306-i2c", "two-tm1637", "one-ssd1306-spi", "one-sh1106-spi", "sim", "qemu-virt"} {
		p, err := profile.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		left, right := SpeechChannels(p)
		if want := name != "qemu-virt"; left != want || right != want {
			t.Errorf("%s: left %v, right %v", name, left, right)
		}
	}
	p, _ := profile.Builtin("qemu-virt")
	if pl := (&Machine{}).AttachSpeech(p, 0); pl != nil {
		pl.Close()
		t.Error("a player for a build without announce buttons")
	}
	p, _ = profile.Builtin("sim")
	if pl := (&Machine{}).AttachSpeech(p, 0); pl != nil {
		pl.Close()
		t.Error("a player for the simulator (it writes files)")
	}
}

// TestUtterances: an announcement goes to its own channel, in its
// language's voice, and only where the build has that earphone.
func TestUtterances(t *testing.T) {
	as := []speech.Announcement{
		{Channel: speech.Left, Lang: speech.German, Text: "Zug zwölf"},
		{Channel: speech.Right, Lang: speech.French, Text: "coup douze"},
	}
	got := Utterances(as, true, true)
	want := []audio.Utterance{{Channel: audio.Left, Voice: "de", Text: "Zug zwölf"}, {Channel: audio.Right, Voice: "fr", Text: "coup douze"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := Utterances(as, false, true); len(got) != 1 || got[0] != want[1] {
		t.Errorf("right only: %+v", got)
	}
}
