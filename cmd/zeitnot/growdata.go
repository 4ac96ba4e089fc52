package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/appliance/mbr"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "grow-data",
		Summary: "give the data partition the rest of the SD card (at boot, by zeitnot-grow-data.service)",
		Run:     runGrowData,
	})
}

const growDataUsage = `Usage:
  zeitnot grow-data [--mount DIR]
      Grows the data partition mounted on DIR (the card's last logical
      partition, 7) to the end of the card, and its ext4 file system
      with it, while it is mounted: the image is smaller than any card, and
      an update's bundle is spooled there. The partition table's sectors
      are written one by one, each synced, in an order that a power cut
      between any two leaves valid (appliance/mbr); the next boot finishes
      the job. Nothing is written when the partition already ends within
      4 MiB of the card's end, and the file system already fills it.
      Exit 0 when done or when there is nothing to do, 1 on an error.

Flags:
`

// growAlign is the partitions' alignment in the image (genimage.cfg.in:
// align = 4M), in sectors.
const growAlign = 4 << 20 / mbr.SectorSize

func runGrowData(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("grow-data", stderr)
	mount := flags.String("mount", "/data", "the data partition's mount point")
	if code, ok := subcmd.Parse(flags, growDataUsage, args); !ok {
		return code
	}
	if flags.NArg() != 0 {
		fmt.Fprintf(stderr, "zeitnot grow-data: unexpected arguments %q\n", flags.Args())
		return 2
	}
	d, err := findDataDisk(*mount, "/sys", "/dev")
	if err == nil {
		err = growData(d, kernelResize, resize2fs, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot grow-data: %v\n", err)
		return 1
	}
	return 0
}

// dataDisk is the data partition and the disk that holds it.
type dataDisk struct {
	disk, part  string // their device nodes: /dev/mmcblk0, /dev/mmcblk0p7
	number      int    // the partition's number
	diskSectors uint64 // the disk's size (sysfs counts 512-byte sectors)
	partSectors uint64 // the partition's size as the kernel has it
}

// findDataDisk finds the partition mounted on mount, and its disk, through
// sysfs: /sys/dev/block/MAJOR:MINOR is the partition's directory, inside
// its disk's.
func findDataDisk(mount, sys, dev string) (dataDisk, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(mount, &st); err != nil {
		return dataDisk{}, fmt.Errorf("%s: %v", mount, err)
	}
	var root syscall.Stat_t
	if err := syscall.Stat(filepath.Dir(mount), &root); err == nil && root.Dev == st.Dev {
		return dataDisk{}, fmt.Errorf("%s: nothing is mounted there", mount)
	}
	return dataDiskOf(sys, dev, unix.Major(st.Dev), unix.Minor(st.Dev))
}

func dataDiskOf(sys, dev string, major, minor uint32) (dataDisk, error) {
	dir, err := filepath.EvalSymlinks(filepath.Join(sys, "dev/block", fmt.Sprintf("%d:%d", major, minor)))
	if err != nil {
		return dataDisk{}, fmt.Errorf("the block device %d:%d: %v", major, minor, err)
	}
	num, err := readSysNumber(filepath.Join(dir, "partition"))
	if err != nil {
		return dataDisk{}, fmt.Errorf("the block device %d:%d is not a partition: %v", major, minor, err)
	}
	d := dataDisk{number: int(num), part: filepath.Join(dev, filepath.Base(dir)), disk: filepath.Join(dev, filepath.Base(filepath.Dir(dir)))}
	if d.partSectors, err = readSysNumber(filepath.Join(dir, "size")); err != nil {
		return d, err
	}
	if d.diskSectors, err = readSysNumber(filepath.Join(filepath.Dir(dir), "size")); err != nil {
		return d, err
	}
	return d, nil
}

func readSysNumber(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	return n, nil
}

// growData grows d's partition to the disk's end (mbr.Table.Grow), tells
// the kernel its new size (resize, while it is mounted) and grows the
// file system (fs), each only if it is not done yet, and says what it did
// on log.
func growData(d dataDisk, resize func(disk *os.File, p mbr.Partition) error, fs func(part string) error, log io.Writer) error {
	f, err := os.OpenFile(d.disk, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := mbr.Read(f, d.diskSectors)
	if err != nil {
		return fmt.Errorf("%s: %v", d.disk, err)
	}
	p, ws, err := t.Grow(d.number, d.diskSectors, growAlign)
	if err != nil {
		return fmt.Errorf("%s: %v", d.disk, err)
	}
	for _, w := range ws {
		if _, err := f.WriteAt(w.Data, int64(w.LBA)*mbr.SectorSize); err != nil {
			return fmt.Errorf("%s: %s: %v", d.disk, w.What, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("%s: %s: %v", d.disk, w.What, err)
		}
		fmt.Fprintf(log, "%s: sector %d: %s\n", d.disk, w.LBA, w.What)
	}
	if d.partSectors < p.Sectors {
		if err := resize(f, p); err != nil {
			return fmt.Errorf("%s: telling the kernel partition %d's new size: %v", d.disk, p.Number, err)
		}
		fmt.Fprintf(log, "%s: partition %d is %d MiB\n", d.part, p.Number, p.Sectors*mbr.SectorSize>>20)
	}
	blocks, size, err := ext4Size(d.part)
	if err != nil {
		return err
	}
	if fsBytes, partBytes := blocks*size, p.Sectors*mbr.SectorSize; fsBytes+size <= partBytes {
		if err := fs(d.part); err != nil {
			return fmt.Errorf("%s: growing its file system: %v", d.part, err)
		}
		fmt.Fprintf(log, "%s: the file system grew from %d MiB to the partition's %d MiB\n", d.part, fsBytes>>20, partBytes>>20)
	}
	return nil
}

// ext4Size reads the block count and block size from the ext4 superblock
// on part.
func ext4Size(part string) (blocks, size uint64, err error) {
	f, err := os.Open(part)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sb := make([]byte, 1024)
	if _, err := f.ReadAt(sb, 1024); err != nil {
		return 0, 0, fmt.Errorf("%s: its superblock: %v", part, err)
	}
	if binary.LittleEndian.Uint16(sb[0x38:]) != 0xef53 {
		return 0, 0, fmt.Errorf("%s: no ext4 file system (no superblock magic)", part)
	}
	logSize := binary.LittleEndian.Uint32(sb[0x18:])
	if logSize > 6 {
		return 0, 0, fmt.Errorf("%s: its superblock gives a block size of 2^%d KiB", part, logSize)
	}
	blocks = uint64(binary.LittleEndian.Uint32(sb[0x04:]))
	if binary.LittleEndian.Uint32(sb[0x60:])&0x80 != 0 { // INCOMPAT_64BIT
		blocks |= uint64(binary.LittleEndian.Uint32(sb[0x150:])) << 32
	}
	return blocks, 1024 << logSize, nil
}

// kernelResize tells the kernel partition p's new size (BLKPG's
// BLKPG_RESIZE_PARTITION, which a mounted partition allows).
func kernelResize(disk *os.File, p mbr.Partition) error {
	bp := unix.BlkpgPartition{Start: int64(p.Start * mbr.SectorSize), Length: int64(p.Sectors * mbr.SectorSize), Pno: int32(p.Number)}
	arg := unix.BlkpgIoctlArg{Op: unix.BLKPG_RESIZE_PARTITION, Datalen: int32(unsafe.Sizeof(bp)), Data: (*byte)(unsafe.Pointer(&bp))}
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, disk.Fd(), unix.BLKPG, uintptr(unsafe.Pointer(&arg))); e != 0 {
		return e
	}
	return nil
}

// resize2fs grows the mounted file system on part to its partition's size
// (e2fsprogs' resize2fs, online).
func resize2fs(part string) error {
	out, err := exec.Command("resize2fs", part).CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("resize2fs %s: %v: %s", part, err, strings.TrimSpace(string(out)))
		}
		return err
	}
	return nil
}
