package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/hall/trf"
)

// The round PGN's player tags come from the TRF: rating, FIDE id, title
// (a TRF title code as PGN writes it), each only where the file has it.
func TestPlayerTags(t *testing.T) {
	var b strings.Builder
	b.WriteString("012 Tags\n062 2\nXXR 1\n")
	fmt.Fprintf(&b, "001 %4d m%-3s %-33s %4d GER %11s 1990/01/01 %4s %4d  %4d %c  \n", 1, "g", "Meier, Jürgen", 2512, "4600001", "0.0", 1, 2, 'w')
	fmt.Fprintf(&b, "001 %4d w%-3s %-33s %4d GER %11s 1990/01/01 %4s %4d  %4d %c  \n", 2, "", "Søren, Kierk", 0, "", "0.0", 2, 1, 'b')
	tr, err := trf.Parse("tags.trf", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	got := playerTags(tr, 1, 2)
	want := [][2]string{{"WhiteElo", "2512"}, {"WhiteFideId", "4600001"}, {"WhiteTitle", "GM"}}
	if !slices.Equal(got, want) {
		t.Errorf("tags %v, want %v", got, want)
	}
}
