package main

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// The flash check: how many sectors the data partition has written for a
// run of lever presses, as the block layer counts them, and whether the
// partition is mounted with an option that adds writes.
//
// The partition is the one holding the state directory, found in
// /proc/self/mountinfo (its major:minor), its counters in
// /sys/block/DISK/PART/stat (field 7, sectors written). Writes made before
// the run are flushed with sync first; the figure is taken after a sync at
// the end, so that what the presses left for the file system's own commit
// counts too.

const (
	stateDir = "/var/lib/zeitnot"
	// writeGoal is the most sectors (512 bytes) a press may write on
	// average: one 4 KiB block.
	writeGoal = 8.0
	// pressGap is the pause between presses: longer than the clock's
	// lever lockout (100 ms), shorter than its checkpoint interval (1 s),
	// so that every press is a move and the journal writes nothing but
	// the presses.
	pressGap = "0.2"
)

// mountInfo is one line of /proc/self/mountinfo.
type mountInfo struct {
	MajMin    string // device number of the file system, "254:3"
	Root      string // the directory of the file system mounted here
	Target    string // the mount point
	Options   []string
	FSType    string
	Source    string
	SuperOpts []string // the file system's own options
}

// unescapeMount undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseMountInfo reads /proc/self/mountinfo
// (Documentation/filesystems/proc.rst): ID PARENT MAJ:MIN ROOT TARGET
// OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS.
func parseMountInfo(text string) ([]mountInfo, error) {
	var ms []mountInfo
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || len(f) < sep+3 {
			return nil, fmt.Errorf("mountinfo line %d: not ID PARENT MAJ:MIN ROOT TARGET OPTIONS ... - TYPE SOURCE OPTIONS: %q", n+1, line)
		}
		if _, _, ok := strings.Cut(f[2], ":"); !ok {
			return nil, fmt.Errorf("mountinfo line %d: device %q is not MAJOR:MINOR", n+1, f[2])
		}
		m := mountInfo{MajMin: f[2], Root: unescapeMount(f[3]), Target: unescapeMount(f[4]),
			Options: strings.Split(f[5], ","), FSType: f[sep+1], Source: unescapeMount(f[sep+2])}
		if len(f) > sep+3 {
			m.SuperOpts = strings.Split(f[sep+3], ",")
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// mountAt returns the mount at target: the last one listed, the one on top.
func mountAt(ms []mountInfo, target string) (mountInfo, error) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Target == target {
			return ms[i], nil
		}
	}
	return mountInfo{}, fmt.Errorf("mountinfo: nothing is mounted at %s", target)
}

// wholeMount returns where the root of device majMin is mounted, or "".
func wholeMount(ms []mountInfo, majMin string) string {
	for _, m := range ms {
		if m.MajMin == majMin && m.Root == "/" {
			return m.Target
		}
	}
	return ""
}

// statPath turns the sysfs directory of a block device (readlink -f
// /sys/dev/block/MAJ:MIN) into its stat file under /sys/block: DISK/PART
// for a partition, DISK for a whole disk.
func statPath(sysDev string) (string, error) {
	sysDev = strings.TrimRight(strings.TrimSpace(sysDev), "/")
	if !strings.HasPrefix(sysDev, "/sys/devices/") {
		return "", fmt.Errorf("%q is not a device under /sys/devices", sysDev)
	}
	dir, name := path.Split(sysDev)
	parentDir, parent := path.Split(strings.TrimRight(dir, "/"))
	switch {
	case name == "" || parent == "":
		return "", fmt.Errorf("%q is not a block device's sysfs directory", sysDev)
	case parent == "block":
		return "/sys/block/" + name + "/stat", nil
	case path.Base(strings.TrimRight(parentDir, "/")) == "block":
		return "/sys/block/" + parent + "/" + name + "/stat", nil
	}
	return "", fmt.Errorf("%q is not under a .../block/ directory", sysDev)
}

// diskStat holds the write counters of a block device's stat file.
type diskStat struct {
	WriteIOs     uint64 // field 5: write requests completed
	WriteSectors uint64 // field 7: sectors written
}

// parseDiskStat reads /sys/block/.../stat (Documentation/block/stat.rst):
// at least 11 counters.
func parseDiskStat(text string) (diskStat, error) {
	f := strings.Fields(text)
	if len(f) < 11 {
		return diskStat{}, fmt.Errorf("block stat: want at least 11 counters, got %d in %q", len(f), text)
	}
	var v [7]uint64
	for i := range v {
		n, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return diskStat{}, fmt.Errorf("block stat: field %d: %q is not a count", i+1, f[i])
		}
		v[i] = n
	}
	return diskStat{WriteIOs: v[4], WriteSectors: v[6]}, nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// hasOption reports whether opts holds name (or name=... when name ends in =).
