package protocol

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/repocheck"
)

// documented are the types docs/hall-protocol.md gives JSON of.
var documented = []reflect.Type{
	reflect.TypeFor[StateMsg](), reflect.TypeFor[Status](), reflect.TypeFor[Side](),
	reflect.TypeFor[Players](), reflect.TypeFor[RoundStatus](), reflect.TypeFor[BoardStatus](), reflect.TypeFor[LogMsg](),
	reflect.TypeFor[OnlineMsg](), reflect.TypeFor[Reply](), reflect.TypeFor[LogInfo](),
	reflect.TypeFor[LogLines](), reflect.TypeFor[NextGameArg](), reflect.TypeFor[RoundArg](),
	reflect.TypeFor[PlayersArg](), reflect.TypeFor[ResultArg](), reflect.TypeFor[TakeoverArg](), reflect.TypeFor[clocklog.SideClock](),
	reflect.TypeFor[Event](), reflect.TypeFor[EBoardGame](), reflect.TypeFor[EBoardMoveArg](),
	reflect.TypeFor[EBoardPositionArg](), reflect.TypeFor[EBoardStateArg](),
	reflect.TypeFor[UpdateOffer](), reflect.TypeFor[UpdateStatus](), reflect.TypeFor[UpdateReport](), reflect.TypeFor[UpdateRequest](),
}

// fieldsOf maps the JSON names of t's fields (embedded structs flattened)
// to their types, dereferenced. StateMsg's "state" is its Status.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			for k, v := range fieldsOf(f.Type) {
				m[k] = v
			}
			continue
		}
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		m[name] = ft
	}
	if t == reflect.TypeFor[StateMsg]() {
		m["state"] = reflect.TypeFor[Status]()
	}
	return m
}

// docExamples returns the JSON objects of the document: the json blocks
// (lines "..." left out) and the objects in backticks, each with the
// request it is the argument of ("" for none).
func docExamples(t *testing.T, doc string) (objs []map[string]any, reqs []string) {
	block := regexp.MustCompile("(?s)```json\n(.*?)```")
	for _, m := range block.FindAllStringSubmatch(doc, -1) {
		var keep []string
		for _, l := range strings.Split(m[1], "\n") {
			if strings.TrimSpace(l) != "..." {
				keep = append(keep, l)
			}
		}
		dec := json.NewDecoder(strings.NewReader(strings.Join(keep, "\n")))
		for {
			var o map[string]any
			err := dec.Decode(&o)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("a json block of the document does not read: %v\n%s", err, m[1])
				break
			}
			objs, reqs = append(objs, o), append(reqs, "")
		}
	}
	inline := regexp.MustCompile("`((?:next-game|round|players|takeover|result|eboard-move|eboard-position|eboard-state|update-offer|update-report) )?(\\{[^`]*\\})`")
	for _, m := range inline.FindAllStringSubmatch(doc, -1) {
		var o map[string]any
		d := json.NewDecoder(bytes.NewReader([]byte(m[2])))
		if d.Decode(&o) != nil {
			continue // prose like {"broker":...}
		}
		objs, reqs = append(objs, o), append(reqs, strings.TrimSpace(m[1]))
	}
	return objs, reqs
}

// typeOf says which type a documented object is.
func typeOf(o map[string]any, req string) reflect.Type {
	has := func(k string) bool { _, ok := o[k]; return ok }
	switch {
	case req == "next-game":
		return reflect.TypeFor[NextGameArg]()
	case req == "round":
		return reflect.TypeFor[RoundArg]()
	case req == "players":
		return reflect.TypeFor[PlayersArg]()
	case req == "result":
		return reflect.TypeFor[ResultArg]()
	case req == "takeover":
		return reflect.TypeFor[TakeoverArg]()
	case req == "eboard-move":
		return reflect.TypeFor[EBoardMoveArg]()
	case req == "eboard-position":
		return reflect.TypeFor[EBoardPositionArg]()
	case req == "eboard-state":
		return reflect.TypeFor[EBoardStateArg]()
	case req == "update-offer":
		return reflect.TypeFor[UpdateOffer]()
	case req == "update-report":
		return reflect.TypeFor[UpdateReport]()
	case has("op") && has("sha256"):
		return reflect.TypeFor[UpdateRequest]()
	case has("update") && len(o) == 1:
		return reflect.TypeFor[Status]()
	case has("presses") && has("moves"):
		return reflect.TypeFor[EBoardGame]()
	case has("hall") && has("state"):
		return reflect.TypeFor[StateMsg]()
	case has("event"):
		return reflect.TypeFor[Event]()
	case has("seq") && has("line"):
		return reflect.TypeFor[LogMsg]()
	case has("online"):
		return reflect.TypeFor[OnlineMsg]()
	case has("cmd") && has("ok"):
		return reflect.TypeFor[Reply]()
	case has("cmd"):
		return nil // a command: TestCommandsDocumented
	case has("from") && has("lines"):
		return reflect.TypeFor[LogLines]()
	case has("game") && has("lines"):
		return reflect.TypeFor[LogInfo]()
	case has("game") || has("time_source") || has("running"):
		return reflect.TypeFor[Status]()
	}
	return nil
}

