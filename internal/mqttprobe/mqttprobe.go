// Package mqttprobe tells a port that speaks plain MQTT from one that
// speaks TLS: an mqtts:// client whose handshake was cut asks it, to say
// "use mqtt://" rather than "certificate refused". The clock's link and
// the hall's broker client both ask.
package mqttprobe

import (
	"io"
	"net"
	"time"
)

// Plain reports whether the broker at addr (host:port) answers a
// plain MQTT CONNECT with a CONNACK: what an mqtts:// client that had its
// connection closed mid-handshake asks, to tell "this port is plain MQTT"
// from a refused certificate. One connection, at most timeout.
func Plain(addr string, timeout time.Duration) bool {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	// CONNECT, MQTT 3.1.1, clean session, keep-alive 60 s, empty client id.
	connect := []byte{0x10, 12, 0, 4, 'M', 'Q', 'T', 'T', 4, 0x02, 0, 60, 0, 0}
	if _, err := c.Write(connect); err != nil {
		return false
	}
	ack := make([]byte, 2)
	if _, err := io.ReadFull(c, ack); err != nil {
		return false
	}
	return ack[0] == 0x20 && ack[1] == 2 // CONNACK, remaining length 2
}
