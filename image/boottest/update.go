package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/slot"
	"github.com/zeitnot/zeitnot/protocol"
)

// The A/B update cases (image/README.md, "Updates"), each printing one
// "update: ..." PASS or FAIL line. They boot a copy of the image under
// -M virt again and again, the firmware's choice of slot made by firmware
// (firmware.go), with a second disk of bundles the host made from the
// build's bundle:
//
//	next.raucb    the build's system with IMAGE_VERSION V-next
//	hall.raucb    the same with V-hall, served over HTTP (hallupdate.go)
//	never.raucb   one whose zeitnot.service never says READY=1, and whose
//	              trial time limit is 150 s instead of 5 min
//	badsig.raucb  next.raucb signed by another key
//	short.raucb   next.raucb cut in half
//	arm32.raucb   a small bundle for another system (compatible)
//	old.raucb     a small bundle built before the running system
//
// A power cut is QEMU killed. The data partition's config and journal are
// hashed in every boot and must stay the same.

// bundleSigning reads the key and certificate the build signed with
// (build.sh writes their paths to image/work/slot/signing).
func bundleSigning(slotDir string) (key, cert string, err error) {
	b, err := os.ReadFile(filepath.Join(slotDir, "signing"))
	if err != nil {
		return "", "", err
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return "", "", fmt.Errorf("%s/signing: want the key's and the certificate's paths", slotDir)
	}
	return f[0], f[1], nil
}

// makeBundles writes the test's bundles into dir/bundles and returns an
// ext4 image of that directory.
func makeBundles(ctx context.Context, bundle, slotDir, dir string) (string, error) {
	key, cert, err := bundleSigning(slotDir)
	if err != nil {
		return "", err
	}
	if bundle, err = filepath.Abs(bundle); err != nil {
		return "", err
	}
	os.RemoveAll(dir)
	out := filepath.Join(dir, "bundles")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	sh := func(script string) error {
		c := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
		c.Dir = dir
		c.Env = append(os.Environ(), "KEY="+key, "CERT="+cert, "BUNDLE="+bundle)
		b, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, lastLines(string(b), 10))
		}
		return nil
	}
	// The build's bundle, unpacked; two variants of its root file system,
	// edited in place with debugfs (no mount).
	err = sh(`
rauc extract --keyring="$CERT" "$BUNDLE" orig >/dev/null
version=$(sed -n 's/^version=//p' orig/manifest.raucm)
variant() { # NAME: a copy of orig with its manifest's version NAME's
	rm -rf "$1"; mkdir "$1"
	cp --sparse=always orig/* "$1/"
	sed -i "s/^version=.*/version=$version-$1/" "$1/manifest.raucm"
}
bundle() { rauc bundle --cert="$CERT" --key="$KEY" "$1" "bundles/$1.raucb" >/dev/null; }
versioned() { # NAME: a variant whose /etc/os-release says IMAGE_VERSION V-NAME
	variant "$1"
	debugfs -R 'cat /etc/os-release' "$1/root.ext4" 2>/dev/null | sed "s/^IMAGE_VERSION=.*/IMAGE_VERSION=$version-$1/" > "os-release.$1"
	debugfs -w -R 'rm /etc/os-release' "$1/root.ext4" >/dev/null 2>&1
	debugfs -w -R "write os-release.$1 /etc/os-release" "$1/root.ext4" >/dev/null 2>&1
	bundle "$1"
}
versioned next
versioned hall
mv bundles/hall.raucb hall.raucb
rm -rf hall
variant never
printf '[Service]\nExecStart=\nExecStart=/bin/sleep infinity\nTimeoutStartSec=infinity\n' > never-ready.conf
printf '[Timer]\nOnBootSec=\nOnBootSec=150s\n' > trial-limit.conf
debugfs -w -f - never/root.ext4 >/dev/null 2>&1 <<EOF
mkdir /etc/systemd/system/zeitnot.service.d
write never-ready.conf /etc/systemd/system/zeitnot.service.d/never-ready.conf
mkdir /etc/systemd/system/zeitnot-trial.timer.d
write trial-limit.conf /etc/systemd/system/zeitnot-trial.timer.d/trial-limit.conf
EOF
debugfs -R 'cat /etc/systemd/system/zeitnot.service.d/never-ready.conf' never/root.ext4 2>/dev/null | grep -q 'sleep infinity'
bundle never
openssl req -x509 -newkey rsa:2048 -nodes -days 60 -subj "/CN=not zeitnot" -keyout other.key -out other.pem 2>/dev/null
rauc resign --keyring="$CERT" --signing-keyring=other.pem --cert=other.pem --key=other.key bundles/next.raucb bundles/badsig.raucb >/dev/null
head -c $(( $(stat -c %s bundles/next.raucb) / 2 )) bundles/next.raucb > bundles/short.raucb
small() { # NAME COMPATIBLE BUILD
	rm -rf "$1"; mkdir "$1"
	head -c 1048576 /dev/zero > "$1/root.ext4"
	printf '[update]\ncompatible=%s\nversion=%s\nbuild=%s\n\n[bundle]\nformat=plain\n\n[image.rootfs]\nfilename=root.ext4\n' "$2" "$1" "$3" > "$1/manifest.raucm"
	bundle "$1"
}
small arm32 zeitnot-rpi-armhf "$(sed -n 's/^build=//p' orig/manifest.raucm)"
small old "$(sed -n 's/^compatible=//p' orig/manifest.raucm)" 1
rm -rf orig next never arm32 old
cp bundles/never.raucb never.raucb
`)
	if err != nil {
		return "", fmt.Errorf("making the test's bundles: %v", err)
	}
	img := filepath.Join(dir, "bundles.ext4")
	if _, err := command(ctx, 5*time.Minute, "sh", "-c", fmt.Sprintf("size=$(( $(du -sm %s | cut -f1) + 64 )); mke2fs -q -t ext4 -L ZNBUNDLES -d %s %s ${size}M", out, out, img)); err != nil {
		return "", err
	}
	return img, os.RemoveAll(out)
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// updateRig is the disk, the bundles and the stand-in firmware of the
// update cases, and the boot under way.
type updateRig struct {
	ctx                     context.Context
	rep                     *report
	disk, bundles, work     string
	parts                   []partition
	fw                      firmware
	boots                   int
	v                       *vm
	sh                      *shell
	booted                  slot.Name
	timeout                 time.Duration
	dataBefore, versionBase string
	// nic is QEMU's -nic for the boots: "" for none.
	nic string
}

