// Package web serves the hall's pages and API: the hall at a glance (/),
// one board large (/board/N), the arbiter's pages (/arbiter, after a
// login), the live stream the pages follow (/events, Server-Sent Events)
// and the JSON, log and PGN API under /api/.
//
// The pages are Go templates with a little plain JavaScript, embedded in
// the binary; no build step, nothing from elsewhere. The script runs the
// clocks on between messages with the rule of link.ClockState.Shown
// (static/shown.js, tested against it on shared cases).
package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/pgn"
	"github.com/zeitnot/zeitnot/hall/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Opts configure the web server.
type Opts struct {
	Store *store.Store
	Hall  string // the topic namespace, also the PGN's Event
	Title string // what the pages call the hall; default Hall
	// Publish sends a command to the clocks (QoS 1, not retained).
	Publish func(topic string, payload []byte) error
	Auth    *auth.Auth
	Logf    func(format string, a ...any)
	Now     func() time.Time
	// ClientBuffer is how many board changes one live stream may lag
	// behind before it is closed (the page reconnects and starts from a
	// snapshot); default 1024.
	ClientBuffer int
	// MaxStreams and MaxStreamsPerAddr cap the live streams open, in all
	// and from one address (limit.Key); past them /events answers 503
	// (defaults 1,000 and 8; the arbiter's session is never refused).
	// Loopback clients are exempt from the per-address cap unless
	// StreamsLoopbackLimited.
	MaxStreams, MaxStreamsPerAddr int
	StreamsLoopbackLimited        bool
	// WriteTimeout is how long one write to a live stream may take before
	// it is closed (default 15 s): a page that does not read is dropped.
	WriteTimeout time.Duration
}

// Server is the hall's HTTP handler.
type Server struct {
	o    Opts
	mux  *http.ServeMux
	tmpl map[string]*template.Template
	hub  *hub

	mu      sync.Mutex
	cmdSeq  int
	flashes map[string]string // session user -> last message
}

// New returns the server; Close stops its live streams.
func New(o Opts) (*Server, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Title == "" {
		o.Title = o.Hall
	}
	if o.ClientBuffer == 0 {
		o.ClientBuffer = 1024
	}
	if o.MaxStreams == 0 {
		o.MaxStreams = 1000
	}
	if o.MaxStreamsPerAddr == 0 {
		o.MaxStreamsPerAddr = 8
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = 15 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	s := &Server{o: o, mux: http.NewServeMux(), tmpl: map[string]*template.Template{}, flashes: map[string]string{}}
	funcs := template.FuncMap{"json": func(v any) template.JS {
		b, _ := json.Marshal(v)
		return template.JS(b)
	}}
	for _, page := range []string{"index", "board", "arbiter", "login", "boardlog"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+page+".html")
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		s.tmpl[page] = t
	}
	s.hub = newHub(s)
	st, _ := fs.Sub(staticFS, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", cacheShort(http.FileServerFS(st))))
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /board/{n}", s.boardPage)
	s.mux.HandleFunc("GET /events", s.events)
	s.mux.HandleFunc("GET /api/boards", s.apiBoards)
	s.mux.HandleFunc("GET /api/boards/{n}", s.apiBoard)
	s.mux.HandleFunc("GET /api/boards/{n}/log", s.apiLog)
	s.mux.HandleFunc("GET /api/boards/{n}/pgn", s.apiPGN)
	s.mux.HandleFunc("GET /api/games.pgn", s.apiGames)
	s.mux.HandleFunc("GET /login", s.loginPage)
	s.mux.HandleFunc("POST /login", s.login)
	s.mux.HandleFunc("POST /logout", s.logout)
	s.mux.HandleFunc("GET /arbiter", s.arbiter)
	s.mux.HandleFunc("POST /arbiter", s.arbiterPost)
	s.mux.HandleFunc("GET /arbiter/board/{n}", s.boardLog)
	return s, nil
}

func cacheShort(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=60")
		h.ServeHTTP(w, r)
	})
}

// Close ends the live streams.
func (s *Server) Close() { s.hub.close() }

// Clients is the number of live streams open.
func (s *Server) Clients() int { return s.hub.count() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
	s.mux.ServeHTTP(w, r)
}

