package protocol_test

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// A viewer runs the clock on from the last state message: here Black's
// clock, with a simple delay of 5 s, 3.2 s after the state.
func ExampleStatus_Shown() {
	st, err := protocol.ParseStatus([]byte(`{"at":0,"running":"black","paused":false,"first_flag":"none","to_move":"black","started":true,"stopped":false,
		"white":{"ms":300000,"moves":0,"period":1,"mode":"delay"},
		"black":{"ms":61000,"moves":0,"period":1,"mode":"delay","delay_ms":2000}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	w, b := st.Shown(3200 * time.Millisecond)
	fmt.Println(w, b)
	// Output: 300000 59800
}

func ExampleTopicsFor() {
	t := protocol.TopicsFor("spring-open", 12)
	fmt.Println(t.State)
	fmt.Println(t.All)
	// Output:
	// zeitnot/v1/spring-open/board/12/state
	// zeitnot/v1/spring-open/all/cmd
}
