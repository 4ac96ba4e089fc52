package clock

import (
	"fmt"
	"strings"
	"testing"
)

// The tables below are written from the words of FIDE's rules for
// electronic clocks, quoted in each case's rule field: the first move of
// an increment game, the time added after the last time control, and what
// the clocks do when a flag falls. docs/fide-dossier.md's rows name them.

// step is one input of a table case and the state expected right after it.
type step struct {
	at    int64  // instant of the input, ms
	do    string // "start", "press white", "press black", "pause", "resume", or "" to look only
	white string // the expected white side: "MS/MOVES/PERIOD[/flag]"; "" skips
	black string
	also  string // more expected: "running=SIDE", "stopped", "first=SIDE"; space separated
}

func (s step) apply(c *Clock) bool {
	switch s.do {
	case "start":
		return c.Start(s.at)
	case "press white":
		return c.Press(s.at, White)
	case "press black":
		return c.Press(s.at, Black)
	case "pause":
		return c.Pause(s.at)
	case "resume":
		return c.Resume(s.at)
	}
	c.Advance(s.at)
	return true
}

func side(p PlayerState) string {
	s := fmt.Sprintf("%d/%d/%d", p.Ms, p.Moves, p.Period)
	if p.Flag {
		s += "/flag"
	}
	return s
}

func (s step) check(t *testing.T, st State) {
	t.Helper()
	if s.white != "" && side(st.Player[White]) != s.white {
		t.Errorf("at %d after %q: white %s, want %s", s.at, s.do, side(st.Player[White]), s.white)
	}
	if s.black != "" && side(st.Player[Black]) != s.black {
		t.Errorf("at %d after %q: black %s, want %s", s.at, s.do, side(st.Player[Black]), s.black)
	}
	for _, w := range strings.Fields(s.also) {
		var got string
		switch name, _, _ := strings.Cut(w, "="); name {
		case "running":
			got = "running=" + st.Running.String()
		case "first":
			got = "first=" + st.FirstFlag.String()
		case "stopped":
			got = map[bool]string{true: "stopped", false: "not stopped"}[st.Stopped]
		default:
			t.Fatalf("unknown expectation %q", w)
		}
		if got != w {
			t.Errorf("at %d after %q: %s, want %s", s.at, s.do, got, w)
		}
	}
}

type ruleCase struct {
	rule  string // the rule's words, and the case
	spec  string // the control, in the notation of engine/timecontrol
	opt   Options
	steps []step
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c := mustClock(t, tc.spec, tc.opt)
			for _, s := range tc.steps {
				if !s.apply(c) {
					t.Fatalf("at %d: %q refused", s.at, s.do)
				}
				s.check(t, c.State(s.at))
			}
		})
	}
}

var noFirstIncrement = Options{FirstIncrement: false, PeriodTrigger: OnFlag, AfterFlag: Freeze}

// TestFirstMoveIncrement: "FIDE's testing report also checks the first
// move of an increment game: 5 min + 3 s starts at 5:03 (Laws 6.3.2)."
func TestFirstMoveIncrement(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{
			rule: "5 min + 3 s starts at 5:03: the first move's increment is given before the game, both sides",
			spec: "300+3", opt: DefaultOptions,
			steps: []step{
				{at: 0, white: "303000/0/1", black: "303000/0/1", also: "running=none"},
				{at: 0, do: "start", white: "303000/0/1", black: "303000/0/1", also: "running=white"},
			},
		},
		{
			rule: "a fixed time is added for every move made: White's first move, made in 3 s, leaves 5:03",
			spec: "300+3", opt: DefaultOptions,
			steps: []step{
				{at: 0, do: "start"},
				{at: 3000, do: "press white", white: "303000/1/1", black: "303000/0/1", also: "running=black"},
				{at: 10000, do: "press black", white: "303000/1/1", black: "299000/1/1", also: "running=white"},
			},
		},
		{
			rule: "a fixed time is added for every move made: White's first move made at once adds its 3 s too",
			spec: "300+3", opt: DefaultOptions,
			steps: []step{
				{at: 0, do: "start"},
				{at: 0, do: "press white", white: "306000/1/1", black: "303000/0/1"},
			},
		},
		{
			rule: "first increment off: 5:00 at the start, 5:03 after White's first move made at once",
			spec: "300+3", opt: noFirstIncrement,
			steps: []step{
				{at: 0, do: "start", white: "300000/0/1", black: "300000/0/1"},
				{at: 0, do: "press white", white: "303000/1/1", black: "300000/0/1"},
				{at: 2000, do: "press black", black: "301000/1/1"},
			},
		},
		{
			rule: "the display always shows the time available for the next move: Black's 5:03 stands while White thinks",
			spec: "300+3", opt: DefaultOptions,
			steps: []step{
				{at: 0, do: "start"},
				{at: 45000, white: "258000/0/1", black: "303000/0/1", also: "running=white"},
			},
		},
	})
}

