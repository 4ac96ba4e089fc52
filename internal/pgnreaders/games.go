package pgnreaders

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// A Journal is a game's clock log (format 1 text) with what its PGN
// needs beyond it.
type Journal struct {
	Name string
	Log  string
	Game clocklog.PGNGame
}

// Parse reads j's log.
func (j Journal) Parse() (*clocklog.Log, error) {
	return clocklog.ReadLog(j.Name, []byte(j.Log))
}

// Legal move lists, for the games a board saw: every special move.
var sanGames = [][]string{
	// Morphy against the Duke and the Count, Paris 1858: castling long,
	// checks, mate.
	strings.Fields("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"),
	// The Ruy Lopez, Breyer: castling short.
	strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7"),
	// Promotion with capture, then an underpromotion is not possible:
	// a queen.
	strings.Fields("e4 d5 exd5 c6 dxc6 Qc7 cxb7 Qd8 bxa8=Q"),
	// Underpromotion to a knight.
	strings.Fields("e4 d5 exd5 c6 dxc6 Qc7 cxb7 Qd8 bxc8=N"),
	// En passant.
	strings.Fields("e4 Nf6 e5 d5 exd6 exd6"),
	// Fool's mate.
	strings.Fields("f3 e5 g4 Qh4#"),
}

// realistic controls, as halls play them.
var realisticControls = []string{
	"40/5400+30:1800+30", "40/5400+30:1800+30", "5400+30", "900+10", "900+10",
	"600+5", "180+2", "180+2", "300+3", "5400d5", "1500d5", "300b3",
	"white 300+2@61\ncontrol black 240+2@61", "white 300\ncontrol black 240",
	"*60", "^", "40/7200:20/3600:1800", "3600~5x30", "1800~20/300", "60",
}

