package timecontrol

import "testing"

func TestHuman(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"40/5400+30:1800+30", `90/40+30'+30"`},
		{"40/7200:20/3600:900+30", `120/40+60/20+15'+30"`},
		{"40/7200:20/3600", `120/40+60/20`},
		{"900+10", `15'+10"`},
		{"180+2", `3'+2"`},
		{"60", `1'`},
		{"90+0", `1'30"`},
		{"5400d5", `90' d5"`},
		{"40/7200d5:1800d5", `120/40+30' d5"`},
		{"1500b5", `25' b5"`},
		{"3600~5x30", `60'+5x30"`},
		{"1800~20/300", `30'+20/5'`},
		{"*60", `hourglass 1'`},
		{"^", `count-up`},
		{"300|240", `5'|4'`},
		{"300+2|240+2", `5'+2"|4'+2"`},
		{"45", `45"`},
	} {
		p, err := ParsePair(c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if got := HumanPair(p); got != c.want {
			t.Errorf("HumanPair(%s) = %s, want %s", c.spec, got, c.want)
		}
	}
}
