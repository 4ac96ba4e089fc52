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
	mbr := make([]byte, 512)
	for i, p := range []struct {
		typ         byte
		start, size uint32
	}{{0x0c, 8192, 262144}, {0x83, 270336, 589824}, {0x83, 860160, 131072}} {
		e := mbr[446+16*i:]
		e[4] = p.typ
		binary.LittleEndian.PutUint32(e[8:], p.start)
		binary.LittleEndian.PutUint32(e[12:], p.size)
	}
	mbr[510], mbr[511] = 0x55, 0xaa
	path := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(path, mbr, 0o644); err != nil {
		t.Fatal(err)
	}
	parts, err := readMBR(path)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].offset != 8192*512 || parts[2].size != 131072*512 || parts[1].typ != 0x83 {
		t.Fatalf("partitions: %+v", parts)
	}
	if nextPow2(parts[2].offset+parts[2].size) != 1<<29 {
		t.Fatalf("nextPow2: %d", nextPow2(parts[2].offset+parts[2].size))
	}
}
