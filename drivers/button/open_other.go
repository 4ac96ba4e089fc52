//go:build !linux

package button

import "errors"

// Open watches GPIO lines through the Linux GPIO character device; on other
// systems it fails. See the Linux documentation of Open.
func Open(lines []Line, opts *Opts) (Source, error) {
	if _, err := checkLines(lines, opts); err != nil {
		return nil, err
	}
	return nil, errors.New("button: GPIO buttons need Linux's GPIO character device")
}
