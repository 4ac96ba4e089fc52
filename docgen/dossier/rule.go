package dossier

// Rule is one row of the dossier.
type Rule struct {
	ID       string    // the rule's number or letter in its source: "(c)", "3.1.5"
	Title    string    // the rule, in a line
	Source   string    // where the rule is written
	How      string    // how zeitnot meets it
	Tests    []string  // the tests and benchmarks that prove it, by name
	Figure   Figure    // the figure measured
	Hardware *Hardware // for a rule of the hardware: what the builders' guide says; nil for the others
}

// Hardware is what a hardware rule's row says beside its tests.
type Hardware struct {
	Guide   string // the builders' guide's section: what meets the rule in a build
	Measure string // how to measure it on a built clock
}

// FigureKind is where a figure comes from.
type FigureKind uint8

const (
	// FigureLogged is the lines a test logs as "figure KEY: TEXT".
	FigureLogged FigureKind = iota + 1
	// FigureBench is a benchmark's result: ns/op, B/op, allocs/op and its
	// own metrics.
	FigureBench
	// FigureCases is how many of a test's subtests passed.
	FigureCases
	// FigurePassed is how many of the row's tests passed, and how long
	// they took.
	FigurePassed
	// FigureBattery is each reference build's draw and the battery its
	// profile's draw needs (drivers/profile, Supply.Pack).
	FigureBattery
)

// Figure is the figure of a row: where it comes from and what it is.
type Figure struct {
	Kind FigureKind
	Of   string // the test or benchmark it comes from; "" for FigurePassed and FigureBattery
	Key  string // FigureLogged: the KEY of its lines
	What string // what is measured, in words
}

// Logged is the figure that test logs as "figure KEY: ..." lines.
func Logged(test, key, what string) Figure {
	return Figure{Kind: FigureLogged, Of: test, Key: key, What: what}
}

// Bench is the result of benchmark name.
func Bench(name, what string) Figure { return Figure{Kind: FigureBench, Of: name, What: what} }

// Cases is the count of test's subtests that passed.
func Cases(test, what string) Figure { return Figure{Kind: FigureCases, Of: test, What: what} }

// Passed is the count of the row's tests that passed.
func Passed(what string) Figure { return Figure{Kind: FigurePassed, What: what} }

// Battery is each reference build's draw and battery.
func Battery(what string) Figure { return Figure{Kind: FigureBattery, What: what} }

// Names is every test and benchmark the rules name, their figures'
// included, each once, in the order of the rules.
func Names(rules []Rule) []string {
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, r := range rules {
		for _, t := range r.Tests {
			add(t)
		}
		add(r.Figure.Of)
	}
	return names
}
