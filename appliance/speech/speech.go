// Package speech makes the words of the spoken clock, the clock for
// visually disabled players of the FIDE Laws' Appendix D.2.6.1 ("It should
// be able to announce the time and number of moves to the visually
// disabled player"): a player's time and move count, whose move it is, a
// time control passed, a flag, a result proposed, low battery, the e-board's
// moves with the names of D.2.1 (Anna, Bella, ...; eins, zwei, ...), and
// in the spoken-menu mode every menu page. English, German, Spanish and
// French; each side of the board has its own.
//
// It is text only: pure functions of the clock's state, deterministic,
// standard library only. Turning the text into sound (espeak-ng) and
// writing it to one channel of the stereo output is drivers/audio's; the
// user interface (appliance/ui) decides when to speak and to whom.
package speech

import (
	"fmt"
	"strings"
	"time"
)

// Lang is a language of the spoken clock, by its ISO 639-1 code, which is
// also espeak-ng's voice.
type Lang string

// The languages, and Off: that side has no speech.
const (
	English Lang = "en"
	German  Lang = "de"
	Spanish Lang = "es"
	French  Lang = "fr"
	Off     Lang = "off"
)

// Langs are the languages spoken, in the order the menu cycles them.
var Langs = []Lang{English, German, Spanish, French}

