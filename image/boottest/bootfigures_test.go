package main

import (
	"reflect"
	"testing"
	"time"
)

// A critical chain as systemd-analyze prints it (systemd 257).
const sampleChain = `The time when unit became active or started is printed after the "@" character.
The time the unit took to start is printed after the "+" character.

zeitnot.service +2.815s
└─basic.target @29.502s
  └─sockets.target @29.497s
    └─systemd-hostnamed.socket @29.480s
      └─sysinit.target @29.301s
        └─zeitnot-network.service @28.101s +1.190s
          └─zeitnot-import.service @27.201s +893ms
            └─local-fs.target @27.180s
              └─data.mount @26.911s +260ms
                └─systemd-fsck@dev-disk-by\x2dpartuuid-5a4e5431\x2d03.service @25.711s +1.190s
                  └─dev-disk-by\x2dpartuuid-5a4e5431\x2d03.device @25.700s`

func TestChainHelpers(t *testing.T) {
	for _, c := range []struct {
		chain string
		want  []string
	}{
		{sampleChain, []string{"zeitnot-network.service"}},
		// Coloured, as systemd-analyze prints the slow ones.
		{"\x1b[0;1;31mzeitnot.service +2.470s\x1b[0m\n└─\x1b[0;1;31msystemd-resolved.service @48.212s +2.465s\x1b[0m", []string{"systemd-resolved.service"}},
		{"zeitnot.service +1s\n└─network-online.target @9s\n  └─network.target @8s\n    └─systemd-networkd.service @7s +1s", []string{"network-online.target", "network.target", "systemd-networkd.service"}},
		{"zeitnot.service +1s\n└─time-sync.target @9s\n  └─systemd-timesyncd.service @7s +1s", []string{"time-sync.target", "systemd-timesyncd.service"}},
		{"zeitnot.service +1s\n└─zeitnot-usb@sda1.service @9s\n  └─zeitnot-link.service @7s", []string{"zeitnot-usb@sda1.service", "zeitnot-link.service"}},
		// The clock's own needs are no helpers.
		{"zeitnot.service +1s\n└─zeitnot-import.service @9s +1s\n  └─var-lib-zeitnot.mount @8s\n    └─systemd-udev-trigger.service @3s +2s", nil},
		// Not the network: names that only begin like a helper's.
		{"zeitnot.service +1s\n└─networkless.service @9s\n  └─zeitnot-linker.service @8s", nil},
	} {
		if got := chainHelpers(c.chain); !reflect.DeepEqual(got, c.want) {
			t.Errorf("chainHelpers(%q) = %q, want %q", c.chain, got, c.want)
		}
	}
}

func TestParseBootFigures(t *testing.T) {
	out := "Startup finished in 3.012s (kernel) + 6.500s (userspace) = 9.512s\n@@\n" +
		"8123456\n@@\n" +
		"first frame at 7.900001 s after boot: the name \"zeitnot-7a3f\"\n@@\n" +
		sampleChain + "\n@@\n" +
		"2.815s zeitnot.service\n1.190s zeitnot-network.service\n@@\n" +
		"systemd-journald.service zeitnot.service\n@@\n[    3.1] zeitnot[211]: udev's queue empty after 0.52 s"
	f, err := parseBootFigures(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.ready != 8123456*time.Microsecond || f.firstFrame != 7900001*time.Microsecond || f.frameWhat != `the name "zeitnot-7a3f"` {
		t.Errorf("ready %v, first frame %v %q", f.ready, f.firstFrame, f.frameWhat)
	}
	if f.analyze != "Startup finished in 3.012s (kernel) + 6.500s (userspace) = 9.512s" || f.chain != sampleChain || f.blame == "" ||
		f.services != "systemd-journald.service zeitnot.service" {
		t.Errorf("analyze %q, chain %q, blame %q, services %q", f.analyze, f.chain, f.blame, f.services)
	}

	// An image whose daemon logs no first frame: the figure is unknown.
	f, err = parseBootFigures("x\n@@\n8123456\n@@\n@@\nchain\n@@\nblame\n@@\nunits\n@@\njournal")
	if err != nil || f.firstFrame != 0 || f.ready == 0 {
		t.Errorf("without a first frame line: %+v, %v", f, err)
	}
	for _, bad := range []string{
		"",
		"x\n@@\n0\n@@\n@@\nchain\n@@\nblame\n@@\nunits\n@@\njournal", // the unit never became active
		"x\n@@\n\n@@\n@@\nchain\n@@\nblame\n@@\nunits\n@@\njournal",  // no instant
		"x\n@@\n81\n@@\nfirst frame at soon\n@@\nchain\n@@\nblame\n@@\nunits\n@@\njournal",
		"x\n@@\n81\n@@\nchain\n@@\nblame\n@@\nunits\n@@\njournal", // a section missing
	} {
		if _, err := parseBootFigures(bad); err == nil {
			t.Errorf("parseBootFigures(%q): no error", bad)
		}
	}
}

func TestOpenResults(t *testing.T) {
	out := "unit: active pid 412 /sys/fs/cgroup/system.slice/zeitnot-eboard.service\n" +
		"/dev/null outside: opened\n/dev/null inside: opened\n" +
		"/dev/ttyAMA0 outside: opened\n/dev/ttyAMA0 inside: Operation not permitted\n" +
		"/dev/ptmx outside: opened\n"
	outside, inside := openResults(out)
	if want := map[string]string{"/dev/null": "opened", "/dev/ttyAMA0": "opened", "/dev/ptmx": "opened"}; !reflect.DeepEqual(outside, want) {
		t.Errorf("outside %v, want %v", outside, want)
	}
	if want := map[string]string{"/dev/null": "opened", "/dev/ttyAMA0": "Operation not permitted"}; !reflect.DeepEqual(inside, want) {
		t.Errorf("inside %v, want %v", inside, want)
	}
}
