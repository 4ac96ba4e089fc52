// Package screen draws what the clock shows: the game screen, the menu and
// messages, on every display family the drivers support (two 128x64 OLEDs,
// one 128x64 showing both clocks, 128x32, 4- and 8-digit segments, 16x2
// character LCDs).
//
// The daemon builds a View, a plain description of what is to be seen; this
// package turns it into frames and text. It decides nothing about the game.
//
// PixelScreen draws on OLED panels (pixel.go, with the big digits of
// bigfont.go and the drivers' 5x7 bitfont for text); TextScreen writes for
// 7-segment displays (segments.go) and character LCDs (lcd.go). All of
// them take the status words beside a time (FLAG, OVERSTEP, the banner,
// PAUSED, DELAY, OVERTIME, MOVES, PERIOD) from one list in one order of
// importance, with long, short and segment forms (words.go): where room is
// short, every display drops the same words first.
package screen

// Role is which part of the clock a display shows.
type Role uint8

const (
	Left  Role = iota // the left player's display
	Right             // the right player's display
	Both              // one display showing both clocks
)

func (r Role) String() string {
	switch r {
	case Left:
		return "left"
	case Right:
		return "right"
	}
	return "both"
}

// Player is one side of the game screen, by physical position.
type Player struct {
	Ms        int64 // the time to show: remaining, or used in count-up
	CountUp   bool  // Ms counts up (count-up mode): never shown as a flag
	Running   bool  // this side's clock is running now
	ToMove    bool  // this side is to move (also while paused)
	White     bool  // this side plays White
	Moves     int   // moves completed
	ShowMoves bool  // the move counter is switched on
	Period    int   // current period, from 1
	Periods   bool  // the control has more than one period: show Period
	Flag      bool  // this side's flag has fallen
	FirstFlag bool  // this side's flag fell first (FIDE 6.11)
	Overstep  bool  // entered a period short of its quota
	Delay     bool  // a delay mode: show DelayMs while to move
	DelayMs   int64 // delay still to come in this turn
	Overtime  bool  // in byo-yomi or Canadian overtime
	OTLeft    int   // byo-yomi periods or Canadian moves left
	// Default: the round's default time (FIDE 6.6) has passed since its
	// scheduled start and this side has not completed a move. The clock
	// only shows it; the arbiter decides.
	Default bool

	// Seconds asks the displays that hide the seconds of a time from one
	// hour up (4-digit segments show h:mm there) to show the minutes and
	// seconds instead (1:30:30 as 30:30). The core sets it for a few
	// seconds after this side's clock stops at a press, so the time just
	// given its increment can be checked, and while the arbiter asks for
	// it. Other displays show the seconds always and ignore it.
	Seconds bool
}

// Game is the game screen.
type Game struct {
	Left, Right Player
	Started     bool
	Paused      bool
	TenthsBelow int64  // show tenths of a second below this many ms
	Banner      string // a short notice across the screen: "RECOVERED", "LOCKED", a warning; "" for none
	// BannerShort is a shorter form of Banner for where it does not fit
	// ("18:30 4:59" for "18:30 IN 4:59 NTP"); "": none.
	BannerShort string
}

// Menu is a menu or an editor.
type Menu struct {
	Title   string   // e.g. "Start game", "Set time: White"
	Items   []string // all items; Cursor is the selected one
	Cursor  int      // negative: nothing is selected (each item is picked by its own button)
	Editing bool     // Items[Cursor] is a value being edited (shown inverted or blinking)
	Field   [2]int   // while editing, the byte range of Items[Cursor] that +/- change
	Hint    string   // key hint, e.g. "+/- change  ok next"
}

// Kind is what the View shows.
type Kind uint8

const (
	KindGame    Kind = iota // the clock
	KindMenu                // the menu
	KindMessage             // a full-screen message
)

// View is everything there is to see, at one instant.
type View struct {
	Kind    Kind
	Game    Game
	Menu    Menu
	Message []string // lines of a full-screen message (KindMessage)
}
