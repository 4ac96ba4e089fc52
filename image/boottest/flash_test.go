package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// As the booted image lists its mounts: the data partition at /data and
// bound onto the state directory; an escaped mount point; optional fields.
const bootedMountinfo = `22 1 254:2 / / ro,noatime shared:1 - ext4 /dev/vda2 ro
31 22 254:3 / /data rw,nosuid,nodev,noexec,noatime shared:14 - ext4 /dev/vda3 rw,commit=5
33 22 0:30 / /tmp rw,nosuid,nodev shared:15 - tmpfs tmpfs rw,size=32768k,inode64
40 22 254:3 /zeitnot /var/lib/zeitnot rw,nosuid,nodev,noexec,noatime shared:14 - ext4 /dev/vda3 rw,commit=5
41 22 0:31 / /media/my\040card rw,relatime - vfat /dev/sda1 rw,fmask=0022
`

func TestParseMountInfo(t *testing.T) {
	ms, err := parseMountInfo(bootedMountinfo)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mountAt(ms, "/var/lib/zeitnot")
	if err != nil {
		t.Fatal(err)
	}
	want := mountInfo{MajMin: "254:3", Root: "/zeitnot", Target: "/var/lib/zeitnot",
		Options: []string{"rw", "nosuid", "nodev", "noexec", "noatime"}, FSType: "ext4", Source: "/dev/vda3",
		SuperOpts: []string{"rw", "commit=5"}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %+v\nwant %+v", m, want)
	}
	if got := wholeMount(ms, "254:3"); got != "/data" {
		t.Errorf("wholeMount: %q", got)
	}
	if _, err := mountAt(ms, "/media/my card"); err != nil {
		t.Errorf("escaped mount point: %v", err)
	}
	if _, err := mountAt(ms, "/var/lib/other"); err == nil || !strings.Contains(err.Error(), "nothing is mounted at /var/lib/other") {
		t.Errorf("missing mount: %v", err)
	}
	// A mount on top of another at the same place wins.
	ms, _ = parseMountInfo(bootedMountinfo + "50 40 0:40 / /var/lib/zeitnot rw,relatime - tmpfs tmpfs rw\n")
	if m, _ := mountAt(ms, "/var/lib/zeitnot"); m.FSType != "tmpfs" {
		t.Errorf("the mount on top: %+v", m)
	}
	for _, bad := range []string{"22 1 254:2 / / ro,noatime shared:1 ext4 /dev/vda2 ro", "22 1 254 / / ro - ext4 /dev/vda2 ro", "22 1 254:2 / / ro -"} {
		if _, err := parseMountInfo(bad); err == nil || !strings.Contains(err.Error(), "mountinfo line 1") {
			t.Errorf("%q: want an error naming the line, got %v", bad, err)
		}
	}
}

func TestStatPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/sys/devices/pci0000:00/0000:00:01.0/virtio1/block/vda/vda3\r\n", "/sys/block/vda/vda3/stat"},
		{"/sys/devices/platform/soc/3f202000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0/mmcblk0p3", "/sys/block/mmcblk0/mmcblk0p3/stat"},
		{"/sys/devices/virtual/block/loop0", "/sys/block/loop0/stat"},
		{"/sys/devices/virtual/block/", ""},
		{"/sys/dev/block/254:3", ""},
		{"", ""},
	} {
		got, err := statPath(c.in)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("statPath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParseDiskStat(t *testing.T) {
	s, err := parseDiskStat("     312        0    14890      201     1044      718    18530     2210        0     1468     2411        0        0        0        0      210      140\n")
	if err != nil || s != (diskStat{WriteIOs: 1044, WriteSectors: 18530}) {
		t.Fatalf("got %+v, %v", s, err)
	}
	for _, bad := range []string{"", "1 2 3", "1 2 3 4 5 6 x 8 9 10 11"} {
		if _, err := parseDiskStat(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestExtraWrites(t *testing.T) {
	ordered := []string{"rw", "delalloc", "barrier", "commit=5", "data=ordered"}
	for _, c := range []struct {
		mount, ext4 []string
		want        []string
	}{
		{[]string{"rw", "nosuid", "noatime"}, ordered, nil},
		{[]string{"rw", "relatime"}, ordered, []string{"no noatime (relatime: reads write the inode)"}},
		{[]string{"rw", "strictatime"}, ordered, []string{"no noatime (strictatime: reads write the inode)"}},
		{[]string{"rw", "noatime", "sync"}, []string{"data=journal"},
			[]string{"sync (every write synchronous)", "data=journal (data written twice)"}},
		{[]string{"rw", "noatime"}, []string{"dirsync", "data=writeback"}, []string{"dirsync (every write synchronous)"}},
	} {
		if got := extraWrites(c.mount, c.ext4); !reflect.DeepEqual(got, c.want) {
			t.Errorf("extraWrites(%v, %v) = %q; want %q", c.mount, c.ext4, got, c.want)
		}
	}
}

// fakePresser puts zeitnot and sync stand-ins on PATH and a stat file in a
// temporary directory: every press adds 10 sectors in 2 requests, the sync
// 3 sectors; the press numbered failAt (from 1) fails.
func fakePresser(t *testing.T, failAt int) (stat, presses string) {
	dir := t.TempDir()
	stat = filepath.Join(dir, "stat")
	presses = filepath.Join(dir, "presses")
	count := filepath.Join(dir, "count")
	write := func(sectors, ios string) string {
		return fmt.Sprintf(`set -- $(cat %[1]s); w=$(( $7 + %[2]s )); r=$(( $5 + %[3]s ))
printf '%%8d %%8d %%8d %%8d %%8d %%8d %%8d %%8d %%8d %%8d %%8d\n' $1 $2 $3 $4 $r $6 $w $8 $9 ${10} ${11} > %[1]s.new && mv %[1]s.new %[1]s
`, stat, sectors, ios)
	}
	zeitnot := fmt.Sprintf("#!/bin/sh\nn=$(( $(cat %[1]s 2>/dev/null || echo 0) + 1 )); echo $n > %[1]s\n"+
		"if [ $n -eq %[2]d ]; then echo 'error: no clock' >&2; exit 1; fi\necho \"$1 $2\" >> %[3]s\n%[4]secho ok\n",
		count, failAt, presses, write("10", "2"))
	tools := map[string]string{"zeitnot": zeitnot, "sync": "#!/bin/sh\n" + write("3", "1")}
	for name, text := range tools {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(stat, []byte("1 0 8 0 100 0 5000 0 0 0 0 0 0 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	return stat, presses
}

func TestPressScript(t *testing.T) {
	stat, presses := fakePresser(t, -1)
	start := time.Now()
	out, err := exec.Command("sh", "-c", pressScript(stat, "right", "left", 4)).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	r, err := parsePressRun(string(out))
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// sync (3), four presses (40), sync (3).
	if r.Before.WriteSectors != 5003 || r.After.WriteSectors != 5043 || r.Synced.WriteSectors != 5046 ||
		r.After.WriteIOs-r.Before.WriteIOs != 8 {
		t.Errorf("counters %+v", r)
	}
	if r.Took < 600*time.Millisecond || r.Took > time.Since(start) {
		t.Errorf("took %v: four presses 0.2 s apart", r.Took)
	}
	got, _ := os.ReadFile(presses)
	if string(got) != "press right\npress left\npress right\npress left\n" {
		t.Errorf("the levers in turn: %q", got)
	}
}

func TestPressScriptStopsAtAFailedPress(t *testing.T) {
	stat, _ := fakePresser(t, 3)
	out, err := exec.Command("sh", "-c", pressScript(stat, "left", "right", 5)).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "press 3 (left) failed: error: no clock") {
		t.Fatalf("want press 3 to fail, got %v: %s", err, out)
	}
	if _, err := parsePressRun(string(out)); err == nil {
		t.Fatal("a run cut short parsed")
	}
}

func TestParsePressRun(t *testing.T) {
	line := func(ios, sectors int) string { return fmt.Sprintf("1 0 8 0 %d 0 %d 0 0 0 0", ios, sectors) }
	good := "before " + line(10, 100) + "\r\nafter " + line(20, 180) + "\r\nsynced " + line(22, 200) + "\r\nms 31250\r\n"
	r, err := parsePressRun(good)
	if err != nil || r.Synced.WriteSectors != 200 || r.Took != 31250*time.Millisecond {
		t.Fatalf("got %+v, %v", r, err)
	}
	for _, bad := range []string{
		strings.Replace(good, "ms 31250", "", 1),
		strings.Replace(good, "synced "+line(22, 200), "synced "+line(22, 150), 1),
		strings.Replace(good, "after "+line(20, 180), "after 1 2 3", 1),
	} {
		if _, err := parsePressRun(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestAdviceDoesNotFail(t *testing.T) {
	rep := &report{}
	rep.check("a", true, "")
	rep.advise("goal", false, "%d per press", 40)
	if rep.failed() != 0 || rep.warned() != 1 {
		t.Fatalf("failed %d, warned %d", rep.failed(), rep.warned())
	}
	rep.check("b", false, "")
	if rep.failed() != 1 {
		t.Fatalf("failed %d", rep.failed())
	}
}

func TestDataGrown(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"active\n4194304\n2691072\n1503232\n4096 183000\n1\n", true},
		{"active\n4194304\n2691072\n131072\n4096 15000\n0\n", false},   // not grown
		{"active\n4194304\n2691072\n1503232\n4096 15000\n1\n", false},  // the file system not grown
		{"failed\n4194304\n2691072\n1503232\n4096 183000\n1\n", false}, // the unit failed
		{"active\n4194304\n2691072\n1503232\n4096 183000\n0\n", false}, // grown on an earlier boot, not this one
		{"active\n4194304\n2691072\n1511424\n4096 183000\n1\n", false}, // past the disk's end
		{"", false},
	} {
		if got := dataGrown(tc.out); got != tc.want {
			t.Errorf("dataGrown(%q) = %v, want %v", tc.out, got, tc.want)
		}
	}
}
