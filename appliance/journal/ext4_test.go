package journal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// TestExt4Blocks measures the 4 KiB blocks a line costs on an ext4 file
// system on a loop device, as the block device counts them: the journal's
// in-place lines with fdatasync, under noatime and noatime,lazytime, against
// appending with fsync as earlier versions did. It writes one line a second
// (a running clock's checkpoints) for ZEITNOT_EXT4_SECONDS seconds per case
// (needs root, mkfs.ext4 and a loop device; not run otherwise).
func TestExt4Blocks(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv("ZEITNOT_EXT4_SECONDS"))
	if secs <= 0 {
		t.Skip("set ZEITNOT_EXT4_SECONDS to measure (one line a second)")
	}
	cases := []struct {
		name, mount string
		inPlace     bool
	}{
		{"in place, fdatasync, noatime", "noatime,commit=5", true},
		{"in place, fdatasync, noatime,lazytime", "noatime,lazytime,commit=5", true},
		{"in place, fdatasync, noatime,commit=60", "noatime,commit=60", true},
		{"appended, fsync, noatime", "noatime,commit=5", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			img := filepath.Join(t.TempDir(), "ext4.img")
			mnt := t.TempDir()
			if err := os.WriteFile(img, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			os.Truncate(img, 64<<20)
			if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-b", "4096", img).CombinedOutput(); err != nil {
				t.Skip("mkfs.ext4:", err, string(out))
			}
			out, err := exec.Command("losetup", "-f", "--show", img).Output()
			if err != nil {
				t.Skip("losetup:", err)
			}
			dev := strings.TrimSpace(string(out))
			t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
			if out, err := exec.Command("mount", "-t", "ext4", "-o", tc.mount, dev, mnt).CombinedOutput(); err != nil {
				t.Skip("mount:", err, string(out))
			}
			t.Cleanup(func() { exec.Command("umount", mnt).Run() })
			stat := "/sys/block/" + filepath.Base(dev) + "/stat"
			written := func() int64 {
				b, _ := os.ReadFile(stat)
				f := strings.Fields(string(b))
				n, _ := strconv.ParseInt(f[6], 10, 64) // sectors written
				return n
			}
			var write func(at int64) error
			if tc.inPlace {
				j := started(t, mnt, "300", nil)
				defer j.Close()
				write = func(at int64) error { _, err := j.Append(ev(at, clocklog.Checkpoint, clock.NoSide)); return err }
			} else {
				f, err := os.OpenFile(filepath.Join(mnt, File), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				f.Write(clocklog.AppendHeader(nil, header(t, "300")))
				f.Sync()
				write = func(at int64) error {
					if _, err := f.Write(clocklog.AppendEvent(nil, ev(at, clocklog.Checkpoint, clock.NoSide))); err != nil {
						return err
					}
					return f.Sync()
				}
			}
			exec.Command("sync").Run()
			time.Sleep(6 * time.Second) // let ext4's periodic commit pass
			before := written()
			for i := 1; i <= secs; i++ {
				if err := write(int64(i) * 1000); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Second) // a line a second, as a running clock writes: what is measured
			}
			time.Sleep(6 * time.Second) // and the last commit
			blocks := float64(written()-before) * 512 / 4096
			t.Logf("%s: %d lines, %.0f blocks written: %.2f blocks per line", tc.name, secs, blocks, blocks/float64(secs))
			if os.Getenv("ZEITNOT_EXT4_DEBUG") != "" {
				m, _ := os.ReadFile("/proc/self/mountinfo")
				for _, l := range strings.Split(string(m), "\n") {
					if strings.Contains(l, mnt) {
						t.Log(l)
					}
				}
				info, _ := os.ReadFile("/proc/fs/jbd2/" + filepath.Base(dev) + "-8/info")
				t.Logf("%s", info)
			}
		})
	}
}
