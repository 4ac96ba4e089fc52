package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// The time of day. The daemon reads the wall clock only here, at the edge
// of its loop (Machine.Step), from the program's one wallclock.Clock
// (Opts.Clock), and gives the core the reading with the monotonic instant;
// the core and the session never read a clock.
//
// Which source it trusts, first that applies:
//
//   - ntp: systemd-timesyncd has synchronized the system clock (its flag
//     file, /run/systemd/timesync/synchronized, exists);
//   - arbiter: the arbiter set the time of day in the menu. The daemon
//     cannot set the system clock: it keeps the difference between the
//     time set and the system clock, in memory and in the state directory
//     (TimeFile) with the boot's id, so a restart of the daemon keeps it
//     and a reboot (a system clock that started again from anything)
//     forgets it;
//   - (the scripted simulator: its virtual time of day, "sim"; a
//     demonstration clock on the arbiter's laptop, make hall: the
//     laptop's system clock, "host", allowed only with the simulated
//     profile and never on the clock's image: HostClockAllowed);
//   - rtc: the profile names a real-time clock ([rtc]) and the hardware
//     check found its time valid: the kernel set the system clock from it
//     at boot;
//   - none: the system clock is read all the same, but no start is
//     scheduled by it.

// TimeFile keeps the arbiter's time of day in the state directory.
const TimeFile = "timeofday.json"

// DefaultSyncedFile exists while systemd-timesyncd has synchronized the
// system clock.
const DefaultSyncedFile = "/run/systemd/timesync/synchronized"

// DefaultOSRelease names the operating system, and the clock's image
// (image/os-release.in appends IMAGE_ID=zeitnot).
const DefaultOSRelease = "/etc/os-release"

// ImageID is the clock's image's IMAGE_ID in os-release.
const ImageID = "zeitnot"

// HostClockAllowed says whether a daemon on the hardware profile named
// profile may trust the system clock as "host", the time of day of the
// laptop a demonstration clock (make hall) runs on: only on the builtin
// simulated profile (a name that is a builtin's is the builtin; a file is
// named by its path), and never on the clock's image (its os-release, at
// path osRelease, says IMAGE_ID=zeitnot). A real clock's system clock is
// trusted only as NTP or its real-time clock found it.
func HostClockAllowed(profile, osRelease string) error {
	if profile != config.SimProfile {
		return fmt.Errorf("the host's clock is trusted only by a simulated clock (profile %q), not on profile %q", config.SimProfile, profile)
	}
	if osRelease == "" {
		osRelease = DefaultOSRelease
	}
	b, err := regfile.ReadFile(osRelease, regfile.Opts{Max: 64 << 10})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the host's clock is not trusted: %s: %v (it says whether this is the clock's image)", osRelease, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && k == "IMAGE_ID" && strings.Trim(v, `"'`) == ImageID {
			return fmt.Errorf("the host's clock is not trusted on the clock's image (%s: IMAGE_ID=%s): a clock trusts NTP, its real-time clock or the arbiter", osRelease, ImageID)
		}
	}
	return nil
}

// bootIDFile is the kernel's id of this boot.
const bootIDFile = "/proc/sys/kernel/random/boot_id"

// TimeOpts say where the daemon reads the time of day; the clock it
// reads is the program's (Opts.Clock, NewTimeSource's clk).
type TimeOpts struct {
	// SyncedFile exists while NTP has synchronized the system clock;
	// default DefaultSyncedFile. "-" for none.
	SyncedFile string
	// Trusted, if set, is a source the clock is always right for: the
	// simulator's virtual time of day, "sim", or a demonstration clock's
	// laptop, "host" (Setup refuses it where HostClockAllowed does).
	Trusted string
	// OSRelease is the system's os-release file, which names the clock's
	// image (IMAGE_ID=zeitnot); default DefaultOSRelease.
	OSRelease string
	// Zone is where the menu shows times of day; default time.Local.
	Zone *time.Location
	// BootID identifies this boot for the arbiter's time kept in the state
	// directory; default the kernel's.
	BootID string
}

// TimeSource reads the time of day for the loop.
type TimeSource struct {
	o        TimeOpts
	clock    wallclock.Clock
	rtc      bool   // the profile's real-time clock was found valid
	path     string // TimeFile; "" for none
	arbiter  *arbiterTime
	synced   bool          // the last look at SyncedFile
	lookedAt time.Duration // when, on the loop's monotonic base
	looked   bool
	logf     func(string)
}

