// Package web serves the hall's pages and API: the hall at a glance (/),
// one board large (/board/N), the arbiter's pages (/arbiter, after a
// login), the live stream the pages follow (/events, Server-Sent Events)
// and the JSON, log and PGN API under /api/.
//
// The pages are Go templates with a little plain JavaScript, embedded in
// the binary; no build step, nothing from elsewhere. The script runs the
// clocks on between messages with the rule of protocol.Status.Shown
// (static/shown.js, tested against it on shared cases).
package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Opts configure the web server.
type Opts struct {
	Store *store.Store
	Hall  string // the topic namespace
	Title string // what the pages call the hall; default Hall; the PGN's Event
	// Site and Round are the PGN's tags of the same names ("" for "?").
	Site, Round string
	// BroadcastDelay is how far behind the games /round.pgn, the round's
	// feed for broadcasts, runs (hall.toml broadcast_delay; feed.go).
	BroadcastDelay time.Duration
	// Zone is the hall's time zone: the round's start is read in it, and
	// every time of day the pages, the PGN and the messages show is in it
	// (nil: time.Local).
	Zone *time.Location
	// Publish sends a command to the clocks (QoS 1, not retained).
	Publish func(topic string, payload []byte) error
	Auth    *auth.Auth
	Logf    func(format string, a ...any)
	// Clock is the time of day of the pages, the PGN and the API (nil:
	// wallclock.Real).
	Clock wallclock.Clock
	// ClientBuffer is how many board changes one live stream may lag
	// behind before it is closed (the page reconnects and starts from a
	// snapshot); default 1024.
	ClientBuffer int
	// Tournament keeps the imported tournament (the round page, the
	// tournament API); nil: none.
	Tournament *store.Tournaments
	// APIToken is the scripts' token (hall.toml api_token_file): the
	// tournament API with Authorization: Bearer APIToken. "": none.
	APIToken string
	// MaxStreams and MaxStreamsPerAddr cap the live streams open, in all
	// and from one address (limit.Key); past them /events answers 503
	// (defaults 1,000 and 8; the arbiter's session is never refused).
	// Loopback clients are exempt from the per-address cap unless
	// StreamsLoopbackLimited.
	MaxStreams, MaxStreamsPerAddr int
	StreamsLoopbackLimited        bool
	// MaxRequestsPerAddr bounds the requests of the pages and the API
	// (all but the live streams) one address has under way at once;
	// past it the request is answered 429 Too Many Requests with
	// Retry-After (default 16; -1: no bound). Loopback clients are exempt
	// unless RequestsLoopbackLimited.
	MaxRequestsPerAddr      int
	RequestsLoopbackLimited bool
	// WriteTimeout is how long one write to a live stream may take before
	// it is closed (default 15 s): a page that does not read is dropped.
	WriteTimeout time.Duration
	// TLS, if set, is what the arbiter's page shows of the broker's TLS
	// listener: where the clocks connect and the fingerprint they pin.
	TLS *TLSInfo
	// Broadcast, if set, is the push of the round to lichess's
	// broadcasts as the arbiter's page shows it (nil: the hall pushes
	// nothing).
	Broadcast func() *broadcast.Status
	// UpdateDir keeps the bundle the arbiter uploaded for the clocks (the
	// data directory's update/); "": the hall takes none.
	UpdateDir string
	// UpdateBase is the hall's HTTP address as the clocks reach it,
	// http://HOST:PORT, HOST the one they connect to the broker at (the
	// link fetches from no other); "": the address the arbiter's page
	// was opened at.
	UpdateBase string
	// UpdateBatch is how many clocks update at once (hall.toml
	// update_batch; default DefaultUpdateBatch).
	UpdateBatch int
}

// TLSInfo is the broker's TLS listener as the arbiter's page shows it.
type TLSInfo struct {
	URL         string // mqtts://host:port
	Fingerprint string // sha256:AB:CD:... (protocol.Fingerprint)
}

