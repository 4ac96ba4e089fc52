package trf_test

import (
	"fmt"
	"os"

	"github.com/zeitnot/zeitnot/hall/trf"
)

// A round read from a TRF, a result entered, and the points that follow.
func Example() {
	data, _ := os.ReadFile("testdata/open16.trf")
	t, err := trf.Parse("open16.trf", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	boards, _ := t.Round(4)
	for i, b := range boards {
		w, _ := t.Player(b.White)
		bl, _ := t.Player(b.Black)
		fmt.Printf("board %d: %s - %s\n", i+1, w.Name, bl.Name)
	}
	t.SetResult(4, boards[0].White, boards[0].Black, "1-0")
	w, _ := t.Player(boards[0].White)
	fmt.Println(w.Name, w.Points)
	// Output:
	// board 1: Meier, Jürgen - Dupont, Émile
	// board 2: Novák, Tomáš - Nguyễn, Văn An
	// board 3: Łukasiewicz, Zofia - Yılmaz, Ayşe
	// board 4: Schmidt, Anna - O'Brien, Seán
	// Meier, Jürgen 3.5
}