// boot starts the next boot of the card and waits for the debug shell.
func (r *updateRig) boot() error {
	r.stop()
	r.boots++
	b, n, err := r.fw.boot(r.ctx, r.disk, r.parts, r.work, "")
	if err != nil {
		return err
	}
	r.booted = n
	sock := filepath.Join(r.work, "update-shell.sock")
	os.Remove(sock)
	os.Remove(r.qmp())
	serialLog, err := os.Create(filepath.Join(r.work, fmt.Sprintf("update-serial-%d.log", r.boots)))
	if err != nil {
		return err
	}
	shellLog, _ := os.Create(filepath.Join(r.work, fmt.Sprintf("update-shell-%d.log", r.boots)))
	nic := r.nic
	if nic == "" {
		nic = "none"
	}
	args := []string{"qemu-system-aarch64", "-M", "virt", "-cpu", cpuModel, "-smp", "2", "-m", "1024",
		"-accel", "tcg,thread=multi", "-display", "none", "-monitor", "none", "-nic", nic, "-no-reboot",
		"-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
		"-kernel", b.kernel, "-initrd", b.initrd,
		"-append", kernelArgs(b.cmdline, []string{"quiet", "loglevel"},
			"console=ttyAMA0", "systemd.show_status=1", "systemd.debug_shell=/dev/hvc0",
			"systemd.mask=serial-getty@hvc0.service", slowDevices),
		"-drive", "if=none,id=hd,format=raw,file=" + r.disk, "-device", "virtio-blk-pci,drive=hd",
		"-drive", "if=none,id=bd,format=raw,readonly=on,file=" + r.bundles, "-device", "virtio-blk-pci,drive=bd",
		"-device", "virtio-serial-pci", "-chardev", "socket,id=sh,path=" + sock + ",server=on,wait=off",
		"-device", "virtconsole,chardev=sh", "-device", "virtio-rng-pci",
		"-qmp", "unix:" + r.qmp() + ",server=on,wait=off"}
	args = append(args, usbArgs()...)
	r.v, err = startVM(args, serialLog)
	if err != nil {
		return err
	}
	r.sh, err = dialShell(r.ctx, sock, 30*time.Second, shellLog, r.v.done)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(r.timeout)
	for {
		r.sh.send("PS1=''; stty -echo 2>/dev/null")
		if _, _, err = r.sh.run(r.ctx, "true", 5*time.Second); err == nil {
			return nil
		}
		select {
		case <-r.v.done:
			return fmt.Errorf("QEMU exited before the debug shell answered")
		default:
		}
		if time.Now().After(deadline) || r.ctx.Err() != nil {
			return fmt.Errorf("no debug shell after %s: %v", r.timeout, err)
		}
	}
}

