package main

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestKernelArgs(t *testing.T) {
	got := kernelArgs(" console=ttyS1,115200 root=PARTUUID=5a4e5431-02 rw rootwait ro quiet loglevel=3 systemd.show_status=auto",
		[]string{"quiet", "loglevel"}, "console=ttyAMA0")
	want := "root=PARTUUID=5a4e5431-02 rw rootwait ro systemd.show_status=auto console=ttyAMA0"
	if got != want {
		t.Fatalf("kernelArgs:\n got %q\nwant %q", got, want)
	}
}

func TestWaitForMatchesAcrossReads(t *testing.T) {
	r, w := io.Pipe()
	s := newStream(r, nil)
	go func() {
		// An io.Pipe's Read returns at most one Write: the line
		// arrives in two reads.
		w.Write([]byte("Reached tar"))
		w.Write([]byte("get multi-user.target\r\nlogin: "))
	}()
	sub, end, err := s.waitFor(context.Background(), regexp.MustCompile(`Reached target (\S+)`), 0, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if sub[1] != "multi-user.target" || end == 0 {
		t.Fatalf("got %q, end %d", sub, end)
	}
	w.Close()
}

func TestWaitForTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a timeout: not with -short")
	}
	r, w := io.Pipe()
	defer w.Close()
	s := newStream(r, nil)
	start := time.Now()
	_, _, err := s.waitFor(context.Background(), regexp.MustCompile(`never`), 0, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no match") {
		t.Fatalf("want a timeout, got %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("the timeout took %s", time.Since(start))
	}
}

func TestWaitForEndOfStream(t *testing.T) {
	s := newStream(strings.NewReader("kernel panic\n"), nil)
	_, _, err := s.waitFor(context.Background(), regexp.MustCompile(`login:`), 0, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("want the stream's end, got %v", err)
	}
	if got := s.lastLines(1); got != "kernel panic" {
		t.Fatalf("lastLines: %q", got)
	}
}

func TestReadMBR(t *testing.T) {
	// The A/B layout: primaries 1-3, an extended partition 4 holding the
	// logical 5-7 (offsets in 512-byte sectors, EBRs 8192 before each).
	disk := make([]byte, 2<<20)
	put := func(at int, i int, typ byte, start, size uint32) {
		e := disk[at+446+16*i:]
		e[4] = typ
		binary.LittleEndian.PutUint32(e[8:], start)
		binary.LittleEndian.PutUint32(e[12:], size)
		disk[at+510], disk[at+511] = 0x55, 0xaa
	}
	put(0, 0, 0x0e, 8192, 32768)
	put(0, 1, 0x0c, 40960, 262144)
	put(0, 2, 0x0c, 303104, 262144)
	// The EBRs kept in the first 2 MiB of the file.
	put(0, 3, 0x0f, 1024, 1<<21)
	ext := 1024
	ebrs := []int{0, 1024, 2048}
	for i, off := range ebrs {
		put((ext+off)*512, 0, 0x83, 8192, uint32(100000+i))
		if i+1 < len(ebrs) {
			put((ext+off)*512, 1, 0x05, uint32(ebrs[i+1]), 1)
		}
	}
	path := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(path, disk, 0o644); err != nil {
		t.Fatal(err)
	}
	parts, err := readMBR(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := part(parts, 1); p.offset != 8192*512 || p.typ != 0x0e {
		t.Errorf("partition 1: %+v", p)
	}
	if p := part(parts, 6); p.offset != int64(ext+1024+8192)*512 || p.size != 100001*512 {
		t.Errorf("partition 6: %+v", p)
	}
	if nextPow2(3<<29) != 1<<31 {
		t.Fatalf("nextPow2: %d", nextPow2(3<<29))
	}
	// Three primaries only: the layout before the slots is refused.
	put(0, 3, 0, 0, 0)
	os.WriteFile(path, disk, 0o644)
	if _, err := readMBR(path); err == nil || !strings.Contains(err.Error(), "expected partitions 1, 2, 3 and 5, 6, 7") {
		t.Errorf("three partitions: %v", err)
	}
}