// Server is the hall's HTTP handler.
type Server struct {
	o    Opts
	mux  *http.ServeMux
	tmpl map[string]*template.Template
	hub  *hub
	// requests bounds each address's requests under way (Opts).
	requests *limit.Requests
	// pgns keeps the PGN written of each game (gamelog.go).
	pgns pgnCache
	// feeds are the round's feeds as last written, by what they are made
	// of (feed.go); feedMu writes one at a time.
	feedMu sync.Mutex
	feeds  map[string]feed
	// refusedAPI logs the API's refused requests, at most
	// refusedAPIBurst a minute: anyone can send wrong tokens.
	refusedAPI *limit.LogLines

	// resent is, by board, the round and clock game the hall last sent
	// a waiting board's pairing again for (resendWaiting): once a game.
	resentMu sync.Mutex
	resent   map[int]string

	mu      sync.Mutex
	cmdSeq  int
	flashes map[string]string // session user -> last message
	// confirms are the controls waiting for the arbiter's confirmation,
	// by session user (readControl, Reading.Confirm).
	confirms map[string]*pendingControl
	// resultConfirms are the results entered on the round page for a
	// game that still runs, waiting for the arbiter's confirmation, by
	// session user.
	resultConfirms map[string]resultConfirm

	// upd is the bundle for the clocks and its rollout (update.go);
	// updateURL, under upd.mu, the URL the rollout sends.
	upd       updater
	updateURL string
	stop      chan struct{}
	closeOnce sync.Once
}

// New returns the server; Close stops its live streams.
func New(o Opts) (*Server, error) {
	o.Clock = wallclock.Or(o.Clock)
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
	if o.MaxRequestsPerAddr == 0 {
		o.MaxRequestsPerAddr = 16
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	s := &Server{o: o, mux: http.NewServeMux(), tmpl: map[string]*template.Template{}, flashes: map[string]string{}, feeds: map[string]feed{}, requests: limit.NewRequests(o.MaxRequestsPerAddr), confirms: map[string]*pendingControl{}}
	s.refusedAPI = limit.NewLogLines(refusedAPIBurst, time.Minute, o.Clock, o.Logf)
	funcs := template.FuncMap{"json": func(v any) template.JS {
		b, _ := json.Marshal(v)
		return template.JS(b)
	}, "hasPrefix": strings.HasPrefix, "add": func(a, b int) int { return a + b }, "inc": func(n int) int { return n + 1 }}
	for _, page := range []string{"index", "board", "arbiter", "login", "boardlog", "round"} {
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
	s.mux.HandleFunc("GET /position.svg", s.positionSVG)
	s.mux.HandleFunc("GET /round.pgn", s.roundFeed)
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
	s.mux.HandleFunc("GET /arbiter/control", s.controlAPI)
	s.routesTournament()
	s.mux.HandleFunc("GET /update/{file}", s.serveBundle)
	s.mux.HandleFunc("POST /arbiter/update", s.uploadForm)
	s.mux.HandleFunc("PUT /api/update", s.apiUpdatePut)
	s.mux.HandleFunc("POST /api/update", s.apiUpdatePost)
	s.mux.HandleFunc("GET /api/update", s.apiUpdateGet)
	s.loadBundle()
	s.stop = make(chan struct{})
	go s.rolloutLoop()
	return s, nil
}

func cacheShort(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=60")
		h.ServeHTTP(w, r)
	})
}

// Close ends the live streams.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.stop) })
	s.hub.close()
}

