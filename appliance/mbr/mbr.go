// Package mbr reads a disk's MBR partition table, logical partitions
// included, and plans the sector writes that grow its last logical
// partition to the end of the disk.
//
// The clock's image is smaller than any SD card it is flashed to. Its data
// partition (7, the last logical partition in the extended partition 4)
// holds the journal, the config and an update's spool, so on its first
// boot the clock gives it the rest of the card. Nothing here touches a
// disk: Read reads a table through an io.ReaderAt, and Grow returns the
// sectors to write, in the order that keeps the table valid after a power
// cut between any two of them.
//
// The layout is the classic one (as sfdisk and Linux's msdos parser read
// it): sector 0 holds four primary entries; an extended partition (type
// 0x05, 0x0f or 0x85) holds a chain of extended boot records (EBRs), each
// with the entry of one logical partition (its start relative to the EBR)
// and a link to the next EBR (its start relative to the extended
// partition's).
package mbr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// SectorSize is the sector size the table counts in.
const SectorSize = 512

// maxLogical bounds the EBR chain, so that a chain that loops ends.
const maxLogical = 128

// Partition is one partition: primary (1 to 4) or logical (5 and on).
type Partition struct {
	Number int
	Type   byte
	// Start and Sectors are absolute, in sectors.
	Start, Sectors uint64
	// ebr is the sector of a logical partition's EBR (0 for a primary).
	ebr uint64
}

// End is the sector after the partition's last.
func (p Partition) End() uint64 { return p.Start + p.Sectors }

// Extended reports whether p is an extended partition.
func (p Partition) Extended() bool { return isExtended(p.Type) }

func isExtended(t byte) bool { return t == 0x05 || t == 0x0f || t == 0x85 }

// Table is a disk's partition table as Read found it.
type Table struct {
	// Signature is the disk signature (the MBR's bytes 440 to 443): Linux's
	// PARTUUID of partition N is its hex form, "-", N as two hex digits.
	Signature uint32
	// Partitions are the partitions in number order; unused primary
	// entries are left out.
	Partitions []Partition
	// sectors are the table's sectors as read, by LBA.
	sectors map[uint64][]byte
}

// Partition returns partition n.
func (t *Table) Partition(n int) (Partition, bool) {
	for _, p := range t.Partitions {
		if p.Number == n {
			return p, true
		}
	}
	return Partition{}, false
}

type entry struct {
	status       byte
	typ          byte
	start, count uint32
}

func readEntry(sec []byte, i int) entry {
	b := sec[446+16*i:]
	return entry{status: b[0], typ: b[4], start: binary.LittleEndian.Uint32(b[8:]), count: binary.LittleEndian.Uint32(b[12:])}
}

func readSector(r io.ReaderAt, lba uint64) ([]byte, error) {
	sec := make([]byte, SectorSize)
	if _, err := r.ReadAt(sec, int64(lba)*SectorSize); err != nil {
		return nil, fmt.Errorf("sector %d: %w", lba, err)
	}
	if sec[510] != 0x55 || sec[511] != 0xaa {
		return nil, fmt.Errorf("sector %d: no partition table signature (55 aa), found %02x %02x", lba, sec[510], sec[511])
	}
	return sec, nil
}

// Read reads the partition table of a disk of diskSectors sectors. Every
// partition must lie within the disk, and a logical one within its
// extended partition.
func Read(r io.ReaderAt, diskSectors uint64) (*Table, error) {
	mbr, err := readSector(r, 0)
	if err != nil {
		return nil, err
	}
	t := &Table{Signature: binary.LittleEndian.Uint32(mbr[440:]), sectors: map[uint64][]byte{0: mbr}}
	var ext *Partition
	for i := range 4 {
		e := readEntry(mbr, i)
		if e.typ == 0 {
			continue
		}
		if e.status != 0 && e.status != 0x80 {
			return nil, fmt.Errorf("sector 0: partition %d: status %#02x is neither 0 nor 0x80", i+1, e.status)
		}
		p := Partition{Number: i + 1, Type: e.typ, Start: uint64(e.start), Sectors: uint64(e.count)}
		if err := within(p, 1, diskSectors, "the disk"); err != nil {
			return nil, fmt.Errorf("sector 0: %w", err)
		}
		if p.Extended() {
			if ext != nil {
				return nil, fmt.Errorf("sector 0: partitions %d and %d are both extended", ext.Number, p.Number)
			}
			ext = &p
		}
		t.Partitions = append(t.Partitions, p)
	}
	for i, p := range t.Partitions {
		for _, q := range t.Partitions[i+1:] {
			if p.Start < q.End() && q.Start < p.End() {
				return nil, fmt.Errorf("sector 0: partitions %d and %d overlap", p.Number, q.Number)
			}
		}
	}
	if ext == nil {
		return t, nil
	}
	ebr, prevEnd := ext.Start, ext.Start
	for n := 5; ; n++ {
		if n-4 > maxLogical {
			return nil, fmt.Errorf("the extended partition's chain has more than %d logical partitions", maxLogical)
		}
		if ebr < prevEnd && n > 5 {
			return nil, fmt.Errorf("sector %d: the EBR of partition %d is not after partition %d", ebr, n, n-1)
		}
		sec, err := readSector(r, ebr)
		if err != nil {
			return nil, fmt.Errorf("partition %d's EBR: %w", n, err)
		}
		t.sectors[ebr] = sec
		e := readEntry(sec, 0)
		if e.typ == 0 || e.count == 0 {
			return nil, fmt.Errorf("sector %d: the EBR of partition %d holds no partition", ebr, n)
		}
		if isExtended(e.typ) {
			return nil, fmt.Errorf("sector %d: partition %d has the type %#02x of an extended partition", ebr, n, e.typ)
		}
		p := Partition{Number: n, Type: e.typ, Start: ebr + uint64(e.start), Sectors: uint64(e.count), ebr: ebr}
		if e.start == 0 {
			return nil, fmt.Errorf("sector %d: partition %d starts on its own EBR", ebr, n)
		}
		if err := within(p, ext.Start, ext.End(), fmt.Sprintf("the extended partition %d", ext.Number)); err != nil {
			return nil, fmt.Errorf("sector %d: %w", ebr, err)
		}
		t.Partitions = append(t.Partitions, p)
		prevEnd = p.End()
		link := readEntry(sec, 1)
		if link.typ == 0 {
			return t, nil
		}
		if !isExtended(link.typ) {
			return nil, fmt.Errorf("sector %d: the link after partition %d has type %#02x, not an extended one", ebr, n, link.typ)
		}
		ebr = ext.Start + uint64(link.start)
		if ebr >= ext.End() {
			return nil, fmt.Errorf("sector %d: the link after partition %d points past the extended partition", ebr, n)
		}
	}
}

