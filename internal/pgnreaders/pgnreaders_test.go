package pgnreaders

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// Every game, written alone and all in one file, reads back in the four
// readers as its journal says.
func TestWritePGNReadsBack(t *testing.T) {
	games := Games()
	var all bytes.Buffer
	var wantAll []Want
	pgns := []string{}
	wants := [][]Want{}
	for _, j := range games {
		l, err := j.Parse()
		if err != nil {
			t.Fatalf("%s: %v", j.Name, err)
		}
		var b bytes.Buffer
		if err := clocklog.WritePGN(l, &b, j.Game); err != nil {
			t.Fatalf("%s: %v", j.Name, err)
		}
		w := Expect(t, l, j.Game)
		all.Write(b.Bytes())
		wantAll = append(wantAll, w)
		if strings.HasPrefix(j.Name, "scripted") {
			pgns = append(pgns, b.String())
			wants = append(wants, []Want{w})
		}
	}
	CheckAll(t, append(pgns, all.String()), append(wants, wantAll))
}

// The harness can fail: two comments in a row, a move that is not legal,
// an unknown tag of someone else's and a wrong clock are each caught.
func TestCheckCatches(t *testing.T) {
	head := "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"
	want := Want{Tags: map[string]string{"Result": "*"}, Moves: []string{"e4"}, Comments: []string{"[%clk 0:05:00] [%emt 0:00:01]"}, Clk: []int64{300000}, Egt: []string{""}, Emt: []string{"0:00:01"}}
	cases := []struct {
		name, pgn string
		fail      []string // readers that must refuse or misread it
	}{
		{"good", head + "\n1. e4 {[%clk 0:05:00] [%emt 0:00:01]} *\n", nil},
		{"two comments", head + "\n1. e4 {[%clk 0:05:00] [%emt 0:00:01]} {b} *\n", Readers},
		{"illegal", head + "\n1. e5 {[%clk 0:05:00] [%emt 0:00:01]} *\n", Readers},
		{"no moves", head + "\n1. {[%clk 0:05:00]} *\n", []string{"chess.js", "mliebelt", "pgn-parser", "chessops"}},
		{"foreign tag", head + "[Foo \"x\"]\n\n1. e4 {[%clk 0:05:00] [%emt 0:00:01]} *\n", []string{"mliebelt"}},
		{"wrong clock", head + "\n1. e4 {[%clk 0:04:00] [%emt 0:00:01]} *\n", Readers},
	}
	var pgns []string
	for _, tt := range cases {
		pgns = append(pgns, tt.pgn)
	}
	for i, res := range Read(t, pgns...) {
		tt := cases[i]
		for _, name := range Readers {
			r := res[name]
			bad := !r.OK || len(r.Games) != 1 || compare(name, r.Games[0], want) != ""
			if bad != contains(tt.fail, name) {
				t.Errorf("%s: %s: bad=%v (%+v)", tt.name, name, bad, r)
			}
		}
	}
}
