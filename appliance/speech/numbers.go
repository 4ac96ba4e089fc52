package speech

import "strings"

// gender is the grammatical gender of what a number counts: German,
// Spanish and French say "eine Stunde", "una hora", "une heure" but "ein
// Zug", "un minuto".
type gender uint8

const (
	masc gender = iota
	fem
)

// Number says n (0 to 9999; outside that range its digits) in l, as it
// stands alone: "twenty-nine", "neunundzwanzig", "veintinueve",
// "vingt-neuf".
func Number(l Lang, n int) string { return number(l, n, masc, true) }

// number says n counting something of gender g; alone is true when the
// number is said by itself (German "eins", not "ein").
func number(l Lang, n int, g gender, alone bool) string {
	if n < 0 || n > 9999 {
		return digits(l, n)
	}
	switch l {
	case German:
		return de(n, g, alone)
	case Spanish:
		return es(n, g)
	case French:
		return fr(n, g)
	}
	return en(n)
}

// digits says a number outside 0..9999 digit by digit (no clock time or
// move count comes near; it keeps a corrupt value sayable).
func digits(l Lang, n int) string {
	var w []string
	s := []byte(itoa(n))
	for _, c := range s {
		if c == '-' {
			w = append(w, "minus")
			continue
		}
		w = append(w, number(l, int(c-'0'), masc, true))
	}
	return strings.Join(w, " ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	var b []byte
	for ; n != 0; n /= 10 {
		d := n % 10
		if d < 0 {
			d = -d
		}
		b = append([]byte{byte('0' + d)}, b...)
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// --- English ----------------------------------------------------------

var enOnes = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
var enTens = [...]string{2: "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

func en(n int) string {
	switch {
	case n < 20:
		return enOnes[n]
	case n < 100:
		if n%10 == 0 {
			return enTens[n/10]
		}
		return enTens[n/10] + "-" + enOnes[n%10]
	case n < 1000:
		s := enOnes[n/100] + " hundred"
		if n%100 != 0 {
			s += " " + en(n%100)
		}
		return s
	}
	return thousands(n, "thousand", en, true)
}

// thousands says n (1000 to 9999) as words written apart: the thousands
// ("one thousand", or "mil" alone for one where sayOne is false), then
// the rest.
func thousands(n int, word string, say func(int) string, sayOne bool) string {
	s := word
	if k := n / 1000; k > 1 || sayOne {
		s = say(k) + " " + word
	}
	if r := n % 1000; r != 0 {
		s += " " + say(r)
	}
	return s
}

// --- German -----------------------------------------------------------

var deOnes = [...]string{"null", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
	"zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"}
var deTens = [...]string{2: "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"}

// de says n in German, written as one word as German numbers are.
// A final one is "eins" alone ("hunderteins"), "eine" before a feminine
// noun ("eine Stunde") and "ein" before a masculine one ("ein Zug").
func de(n int, g gender, alone bool) string {
	one := func() string {
		switch {
		case alone:
			return "eins"
		case g == fem:
			return "eine"
		}
		return "ein"
	}
	switch {
	case n == 1:
		return one()
	case n < 20:
		return deOnes[n]
	case n < 100:
		if n%10 == 0 {
			return deTens[n/10]
		}
		return deOnes[n%10] + "und" + deTens[n/10]
	case n < 1000:
		return deTimes(n, 100, "hundert", g, alone)
	}
	return deTimes(n, 1000, "tausend", g, alone)
}

// deTimes says n as a count of unit ("hundert", "tausend") and the rest:
// "hundert" alone for one of them, "zweihundertfünf".
func deTimes(n, unit int, word string, g gender, alone bool) string {
	s := word
	if k := n / unit; k > 1 {
		s = de(k, masc, false) + s
	}
	if r := n % unit; r != 0 {
		s += de(r, g, alone)
	}
	return s
}

// --- Spanish ----------------------------------------------------------

var esOnes = [...]string{"cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
	"diez", "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve",
	"veinte", "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho", "veintinueve"}
var esTens = [...]string{3: "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"}
var esHundreds = [...]string{1: "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos", "setecientos", "ochocientos", "novecientos"}

// es says n in Spanish. A final "uno" becomes "un" or "una" before its
// noun ("un minuto", "veintiuna horas"); Number gives "uno".
func es(n int, g gender) string {
	s := esPlain(n)
	if g == fem {
		if strings.HasSuffix(s, "uno") {
			s = strings.TrimSuffix(s, "uno") + "una"
		}
		// The hundreds agree too: "doscientas horas" (no clock shows so many).
		s = strings.ReplaceAll(s, "ientos", "ientas")
	}
	return s
}

func esPlain(n int) string {
	switch {
	case n < 30:
		return esOnes[n]
	case n < 100:
		if n%10 == 0 {
			return esTens[n/10]
		}
		return esTens[n/10] + " y " + esOnes[n%10]
	case n == 100:
		return "cien"
	case n < 1000:
		s := esHundreds[n/100]
		if n%100 != 0 {
			s += " " + esPlain(n%100)
		}
		return s
	}
	return thousands(n, "mil", esPlain, false)
}

// countES is a count before its noun: "un minuto", "una hora".
func countES(n int, g gender) string {
	s := es(n, g)
	if g == masc && strings.HasSuffix(s, "uno") {
		s = strings.TrimSuffix(s, "uno") + "un"
		if s == "veintiun" {
			s = "veintiún"
		}
	}
	return s
}

// --- French -----------------------------------------------------------

var frOnes = [...]string{"zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
	"dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"}
var frTens = [...]string{2: "vingt", "trente", "quarante", "cinquante", "soixante"}

// fr says n in French (the traditional spelling: "vingt et un",
// "quatre-vingts"); a final "un" is "une" before a feminine noun.
func fr(n int, g gender) string {
	s := frPlain(n)
	if g == fem && strings.HasSuffix(s, "un") {
		s += "e"
	}
	return s
}

func frPlain(n int) string {
	switch {
	case n < 20:
		return frOnes[n]
	case n < 70:
		t, o := n/10, n%10
		switch o {
		case 0:
			return frTens[t]
		case 1:
			return frTens[t] + " et un"
		}
		return frTens[t] + "-" + frOnes[o]
	case n < 80:
		if n == 71 {
			return "soixante et onze"
		}
		return "soixante-" + frOnes[n-60]
	case n < 100:
		if n == 80 {
			return "quatre-vingts"
		}
		return "quatre-vingt-" + frOnes[n-80]
	case n < 1000:
		h, r := n/100, n%100
		s := "cent"
		if h > 1 {
			s = frOnes[h] + " cent"
			if r == 0 {
				s += "s"
			}
		}
		if r != 0 {
			s += " " + frPlain(r)
		}
		return s
	}
	return thousands(n, "mille", frPlain, false)
}
