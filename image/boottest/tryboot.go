package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// The tryboot module (image/tryboot, image/README.md "Updates") sets the
// Raspberry Pi firmware's one-shot flag with the mailbox property tag
// SET_REBOOT_FLAGS on a restart "0 tryboot". -M raspi3b's property
// mailbox answers every tag, known or not, and traces each one
// (bcm2835_mbox_property), so the Pi 3 boot records the tags into
// pi3MboxLog and trybootPi3Check looks there for this one.
const setRebootFlags = "0x00038064"

// pi3MboxArgs are QEMU's arguments that write every property-mailbox tag
// the guest sends into the file log.
func pi3MboxArgs(log string) []string {
	return []string{"-trace", "bcm2835_mbox_property", "-D", log}
}

// trybootVirtCheck checks, in the -M virt boot, that the module is built
// for the running kernel and that without the Raspberry Pi firmware in
// the device tree nothing loads it, and it refuses to load by hand, with
// its one kernel line.
func trybootVirtCheck(rep *report, run func(string, time.Duration) (string, int)) {
	out, _ := run("modinfo -F vermagic zeitnot_tryboot | cut -d' ' -f1; uname -r; test -d /sys/module/zeitnot_tryboot && echo loaded || echo unloaded", 15*time.Second)
	f := strings.Fields(out)
	rep.check("tryboot: zeitnot_tryboot built for the running kernel", len(f) == 3 && f[0] == f[1], "vermagic %s", strings.Join(f, " "))
	rep.check("tryboot: zeitnot_tryboot not loaded without the Pi firmware", len(f) == 3 && f[2] == "unloaded", "%s", strings.Join(f, " "))
	out, code := run("modprobe zeitnot_tryboot 2>&1; dmesg | grep -c 'zeitnot_tryboot: no Raspberry Pi firmware'", 30*time.Second)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	rep.check("tryboot: loaded by hand without the Pi firmware it refuses, with one kernel line",
		code == 0 && strings.Contains(out, "No such device") && lines[len(lines)-1] == "1", "%s", strings.Join(lines, "; "))
}

// trybootPi3Check checks, at the end of the -M raspi3b boot, that udev
// loaded the module for the firmware's node and that a restart with the
// command "0 tryboot" makes the kernel send SET_REBOOT_FLAGS. trixie's
// systemctl (257) takes the command only as --reboot-argument=: the
// positional `systemctl reboot "0 tryboot"` fails with "Too many
// arguments". It ends the boot: QEMU is stopped (SIGTERM, so that its log
// is complete) afterwards.
func trybootPi3Check(ctx context.Context, rep *report, sh *shell, v *vm, mboxLog string) {
	out, _, err := sh.run(ctx, "test -d /sys/module/zeitnot_tryboot && echo loaded || echo unloaded; dmesg | grep -c 'zeitnot_tryboot: a restart with'", time.Minute)
	f := strings.Fields(out)
	if !rep.check("pi3: zeitnot_tryboot loaded for the firmware's device-tree node", err == nil && len(f) == 2 && f[0] == "loaded" && f[1] == "1",
		"%s", strings.Join(f, " ")) {
		return
	}
	before := v.serial.len()
	sh.send("systemctl reboot --reboot-argument='0 tryboot'")
	_, _, err = v.serial.waitFor(ctx, regexp.MustCompile(`Restarting system with command '0 tryboot'`), before, 3*time.Minute)
	if !rep.check("pi3: systemctl reboot --reboot-argument='0 tryboot' restarts", err == nil, "%s", errString(err, "")) {
		return
	}
	// No reset follows under QEMU (no PSCI, the watchdog driver is left
	// out): the kernel halts, and QEMU is ended here.
	v.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-v.done:
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	b, err := os.ReadFile(mboxLog)
	sent, detail := rebootFlagsSent(string(b))
	rep.check("pi3: the restart sent SET_REBOOT_FLAGS ("+setRebootFlags+") to the firmware, before NOTIFY_REBOOT", err == nil && sent,
		"%s", errString(err, detail))
}

// notifyReboot is the firmware driver's own tag at a restart (its
// shutdown), which Raspberry Pi's kernel sends after the flags.
const notifyReboot = "0x00030048"

// rebootFlagsSent reads QEMU's trace of the property mailbox: the
// restart must have sent SET_REBOOT_FLAGS with its one 32-bit value, and
// the firmware driver's NOTIFY_REBOOT only after it.
func rebootFlagsSent(trace string) (bool, string) {
	tags := regexp.MustCompile(`tag:(0x[0-9a-f]{8}) in_sz:(\d+)`).FindAllStringSubmatch(trace, -1)
	set, notify := -1, -1
	size := ""
	for i, m := range tags {
		switch m[1] {
		case setRebootFlags:
			set, size = i, m[2]
		case notifyReboot:
			notify = i
		}
	}
	detail := fmt.Sprintf("%d tags traced; SET_REBOOT_FLAGS at %d (%s bytes), NOTIFY_REBOOT at %d", len(tags), set, size, notify)
	return set >= 0 && size == "4" && (notify < 0 || notify > set), detail
}
