// Package games is the corpus of games the simulated DGT board plays, for
// tests and the hall's demo: real games from the PGN collections Debian's
// pychess package ships (pychess.pgn: lichess studies and practice
// lessons, most from a position set up, mainlines only), and games
// stockfish played so that every special move comes up (stockfish.pgn:
// castling both ways, en passant, promotion and underpromotion to each
// piece, for both sides). devtools/eboardgames made both, checking every
// move through moves.Tracker; its doc says how it was run.
//
// Each game carries its moves twice: in SAN in the movetext, as the source
// has them, and in UCI in a [UCI] tag, which simdgt.Hand reads (it knows no
// chess).
package games

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

//go:embed *.pgn
var files embed.FS

// Game is one game of the corpus.
type Game struct {
	Name   string // "stockfish.pgn#3": the file and the game's number in it
	Event  string
	Source string      // where it comes from
	FEN    string      // the position it starts from; "" for the initial one
	SAN    []string    // the moves as the source writes them
	UCI    []string    // the same moves in UCI
	Tags   [][2]string // every tag, in order
}

var (
	tagLine = regexp.MustCompile(`^\[(\w+) "((?:[^"\\]|\\.)*)"\]$`)
	moveNum = regexp.MustCompile(`^\d+\.+$`)
)

// All returns every game, file by file in name order.
func All() ([]Game, error) {
	names, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []Game
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	for _, n := range names {
		text, err := files.ReadFile(n.Name())
		if err != nil {
			return nil, err
		}
		gs, err := parse(n.Name(), string(text))
		if err != nil {
			return nil, err
		}
		out = append(out, gs...)
	}
	return out, nil
}

// parse reads the corpus's own PGN: tags, a blank line, movetext of SAN
// and move numbers ending in "*".
func parse(name, text string) ([]Game, error) {
	var out []Game
	var g *Game
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := tagLine.FindStringSubmatch(line); m != nil {
			if g == nil || len(g.SAN) > 0 {
				out = append(out, Game{Name: fmt.Sprintf("%s#%d", name, len(out)+1)})
				g = &out[len(out)-1]
			}
			v := strings.ReplaceAll(m[2], `\"`, `"`)
			g.Tags = append(g.Tags, [2]string{m[1], v})
			switch m[1] {
			case "Event":
				g.Event = v
			case "Source":
				g.Source = v
			case "FEN":
				g.FEN = v
			case "UCI":
				g.UCI = strings.Fields(v)
			}
			continue
		}
		for _, tok := range strings.Fields(line) {
			if g == nil {
				return nil, fmt.Errorf("games: %s:%d: moves before any tag", name, i+1)
			}
			if moveNum.MatchString(tok) || tok == "*" {
				continue
			}
			g.SAN = append(g.SAN, tok)
		}
	}
	for _, g := range out {
		if len(g.SAN) != len(g.UCI) || len(g.SAN) == 0 {
			return nil, fmt.Errorf("games: %s: %d moves in SAN, %d in UCI", g.Name, len(g.SAN), len(g.UCI))
		}
	}
	return out, nil
}
