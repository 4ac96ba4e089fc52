package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/mbr"
	"github.com/zeitnot/zeitnot/internal/needtool"
)

const mibSectors = 1 << 20 / mbr.SectorSize

// TestDataDiskOf finds the data partition and its disk in a sysfs laid out
// as the kernel lays out an SD card's.
func TestDataDiskOf(t *testing.T) {
	sys := t.TempDir()
	disk := filepath.Join(sys, "devices/platform/soc/mmc0/block/mmcblk0")
	part := filepath.Join(disk, "mmcblk0p7")
	for path, text := range map[string]string{
		filepath.Join(disk, "size"):      "3911680\n",
		filepath.Join(part, "size"):      "131072\n",
		filepath.Join(part, "partition"): "7\n",
	} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(sys, "dev/block"), 0o755)
	if err := os.Symlink("../../devices/platform/soc/mmc0/block/mmcblk0/mmcblk0p7", filepath.Join(sys, "dev/block/179:7")); err != nil {
		t.Fatal(err)
	}
	os.Symlink("../../devices/platform/soc/mmc0/block/mmcblk0", filepath.Join(sys, "dev/block/179:0"))
	d, err := dataDiskOf(sys, "/dev", 179, 7)
	want := dataDisk{disk: "/dev/mmcblk0", part: "/dev/mmcblk0p7", number: 7, diskSectors: 3911680, partSectors: 131072}
	if err != nil || d != want {
		t.Errorf("dataDiskOf: %+v, %v; want %+v", d, err, want)
	}
	if _, err := dataDiskOf(sys, "/dev", 179, 0); err == nil || !strings.Contains(err.Error(), "179:0 is not a partition") {
		t.Errorf("the whole disk: %v, want not a partition", err)
	}
	if _, err := dataDiskOf(sys, "/dev", 8, 1); err == nil || !strings.Contains(err.Error(), "the block device 8:1") {
		t.Errorf("no such device: %v", err)
	}
}

// TestGrowData grows a card image that sfdisk partitioned as the image is,
// with an ext4 file system that mkfs.ext4 made for its data partition:
// the table's sectors are written, the kernel is told the new size, the
// file system grows (resize2fs, on a file standing in for the partition),
// and a second run does nothing.
func TestGrowData(t *testing.T) {
	sfdisk := needtool.Path(t, "apt-get install fdisk", "sfdisk")
	mkfs := needtool.Path(t, "apt-get install e2fsprogs", "mkfs.ext4")
	resize := needtool.Path(t, "apt-get install e2fsprogs", "resize2fs")
	dir := t.TempDir()
	img, part := filepath.Join(dir, "card.img"), filepath.Join(dir, "data.ext4")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 1492<<20); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, name string, args ...string) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Stdin = strings.NewReader(stdin)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	layout, err := os.ReadFile("../../appliance/mbr/testdata/clock.sfdisk") // the image's layout
	if err != nil {
		t.Fatal(err)
	}
	run(string(layout), sfdisk, "--no-reread", "--no-tell-kernel", "-q", img)
	run("", mkfs, "-q", "-F", "-b", "4096", "-L", "ZNDATA", part, "64M")
	if err := os.Truncate(img, 2048<<20); err != nil {
		t.Fatal(err)
	}
	d := dataDisk{disk: img, part: part, number: 7, diskSectors: 2048 * mibSectors, partSectors: 64 * mibSectors}
	var told []mbr.Partition
	var grown []string
	kernel := func(_ *os.File, p mbr.Partition) error { told = append(told, p); return nil }
	fs := func(p string) error {
		grown = append(grown, p)
		// The partition as the kernel now has it, and resize2fs on it
		// (offline here: -f, on a file).
		if err := os.Truncate(p, int64(told[len(told)-1].Sectors)*mbr.SectorSize); err != nil {
			return err
		}
		run("", resize, "-f", p)
		return nil
	}
	var log bytes.Buffer
	if err := growData(d, kernel, fs, &log); err != nil {
		t.Fatalf("growData: %v\n%s", err, log.String())
	}
	t.Logf("the first run:\n%s", log.String())
	want := mbr.Partition{Number: 7, Type: 0x83, Start: 1428 * mibSectors, Sectors: 620 * mibSectors}
	if len(told) != 1 || told[0].Number != want.Number || told[0].Start != want.Start || told[0].Sectors != want.Sectors {
		t.Errorf("the kernel was told %+v, want partition 7 at %d, %d sectors", told, want.Start, want.Sectors)
	}
	if len(grown) != 1 || grown[0] != part {
		t.Errorf("the file system grown: %q, want %s once", grown, part)
	}
	if blocks, size, err := ext4Size(part); err != nil || blocks*size != 620<<20 {
		t.Errorf("the file system after: %d blocks of %d (%v), want 620 MiB", blocks, size, err)
	}
	for _, w := range []string{"sector 0: the extended partition 4 to sector 4194304", "partition 6's link to partition 7's EBR", "partition 7 to sector 4194304", "partition 7 is 620 MiB", "grew from 64 MiB to the partition's 620 MiB"} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("the log does not say %q:\n%s", w, log.String())
		}
	}

	// The next boot: the kernel has read the new table.
	d.partSectors = want.Sectors
	log.Reset()
	told, grown = nil, nil
	if err := growData(d, kernel, fs, &log); err != nil || log.Len() != 0 || told != nil || grown != nil {
		t.Errorf("the second run: %v, told %v, grown %v, log %q; want nothing done", err, told, grown, log.String())
	}
}

// TestGrowDataBad: no table, and no file system, are errors that name the
// device, and nothing is written.
func TestGrowDataBad(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "card.img")
	os.WriteFile(img, make([]byte, 1<<20), 0o600)
	d := dataDisk{disk: img, part: filepath.Join(dir, "none"), number: 7, diskSectors: 2048, partSectors: 1}
	none := func(*os.File, mbr.Partition) error { t.Error("the kernel told"); return nil }
	nofs := func(string) error { t.Error("a file system grown"); return nil }
	if err := growData(d, none, nofs, os.Stderr); err == nil || !strings.Contains(err.Error(), img+": sector 0: no partition table signature") {
		t.Errorf("an empty card: %v", err)
	}
	if b, _ := os.ReadFile(img); !bytes.Equal(b, make([]byte, 1<<20)) {
		t.Error("the empty card was written")
	}
	os.WriteFile(d.part, make([]byte, 4096), 0o600)
	if _, _, err := ext4Size(d.part); err == nil || !strings.Contains(err.Error(), d.part+": no ext4 file system") {
		t.Errorf("no file system: %v", err)
	}
}
