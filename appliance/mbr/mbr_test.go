package mbr

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/needtool"
)

const mib = 1 << 20 / SectorSize // sectors in a MiB

// disk is an in-memory disk, sparse: the sectors written, zeros elsewhere.
type disk struct {
	n   uint64 // sectors
	sec map[uint64][]byte
}

func (d *disk) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off%SectorSize != 0 || len(p) != SectorSize || uint64(off)/SectorSize >= d.n {
		return 0, errors.New("out of the disk")
	}
	if s, ok := d.sec[uint64(off)/SectorSize]; ok {
		return copy(p, s), nil
	}
	clear(p)
	return len(p), nil
}

// at is sector lba, to write in.
func (d *disk) at(lba uint64) []byte {
	if d.sec[lba] == nil {
		d.sec[lba] = make([]byte, SectorSize)
	}
	return d.sec[lba]
}

func (d *disk) apply(ws []Write) {
	for _, w := range ws {
		copy(d.at(w.LBA), w.Data)
	}
}

func (d *disk) sectors() uint64 { return d.n }

func putEntry(sec []byte, i int, typ byte, start, count uint64) {
	b := sec[446+16*i:]
	b[4] = typ
	binary.LittleEndian.PutUint32(b[8:], uint32(start))
	binary.LittleEndian.PutUint32(b[12:], uint32(count))
}

func sign(sec []byte) { sec[510], sec[511] = 0x55, 0xaa }

// clockLayout is the image's layout (image/genimage.cfg.in), in MiB: 1 the
// autoboot FAT, 2 and 3 the boot slots, 4 extended with 5 and 6 the root
// slots and 7 the data partition, on a disk of size MiB.
func clockLayout(size uint64, data uint64) *disk {
	d := &disk{n: size * mib, sec: map[uint64][]byte{}}
	mbr := d.at(0)
	binary.LittleEndian.PutUint32(mbr[440:], 0x5a4e5431)
	putEntry(mbr, 0, 0x0e, 4*mib, 4*mib)
	putEntry(mbr, 1, 0x0c, 8*mib, 64*mib)
	putEntry(mbr, 2, 0x0c, 72*mib, 64*mib)
	ext := uint64(136 * mib)
	// Logical partitions at 4 MiB alignment, each EBR 4 MiB before it.
	roots := []uint64{ext + 4*mib, ext + 4*mib + 640*mib + 4*mib}
	dataStart := roots[1] + 640*mib + 4*mib
	extEnd := dataStart + data*mib
	putEntry(mbr, 3, 0x0f, ext, extEnd-ext)
	sign(mbr)
	ebrs := []uint64{ext, roots[0] + 640*mib, roots[1] + 640*mib}
	starts := []uint64{roots[0], roots[1], dataStart}
	counts := []uint64{640 * mib, 640 * mib, data * mib}
	for i, e := range ebrs {
		sec := d.at(e)
		putEntry(sec, 0, 0x83, starts[i]-e, counts[i])
		if i+1 < len(ebrs) {
			putEntry(sec, 1, 0x05, ebrs[i+1]-ext, starts[i+1]+counts[i+1]-ebrs[i+1])
		}
		sign(sec)
	}
	return d
}

func TestReadClockLayout(t *testing.T) {
	d := clockLayout(2048, 64)
	tb, err := Read(d, d.sectors())
	if err != nil {
		t.Fatal(err)
	}
	if tb.Signature != 0x5a4e5431 {
		t.Errorf("signature %#x", tb.Signature)
	}
	var nums []int
	for _, p := range tb.Partitions {
		nums = append(nums, p.Number)
	}
	if len(nums) != 7 || nums[6] != 7 {
		t.Fatalf("partitions %v, want 1 to 7", nums)
	}
	p, _ := tb.Partition(7)
	if p.Sectors != 64*mib || p.Type != 0x83 {
		t.Errorf("partition 7: %+v", p)
	}
}

