package screen

import "strconv"

// DefaultTenthsBelow is when tenths of a second appear: below 20 s.
const DefaultTenthsBelow = 20000

// FormatTime writes a clock time the way the displays show it:
//
//	h:mm:ss   from one hour up
//	m:ss      below an hour
//	m:ss.t    below tenthsBelow (tenths of a second)
//
// A remaining time is rounded up, so the display never shows zero before the
// flag falls (0:00.1 until the last millisecond); a count-up time is rounded
// down.
func FormatTime(ms int64, tenthsBelow int64, countUp bool) string {
	return string(AppendTime(nil, ms, tenthsBelow, countUp))
}

// AppendTime appends FormatTime(ms, tenthsBelow, countUp) to b.
func AppendTime(b []byte, ms int64, tenthsBelow int64, countUp bool) []byte {
	if ms < 0 {
		ms = 0
	}
	tenths := !countUp && ms < tenthsBelow
	unit := int64(1000)
	if tenths {
		unit = 100
	}
	if !countUp {
		ms = (ms + unit - 1) / unit * unit
	}
	h := ms / 3600000
	m := ms / 60000 % 60
	s := ms / 1000 % 60
	if h > 0 {
		b = strconv.AppendInt(b, h, 10)
		b = append(b, ':', byte('0'+m/10))
	} else if m >= 10 {
		b = append(b, byte('0'+m/10))
	}
	b = append(b, byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if tenths {
		b = append(b, '.', byte('0'+ms/100%10))
	}
	return b
}

// UntilChange returns how many ms of running pass before FormatTime's text
// for a clock at ms changes: the daemon sleeps exactly that long. Counting
// down, the text changes when ms crosses a multiple of the unit shown, or
// enters the tenths range.
func UntilChange(ms int64, tenthsBelow int64, countUp bool) int64 {
	if countUp {
		return 1000 - ms%1000
	}
	if ms <= 0 {
		return 0
	}
	unit := int64(1000)
	if ms < tenthsBelow {
		unit = 100
	}
	d := (ms-1)%unit + 1
	// Entering the tenths range changes the text too.
	if ms >= tenthsBelow && ms-d < tenthsBelow {
		d = ms - tenthsBelow + 1
	}
	return d
}
