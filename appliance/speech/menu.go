package speech

import (
	"strconv"
	"strings"
)

// Files, ranks and pieces as FIDE's Appendix D.2.1 names them for
// announcing moves to a visually disabled player: the same words in every
// language, as the rule gives them.
var (
	d1Files  = [8]string{"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"}
	d1Ranks  = [8]string{"eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"}
	d1Pieces = map[byte]string{'K': "König", 'Q': "Dame", 'R': "Turm", 'B': "Läufer", 'N': "Springer", 'P': "Bauer"}
)

// Move says a move given in SAN with the names of Appendix D.2.1:
// "Nf3" is "Springer Felix drei", "exd5" "Eva nimmt David fünf", "O-O"
// "Kurze Rochade", "e8=Q+" "Eva acht Dame Schach". What is not SAN is
// said as it stands.
func Move(san string) string {
	s := strings.TrimRight(san, "!?")
	var tail []string
	switch {
	case strings.HasSuffix(s, "#"):
		tail = append(tail, "matt")
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "+"):
		tail = append(tail, "Schach")
		s = s[:len(s)-1]
	}
	switch s {
	case "O-O", "0-0":
		return strings.Join(append([]string{"Kurze Rochade"}, tail...), " ")
	case "O-O-O", "0-0-0":
		return strings.Join(append([]string{"Lange Rochade"}, tail...), " ")
	}
	var w []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'h':
			w = append(w, d1Files[c-'a'])
		case c >= '1' && c <= '8':
			w = append(w, d1Ranks[c-'1'])
		case d1Pieces[c] != "":
			w = append(w, d1Pieces[c])
		case c == 'x' || c == ':':
			w = append(w, "nimmt")
		case c == '=':
			// the promotion's piece follows
		default:
			return san
		}
	}
	return strings.Join(append(w, tail...), " ")
}

// MenuPage is a menu page as the displays show it (appliance/screen's
// Menu, which this package does not import).
type MenuPage struct {
	Title  string
	Items  []string
	Cursor int // negative: each item is picked by its own button, all are said
	Hint   string
}

// Menu says a menu page: its title, then the item under the cursor and
// where it is in the list ("Setup. Settings, two of seven"), or, on a
// page where each entry has its own button, every entry with its button
// ("Menu. left lever: Classical. right lever: Rapid and Blitz. ...") and
// what ok does. Marks and numbers are said in words (Label).
func Menu(l Lang, m MenuPage) string {
	w := lex(l)
	parts := []string{Label(l, m.Title)}
	if m.Cursor >= 0 && m.Cursor < len(m.Items) {
		parts = append(parts, Label(l, m.Items[m.Cursor])+", "+Number(l, m.Cursor+1)+" "+w.of+" "+Number(l, len(m.Items)))
		return strings.Join(parts, ". ")
	}
	for _, it := range m.Items {
		parts = append(parts, Label(l, it))
	}
	if strings.HasPrefix(m.Hint, "ok ") {
		parts = append(parts, Label(l, m.Hint))
	}
	return strings.Join(parts, ". ")
}

// Label says a line of the menu: a leading button mark ("< ", "> ", "- ",
// "+ ", "ok ", "pause: ") as the button's name, a submenu's " >" as
// "submenu", numbers in words, "+" as plus, "/" between numbers as per
// ("90/40"), "/" and "|" between words as "and", units ("10s", 90', 30")
// in words.
func Label(l Lang, s string) string {
	w := lex(l)
	s, sub := strings.CutSuffix(strings.TrimSpace(s), " >")
	s = strings.TrimSpace(s)
	var lead string
	for _, k := range []struct{ mark, key string }{
		{"< ", w.leftLever}, {"> ", w.rightLever}, {"- ", w.minusKey}, {"+ ", w.plusKey},
		{"ok: ", w.okKey}, {"ok ", w.okKey}, {"pause: ", w.pauseKey},
	} {
		if strings.HasPrefix(s, k.mark) {
			lead, s = k.key+": ", strings.TrimPrefix(s, k.mark)
			break
		}
	}
	var b strings.Builder
	b.WriteString(lead)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if parts, n := clockParts(s[i:]); len(parts) == 3 {
				// A clock time as the displays write it: "1:30:26".
				b.WriteString(Time(l, ((parts[0]*60+parts[1])*60+parts[2])*1000))
				i += n
				continue
			} else if len(parts) == 2 {
				// A time of day ("18:30"), or minutes and seconds:
				// "eighteen thirty", "four zero five".
				b.WriteString(Number(l, int(parts[0])) + " ")
				if parts[1] < 10 {
					b.WriteString(Number(l, 0) + " ")
				}
				b.WriteString(Number(l, int(parts[1])))
				i += n
				continue
			}
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(s[i:j])
			if err != nil || len(s[i:j]) > 4 {
				n = -1
			}
			if n >= 0 {
				b.WriteString(Number(l, n))
			} else {
				b.WriteString(s[i:j])
			}
			i = j
			// A unit right after the number.
			if i < len(s) && (s[i] == 's' || s[i] == 'm') && (i+1 == len(s) || !isLetter(s[i+1])) || i < len(s) && (s[i] == '\'' || s[i] == '"') {
				if s[i] == 's' || s[i] == '"' {
					b.WriteString(" " + w.seconds)
				} else {
					b.WriteString(" " + w.minutes)
				}
				i++
			}
			continue
		case c == '+':
			b.WriteString(" " + w.plusKey + " ")
		case c == '/' && i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]):
			b.WriteString(" " + w.per + " ")
		case c == '/' || c == '|':
			b.WriteString(" " + w.and + " ")
		case c == '%':
			b.WriteString(" %")
		case c == '<' || c == '>' || c == '*' || c == '_':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
		i++
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if sub {
		out += ", " + w.submenu
	}
	return out
}

// clockParts reads a time written h:mm:ss or h:mm at the start of s:
// its two or three numbers and its length; none if it is not one.
func clockParts(s string) (parts []int64, n int) {
	for {
		j := n
		for j < len(s) && isDigit(s[j]) && j-n < 2 {
			j++
		}
		if j == n || j < len(s) && isDigit(s[j]) || len(parts) > 0 && j-n != 2 {
			return nil, 0
		}
		v, _ := strconv.ParseInt(s[n:j], 10, 64)
		if len(parts) > 0 && v > 59 {
			return nil, 0
		}
		parts = append(parts, v)
		n = j
		if len(parts) == 3 || n+1 >= len(s) || s[n] != ':' || !isDigit(s[n+1]) {
			break
		}
		n++ // the colon
	}
	if len(parts) < 2 {
		return nil, 0
	}
	return parts, n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
