package ui

import (
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/speech"
)

func (d *driver) said() []speech.Announcement { return d.c.TakeSpeech() }

// TestAnnounceBatteryLow: the low-battery warning is said to both players
// once, when it comes (FIDE 2026 equipment rules 3.1.2; the blind players'
// associations ask for it spoken), and again only after it went.
func TestAnnounceBatteryLow(t *testing.T) {
	d := newDriver(t, Opts{})
	d.said()
	d.c.SetPower("BATTERY LOW", "battery 9%")
	d.wait(time.Second)
	got := d.said()
	if len(got) != 2 || got[0].Text != "battery low" || got[0].Channel != speech.Left || got[1].Channel != speech.Right {
		t.Fatalf("said %+v", got)
	}
	d.wait(time.Minute)
	if got := d.said(); len(got) != 0 {
		t.Errorf("said again: %+v", got)
	}
	d.c.SetPower("ON BATTERY, LOW", "battery 8%")
	d.wait(time.Second)
	if got := d.said(); len(got) != 0 {
		t.Errorf("said again on battery: %+v", got)
	}
	d.c.SetPower("", "battery 80%")
	d.wait(time.Second)
	d.c.SetPower("BATTERY LOW", "battery 9%")
	d.wait(time.Second)
	if got := d.said(); len(got) != 2 {
		t.Errorf("after a charge and low again: %+v", got)
	}
}

// TestAnnounceBoardMove: a move the e-board gave is said with FIDE
// D.2.1's names to the player who is to reply, not to the one who made it.
func TestAnnounceBoardMove(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right) // White's clock runs
	d.press(Left)  // 1. (White, on the left, moved)
	d.said()
	if err := d.c.Session().RecordMove(d.now, 1, "Nf3", "g1f3"); err != nil {
		t.Fatal(err)
	}
	got := d.said()
	if len(got) != 1 || got[0].Channel != speech.Right || got[0].Text != "Springer Felix drei" {
		t.Errorf("said %+v", got)
	}
}

// TestAnnounceSides: the earphone is the player's at that side of the
// board: with White on the right, the left announce button says Black's
// time; and the announce buttons work no menu (a press in a menu moves
// nothing).
func TestAnnounceSides(t *testing.T) {
	s := DefaultSettings
	s.WhiteLeft = false
	s.Control = "300|240"
	d := newDriver(t, Opts{Settings: s})
	d.press(AnnounceLeft)
	if got := d.said(); len(got) != 1 || got[0].Text != "four minutes, move zero" {
		t.Errorf("left with Black there: %+v", got)
	}
	d.hold(OK)
	before := d.c.View(d.now).Menu
	d.press(AnnounceRight)
	if got := d.said(); len(got) != 1 || got[0].Text != "five minutes, move zero" || got[0].Channel != speech.Right {
		t.Errorf("right with White there: %+v", got)
	}
	if after := d.c.View(d.now).Menu; after.Title != before.Title || after.Cursor != before.Cursor {
		t.Errorf("the announce button worked the menu: %+v, was %+v", after, before)
	}
}
