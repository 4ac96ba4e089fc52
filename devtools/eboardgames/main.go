// Command eboardgames makes the corpus of games the simulated DGT board
// plays (drivers/eboard/simdgt/games): real games from the PGN collections
// Debian's pychess package ships, and games stockfish plays until every
// special move has come up (castling both ways for both sides, en passant
// for both sides, promotion to a queen and underpromotion to a rook, a
// bishop and a knight). Every game is checked move for move: the moves are
// replayed from their positions alone through moves.Tracker, as the board
// would show them, and the SAN it gives must be the source's.
//
// It was run once, on Debian 12 with pychess 1.0.3 and stockfish 15.1:
//
//	apt-get install -y pychess stockfish
//	go run ./devtools/eboardgames -pychess /usr/share/pychess -stockfish /usr/games/stockfish \
//	    -out drivers/eboard/simdgt/games
//
// Stockfish's games depend on its version and the seed (-seed); pychess's
// on the files it ships. The output is committed; nothing runs this in a
// build.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/engine/fen"
)

func main() {
	pychess := flag.String("pychess", "/usr/share/pychess", "where pychess's PGN files are")
	stockfish := flag.String("stockfish", "/usr/games/stockfish", "the stockfish binary")
	out := flag.String("out", "drivers/eboard/simdgt/games", "where the corpus goes")
	perFile := flag.Int("per-file", 3, "games taken from each pychess file, the longest")
	minPlies := flag.Int("min-plies", 12, "the fewest plies a pychess game needs to be taken")
	seed := flag.Uint64("seed", 25, "stockfish games' random seed")
	flag.Parse()
	real, err := fromPychess(*pychess, *perFile, *minPlies)
	if err != nil {
		log.Fatal(err)
	}
	if err := write(filepath.Join(*out, "pychess.pgn"), real); err != nil {
		log.Fatal(err)
	}
	sf, err := fromStockfish(*stockfish, *seed)
	if err != nil {
		log.Fatal(err)
	}
	if err := write(filepath.Join(*out, "stockfish.pgn"), sf); err != nil {
		log.Fatal(err)
	}
}

// game is one game of the corpus.
type game struct {
	tags [][2]string
	fen  string // "" for the initial position
	san  []string
	uci  []string
}

var (
	tagRe    = regexp.MustCompile(`^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$`)
	moveNum  = regexp.MustCompile(`^\d+\.+`)
	annotate = regexp.MustCompile(`[!?]+$`)
)

// mainline returns the moves of a PGN movetext, without comments,
// variations, NAGs, annotations, move numbers and the result.
func mainline(text string) []string {
	var b strings.Builder
	depth, comment := 0, false
	lineComment := false
	for _, r := range text {
		switch {
		case lineComment:
			if r == '\n' {
				lineComment = false
			}
			continue
		case comment:
			if r == '}' {
				comment = false
			}
			continue
		case r == '{':
			comment = true
			continue
		case r == ';':
			lineComment = true
			continue
		case r == '(':
			depth++
			continue
		case r == ')':
			depth--
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		} else if r == '\n' {
			b.WriteRune(' ')
		}
	}
	var sans []string
	for _, tok := range strings.Fields(b.String()) {
		tok = moveNum.ReplaceAllString(tok, "")
		tok = annotate.ReplaceAllString(tok, "")
		switch {
		case tok == "", tok[0] == '$', tok == "*", tok == "1-0", tok == "0-1", tok == "1/2-1/2":
			continue
		}
		sans = append(sans, tok)
	}
	return sans
}