// TestGrow grows the data partition of the clock's layout on cards of
// several sizes, and checks the table afterwards: partition 7 ends at the
// card's last 4 MiB boundary, the extended partition holds it, and every
// other partition is as it was.
func TestGrow(t *testing.T) {
	for _, tc := range []struct {
		card, data uint64 // MiB
		want       uint64 // partition 7's MiB after
	}{
		{card: 2048, data: 64, want: 2048 - 1428},
		{card: 2050, data: 64, want: 2048 - 1428}, // not a 4 MiB multiple
		{card: 1492, data: 64, want: 64},          // the image itself: nothing to grow
		{card: 1495, data: 64, want: 64},          // less than 4 MiB more
	} {
		d := clockLayout(tc.card, tc.data)
		before, err := Read(d, d.sectors())
		if err != nil {
			t.Fatal(err)
		}
		p, ws, err := before.Grow(7, d.sectors(), 4*mib)
		if err != nil {
			t.Fatal(err)
		}
		if p.Sectors != tc.want*mib {
			t.Errorf("card %d MiB: partition 7 will have %d MiB, want %d", tc.card, p.Sectors/mib, tc.want)
		}
		if tc.want == tc.data {
			if len(ws) != 0 {
				t.Errorf("card %d MiB: %d writes for nothing to grow", tc.card, len(ws))
			}
			continue
		}
		if len(ws) != 3 || ws[0].LBA != 0 {
			t.Fatalf("card %d MiB: writes %v, want the MBR, the link and the EBR", tc.card, whats(ws))
		}
		d.apply(ws)
		after, err := Read(d, d.sectors())
		if err != nil {
			t.Fatalf("card %d MiB: the grown table: %v", tc.card, err)
		}
		got, _ := after.Partition(7)
		if got != p {
			t.Errorf("card %d MiB: partition 7 reads %+v, Grow said %+v", tc.card, got, p)
		}
		for _, q := range before.Partitions {
			r, _ := after.Partition(q.Number)
			if q.Number != 7 && !q.Extended() && r != q {
				t.Errorf("card %d MiB: partition %d changed: %+v -> %+v", tc.card, q.Number, q, r)
			}
		}
		if _, again, err := after.Grow(7, d.sectors(), 4*mib); err != nil || len(again) != 0 {
			t.Errorf("card %d MiB: growing again: %v, %v", tc.card, whats(again), err)
		}
	}
}

// TestGrowPowerCut cuts the power after each of Grow's writes: the table
// read back is valid, partition 7 is as it was or grown whole, and the
// next Grow finishes the job.
func TestGrowPowerCut(t *testing.T) {
	for cut := 0; cut < 3; cut++ {
		d := clockLayout(2048, 64)
		tb, _ := Read(d, d.sectors())
		want, ws, err := tb.Grow(7, d.sectors(), 4*mib)
		if err != nil {
			t.Fatal(err)
		}
		d.apply(ws[:cut])
		mid, err := Read(d, d.sectors())
		if err != nil {
			t.Fatalf("power cut after %d writes: %v", cut, err)
		}
		if p, _ := mid.Partition(7); p.Sectors != 64*mib {
			t.Errorf("power cut after %d writes: partition 7 has %d sectors", cut, p.Sectors)
		}
		p, rest, err := mid.Grow(7, d.sectors(), 4*mib)
		if err != nil || p != want || len(rest) != len(ws)-cut {
			t.Errorf("power cut after %d writes: the next Grow: %+v, %v, %v; want %+v and %d writes", cut, p, whats(rest), err, want, len(ws)-cut)
		}
		d.apply(rest)
		final, _ := Read(d, d.sectors())
		if got, _ := final.Partition(7); got != want {
			t.Errorf("power cut after %d writes: finally %+v, want %+v", cut, got, want)
		}
	}
}

func whats(ws []Write) []string {
	var s []string
	for _, w := range ws {
		s = append(s, w.What)
	}
	return s
}

func TestGrowRefuses(t *testing.T) {
	d := clockLayout(2048, 64)
	tb, _ := Read(d, d.sectors())
	for _, n := range []int{2, 5, 6, 9} {
		if _, ws, err := tb.Grow(n, d.sectors(), 4*mib); err == nil || len(ws) != 0 {
			t.Errorf("Grow(%d): %v, %v; want an error and no writes", n, whats(ws), err)
		}
	}
	if _, _, err := tb.Grow(6, d.sectors(), 4*mib); !errors.Is(err, ErrNotLast) {
		t.Errorf("Grow(6): %v, want ErrNotLast", err)
	}
}

