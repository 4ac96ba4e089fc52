package main

import "testing"

func TestRebootFlagsSent(t *testing.T) {
	const boot = "bcm2835_mbox_property mbox property tag:0x00030043 in_sz:20 out_sz:0\n" +
		"bcm2835_mbox_property mbox property tag:0x00028001 in_sz:8 out_sz:8\n"
	tests := []struct {
		name  string
		trace string
		want  bool
	}{
		{"flags then notify", boot + "bcm2835_mbox_property mbox property tag:0x00038064 in_sz:4 out_sz:0\n" +
			"bcm2835_mbox_property mbox property tag:0x00030048 in_sz:0 out_sz:0\n", true},
		{"flags, no notify", boot + "bcm2835_mbox_property mbox property tag:0x00038064 in_sz:4 out_sz:0\n", true},
		{"notify first", boot + "bcm2835_mbox_property mbox property tag:0x00030048 in_sz:0 out_sz:0\n" +
			"bcm2835_mbox_property mbox property tag:0x00038064 in_sz:4 out_sz:0\n", false},
		{"no flags", boot + "bcm2835_mbox_property mbox property tag:0x00030048 in_sz:0 out_sz:0\n", false},
		{"flags without a value", boot + "bcm2835_mbox_property mbox property tag:0x00038064 in_sz:0 out_sz:0\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got, detail := rebootFlagsSent(tt.trace); got != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got, detail, tt.want)
		}
	}
	if ok, detail := rebootFlagsSent(boot); ok || detail != "2 tags traced; SET_REBOOT_FLAGS at -1 ( bytes), NOTIFY_REBOOT at -1" {
		t.Errorf("detail %q", detail)
	}
}
