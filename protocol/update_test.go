package protocol

import (
	"strings"
	"testing"
)

func TestUpdateOfferCheck(t *testing.T) {
	hash := strings.Repeat("0a", 32)
	ok := UpdateOffer{Source: UpdateFromUSB, File: "zeitnot-1.4.0-arm64.raucb", SHA256: hash, Size: 1 << 20}
	if err := ok.Check(); err != nil {
		t.Fatalf("a good offer: %v", err)
	}
	hall := ok
	hall.Source, hall.Auto = UpdateFromHall, true
	if err := hall.Check(); err != nil {
		t.Fatalf("the hall's auto offer: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*UpdateOffer)
		want string
	}{
		{"unknown source", func(o *UpdateOffer) { o.Source = "lan" }, "source"},
		{"auto from a stick", func(o *UpdateOffer) { o.Auto = true }, "auto"},
		{"empty", func(o *UpdateOffer) { o.Size = 0 }, "size"},
		{"too big", func(o *UpdateOffer) { o.Size = MaxBundle + 1 }, "size"},
		{"short hash", func(o *UpdateOffer) { o.SHA256 = hash[:62] }, "sha256"},
		{"upper-case hash", func(o *UpdateOffer) { o.SHA256 = strings.ToUpper(hash) }, "sha256"},
		{"a path", func(o *UpdateOffer) { o.File = "../etc/zeitnot.raucb" }, "not a path"},
		{"absolute", func(o *UpdateOffer) { o.File = "/tmp/x.raucb" }, "not a path"},
		{"hidden", func(o *UpdateOffer) { o.File = ".x.raucb" }, "not a path"},
		{"not a bundle", func(o *UpdateOffer) { o.File = "zeitnot.img" }, ".raucb"},
		{"a space", func(o *UpdateOffer) { o.File = "a b.raucb" }, "letters"},
		{"too long", func(o *UpdateOffer) { o.File = strings.Repeat("a", 60) + ".raucb" }, "64"},
	} {
		o := ok
		c.edit(&o)
		err := o.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestParseUpdateReport(t *testing.T) {
	good := `{"file":"zeitnot-1.4.0-arm64.raucb","state":"installing","version":"1.4.0","percent":40}`
	r, err := ParseUpdateReport(good)
	if err != nil || r.Percent != 40 || r.State != UpdateInstalling {
		t.Fatalf("a good report: %+v, %v", r, err)
	}
	for _, c := range []struct{ arg, want string }{
		{`{"file":"a.raucb","state":"done"}`, "state"},
		{`{"file":"a.raucb","state":"installing","percent":101}`, "percent"},
		{`{"file":"a.raucb","state":"refused","message":"two\nlines"}`, "message"},
		{`{"file":"a.raucb","state":"refused","message":"` + strings.Repeat("x", MaxUpdateMessage+1) + `"}`, "message"},
		{`{"file":"../a.raucb","state":"failed"}`, "not a path"},
		{`{"file":"a.raucb","state":"failed","extra":1}`, "unknown field"},
		{`{"file":"a.raucb","state":"failed"} {}`, "more after"},
		{`not json`, "bad JSON"},
	} {
		if _, err := ParseUpdateReport(c.arg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.arg, err, c.want)
		}
	}
}

func TestParseUpdateOffer(t *testing.T) {
	o, err := ParseUpdateOffer(`{"source":"usb","file":"a.raucb","sha256":"` + strings.Repeat("0a", 32) + `","size":10}`)
	if err != nil || o.Size != 10 {
		t.Fatalf("a good offer: %+v, %v", o, err)
	}
	if _, err := ParseUpdateOffer(`{"source":"usb","file":"a.raucb","size":10}`); err == nil {
		t.Error("an offer without a hash was taken")
	}
}

func FuzzParseUpdateReport(f *testing.F) {
	f.Add(`{"file":"zeitnot-1.4.0-arm64.raucb","state":"installing","version":"1.4.0","percent":40}`)
	f.Add(`{"file":"a.raucb","state":"refused","message":"signature"}`)
	f.Add(`{"source":"usb","file":"a.raucb","sha256":"` + strings.Repeat("0a", 32) + `","size":10}`)
	f.Fuzz(func(t *testing.T, arg string) {
		if r, err := ParseUpdateReport(arg); err == nil {
			if r.Check() != nil || strings.ContainsAny(r.Message+r.Version, "\n\r") {
				t.Fatalf("taken but bad: %+v", r)
			}
		}
		if o, err := ParseUpdateOffer(arg); err == nil && o.Check() != nil {
			t.Fatalf("offer taken but bad: %+v", o)
		}
	})
}

func TestParseUpdateRequest(t *testing.T) {
	hash := strings.Repeat("0a", 32)
	if _, err := ParseUpdateRequest([]byte(`{"op":"install","file":"a.raucb","sha256":"` + hash + `","size":10}`)); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{
		`{"op":"format","file":"a.raucb","sha256":"` + hash + `","size":10}`,
		`{"op":"check","file":"/dev/sda","sha256":"` + hash + `","size":10}`,
		`{"op":"check","file":"a.raucb","sha256":"` + hash + `","size":0}`,
	} {
		if _, err := ParseUpdateRequest([]byte(arg)); err == nil {
			t.Errorf("%s: taken", arg)
		}
	}
}
