package main

import (
	"encoding/binary"
	"testing"
	"time"
)

// The answer follows RFC 5905's server mode: the client's transmit time
// echoed as the origin, the NTP era's seconds, mode 4, stratum 2.
func TestNTPAnswer(t *testing.T) {
	req := make([]byte, 48)
	req[0] = 4<<3 | 3 // version 4, client
	req[2] = 6
	copy(req[40:48], []byte{1, 2, 3, 4, 5, 6, 7, 8})
	at := time.Date(2026, 11, 30, 12, 0, 0, 500_000_000, time.UTC)
	resp := ntpAnswer(req, at, at)
	if resp[0] != 4<<3|4 || resp[1] != 2 || resp[2] != 6 {
		t.Errorf("header % x", resp[:4])
	}
	if got := resp[24:32]; string(got) != string(req[40:48]) {
		t.Errorf("origin % x, want the request's transmit time % x", got, req[40:48])
	}
	if sec := binary.BigEndian.Uint32(resp[40:44]); int64(sec) != at.Unix()+2208988800 {
		t.Errorf("transmit seconds %d", sec)
	}
	if frac := binary.BigEndian.Uint32(resp[44:48]); frac != 1<<31 {
		t.Errorf("transmit fraction %#x, want half a second", frac)
	}
}