// split returns the games of a PGN file: their tags and movetext.
func split(text string) (tags [][][2]string, bodies []string) {
	var cur [][2]string
	var body strings.Builder
	inBody := false
	flush := func() {
		if len(cur) > 0 || strings.TrimSpace(body.String()) != "" {
			tags = append(tags, cur)
			bodies = append(bodies, body.String())
		}
		cur, inBody = nil, false
		body.Reset()
	}
	for _, line := range strings.Split(text, "\n") {
		if m := tagRe.FindStringSubmatch(line); m != nil {
			if inBody {
				flush()
			}
			cur = append(cur, [2]string{m[1], strings.ReplaceAll(m[2], `\"`, `"`)})
			continue
		}
		if strings.TrimSpace(line) != "" {
			inBody = true
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	flush()
	return tags, bodies
}

func tag(tags [][2]string, k string) string {
	for _, t := range tags {
		if t[0] == k {
			return t[1]
		}
	}
	return ""
}

// replay checks a game from its SAN: each move is decoded by the rules
// library, the board after it given to a moves.Tracker as a board would
// show it, and the Tracker must find that move. It fills in the UCI and
// gives the SAN as the Tracker writes it (the source's, minus annotations,
// with check marks where the rules say).
func replay(g *game) error {
	start := g.fen
	if start == "" {
		start = fen.StartFEN
	}
	var pos chess.Position
	if err := pos.UnmarshalText([]byte(start)); err != nil {
		return fmt.Errorf("FEN %q: %w", start, err)
	}
	tr, err := moves.New(start)
	if err != nil {
		return err
	}
	p := &pos
	var sans, ucis []string
	for i, san := range g.san {
		san = strings.ReplaceAll(san, "0", "O") // 0-0 as some files write it
		m, err := chess.AlgebraicNotation{}.Decode(p, san)
		if err != nil {
			return fmt.Errorf("ply %d %s: %w", i+1, san, err)
		}
		uci := chess.UCINotation{}.Encode(p, m)
		p = p.Update(m)
		board, err := fen.ParsePlacement(p.Board().String())
		if err != nil {
			return err
		}
		got, err := tr.Press(&board)
		if err != nil {
			return fmt.Errorf("ply %d %s: the tracker: %w", i+1, san, err)
		}
		if got.UCI != uci {
			return fmt.Errorf("ply %d %s: the tracker found %s, not %s", i+1, san, got.UCI, uci)
		}
		if strings.TrimRight(got.SAN, "+#") != strings.TrimRight(san, "+#") {
			return fmt.Errorf("ply %d: the tracker writes %s, the source %s", i+1, got.SAN, san)
		}
		sans, ucis = append(sans, got.SAN), append(ucis, uci)
	}
	g.san, g.uci = sans, ucis
	return nil
}

func fromPychess(dir string, perFile, minPlies int) ([]game, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".pgn") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []game
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		tags, bodies := split(string(text))
		var cands []game
		for i := range tags {
			g := game{fen: tag(tags[i], "FEN"), san: mainline(bodies[i])}
			if len(g.san) < minPlies {
				continue
			}
			if err := replay(&g); err != nil {
				log.Printf("%s game %d skipped: %v", f, i+1, err)
				continue
			}
			g.tags = [][2]string{
				{"Event", tag(tags[i], "Event")},
				{"Site", tag(tags[i], "Site")},
				{"White", tag(tags[i], "White")},
				{"Black", tag(tags[i], "Black")},
				{"Result", "*"},
				{"Source", fmt.Sprintf("Debian pychess 1.0.3, %s, game %d (mainline)", strings.TrimPrefix(f, dir+"/"), i+1)},
			}
			cands = append(cands, g)
		}
		sort.SliceStable(cands, func(a, b int) bool { return len(cands[a].san) > len(cands[b].san) })
		out = append(out, cands[:min(perFile, len(cands))]...)
	}
	log.Printf("pychess: %d games from %d files", len(out), len(files))
	return out, nil
}

// engine is stockfish over UCI.
type engine struct {
	in  io.WriteCloser
	out *bufio.Scanner
	cmd *exec.Cmd
}

func startEngine(path string) (*engine, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &engine{in: in, out: bufio.NewScanner(outp), cmd: cmd}
	e.send("uci")
	if _, err := e.until("uciok"); err != nil {
		return nil, err
	}
	e.send("setoption name Threads value 1")
	e.send("setoption name Skill Level value 2")
	e.send("isready")
	if _, err := e.until("readyok"); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *engine) send(s string) { fmt.Fprintln(e.in, s) }

func (e *engine) until(prefix string) (string, error) {
	for e.out.Scan() {
		if l := e.out.Text(); strings.HasPrefix(l, prefix) {
			return l, nil
		}
	}
	return "", errors.New("stockfish: its output ended")
}

func (e *engine) best(fen string, played []string) (string, error) {
	e.send("position fen " + fen + " moves " + strings.Join(played, " "))
	e.send("go depth 6")
	l, err := e.until("bestmove")
	if err != nil {
		return "", err
	}
	f := strings.Fields(l)
	if len(f) < 2 || f[1] == "(none)" {
		return "", nil
	}
	return f[1], nil
}

func (e *engine) close() {
	e.send("quit")
	e.in.Close()
	e.cmd.Wait()
}

// special names the special move m is in pos, or "".
func special(pos *chess.Position, m *chess.Move) string {
	b := pos.Board()
	p := b.Piece(m.S1())
	side := "white"
	if p.Color() == chess.Black {
		side = "black"
	}
	df := int(m.S2().File()) - int(m.S1().File())
	switch {
	case p.Type() == chess.King && (df == 2 || df == -2):
		if df > 0 {
			return side + " O-O"
		}
		return side + " O-O-O"
	case p.Type() == chess.Pawn && df != 0 && b.Piece(m.S2()) == chess.NoPiece:
		return side + " en passant"
	case m.Promo() != chess.NoPieceType:
		return side + " =" + strings.ToUpper(m.Promo().String())
	}
	return ""
}

var wanted = []string{
	"white O-O", "white O-O-O", "black O-O", "black O-O-O",
	"white en passant", "black en passant",
	"white =Q", "white =R", "white =B", "white =N",
	"black =Q", "black =R", "black =B", "black =N",
}

