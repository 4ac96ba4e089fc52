package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// speechCheck plays an announcement through the image's audio path
// (FIDE Appendix D.2.6.1's spoken clock): espeak-ng makes it and aplay
// plays it to ALSA's null device, as the daemon's player does to the
// earphones (QEMU's virt machine has no sound card); then the same
// announcement is written as a stereo WAV file, which must hold about as
// much sound as the words take.
func speechCheck(rep *report, run runFunc) {
	out, code := run("zeitnot hardware speak --side left --device null 2>&1", 2*time.Minute)
	fmt.Println(indent("$ zeitnot hardware speak --side left --device null (exit " + strconv.Itoa(code) + ")\n" + strings.TrimSpace(out)))
	rep.check("speech: an announcement plays through espeak-ng and aplay", code == 0 && strings.Contains(out, "said into the left earphone"), "%s", oneLine(out))

	out, code = run("zeitnot hardware speak --side right --lang de --wav /tmp/announce.wav 2>&1 && stat -c 'bytes %s' /tmp/announce.wav; rm -f /tmp/announce.wav", 2*time.Minute)
	fmt.Println(indent("$ zeitnot hardware speak --side right --lang de --wav /tmp/announce.wav (exit " + strconv.Itoa(code) + ")\n" + strings.TrimSpace(out)))
	n := -1
	if i := strings.LastIndex(out, "bytes "); i >= 0 {
		n, _ = strconv.Atoi(strings.TrimSpace(out[i+len("bytes "):]))
	}
	// 16-bit stereo at espeak-ng's 22,050 Hz: a second is 88,200 bytes;
	// the sample announcement takes more than a second.
	rep.check("speech: a German announcement written as a stereo WAV", code == 0 && n > 88200, "%d bytes; %s", n, oneLine(grepLine(out, "said")))
}
