// Package coldplug waits for udev to finish the device events it has
// queued, such as those of the boot's coldplug (systemd-udev-trigger),
// so that the device nodes the clock opens exist with the owners and
// modes the udev rules give them.
//
// udev keeps the file "queue" in its run directory (/run/udev) while
// events are queued or being processed, and removes it when the queue is
// empty; `udevadm settle` waits for the same. Wait watches the directory
// with inotify: it wakes at the removal, never polls.
//
// At boot the clock needs its GPIO chips, I2C buses and SPI devices: a
// bus's node exists only once udev has loaded its controller's module,
// the SPI nodes only once udev has handed the devices to spidev, and the
// group that lets the clock open a node is set by a udev rule. Which
// nodes a hardware profile needs is known only to the daemon, so the
// daemon waits for the queue rather than systemd for named devices.
package coldplug

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// RunDir is udev's run directory.
const RunDir = "/run/udev"

// Wait returns once udev's queue in dir (RunDir) is empty, or after
// timeout. It reports whether the queue was empty. A dir that does not
// exist (no udev) has nothing queued.
func Wait(dir string, timeout time.Duration) (bool, error) {
	queue := filepath.Join(dir, "queue")
	if !exists(queue) {
		return true, nil
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return false, fmt.Errorf("coldplug: inotify: %w", err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_DELETE_SELF); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return true, nil
		}
		return false, fmt.Errorf("coldplug: watching %s: %w", dir, err)
	}
	deadline := time.Now().Add(timeout)
	buf := make([]byte, 4096)
	for {
		// Checked after the watch is set, so a removal between the
		// first check and the watch is not missed.
		if !exists(queue) {
			return true, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(left.Milliseconds())+1); err != nil && !errors.Is(err, unix.EINTR) {
			return false, fmt.Errorf("coldplug: waiting for %s: %w", queue, err)
		}
		// Drain the events; what they were does not matter, the file's
		// absence does.
		for {
			if _, err := unix.Read(fd, buf); err != nil {
				break
			}
		}
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