func hasOption(opts []string, name string) bool {
	for _, o := range opts {
		if o == name || strings.HasSuffix(name, "=") && strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}

// optionValue returns the value of name=value in opts, or "".
func optionValue(opts []string, name string) string {
	for _, o := range opts {
		if v, ok := strings.CutPrefix(o, name+"="); ok {
			return v
		}
	}
	return ""
}

// extraWrites names the mount options that make the file system write more
// than the data an fsync asks for: atime updates (no noatime: relatime
// writes the inode at the first read after each write, strictatime at
// every read), synchronous writes (sync, dirsync), data written twice
// (data=journal). mount is the mount's own options, ext4 the file system's
// (/proc/fs/ext4/DEV/options, which lists the defaults too).
func extraWrites(mount, ext4 []string) []string {
	var p []string
	if !hasOption(mount, "noatime") {
		atime := "relatime"
		if hasOption(mount, "strictatime") {
			atime = "strictatime"
		}
		p = append(p, "no noatime ("+atime+": reads write the inode)")
	}
	for _, o := range []string{"sync", "dirsync"} {
		if hasOption(mount, o) || hasOption(ext4, o) {
			p = append(p, o+" (every write synchronous)")
		}
	}
	if optionValue(ext4, "data") == "journal" {
		p = append(p, "data=journal (data written twice)")
	}
	return p
}

// pressScript is the guest's shell script for the measurement: sync, read
// the stat file, press the levers n times in turn (first, second, first,
// ...) pressGap seconds apart, read it again, sync, read it a third time.
// It prints "before", "after" and "synced" each followed by the stat line,
// then "ms" and the time the presses took.
func pressScript(stat, first, second string, n int) string {
	return fmt.Sprintf(`a=%[2]s; b=%[3]s; sync && echo "before $(cat %[1]s)" && s=$(date +%%s%%N) && i=0 && `+
		`while [ $i -lt %[4]d ]; do out=$(zeitnot press $a 2>&1) || { echo "press $((i+1)) ($a) failed: $out"; exit 1; }; `+
		`t=$a; a=$b; b=$t; i=$((i+1)); sleep %[5]s; done && e=$(date +%%s%%N) && echo "after $(cat %[1]s)" && `+
		`sync && echo "synced $(cat %[1]s)" && echo "ms $(( (e - s) / 1000000 ))"`,
		stat, first, second, n, pressGap)
}

// pressRun is pressScript's output.
type pressRun struct {
	Before, After, Synced diskStat
	Took                  time.Duration
}

func parsePressRun(out string) (pressRun, error) {
	var r pressRun
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		key, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		var err error
		switch key {
		case "before":
			r.Before, err = parseDiskStat(rest)
		case "after":
			r.After, err = parseDiskStat(rest)
		case "synced":
			r.Synced, err = parseDiskStat(rest)
		case "ms":
			var ms int64
			ms, err = strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			r.Took = time.Duration(ms) * time.Millisecond
		default:
			continue
		}
		if err != nil {
			return r, fmt.Errorf("%s: %v", key, err)
		}
		seen[key] = true
	}
	for _, k := range []string{"before", "after", "synced", "ms"} {
		if !seen[k] {
			return r, fmt.Errorf("no %q line in %q", k, oneLine(out))
		}
	}
	if r.After.WriteSectors < r.Before.WriteSectors || r.Synced.WriteSectors < r.After.WriteSectors {
		return r, fmt.Errorf("sectors written went back: %d, %d, %d", r.Before.WriteSectors, r.After.WriteSectors, r.Synced.WriteSectors)
	}
	return r, nil
}

// runningGame gets a game running: it starts one, or resumes a recovered
// one. A press may first only dismiss a message, so it tries a few times.
func runningGame(run runFunc, status statusFunc) (clockState, error) {
	s, _, err := status()
	for i := 0; i < 3 && err == nil && s.Running == "none"; i++ {
		button := "right" // no game yet: Black's lever starts White's clock
		if s.Started && s.Paused {
			button = "pause" // a recovered game: resume it
		}
		if out, c := run("zeitnot press "+button, 15*time.Second); c != 0 {
			return s, fmt.Errorf("zeitnot press %s: exit %d: %s", button, c, oneLine(out))
		}
		s, _, err = status()
	}
	if err == nil && s.Running == "none" {
		err = fmt.Errorf("no clock running: %s", s)
	}
	return s, err
}

