package button

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"

	"github.com/zeitnot/zeitnot/drivers/monotonic"
)

// consumer is the name the lines are requested under, as gpioinfo shows it.
const consumer = "zeitnot"

// Open watches the GPIO lines of the given buttons and returns a Source of
// their debounced events. The order of lines is the order of events that
// fall on the same instant. opts nil means DefaultOpts.
//
// periph finds the GPIO chip and the lines' offsets by name. The lines are
// then requested from the kernel here, as one set on that chip, through the
// GPIO character device's uAPI v2 (not periph's LineSet, which drops the
// events' timestamps): inputs with opts.Pull as their bias, edge events on
// both edges stamped by the kernel on CLOCK_MONOTONIC, no kernel debounce.
// One goroutine sleeps in ppoll(2) on the request until an edge or the next
// debounce or hold deadline: no polling. A button already down when Open
// is called gives no press until it has been released.
//
// Open fails with an error naming the button when a line does not exist on
// this machine (for example on a computer that is not a Raspberry Pi), is
// used by another program, or the lines are on more than one chip.
//
// If watching fails later, the Events channel is closed early and Close
// returns the error.
func Open(lines []Line, opts *Opts) (Source, error) {
	o, err := checkLines(lines, opts)
	if err != nil {
		return nil, err
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("button: initializing periph: %w", err)
	}
	chip, err := findChip(lines)
	if err != nil {
		return nil, err
	}
	offsets := make([]uint32, len(lines))
	for i, l := range lines {
		offsets[i] = uint32(chip.ByName(l.Line).Number())
	}
	fd, err := requestLines(chip.Path(), offsets, o.Pull)
	if err != nil {
		if errors.Is(err, unix.EBUSY) {
			for _, l := range lines {
				if c := chip.ByName(l.Line).Consumer(); c != "" {
					return nil, fmt.Errorf("button %q: %s is in use by %q: %w", l.Name, l.Line, c, err)
				}
			}
		}
		return nil, fmt.Errorf("button: requesting %s on %s: %w", lineNames(lines), chip.Name(), err)
	}
	src, err := newFdSource(fd, func() (uint64, error) { return lineLevels(fd, len(lines)) })
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("button: watching %s on %s: %w", lineNames(lines), chip.Name(), err)
	}
	w, err := start(lines, src, offsets, o, monotonic.FromKernel)
	if err != nil {
		src.close()
		return nil, err
	}
	return w, nil
}

// findChip returns the one GPIO chip that has all the lines.
func findChip(lines []Line) (*gpioioctl.GPIOChip, error) {
	var chip *gpioioctl.GPIOChip
	var first Line
	var missing []error // every button whose line is not there, not just the first
	for _, l := range lines {
		var c *gpioioctl.GPIOChip
		for _, ch := range gpioioctl.Chips {
			if ch.ByName(l.Line) != nil {
				c = ch
				break
			}
		}
		if c == nil {
			missing = append(missing, fmt.Errorf("button %q: no GPIO line named %s on this machine%s", l.Name, l.Line, noChipHint()))
			continue
		}
		if chip == nil {
			chip, first = c, l
		} else if c != chip {
			return nil, fmt.Errorf("button %q: %s is on %s but button %q is on %s; all buttons must be on one GPIO chip", l.Name, l.Line, c.Name(), first.Name, chip.Name())
		}
	}
	if len(missing) > 0 {
		return nil, errors.Join(missing...)
	}
	return chip, nil
}

// noChipHint explains why no GPIO chip was found, when that is the case.
func noChipHint() string {
	if len(gpioioctl.Chips) > 0 {
		return ""
	}
	paths, _ := filepath.Glob("/dev/gpiochip*")
	if len(paths) == 0 {
		return " (no /dev/gpiochip*)"
	}
	f, err := os.Open(paths[0])
	if err != nil {
		return " (" + err.Error() + ")"
	}
	f.Close()
	return ""
}

// requestLines requests the lines at offsets on the GPIO chip at path as
// inputs with edge events on both edges and returns the request's file
// descriptor. The kernel keeps up to 16 events per line by default; the
// request asks for 64 per line (it caps the total at 1024).
func requestLines(path string, offsets []uint32, pull gpio.Pull) (int, error) {
	chip, err := unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(chip) // the request lives on without it
	var req lineRequest
	copy(req.offsets[:], offsets)
	copy(req.consumer[:nameSize-1], consumer)
	req.config.flags = lineFlagInput | lineFlagEdgeRising | lineFlagEdgeFalling | biasFlags(pull)
	req.numLines = uint32(len(offsets))
	req.eventBufferSize = uint32(min(64*len(offsets), 16*linesMax))
	if err := ioctl(chip, getLineIoctl, unsafe.Pointer(&req)); err != nil {
		return -1, err
	}
	return int(req.fd), nil
}

// biasFlags returns the bias flags of a pull: none keeps the line's.
func biasFlags(p gpio.Pull) uint64 {
	switch p {
	case gpio.PullUp:
		return lineFlagBiasPullUp
	case gpio.PullDown:
		return lineFlagBiasPullDn
	case gpio.Float:
		return lineFlagBiasOff
	}
	return 0
}

// lineLevels reads the levels of the first n lines of a request.
func lineLevels(fd, n int) (uint64, error) {
	v := lineValues{mask: 1<<n - 1}
	if n == linesMax {
		v.mask = ^uint64(0)
	}
	if err := ioctl(fd, getValuesIoctl, unsafe.Pointer(&v)); err != nil {
		return 0, err
	}
	return v.bits, nil
}

func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	for {
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(arg))
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}

// fdSource is the edgeSource of a line request's file descriptor, or in
// tests of any file descriptor such as a pipe's read end. It sleeps in
// ppoll(2) on the descriptor and on an eventfd that wake writes to, with
// the timeout in nanoseconds.
type fdSource struct {
	fd     int
	wakeFd int
	values func() (uint64, error)
}

// newFdSource makes fd non-blocking and returns a source that owns it.
func newFdSource(fd int, values func() (uint64, error)) (*fdSource, error) {
	if err := unix.SetNonblock(fd, true); err != nil {
		return nil, err
	}
	wfd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	return &fdSource{fd: fd, wakeFd: wfd, values: values}, nil
}

func (s *fdSource) wait(timeout time.Duration) error {
	fds := []unix.PollFd{{Fd: int32(s.fd), Events: unix.POLLIN}, {Fd: int32(s.wakeFd), Events: unix.POLLIN}}
	var ts *unix.Timespec
	if timeout >= 0 {
		t := unix.NsecToTimespec(int64(timeout))
		ts = &t
	}
	_, err := unix.Ppoll(fds, ts, nil)
	if err != nil && err != unix.EINTR { // a signal: the caller waits again
		return fmt.Errorf("ppoll: %w", err)
	}
	return nil
}

func (s *fdSource) read(p []byte) (int, error) {
	for {
		n, err := unix.Read(s.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return 0, nil
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (s *fdSource) levels() (uint64, error) { return s.values() }

func (s *fdSource) wake() {
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	_, _ = unix.Write(s.wakeFd, one[:])
}

func (s *fdSource) close() error {
	err := unix.Close(s.fd)
	unix.Close(s.wakeFd)
	return err
}
