package protocol

import "testing"

// TestParseTopic: every topic TopicsFor makes reads back as its board and
// kind; anything else is not the protocol's.
func TestParseTopic(t *testing.T) {
	for _, n := range []int{1, 7, MaxBoard} {
		tp := TopicsFor("club", n)
		for kind, topic := range map[string]string{KindState: tp.State, KindLog: tp.Log, KindOnline: tp.Online, KindCmd: tp.Cmd, KindReply: tp.Reply} {
			got, ok := ParseTopic(topic)
			if !ok || got != (Topic{Hall: "club", Board: n, Kind: kind}) {
				t.Errorf("ParseTopic(%q) = %+v, %v", topic, got, ok)
			}
			if got.FromClock() != (kind != KindCmd) {
				t.Errorf("%q: FromClock %v", topic, got.FromClock())
			}
		}
		if got, ok := ParseTopic(tp.All); !ok || got != (Topic{Hall: "club", Kind: KindCmd}) || got.FromClock() {
			t.Errorf("ParseTopic(%q) = %+v, %v", tp.All, got, ok)
		}
	}
	for _, topic := range []string{
		"", "zeitnot", "zeitnot/v1/club", "zeitnot/v2/club/board/1/state", "other/v1/club/board/1/state",
		"zeitnot/v1//board/1/state", "zeitnot/v1/club/board/01/state", "zeitnot/v1/club/board/0/state",
		"zeitnot/v1/club/board/-1/state", "zeitnot/v1/club/board/+1/state", "zeitnot/v1/club/board/1000000/state",
		"zeitnot/v1/club/board/1/state/x", "zeitnot/v1/club/board/1/moves", "zeitnot/v1/club/board/x/state",
		"zeitnot/v1/club/all/state", "zeitnot/v1/club/all/cmd/x", "zeitnot/v1/club/board/1",
	} {
		if got, ok := ParseTopic(topic); ok {
			t.Errorf("ParseTopic(%q) = %+v: not a topic of the protocol", topic, got)
		}
	}
	if got := BoardsFilter("club"); got != "zeitnot/v1/club/board/+/+" {
		t.Errorf("BoardsFilter = %q", got)
	}
	for id, want := range map[string]int{"zeitnot-club-3": 3, "zeitnot-club-03": 0, "zeitnot-other-3": 0, "zeitnot-club-": 0, "zeitnot-club-3-4": 0} {
		if n, ok := ParseClientID("club", id); n != want || ok != (want != 0) {
			t.Errorf("ParseClientID(%q) = %d, %v; want %d", id, n, ok, want)
		}
	}
	if n, ok := ParseClientID("club", ClientID("club", 12)); !ok || n != 12 {
		t.Errorf("ParseClientID(ClientID(club, 12)) = %d, %v", n, ok)
	}
}

// FuzzParseTopic: ParseTopic never panics, and what it reads writes back
// as the same topic.
func FuzzParseTopic(f *testing.F) {
	f.Add("zeitnot/v1/club/board/3/state")
	f.Add("zeitnot/v1/club/all/cmd")
	f.Fuzz(func(t *testing.T, topic string) {
		tp, ok := ParseTopic(topic)
		if !ok {
			return
		}
		var back string
		if tp.Board == 0 {
			back = TopicsFor(tp.Hall, 1).All
		} else {
			back = BoardTopic(tp.Hall, tp.Board) + "/" + tp.Kind
		}
		if back != topic {
			t.Errorf("ParseTopic(%q) = %+v, which writes %q", topic, tp, back)
		}
	})
}