// flashCheck measures the sectors written on the data partition for
// presses lever presses, and reports the partition's mount options. The
// goal (writeGoal sectors per press) counts as a failure only with enforce.
func flashCheck(rep *report, run runFunc, status statusFunc, presses int, enforce bool) {
	out, code := run("cat /proc/self/mountinfo", 15*time.Second)
	var ms []mountInfo
	var m mountInfo
	var err error
	if code != 0 {
		err = fmt.Errorf("cat /proc/self/mountinfo: exit %d: %s", code, oneLine(out))
	} else if ms, err = parseMountInfo(strings.ReplaceAll(out, "\r", "")); err == nil {
		m, err = mountAt(ms, stateDir)
	}
	if !rep.check("flash: file system of "+stateDir, err == nil, "%s",
		errString(err, fmt.Sprintf("%s (%s), %s of it, %s", m.Source, m.MajMin, m.Root, m.FSType))) {
		return
	}
	out, code = run("readlink -f /sys/dev/block/"+m.MajMin, 10*time.Second)
	stat := ""
	if code != 0 {
		err = fmt.Errorf("readlink /sys/dev/block/%s: exit %d: %s", m.MajMin, code, oneLine(out))
	} else if stat, err = statPath(out); err == nil {
		if o, c := run("cat "+stat, 10*time.Second); c != 0 {
			err = fmt.Errorf("cat %s: exit %d: %s", stat, c, oneLine(o))
		} else {
			_, err = parseDiskStat(o)
		}
	}
	if !rep.check("flash: block counters of the data partition", err == nil, "%s", errString(err, stat)) {
		return
	}

	// The mount options as booted: the state directory's mount (atime is
	// decided there), the file system's options with their defaults, and
	// its block size.
	dev := path.Base(m.Source)
	out, _ = run(fmt.Sprintf("tr '\\n' , < /proc/fs/ext4/%s/options; echo; stat -f -c %%S %s", dev, stateDir), 15*time.Second)
	lines := strings.Fields(out)
	var ext4 []string
	blockSize := "?"
	if len(lines) == 2 {
		ext4 = strings.Split(strings.Trim(lines[0], ","), ",")
		blockSize = lines[1]
	}
	fmt.Printf("      flash: %s mounted %s (file system options %s)\n", stateDir, strings.Join(m.Options, ","), strings.Join(m.SuperOpts, ","))
	if whole := wholeMount(ms, m.MajMin); whole != "" {
		w, _ := mountAt(ms, whole)
		fmt.Printf("      flash: %s (%s) mounted %s\n", whole, m.Source, strings.Join(w.Options, ","))
	}
	fmt.Printf("      flash: /proc/fs/ext4/%s/options: %s\n", dev, strings.Join(ext4, ","))
	fmt.Printf("      flash: block size %s bytes, data=%s, commit=%s s, lazytime %s\n", blockSize,
		optionValue(ext4, "data"), optionValue(ext4, "commit"), onOff(hasOption(m.SuperOpts, "lazytime") || hasOption(ext4, "lazytime")))
	extra := extraWrites(m.Options, ext4)
	if len(ext4) == 0 {
		extra = append(extra, "/proc/fs/ext4/"+dev+"/options unreadable: "+oneLine(out))
	}
	detail := "noatime, data=" + optionValue(ext4, "data") + ", no sync"
	if len(extra) > 0 {
		detail = strings.Join(extra, "; ")
	}
	rep.check("flash: data partition mounted without options that add writes", len(extra) == 0, "%s", detail)

	// The presses, on a running game.
	s0, err := runningGame(run, status)
	if !rep.check("flash: a game running", err == nil, "%s", errString(err, s0.String())) {
		return
	}
	first := leverOf(s0, s0.Running)
	second := "left"
	if first == "left" {
		second = "right"
	}
	out, code = run(pressScript(stat, first, second, presses), time.Duration(presses)*3*time.Second+60*time.Second)
	var r pressRun
	if code != 0 {
		err = fmt.Errorf("exit %d: %s", code, oneLine(out))
	} else {
		r, err = parsePressRun(out)
	}
	s1, _, errS := status()
	if err == nil {
		err = errS
	}
	moves := s1.White.Moves + s1.Black.Moves - s0.White.Moves - s0.Black.Moves
	if !rep.check("flash: presses counted as moves", err == nil && moves == presses,
		"%s", errString(err, fmt.Sprintf("%d presses, %d moves, in %.1fs", presses, moves, r.Took.Seconds()))) {
		return
	}
	sectors := r.Synced.WriteSectors - r.Before.WriteSectors
	perPress := float64(sectors) / float64(presses)
	fmt.Printf("flash: %d presses wrote %d sectors (%.1f per press)\n", presses, sectors, perPress)
	requests := r.Synced.WriteIOs - r.Before.WriteIOs
	fmt.Printf("flash: %d write requests (%.1f per press); %d sectors before the closing sync, %d after it; %.1fs of presses\n",
		requests, float64(requests)/float64(presses), r.After.WriteSectors-r.Before.WriteSectors,
		r.Synced.WriteSectors-r.After.WriteSectors, r.Took.Seconds())
	name := fmt.Sprintf("flash: at most %.0f sectors per press", writeGoal)
	detail = fmt.Sprintf("%.1f per press", perPress)
	if enforce {
		rep.check(name, perPress <= writeGoal, "%s", detail)
	} else {
		rep.advise(name, perPress <= writeGoal, "%s (not enforced: --write-goal enforces it)", detail)
	}
}
