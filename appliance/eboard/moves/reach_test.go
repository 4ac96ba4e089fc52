package moves

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/fen"
)

// TestReachable: positions a game can lead to pass; set-ups no legal
// moves lead to from the game's position are refused, naming why.
func TestReachable(t *testing.T) {
	after := func(uci ...string) string {
		tr, err := New("")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uci {
			if _, err := tr.Play(m); err != nil {
				t.Fatal(m, err)
			}
		}
		pl := tr.Placement()
		return pl.String()
	}
	st := fen.Start
	start := st.String()
	for _, tc := range []struct {
		name, from, to, err string
	}{
		{"the same", start, start, ""},
		{"two moves on", start, after("e2e4", "e7e5"), ""},
		{"a capture", start, after("e2e4", "d7d5", "e4d5"), ""},
		{"a pawn's capture onto another file", after("e2e4", "d7d5"), after("e2e4", "d7d5", "e4d5"), ""},
		{"an endgame from the start", start, "4k3/8/8/8/8/8/4P3/4K3", ""},
		{"a promotion", "4k3/P7/8/8/8/8/8/4K3", "Q3k3/8/8/8/8/8/8/4K3", ""},
		{"sixteen queens", start, "4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3", "white has 17 pieces, 16 before"},
		{"a third knight with every pawn", start, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBNR", "a side never gains pieces"},
		{"a pawn back home", after("e2e4"), start, "pawns never move back"},
		{"a pawn sideways", after("e2e4"), "rnbqkbnr/pppppppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR", "crossed 1 files, but only 0"},
		{"a pawn to the next file, no rank on", after("e2e4"), "rnbqkbnr/pppppppp/8/8/3P4/8/PPPP1PPP/RNBQKBNR", "came from none of the game's"},
		{"a black pawn back", after("e2e4", "e7e5"), after("e2e4"), "pawns never move back"},
		{"an extra pawn", "4k3/8/8/8/8/8/4P3/4K3", "4k3/8/8/8/8/8/3PP3/4K3", "a side never gains pieces"},
		{"a pawn for a knight", "4k3/8/8/8/8/8/3PN3/4K3", "4k3/8/8/8/8/8/3PP3/4K3", "never gains pawns"},
		{"a promotion without a pawn lost", "4k3/P7/8/8/8/8/8/R3K3", "Q3k3/P7/8/8/8/8/8/4K3", "pieces more than before but 0 pawns fewer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, err := fen.ParsePlacement(tc.from)
			if err != nil {
				t.Fatal(err)
			}
			to, err := fen.ParsePlacement(tc.to)
			if err != nil {
				t.Fatal(err)
			}
			err = Reachable(&from, &to)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Reachable: %v, want nil", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("Reachable: %v, want an error with %q", err, tc.err)
			}
		})
	}
}

// FuzzReachable: every position of a game played at random is reachable
// from every earlier one.
func FuzzReachable(f *testing.F) {
	f.Add(uint64(1), uint8(40))
	f.Add(uint64(7), uint8(120))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8) {
		tr, _ := New("")
		seen := []fen.Placement{tr.Placement()}
		for i := 0; i < int(plies); i++ {
			ms := tr.pos.ValidMoves()
			if len(ms) == 0 {
				break
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			m := ms[(seed>>33)%uint64(len(ms))]
			if _, err := tr.Play(m.String()); err != nil {
				t.Fatal(err)
			}
			seen = append(seen, tr.Placement())
		}
		last := seen[len(seen)-1]
		for i := range seen {
			if err := Reachable(&seen[i], &last); err != nil {
				t.Fatalf("ply %d to ply %d: %v", i, len(seen)-1, err)
			}
		}
	})
}
