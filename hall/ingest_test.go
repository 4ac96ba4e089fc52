package hall

import (
	"github.com/zeitnot/zeitnot/protocol"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/hall/store"
)

// Whatever a clock publishes, the hall neither panics nor keeps what the
// protocol does not allow.
func FuzzReceive(f *testing.F) {
	f.Add("zeitnot/v1/fz/board/3/state", []byte(`{"hall":"fz","board":3,"game":"g1","time":5,"state":{"at":0,"running":"white","paused":false,"first_flag":"none","white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":2,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false}}`))
	f.Add("zeitnot/v1/fz/board/3/log", []byte(`{"game":"g1","seq":1,"line":"format 1"}`))
	f.Add("zeitnot/v1/fz/board/3/online", []byte(`{"online":true,"clock":true}`))
	f.Add("zeitnot/v1/fz/board/3/reply", []byte(`{"board":3,"ok":true}`))
	f.Add("zeitnot/v1/fz/board/03/state", []byte(`{}`))
	f.Add("zeitnot/v1/fz/all/cmd", []byte(`{"cmd":"pause"}`))
	st, err := store.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	r := NewReceiver("fz", st)
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		err := r.Receive(topic, payload)
		n, kind, ok := r.BoardOf(topic)
		if err == nil && (!ok || n < 1 || (kind != "state" && kind != "log" && kind != "online" && kind != "reply")) {
			t.Fatalf("kept a message on %q", topic)
		}
		if err == nil && kind == "log" {
			for _, b := range st.Boards() {
				for _, g := range b.Games {
					if !protocol.ValidGame(g) {
						t.Fatalf("game id %q kept", g)
					}
				}
			}
		}
	})
}

// TestMalformedStateRefused: intake checks a state against the protocol's
// type; one without white is refused with the board and what is wrong,
// and the board's last good state stays (one without white froze the
// pages).
func TestMalformedStateRefused(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := NewReceiver("club", st)
	good := `{"hall":"club","board":7,"game":"g1","time":5,"state":{"at":0,"running":"white","paused":false,"first_flag":"none",` +
		`"white":{"ms":1000,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":2000,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false}}`
	if err := r.Receive("zeitnot/v1/club/board/7/state", []byte(good)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ payload, err string }{
		{strings.Replace(good, `"white":{"ms":1000,"moves":0,"period":1,"mode":"fischer"},`, "", 1), "board 7: zeitnot/v1/club/board/7/state: state: no white"},
		{strings.Replace(good, `"white":{"ms":1000,`, `"white":{`, 1), "board 7: zeitnot/v1/club/board/7/state: state: white: no ms"},
		{strings.Replace(good, `"black":{"ms":2000,"moves":0,"period":1,"mode":"fischer"}`, `"black":[]`, 1), "board 7: zeitnot/v1/club/board/7/state: state: black: want a JSON object"},
		{strings.Replace(good, `"ms":1000`, `"ms":"1000"`, 1), "board 7: zeitnot/v1/club/board/7/state: state: cannot unmarshal"},
	} {
		err := r.Receive("zeitnot/v1/club/board/7/state", []byte(c.payload))
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%v, want %q", err, c.err)
		}
	}
	b, _ := st.Board(7)
	if b.State == nil || b.State.State.White.Ms != 1000 {
		t.Errorf("the good state is gone: %+v", b.State)
	}
}
