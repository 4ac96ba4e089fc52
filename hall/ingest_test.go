package hall

import (
	"testing"

	"github.com/zeitnot/zeitnot/hall/store"
)

// Whatever a clock publishes, the hall neither panics nor keeps what the
// protocol does not allow.
func FuzzReceive(f *testing.F) {
	f.Add("zeitnot/v1/fz/board/3/state", []byte(`{"hall":"fz","board":3,"game":"g1","time":5,"state":{"running":"white","white":{"ms":1},"black":{"ms":2}}}`))
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
					if !store.ValidGame(g) {
						t.Fatalf("game id %q kept", g)
					}
				}
			}
		}
	})
}