// Clients is the number of live streams open.
func (s *Server) Clients() int { return s.hub.count() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
	if r.URL.Path != "/events" && (s.o.RequestsLoopbackLimited || !isLoopback(r.RemoteAddr)) {
		// The live streams have caps of their own (sse.go).
		if !s.requests.Take(r.RemoteAddr) {
			h.Set("Retry-After", "1")
			http.Error(w, fmt.Sprintf("too many requests under way from your address (at most %d at once): try again in a second", s.o.MaxRequestsPerAddr), http.StatusTooManyRequests)
			return
		}
		defer s.requests.Done(r.RemoteAddr)
	}
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
	Age   int64  `json:"age"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	// Control is the game's control as people read it, 90'+30"
	// (timecontrol.HumanPair): the control as played when an arbiter's
	// increment changed it, else the game's; the clock's notation when
	// the hall cannot read it.
	Control string          `json:"control,omitempty"`
	Reply   *protocol.Reply `json:"reply,omitempty"`
	// ReplyAt is when the hall received Reply, Unix ms: the page shows
	// each reply with its command and time.
	ReplyAt int64 `json:"reply_at,omitempty"`
	// Spare is the clock (the board number it is kept under) that carries
	// this board's game after a takeover (FIDE 6.10); 0: the board's own
	// clock. The board's own clock is retired from the pages meanwhile.
	Spare int `json:"spare,omitempty"`
	// Moved, in a frame of the live stream, says that this board's clock
	// now carries board Moved's game: the page drops this board's card.
	Moved int `json:"moved,omitempty"`
	// Position is the game's board when it is played on an electronic
	// board (position.go); nil otherwise.
	Position *Position `json:"position,omitempty"`
	// Conflicts counts the lines of the game's log set aside as evidence
	// (store.Conflicts): another line for a seq the hall had, or a line
	// published ahead that did not fit. The arbiter's card shows it.
	Conflicts int `json:"conflicts,omitempty"`
	// Key is the board's signing key (keys.go); nil while the hall knows
	// none: the arbiter's card says the board's lines are not verified.
	Key *KeyView `json:"key,omitempty"`
	// The instants the page shows, as the hall's people read them: in
	// the hall's zone (Opts.Zone, named on every page), never the
	// browser's. TimeShown is Time (15:04:05), ReplyShown ReplyAt
	// (15:04:05) and ReplyDate ReplyAt with its date and zone, StartShown
	// the round's scheduled start (15:04).
	TimeShown  string `json:"time_shown,omitempty"`
	ReplyShown string `json:"reply_shown,omitempty"`
	ReplyDate  string `json:"reply_date,omitempty"`
	StartShown string `json:"start_shown,omitempty"`
}

// shownTimes fills in v's instants as the page shows them, in the
// hall's zone.
func (s *Server) shownTimes(v *View, b store.Board) {
	at := func(ms int64) time.Time { return time.UnixMilli(ms).In(s.zone()) }
	if v.Time != 0 {
		v.TimeShown = at(v.Time).Format("15:04:05")
	}
	if v.ReplyAt != 0 {
		t := at(v.ReplyAt)
		v.ReplyShown = t.Format("15:04:05")
		v.ReplyDate = t.Format("2006-01-02 15:04:05") + ", " + zoneName(t)
	}
	if b.State != nil && b.State.State.Round != nil && b.State.State.Round.StartMs > 0 {
		v.StartShown = at(b.State.State.Round.StartMs).Format("15:04")
	}
}

// carried is spare b's view under the board t it carries the game of:
// the board's players when the spare names none, and the moves made on
// the board's own clock before the takeover followed by the spare's.
func (s *Server) carried(b store.Board, t store.Takeover, now time.Time) View {
	v := s.viewAt(b, now)
	v.Board, v.Spare = t.Board, b.Board
	src, _ := s.o.Store.Board(t.Board)
	if v.White == "" && v.Black == "" {
		p := playersOf(src, t.Game)
		v.White, v.Black = p.White, p.Black
	}
	v.Position = joinPositions(s.positionOf(src, t.Game), v.Position)
	return v
}

// framesOf are the views a change of board b sends (takeover.go in the
// store): a spare that carries another board's game shows under that
// board, and its own card goes; a board whose game a spare carries shows
// the spare's; a spare that has gone on to a game of its own gives the
// board it carried for back to that board's clock.
func (s *Server) framesOf(b store.Board, now time.Time) []View {
	if t, ok := b.Carrying(); ok {
		return []View{s.carried(b, t, now), {Board: b.Board, Moved: t.Board}}
	}
	if sp, t, ok := s.o.Store.Replaced(b.Board); ok {
		return []View{s.carried(sp, t, now)}
	}
	out := []View{s.viewAt(b, now)}
	if n := len(b.Takeovers); n > 0 {
		if src, ok := s.o.Store.Board(b.Takeovers[n-1].Board); ok && src.ReplacedBy == b.Board {
			out = append(out, s.viewAt(src, now))
		}
	}
	return out
}

// viewOf builds the view of b at now.
func viewOf(b store.Board, now time.Time) View {
	v := View{Board: b.Board}
	if o := b.Online; o != nil {
		v.Online, v.Clock, v.Reason = o.Online, o.Clock, o.Reason
		if o.Log != "" && o.Log != "ok" {
			v.Log = o.Log
		}
	}
	started := false
	if m := b.State; m != nil {
		v.Game, v.State, v.Time = m.Game, m.Raw, m.Time
		started = m.State.Started
		// The board's clock and the hall's agree (NTP) when the state
		// arrived about when it held: run on from Time. Otherwise from
		// when it arrived.
		if d := b.StateAt - m.Time; d > -2000 && d < 2000 {
			v.Age = now.UnixMilli() - m.Time
		} else {
			v.Age = now.UnixMilli() - b.StateAt
		}
		v.Age = max(v.Age, 0)
		v.Control = humanControl(m.State.Played, m.State.Control)
	}
	// The names of the game as the PGN has them (playersOf): the hall's,
	// else those its clock shows, set during the game too: the card
	// shows them from then on, not from the next game.
	p := playersOf(b, v.Game)
	if p == (store.Players{}) && b.NextPlayers != nil && !started {
		p = *b.NextPlayers
	}
	v.White, v.Black = p.White, p.Black
	v.Reply, v.ReplyAt = b.Reply, b.ReplyAt
	v.Key = keyView(b)
	return v
}

// humanControl is the first of the controls (notation) that is set, as
// people read it; the notation itself when it does not parse.
func humanControl(notations ...string) string {
	for _, n := range notations {
		if n == "" {
			continue
		}
		if p, err := timecontrol.ParsePair(n); err == nil {
			return timecontrol.HumanPair(p)
		}
		return n
	}
	return ""
}

// views are every board's view, by board number, as the pages show them:
// a spare that carries another board's game under that board's number,
// in place of the board's own clock (framesOf).
func (s *Server) views() []View {
	now := s.o.Clock.Now()
	bs := s.o.Store.Boards()
	carriedFor := map[int]bool{}
	for _, b := range bs {
		if t, ok := b.Carrying(); ok {
			carriedFor[t.Board] = true
		}
	}
	out := make([]View, 0, len(bs))
	for _, b := range bs {
		if t, ok := b.Carrying(); ok {
			out = append(out, s.carried(b, t, now))
		} else if !carriedFor[b.Board] {
			out = append(out, s.viewAt(b, now))
		}
	}
	slices.SortStableFunc(out, func(a, b View) int { return a.Board - b.Board })
	return out
}

func boardNumber(w http.ResponseWriter, r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > protocol.MaxBoard {
		http.Error(w, fmt.Sprintf("no board %q: want a number from 1 to %d", r.PathValue("n"), protocol.MaxBoard), http.StatusNotFound)
		return 0, false
	}
	return n, true
}

type page struct {
	Title   string
	Hall    string
	Zone    string // the hall's zone, as zoneName names it: every time on the page is in it
	Session *auth.Session
	Views   []View
	Board   int
	Flash   string
	Error   string
	Data    any
}

func (s *Server) render(w http.ResponseWriter, name string, p page) {
	p.Hall = s.o.Title
	p.Zone = zoneName(s.o.Clock.Now().In(s.zone()))
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
	if t, ok := b.Carrying(); ok {
		// Clock n is a spare that plays board t.Board's game (a
		// takeover): its game is shown there, and a screen set to clock n
		// follows it (relative: /board/n to /board/t.Board).
		http.Redirect(w, r, strconv.Itoa(t.Board), http.StatusSeeOther)
		return
	}
	v := s.viewAt(b, s.o.Clock.Now())
	if f := s.framesOf(b, s.o.Clock.Now()); f[0].Board == n {
		v = f[0] // the spare's, when a spare carries board n's game
	}
	s.render(w, "board", page{Title: fmt.Sprintf("Board %d", n), Board: n, Views: []View{v}})
}

// API

// apiEntry is one board of GET /api/boards: its number, whether it is
// online, and the state and online messages as the clock published them.
type apiEntry struct {
	Board     int                 `json:"board"`
	Online    bool                `json:"online"`
	OnlineMsg *protocol.OnlineMsg `json:"online_msg,omitempty"`
	State     *protocol.StateMsg  `json:"state"`
	Received  int64               `json:"received,omitempty"` // when the hall got the state, Unix ms
	White     string              `json:"white,omitempty"`
	Black     string              `json:"black,omitempty"`
	Games     []string            `json:"games,omitempty"`
	// Carries: this clock is a spare that carries board Carries's game
	// (FIDE 6.10); the pages show it as that board. CarriedBy: this
	// board's game is on spare clock CarriedBy, and its own clock is
	// retired.
	Carries   int `json:"carries,omitempty"`
	CarriedBy int `json:"carried_by,omitempty"`
	// Rollout is where the update of the clocks is with this one:
	// waiting, sent, done, refused or failed; "" with no update under
	// way. The clock's own update state is its status's update member.
	Rollout string `json:"rollout,omitempty"`
}

func (s *Server) entryOf(b store.Board) apiEntry {
	e := apiEntry{Board: b.Board, Online: b.IsOnline(), OnlineMsg: b.Online, State: b.State, Received: b.StateAt, Games: b.Games, Rollout: s.rolloutOf(b.Board)}
	p := b.Players[b.Game]
	if t, ok := b.Carrying(); ok {
		e.Carries = t.Board
		if p == (store.Players{}) {
			// The players of the game it carries on.
			src, _ := s.o.Store.Board(t.Board)
			p = playersOf(src, t.Game)
		}
	}
	e.White, e.Black = p.White, p.Black
	if sp, _, ok := s.o.Store.Replaced(b.Board); ok {
		e.CarriedBy = sp.Board
	}
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
		out = append(out, s.entryOf(b))
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
	writeJSON(w, s.entryOf(b))
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
	if !protocol.ValidGame(g) {
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