func within(p Partition, lo, hi uint64, what string) error {
	if p.Sectors == 0 || p.Start < lo || p.End() > hi {
		return fmt.Errorf("partition %d (sectors %d to %d) is not within %s (sectors %d to %d)", p.Number, p.Start, p.End(), what, lo, hi)
	}
	return nil
}

// Write is one sector to write.
type Write struct {
	LBA  uint64
	Data []byte
	// What the write does, for a log.
	What string
}

// ErrNotLast is returned by Grow for a partition that is not the disk's
// last logical partition.
var ErrNotLast = errors.New("not the last logical partition")

// Grow plans the growth of logical partition n, which must be the last
// partition of the disk, to the last multiple of align sectors (counted
// from the disk's start) within diskSectors. It returns the partition as
// it will be and the writes, none if it already ends there:
//
//  1. the extended partition's entry in the MBR, grown to the same end;
//  2. the link to n's EBR in the EBR before it (n > 5), whose size spans
//     n's EBR and partition;
//  3. n's own entry.
//
// A power cut between any two leaves a valid table with partition n as it
// was: Grow plans the remaining writes at the next try.
func (t *Table) Grow(n int, diskSectors, align uint64) (Partition, []Write, error) {
	p, ok := t.Partition(n)
	if !ok {
		return Partition{}, nil, fmt.Errorf("partition %d: no such partition", n)
	}
	last := t.Partitions[len(t.Partitions)-1]
	if p.ebr == 0 || last.Number != n {
		return p, nil, fmt.Errorf("partition %d: %w", n, ErrNotLast)
	}
	for _, q := range t.Partitions {
		if !q.Extended() && q.End() > p.End() {
			return p, nil, fmt.Errorf("partition %d ends after partition %d: %w", q.Number, n, ErrNotLast)
		}
	}
	if align == 0 {
		align = 1
	}
	end := diskSectors / align * align
	if end > 1<<32-1 {
		end = (1<<32 - 1) / align * align // the entries' 32-bit sector counts
	}
	if end <= p.End() {
		return p, nil, nil
	}
	ext, ok := t.extended()
	if !ok {
		return p, nil, fmt.Errorf("partition %d: no extended partition holds it", n)
	}
	var ws []Write
	if ext.End() < end {
		ws = append(ws, t.resize(0, 0, ext.Number-1, end-ext.Start, fmt.Sprintf("the extended partition %d to sector %d", ext.Number, end)))
	}
	if n > 5 {
		prev, _ := t.Partition(n - 1)
		if e := readEntry(t.sectors[prev.ebr], 1); uint64(e.count) < end-p.ebr {
			ws = append(ws, t.resize(prev.ebr, ext.Start, 1, end-p.ebr, fmt.Sprintf("partition %d's link to partition %d's EBR", n-1, n)))
		}
	}
	ws = append(ws, t.resize(p.ebr, p.ebr, 0, end-p.Start, fmt.Sprintf("partition %d to sector %d", n, end)))
	p.Sectors = end - p.Start
	return p, ws, nil
}

// extended is the extended partition, if there is one (Read allows one).
func (t *Table) extended() (Partition, bool) {
	for _, q := range t.Partitions {
		if q.Number <= 4 && q.Extended() {
			return q, true
		}
	}
	return Partition{}, false
}

// resize is sector lba as read with entry i's sector count set to count
// and its CHS end to match; base is the sector the entry's start counts
// from (0 in the MBR, the EBR for a logical partition, the extended
// partition for a link).
func (t *Table) resize(lba, base uint64, i int, count uint64, what string) Write {
	sec := append([]byte(nil), t.sectors[lba]...)
	b := sec[446+16*i:]
	start := base + uint64(binary.LittleEndian.Uint32(b[8:]))
	binary.LittleEndian.PutUint32(b[12:], uint32(count))
	copy(b[5:8], chs(start+count-1))
	return Write{LBA: lba, Data: sec, What: what}
}

// chs is sector lba's cylinder-head-sector address in an entry, on the
// 255-head, 63-sector geometry every partitioner uses, or the largest
// address (1023, 254, 63) for a sector beyond it.
func chs(lba uint64) []byte {
	c, h, s := lba/(255*63), lba/63%255, lba%63+1
	if c > 1023 {
		c, h, s = 1023, 254, 63
	}
	return []byte{byte(h), byte(s) | byte(c>>8)<<6, byte(c)}
}