// ParseLang reads a language code ("en", "de", "es", "fr") or "off".
func ParseLang(s string) (Lang, error) {
	for _, l := range append(Langs, Off) {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("speech: language %q: want en, de, es, fr or off", s)
}

// Channel is the side of the stereo output: the left player's earphone or
// the right player's.
type Channel uint8

// The channels.
const (
	Left Channel = iota
	Right
)

func (c Channel) String() string {
	if c == Right {
		return "right"
	}
	return "left"
}

// Announcement is one thing to say to one player.
type Announcement struct {
	// At is the instant it answers (the announce button's first edge, or
	// the event's), on the event loop's monotonic base: its words are the
	// clock's state then, and its sound is due from then.
	At      time.Duration
	Channel Channel
	Lang    Lang
	Text    string
}

// Player is what is said of one side's clock.
type Player struct {
	Ms    int64 // time left (the time used, counting up)
	Moves int   // moves completed
}

// words are a language's words.
type words struct {
	hour, hours, minute, minutes, second, seconds string
	hourGender, minuteGender                      gender // of hour, and of minute and second
	move                                          string // before its number: "move twelve"
	opponent                                      string
	yourMove, theirMove                           string
	passed, theyPassed                            string // a time control passed
	yourFlag, theirFlag                           string
	proposed, confirm                             string // a result proposed
	whiteWins, draw, blackWins, noResult          string
	batteryLow                                    string
	menuOn, menuOff                               string
	leftLever, rightLever, minusKey, plusKey      string
	okKey, pauseKey                               string
	of                                            string // "two of seven"
	and                                           string // "Classical and Rapid"
	per                                           string // "90/40": ninety per forty
	submenu                                       string // an entry that opens a page
}

var lexicon = map[Lang]*words{
	English: {
		hour: "hour", hours: "hours", minute: "minute", minutes: "minutes", second: "second", seconds: "seconds",
		move: "move", opponent: "opponent", yourMove: "your move", theirMove: "opponent's move",
		passed: "time control passed", theyPassed: "opponent passed the time control",
		yourFlag: "your flag fell", theirFlag: "opponent's flag fell",
		proposed: "result proposed", confirm: "press your lever to agree",
		whiteWins: "white wins", draw: "draw", blackWins: "black wins", noResult: "no result",
		batteryLow: "battery low", menuOn: "spoken menu on", menuOff: "spoken menu off",
		leftLever: "left lever", rightLever: "right lever", minusKey: "minus", plusKey: "plus", okKey: "ok", pauseKey: "pause",
		of: "of", and: "and", per: "per", submenu: "submenu",
	},
	German: {
		hour: "Stunde", hours: "Stunden", minute: "Minute", minutes: "Minuten", second: "Sekunde", seconds: "Sekunden", hourGender: fem, minuteGender: fem,
		move: "Zug", opponent: "Gegner", yourMove: "du bist am Zug", theirMove: "Gegner am Zug",
		passed: "Zeitkontrolle erreicht", theyPassed: "Gegner hat die Zeitkontrolle erreicht",
		yourFlag: "dein Blättchen ist gefallen", theirFlag: "das Blättchen des Gegners ist gefallen",
		proposed: "Ergebnis vorgeschlagen", confirm: "zum Bestätigen deinen Hebel drücken",
		whiteWins: "Weiß gewinnt", draw: "Remis", blackWins: "Schwarz gewinnt", noResult: "kein Ergebnis",
		batteryLow: "Batterie schwach", menuOn: "Sprachmenü an", menuOff: "Sprachmenü aus",
		leftLever: "linker Hebel", rightLever: "rechter Hebel", minusKey: "minus", plusKey: "plus", okKey: "okay", pauseKey: "Pause",
		of: "von", and: "und", per: "pro", submenu: "Untermenü",
	},
	Spanish: {
		hour: "hora", hours: "horas", minute: "minuto", minutes: "minutos", second: "segundo", seconds: "segundos", hourGender: fem,
		move: "jugada", opponent: "rival", yourMove: "te toca", theirMove: "le toca al rival",
		passed: "control de tiempo superado", theyPassed: "el rival superó el control de tiempo",
		yourFlag: "tu bandera cayó", theirFlag: "la bandera del rival cayó",
		proposed: "resultado propuesto", confirm: "pulsa tu palanca para aceptar",
		whiteWins: "ganan blancas", draw: "tablas", blackWins: "ganan negras", noResult: "sin resultado",
		batteryLow: "batería baja", menuOn: "menú hablado activado", menuOff: "menú hablado desactivado",
		leftLever: "palanca izquierda", rightLever: "palanca derecha", minusKey: "menos", plusKey: "más", okKey: "ok", pauseKey: "pausa",
		of: "de", and: "y", per: "por", submenu: "submenú",
	},
	French: {
		hour: "heure", hours: "heures", minute: "minute", minutes: "minutes", second: "seconde", seconds: "secondes", hourGender: fem, minuteGender: fem,
		move: "coup", opponent: "adversaire", yourMove: "à vous de jouer", theirMove: "à l'adversaire de jouer",
		passed: "contrôle de temps passé", theyPassed: "l'adversaire a passé le contrôle de temps",
		yourFlag: "votre drapeau est tombé", theirFlag: "le drapeau de l'adversaire est tombé",
		proposed: "résultat proposé", confirm: "appuyez sur votre levier pour accepter",
		whiteWins: "les blancs gagnent", draw: "nulle", blackWins: "les noirs gagnent", noResult: "pas de résultat",
		batteryLow: "batterie faible", menuOn: "menu parlé activé", menuOff: "menu parlé désactivé",
		leftLever: "levier gauche", rightLever: "levier droit", minusKey: "moins", plusKey: "plus", okKey: "ok", pauseKey: "pause",
		of: "sur", and: "et", per: "pour", submenu: "sous-menu",
	},
}

func lex(l Lang) *words {
	if w, ok := lexicon[l]; ok {
		return w
	}
	return lexicon[English]
}

// count says n things ("one hour", "zwei Stunden", "una hora").
func count(l Lang, n int, g gender, one, many string) string {
	noun := many
	if n == 1 {
		noun = one
	}
	var num string
	switch l {
	case Spanish:
		num = countES(n, g)
	default:
		num = number(l, n, g, false)
	}
	return num + " " + noun
}

// Time says a clock time as the display shows it, whole seconds rounded
// up (a clock showing 0:01 has time left): "one hour twenty-nine minutes
// fifty seconds", "eine Stunde neunundzwanzig Minuten fünfzig Sekunden".
// Parts that are zero are left out; no time left is "zero seconds".
func Time(l Lang, ms int64) string {
	if ms < 0 {
		ms = 0
	}
	s := (ms + 999) / 1000
	h, m, sec := int(s/3600), int(s/60%60), int(s%60)
	w := lex(l)
	var parts []string
	if h > 0 {
		parts = append(parts, count(l, h, w.hourGender, w.hour, w.hours))
	}
	if m > 0 {
		parts = append(parts, count(l, m, w.minuteGender, w.minute, w.minutes))
	}
	if sec > 0 || len(parts) == 0 {
		parts = append(parts, count(l, sec, w.minuteGender, w.second, w.seconds))
	}
	return strings.Join(parts, " ")
}

// Own is the first press of a player's announce button: their time and
// the moves they have made, "one hour twenty-nine minutes fifty seconds,
// move twelve".
func Own(l Lang, p Player) string {
	return Time(l, p.Ms) + ", " + lex(l).move + " " + Number(l, p.Moves)
}

// Opponent is the second press: the opponent's time and moves, and whose
// move it is ("opponent, one hour ..., move twelve, your move").
func Opponent(l Lang, p Player, yourMove bool) string {
	w := lex(l)
	whose := w.theirMove
	if yourMove {
		whose = w.yourMove
	}
	return w.opponent + ", " + Own(l, p) + ", " + whose
}

// Passed says a time control was passed, to the player who passed it
// (their new time) or to the opponent.
func Passed(l Lang, own bool, p Player) string {
	w := lex(l)
	if !own {
		return w.theyPassed
	}
	return w.passed + ", " + Time(l, p.Ms)
}

// Flag says a flag fell: the listener's own, or the opponent's.
func Flag(l Lang, own bool) string {
	if own {
		return lex(l).yourFlag
	}
	return lex(l).theirFlag
}

// Result names a result as the clock log writes it ("1-0", "1/2-1/2",
// "0-1", "*").
func Result(l Lang, result string) string {
	w := lex(l)
	switch result {
	case "1-0":
		return w.whiteWins
	case "0-1":
		return w.blackWins
	case "1/2-1/2":
		return w.draw
	}
	return w.noResult
}

// Proposed says a result was proposed for both players to agree with
// their levers.
func Proposed(l Lang, result string) string {
	w := lex(l)
	return w.proposed + ", " + Result(l, result) + ", " + w.confirm
}

// BatteryLow is the low-battery warning.
func BatteryLow(l Lang) string { return lex(l).batteryLow }

// SpokenMenu says the spoken-menu mode was switched on or off.
func SpokenMenu(l Lang, on bool) string {
	if on {
		return lex(l).menuOn
	}
	return lex(l).menuOff
}
