package web

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// A board's view counts its game's conflicting lines, for the arbiter's
// card; a board without any has none in its JSON.
func TestViewConflicts(t *testing.T) {
	now := time.Date(2026, 3, 7, 19, 30, 0, 0, time.UTC)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(now)})
	hallGame(t, st, 1, "0001-aaaaaa", "control 300+2\n0 start\n1000 press white\n", store.Players{}, `{"running":"black","started":true,"to_move":"black"}`, now)
	hallGame(t, st, 2, "0002-aaaaaa", "control 300+2\n0 start\n1000 press white\n", store.Players{}, `{"running":"black","started":true,"to_move":"black"}`, now)
	if _, err := st.PutLine(1, "0001-aaaaaa", 4, clocklog.WithChecksum("0 result 1-0 players")); err != nil {
		t.Fatal(err)
	}
	views := map[int]View{}
	for _, v := range srv.views() {
		views[v.Board] = v
	}
	if views[1].Conflicts != 1 || views[2].Conflicts != 0 {
		t.Errorf("conflicts: board 1 %d, board 2 %d", views[1].Conflicts, views[2].Conflicts)
	}
	b, _ := json.Marshal(views[2])
	var m map[string]any
	json.Unmarshal(b, &m)
	if _, ok := m["conflicts"]; ok {
		t.Errorf("board 2's view: %s", b)
	}
}
