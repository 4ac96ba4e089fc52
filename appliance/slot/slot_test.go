package slot

import (
	"strings"
	"testing"
)

func TestMarshalParseRoundTrip(t *testing.T) {
	for _, s := range []State{Initial, {Primary: A}, {Primary: B}, {Primary: B, Bad: A}} {
		data := s.Marshal()
		if len(data) > MaxSize {
			t.Errorf("%+v: %d bytes, over the firmware's %d", s, len(data), MaxSize)
		}
		got, err := Parse(data)
		if err != nil || got != s {
			t.Errorf("Parse(Marshal(%+v)) = %+v, %v\n%s", s, got, err, data)
		}
	}
}

// The firmware documentation's own example (partitions 2 and 3) parses.
func TestParseDocumentedExample(t *testing.T) {
	s, err := Parse([]byte("[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"))
	if err != nil || s != (State{Primary: B}) {
		t.Fatalf("got %+v, %v", s, err)
	}
	if s.Firmware(false) != B || s.Firmware(true) != A {
		t.Errorf("firmware choice: normal %s, tryboot %s", s.Firmware(false), s.Firmware(true))
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[all]\nboot_partition=2\n[tryboot]\nboot_partition=3\n", "no tryboot_a_b=1"},
		{"[all]\ntryboot_a_b=1\nboot_partition=4\n[tryboot]\nboot_partition=3\n", "[all] boot_partition=4"},
		{"[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=2\n", "not the other slot's (3)"},
		{"[all]\ntryboot_a_b=1\nboot_partition=2\n", "[tryboot] boot_partition=0"},
		{"[pi4]\n", "autoboot.txt:1: filter [pi4]"},
		{"[all]\nboot_partition=x\n", "autoboot.txt:2: boot_partition=x"},
		{"[all]\nkernel=k\n", `autoboot.txt:2: unknown key "kernel"`},
		{"[all]\njunk\n", `autoboot.txt:2: "junk" is not key=value`},
		{"# zeitnot-bad=C\n", "autoboot.txt:1: slot: \"C\""},
		{strings.Repeat("#", MaxSize+1), "more than the firmware's 512"},
	} {
		_, err := Parse([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", c.text, err, c.want)
		}
	}
}

// An update's life: RAUC marks the target bad, writes it, marks it good
// and sets it primary while A runs; the tryboot reboot starts B; B's
// mark-good commits it. A trial that fails leaves A primary.
func TestUpdateSequence(t *testing.T) {
	step := func(s State, err error) State {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := Initial
	s = step(s.SetState(B, false, A))
	if s.Primary != A || s.GetState(B) != "bad" {
		t.Fatalf("after mark bad before writing: %+v", s)
	}
	// RAUC marks the written slot active with set-primary alone.
	s = step(s.SetPrimary(B))
	if s.Bad != "" {
		t.Fatalf("set-primary left the installed slot bad: %+v", s)
	}
	if s.Primary != A || s.Firmware(false) != A || s.Firmware(true) != B {
		t.Fatalf("installed, before the reboot: %+v", s)
	}
	if !s.Trial(B) || s.Trial(A) {
		t.Error("a boot of B before the commit is not a trial")
	}
	// A power cut in the trial: the flag is gone, the firmware boots A.
	if s.Firmware(false) != A {
		t.Fatal("after a power cut in the trial the firmware would not boot A")
	}
	committed := step(s.SetState(B, true, B))
	if committed.Primary != B || committed.Bad != "" || committed.Firmware(false) != B || committed.Firmware(true) != A {
		t.Fatalf("after the commit: %+v", committed)
	}
	// A failed trial: the guard marks B bad in B and reboots into A.
	failed := step(s.SetState(B, false, B))
	if failed.Primary != A || failed.GetState(B) != "bad" || failed.GetState(A) != "good" {
		t.Fatalf("after a failed trial: %+v", failed)
	}
	// A mark-good of A in A changes nothing.
	if again := step(failed.SetState(A, true, A)); again != failed {
		t.Errorf("mark-good of the primary changed %+v to %+v", failed, again)
	}
}

func TestSetPrimaryBadRefusesLastGood(t *testing.T) {
	if _, err := (State{Primary: A, Bad: B}).SetState(A, false, A); err == nil {
		t.Error("both slots marked bad")
	}
	s, err := (State{Primary: A}).SetState(A, false, A)
	if err != nil || s.Primary != B || s.Bad != A {
		t.Errorf("mark-bad of the primary: %+v, %v", s, err)
	}
}

func TestBooted(t *testing.T) {
	for _, c := range []struct {
		cmdline string
		want    Name
		ok      bool
	}{
		{"console=ttyS1 root=PARTUUID=5a4e5431-05 rauc.slot=A ro", A, true},
		{"rauc.slot=B", B, true},
		{"root=/dev/vda5 ro", "", false},
		{"rauc.slot=C", "", false},
	} {
		got, err := Booted(c.cmdline)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("Booted(%q) = %q, %v", c.cmdline, got, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(Initial.Marshal())
	f.Add([]byte("[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(s.Marshal())
		if err != nil || again != s {
			t.Fatalf("%q parsed as %+v, which re-reads as %+v, %v", data, s, again, err)
		}
	})
}
