package trf

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Limits on what Parse reads. A TRF of the largest open has a few thousand
// players and a dozen rounds; these bound a file many times that.
const (
	MaxSize    = 4 << 20 // bytes in a file
	MaxLineLen = 2048    // characters in a line: 91 + 10 per round
	MaxPlayers = 9999    // starting ranks have four digits
	MaxRounds  = 150     // rounds a player line may hold
)

// Error is a problem with one line of a TRF (Line 0: the whole file).
type Error struct {
	File   string
	Line   int // from 1; 0 for the whole file
	Column int // from 1; 0 for the whole line
	Msg    string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Points are a score in half points: 7 is 3.5.
type Points int

// String writes p as a TRF does: 3.5, 3.0.
func (p Points) String() string {
	if p < 0 {
		return "-" + (-p).String()
	}
	return strconv.Itoa(int(p)/2) + "." + [2]string{"0", "5"}[p%2]
}

// Game is one round's block of a player line.
type Game struct {
	Opponent int  // the opponent's starting rank; 0: none (a bye, or not paired)
	Colour   byte // 'w', 'b', or '-' for none
	Result   byte // one of 1 = 0 + - W D L H F U Z, or ' ': not played yet
}

// value is what a result scores, in half points, by FIDE's default scoring
// (TRF-2026 tag 162 without changes).
func value(r byte) Points {
	switch r {
	case '1', '+', 'W', 'F', 'U':
		return 2
	case '=', 'D', 'H':
		return 1
	}
	return 0
}

// Player is a player line (tag 001).
type Player struct {
	Line   int // its line in the file
	Start  int // starting rank, 1 to 9999
	Sex    string
	Title  string
	Name   string
	Rating int // 0: none
	Fed    string
	FideID string // "": none
	Birth  string
	Points Points
	Rank   int
	Games  []Game // Games[r-1] is round r
}

// Game returns the player's block for round r (from 1): the zero block
// (no opponent, colour '-', not played) beyond the line's end.
func (p *Player) Game(r int) Game {
	if r >= 1 && r <= len(p.Games) {
		return p.Games[r-1]
	}
	return Game{Colour: '-', Result: ' '}
}

// scoreBefore is p's score from the rounds before r.
func (p *Player) scoreBefore(r int) Points {
	var s Points
	for i := 0; i < r-1 && i < len(p.Games); i++ {
		s += value(p.Games[i].Result)
	}
	return s
}

// Board is one pairing of a round: Black 0 is a bye for White.
type Board struct {
	White, Black int // starting ranks
}

// Bye is a player of a round with no opponent, and what the bye is: one of
// H F U Z (half-point, full-point, pairing-allocated, zero-point), + or -
// (a forfeit without an opponent line), or ' ' (not paired, nothing said).
type Bye struct {
	Player int
	Kind   byte
}

// Tournament is a TRF as read: every line as it came, and the players.
type Tournament struct {
	File        string
	Name        string // tag 012
	TimeControl string // tag 222 as written (TRF-2026); "" without one
	Rounds      int    // tag 142 or XXR, else the longest player line's rounds

	lines   []string // every line, without its end
	eol     string
	players []*Player
	byStart map[int]*Player
	index   map[int]int // starting rank → its line in lines
	byes    map[int][]Bye
	changed map[int]bool    // starting ranks whose lines Write renders anew
	order   map[int][]Board // boards in a pairing program's order, by round
}

// Players lists the players in the file's order.
func (t *Tournament) Players() []*Player { return t.players }

// Player returns the player of starting rank n.
func (t *Tournament) Player(n int) (*Player, bool) {
	p, ok := t.byStart[n]
	return p, ok
}

// Parse reads a TRF. name is the file's name, for errors.
func Parse(name string, data []byte) (*Tournament, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("%d bytes, more than the %d a tournament file may have", len(data), MaxSize)}
	}
	t := &Tournament{File: name, byStart: map[int]*Player{}, index: map[int]int{}, byes: map[int][]Bye{}, changed: map[int]bool{}, order: map[int][]Board{}}
	t.lines, t.eol = splitLines(data)
	roundsTag := 0
	for i, line := range t.lines {
		n := i + 1
		if !utf8.ValidString(line) {
			col := 1 + utf8.RuneCountInString(line[:firstInvalid(line)])
			return nil, &Error{File: name, Line: n, Column: col, Msg: "not UTF-8 (save the file as UTF-8: Swiss-Manager and Vega can)"}
		}
		if l := utf8.RuneCountInString(line); l > MaxLineLen {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("%d characters, more than the %d a line may have", l, MaxLineLen)}
		}
		if j := strings.IndexFunc(line, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }); j >= 0 {
			return nil, &Error{File: name, Line: n, Column: 1 + utf8.RuneCountInString(line[:j]), Msg: fmt.Sprintf("control character %U", []rune(line[j:])[0])}
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		tag, rest := line, ""
		if len(line) > 3 {
			tag, rest = line[:3], line[3:]
		}
		switch tag {
		case "001":
			p, err := parsePlayer(name, n, line)
			if err != nil {
				return nil, err
			}
			if q, dup := t.byStart[p.Start]; dup {
				return nil, &Error{File: name, Line: n, Column: 5, Msg: fmt.Sprintf("starting rank %d again (first on line %d)", p.Start, q.Line)}
			}
			if len(t.players) == MaxPlayers {
				return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("more than %d players", MaxPlayers)}
			}
			t.players = append(t.players, p)
			t.byStart[p.Start] = p
			t.index[p.Start] = i
		case "012":
			t.Name = strings.TrimSpace(rest)
		case "222":
			t.TimeControl = strings.TrimSpace(rest)
			if _, err := ControlNotation(t.TimeControl); err != nil {
				return nil, &Error{File: name, Line: n, Column: 5, Msg: "time control: " + err.Error()}
			}
		case "142", "XXR":
			r, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || r < 1 || r > MaxRounds {
				return nil, &Error{File: name, Line: n, Column: 5, Msg: fmt.Sprintf("number of rounds %q: want 1 to %d", strings.TrimSpace(rest), MaxRounds)}
			}
			roundsTag = r
		case "240":
			if err := t.parseBye(name, n, line); err != nil {
				return nil, err
			}
		}
	}
	if len(t.players) == 0 {
		return nil, &Error{File: name, Msg: "no player lines (tag 001): is this a tournament report file?"}
	}
	for _, p := range t.players {
		t.Rounds = max(t.Rounds, len(p.Games))
	}
	if roundsTag > 0 {
		if t.Rounds > roundsTag {
			return nil, &Error{File: name, Msg: fmt.Sprintf("a player line holds %d rounds, the file says the tournament has %d", t.Rounds, roundsTag)}
		}
		t.Rounds = roundsTag
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// splitLines splits data at CR LF, LF or CR (TRF-2026 asks for CR; most
// programs write CR LF), and returns the first line end found, for Write.
func splitLines(data []byte) ([]string, string) {
	eol := "\r\n"
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		switch {
		case data[i] == '\n':
			eol = "\n"
		case i+1 < len(data) && data[i+1] == '\n':
			eol = "\r\n"
		default:
			eol = "\r"
		}
	}
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i]))
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return lines, eol
}