// qmp is the boot's QEMU machine protocol socket, which sticks are put
// in through.
func (r *updateRig) qmp() string {
	p, _ := filepath.Abs(filepath.Join(r.work, "update-qmp.sock"))
	return p
}

func (r *updateRig) run(cmd string, timeout time.Duration) (string, int) {
	out, code, err := r.sh.run(r.ctx, cmd, timeout)
	if err != nil {
		return out + "\n" + err.Error(), -1
	}
	return strings.TrimSpace(out), code
}

// powerCut kills QEMU: the firmware's flag is not set.
func (r *updateRig) powerCut() {
	r.stop()
}

func (r *updateRig) stop() {
	if r.v != nil {
		r.v.stop()
		r.sh.close()
		r.v, r.sh = nil, nil
	}
}

// waitRestart waits for the guest to restart by itself, and hands its
// restart command to the firmware.
func (r *updateRig) waitRestart(timeout time.Duration) error {
	select {
	case <-r.v.done:
	case <-time.After(timeout):
		return fmt.Errorf("no restart within %s", timeout)
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
	text, _, _ := r.v.serial.snapshot()
	if !strings.Contains(text, "reboot: Restarting system") {
		return fmt.Errorf("QEMU exited without the kernel restarting: %s", lastLines(text, 5))
	}
	r.fw.restarted(text)
	r.v, r.sh = nil, nil
	return nil
}

// ready waits for the boot to finish (multi-user, or a failed unit).
func (r *updateRig) ready() string {
	out, _ := r.run(fmt.Sprintf("timeout %d systemctl is-system-running --wait", int(r.timeout.Seconds())), r.timeout+10*time.Second)
	return out
}

// dataSum hashes the data partition's config and journal.
const dataSum = `cd /var/lib/zeitnot && find . -type f \( -name zeitnot.toml -o -name 'game.log*' -o -path './games/*' \) | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16`

// slotsSum hashes both slots' partitions and autoboot.txt: a refused
// bundle must write nothing.
const slotsSum = `cat /dev/disk/by-partuuid/5a4e5431-02 /dev/disk/by-partuuid/5a4e5431-03 /dev/disk/by-partuuid/5a4e5431-05 /dev/disk/by-partuuid/5a4e5431-06 /boot/firmware/autoboot.txt | sha256sum | cut -c1-16`

// checkData is the data partition's check after a case.
func (r *updateRig) checkData(name string) {
	out, code := r.run(dataSum, 60*time.Second)
	r.rep.check("update: "+name+": journal and config unchanged", code == 0 && out == r.dataBefore, "%s (before %s)", out, r.dataBefore)
}

// journalText is the journal's text (its preallocated tail of zeros
// left out) and the hash of the config and the finished games: a bundle
// installed through the daemon adds the daemon's notes of it to the
// journal, so the journal before must be where the journal after begins.
const journalText = `cd /var/lib/zeitnot && cat game.log* | tr -d '\000'`
const configGames = `cd /var/lib/zeitnot && find . -type f \( -name zeitnot.toml -o -path './games/*' \) | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16`

func (r *updateRig) show() string {
	// The debug shell may answer before /boot/firmware is mounted.
	out, _ := r.run("for i in $(seq 1 480); do [ -e /boot/firmware/autoboot.txt ] && break; sleep 0.5; done; zeitnot slot show", 5*time.Minute)
	return out
}

func updateBoots(ctx context.Context, rep *report, image, bundle, work string, bootTimeout time.Duration) {
	fmt.Println("== A/B updates under qemu-system-aarch64 -M virt")
	fail := func(what string, err error) { rep.check("update: "+what, false, "%v", err) }
	bundles, err := makeBundles(ctx, bundle, filepath.Join(filepath.Dir(image), "slot"), filepath.Join(work, "update"))
	if err != nil {
		fail("the test's bundles", err)
		return
	}
	disk := filepath.Join(work, "update.img")
	if err := copyDisk(ctx, image, disk, cardSize); err != nil {
		fail("prepare disk", err)
		return
	}
	defer os.Remove(disk)
	parts, err := readMBR(disk)
	if err != nil {
		fail("partition table", err)
		return
	}
	toml := filepath.Join(work, "zeitnot.toml")
	os.WriteFile(toml, []byte(simConfig), 0o644)
	if _, err := command(ctx, 30*time.Second, "mcopy", "-o", "-i", fat(disk, part(parts, 1)), toml, "::zeitnot.toml"); err != nil {
		fail("zeitnot.toml on the boot partition", err)
		return
	}
	r := &updateRig{ctx: ctx, rep: rep, disk: disk, bundles: bundles, work: work, parts: parts, timeout: bootTimeout}
	defer r.stop()
	lastBoot := func() {
		if r.v != nil {
			fmt.Println("---- last 30 lines of the serial console ----")
			fmt.Println(r.v.serial.lastLines(30))
		}
	}
	defer func() {
		if rep.failed() > 0 {
			lastBoot()
		}
	}()

	// Boot 1: the new card, slot A; B empty and bad.
	if err := r.boot(); err != nil {
		fail("first boot", err)
		return
	}
	st := r.ready()
	r.dataBefore, _ = r.run(dataSum, 60*time.Second)
	r.versionBase, _ = r.run(". /etc/os-release; echo $IMAGE_VERSION", 10*time.Second)
	if !rep.check("update: a new card boots slot A, B is bad", r.booted == A && r.show() == "primary=A booted=A trial=false bad=B",
		"firmware chose %s; %s; system %s", r.booted, r.show(), st) {
		return
	}
	if _, code := r.run("mkdir -p /run/b && mount -o ro /dev/disk/by-label/ZNBUNDLES /run/b", 60*time.Second); code != 0 {
		fail("the bundles' disk", fmt.Errorf("not mounted"))
		return
	}
	slotsBefore, _ := r.run(slotsSum, 5*time.Minute)
	for _, c := range []struct{ name, bundle, says string }{
		{"a bundle signed by another key is refused", "badsig", "signature is not from this clock's key"},
		{"a truncated bundle is refused", "short", "refused"},
		{"a bundle for another architecture is refused", "arm32", "for another system"},
		{"a bundle older than the running system is refused", "old", "older than the running system"},
	} {
		out, code := r.run("zeitnot update /run/b/"+c.bundle+".raucb", 5*time.Minute)
		after, _ := r.run(slotsSum, 5*time.Minute)
		rep.check("update: "+c.name+", nothing written", code == 1 && strings.Contains(out, "update: refused") && strings.Contains(out, c.says) && after == slotsBefore,
			"exit %d: %s; slots %s -> %s", code, lastLines(out, 2), slotsBefore, after)
	}

	// A power cut while RAUC writes slot B: the next boot is A, B bad.
	r.run("(zeitnot update --no-reboot /run/b/next.raucb > /run/update.log 2>&1 &)", 10*time.Second)
	// Writing has begun once slot B's boot or root partition, all zeros
	// before, is not.
	out, code := r.run("for i in $(seq 1 600); do for p in 03 06; do [ $(head -c 4194304 /dev/disk/by-partuuid/5a4e5431-$p | tr -d '\\000' | wc -c) -gt 0 ] && exit 0; done; sleep 0.5; done; cat /run/update.log; exit 1", 6*time.Minute)
	r.run("sleep 3", 10*time.Second)
	r.powerCut()
	if code != 0 {
		fail("power cut mid-install", fmt.Errorf("RAUC never started writing: %s", out))
		return
	}
	if err := r.boot(); err != nil {
		fail("boot after the power cut mid-install", err)
		return
	}
	st = r.ready()
	rep.check("update: power cut mid-install: the old slot boots, the new one is bad", r.booted == A && r.show() == "primary=A booted=A trial=false bad=B",
		"firmware chose %s; %s; system %s", r.booted, r.show(), st)
	r.checkData("power cut mid-install")

	// Install, reboot "0 tryboot"; a power cut in the trial boots A.
	r.run("mkdir -p /run/b && mount -o ro /dev/disk/by-label/ZNBUNDLES /run/b", 60*time.Second)
	out, _ = r.run("zeitnot update /run/b/next.raucb", 10*time.Minute)
	if err := r.waitRestart(4 * time.Minute); err != nil || !r.fw.tryboot {
		fail("install and trial reboot", fmt.Errorf("%v (tryboot flag %v): %s", err, r.fw.tryboot, lastLines(out, 3)))
		return
	}
	if err := r.boot(); err != nil {
		fail("trial boot", err)
		return
	}
	trial := r.show()
	r.powerCut()
	if err := r.boot(); err != nil {
		fail("boot after the power cut in the trial", err)
		return
	}
	r.ready()
	rep.check("update: power cut during the trial boot: the old slot boots", strings.Contains(trial, "booted=B trial=true") && r.booted == A && strings.HasPrefix(r.show(), "primary=A booted=A"),
		"in the trial: %s; after: firmware chose %s, %s", trial, r.booted, r.show())
	r.checkData("power cut during the trial")

	// The trial again, this time to the end: the clock comes up on B, B
	// is committed.
	r.run("systemctl reboot --reboot-argument='0 tryboot'", 20*time.Second)
	if err := r.waitRestart(3 * time.Minute); err != nil || !r.fw.tryboot {
		fail("trial reboot", fmt.Errorf("%v (tryboot flag %v)", err, r.fw.tryboot))
		return
	}
	if err := r.boot(); err != nil {
		fail("second trial boot", err)
		return
	}
	st = r.ready()
	good, _ := r.run("systemctl show -p ActiveState,Result --value zeitnot-update-good.service | xargs", 20*time.Second)
	ver, _ := r.run(". /etc/os-release; echo $IMAGE_VERSION", 10*time.Second)
	rep.check("update: a bundle installs and the clock comes back on the new version, marked good",
		r.booted == B && r.show() == "primary=B booted=B trial=false bad=none" && ver == r.versionBase+"-next" && strings.Contains(good, "active"),
		"firmware chose %s; %s; version %s; zeitnot-update-good %s; system %s", r.booted, r.show(), ver, good, st)
	r.checkData("install")
	// After the commit a reboot without the flag stays on B.
	r.run("systemctl reboot", 20*time.Second)
	if err := r.waitRestart(3 * time.Minute); err != nil {
		fail("reboot after the commit", err)
		return
	}
	if err := r.boot(); err != nil {
		fail("boot after the commit", err)
		return
	}
	r.ready()
	rep.check("update: after the commit a normal boot is the new slot", r.booted == B && strings.HasPrefix(r.show(), "primary=B booted=B"), "firmware chose %s; %s", r.booted, r.show())

	// A bundle whose daemon never becomes ready, from a USB stick: the
	// stick's exporter copies it into the spool and offers it, the clock
	// asks, OK installs it through the installer. Its trial times out, it
	// is marked bad, and the clock is back on B by itself.
	stick, err := bundleStick(r.ctx, r.work, filepath.Join(r.work, "update", "never.raucb"))
	if err != nil {
		fail("a stick with a bundle", err)
		return
	}
	textBefore, _ := r.run(journalText, 60*time.Second)
	gamesBefore, _ := r.run(configGames, 60*time.Second)
	q, err := dialQMP(r.qmp())
	if err == nil {
		err = q.attach("update-stick", stick)
	}
	if err != nil {
		fail("the stick put in", err)
		return
	}
	defer q.close()
	// The guest's loop ends by itself before the shell's wait does, so
	// that what it found is printed; every minute it notes the update's
	// state and the spool, to show how far the copy got.
	out, code = r.run(`end=$(( $(date +%s) + 720 )); next=0; while [ $(date +%s) -lt $end ]; do s=$(zeitnot status 2>/dev/null | grep -o '"update":{[^}]*}'); case $s in *'"state":"offered"'*) exit 0;; esac; `+
		`if [ $(date +%s) -ge $next ]; then next=$(( $(date +%s) + 60 )); echo "$(cut -d' ' -f1 /proc/uptime) s: $s; spool: $(ls -l `+protocol.UpdateSpool+` 2>&1 | tail -n +2 | awk '{print $5, $9}' | xargs)"; fi; sleep 1; done; `+
		`journalctl -b -o cat -u 'zeitnot-usb@*' -u zeitnot-installer.service | tail -n 15; journalctl -b -o cat -u zeitnot.service | grep -i update | tail -n 10; exit 1`, 14*time.Minute)
	rep.check("update: a bundle on a USB stick is offered at the clock", code == 0, "%s", lastLines(out, 40))
	if code != 0 {
		// Where the stick got to: QEMU's USB bus, the guest's kernel,
		// its block devices and the stick's unit.
		usbInfo, err := q.hmp("info usb")
		fmt.Printf("update: the stick: QEMU's info usb: %q %v\n", usbInfo, err)
		diag, _ := r.run(`lsmod | grep -E 'xhci|usb'; ls /sys/bus/usb/devices /sys/block; dmesg | grep -i -E 'usb|xhci|sd[a-z]|scsi' | tail -n 25; systemctl list-units --all --no-legend 'zeitnot-usb@*'`, 60*time.Second)
		fmt.Printf("update: the stick, in the guest:\n%s\n", diag)
		return
	}
	// The clock asks in the step that takes the installer's check, before
	// it answers the status request that saw the offer; OK answers it.
	out, code = r.run(`zeitnot press ok && for i in $(seq 1 60); do zeitnot status | grep -q '"state":"installing"' && exit 0; sleep 0.5; done; zeitnot status; exit 1`, 2*time.Minute)
	if !rep.check("update: OK at the clock starts the installation", code == 0, "%s", lastLines(out, 3)) {
		return
	}
	if err := r.waitRestart(15 * time.Minute); err != nil || !r.fw.tryboot {
		rep.check("update: OK at the clock installs the stick's bundle and restarts into its trial", false, "%v (tryboot flag %v): %s", err, r.fw.tryboot, lastLines(out, 3))
		return
	}
	rep.check("update: OK at the clock installs the stick's bundle and restarts into its trial", true, "tryboot flag set")
	if err := r.boot(); err != nil {
		fail("never-ready trial boot", err)
		return
	}
	trial = r.show()
	err = r.waitRestart(150*time.Second + 2*bootTimeout)
	flag := r.fw.tryboot
	if err != nil {
		fail("daemon never ready: back to the old slot", err)
		return
	}
	if err := r.boot(); err != nil {
		fail("boot after the failed trial", err)
		return
	}
	r.ready()
	rep.check("update: daemon never ready: back to the old slot by itself, the new one bad",
		strings.Contains(trial, "booted=A trial=true") && !flag && r.booted == B && r.show() == "primary=B booted=B trial=false bad=A",
		"in the trial: %s; after: firmware chose %s, %s", trial, r.booted, r.show())
	textAfter, _ := r.run(journalText, 60*time.Second)
	gamesAfter, _ := r.run(configGames, 60*time.Second)
	rep.check("update: daemon never ready: journal kept (the daemon's notes of the update added), config and games unchanged",
		textBefore != "" && strings.HasPrefix(textAfter, textBefore) && gamesAfter == gamesBefore,
		"journal %d -> %d bytes, notes added: %q; config and games %s -> %s", len(textBefore), len(textAfter),
		lastLines(strings.TrimPrefix(textAfter, textBefore), 4), gamesBefore, gamesAfter)
	r.hallUpdate(filepath.Join(r.work, "update", "hall.raucb"))
	r.stop()
	fmt.Printf("      %d boots\n", r.boots)
}

// A and B spelled for this file's checks.
const (
	A = slot.A
	B = slot.B
)

// bundleStick makes a FAT stick image holding bundle at its top level.
func bundleStick(ctx context.Context, work, bundle string) (string, error) {
	st, err := os.Stat(bundle)
	if err != nil {
		return "", err
	}
	img, _ := filepath.Abs(filepath.Join(work, "update-stick.img"))
	os.Remove(img)
	kib := st.Size()/1024 + 16*1024
	if out, err := command(ctx, 30*time.Second, "mkfs.fat", "-n", "STICK", "-C", img, fmt.Sprint(kib)); err != nil {
		return "", fmt.Errorf("mkfs.fat: %v: %s", err, out)
	}
	if out, err := command(ctx, 2*time.Minute, "mcopy", "-i", img, bundle, "::/"+filepath.Base(bundle)); err != nil {
		return "", fmt.Errorf("mcopy %s: %v: %s", bundle, err, out)
	}
	return img, nil
}
