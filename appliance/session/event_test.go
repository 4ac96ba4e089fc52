package session

import (
	"slices"
	"testing"

	"github.com/zeitnot/zeitnot/protocol"
)

// TestKindNamesAreProtocols: every kind of event the session emits has
// its name in protocol.EventNames, and every name there a kind.
func TestKindNamesAreProtocols(t *testing.T) {
	var names []string
	for k := Started; k <= BoardChanged; k++ {
		if !slices.Contains(protocol.EventNames, k.String()) {
			t.Errorf("kind %d %q is not one of protocol.EventNames", k, k)
		}
		names = append(names, k.String())
	}
	for _, n := range protocol.EventNames {
		if !slices.Contains(names, n) {
			t.Errorf("protocol.EventNames has %q, which no kind is", n)
		}
	}
}
