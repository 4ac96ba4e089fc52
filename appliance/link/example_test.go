package link_test

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
)

// A viewer runs the clock on from the last state message: here Black's
// clock, with a simple delay of 5 s, 3.2 s after the state.
func ExampleClockState_Shown() {
	st, err := link.ParseState([]byte(`{"running":"black",
		"white":{"ms":300000,"mode":"delay"},
		"black":{"ms":61000,"mode":"delay","delay_ms":2000}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	w, b := st.Shown(3200 * time.Millisecond)
	fmt.Println(w, b)
	// Output: 300000 59800
}

func ExampleTopicsFor() {
	t := link.TopicsFor("spring-open", 12)
	fmt.Println(t.State)
	fmt.Println(t.All)
	// Output:
	// zeitnot/v1/spring-open/board/12/state
	// zeitnot/v1/spring-open/all/cmd
}
