package button_test

import (
	"fmt"
	"log"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

func Example() {
	// The two player levers and the menu buttons, in the order events of
	// the same instant are reported.
	src, err := button.Open([]button.Line{
		{Name: "left", Line: "GPIO17"},
		{Name: "right", Line: "GPIO27"},
		{Name: "pause", Line: "GPIO22"},
		{Name: "plus", Line: "GPIO23"},
		{Name: "minus", Line: "GPIO24"},
		{Name: "ok", Line: "GPIO25"},
	}, &button.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	for e := range src.Events() {
		fmt.Printf("%s %s at %v\n", e.Button, e.Kind, e.At)
	}
}

func ExampleDebouncer() {
	d := button.NewDebouncer([]string{"left"}, &button.DefaultOpts)
	ms := time.Millisecond
	// A lever closes at 100 ms and bounces for 6 ms.
	d.Edge(0, true, 100*ms)
	d.Edge(0, false, 101*ms)
	d.Edge(0, true, 103*ms)
	d.Edge(0, false, 104*ms)
	d.Edge(0, true, 106*ms)
	evs, next := d.Advance(106*ms, nil)
	fmt.Println(len(evs), "events, call again at", next)
	evs, next = d.Advance(next, nil)
	fmt.Println(evs[0].Button, evs[0].Kind, "at", evs[0].At, "; hold due at", next)
	// Output:
	// 0 events, call again at 120ms
	// left press at 100ms ; hold due at 1.6s
}