// View is one board as the pages and the live stream show it.
type View struct {
	Board  int    `json:"board"`
	Online bool   `json:"online"`
	Clock  bool   `json:"clock"`            // the link reaches the clock
	Reason string `json:"reason,omitempty"` // why offline, as the link said
	Log    string `json:"log,omitempty"`    // the link's log status when not ok
	Game   string `json:"game,omitempty"`
	// State is the clock's status JSON as it published it.
	State json.RawMessage `json:"state,omitempty"`
	// Time is when the state held (Unix ms, the board's clock).
	Time int64 `json:"time,omitempty"`
	// Age is how long ago the state held when this view was made, in ms:
	// the page runs the clock on from there.
	Age   int64           `json:"age"`
	White string          `json:"white,omitempty"`
	Black string          `json:"black,omitempty"`
	Reply json.RawMessage `json:"reply,omitempty"`
}

// viewOf builds the view of b at now.
func viewOf(b store.Board, now time.Time) View {
	v := View{Board: b.Board}
	if b.Online != nil {
		var o link.OnlineMsg
		if json.Unmarshal(b.Online, &o) == nil {
			v.Online, v.Clock, v.Reason = o.Online, o.Clock, o.Reason
			if o.Log != "" && o.Log != "ok" {
				v.Log = o.Log
			}
		}
	}
	if b.State != nil {
		var m link.StateMsg
		if json.Unmarshal(b.State, &m) == nil {
			v.Game, v.State, v.Time = m.Game, m.State, m.Time
			// The board's clock and the hall's agree (NTP) when the
			// state arrived about when it held: run on from Time.
			// Otherwise from when it arrived.
			if d := b.StateAt - m.Time; d > -2000 && d < 2000 {
				v.Age = now.UnixMilli() - m.Time
			} else {
				v.Age = now.UnixMilli() - b.StateAt
			}
			v.Age = max(v.Age, 0)
		}
	}
	p := b.Players[v.Game]
	if p == (store.Players{}) && b.NextPlayers != nil && !started(v.State) {
		p = *b.NextPlayers
	}
	v.White, v.Black = p.White, p.Black
	v.Reply = b.Reply
	return v
}

func started(state json.RawMessage) bool {
	var s struct {
		Started bool `json:"started"`
	}
	json.Unmarshal(state, &s)
	return s.Started
}

func (s *Server) views() []View {
	now := s.o.Now()
	bs := s.o.Store.Boards()
	out := make([]View, 0, len(bs))
	for _, b := range bs {
		out = append(out, viewOf(b, now))
	}
	return out
}

func boardNumber(w http.ResponseWriter, r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > link.MaxBoard {
		http.Error(w, fmt.Sprintf("no board %q: want a number from 1 to %d", r.PathValue("n"), link.MaxBoard), http.StatusNotFound)
		return 0, false
	}
	return n, true
}

type page struct {
	Title   string
	Hall    string
	Session *auth.Session
	Views   []View
	Board   int
	Flash   string
	Error   string
	Data    any
}

func (s *Server) render(w http.ResponseWriter, name string, p page) {
	p.Hall = s.o.Title
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl[name].Execute(w, p); err != nil {
		s.o.Logf("web: page %s: %v", name, err)
	}
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	s.render(w, "index", page{Title: s.o.Title, Views: s.views(), Session: s.o.Auth.Session(r)})
}

func (s *Server) boardPage(w http.ResponseWriter, r *http.Request) {
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	b, _ := s.o.Store.Board(n)
	b.Board = n
	s.render(w, "board", page{Title: fmt.Sprintf("Board %d", n), Board: n, Views: []View{viewOf(b, s.o.Now())}})
}

// API

// apiEntry is one board of GET /api/boards: its number, whether it is
// online, and the state and online messages as the clock published them.
type apiEntry struct {
	Board     int             `json:"board"`
	Online    bool            `json:"online"`
	OnlineMsg json.RawMessage `json:"online_msg,omitempty"`
	State     json.RawMessage `json:"state"`
	Received  int64           `json:"received,omitempty"` // when the hall got the state, Unix ms
	White     string          `json:"white,omitempty"`
	Black     string          `json:"black,omitempty"`
	Games     []string        `json:"games,omitempty"`
}

