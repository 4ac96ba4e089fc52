package speech

import "testing"

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		l    Lang
		n    int
		want string
	}{
		{English, 0, "zero"}, {English, 12, "twelve"}, {English, 29, "twenty-nine"}, {English, 40, "forty"},
		{English, 101, "one hundred one"}, {English, 1999, "one thousand nine hundred ninety-nine"},
		{German, 1, "eins"}, {German, 12, "zwölf"}, {German, 17, "siebzehn"}, {German, 21, "einundzwanzig"},
		{German, 29, "neunundzwanzig"}, {German, 30, "dreißig"}, {German, 101, "hunderteins"}, {German, 245, "zweihundertfünfundvierzig"},
		{Spanish, 1, "uno"}, {Spanish, 16, "dieciséis"}, {Spanish, 21, "veintiuno"}, {Spanish, 22, "veintidós"},
		{Spanish, 31, "treinta y uno"}, {Spanish, 59, "cincuenta y nueve"}, {Spanish, 100, "cien"}, {Spanish, 115, "ciento quince"}, {Spanish, 500, "quinientos"},
		{French, 1, "un"}, {French, 17, "dix-sept"}, {French, 21, "vingt et un"}, {French, 59, "cinquante-neuf"},
		{French, 71, "soixante et onze"}, {French, 77, "soixante-dix-sept"}, {French, 80, "quatre-vingts"},
		{French, 81, "quatre-vingt-un"}, {French, 99, "quatre-vingt-dix-neuf"}, {French, 200, "deux cents"}, {French, 201, "deux cent un"},
		{English, 12345, "one two three four five"},
		{German, 1000, "tausend"}, {German, 2001, "zweitausendeins"},
		{Spanish, 1000, "mil"}, {Spanish, 2015, "dos mil quince"},
		{French, 1000, "mille"}, {French, 3080, "trois mille quatre-vingts"},
	} {
		if got := Number(c.l, c.n); got != c.want {
			t.Errorf("Number(%s, %d) = %q, want %q", c.l, c.n, got, c.want)
		}
	}
}

// TestTime holds the spoken time to the display's: whole seconds rounded
// up, the zero parts left out, the counted words in their gender.
func TestTime(t *testing.T) {
	const t1h29m50s = (3600 + 29*60 + 50) * 1000
	for _, c := range []struct {
		l    Lang
		ms   int64
		want string
	}{
		{English, t1h29m50s, "one hour twenty-nine minutes fifty seconds"},
		{English, t1h29m50s - 999, "one hour twenty-nine minutes fifty seconds"},
		{English, t1h29m50s - 1000, "one hour twenty-nine minutes forty-nine seconds"},
		{English, 5430000, "one hour thirty minutes thirty seconds"},
		{English, 60000, "one minute"},
		{English, 1, "one second"},
		{English, 0, "zero seconds"},
		{English, -5, "zero seconds"},
		{German, t1h29m50s, "eine Stunde neunundzwanzig Minuten fünfzig Sekunden"},
		{German, 21 * 60000, "einundzwanzig Minuten"},
		{German, 61000, "eine Minute eine Sekunde"},
		{Spanish, t1h29m50s, "una hora veintinueve minutos cincuenta segundos"},
		{Spanish, 21*60000 + 21000, "veintiún minutos veintiún segundos"},
		{Spanish, 21 * 3600000, "veintiuna horas"},
		{Spanish, 61000, "un minuto un segundo"},
		{French, t1h29m50s, "une heure vingt-neuf minutes cinquante secondes"},
		{French, 21*60000 + 1000, "vingt et une minutes une seconde"},
	} {
		if got := Time(c.l, c.ms); got != c.want {
			t.Errorf("Time(%s, %d) = %q, want %q", c.l, c.ms, got, c.want)
		}
	}
}

