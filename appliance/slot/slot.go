// Package slot keeps the clock's two system slots, A and B, in the
// Raspberry Pi firmware's autoboot.txt, and implements the operations of
// RAUC's custom-bootloader interface on it (get-primary, set-primary,
// get-state, set-state, get-current).
//
// The SD card has a small FAT partition 1 holding autoboot.txt, and each
// slot has its own FAT boot partition (A: 2, B: 3) and ext4 root (A: 5,
// B: 6). The firmware reads autoboot.txt at every boot. Its [all] section
// names the partition to boot; with tryboot_a_b=1 its [tryboot] section
// names the partition to boot instead when the firmware's one-shot tryboot
// flag is set (reboot "0 tryboot"). The firmware clears that flag before it
// starts the system, so a crash, a reset or a power cut in a trial boot
// boots the [all] partition again.
//
// The scheme kept here, in the words of RAUC's interface:
//
//   - the primary slot is the one [all] names; [tryboot] always names the
//     other one, so that a tryboot reboot tries the other slot;
//   - set-primary X for the other slot changes nothing in the firmware's
//     sections: X becomes the firmware's choice only for one tryboot
//     reboot, and only by a commit;
//   - set-state X good while X is booted and is not the primary commits
//     X: it becomes the primary, the slot it replaced the [tryboot] one;
//   - set-state X bad records X as bad (a comment line the firmware
//     ignores); get-state X says bad until X is set good again.
//
// Nothing here touches a disk: Parse reads the file's text and Marshal
// writes it; cmd/zeitnot's `slot` command reads and replaces the file.
package slot

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Name is a slot's RAUC boot name: "A" or "B".
type Name string

const (
	A Name = "A"
	B Name = "B"
)

// Other returns the slot that is not n.
func (n Name) Other() Name {
	if n == A {
		return B
	}
	return A
}

// ParseName reads a boot name as RAUC passes it.
func ParseName(s string) (Name, error) {
	switch Name(s) {
	case A, B:
		return Name(s), nil
	}
	return "", fmt.Errorf("slot: %q is not a slot (A or B)", s)
}

// slotTable is the one place the slots' partitions are named: the boot
// partition the firmware starts and the root the boot files mount.
var slotTable = map[Name]struct{ Boot, Root int }{
	A: {Boot: 2, Root: 5},
	B: {Boot: 3, Root: 6},
}

// BootPartition is the number of n's FAT boot partition.
func (n Name) BootPartition() int { return slotTable[n].Boot }

// RootPartition is the number of n's root partition.
func (n Name) RootPartition() int { return slotTable[n].Root }

// MaxSize is the firmware's limit for autoboot.txt.
const MaxSize = 512

// State is what autoboot.txt says.
type State struct {
	Primary Name // the [all] section's boot_partition
	Bad     Name // the slot recorded bad, or ""
}

// Initial is the state of a new card: A boots, B is empty, so bad.
var Initial = State{Primary: A, Bad: B}

const badPrefix = "# zeitnot-bad="

// Parse reads autoboot.txt. It accepts what Marshal writes, and any file
// with tryboot_a_b=1 whose [all] and [tryboot] sections name one slot's
// boot partition each, different ones; anything else is an error naming
// the line.
func Parse(data []byte) (State, error) {
	var s State
	if len(data) > MaxSize {
		return s, fmt.Errorf("autoboot.txt: %d bytes, more than the firmware's %d", len(data), MaxSize)
	}
	section := "all"
	parts := map[string]int{}
	ab := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, badPrefix); ok {
			bad, err := ParseName(strings.TrimSpace(v))
			if err != nil {
				return s, fmt.Errorf("autoboot.txt:%d: %v", n, err)
			}
			s.Bad = bad
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			switch line {
			case "[all]":
				section = "all"
			case "[tryboot]":
				section = "tryboot"
			default:
				return s, fmt.Errorf("autoboot.txt:%d: filter %s: only [all] and [tryboot] are used", n, line)
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return s, fmt.Errorf("autoboot.txt:%d: %q is not key=value", n, line)
		}
		switch key = strings.TrimSpace(key); key {
		case "tryboot_a_b":
			ab = strings.TrimSpace(val) == "1"
		case "boot_partition":
			p, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return s, fmt.Errorf("autoboot.txt:%d: boot_partition=%s is not a number", n, val)
			}
			parts[section] = p
		default:
			return s, fmt.Errorf("autoboot.txt:%d: unknown key %q", n, key)
		}
	}
	if !ab {
		return s, fmt.Errorf("autoboot.txt: no tryboot_a_b=1: the tryboot flag would not switch slots")
	}
	primary, ok := byBoot(parts["all"])
	if !ok {
		return s, fmt.Errorf("autoboot.txt: [all] boot_partition=%d is no slot's boot partition (A: %d, B: %d)", parts["all"], A.BootPartition(), B.BootPartition())
	}
	if tp, ok := byBoot(parts["tryboot"]); !ok || tp != primary.Other() {
		return s, fmt.Errorf("autoboot.txt: [tryboot] boot_partition=%d is not the other slot's (%d)", parts["tryboot"], primary.Other().BootPartition())
	}
	s.Primary = primary
	return s, nil
}

