package web

import (
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/store"
)

// A game's PGN is dated the day its clock started, as the board's state
// said, not the day it is downloaded; a game never seen started gets today.
func TestPGNDateIsTheGamesDay(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	played := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	today := time.Date(2026, 11, 30, 12, 0, 0, 0, time.Local)
	srv, err := New(Opts{Store: st, Hall: "club", Now: func() time.Time { return today }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	state := func(game string, at time.Time, started bool) *protocol.StateMsg {
		s := `{"hall":"club","board":3,"game":"` + game + `","time":` + strconv.FormatInt(at.UnixMilli(), 10) + `,"state":{"at":0,"running":"none","paused":false,"first_flag":"none",` +
			`"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":false,"stopped":false}}`
		if started {
			s = strings.Replace(s, `"started":false`, `"started":true`, 1)
		}
		m, err := protocol.ParseStateMsg([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return &m
	}
	// Game 0017: set up the day before, started on the 7th, states after.
	st.PutState(3, state("0017", played.AddDate(0, 0, -1), false), played)
	st.PutState(3, state("0017", played, true), played)
	st.PutState(3, state("0017", played.AddDate(0, 0, 2), true), played)
	// Game 0018: never seen started.
	st.PutState(3, state("0018", played, false), played)
	for _, g := range []string{"0017", "0018"} {
		for i, l := range []string{"format 2", "control 300+2"} {
			if _, err := st.PutLine(3, g, int64(i+1), clocklog.WithChecksum(l)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for game, want := range map[string]string{"0017": "2026.03.07", "0018": "2026.11.30"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/api/boards/3/pgn?game="+game, nil))
		if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, `[Date "`+want+`"]`) {
			t.Errorf("game %s: %d, want [Date %q]:\n%s", game, rec.Code, want, body)
		}
	}
}
