package moves_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/corentings/chess/v2"
)

// game is a test PGN: its moves in SAN as written in the file, and in UCI
// as the library reads them.
type game struct {
	name string
	san  []string
	uci  []string
}

var (
	tagLine  = regexp.MustCompile(`(?m)^\[.*\]$`)
	moveNums = regexp.MustCompile(`\d+\.+`)
)

func loadGames(t *testing.T) []game {
	t.Helper()
	files, err := filepath.Glob("testdata/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test PGNs: %v", err)
	}
	var out []game
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g := game{name: filepath.Base(f)}
		body := moveNums.ReplaceAllString(tagLine.ReplaceAllString(string(text), ""), " ")
		for _, tok := range strings.Fields(body) {
			if tok == "*" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" {
				continue
			}
			g.san = append(g.san, tok)
		}
		pos := chess.StartingPosition()
		for i, san := range g.san {
			m, err := chess.AlgebraicNotation{}.Decode(pos, san)
			if err != nil {
				t.Fatalf("%s: move %d %s: %v", f, i+1, san, err)
			}
			g.uci = append(g.uci, chess.UCINotation{}.Encode(pos, m))
			pos = pos.Update(m)
		}
		out = append(out, g)
	}
	return out
}

func TestPGNsRead(t *testing.T) {
	for _, g := range loadGames(t) {
		t.Logf("%s: %d plies: %s", g.name, len(g.uci), strings.Join(g.uci, " "))
	}
}
