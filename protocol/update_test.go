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