// Games are 40 realistic games, made from a fixed seed (controls as halls
// play them; move times from seconds to half an hour; pauses, arbiter's
// corrections, flags, a few with the moves a board saw), and 15 scripted
// ones, each for one form of docs/pgn.md.
func Games() []Journal {
	var out []Journal
	rnd := rand.New(rand.NewPCG(23, 2026))
	names := [][2]string{{"Carlsen, Magnus", "Caruana, Fabiano"}, {"Muzychuk, Anna", "Ju, Wenjun"}, {"Müller, Jörg", "Łukasz \"Łuki\" Nowak"}, {"", ""}, {"O'Brien, Seán", "Škoda, Petr"}}
	for i := 0; i < 40; i++ {
		ctl := realisticControls[i%len(realisticControls)]
		var b strings.Builder
		fmt.Fprintf(&b, "format 1\ncontrol %s\n", ctl)
		at := int64(rnd.IntN(5000))
		fmt.Fprintf(&b, "%d start\n", at)
		plies := 20 + rnd.IntN(120)
		var san []string
		if i%7 == 3 {
			san = sanGames[(i/7)%len(sanGames)]
			plies = len(san) + rnd.IntN(3)
		}
		// Typical think times: quick openings, slow middle games; in
		// short controls, short moves.
		scale := int64(60000)
		switch {
		case strings.HasPrefix(ctl, "180") || strings.HasPrefix(ctl, "300") || strings.HasPrefix(ctl, "*60") || ctl == "60" || strings.HasPrefix(ctl, "white"):
			scale = 4000
		case strings.HasPrefix(ctl, "900") || strings.HasPrefix(ctl, "600") || strings.HasPrefix(ctl, "1500"):
			scale = 15000
		}
		for p := 0; p < plies; p++ {
			think := int64(300 + rnd.IntN(int(scale)))
			if p < 16 {
				think /= 4
			}
			if rnd.IntN(40) == 0 {
				// A pause: the arbiter, and sometimes a correction.
				fmt.Fprintf(&b, "%d pause\n", at+think/2)
				if rnd.IntN(2) == 0 {
					side := []string{"white", "black"}[rnd.IntN(2)]
					fmt.Fprintf(&b, "%d add %s +120000\n", at+think/2+1000, side)
				}
				at += 60000 + int64(rnd.IntN(120000))
				fmt.Fprintf(&b, "%d resume\n", at)
			}
			at += think
			fmt.Fprintf(&b, "%d press %s\n", at, []string{"white", "black"}[p%2])
		}
		// Some games end on a flag: the last player thinks too long.
		if i%5 == 2 {
			at += 4 * 3600 * 1000
		} else {
			at += int64(rnd.IntN(10000))
		}
		fmt.Fprintf(&b, "%d show\n", at)
		n := names[i%len(names)]
		g := clocklog.PGNGame{Event: "Spring Open", Site: "Vienna AUT", Date: fmt.Sprintf("2026.03.%02d", 1+i%28), Round: fmt.Sprint(1 + i%9), White: n[0], Black: n[1], Moves: san}
		if i%4 == 1 {
			g.Result = []string{"1-0", "0-1", "1/2-1/2"}[i%3]
		}
		out = append(out, Journal{Name: fmt.Sprintf("realistic-%02d.log", i+1), Log: b.String(), Game: g})
	}
	scripted := []struct {
		name, log string
		g         clocklog.PGNGame
	}{
		{"no-moves", "control 300+2\n", clocklog.PGNGame{}},
		{"started-only", "control 300+2\n0 start\n5000 show\n", clocklog.PGNGame{}},
		{"one-move", "control 300+2\n0 start\n4000 press white\n", clocklog.PGNGame{}},
		{"flag-white", "control 60\n0 start\n1000 press white\n2000 press black\n100000 show\n", clocklog.PGNGame{}},
		{"flag-black-moves", "control 60\n0 start\n1000 press white\n2000 press black\n3000 press white\n100000 show\n", clocklog.PGNGame{Moves: []string{"e4", "e5", "Nf3"}}},
		{"flag-no-move", "control 60\n0 start\n100000 show\n", clocklog.PGNGame{}},
		{"armageddon", "control white 300+2@61\ncontrol black 240+2@61\n0 start\n3000 press white\n5000 press black\n", clocklog.PGNGame{Result: "0-1"}},
		{"handicap", "control white 300\ncontrol black 120\n0 start\n3000 press white\n", clocklog.PGNGame{}},
		{"count-up", "control ^\n0 start\n3000 press white\n9000 press black\n", clocklog.PGNGame{Moves: []string{"e4"}}},
		{"hourglass", "control *60\n0 start\n3000 press white\n9000 press black\n", clocklog.PGNGame{}},
		{"delay-bronstein", "control 300b5\n0 start\n3000 press white\n9000 press black\n", clocklog.PGNGame{}},
		{"byo-yomi", "control 60~3x10\n0 start\n61000 press white\n", clocklog.PGNGame{}},
		{"arbiter-increment", "control 300\n0 start\n3000 press white\n280000 press black\n281000 pause\n281000 increment both 5000\n290000 resume\n291000 press white\n", clocklog.PGNGame{}},
		{"tenths-and-escapes", "control 40/5400+30:1800+30\n0 start\n12345 press white\n31009 press black\n", clocklog.PGNGame{Event: `Club "Open" \ 1`, White: "Nakamura, Hikaru", Black: "So, Wesley"}},
		{"moves-all-known-draw", "control 900+10\n0 start\n1000 press white\n2000 press black\n3000 press white\n4000 press black\n5000 press white\n6000 press black\n", clocklog.PGNGame{Moves: strings.Fields("e4 Nf6 e5 d5 exd6 exd6"), Result: "1/2-1/2"}},
	}
	for _, s := range scripted {
		out = append(out, Journal{Name: "scripted-" + s.name + ".log", Log: "format 1\n" + s.log, Game: s.g})
	}
	return out
}