func firstInvalid(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// cols is a line's characters, read by 1-based columns.
type cols []rune

func (c cols) at(a, b int) string {
	if a > len(c) {
		return ""
	}
	return strings.TrimSpace(string(c[a-1 : min(b, len(c))]))
}

func (c cols) char(a int) byte {
	if a > len(c) || c[a-1] >= 0x80 {
		return ' '
	}
	return byte(c[a-1])
}

func parsePlayer(file string, n int, line string) (*Player, error) {
	c := cols(line)
	bad := func(col int, format string, args ...any) error {
		return &Error{File: file, Line: n, Column: col, Msg: fmt.Sprintf(format, args...)}
	}
	num := func(a, b int, what string, lo, hi int, need bool) (int, error) {
		s := c.at(a, b)
		if s == "" && !need {
			return 0, nil
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < lo || v > hi {
			return 0, bad(a, "%s %q: want a whole number from %d to %d in columns %d-%d", what, s, lo, hi, a, b)
		}
		return v, nil
	}
	p := &Player{Line: n, Sex: c.at(10, 10), Title: c.at(11, 13), Name: c.at(15, 47), Fed: c.at(54, 56), FideID: c.at(58, 68), Birth: c.at(70, 79)}
	var err error
	if p.Start, err = num(5, 8, "starting rank", 1, MaxPlayers, true); err != nil {
		return nil, err
	}
	if p.Rating, err = num(49, 52, "rating", 0, 9999, false); err != nil {
		return nil, err
	}
	if p.FideID != "" {
		if _, err := num(58, 68, "FIDE id", 0, 99999999999, false); err != nil {
			return nil, err
		}
	}
	if p.Rank, err = num(86, 89, "rank", 0, MaxPlayers, false); err != nil {
		return nil, err
	}
	if s := c.at(81, 84); s != "" {
		pts, ok := parsePoints(s)
		if !ok {
			return nil, bad(81, "points %q: want a score such as 3.5 in columns 81-84", s)
		}
		p.Points = pts
	}
	if p.Name == "" {
		return nil, bad(15, "no name in columns 15-47")
	}
	for col := 92; col <= len(c); col += 10 {
		r := len(p.Games) + 1
		if r > MaxRounds {
			return nil, bad(col, "more than %d rounds", MaxRounds)
		}
		g := Game{Colour: '-', Result: ' '}
		if s := c.at(col, col+3); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v > MaxPlayers {
				return nil, bad(col, "round %d: opponent %q: want a starting rank (0000 for none) in columns %d-%d", r, s, col, col+3)
			}
			g.Opponent = v
		}
		switch ch := lower(c.char(col + 5)); ch {
		case 'w', 'b', '-':
			g.Colour = ch
		case ' ':
		default:
			return nil, bad(col+5, "round %d: colour %q: want w, b or -", r, ch)
		}
		ch := upper(c.char(col + 7))
		if !strings.ContainsRune("10=+-WDLHFUZ ", rune(ch)) {
			return nil, bad(col+7, "round %d: result %q: want one of 1 = 0 + - W D L H F U Z", r, ch)
		}
		g.Result = ch
		if g.Opponent > 0 && g.Colour == '-' && g.Result != '+' && g.Result != '-' && g.Result != ' ' {
			return nil, bad(col+5, "round %d: an opponent and no colour", r)
		}
		if g.Opponent == p.Start {
			return nil, bad(col, "round %d: the player is paired with itself", r)
		}
		p.Games = append(p.Games, g)
	}
	for len(p.Games) > 0 && p.Games[len(p.Games)-1] == (Game{Colour: '-', Result: ' '}) {
		p.Games = p.Games[:len(p.Games)-1]
	}
	return p, nil
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func parsePoints(s string) (Points, bool) {
	whole, half, ok := strings.Cut(s, ".")
	if !ok {
		half = "0"
	}
	w, err := strconv.Atoi(whole)
	if err != nil || w < 0 || w > 999 || (half != "0" && half != "5" && half != "00" && half != "50") {
		return 0, false
	}
	p := Points(2 * w)
	if half[0] == '5' {
		p++
	}
	return p, true
}

// parseBye reads a TRF-2026 bye record: 240 T RRR PPPP PPPP ...
func (t *Tournament) parseBye(file string, n int, line string) error {
	c := cols(line)
	kind := upper(c.char(5))
	if kind != 'F' && kind != 'H' && kind != 'Z' {
		return &Error{File: file, Line: n, Column: 5, Msg: fmt.Sprintf("bye type %q: want F, H or Z", kind)}
	}
	r, err := strconv.Atoi(c.at(7, 9))
	if err != nil || r < 1 || r > MaxRounds {
		return &Error{File: file, Line: n, Column: 7, Msg: fmt.Sprintf("bye round %q: want 1 to %d", c.at(7, 9), MaxRounds)}
	}
	for col := 11; col <= len(c); col += 5 {
		s := c.at(col, col+3)
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > MaxPlayers {
			return &Error{File: file, Line: n, Column: col, Msg: fmt.Sprintf("bye player %q: want a starting rank", s)}
		}
		t.byes[r] = append(t.byes[r], Bye{Player: v, Kind: kind})
	}
	return nil
}

// opposite is the result the opponent's line must show for r.
func opposite(r byte) byte {
	switch r {
	case '1':
		return '0'
	case '0':
		return '1'
	case '+':
		return '-'
	case '-':
		return '+'
	case 'W':
		return 'L'
	case 'L':
		return 'W'
	}
	return r // = D and not played
}

// check holds every pairing to its opponent's line: the opponent exists,
// names the player back, with the other colour and the matching result.
func (t *Tournament) check() error {
	for _, p := range t.players {
		for i, g := range p.Games {
			r := i + 1
			if g.Opponent == 0 {
				continue
			}
			col := 92 + 10*i
			q, ok := t.byStart[g.Opponent]
			if !ok {
				return &Error{File: t.File, Line: p.Line, Column: col, Msg: fmt.Sprintf("round %d: opponent %d has no player line", r, g.Opponent)}
			}
			h := q.Game(r)
			if h.Opponent != p.Start {
				return &Error{File: t.File, Line: p.Line, Column: col, Msg: fmt.Sprintf("round %d: %d plays %d, but line %d pairs %d with %d", r, p.Start, q.Start, q.Line, q.Start, h.Opponent)}
			}
			if g.Colour != '-' && h.Colour != '-' && g.Colour == h.Colour {
				return &Error{File: t.File, Line: p.Line, Column: col + 5, Msg: fmt.Sprintf("round %d: %d and %d both have %c", r, p.Start, q.Start, g.Colour)}
			}
			forfeit := g.Result == '-' && h.Result == '-' // a double forfeit
			if h.Result != opposite(g.Result) && !forfeit {
				return &Error{File: t.File, Line: p.Line, Column: col + 7, Msg: fmt.Sprintf("round %d: %d's result %c does not match %d's %c on line %d", r, p.Start, g.Result, q.Start, h.Result, q.Line)}
			}
		}
	}
	for r, bs := range t.byes {
		for _, b := range bs {
			if _, ok := t.byStart[b.Player]; !ok {
				return &Error{File: t.File, Msg: fmt.Sprintf("round %d: bye for %d, who has no player line", r, b.Player)}
			}
		}
	}
	return nil
}

// Round returns round r's boards, in the pairing program's order where a
// pairing list gave one (SetPairings), else in FIDE's order (see the
// package doc), and its byes and unpaired players.
func (t *Tournament) Round(r int) ([]Board, []Bye) {
	var boards []Board
	var byes []Bye
	for _, p := range t.players {
		g := p.Game(r)
		switch {
		case g.Opponent > 0 && g.Colour == 'w':
			boards = append(boards, Board{White: p.Start, Black: g.Opponent})
		case g.Opponent > 0 && g.Colour == '-' && p.Start < g.Opponent:
			// A forfeit with no colour: listed once, the lower rank first.
			boards = append(boards, Board{White: p.Start, Black: g.Opponent})
		case g.Opponent == 0 && r <= len(p.Games):
			byes = append(byes, Bye{Player: p.Start, Kind: g.Result})
		}
	}
	for _, b := range t.byes[r] {
		if t.byStart[b.Player].Game(r).Opponent == 0 && !hasBye(byes, b.Player) {
			byes = append(byes, b)
		}
	}
	if order, ok := t.order[r]; ok {
		return append([]Board(nil), order...), byes
	}
	key := func(b Board) (hi, sum Points, best int) {
		w, bl := t.byStart[b.White], t.byStart[b.Black]
		sw, sb := w.scoreBefore(r), bl.scoreBefore(r)
		return max(sw, sb), sw + sb, min(b.White, b.Black)
	}
	sort.SliceStable(boards, func(i, j int) bool {
		hi1, s1, b1 := key(boards[i])
		hi2, s2, b2 := key(boards[j])
		if hi1 != hi2 {
			return hi1 > hi2
		}
		if s1 != s2 {
			return s1 > s2
		}
		return b1 < b2
	})
	return boards, byes
}

func hasBye(bs []Bye, p int) bool {
	for _, b := range bs {
		if b.Player == p {
			return true
		}
	}
	return false
}

// Results a board can have, as the hall and the clocks write them, and
// the TRF codes of White's and Black's blocks.
var results = map[string][2]byte{
	"1-0":     {'1', '0'},
	"1/2-1/2": {'=', '='},
	"0-1":     {'0', '1'},
	"+-":      {'+', '-'},
	"-+":      {'-', '+'},
	"--":      {'-', '-'},
	"W-L":     {'W', 'L'},
	"D-D":     {'D', 'D'},
	"L-W":     {'L', 'W'},
	"*":       {' ', ' '},
}

// ShortResult is result (1-0, 1/2-1/2, 0-1) of a game that lasted less
// than one move, as SetResult takes it: TRF-2026 writes such a game W, D,
// L (it is not rated); another result is returned as it is.
func ShortResult(result string) string {
	switch result {
	case "1-0":
		return "W-L"
	case "1/2-1/2":
		return "D-D"
	case "0-1":
		return "L-W"
	}
	return result
}

// SetResult sets the result of round r's game between white and black:
// 1-0, 1/2-1/2, 0-1, the forfeits +-, -+ and --, a game of less than one
// move W-L, D-D, L-W (ShortResult), or * to clear it. Both
// players' points follow: a corrected result takes the old one's points
// back.
func (t *Tournament) SetResult(r, white, black int, result string) error {
	codes, ok := results[result]
	if !ok {
		return fmt.Errorf("trf: result %q: want 1-0, 1/2-1/2, 0-1, +-, -+, --, W-L, D-D, L-W or *", result)
	}
	w, okw := t.byStart[white]
	b, okb := t.byStart[black]
	if !okw || !okb {
		return fmt.Errorf("trf: round %d: no player %d or %d", r, white, black)
	}
	gw, gb := w.Game(r), b.Game(r)
	if gw.Opponent != black || gb.Opponent != white || gw.Colour == 'b' {
		return fmt.Errorf("trf: round %d: %d is not White against %d", r, white, black)
	}
	for _, s := range []struct {
		p    *Player
		code byte
	}{{w, codes[0]}, {b, codes[1]}} {
		g := &s.p.Games[r-1]
		s.p.Points += value(s.code) - value(g.Result)
		g.Result = s.code
		t.changed[s.p.Start] = true
	}
	return nil
}

// Absences are the byes the arbiter gives a player not paired in a round
// (TRF-2026: the player asked not to be paired, or is absent): H a
// half-point bye, Z a zero-point bye, F a full-point bye. The pairing-
// allocated bye (U) is the pairing program's to give, not the arbiter's.
const Absences = "HZF"

// SetBye gives player the bye kind (one of Absences) in round r, or
// with ' ' takes back the bye the round's block has: the block names no
// opponent, colour '-', and the bye as its result, the player's points
// following. A pairing program (bbpPairings, JaVaFo) leaves a player whose
// block for the round it pairs holds a bye unpaired. A player already
// paired in round r is refused: the bye is given before the pairing.
func (t *Tournament) SetBye(r, player int, kind byte) error {
	if r < 1 || r > MaxRounds {
		return fmt.Errorf("round %d: want 1 to %d", r, MaxRounds)
	}
	if kind != ' ' && !strings.ContainsRune(Absences, rune(kind)) {
		return fmt.Errorf("bye %q: want H (half-point), Z (zero-point) or F (full-point)", kind)
	}
	p, ok := t.byStart[player]
	if !ok {
		return fmt.Errorf("no player %d", player)
	}
	g := p.Game(r)
	if g.Opponent != 0 {
		return fmt.Errorf("player %d is paired in round %d (against %d): a bye is given before the pairing", player, r, g.Opponent)
	}
	if g.Result == 'U' {
		return fmt.Errorf("player %d has the pairing-allocated bye of round %d", player, r)
	}
	for len(p.Games) < r {
		p.Games = append(p.Games, Game{Colour: '-', Result: ' '})
	}
	p.Points += value(kind) - value(g.Result)
	p.Games[r-1] = Game{Colour: '-', Result: kind}
	for len(p.Games) > 0 && p.Games[len(p.Games)-1] == (Game{Colour: '-', Result: ' '}) {
		// Taken back at the line's end: no block, which a pairing
		// program would read as an absence with no points.
		p.Games = p.Games[:len(p.Games)-1]
	}
	t.changed[p.Start] = true
	t.Rounds = max(t.Rounds, r)
	return nil
}

// SetPairings makes boards round r's pairings, in that order: each
// player's block for the round names the opponent and the colour, with no
// result yet; Black 0 (as JaVaFo and bbpPairings print a bye) is White's
// pairing-allocated bye, written "0000 - U" with a win's points. U is
// TRF-2026's code for it and the one bbpPairings reads as such: the
// player took part in the pairing, scores a win (FIDE C.04.1: one point)
// and is not given the bye again (C.04.3, criterion C2). F would give the
// same point but reads as a player who was not paired (an absence), who
// could then get the pairing-allocated bye a second time. Players of the
// round not on a board keep what their line says.
func (t *Tournament) SetPairings(r int, boards []Board) error {
	if r < 1 || r > MaxRounds {
		return fmt.Errorf("trf: round %d: want 1 to %d", r, MaxRounds)
	}
	seen := map[int]bool{}
	for i, b := range boards {
		for _, n := range []int{b.White, b.Black} {
			if n == 0 {
				continue
			}
			if _, ok := t.byStart[n]; !ok {
				return fmt.Errorf("trf: board %d: no player %d", i+1, n)
			}
			if seen[n] {
				return fmt.Errorf("trf: board %d: player %d is on another board too", i+1, n)
			}
			seen[n] = true
		}
		if b.White == 0 {
			return fmt.Errorf("trf: board %d: no White", i+1)
		}
	}
	set := func(p *Player, g Game) {
		for len(p.Games) < r {
			p.Games = append(p.Games, Game{Colour: '-', Result: ' '})
		}
		p.Points += value(g.Result) - value(p.Games[r-1].Result)
		p.Games[r-1] = g
		t.changed[p.Start] = true
	}
	var order []Board
	for _, b := range boards {
		if b.Black == 0 {
			set(t.byStart[b.White], Game{Colour: '-', Result: 'U'})
			continue
		}
		set(t.byStart[b.White], Game{Opponent: b.Black, Colour: 'w', Result: ' '})
		set(t.byStart[b.Black], Game{Opponent: b.White, Colour: 'b', Result: ' '})
		order = append(order, b)
	}
	t.order[r] = order
	t.Rounds = max(t.Rounds, r)
	return nil
}

// ParsePairingList reads the pairing list JaVaFo and bbpPairings print
// with -p: the number of pairs, then a pair a line, "WHITE BLACK" starting
// ranks, board 1 first; BLACK 0 is a bye.
func ParsePairingList(name string, data []byte) ([]Board, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("%d bytes, more than %d", len(data), MaxSize)}
	}
	lines, _ := splitLines(data)
	var boards []Board
	want, seen := -1, map[int]int{}
	for i, line := range lines {
		n := i + 1
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if want < 0 {
			v, err := strconv.Atoi(f[0])
			if len(f) != 1 || err != nil || v < 0 || v > MaxPlayers {
				return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("want the number of pairs alone on the first line, got %.40q", line)}
			}
			want = v
			continue
		}
		if len(boards) == want {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("the list says %d pairs, and this is one more", want)}
		}
		var b [2]int
		if len(f) != 2 {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("want two starting ranks, WHITE BLACK, got %.40q", line)}
		}
		for k := range b {
			v, err := strconv.Atoi(f[k])
			if err != nil || v < 0 || v > MaxPlayers || (k == 0 && v == 0) {
				return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("%.12q is not a starting rank", f[k])}
			}
			if v != 0 {
				if at, dup := seen[v]; dup {
					return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("player %d is paired on line %d too", v, at)}
				}
				seen[v] = n
			}
			b[k] = v
		}
		boards = append(boards, Board{White: b[0], Black: b[1]})
	}
	if want < 0 {
		return nil, &Error{File: name, Msg: "empty: want the number of pairs, then a pair a line"}
	}
	if len(boards) != want {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the list says %d pairs, it has %d", want, len(boards))}
	}
	return boards, nil
}

