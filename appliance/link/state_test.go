package link

import (
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"strings"
	"testing"
)

func TestTakeoverArg(t *testing.T) {
	state := func(running string, started bool, extra string) []byte {
		return []byte(fmt.Sprintf(`{"hall":"club","board":7,"game":"g1","time":1767000000000,"state":{"at":0,"paused":false,"first_flag":"none","stopped":false,"running":%q,"started":%t,"to_move":"white","control":"300+2",`+
			`"white":{"ms":1000,"moves":3,"period":1,"overstep":true,"mode":"fischer"},"black":{"ms":2000,"moves":3,"period":2,"mode":"fischer"}%s}}`, running, started, extra))
	}
	on := &protocol.OnlineMsg{Online: true, Clock: true}
	off := &protocol.OnlineMsg{Online: false}
	tests := []struct {
		payload []byte
		online  *protocol.OnlineMsg
		want    string
	}{
		{state("none", true, ""), on, `{"board":7,"game":"g1","control":"300+2","to_move":"white","white":{"ms":1000,"moves":3,"period":1,"flag":false,"overstep":true},"black":{"ms":2000,"moves":3,"period":2,"flag":false,"overstep":false},"at":1767000000000}`},
		{state("white", true, `,"options":{"after-flag":"continue"}`), off, `{"board":7,"game":"g1","control":"300+2","options":{"after-flag":"continue"},"to_move":"white","white":{"ms":1000,"moves":3,"period":1,"flag":false,"overstep":true},"black":{"ms":2000,"moves":3,"period":2,"flag":false,"overstep":false},"at":1767000000000,"running":"white"}`},
		{state("white", true, ""), nil, `{"board":7,"game":"g1","control":"300+2","to_move":"white","white":{"ms":1000,"moves":3,"period":1,"flag":false,"overstep":true},"black":{"ms":2000,"moves":3,"period":2,"flag":false,"overstep":false},"at":1767000000000,"running":"white"}`},
		{state("white", true, ""), on, "error: board 7's clock is running and online: pause it first"},
		{state("none", false, ""), off, "error: board 7's game has not started: nothing to take over"},
		{state("none", true, `,"options":{"after-flag":"melt"}`), off, `error: board 7's state: options: option after-flag: want freeze or continue, got "melt"`},
		{[]byte(strings.Replace(string(state("none", true, "")), `"control":"300+2"`, `"control":"5 min"`, 1)), off, `error: board 7's state: control "5 min": white: timecontrol: "5 min": column 2: unexpected ' ', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end`},
		{[]byte(strings.Replace(string(state("none", true, "")), `"period":2`, `"period":0`, 1)), off, "error: board 7's state: black: ms 2000, moves 3, period 0 out of range"},
		{[]byte(strings.Replace(string(state("none", true, "")), `"board":7`, `"board":8`, 1)), off, `error: the state on board 7's topic is of hall "club" board 8`},
		{[]byte(`{"hall":"club","board":7,"state":{"running":"sideways"}}`), off, `error: board 7's state message: state: no at`},
		{[]byte(`not json`), off, "error: board 7's state message: want a JSON object"},
	}
	for _, tt := range tests {
		got, err := takeoverArg("club", 7, tt.payload, tt.online)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.payload, got, tt.want)
		}
	}
}
