package clocklog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// compact writes a state in the short form the rule tables use:
//
//	AT RUNNING [paused] [stopped] [first=SIDE] w=MS/MOVES/PERIOD[/flag][/over] b=...
func compact(s clock.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", s.At, s.Running)
	if s.Paused {
		b.WriteString(" paused")
	}
	if s.Stopped {
		b.WriteString(" stopped")
	}
	if s.FirstFlag != clock.NoSide {
		fmt.Fprintf(&b, " first=%s", s.FirstFlag)
	}
	for i, name := range []string{"w", "b"} {
		p := s.Player[i]
		fmt.Fprintf(&b, " %s=%d/%d/%d", name, p.Ms, p.Moves, p.Period)
		if p.Flag {
			b.WriteString("/flag")
		}
		if p.Overstep {
			b.WriteString("/over")
		}
	}
	return b.String()
}

func shows(t *testing.T, log string) []string {
	t.Helper()
	l, err := Parse("test.log", strings.NewReader(log))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var got []string
	if _, err := Replay(l, Handlers{Show: func(s clock.State) { got = append(got, compact(s)) }}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	return got
}

// Each case is a clock log and the state at each of its show lines, worked
// out by hand from the rule it names.
var ruleCases = []struct {
	name string
	log  string
	want []string
}{
	{
		name: "6.5 start runs White; presses before start, by the wrong side and while paused are ignored",
		log: `control 60
0 press white
0 press black
0 show
1000 start
2000 press black
3000 show
3000 pause
4000 press white
5000 show
5000 resume
6000 show`,
		want: []string{
			"0 none w=60000/0/1 b=60000/0/1",
			"3000 white w=58000/0/1 b=60000/0/1",
			"5000 none paused w=58000/0/1 b=60000/0/1",
			"6000 white w=57000/0/1 b=60000/0/1",
		},
	},
	{
		name: "a press completes a move and starts the other clock",
		log: `control 60
0 start
4000 press white
4000 show
10000 press black
12000 show`,
		want: []string{
			"4000 black w=56000/1/1 b=60000/0/1",
			"12000 white w=54000/1/1 b=54000/1/1",
		},
	},
	{
		name: "Fischer: first increment before the game (90+30 shows 1:30:30), then one per move",
		log: `control 5400+30
0 show
0 start
10000 press white
10000 show`,
		want: []string{
			"0 none w=5430000/0/1 b=5430000/0/1",
			"10000 black w=5450000/1/1 b=5430000/0/1",
		},
	},
	{
		name: "Fischer without first increment",
		log: `control 5400+30
option first-increment off
0 show
0 start
10000 press white
10000 show`,
		want: []string{
			"0 none w=5400000/0/1 b=5400000/0/1",
			"10000 black w=5420000/1/1 b=5400000/0/1",
		},
	},
	{
		name: "simple delay: the first 5 s of a turn do not count; a pause does not restart it",
		log: `control 60d5
0 start
3000 press white
11000 press black
13000 pause
20000 resume
22000 show
24000 show`,
		want: []string{
			"22000 white w=60000/1/1 b=57000/1/1",
			"24000 white w=59000/1/1 b=57000/1/1",
		},
	},
	{
		name: "Bronstein: time runs at once; at the press the time used comes back, at most the delay",
		log: `control 60b5
0 start
2000 show
3000 press white
11000 press black
12000 show`,
		want: []string{
			"2000 white w=58000/0/1 b=60000/0/1",
			"12000 white w=59000/1/1 b=57000/1/1",
		},
	},
	{
		name: "hourglass: what one side uses the other gains",
		log: `control *60
0 start
10000 show
10000 press white
13000 show`,
		want: []string{
			"10000 white w=50000/0/1 b=70000/0/1",
			"13000 black w=53000/1/1 b=67000/0/1",
		},
	},
	{
		name: "6.3 the flag falls at the exact instant; a press at that instant is too late; freeze keeps both",
		log: `control 60
0 start
59999 show
60000 press white
60000 show
70000 press black
70000 resume
80000 show`,
		want: []string{
			"59999 white w=1/0/1 b=60000/0/1",
			"60000 none stopped first=white w=0/0/1/flag b=60000/0/1",
			"80000 none stopped first=white w=0/0/1/flag b=60000/0/1",
		},
	},
	{
		name: "period on flag: time of a quota period runs out, next period added, overstep when short",
		log: `control 2/10:5
0 start
4000 press white
5000 press black
11000 show
12000 press white
12000 show
21000 show`,
		want: []string{
			"11000 white w=5000/1/2/over b=9000/1/1",
			"12000 black w=4000/2/2/over b=9000/1/1",
			"21000 black w=4000/2/2/over b=5000/1/2/over",
		},
	},
	{
		name: "period on flag: quota made in time, no overstep; the increment is the period's at the press",
		log: `control 2/10+1:5+3
option first-increment off
0 start
1000 press white
1000 press black
2000 press white
2000 show
2000 press black
11999 show
12000 show
13000 press white
13000 show`,
		want: []string{
			"2000 black w=10000/2/1 b=11000/1/1",
			"11999 white w=1/2/1 b=12000/2/1",
			"12000 white w=5000/2/2 b=12000/2/1",
			"13000 black w=7000/3/2 b=12000/2/1",
		},
	},
	{
		name: "period on moves: the press completing the quota adds the next period; any time out is a flag",
		log: `option period-trigger moves
control 2/10:5
0 start
4000 press white
5000 press black
6000 press white
6000 show
15000 show`,
		want: []string{
			"6000 black w=10000/2/2 b=9000/1/1",
			"15000 none stopped first=black w=10000/2/2 b=0/1/1/flag",
		},
	},
	{
		name: "a last period with a quota repeats, period numbers count on",
		log: `option period-trigger moves
control 1/10:1/5
0 start
1000 press white
1000 show
1000 press black
2000 press white
2000 show
2000 press black
3000 press white
3000 show`,
		want: []string{
			"1000 black w=14000/1/2 b=10000/0/1",
			"2000 black w=18000/2/3 b=15000/1/2",
			"3000 black w=22000/3/4 b=20000/2/3",
		},
	},
	{
		name: "after-flag continue: the flagged side stays at 0, play goes on, the other flag can fall, first flag kept",
		log: `option after-flag continue
control 10
0 start
10000 show
10000 press white
15000 show
20000 show
25000 press black
25000 show`,
		want: []string{
			"10000 white first=white w=0/0/1/flag b=10000/0/1",
			"15000 black first=white w=0/1/1/flag b=5000/0/1",
			"20000 black first=white w=0/1/1/flag b=0/0/1/flag",
			"25000 white first=white w=0/1/1/flag b=0/1/1/flag",
		},
	},
	{
		name: "after-flag continue with Fischer: no increment for the flagged side",
		log: `option after-flag continue
control 10+5
0 start
15000 press white
15000 show`,
		want: []string{
			"15000 black first=white w=0/1/1/flag b=15000/0/1",
		},
	},
	{
		name: "hourglass with continue: a flagged clock no longer runs, so its opponent gains nothing",
		log: `option after-flag continue
control *10
0 start
12000 show
12000 press white
15000 show`,
		want: []string{
			"12000 white first=white w=0/0/1/flag b=20000/0/1",
			"15000 black first=white w=0/1/1/flag b=17000/0/1",
		},
	},
	{
		name: "6.12 pause and resume: paused time counts for nobody; nothing before start or after the flag",
		log: `control 60
0 pause
0 resume
0 start
10000 pause
10000 pause
50000 show
50000 resume
50000 resume
55000 show`,
		want: []string{
			"50000 none paused w=50000/0/1 b=60000/0/1",
			"55000 white w=45000/0/1 b=60000/0/1",
		},
	},
	{
		name: "6.13 corrections only while paused: set, add +2:00, moves, period, side to move",
		log: `control 40/5400:1800
0 start
1000 set white 5000
1000 pause
1000 set white 200000
1000 add black +120000
1000 moves white 41
1000 period white 2
1000 turn black
1000 show
2000 resume
3000 show`,
		want: []string{
			"1000 none paused w=200000/41/2 b=5520000/0/1",
			"3000 black w=200000/41/2 b=5519000/0/1",
		},
	},
	{
		name: "turn before the start: the chosen side's clock starts",
		log: `control 60
0 turn black
1000 start
3000 show`,
		want: []string{"3000 black w=60000/0/1 b=58000/0/1"},
	},
	{
		name: "byo-yomi: main time, then periods renewed by each move; the last one out is the flag",
		log: `control 10~3x5
0 start
10000 show
13000 press white
14000 press black
20000 show
29000 show`,
		want: []string{
			"10000 white w=5000/0/1 b=10000/0/1",
			"20000 white w=4000/1/1 b=9000/1/1",
			"29000 none stopped first=white w=0/1/1/flag b=9000/1/1",
		},
	},
	{
		name: "Canadian: M moves in T, renewed when the block is done",
		log: `control 10~2/5
0 start
11000 press white
11000 show
12000 press black
13000 press white
13000 show`,
		want: []string{
			"11000 black w=4000/1/1 b=10000/0/1",
			"13000 black w=5000/2/1 b=9000/1/1",
		},
	},
	{
		name: "count-up: each clock counts its own time; no flag",
		log: `control ^
0 start
5000 press white
7000 show
100000000 show`,
		want: []string{
			"7000 black w=5000/1/1 b=2000/0/1",
			"100000000 black w=5000/1/1 b=99995000/0/1",
		},
	},
	{
		name: "Armageddon: different controls per side",
		log: `control white 300
control black 240
0 show`,
		want: []string{"0 none w=300000/0/1 b=240000/0/1"},
	},
	{
		name: "events at the same instant apply in file order",
		log: `control 60
0 start
1000 press white
1000 press black
1000 press white
1000 show`,
		want: []string{"1000 black w=59000/2/1 b=60000/1/1"},
	},
}

func TestRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			got := shows(t, tc.log)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d shows, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("show %d:\n got %s\nwant %s", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}