func TestAnnouncements(t *testing.T) {
	p := Player{Ms: (3600 + 29*60 + 50) * 1000, Moves: 12}
	for _, c := range []struct{ got, want string }{
		{Own(English, p), "one hour twenty-nine minutes fifty seconds, move twelve"},
		{Own(German, p), "eine Stunde neunundzwanzig Minuten fünfzig Sekunden, Zug zwölf"},
		{Own(Spanish, Player{Ms: 30000, Moves: 1}), "treinta segundos, jugada uno"},
		{Own(French, Player{Ms: 30000, Moves: 41}), "trente secondes, coup quarante et un"},
		{Opponent(English, Player{Ms: 90000, Moves: 3}, true), "opponent, one minute thirty seconds, move three, your move"},
		{Opponent(English, Player{Ms: 90000, Moves: 3}, false), "opponent, one minute thirty seconds, move three, opponent's move"},
		{Passed(English, true, Player{Ms: 1800000}), "time control passed, thirty minutes"},
		{Passed(German, false, Player{}), "Gegner hat die Zeitkontrolle erreicht"},
		{Flag(English, true), "your flag fell"},
		{Flag(French, false), "le drapeau de l'adversaire est tombé"},
		{Proposed(English, "1/2-1/2"), "result proposed, draw, press your lever to agree"},
		{Proposed(Spanish, "1-0"), "resultado propuesto, ganan blancas, pulsa tu palanca para aceptar"},
		{BatteryLow(German), "Batterie schwach"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestMove holds the move words to FIDE Appendix D.2.1.
func TestMove(t *testing.T) {
	for san, want := range map[string]string{
		"e4":     "Eva vier",
		"Nf3":    "Springer Felix drei",
		"exd5":   "Eva nimmt David fünf",
		"Qxh7#":  "Dame nimmt Hector sieben matt",
		"O-O":    "Kurze Rochade",
		"O-O-O+": "Lange Rochade Schach",
		"a8=Q+":  "Anna acht Dame Schach",
		"Rbd1":   "Turm Bella David eins",
		"Kg1":    "König Gustav eins",
		"Bc4":    "Läufer Cesar vier",
		"--":     "--",
	} {
		if got := Move(san); got != want {
			t.Errorf("Move(%q) = %q, want %q", san, got, want)
		}
	}
}

func TestMenu(t *testing.T) {
	choose := MenuPage{Title: "Menu", Cursor: -1, Items: []string{"< Classical/Rapid >", "> Blitz >", "- Other >", "+ Setup"}, Hint: "ok play 90+30"}
	if got, want := Menu(English, choose), "Menu. left lever: Classical and Rapid, submenu. right lever: Blitz, submenu. minus: Other, submenu. plus: Setup. ok: play ninety plus thirty"; got != want {
		t.Errorf("choose page:\n got %q\nwant %q", got, want)
	}
	list := MenuPage{Title: "Settings", Cursor: 2, Items: []string{"Sound on", "Press beep off", "Low time 10s", "Flag alarm on"}, Hint: "+ up - down ok/lever"}
	if got, want := Menu(English, list), "Settings. Low time ten seconds, three of four"; got != want {
		t.Errorf("list page:\n got %q\nwant %q", got, want)
	}
	if got, want := Menu(German, MenuPage{Title: "Custom", Cursor: 0, Items: []string{"minutes 90"}}), "Custom. minutes neunzig, eins von eins"; got != want {
		t.Errorf("form page:\n got %q\nwant %q", got, want)
	}
	if got, want := Label(English, "FIDE 90/40+30"), "FIDE ninety per forty plus thirty"; got != want {
		t.Errorf("Label: got %q, want %q", got, want)
	}
	if got, want := Label(English, "< 90'+30\""), "left lever: ninety minutes plus thirty seconds"; got != want {
		t.Errorf("Label: got %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"Time 1:30:26":   "Time one hour thirty minutes twenty-six seconds",
		"W 4:05 B 12:00": "W four zero five B twelve zero zero",
		"Start 18:30":    "Start eighteen thirty",
		"1:75":           "one:seventy-five",
		"1:5":            "one:five",
		"10s":            "ten seconds",
	} {
		if got := Label(English, in); got != want {
			t.Errorf("Label(%q) = %q, want %q", in, got, want)
		}
	}
	confirm := MenuPage{Title: "White to the right?", Cursor: -1, Items: []string{"ok: yes", "pause: no"}}
	if got, want := Menu(French, confirm), "White to the right?. ok: yes. pause: no"; got != want {
		t.Errorf("confirm page:\n got %q\nwant %q", got, want)
	}
}

func TestParseLang(t *testing.T) {
	for _, s := range []string{"en", "de", "es", "fr", "off"} {
		if l, err := ParseLang(s); err != nil || string(l) != s {
			t.Errorf("ParseLang(%q) = %q, %v", s, l, err)
		}
	}
	if _, err := ParseLang("EN"); err == nil {
		t.Error("ParseLang(EN): no error")
	}
}

// FuzzLabel: any menu line is said without a panic, and with no mark or
// digit left for the synthesizer to read out as a symbol.
func FuzzLabel(f *testing.F) {
	for _, s := range []string{"< Classical/Rapid >", "90+30", "Low time 10s", "99999999999", "+", "<>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range Langs {
			got := Label(l, s)
			for _, c := range "<>+|/" {
				for _, r := range got {
					if r == c {
						t.Fatalf("Label(%s, %q) = %q keeps %q", l, s, got, c)
					}
				}
			}
		}
	})
}
