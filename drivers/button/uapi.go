package button

import (
	"encoding/binary"
	"unsafe"
)

// The Linux GPIO character device, uAPI v2 (include/uapi/linux/gpio.h),
// as far as the watcher uses it: a request for input lines with edge
// events, the line events read from the request's file descriptor, and the
// lines' current levels.
//
// The structs are laid out by the kernel with explicit padding so that they
// are the same on 32-bit and 64-bit ABIs; the Go structs below repeat that
// layout field for field. Go aligns uint64 to 4 bytes on 32-bit ARM where C
// aligns it to 8, which would matter only where C inserts implicit padding;
// the uAPI has none, and the checks below (evaluated on every GOARCH the
// package is built for) refuse to compile if a size or offset differs.

// GPIO_V2_LINE_FLAG_* bits of gpio_v2_line_config.flags.
const (
	lineFlagInput       uint64 = 1 << 2
	lineFlagEdgeRising  uint64 = 1 << 4
	lineFlagEdgeFalling uint64 = 1 << 5
	lineFlagBiasPullUp  uint64 = 1 << 8
	lineFlagBiasPullDn  uint64 = 1 << 9
	lineFlagBiasOff     uint64 = 1 << 10
	// GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME (1 << 11) and _HTE (1 << 12)
	// are never set: without them the kernel stamps events with
	// CLOCK_MONOTONIC (ktime_get_ns).
)

// gpio_v2_line_event.id.
const (
	eventRisingEdge  = 1 // GPIO_V2_LINE_EVENT_RISING_EDGE
	eventFallingEdge = 2 // GPIO_V2_LINE_EVENT_FALLING_EDGE
)

const (
	linesMax    = 64 // GPIO_V2_LINES_MAX
	nameSize    = 32 // GPIO_MAX_NAME_SIZE
	numAttrsMax = 10 // GPIO_V2_LINE_NUM_ATTRS_MAX
)

// ioctl numbers: _IOWR(0xB4, nr, struct), as asm-generic/ioctl.h encodes
// them on arm, arm64 and x86: direction (read|write = 3) in bits 30-31,
// size in bits 16-29, type 0xB4 in bits 8-15, number in bits 0-7.
const (
	getLineIoctl   = 3<<30 | uintptr(unsafe.Sizeof(lineRequest{}))<<16 | 0xB4<<8 | 0x07 // GPIO_V2_GET_LINE_IOCTL
	getValuesIoctl = 3<<30 | uintptr(unsafe.Sizeof(lineValues{}))<<16 | 0xB4<<8 | 0x0E  // GPIO_V2_LINE_GET_VALUES_IOCTL
)

// lineAttribute is struct gpio_v2_line_attribute (16 bytes).
type lineAttribute struct {
	id      uint32
	padding uint32
	value   uint64 // a union: flags, values or debounce_period_us
}

// lineConfigAttribute is struct gpio_v2_line_config_attribute (24 bytes).
type lineConfigAttribute struct {
	attr lineAttribute
	mask uint64
}

// lineConfig is struct gpio_v2_line_config (272 bytes).
type lineConfig struct {
	flags    uint64
	numAttrs uint32
	padding  [5]uint32
	attrs    [numAttrsMax]lineConfigAttribute
}

// lineRequest is struct gpio_v2_line_request (592 bytes). The kernel fills
// in fd.
type lineRequest struct {
	offsets         [linesMax]uint32
	consumer        [nameSize]byte
	config          lineConfig
	numLines        uint32
	eventBufferSize uint32
	padding         [5]uint32
	fd              int32
}

// lineValues is struct gpio_v2_line_values (16 bytes): bit i is the i-th
// line of the request.
type lineValues struct {
	bits uint64
	mask uint64
}

// Sizes and offsets of the uAPI, checked at compile time: each array length
// below is negative, which does not compile, if a Go layout differs from the
// kernel's.
const (
	lineRequestSize = 592
	lineValuesSize  = 16
	eventSize       = 48 // struct gpio_v2_line_event
)

var (
	_ [unsafe.Sizeof(lineRequest{}) - lineRequestSize]struct{}
	_ [lineRequestSize - unsafe.Sizeof(lineRequest{})]struct{}
	_ [unsafe.Offsetof(lineRequest{}.config) - 288]struct{}
	_ [288 - unsafe.Offsetof(lineRequest{}.config)]struct{}
	_ [unsafe.Offsetof(lineRequest{}.numLines) - 560]struct{}
	_ [560 - unsafe.Offsetof(lineRequest{}.numLines)]struct{}
	_ [unsafe.Offsetof(lineRequest{}.fd) - 588]struct{}
	_ [588 - unsafe.Offsetof(lineRequest{}.fd)]struct{}
	_ [unsafe.Sizeof(lineConfig{}) - 272]struct{}
	_ [272 - unsafe.Sizeof(lineConfig{})]struct{}
	_ [unsafe.Offsetof(lineConfig{}.attrs) - 32]struct{}
	_ [32 - unsafe.Offsetof(lineConfig{}.attrs)]struct{}
	_ [unsafe.Sizeof(lineConfigAttribute{}) - 24]struct{}
	_ [24 - unsafe.Sizeof(lineConfigAttribute{})]struct{}
	_ [unsafe.Sizeof(lineValues{}) - lineValuesSize]struct{}
	_ [lineValuesSize - unsafe.Sizeof(lineValues{})]struct{}
)

// lineEvent is struct gpio_v2_line_event, as read(2) returns it from a line
// request: 48 bytes in the machine's byte order,
//
//	offset  field
//	0       __aligned_u64 timestamp_ns  CLOCK_MONOTONIC, taken in the hard interrupt
//	8       __u32 id                    1 rising, 2 falling: the level the kernel read back
//	12      __u32 offset                the line's offset on its chip
//	16      __u32 seqno                 per request, from 1
//	20      __u32 line_seqno            per line, from 1
//	24      __u32 padding[6]
type lineEvent struct {
	timestampNs uint64
	id          uint32
	offset      uint32
	seqno       uint32
	lineSeqno   uint32
}

// decodeEvent decodes one record; b holds at least eventSize bytes.
func decodeEvent(b []byte) lineEvent {
	_ = b[eventSize-1]
	e := binary.NativeEndian
	return lineEvent{
		timestampNs: e.Uint64(b[0:]),
		id:          e.Uint32(b[8:]),
		offset:      e.Uint32(b[12:]),
		seqno:       e.Uint32(b[16:]),
		lineSeqno:   e.Uint32(b[20:]),
	}
}