// fromStockfish plays games until every wanted special move has come up.
// The engine plays at a low skill level, so games are varied and end; when
// a special move still wanted is legal it is played instead (a promotion
// still wanted is the engine's pawn move with the piece wanted), so that
// the corpus has them all in few games.
func fromStockfish(path string, seed uint64) ([]game, error) {
	e, err := startEngine(path)
	if err != nil {
		return nil, err
	}
	defer e.close()
	r := rand.New(rand.NewPCG(seed, 25))
	need := map[string]bool{}
	for _, w := range wanted {
		need[w] = true
	}
	var out []game
	for n := 1; n <= 40 && len(need) > 0; n++ {
		var pos chess.Position
		pos.UnmarshalText([]byte(fen.StartFEN))
		p := &pos
		var ucis []string
		got := map[string]bool{}
		for ply := 0; ply < 300; ply++ {
			legal := p.ValidMoves()
			if len(legal) == 0 || p.HalfMoveClock() >= 100 {
				break
			}
			var pick *chess.Move
			for i := range legal {
				if s := special(p, &legal[i]); need[s] && !got[s] {
					pick = &legal[i]
					break
				}
			}
			if pick == nil {
				uci, err := e.best(fen.StartFEN, ucis)
				if err != nil {
					return nil, err
				}
				if r.IntN(8) == 0 { // now and then a random move, for variety
					uci = chess.UCINotation{}.Encode(p, &legal[r.IntN(len(legal))])
				}
				for i := range legal {
					if (chess.UCINotation{}).Encode(p, &legal[i]) == uci {
						pick = &legal[i]
					}
				}
				if pick == nil {
					return nil, fmt.Errorf("stockfish: game %d ply %d: %q is no legal move", n, ply+1, uci)
				}
			}
			if s := special(p, pick); s != "" {
				got[s] = true
			}
			ucis = append(ucis, chess.UCINotation{}.Encode(p, pick))
			p = p.Update(pick)
		}
		var fresh []string
		for s := range got {
			if need[s] {
				fresh = append(fresh, s)
				delete(need, s)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		sort.Strings(fresh)
		g := game{uci: ucis}
		// SAN through a tracker from the positions, as replay checks.
		var pos0 chess.Position
		pos0.UnmarshalText([]byte(fen.StartFEN))
		q := &pos0
		for _, u := range ucis {
			m, err := chess.UCINotation{}.Decode(q, u)
			if err != nil {
				return nil, err
			}
			g.san = append(g.san, chess.AlgebraicNotation{}.Encode(q, m))
			q = q.Update(m)
		}
		if err := replay(&g); err != nil {
			return nil, fmt.Errorf("stockfish game %d: %w", n, err)
		}
		g.tags = [][2]string{
			{"Event", "Special moves: " + strings.Join(fresh, ", ")},
			{"Site", "stockfish"},
			{"White", "Stockfish, skill 2, depth 6"},
			{"Black", "Stockfish, skill 2, depth 6"},
			{"Result", "*"},
			{"Source", fmt.Sprintf("devtools/eboardgames, seed %d, game %d: stockfish at skill level 2, depth 6, one move in 8 random, a special move still wanted played when legal", seed, n)},
		}
		out = append(out, g)
		log.Printf("stockfish game %d: %d plies: %s", n, len(ucis), strings.Join(fresh, ", "))
	}
	if len(need) > 0 {
		var left []string
		for s := range need {
			left = append(left, s)
		}
		sort.Strings(left)
		return out, fmt.Errorf("stockfish: after 40 games still no %s", strings.Join(left, ", "))
	}
	return out, nil
}

// write writes the games as PGN: the tags, the UCI of the moves in a tag
// of its own (the simulated board's hand reads it: it knows no chess), and
// the SAN movetext.
func write(path string, games []game) error {
	var b strings.Builder
	for _, g := range games {
		for _, t := range g.tags {
			fmt.Fprintf(&b, "[%s %q]\n", t[0], t[1])
		}
		if g.fen != "" {
			fmt.Fprintf(&b, "[SetUp \"1\"]\n[FEN %q]\n", g.fen)
		}
		fmt.Fprintf(&b, "[UCI %q]\n\n", strings.Join(g.uci, " "))
		start := g.fen
		if start == "" {
			start = fen.StartFEN
		}
		from, err := fen.Parse(start)
		if err != nil {
			return fmt.Errorf("FEN %q: %w", start, err)
		}
		num, black := from.FullMove, from.BlackToMove
		line := 0
		word := func(s string) {
			if line+len(s)+1 > 79 {
				b.WriteByte('\n')
				line = 0
			} else if line > 0 {
				b.WriteByte(' ')
				line++
			}
			b.WriteString(s)
			line += len(s)
		}
		for i, san := range g.san {
			switch {
			case i == 0 && black:
				word(fmt.Sprintf("%d...", num))
			case !black:
				word(fmt.Sprintf("%d.", num))
			}
			word(san)
			if black {
				num++
			}
			black = !black
		}
		word("*")
		b.WriteString("\n\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	log.Printf("%s: %d games, %d bytes", path, len(games), b.Len())
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