func entryOf(b store.Board) apiEntry {
	e := apiEntry{Board: b.Board, Online: b.IsOnline(), OnlineMsg: b.Online, State: b.State, Received: b.StateAt, Games: b.Games}
	if e.State == nil {
		e.State = json.RawMessage("null")
	}
	p := b.Players[b.Game]
	e.White, e.Black = p.White, p.Black
	return e
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

func (s *Server) apiBoards(w http.ResponseWriter, r *http.Request) {
	bs := s.o.Store.Boards()
	out := make([]apiEntry, 0, len(bs))
	for _, b := range bs {
		out = append(out, entryOf(b))
	}
	writeJSON(w, out)
}

func (s *Server) apiBoard(w http.ResponseWriter, r *http.Request) {
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	b, ok := s.o.Store.Board(n)
	if !ok {
		http.Error(w, fmt.Sprintf("board %d: the hall has heard nothing of it", n), http.StatusNotFound)
		return
	}
	writeJSON(w, entryOf(b))
}

// gameOf is the game ?game= names, or the board's current one.
func (s *Server) gameOf(w http.ResponseWriter, r *http.Request, n int) (store.Board, string, bool) {
	b, ok := s.o.Store.Board(n)
	if !ok {
		http.Error(w, fmt.Sprintf("board %d: the hall has heard nothing of it", n), http.StatusNotFound)
		return b, "", false
	}
	g := r.URL.Query().Get("game")
	if g == "" {
		g = b.Game
		if g == "" && len(b.Games) > 0 {
			g = b.Games[len(b.Games)-1]
		}
	}
	if g == "" {
		http.Error(w, fmt.Sprintf("board %d: no game yet (the clock names its game when its daemon serves the log)", n), http.StatusNotFound)
		return b, "", false
	}
	if !store.ValidGame(g) {
		http.Error(w, fmt.Sprintf("game %q is not a game id", g), http.StatusBadRequest)
		return b, "", false
	}
	return b, g, true
}

func (s *Server) apiLog(w http.ResponseWriter, r *http.Request) {
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	_, g, ok := s.gameOf(w, r, n)
	if !ok {
		return
	}
	lines, waiting := s.o.Store.Lines(n, g)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Zeitnot-Game", g)
	w.Header().Set("X-Zeitnot-Lines", strconv.Itoa(len(lines)))
	// Lines received after a gap are held back until the gap is filled.
	w.Header().Set("X-Zeitnot-Waiting", strconv.Itoa(waiting))
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	w.Write([]byte(b.String()))
}

func (s *Server) pgnGame(b store.Board, g string) (pgn.Game, bool) {
	lines, _ := s.o.Store.Lines(b.Board, g)
	if len(lines) == 0 {
		return pgn.Game{}, false
	}
	p := b.Players[g]
	// The game's date is the day its clock started; a game the hall never
	// saw started (its states lost, or never played) is dated today.
	date := s.o.Now()
	if ms := b.Started[g]; ms > 0 {
		date = time.UnixMilli(ms).In(date.Location())
	}
	return pgn.Game{Event: s.o.Title, Date: date, Board: b.Board, ID: g, White: p.White, Black: p.Black, Lines: lines}, true
}

func (s *Server) apiPGN(w http.ResponseWriter, r *http.Request) {
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	b, g, ok := s.gameOf(w, r, n)
	if !ok {
		return
	}
	pg, ok := s.pgnGame(b, g)
	if !ok {
		http.Error(w, fmt.Sprintf("board %d game %s: no log lines yet", n, g), http.StatusNotFound)
		return
	}
	var out strings.Builder
	if err := pgn.Write(&out, pg); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(out.String()))
}

// finished reports whether game g of b is over: the board has gone on to
// another game, or its clock stopped or shows a flag.
func finished(b store.Board, g string) bool {
	if g != b.Game {
		return true
	}
	var m link.StateMsg
	if json.Unmarshal(b.State, &m) != nil {
		return false
	}
	cs, err := link.ParseState(m.State)
	if err != nil {
		return false
	}
	return cs.Stopped || cs.White.Flag || cs.Black.Flag
}

// apiGames is the evening's finished games as one PGN file: every game
// the hall holds lines of that is over (?all=1: every game).
func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	all := r.URL.Query().Get("all") == "1"
	var out strings.Builder
	for _, b := range s.o.Store.Boards() {
		for _, g := range b.Games {
			if !all && !finished(b, g) {
				continue
			}
			pg, ok := s.pgnGame(b, g)
			if !ok {
				continue
			}
			if err := pgn.Write(&out, pg); err != nil {
				fmt.Fprintf(&out, "; board %d game %s: %v\n\n", b.Board, g, err)
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", s.o.Hall+"-"+s.o.Now().Format("2006-01-02")+".pgn"))
	w.Write([]byte(out.String()))
}
