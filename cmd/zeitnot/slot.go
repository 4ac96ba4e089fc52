package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/zeitnot/zeitnot/internal/subcmd"

	"github.com/zeitnot/zeitnot/appliance/slot"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
)

// defaultAutoboot is autoboot.txt on the card's first FAT partition, which
// the image mounts (read-only) on /boot/firmware.
const defaultAutoboot = "/boot/firmware/autoboot.txt"

func init() {
	register(command{
		Name:    "slot",
		Summary: "the A/B system slots in autoboot.txt: RAUC's custom bootloader backend (zeitnot slot -h)",
		Run:     runSlot,
	})
}

const slotUsage = `Usage:
  zeitnot slot [--autoboot FILE] [--cmdline FILE] OPERATION [ARGS]
      RAUC's custom-bootloader interface for the Raspberry Pi firmware's
      tryboot (appliance/slot); RAUC runs it as its
      bootloader-custom-backend. Operations:
        get-primary          the slot autoboot.txt's [all] section boots
        set-primary SLOT     after an installation: SLOT is tried by the
                             next tryboot reboot (reboot "0 tryboot")
        get-state SLOT       good or bad
        set-state SLOT good|bad
                             good for the booted slot in a trial commits it
        get-current          the booted slot (rauc.slot= on the command line)
        is-trial             exit 0 in a trial boot not yet committed, 1 otherwise
        show                 one line: primary, booted, trial, bad
        init                 write a new card's autoboot.txt (A boots, B
                             is empty, so bad) if there is none (the build)
      SLOT is A or B. autoboot.txt is replaced whole (a new file, fsync,
      rename); its file system is remounted read-write for that and
      read-only again. Exit 0 when done, 1 on an error (said on standard
      error), 2 for bad arguments.

Flags:
`

func runSlot(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("slot", stderr)
	autoboot := flags.String("autoboot", defaultAutoboot, "autoboot.txt")
	cmdline := flags.String("cmdline", "/proc/cmdline", "the kernel command line, read for rauc.slot=")
	if code, ok := subcmd.Parse(flags, slotUsage, args); !ok {
		return code
	}
	rest := flags.Args()
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "zeitnot slot: "+format+"\n", a...)
		return 2
	}
	if len(rest) == 0 {
		return usage("no operation (zeitnot slot -h)")
	}
	op, rest := rest[0], rest[1:]
	wantArgs := map[string]int{"get-primary": 0, "set-primary": 1, "get-state": 1, "set-state": 2, "get-current": 0, "is-trial": 0, "show": 0, "init": 0}
	n, ok := wantArgs[op]
	if !ok {
		return usage("unknown operation %q (zeitnot slot -h)", op)
	}
	if len(rest) != n {
		return usage("%s takes %d argument(s), got %d", op, n, len(rest))
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zeitnot slot %s: %v\n", op, err)
		return 1
	}
	var name slot.Name
	if n > 0 {
		var err error
		if name, err = slot.ParseName(rest[0]); err != nil {
			return usage("%v", err)
		}
	}
	if op == "set-state" && rest[1] != "good" && rest[1] != "bad" {
		return usage("set-state %s %q: the state is good or bad", name, rest[1])
	}
	booted := func() (slot.Name, error) {
		b, err := os.ReadFile(*cmdline)
		if err != nil {
			return "", err
		}
		return slot.Booted(string(b))
	}
	if op == "get-current" {
		b, err := booted()
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, b)
		return 0
	}
	data, err := os.ReadFile(*autoboot)
	if op == "init" {
		if err == nil {
			return fail(fmt.Errorf("%s exists: not replaced", *autoboot))
		}
		if err := replaceFile(*autoboot, slot.Initial.Marshal()); err != nil {
			return fail(err)
		}
		return 0
	}
	if err != nil {
		return fail(err)
	}
	st, err := slot.Parse(data)
	if err != nil {
		return fail(fmt.Errorf("%s: %v", *autoboot, err))
	}
	var next slot.State
	switch op {
	case "get-primary":
		fmt.Fprintln(stdout, st.Primary)
		return 0
	case "get-state":
		fmt.Fprintln(stdout, st.GetState(name))
		return 0
	case "is-trial", "show":
		b, err := booted()
		if err != nil {
			return fail(err)
		}
		if op == "show" {
			bad := string(st.Bad)
			if bad == "" {
				bad = "none"
			}
			fmt.Fprintf(stdout, "primary=%s booted=%s trial=%v bad=%s\n", st.Primary, b, st.Trial(b), bad)
			return 0
		}
		if st.Trial(b) {
			return 0
		}
		return 1
	case "set-primary":
		next, err = st.SetPrimary(name)
	case "set-state":
		var b slot.Name
		if b, err = booted(); err != nil {
			return fail(err)
		}
		next, err = st.SetState(name, rest[1] == "good", b)
	}
	if err != nil {
		return fail(err)
	}
	if next == st {
		return 0
	}
	if err := replaceOnFAT(*autoboot, next.Marshal()); err != nil {
		return fail(err)
	}
	return 0
}

// replaceOnFAT writes data to path whole (internal/atomicfile).
// If path's file system is mounted read-only, it is remounted read-write
// for the write and read-only again after.
func replaceOnFAT(path string, data []byte) error {
	dir := filepath.Dir(path)
	err := replaceFile(path, data)
	if !errors.Is(err, syscall.EROFS) {
		return err
	}
	if out, err := exec.Command("mount", "-o", "remount,rw", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("%s is read-only and cannot be remounted read-write: %v: %s", dir, err, strings.TrimSpace(string(out)))
	}
	err = replaceFile(path, data)
	if out, rerr := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); rerr != nil && err == nil {
		err = fmt.Errorf("%s written, but not remounted read-only: %v: %s", path, rerr, strings.TrimSpace(string(out)))
	}
	return err
}

func replaceFile(path string, data []byte) error {
	return atomicfile.WriteFile(path, data, 0o644)
}