// TestDocument holds docs/hall-protocol.md and the types to each other:
// every member of every JSON example is a field of its type, and every
// field of every type is in an example or named in the text.
func TestDocument(t *testing.T) {
	doc := repocheck.Read(t, "docs/hall-protocol.md")
	seen := map[reflect.Type]map[string]bool{}
	var walk func(o map[string]any, typ reflect.Type)
	walk = func(o map[string]any, typ reflect.Type) {
		if seen[typ] == nil {
			seen[typ] = map[string]bool{}
		}
		fs := fieldsOf(typ)
		for k, v := range o {
			ft, ok := fs[k]
			if !ok {
				t.Errorf("the document's %s has %q, which is no field of %s", typ.Name(), k, typ)
				continue
			}
			seen[typ][k] = true
			if sub, ok := v.(map[string]any); ok && ft.Kind() == reflect.Struct {
				walk(sub, ft)
			}
		}
	}
	objs, reqs := docExamples(t, doc)
	for i, o := range objs {
		typ := typeOf(o, reqs[i])
		if typ == nil {
			continue
		}
		walk(o, typ)
		if typ == reflect.TypeFor[StateMsg]() {
			b, _ := json.Marshal(o)
			if _, err := ParseStateMsg(b); err != nil {
				t.Errorf("the document's state message is refused: %v", err)
			}
		}
	}
	for _, typ := range documented {
		for k := range fieldsOf(typ) {
			if !seen[typ][k] && !strings.Contains(doc, "`"+k+"`") {
				t.Errorf("%s's field %q is in no example and not named in docs/hall-protocol.md", typ, k)
			}
		}
		if len(seen[typ]) == 0 {
			t.Errorf("docs/hall-protocol.md has no example of %s", typ)
		}
	}
}

// TestCommandsDocumented: the command table names every command, every
// field of each, and whether it may go to all/cmd; the limits are the
// document's.
func TestCommandsDocumented(t *testing.T) {
	doc := repocheck.Read(t, "docs/hall-protocol.md")
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
	flat := strings.Join(strings.Fields(doc), " ")
	for _, want := range []string{
		"at most 1024 bytes", "at most 64 characters", "at most 100 bytes", "at most 511 bytes",
		"at most 256 lines and 64 KiB", "at most 16 KiB", "at most 1024 bytes",
		tp.All, "client id `zeitnot-{hall}-{board}`", "`seq` from 1", "1 to 9999",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the protocol does not say %q", want)
		}
	}
	for _, topic := range []string{tp.State, tp.Log, tp.Online, tp.Cmd, tp.Reply} {
		suffix := topic[strings.LastIndex(topic, "/"):]
		if !strings.Contains(doc, "`.../board/{board}"+suffix+"`") {
			t.Errorf("topic %s not in the table", suffix)
		}
	}
	if MaxCommand != 1024 || MaxName != 64 || MaxControl != 100 || MaxLogLines != 256 || MaxLogBytes != 64<<10 ||
		MaxRequest != 511 || MaxMessage != 16<<10 || MaxLine != 1024 || MaxBoard != 9999 {
		t.Error("a figure changed: change docs/hall-protocol.md and this test")
	}
}

// TestEventNamesDocumented: every event name of the watch stream is named
// in docs/hall-protocol.md, once in EventNames.
func TestEventNamesDocumented(t *testing.T) {
	doc := repocheck.Read(t, "docs/hall-protocol.md")
	seen := map[string]bool{}
	for _, n := range EventNames {
		if seen[n] {
			t.Errorf("event %q twice in EventNames", n)
		}
		seen[n] = true
		if !strings.Contains(doc, "`"+n+"`") {
			t.Errorf("event %q is not named in docs/hall-protocol.md", n)
		}
	}
}
