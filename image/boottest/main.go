// Command boottest boots the zeitnot SD image under QEMU and checks it over
// its consoles: `make image-test`.
//
// The virt boot (qemu-system-aarch64 -M virt) uses the image's own kernel,
// initramfs and cmdline.txt, the image as a virtio disk, an i6300esb
// watchdog, and a zeitnot.toml for the simulated hardware profile placed on
// the boot partition. It reads the kernel and systemd on the serial console
// (ttyAMA0) and runs its checks through systemd's debug shell on a virtio
// console (hvc0, enabled by systemd.debug_shell= on the test's kernel command
// line only). Among its checks it measures the data partition's sectors
// written per lever press (flash.go; --write-goal makes the goal a
// failure). With --pi3
// it also boots the image as a Raspberry Pi 3
// (-M raspi3b, the patched Pi 3 device tree, the image as the SD card).
//
// Every wait has a timeout; on any failure it prints the last 50 lines of
// the serial console and exits 1.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var cpuModel string

// bootOnly (--boot-only) ends the -M virt boot after its figures, and
// quietKernel (--quiet) keeps the image's quiet and loglevel= there, so
// that the boot measured is the one a clock has.
var bootOnly, quietKernel bool

// slowDevices lets udev take longer than systemd's default 90 s to announce
// the disk's partitions: emulated on a busy 2-core machine, the coldplug can
// take that long.
const slowDevices = "systemd.default_device_timeout_sec=600"

type result struct {
	name     string
	ok       bool
	advisory bool // reported, never a failure
	detail   string
}

type report struct {
	results []result
}

func (r *report) check(name string, ok bool, format string, args ...any) bool {
	return r.add(result{name: name, ok: ok, detail: fmt.Sprintf(format, args...)})
}

// advise reports a goal that is not (yet) enforced: missing it prints WARN
// and does not fail the test.
func (r *report) advise(name string, ok bool, format string, args ...any) bool {
	return r.add(result{name: name, ok: ok, advisory: true, detail: fmt.Sprintf(format, args...)})
}

func (r *report) add(x result) bool {
	name, ok, detail := x.name, x.ok, x.detail
	r.results = append(r.results, x)
	mark := "PASS"
	if !ok && x.advisory {
		mark = "WARN"
	} else if !ok {
		mark = "FAIL"
	}
	if detail != "" {
		fmt.Printf("%s  %s: %s\n", mark, name, detail)
	} else {
		fmt.Printf("%s  %s\n", mark, name)
	}
	return ok
}

// warned counts the goals missed that are not enforced.
func (r *report) warned() int {
	n := 0
	for _, x := range r.results {
		if !x.ok && x.advisory {
			n++
		}
	}
	return n
}

func (r *report) failed() int {
	n := 0
	for _, x := range r.results {
		if !x.ok && !x.advisory {
			n++
		}
	}
	return n
}

// simConfig is the zeitnot.toml the test places on the boot partition.
const simConfig = `# zeitnot boot test: simulated hardware
profile = "sim"
`

