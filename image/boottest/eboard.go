package main

import (
	"fmt"
	"strings"
	"time"
)

// The e-board helper's devices: zeitnot-eboard.service opens the board, an
// untrusted USB device, and its unit allows it the serial boards' ttys
// alone (DevicePolicy=closed, DeviceAllow=char-ttyACM, char-ttyUSB,
// char-rfcomm). The check proves the unit refuses every other device.
//
// With an [eboard] table naming a board that is not plugged in, the unit
// runs, opening the board again every second. A shell then enters the
// unit's sandbox as far as devices go: its control group, where systemd's
// device filter (a BPF program on the group) decides every open, and its
// main process's mount namespace, where its /dev is. From there it opens
// devices a board is not: the serial console, the data partition, the
// daemon's GPIO chip, /dev/ptmx. Each must be refused, while the same
// shell outside opens them, and /dev/null, which the policy keeps, opens
// inside too.

// eboardRefused are the devices the e-board's unit must refuse, each one
// the shell outside the unit opens.
var eboardRefused = []string{"/dev/ttyAMA0", "/dev/vda3", "/dev/gpiochip0", "/dev/ptmx"}

// eboardScript sets up the [eboard] table, runs the unit, and prints for
// each device "DEV outside: RESULT" and "DEV inside: RESULT", RESULT being
// "opened" or head's error. The config is put back by eboardRestore.
func eboardScript(devs []string) string {
	var b strings.Builder
	b.WriteString(`t=/var/lib/zeitnot/zeitnot.toml; cp -p $t /run/boottest-zeitnot.toml && ` +
		`printf '\n[eboard]\nport = "/dev/ttyACM0"\n' >> $t && systemctl restart zeitnot-eboard.service && ` +
		`for i in $(seq 1 60); do p=$(systemctl show -p MainPID --value zeitnot-eboard.service); ` +
		`[ "$p" -gt 0 ] 2>/dev/null && systemctl is-active -q zeitnot-eboard.service && break; sleep 0.5; done; ` +
		`cg=/sys/fs/cgroup$(systemctl show -p ControlGroup --value zeitnot-eboard.service); ` +
		`echo "unit: $(systemctl is-active zeitnot-eboard.service) pid $p $cg"; ` +
		`try() { if e=$(head -c 0 "$1" 2>&1); then echo opened; else echo "${e##*: }"; fi; }; ` +
		`inside() { sh -c 'echo $$ > "$1/cgroup.procs" && exec nsenter -t "$2" -m head -c 0 "$3"' sh "$cg" "$p" "$1" 2>&1 && echo opened; }; `)
	for _, d := range append([]string{"/dev/null"}, devs...) {
		fmt.Fprintf(&b, `echo "%[1]s outside: $(try %[1]s)"; r=$(inside %[1]s); echo "%[1]s inside: ${r##*: }"; `, d)
	}
	return b.String()
}

// eboardRestore puts the boot's zeitnot.toml back and runs the unit as
// the image has it: without an [eboard] table it exits 0.
const eboardRestore = `cp -p /run/boottest-zeitnot.toml /var/lib/zeitnot/zeitnot.toml && rm /run/boottest-zeitnot.toml && ` +
	`systemctl restart zeitnot-eboard.service; for i in $(seq 1 40); do systemctl is-active -q zeitnot-eboard.service || break; sleep 0.5; done; systemctl show -p ActiveState,Result --value zeitnot-eboard.service | xargs`

// openResults reads eboardScript's "DEV outside: R" and "DEV inside: R"
// lines into two maps from device to result.
func openResults(out string) (outside, inside map[string]string) {
	outside, inside = map[string]string{}, map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		dev, rest, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || !strings.HasPrefix(dev, "/dev/") {
			continue
		}
		where, result, ok := strings.Cut(rest, ": ")
		switch {
		case !ok:
		case where == "outside":
			outside[dev] = strings.TrimSpace(result)
		case where == "inside":
			inside[dev] = strings.TrimSpace(result)
		}
	}
	return outside, inside
}

func eboardDevicesCheck(rep *report, run runFunc) {
	out, code := run(eboardScript(eboardRefused), 90*time.Second)
	fmt.Println(indent(strings.TrimSpace(out)))
	defer func() {
		out, _ := run(eboardRestore, 60*time.Second)
		rep.check("eboard: unit back as the image has it (no [eboard])", strings.Contains(out, "success"), "%s", oneLine(out))
	}()
	if !rep.check("eboard: zeitnot-eboard.service runs with an [eboard] table, no board plugged in", code == 0 && strings.Contains(out, "unit: active"),
		"%s", oneLine(grepLine(out, "unit:"))) {
		return
	}
	outside, inside := openResults(out)
	// The control: a device the policy keeps opens inside, so a refusal
	// is the unit's and not a failure to get inside.
	if !rep.check("eboard: /dev/null opens inside the unit (the policy's pseudo devices)", inside["/dev/null"] == "opened", "%q", inside["/dev/null"]) {
		return
	}
	for _, d := range eboardRefused {
		rep.check("eboard: the unit refuses "+d, outside[d] == "opened" && inside[d] != "" && inside[d] != "opened",
			"outside %q, inside %q", outside[d], inside[d])
	}
}
