// Package coldplug waits for the device nodes the clock opens to be there
// and open to it, as udev's coldplug of the boot makes them.
//
// At boot the clock starts beside udev, not after it: its GPIO chip is in
// devtmpfs from the kernel's start, but owned by root until udev's rule
// gives it its group; an I²C bus's node appears once udev has loaded the
// controller's module; an SPI node once udev has handed the device to
// spidev; a PWM channel once udev's rule has exported it. Waiting for
// udev's whole queue (`udevadm settle`) would wait for every device of
// the board, and for the coldplug to be started at all. Wait waits for
// exactly the files it is given (drivers/profile's Nodes).
//
// It watches each file's directory with inotify and checks again at each
// event, so it wakes when udev creates a node or changes its owner or
// mode. sysfs sends no such event for what the kernel creates, so a file
// under a directory that cannot be watched, or on sysfs, is checked again
// every Recheck.
package coldplug

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Recheck is how often a file whose directory sends no inotify events
// (sysfs, or a directory not there yet) is checked again.
const Recheck = 50 * time.Millisecond

// Pending is a file Wait gave up on, and why.
type Pending struct {
	Path string
	Err  error // from the last check: it is missing, or it does not open for reading and writing
}

func (p Pending) String() string { return fmt.Sprintf("%s: %v", p.Path, p.Err) }

// Wait returns once every one of paths exists and this process may open it
// for reading and writing, or once timeout has passed. It returns the
// files still not ready then, nil when all are.
func Wait(paths []string, timeout time.Duration) ([]Pending, error) {
	pending := check(paths)
	if len(pending) == 0 {
		return nil, nil
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return pending, fmt.Errorf("coldplug: inotify: %w", err)
	}
	defer unix.Close(fd)
	poll := false
	var dirs []string
	for _, p := range pending {
		if d := filepath.Dir(p.Path); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if onSysfs(d) {
			poll = true
			continue
		}
		_, err := unix.InotifyAddWatch(fd, d, unix.IN_CREATE|unix.IN_ATTRIB|unix.IN_MOVED_TO)
		if err != nil {
			// Not there yet (a module not loaded): looked at again.
			poll = true
		}
	}
	deadline := time.Now().Add(timeout)
	buf := make([]byte, 4096)
	for {
		// Checked after the watches are set, so that nothing done
		// between the first check and the watch is missed.
		if pending = check(paths); len(pending) == 0 {
			return nil, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return pending, nil
		}
		if poll {
			left = min(left, Recheck)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(left.Milliseconds())+1); err != nil && !errors.Is(err, unix.EINTR) {
			return pending, fmt.Errorf("coldplug: waiting for %s: %w", pending[0].Path, err)
		}
		// Drain the events; what they were does not matter, the files'
		// state does.
		for {
			if _, err := unix.Read(fd, buf); err != nil {
				break
			}
		}
	}
}

// check returns the paths not yet ready.
func check(paths []string) []Pending {
	var p []Pending
	for _, path := range paths {
		if err := unix.Access(path, unix.R_OK|unix.W_OK); err != nil {
			p = append(p, Pending{Path: path, Err: explain(err)})
		}
	}
	return p
}

func explain(err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return errors.New("not there")
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		return errors.New("no permission to open it (its group not yet given)")
	}
	return err
}

// onSysfs reports whether dir is on sysfs, whose files the kernel makes
// without an inotify event.
func onSysfs(dir string) bool {
	if strings.HasPrefix(dir, "/sys/") {
		return true
	}
	var st unix.Statfs_t
	return unix.Statfs(dir, &st) == nil && st.Type == unix.SYSFS_MAGIC
}

// Summary is Pending's paths and reasons on one line.
func Summary(p []Pending) string {
	s := make([]string, len(p))
	for i := range p {
		s[i] = p[i].String()
	}
	return strings.Join(s, "; ")
}
