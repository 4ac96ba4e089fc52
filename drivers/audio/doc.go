// Package audio is the spoken clock's sound: words made into speech by
// espeak-ng, laid on one channel of a stereo sound (the left player's
// earphone or the right player's, the other channel silent), and played
// through ALSA's aplay, or written as WAV files (the simulator's --audio).
//
// Speech is made by a separate espeak-ng process for each announcement, its
// WAV read from a pipe (ReadWAV), and played by a separate aplay process:
// neither runs in the daemon's event loop. Player does both on a goroutine
// of its own; its Say never blocks (it drops what a full queue cannot take),
// so a press is never delayed by speech. A new announcement cuts the one
// playing: what it said is the clock as it was, and the new one is the clock
// as it is.
//
// espeak-ng and its voices are Debian's espeak-ng and espeak-ng-data (about
// 13.5 MB installed, almost all of it espeak-ng-data's dictionaries); aplay
// is alsa-utils'. Speech is fast: at 340 words a minute "one hour
// twenty-nine minutes fifty seconds, move twelve" takes under 2 s in
// English.
package audio
