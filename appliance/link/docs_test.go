package link

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
)

// TestLinkDocumented: docs/hall-protocol.md gives the link's own figures
// (protocol's TestDocument holds the messages to the document).
func TestLinkDocumented(t *testing.T) {
	doc := strings.Join(strings.Fields(repocheck.Read(t, "docs/hall-protocol.md")), " ")
	for _, want := range []string{
		"5 commands at once, then 1 a second", "every 10 s", "`" + ProgressFile + "`", "written at most once a minute",
		"(`" + KeyFile + "`, mode 0600",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the protocol does not say %q", want)
		}
	}
	o := DefaultOpts()
	if o.CommandBurst != 5 || o.CommandRate != 1 || o.StateEvery.Seconds() != 10 || o.SaveEvery.Seconds() != 60 {
		t.Error("a figure changed: change docs/hall-protocol.md and this test")
	}
}