func main() {
	image := flag.String("image", "", "the raw SD image (NAME.img) or NAME.img.xz")
	work := flag.String("work", "image/work/boottest", "scratch directory (disk copies, logs)")
	pi3 := flag.Bool("pi3", false, "also boot the image under -M raspi3b")
	virt := flag.Bool("virt", true, "boot the image under -M virt (the full check)")
	total := flag.Duration("timeout", 50*time.Minute, "limit for the whole test")
	bundle := flag.String("bundle", "", "the image's update bundle (NAME.raucb, make bundle): boot the A/B update cases (update.go)")
	bootTimeout := flag.Duration("boot-timeout", 4*time.Minute, "limit for reaching multi-user (each boot)")
	presses := flag.Int("presses", 100, "lever presses for the flash write measurement (-M virt)")
	enforceGoal := flag.Bool("write-goal", os.Getenv("ZEITNOT_WRITE_GOAL") == "1",
		fmt.Sprintf("fail when the presses write more than %.0f sectors each on average (default from ZEITNOT_WRITE_GOAL=1)", writeGoal))
	flag.StringVar(&cpuModel, "cpu", "cortex-a72", "QEMU CPU model for -M virt")
	network := flag.Bool("network", true, "give the -M virt boot a user-mode network, a [network] table and a [hall] table pointing at a mosquitto broker on the host (needs mosquitto)")
	flag.BoolVar(&bootOnly, "boot-only", false, "under -M virt, stop after the boot's figures (no checks of the clock)")
	flag.BoolVar(&quietKernel, "quiet", true, "under -M virt, keep the image's quiet kernel command line (false: the kernel logs everything on the serial console)")
	flag.BoolVar(&pi3HW, "pi3-hardware-check", true, "in the -M raspi3b boot, run `zeitnot hardware check two-ssd1306-i2c` in a debug shell on ttyAMA0")
	flag.Parse()
	if *image == "" {
		fmt.Fprintln(os.Stderr, "usage: boottest --image NAME.img [--work DIR] [--pi3]")
		os.Exit(2)
	}
	if !fileExists(*image) {
		fmt.Fprintf(os.Stderr, "boottest: %s is missing: run 'make image'\n", *image)
		os.Exit(1)
	}
	for _, tool := range []string{"qemu-system-aarch64", "mcopy", "mtype"} {
		if _, err := command(context.Background(), 10*time.Second, "sh", "-c", "command -v "+tool); err != nil {
			fmt.Fprintf(os.Stderr, "boottest: %s is missing: run 'make image-deps'\n", tool)
			os.Exit(1)
		}
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "boottest:", err)
		os.Exit(1)
	}

	ctx, cancel := context.WithTimeout(context.Background(), *total)
	defer cancel()
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()

	rep := &report{}
	start := time.Now()
	if *virt {
		virtBoot(ctx, rep, *image, *work, *bootTimeout, *presses, *enforceGoal, *network)
	}
	if *pi3 {
		// Four emulated cores on a 2-core machine: allow twice as long.
		pi3Boot(ctx, rep, *image, *work, 2**bootTimeout)
	}
	if *bundle != "" {
		updateBoots(ctx, rep, *image, *bundle, *work, *bootTimeout)
	}
	failed, warned := rep.failed(), rep.warned()
	fmt.Printf("boottest: %.0fs in all\n", time.Since(start).Seconds())
	fmt.Printf("boottest: %d passed, %d failed, %d goals not met (not enforced)\n", len(rep.results)-failed-warned, failed, warned)
	if failed > 0 {
		os.Exit(1)
	}
}

// clockState is `zeitnot status`'s JSON line.
type clockState struct {
	Running   string `json:"running"`
	Paused    bool   `json:"paused"`
	Recovered bool   `json:"recovered"`
	Started   bool   `json:"started"`
	Left      string `json:"left"` // the side whose lever is the left button
	White     side   `json:"white"`
	Black     side   `json:"black"`
}

type side struct {
	MS    int64 `json:"ms"`
	Moves int   `json:"moves"`
}

func (c clockState) String() string {
	return fmt.Sprintf("running=%s paused=%v recovered=%v white=%dms/%d black=%dms/%d",
		c.Running, c.Paused, c.Recovered, c.White.MS, c.White.Moves, c.Black.MS, c.Black.Moves)
}

func parseStatus(out string) (clockState, error) {
	var c clockState
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "{") {
			err := json.Unmarshal([]byte(line), &c)
			return c, err
		}
	}
	return c, fmt.Errorf("no JSON line in %q", out)
}