// TestNoTimeAfterLastControl: "(i) No time is added after the last time
// control has been passed." The increment per move belongs to the control
// and goes on; no period's time comes again, and a flag in the last
// period stays a flag.
func TestNoTimeAfterLastControl(t *testing.T) {
	onMoves := Options{FirstIncrement: false, PeriodTrigger: OnMoves, AfterFlag: Freeze}
	continueOnFlag := Options{FirstIncrement: false, PeriodTrigger: OnFlag, AfterFlag: Continue}
	runRuleCases(t, []ruleCase{
		{
			rule: "2 moves in 10 s then 5 s for the rest, on the moves: the second period comes once; moves after it add nothing",
			spec: "2/10:5", opt: onMoves,
			steps: []step{
				{at: 0, do: "start"},
				{at: 1000, do: "press white", white: "9000/1/1"},
				{at: 2000, do: "press black"},
				{at: 3000, do: "press white", white: "13000/2/2"}, // the control passed: 8 s left + 5 s
				{at: 4000, do: "press black"},
				{at: 5000, do: "press white", white: "12000/3/2"},
				{at: 6000, do: "press black"},
				{at: 7000, do: "press white", white: "11000/4/2"}, // move 4: a second quota of 2 adds nothing
			},
		},
		{
			rule: "on the flag: the second period comes when the first runs out; when the last runs out, the flag falls and stays",
			spec: "2/10:5", opt: DefaultOptions,
			steps: []step{
				{at: 0, do: "start"},
				{at: 10000, white: "5000/0/2"}, // the first control passed: the next period's time
				{at: 15000, white: "0/0/2/flag", black: "10000/0/1", also: "stopped first=white running=none"},
				{at: 60000, white: "0/0/2/flag", black: "10000/0/1", also: "stopped"},
			},
		},
		{
			rule: "with increment, play on after the flag: the flagged side's moves add no increment and no period",
			spec: "1/10+2:5+2", opt: continueOnFlag,
			steps: []step{
				{at: 0, do: "start"},
				{at: 4000, do: "press white", white: "8000/1/1"},
				{at: 5000, do: "press black"},
				{at: 20000, white: "0/1/2/flag", also: "first=white running=white"}, // 8 s and then the last period's 5 s run out
				{at: 21000, do: "press white", white: "0/2/2/flag", also: "running=black"},
				{at: 22000, do: "press black"},
				{at: 30000, do: "press white", white: "0/3/2/flag"},
			},
		},
		{
			rule: "40 moves in 90 min + 30 s, then 30 min + 30 s: 30 min once after move 40, then only the 30 s of each move",
			spec: "40/5400+30:1800+30", opt: onMoves,
			steps: func() []step {
				s := []step{{at: 0, do: "start"}}
				at := int64(0)
				for n := 1; n <= 81; n++ {
					at += 10000
					s = append(s, step{at: at, do: "press white"})
					at += 10000
					s = append(s, step{at: at, do: "press black"})
				}
				// White: 81 moves of 10 s, each +30 s; 30 min at move 40, and
				// nothing more at moves 80 and 81.
				s[len(s)-1].white = fmt.Sprintf("%d/81/2", 5400000+1800000+81*(30000-10000))
				return s
			}(),
		},
	})
}

// TestFlagFallWithIncrement: "In increment mode, when one clock reaches
// zero the other stops and keeps its display (in rapid and blitz it may
// keep running)." And (e): after both flags, who fell first.
func TestFlagFallWithIncrement(t *testing.T) {
	cont := Options{FirstIncrement: true, PeriodTrigger: OnFlag, AfterFlag: Continue}
	runRuleCases(t, []ruleCase{
		{
			rule: "3 min + 2 s: White reaches zero, Black's clock stops and keeps its display",
			spec: "180+2", opt: DefaultOptions,
			steps: []step{
				{at: 0, do: "start"},
				{at: 100000, do: "press white", white: "84000/1/1"},
				{at: 150000, do: "press black", black: "134000/1/1"},
				{at: 234000, white: "0/1/1/flag", black: "134000/1/1", also: "stopped running=none first=white"},
				{at: 600000, white: "0/1/1/flag", black: "134000/1/1", also: "stopped running=none"},
			},
		},
		{
			rule: "rapid and blitz may keep running: after White's flag and move, Black's clock runs on",
			spec: "180+2", opt: cont,
			steps: []step{
				{at: 0, do: "start"},
				{at: 182000, white: "0/0/1/flag", black: "182000/0/1", also: "running=white first=white"},
				{at: 190000, do: "press white", white: "0/1/1/flag", also: "running=black"},
				{at: 200000, white: "0/1/1/flag", black: "172000/0/1", also: "running=black"},
			},
		},
		{
			rule: "(e) after both flags, who fell first: Black's first, then White's",
			spec: "10+1", opt: cont,
			steps: []step{
				{at: 0, do: "start"},
				{at: 5000, do: "press white", white: "7000/1/1"},
				{at: 16000, black: "0/0/1/flag", also: "first=black"},
				{at: 17000, do: "press black", also: "running=white"},
				{at: 24000, white: "0/1/1/flag", black: "0/1/1/flag", also: "first=black"},
			},
		},
	})
}