// ControlNotation turns TRF-2026's encoded time control (tag 222) into
// zeitnot's notation: "5400+30" and "40/6000+30:900+30" are written the
// same in both, and Armageddon's "W300-B240" is "300|240".
func ControlNotation(s string) (string, error) {
	spec := s
	if w, b, ok := strings.Cut(s, "-"); ok && strings.HasPrefix(w, "W") && strings.HasPrefix(b, "B") {
		spec = w[1:] + "|" + b[1:]
	}
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		return "", fmt.Errorf("%q is not a time control zeitnot can play", s)
	}
	return timecontrol.FormatPair(pair), nil
}

// Write writes the tournament: every line as it came, but the player
// lines of players whose results or pairings changed, with the file's
// own line ends.
func (t *Tournament) Write(w io.Writer) error {
	var b strings.Builder
	owner := make(map[int]int, len(t.changed))
	for start := range t.changed {
		owner[t.index[start]] = start
	}
	for i, line := range t.lines {
		if start, ok := owner[i]; ok {
			line = render(line, t.byStart[start])
		}
		b.WriteString(line)
		b.WriteString(t.eol)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// render rewrites a player line's points and round blocks, keeping
// every other column as it came.
func render(line string, p *Player) string {
	c := []rune(line)
	end := 91 + 10*len(p.Games)
	for len(c) < max(end, 89) {
		c = append(c, ' ')
	}
	put := func(col int, s string) { copy(c[col-1:], []rune(s)) }
	put(81, fmt.Sprintf("%4s", p.Points.String()))
	for i, g := range p.Games {
		col := 92 + 10*i
		opp := "0000"
		if g.Opponent > 0 {
			opp = fmt.Sprintf("%4d", g.Opponent)
		}
		put(col-2, "  "+opp+" "+string(g.Colour)+" "+string(g.Result))
	}
	if len(c) > end {
		c = c[:end]
	}
	return strings.TrimRight(string(c), " ")
}
