package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// partition is one MBR partition entry.
type partition struct {
	num    int
	typ    byte
	offset int64 // bytes
	size   int64 // bytes
}

// readMBR reads a disk image's partitions: the primary ones and the
// logical ones in the extended partition (numbered from 5, the extended
// one itself left out). The image has the A/B layout of
// image/genimage.cfg.in: 1 (autoboot.txt), 2 and 3 (the slots' boot
// files), 5 and 6 (their roots), 7 (data).
func readMBR(path string) ([]partition, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	table := func(at int64) ([]byte, error) {
		b := make([]byte, 512)
		if _, err := f.ReadAt(b, at); err != nil {
			return nil, fmt.Errorf("%s: reading the partition table at %d: %v", path, at, err)
		}
		if b[510] != 0x55 || b[511] != 0xaa {
			return nil, fmt.Errorf("%s: no partition table at byte %d", path, at)
		}
		return b, nil
	}
	entry := func(b []byte, i int) (typ byte, start, size int64) {
		e := b[446+16*i : 446+16*(i+1)]
		return e[4], int64(binary.LittleEndian.Uint32(e[8:12])) * 512, int64(binary.LittleEndian.Uint32(e[12:16])) * 512
	}
	mbr, err := table(0)
	if err != nil {
		return nil, err
	}
	var parts []partition
	var extended int64 = -1
	for i := 0; i < 4; i++ {
		typ, start, size := entry(mbr, i)
		switch typ {
		case 0:
		case 0x05, 0x0f:
			extended = start
		default:
			parts = append(parts, partition{num: i + 1, typ: typ, offset: start, size: size})
		}
	}
	// The logical partitions: a chain of extended boot records, each
	// holding one partition (relative to itself) and the next record
	// (relative to the extended partition).
	for ebr, n := extended, 5; ebr >= 0 && n < 64; n++ {
		b, err := table(ebr)
		if err != nil {
			return nil, err
		}
		typ, start, size := entry(b, 0)
		parts = append(parts, partition{num: n, typ: typ, offset: ebr + start, size: size})
		if ntyp, next, _ := entry(b, 1); ntyp != 0 {
			ebr = extended + next
		} else {
			ebr = -1
		}
	}
	var nums []int
	for _, p := range parts {
		nums = append(nums, p.num)
	}
	if fmt.Sprint(nums) != "[1 2 3 5 6 7]" {
		return nil, fmt.Errorf("%s: expected partitions 1, 2, 3 and 5, 6, 7 (autoboot, boot A and B, root A and B, data), found %v", path, nums)
	}
	return parts, nil
}

// part returns partition number n.
func part(parts []partition, n int) partition {
	for _, p := range parts {
		if p.num == n {
			return p
		}
	}
	return partition{}
}

// command runs a helper program with a timeout and returns its output.
func command(ctx context.Context, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// fat addresses the FAT boot partition inside a disk image for mtools.
func fat(img string, p partition) string { return fmt.Sprintf("%s@@%d", img, p.offset) }

// copyDisk copies a disk image, sparsely, and grows the copy to size bytes
// if size is larger (QEMU's raspi machines want an SD card size that is a
// power of two).
func copyDisk(ctx context.Context, src, dst string, size int64) error {
	os.Remove(dst)
	if strings.HasSuffix(src, ".xz") {
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		c := exec.CommandContext(ctx, "xz", "-dc", src)
		c.Stdout = out
		err = c.Run()
		out.Close()
		if err != nil {
			return fmt.Errorf("xz -dc %s: %v", src, err)
		}
	} else if _, err := command(ctx, 2*time.Minute, "cp", "--sparse=always", src, dst); err != nil {
		return err
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return err
	}
	if size > fi.Size() {
		return os.Truncate(dst, size)
	}
	return nil
}

// cardSize is the size of the test's SD cards: larger than the image, as
// every card it is flashed to is, so that the first boot grows the data
// partition (zeitnot-grow-data.service) as it does on a real card; a power
// of two, as QEMU's raspi machines want.
const cardSize = 2 << 30

func nextPow2(n int64) int64 {
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// bootFiles reads config.txt from the boot partition and copies the kernel
// and initramfs it names (and, if dtb is not empty, that device tree) out.
type bootFiles struct {
	kernel, initrd, dtb, cmdline string
}

func extractBoot(ctx context.Context, img string, boot partition, dir, dtb string) (*bootFiles, error) {
	src := fat(img, boot)
	config, err := command(ctx, 30*time.Second, "mtype", "-i", src, "::config.txt")
	if err != nil {
		return nil, err
	}
	cmdline, err := command(ctx, 30*time.Second, "mtype", "-i", src, "::cmdline.txt")
	if err != nil {
		return nil, err
	}
	var kernel, initrd string
	sc := bufio.NewScanner(strings.NewReader(config))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		if v, ok := strings.CutPrefix(line, "kernel="); ok && kernel == "" {
			kernel = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "initramfs "); ok && initrd == "" {
			initrd = strings.Fields(v)[0]
		}
	}
	if kernel == "" || initrd == "" {
		return nil, fmt.Errorf("config.txt names no kernel= or initramfs:\n%s", config)
	}
	b := &bootFiles{
		kernel:  filepath.Join(dir, "kernel"),
		initrd:  filepath.Join(dir, "initrd"),
		cmdline: strings.TrimSpace(cmdline),
	}
	get := func(name, dst string) error {
		os.Remove(dst)
		_, err := command(ctx, time.Minute, "mcopy", "-n", "-i", src, "::"+name, dst)
		return err
	}
	if err := get(kernel, b.kernel); err != nil {
		return nil, err
	}
	if err := get(initrd, b.initrd); err != nil {
		return nil, err
	}
	if dtb != "" {
		b.dtb = filepath.Join(dir, dtb)
		if err := get(dtb, b.dtb); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// kernelArgs returns cmdline.txt's arguments without its console= ones and
// without those in drop, followed by extra.
func kernelArgs(cmdline string, drop []string, extra ...string) string {
	var args []string
	for _, a := range strings.Fields(cmdline) {
		skip := strings.HasPrefix(a, "console=")
		for _, d := range drop {
			if a == d || strings.HasPrefix(a, d+"=") {
				skip = true
			}
		}
		if !skip {
			args = append(args, a)
		}
	}
	return strings.Join(append(args, extra...), " ")
}

// dataGrown reads the guest's answer to the data partition's check: the
// unit's state, the disk's size, the partition's start and size (sysfs, in
// 512-byte sectors), the file system's block size and block count (stat
// -f) and how many journal lines say it grew. Grown means: the unit is
// active, the partition ends within 4 MiB of the disk's end, its file
// system has at least 90% of it (statfs leaves out ext4's own metadata),
// and the journal says this boot grew it.
func dataGrown(out string) bool {
	f := strings.Fields(out)
	if len(f) != 7 || f[0] != "active" {
		return false
	}
	var n [6]uint64
	for i := range n {
		v, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return false
		}
		n[i] = v
	}
	disk, start, sectors, bsize, blocks, grew := n[0], n[1], n[2], n[3], n[4], n[5]
	const align = 4 << 20 / 512
	return start+sectors <= disk && disk-(start+sectors) < align && bsize*blocks*10 >= sectors*512*9 && grew >= 1
}
