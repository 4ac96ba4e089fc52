package wiring

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
)

// node is an element of an SVG read back.
type node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []node     `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// text is all the text in n, its children's included.
func (n *node) text() string {
	s := n.Text
	for i := range n.Children {
		s += n.Children[i].text()
	}
	return s
}

// find returns the elements under n whose class is class.
func (n *node) find(class string) []*node {
	var found []*node
	for i := range n.Children {
		c := &n.Children[i]
		if c.attr("class") == class {
			found = append(found, c)
		}
		found = append(found, c.find(class)...)
	}
	return found
}

func readSVG(t *testing.T, w *Wiring) *node {
	t.Helper()
	var buf bytes.Buffer
	if err := w.SVG(&buf); err != nil {
		t.Fatal(err)
	}
	if err := wellFormed(buf.Bytes()); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	var root node
	if err := xml.Unmarshal(buf.Bytes(), &root); err != nil {
		t.Fatal(err)
	}
	if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Fatalf("root element %v", root.XMLName)
	}
	return &root
}

// The diagram shows all 40 header pins, each with its number and name; at
// the pin of every GPIO line the profile uses (by the Pi's pinout, written
// out again in bcmPin) a wire leaves, and it ends at the pin of the device
// that uses the line.
func TestSVGNamesEveryLine(t *testing.T) {
	for _, name := range append(Builds(), "custom") {
		t.Run(name, func(t *testing.T) {
			var w *Wiring
			if name == "custom" {
				var err error
				if w, err = New(parse(t, custom)); err != nil {
					t.Fatal(err)
				}
			} else {
				w = build(t, name)
			}
			root := readSVG(t, w)
			pins := map[int]string{}
			for _, g := range root.find("header-pin") {
				n, _ := strconv.Atoi(strings.TrimPrefix(g.attr("id"), "header-pin-"))
				pins[n] = g.text()
			}
			if len(pins) != 40 {
				t.Fatalf("%d header pins drawn", len(pins))
			}
			for n, text := range pins {
				h := Header[n-1]
				if !strings.HasPrefix(text, strconv.Itoa(n)+h.Name) {
					t.Errorf("header pin %d reads %q, want its number and %s", n, text, h.Name)
				}
			}
			wires := map[int]string{}
			for _, g := range root.find("wire") {
				n, _ := strconv.Atoi(g.attr("data-pin"))
				wires[n] = g.attr("data-ends")
			}
			for line, users := range profileLines(w.Profile) {
				pin := bcmPin[line]
				if !strings.Contains(pins[pin], line) {
					t.Errorf("%s: header pin %d reads %q", line, pin, pins[pin])
				}
				for _, who := range users {
					if !strings.Contains(" "+wires[pin], " "+who+".") {
						t.Errorf("%s of %s: the wire from pin %d goes to %q", line, who, pin, wires[pin])
					}
				}
			}
			// Every device is drawn, with a pin naming its header pin for
			// each wire.
			devices := map[string]*node{}
			for _, g := range root.find("device") {
				devices[strings.TrimPrefix(g.attr("id"), "device-")] = g
			}
			for _, d := range w.Devices {
				g := devices[d.ID]
				if g == nil {
					t.Errorf("no box for %s", d.ID)
					continue
				}
				if !strings.Contains(g.text(), d.Title) {
					t.Errorf("box %s reads %q, no title %q", d.ID, g.text(), d.Title)
				}
				drawn := g.find("device-pin")
				if len(drawn) != len(d.Pins) {
					t.Errorf("box %s: %d pins drawn, want %d", d.ID, len(drawn), len(d.Pins))
				}
				for _, p := range drawn {
					n, _ := strconv.Atoi(p.attr("data-pin"))
					if !strings.Contains(p.text(), "pin "+strconv.Itoa(n)+" · "+Header[n-1].Name) {
						t.Errorf("box %s: pin reads %q", d.ID, p.text())
					}
				}
			}
		})
	}
}

// Text from the profile is escaped: a description with markup in it does
// not break the SVG.
func TestSVGEscapes(t *testing.T) {
	p := parse(t, "description = \"<b> & \\\"quotes\\\" </svg>\"\n[display.both]\ntype = \"ssd1306\"\nbus = \"/dev/i2c-1\"\n[buttons]\nleft = \"GPIO17\"\nright = \"GPIO27\"\n")
	w, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	root := readSVG(t, w)
	if !strings.Contains(root.text(), `<b> & "quotes" </svg>`) {
		t.Errorf("description lost: %q", root.text())
	}
}
