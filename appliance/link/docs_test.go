package link

import (
	"os"
	"strings"
	"testing"
)

// TestProtocolDocumented: docs/hall-protocol.md names every command, every
// field of each, the limits, and the topics, as this package has them.
func TestProtocolDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/hall-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, s := range cmdSpecs {
		i := strings.Index(doc, "| `"+s.name+"` |")
		if i < 0 {
			t.Errorf("command %s has no row in the table", s.name)
			continue
		}
		row := doc[i : i+strings.Index(doc[i:], "\n")]
		for _, f := range append(append([]string{}, s.required...), s.optional...) {
			if !strings.Contains(row, "`"+f+"`") {
				t.Errorf("command %s: field %s not in its row", s.name, f)
			}
		}
		all := "| yes |"
		if !s.all {
			all = "| no |"
		}
		if !strings.Contains(row, all) {
			t.Errorf("command %s: the row does not say %q for all/cmd", s.name, all)
		}
	}
	tp := TopicsFor("{hall}", 0)
	for _, want := range []string{
		"at most 1024 bytes", "at most 64 characters", "at most 100 bytes", "at most 511 bytes",
		"at most 256 lines and 64 KiB", "5 commands at once, then 1 a second", "every 10 s",
		strings.TrimPrefix(tp.All, ""), "client id `zeitnot-{hall}-{board}`", "`" + ProgressFile + "`",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the protocol does not say %q", want)
		}
	}
	for _, topic := range []string{tp.State, tp.Log, tp.Online, tp.Cmd, tp.Reply} {
		suffix := topic[strings.LastIndex(topic, "/"):]
		if !strings.Contains(doc, "`.../board/{board}"+suffix+"`") {
			t.Errorf("topic %s not in the table", suffix)
		}
	}
	o := DefaultOpts()
	if o.CommandBurst != 5 || o.CommandRate != 1 || o.StateEvery.Seconds() != 10 || o.SaveEvery.Seconds() != 60 ||
		MaxCommand != 1024 || maxName != 64 || MaxLogLines != 256 || MaxLogBytes != 64<<10 || maxRequest != 511 {
		t.Error("a figure changed: change docs/hall-protocol.md and this test")
	}
}