// TestReadBad: a damaged table is an error naming the sector and what is
// wrong, never a panic.
func TestReadBad(t *testing.T) {
	const ext, last = 136 * mib, (136 + 4 + 640 + 4 + 640) * mib // partition 5's and 7's EBRs
	for _, tc := range []struct {
		name  string
		spoil func(d *disk)
		want  string
	}{
		{"no signature", func(d *disk) { d.at(0)[510] = 0 }, "sector 0: no partition table signature"},
		{"a partition past the disk", func(d *disk) { putEntry(d.at(0), 2, 0x0c, 72*mib, 4000*mib) }, "not within the disk"},
		{"overlap", func(d *disk) { putEntry(d.at(0), 2, 0x0c, 40*mib, 64*mib) }, "partitions 2 and 3 overlap"},
		{"two extended", func(d *disk) { putEntry(d.at(0), 2, 0x05, 72*mib, 64*mib) }, "both extended"},
		{"bad status", func(d *disk) { d.at(0)[446] = 7 }, "status"},
		{"a lost EBR", func(d *disk) { d.at(ext)[511] = 0 }, "partition 5's EBR: sector 278528: no partition table signature"},
		{"an empty EBR", func(d *disk) { putEntry(d.at(last), 0, 0, 0, 0) }, "sector 2916352: the EBR of partition 7 holds no partition"},
		{"a logical partition out of the extended", func(d *disk) { putEntry(d.at(last), 0, 0x83, 8192, 100*mib) }, "partition 7 (sectors 2924544 to 3129344) is not within the extended partition 4 (sectors 278528 to 3055616)"},
		{"a looping chain", func(d *disk) { putEntry(d.at(last), 1, 0x05, 0, 8*mib) }, "the EBR of partition 8 is not after partition 7"},
		{"a link of another type", func(d *disk) { putEntry(d.at(ext), 1, 0x83, 8*mib, 8*mib) }, "the link after partition 5 has type 0x83"},
	} {
		d := clockLayout(2048, 64)
		tc.spoil(d)
		if _, err := Read(d, d.sectors()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzRead: whatever the MBR and the first EBR hold, Read returns an error
// or partitions within the disk, and Grow plans whole sectors.
func FuzzRead(f *testing.F) {
	const ext = 136 * mib
	d := clockLayout(1492, 64)
	f.Add(d.at(0), d.at(ext))
	f.Fuzz(func(t *testing.T, mbr, ebr []byte) {
		d := clockLayout(1492, 64)
		copy(d.at(0), mbr)
		copy(d.at(ext), ebr)
		tb, err := Read(d, d.sectors())
		if err != nil {
			return
		}
		for _, p := range tb.Partitions {
			if p.End() > d.sectors() {
				t.Fatalf("partition %d ends past the disk", p.Number)
			}
		}
		if len(tb.Partitions) == 0 {
			return
		}
		last := tb.Partitions[len(tb.Partitions)-1]
		if _, ws, err := tb.Grow(last.Number, d.sectors()+8*mib, 4*mib); err == nil {
			for _, w := range ws {
				if len(w.Data) != SectorSize {
					t.Fatalf("a write of %d bytes", len(w.Data))
				}
			}
		}
	})
}

// TestGrowSfdisk grows a disk image that sfdisk partitioned as the image
// is, and has sfdisk read the result: the reader people use agrees that
// partition 7 fills the disk and that the table is valid.
func TestGrowSfdisk(t *testing.T) {
	sfdisk := needtool.Path(t, "apt-get install fdisk", "sfdisk")
	img := filepath.Join(t.TempDir(), "card.img")
	f, err := os.Create(img)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1648 * mib * SectorSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// The image's layout (genimage.cfg.in) as sfdisk writes it; the
	// clock's grow-data test partitions its card from this file too.
	script, err := os.ReadFile("testdata/clock.sfdisk")
	if err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) string {
		t.Helper()
		c := exec.Command(sfdisk, args...)
		c.Stdin = strings.NewReader(stdin)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("sfdisk %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(string(script), "--no-reread", "--no-tell-kernel", "-q", img)
	if err := os.Truncate(img, 2048*mib*SectorSize); err != nil {
		t.Fatal(err)
	}
	f, err = os.OpenFile(img, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	disk := uint64(2048 * mib)
	tb, err := Read(f, disk)
	if err != nil {
		t.Fatal(err)
	}
	p, ws, err := tb.Grow(7, disk, 4*mib)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if _, err := f.WriteAt(w.Data, int64(w.LBA)*SectorSize); err != nil {
			t.Fatal(err)
		}
	}
	dump := run("", "--dump", img)
	want := "start=     2924544, size=     1269760, type=83"
	if p.Start != 2924544 || p.Sectors != 1269760 || !strings.Contains(dump, img+"7 : "+want) {
		t.Errorf("partition 7 grew to %+v; sfdisk --dump:\n%s\nwant %s7 : %s", p, dump, img, want)
	}
	if !strings.Contains(dump, img+"4 : start=      278528, size=     3915776, type=f") {
		t.Errorf("sfdisk --dump: the extended partition 4 does not end at the disk's end:\n%s", dump)
	}
	if out := run("", "--verify", img); strings.Contains(strings.ToLower(out), "overlap") || strings.Contains(out, "exceeds") {
		t.Errorf("sfdisk --verify:\n%s", out)
	}
}