func byBoot(p int) (Name, bool) {
	for n, t := range slotTable {
		if t.Boot == p {
			return n, true
		}
	}
	return "", false
}

// Marshal writes s as autoboot.txt.
func (s State) Marshal() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The Raspberry Pi firmware's choice of system slot (A: partition %d,\n", A.BootPartition())
	fmt.Fprintf(&b, "# B: %d), written by `zeitnot slot` for RAUC. A tryboot reboot\n", B.BootPartition())
	fmt.Fprintf(&b, "# (reboot \"0 tryboot\") boots the [tryboot] slot once.\n")
	fmt.Fprintf(&b, "[all]\ntryboot_a_b=1\nboot_partition=%d\n", s.Primary.BootPartition())
	fmt.Fprintf(&b, "[tryboot]\nboot_partition=%d\n", s.Primary.Other().BootPartition())
	if s.Bad != "" {
		fmt.Fprintf(&b, "%s%s\n", badPrefix, s.Bad)
	}
	return b.Bytes()
}

// Firmware returns the boot partition the firmware starts with this
// autoboot.txt: the [tryboot] one when the one-shot flag is set, else the
// [all] one. The boot test stands in for the firmware with it.
func (s State) Firmware(tryboot bool) Name {
	if tryboot {
		return s.Primary.Other()
	}
	return s.Primary
}

// GetState is RAUC's get-state: "good" or "bad".
func (s State) GetState(n Name) string {
	if s.Bad == n {
		return "bad"
	}
	return "good"
}

// SetState is RAUC's set-state, with booted the slot running now. Setting
// the booted slot good while it is not the primary commits it (the trial
// boot succeeded). Setting the primary bad makes the other slot primary,
// unless that one is bad too.
func (s State) SetState(n Name, good bool, booted Name) (State, error) {
	if good {
		if s.Bad == n {
			s.Bad = ""
		}
		if n == booted && n != s.Primary {
			s.Primary = n
		}
		return s, nil
	}
	if n == s.Primary {
		if s.Bad == n.Other() {
			return s, fmt.Errorf("slot: %s is the primary and %s is bad: one of them must stay good", n, n.Other())
		}
		s.Primary = n.Other()
	}
	s.Bad = n
	return s, nil
}

// SetPrimary is RAUC's set-primary, called after an installation with the
// slot written (RAUC 1.13 calls it without a set-state good first). The
// firmware sections stay: the installed slot is tried by a tryboot reboot
// and becomes primary only by a commit. Its bad mark goes: it is to be
// tried.
func (s State) SetPrimary(n Name) (State, error) {
	if s.Bad == n {
		s.Bad = ""
	}
	return s, nil
}

// Trial says whether a system booted from slot booted is a trial boot: one
// the firmware started from the [tryboot] section, not yet committed.
func (s State) Trial(booted Name) bool { return booted != s.Primary }

// Booted reads the slot a kernel command line names (rauc.slot=, which
// each slot's cmdline.txt carries).
func Booted(cmdline string) (Name, error) {
	for _, f := range strings.Fields(cmdline) {
		if v, ok := strings.CutPrefix(f, "rauc.slot="); ok {
			return ParseName(v)
		}
	}
	return "", fmt.Errorf("slot: no rauc.slot= on the kernel command line %q", strings.TrimSpace(cmdline))
}