func (c clockState) side(name string) side {
	if name == "white" {
		return c.White
	}
	return c.Black
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func virtBoot(ctx context.Context, rep *report, image, work string, bootTimeout time.Duration, presses int, enforceGoal, network bool) {
	fmt.Println("== boot under qemu-system-aarch64 -M virt")
	disk := filepath.Join(work, "virt.img")
	if err := copyDisk(ctx, image, disk, cardSize); err != nil {
		rep.check("prepare disk", false, "%v", err)
		return
	}
	defer os.Remove(disk)
	parts, err := readMBR(disk)
	if !rep.check("partition table", err == nil, "%v", errString(err, fmt.Sprintf("autoboot %d MB, boot A and B %d MB, root A and B %d MB, data %d MB",
		size(parts, 1), size(parts, 2), size(parts, 5), size(parts, 7)))) {
		return
	}
	config := simConfig
	var hall *hallWatch
	var ntp *ntpServer
	nic := "none"
	if network {
		broker, err := startHostBroker(work)
		if !rep.check("mosquitto on the host's loopback", err == nil, "%s", errString(err, fmt.Sprintf("port %d", portOf(broker)))) {
			return
		}
		defer broker.stop()
		hall, err = watchHall(broker.port)
		if !rep.check("the hall's subscriber on the host's broker", err == nil, "%s", errString(err, "")) {
			return
		}
		defer hall.close()
		ntp, err = startNTPServer()
		rep.advise("an NTP server on the host's loopback", err == nil, "%s", errString(err, "127.0.0.1:123"))
		defer ntp.close()
		config = netConfig(broker.port)
		nic = "user,model=virtio-net-pci"
	}
	toml := filepath.Join(work, "zeitnot.toml")
	os.WriteFile(toml, []byte(config), 0o644)
	if _, err := command(ctx, 30*time.Second, "mcopy", "-o", "-i", fat(disk, parts[0]), toml, "::zeitnot.toml"); err != nil {
		rep.check("zeitnot.toml on the boot partition", false, "%v", err)
		return
	}
	boot, booted, err := (&firmware{}).boot(ctx, disk, parts, work, "")
	if !rep.check("kernel and initramfs from the slot autoboot.txt names", err == nil, "%s", errString(err, "slot "+string(booted))) {
		return
	}

	sock := filepath.Join(work, "shell.sock")
	os.Remove(sock)
	serialLog, _ := os.Create(filepath.Join(work, "virt-serial.log"))
	defer serialLog.Close()
	shellLog, _ := os.Create(filepath.Join(work, "virt-shell.log"))
	defer shellLog.Close()
	// ACPI off: QEMU's power button is then line 3 of the PL061 GPIO
	// (gpio.go), with the lines named in the device tree given to Linux.
	machineArgs := []string{"-cpu", cpuModel, "-smp", "2", "-m", "1024"}
	dtb, err := virtDTB(ctx, work, "virt,acpi=off", machineArgs)
	if !rep.check("device tree with the PL061's lines named", err == nil, "%s", errString(err, dtb)) {
		return
	}
	qmpSock := filepath.Join(work, "qmp.sock")
	os.Remove(qmpSock)
	args := append([]string{"qemu-system-aarch64", "-M", "virt,acpi=off", "-dtb", dtb,
		"-qmp", "unix:" + qmpSock + ",server=on,wait=off"}, machineArgs...)
	args = append(args,
		"-accel", "tcg,thread=multi",
		"-display", "none", "-monitor", "none", "-nic", nic, "-no-reboot",
		"-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
		"-kernel", boot.kernel, "-initrd", boot.initrd,
		"-append", kernelArgs(boot.cmdline, verboseKernel(!quietKernel),
			"console=ttyAMA0", "systemd.show_status=1", "systemd.debug_shell=/dev/hvc0",
			"systemd.mask=serial-getty@hvc0.service", slowDevices),
		"-drive", "if=none,id=hd,format=raw,file="+disk, "-device", "virtio-blk-pci,drive=hd",
		"-device", "virtio-serial-pci", "-chardev", "socket,id=sh,path="+sock+",server=on,wait=off",
		"-device", "virtconsole,chardev=sh",
		"-device", "virtio-rng-pci",
		"-device", "i6300esb",
	)
	args = append(args, usbArgs()...)
	t0 := time.Now()
	v, err := startVM(args, serialLog)
	if !rep.check("qemu started", err == nil, "%s", errString(err, "")) {
		return
	}
	defer v.stop()
	fail := func() {
		fmt.Println("---- last 50 lines of the serial console (" + serialLog.Name() + ") ----")
		fmt.Println(v.serial.lastLines(50))
		fmt.Println("----")
		select {
		case <-v.done:
			// With -no-reboot a reset of the guest (its watchdog) ends QEMU
			// with status 0.
			fmt.Printf("QEMU had exited before the end of the checks: %v\n", errString(v.waitErr, "exit status 0 (the guest reset or powered off)"))
		default:
		}
	}
	defer func() {
		if rep.failed() > 0 {
			fail()
		}
	}()

	sh, err := dialShell(ctx, sock, 30*time.Second, shellLog, v.done)
	if !rep.check("shell socket", err == nil, "%s", errString(err, "")) {
		return
	}
	defer sh.close()
	// The debug shell starts during early boot; wait for its prompt to answer.
	var out string
	var code int
	deadline := time.Now().Add(bootTimeout)
	for {
		sh.send("PS1=''; stty -echo 2>/dev/null")
		_, _, err = sh.run(ctx, "true", 5*time.Second)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		select {
		case <-v.done:
			err = fmt.Errorf("QEMU exited: %v", v.waitErr)
		default:
		}
		if strings.Contains(err.Error(), "QEMU exited") {
			break
		}
	}
	if !rep.check("debug shell on hvc0", err == nil, "%s", errString(err, fmt.Sprintf("after %.1fs", time.Since(t0).Seconds()))) {
		return
	}

	run := func(cmd string, timeout time.Duration) (string, int) {
		out, code, err := sh.run(ctx, cmd, timeout)
		if err != nil {
			select {
			case <-v.done:
				// The shell's socket closes with QEMU: say why, not only
				// "broken pipe".
				err = fmt.Errorf("%v (QEMU has exited: %s)", err, errString(v.waitErr, "exit status 0: the guest reset, which with -no-reboot its hardware watchdog's reset does, or powered off"))
			default:
			}
			return out + "\n" + err.Error(), -1
		}
		return out, code
	}

	// 1. multi-user reached, no failed unit.
	out, code = run(fmt.Sprintf("timeout %d systemctl is-system-running --wait", int(bootTimeout.Seconds())), bootTimeout+10*time.Second)
	bootTime := time.Since(t0)
	rep.check("system running", code == 0 && strings.TrimSpace(out) == "running", "%q after %.1fs", strings.TrimSpace(out), bootTime.Seconds())
	out, _ = run("systemctl --failed --no-legend --plain | awk '{print $1}'", 20*time.Second)
	failedUnits := strings.Fields(out)
	rep.check("no failed units", len(failedUnits) == 0, "%d failed %v", len(failedUnits), failedUnits)
	if len(failedUnits) > 0 {
		detail, _ := run("for u in $(systemctl --failed --no-legend --plain | awk '{print $1}'); do systemctl status --no-pager -n 15 $u; done", 30*time.Second)
		fmt.Println(indent(detail))
	}
	// systemd breaks an ordering cycle by dropping a job, which would leave
	// a unit silently not started.
	out, _ = run("journalctl -b -o cat --no-pager | grep -ci 'ordering cycle'", 60*time.Second)
	rep.check("no ordering cycle in the boot", strings.TrimSpace(out) == "0", "%s journal line(s) about one", strings.TrimSpace(out))
	bootFiguresCheck(rep, run, "virt")
	if bootOnly {
		return
	}

	// 2. the image's own properties.
	// A new slot whose daemon never says READY=1 must still be left: the
	// trial's time limit may wait for nothing that waits for the clock
	// (a path unit ordered after zeitnot.service once held basic.target,
	// and so it, forever).
	out, _ = run("systemctl list-dependencies --after --all --plain --no-pager zeitnot-trial.service basic.target | grep -cE '(^|[^-[:alnum:]])zeitnot\\.service$'", 60*time.Second)
	rep.check("the trial boot's time limit and basic.target wait for no READY=1 of the clock", strings.TrimSpace(out) == "0", "%s line(s) naming zeitnot.service among what they come after", strings.TrimSpace(out))
	out, _ = run("cat /proc/sys/kernel/hostname", 10*time.Second)
	rep.check("hostname zeitnot-XXXX", regexp.MustCompile(`^zeitnot-[0-9a-f]{4}$`).MatchString(strings.TrimSpace(out)), "%q", strings.TrimSpace(out))
	out, _ = run("findmnt -n -o OPTIONS /", 10*time.Second)
	rep.check("root read-only", regexp.MustCompile(`(^|,)ro(,|$)`).MatchString(strings.TrimSpace(out)), "%s", strings.TrimSpace(out))
	out, _ = run("findmnt -n -o SOURCE,FSTYPE /var/lib/zeitnot; findmnt -n -o FSTYPE /tmp; findmnt -n -o FSTYPE /var/log", 10*time.Second)
	rep.check("state on the data partition, /tmp and logs in memory",
		strings.Contains(out, "vda7") && strings.Count(out, "tmpfs") == 2, "%s", strings.Join(strings.Fields(out), " "))
	// The first boot gave the data partition the rest of the card.
	out, _ = run("systemctl is-active zeitnot-grow-data.service; cat /sys/class/block/vda/size /sys/class/block/vda7/start /sys/class/block/vda7/size; stat -f -c '%S %b' /data; journalctl -b -o cat -u zeitnot-grow-data.service | grep -c 'the file system grew'", 30*time.Second)
	rep.check("data partition grown to the card's end", dataGrown(out), "%s", strings.Join(strings.Fields(out), " "))
	out, _ = run("test -d /run/log/journal && test ! -e /var/log/journal && echo volatile", 10*time.Second)
	rep.check("journal in memory", strings.TrimSpace(out) == "volatile", "%s", strings.TrimSpace(out))
	out, _ = run("awk -F: '$2 !~ /^[!*]/ {print $1}' /etc/shadow", 10*time.Second)
	rep.check("no user with a password, root locked", strings.TrimSpace(out) == "", "%s", strings.TrimSpace(out))
	out, _ = run("cat /sys/class/watchdog/watchdog0/identity /sys/class/watchdog/watchdog0/state 2>&1", 10*time.Second)
	rep.check("hardware watchdog run by systemd", strings.Contains(out, "active"), "%s", strings.Join(strings.Fields(out), " "))
	if !network {
		out, code = run("ss -tulpn", 10*time.Second)
		listeners := strings.Split(strings.TrimSpace(out), "\n")
		fmt.Println(indent("$ ss -tulpn\n" + out))
		rep.check("no listening network socket", code == 0 && len(listeners) == 1, "%d line(s) after the header", len(listeners)-1)
	}
	out, _ = run(". /etc/os-release; echo \"$IMAGE_ID $IMAGE_VERSION\"; zeitnot --version", 15*time.Second)
	f := strings.Fields(out)
	rep.check("one version in /etc/os-release and zeitnot --version", len(f) == 4 && f[0] == "zeitnot" && f[2] == "zeitnot" && f[1] == f[3] && f[1] != "",
		"%s", strings.Join(f, " "))
	trybootVirtCheck(rep, run)
	out, _ = run("id zeitnot", 10*time.Second)
	rep.check("zeitnot user in gpio, i2c, spi", strings.Contains(out, "(gpio)") && strings.Contains(out, "(i2c)") && strings.Contains(out, "(spi)"), "%s", strings.TrimSpace(out))

	// 3. the first-boot import.
	out, _ = run("systemctl show -p ActiveState,Result --value zeitnot-import.service | xargs", 10*time.Second)
	rep.check("zeitnot-import.service succeeded", strings.Contains(out, "active") && strings.Contains(out, "success"), "%s", strings.TrimSpace(out))
	out, code = run("grep -q '^profile *= *\"sim\"' /var/lib/zeitnot/zeitnot.toml && ls -l /var/lib/zeitnot/zeitnot.toml", 10*time.Second)
	rep.check("zeitnot.toml imported into /var/lib/zeitnot", code == 0, "%s", strings.TrimSpace(out))
	linkCheck(rep, run, network)
	if network {
		networkCheck(rep, run, hall, ntp)
	}

	// 4. the clock.
	out, _ = run("systemctl is-active zeitnot.service", 10*time.Second)
	if !rep.check("zeitnot.service active", strings.TrimSpace(out) == "active", "%s", strings.TrimSpace(out)) {
		detail, _ := run("systemctl status --no-pager -n 20 zeitnot.service", 20*time.Second)
		fmt.Println(indent(detail))
		return
	}
	status := func() (clockState, string, error) {
		out, code := run("zeitnot status", 15*time.Second)
		if code != 0 {
			return clockState{}, out, fmt.Errorf("exit %d: %s", code, out)
		}
		c, err := parseStatus(out)
		return c, out, err
	}
	s0, raw, err := status()
	if !rep.check("zeitnot status", err == nil, "%s", errString(err, s0.String())) {
		_ = raw
		return
	}
	tPress := time.Now()
	out, code = run("zeitnot press right", 15*time.Second)
	rep.check("zeitnot press right", code == 0, "%s", strings.TrimSpace(out))
	s1, _, err := status()
	rep.check("the press switched the clock", err == nil && s1.Running != s0.Running && s1.Running != "none",
		"%s -> %s", s0.Running, errString(err, s1.String()))
	if network {
		hallPressCheck(rep, hall, tPress, s1)
	}
	run("sleep 2", 10*time.Second)
	s2, _, err := status()
	if s1.Running == "white" || s1.Running == "black" {
		rep.check("the running side's time goes down", err == nil && s2.side(s1.Running).MS < s1.side(s1.Running).MS,
			"%d ms -> %s", s1.side(s1.Running).MS, errString(err, fmt.Sprint(s2.side(s1.Running).MS, " ms")))
	}

	// 5. the game survives SIGKILL.
	out, _ = run("systemctl show -p NRestarts --value zeitnot.service", 10*time.Second)
	restartsBefore, _ := strconv.Atoi(strings.TrimSpace(out))
	s3, _, _ := status()
	tKill := time.Now()
	run("systemctl kill -s KILL zeitnot.service", 15*time.Second)
	out, code = run("for i in $(seq 1 60); do sleep 0.5; n=$(systemctl show -p NRestarts --value zeitnot.service); "+
		fmt.Sprintf("if [ \"$n\" -gt %d ] && systemctl is-active -q zeitnot.service && zeitnot status >/dev/null 2>&1; then echo back; exit 0; fi; done; echo gone; exit 1", restartsBefore), 45*time.Second)
	rep.check("restarted after SIGKILL", code == 0, "%s after %.1fs", strings.TrimSpace(out), time.Since(tKill).Seconds())
	s4, _, err := status()
	sameMoves := s4.White.Moves == s3.White.Moves && s4.Black.Moves == s3.Black.Moves
	// Times as they were at the kill: the side that was running may have
	// used the time between the last status and the kill, no more.
	tol := time.Since(tKill).Milliseconds() + 2000
	timesKept := abs(s4.White.MS-s3.White.MS) <= tol && abs(s4.Black.MS-s3.Black.MS) <= tol
	rep.check("game recovered, paused, with its times", err == nil && s4.Recovered && s4.Paused && sameMoves && timesKept,
		"before %s; after %s", s3, errString(err, s4.String()))

	// 6. flash writes per press on the data partition, and its mount
	// options. Before the watchdog check, which restarts units and reloads
	// systemd, the slowest steps under emulation.
	if presses > 0 {
		flashCheck(rep, run, status, presses, enforceGoal)
	}

	// 7. a lever on a real GPIO line: QEMU's power button on the PL061.
	pl061Check(rep, run, status, qmpSock)

	// 8. USB sticks: games out, config in, a stick pulled mid-export.
	board := 0
	if network {
		board = netBoard
	}
	usbCheck(ctx, rep, run, status, work, board)

	// 9. the e-board helper's unit refuses every device but a board's.
	eboardDevicesCheck(rep, run)

	// 10. the spoken clock's audio path: espeak-ng and aplay.
	speechCheck(rep, run)

	// 11. a hung daemon: systemd's watchdog restarts it, the game survives.
	watchdogCheck(rep, run, status)
	// QEMU is stopped by the deferred v.stop, after the failure report.
}

// pi3Boot boots the image as a Raspberry Pi 3 with the Pi 3 device tree
// patched by the build and the image as the SD card, and waits for
// multi-user and the clock on the serial console (ttyS1, the mini UART).
func pi3Boot(ctx context.Context, rep *report, image, work string, bootTimeout time.Duration) {
	fmt.Println("== boot under qemu-system-aarch64 -M raspi3b")
	disk := filepath.Join(work, "pi3.img")
	fi, err := os.Stat(image)
	if err != nil {
		rep.check("pi3: prepare SD card", false, "%v", err)
		return
	}
	if err := copyDisk(ctx, image, disk, max(cardSize, nextPow2(fi.Size()))); err != nil {
		rep.check("pi3: prepare SD card", false, "%v", err)
		return
	}
	defer os.Remove(disk)
	parts, err := readMBR(disk)
	if err != nil {
		rep.check("pi3: partition table", false, "%v", err)
		return
	}
	toml := filepath.Join(work, "zeitnot.toml")
	os.WriteFile(toml, []byte(simConfig), 0o644)
	if _, err := command(ctx, 30*time.Second, "mcopy", "-o", "-i", fat(disk, parts[0]), toml, "::zeitnot.toml"); err != nil {
		rep.check("pi3: zeitnot.toml on the boot partition", false, "%v", err)
		return
	}
	boot, booted, err := (&firmware{}).boot(ctx, disk, parts, work, "bcm2837-rpi-3-b.dtb")
	if !rep.check("pi3: kernel, initramfs, device tree from the slot autoboot.txt names", err == nil, "%s", errString(err, "slot "+string(booted))) {
		return
	}
	// With --pi3-hardware-check the PL011 (ttyAMA0) carries a debug shell
	// for `zeitnot hardware check` (gpio.go); the Pi 3's device tree gives
	// it to Bluetooth, whose node goes from the test's copy so that the
	// kernel makes it a tty.
	sock := filepath.Join(work, "pi3-shell.sock")
	// No getty on the console: once a getty holds the console, systemd
	// prints no more status lines there, and the test would never see
	// "Reached target multi-user" if the getty started first.
	pl011, extra := []string{"-serial", "null"}, []string{"console=ttyS1,115200", "systemd.show_status=1", "systemd.mask=serial-getty@ttyS1.service",
		"modprobe.blacklist=bcm2835_wdt", slowDevices}
	if pi3HW {
		command(ctx, 30*time.Second, "fdtput", "-r", boot.dtb, "/soc/serial@7e201000/bluetooth")
		os.Remove(sock)
		pl011 = []string{"-chardev", "socket,id=sh,path=" + sock + ",server=on,wait=off", "-serial", "chardev:sh"}
		extra = append(extra, "systemd.debug_shell=/dev/ttyAMA0")
	}
	serialLog, _ := os.Create(filepath.Join(work, "pi3-serial.log"))
	defer serialLog.Close()
	args := append([]string{"qemu-system-aarch64", "-M", "raspi3b",
		"-display", "none", "-monitor", "none", "-no-reboot",
		"-kernel", boot.kernel, "-initrd", boot.initrd, "-dtb", boot.dtb,
		// QEMU's raspi machines take the write that arms the BCM2835 watchdog
		// for a reset request, so the watchdog driver stays unloaded here.
		"-append", kernelArgs(boot.cmdline, []string{"quiet", "loglevel"}, extra...),
		"-drive", "if=sd,format=raw,file=" + disk}, pl011...)
	mboxLog := filepath.Join(work, "pi3-mbox.log")
	os.Remove(mboxLog)
	args = append(args, pi3MboxArgs(mboxLog)...)
	args = append(args,
		"-chardev", "stdio,id=ser1,signal=off", "-serial", "chardev:ser1",
	)
	t0 := time.Now()
	v, err := startVM(args, serialLog)
	if !rep.check("pi3: qemu started", err == nil, "%s", errString(err, "")) {
		return
	}
	defer v.stop()
	ok := true
	defer func() {
		if !ok {
			fmt.Println("---- last 50 lines of the serial console (" + serialLog.Name() + ") ----")
			fmt.Println(v.serial.lastLines(50))
			fmt.Println("----")
		}
	}()
	_, pos, err := v.serial.waitFor(ctx, regexp.MustCompile(`(?m)mmcblk0: p1 p2 p3 p4 < p5 p6 p7 >`), 0, bootTimeout)
	ok = rep.check("pi3: SD card found by the kernel", err == nil, "%s", errString(err, fmt.Sprintf("after %.1fs", time.Since(t0).Seconds())))
	if !ok {
		return
	}
	remaining := bootTimeout - time.Since(t0)
	_, _, err = v.serial.waitFor(ctx, regexp.MustCompile(`Reached target .*[Mm]ulti-[Uu]ser`), pos, remaining)
	ok = rep.check("pi3: multi-user reached from the SD card", err == nil, "%s", errString(err, fmt.Sprintf("after %.1fs", time.Since(t0).Seconds())))
	if !ok {
		return
	}
	text, _, _ := v.serial.snapshot()
	text = ansi.ReplaceAllString(text, "")
	started := regexp.MustCompile(`Started zeitnot\.service`).MatchString(text)
	failedRe := regexp.MustCompile(`FAILED\] Failed to start (.*)`)
	var failed []string
	for _, m := range failedRe.FindAllStringSubmatch(text, -1) {
		failed = append(failed, strings.TrimSpace(m[1]))
	}
	ok = rep.check("pi3: no unit failed to start", len(failed) == 0, "%v", failed)
	ok = rep.check("pi3: zeitnot.service started", started, "") && ok
	if pi3HW {
		pi3HardwareCheck(ctx, rep, sock, work, v, mboxLog)
	} else {
		fmt.Println("boot: ready after ? s (-M raspi3b; measured in the debug shell, which --pi3-hardware-check=false leaves out)")
	}
	v.stop()
}

// verboseKernel is what kernelArgs drops from the image's command line for
// a kernel that logs everything on the console: its quiet and loglevel=.
func verboseKernel(verbose bool) []string {
	if verbose {
		return []string{"quiet", "loglevel"}
	}
	return nil
}

func size(p []partition, n int) int64 { return part(p, n).size >> 20 }

func errString(err error, ok string) string {
	if err != nil {
		return err.Error()
	}
	return ok
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "      " + l
	}
	return strings.Join(lines, "\n")
}