// arbiterTime is the arbiter's time of day: the system clock plus Offset,
// on the boot Boot.
type arbiterTime struct {
	Boot     string `json:"boot"`
	OffsetMs int64  `json:"offset_ms"`
	SetAt    int64  `json:"set_at"` // the time of day set, Unix ms (for people)
}

// syncedEvery is how often the daemon looks at the NTP flag file.
const syncedEvery = 10 * time.Second

// NewTimeSource returns the time source of a daemon that reads the time
// of day from clk (nil is wallclock.Real, the system clock), with the
// state directory dir ("" for none) and the devices a profile opened.
func NewTimeSource(o TimeOpts, clk wallclock.Clock, dir string, devs *profile.Devices, logf func(string)) *TimeSource {
	if o.SyncedFile == "" {
		o.SyncedFile = DefaultSyncedFile
	}
	if o.Zone == nil {
		o.Zone = time.Local
	}
	if o.BootID == "" {
		if b, err := regfile.ReadFile(bootIDFile, regfile.Opts{Max: 128}); err == nil {
			o.BootID = strings.TrimSpace(string(b))
		}
	}
	ts := &TimeSource{o: o, clock: wallclock.Or(clk), rtc: rtcValid(devs), logf: logf}
	if dir != "" {
		ts.path = filepath.Join(dir, TimeFile)
		ts.load()
	}
	return ts
}

// rtcValid reports whether the hardware check found a real-time clock
// whose time is valid.
func rtcValid(devs *profile.Devices) bool {
	if devs == nil {
		return false
	}
	for _, r := range devs.Results {
		if r.Kind == "rtc" && r.Err == nil && strings.Contains(r.Device, ", time valid") {
			return true
		}
	}
	return false
}

func (ts *TimeSource) log(s string) {
	if ts.logf != nil {
		ts.logf(s)
	}
}

// load reads the arbiter's time kept by an earlier run of this boot.
func (ts *TimeSource) load() {
	b, err := regfile.ReadFile(ts.path, regfile.Opts{Max: 4096, NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var a arbiterTime
	if err == nil {
		err = json.Unmarshal(b, &a)
	}
	switch {
	case err != nil:
		ts.log(fmt.Sprintf("time of day: %s: %v; the arbiter's time of day is not used", ts.path, err))
	case ts.o.BootID == "" || a.Boot != ts.o.BootID:
		// Another boot: the system clock started again from anything.
	default:
		ts.arbiter = &a
	}
}

// ntp looks at the NTP flag file, at most every syncedEvery.
func (ts *TimeSource) ntp(mono time.Duration) bool {
	if ts.o.SyncedFile == "-" {
		return false
	}
	if !ts.looked || mono-ts.lookedAt >= syncedEvery || mono < ts.lookedAt {
		_, err := os.Stat(ts.o.SyncedFile)
		ts.synced, ts.lookedAt, ts.looked = err == nil, mono, true
	}
	return ts.synced
}

// Read reads the time of day at monotonic instant mono.
func (ts *TimeSource) Read(mono time.Duration) ui.TimeOfDay {
	now := ts.clock.Now().UnixMilli()
	t := ui.TimeOfDay{Mono: mono, UnixMs: now, Source: ui.SourceNone, Zone: ts.o.Zone}
	switch {
	case ts.ntp(mono):
		t.Source = ui.SourceNTP
	case ts.arbiter != nil:
		t.UnixMs, t.Source = now+ts.arbiter.OffsetMs, ui.SourceArbiter
	case ts.o.Trusted != "":
		t.Source = ts.o.Trusted
	case ts.rtc:
		t.Source = ui.SourceRTC
	}
	return t
}

// Set keeps the time of day the arbiter set (unixMs at monotonic instant
// mono, taken as now: the menu's ok is pressed in this turn of the loop).
func (ts *TimeSource) Set(mono time.Duration, unixMs int64) error {
	if ts.ntp(mono) {
		return errors.New("NTP has synchronized the system clock: the time of day is NTP's")
	}
	a := &arbiterTime{Boot: ts.o.BootID, OffsetMs: unixMs - ts.clock.Now().UnixMilli(), SetAt: unixMs}
	ts.arbiter = a
	if ts.path != "" && ts.o.BootID != "" {
		b, _ := json.Marshal(a)
		if err := atomicfile.WriteFile(ts.path, append(b, '\n'), 0o644); err != nil {
			ts.log(fmt.Sprintf("time of day: %v (kept in memory until the daemon stops)", err))
		}
	}
	ts.log(fmt.Sprintf("time of day: set by the arbiter to %s (the system clock %+d ms)", time.UnixMilli(unixMs).UTC().Format(time.RFC3339), a.OffsetMs))
	return nil
}
