package main

import (
	"encoding/binary"
	"fmt"
	"net"
	"time"
)

// ntpServer answers NTP client requests (RFC 5905, server mode) on the
// host's loopback, port 123, which QEMU's user-mode network shows the guest
// as 10.0.2.2:123: the [network] table's ntp server, so that the test sees
// systemd-timesyncd synchronize and the daemon trust NTP's time of day.
type ntpServer struct {
	conn    *net.UDPConn
	answers chan struct{}
}

// ntpEpoch is the Unix time of the NTP era's start (1900-01-01).
const ntpEpoch = 2208988800

func startNTPServer() (*ntpServer, error) {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 123})
	if err != nil {
		return nil, fmt.Errorf("NTP server on 127.0.0.1:123: %v", err)
	}
	s := &ntpServer{conn: conn, answers: make(chan struct{}, 64)}
	go s.serve()
	return s, nil
}

func (s *ntpServer) serve() {
	buf := make([]byte, 512)
	for {
		n, from, err := s.conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		rx := time.Now()
		req := buf[:n]
		if n < 48 || req[0]&7 != 3 { // mode 3: a client
			continue
		}
		resp := ntpAnswer(req, rx, time.Now())
		if _, err := s.conn.WriteToUDP(resp, from); err == nil {
			select {
			case s.answers <- struct{}{}:
			default:
			}
		}
	}
}

// ntpAnswer is a server's answer to the client request req, received at rx
// and sent at tx: stratum 2, in sync, the request's transmit time as its
// origin (which the client checks).
func ntpAnswer(req []byte, rx, tx time.Time) []byte {
	resp := make([]byte, 48)
	version := req[0] >> 3 & 7
	resp[0] = 0<<6 | version<<3 | 4 // leap: none; mode 4: server
	resp[1] = 2                     // stratum
	resp[2] = req[2]                // poll, as asked
	resp[3] = 0xec                  // precision: 2^-20 s
	copy(resp[12:16], []byte{127, 0, 0, 1})
	putNTPTime(resp[16:24], rx)
	copy(resp[24:32], req[40:48])
	putNTPTime(resp[32:40], rx)
	putNTPTime(resp[40:48], tx)
	return resp
}

func putNTPTime(b []byte, t time.Time) {
	binary.BigEndian.PutUint32(b[0:4], uint32(t.Unix()+ntpEpoch))
	binary.BigEndian.PutUint32(b[4:8], uint32((uint64(t.Nanosecond())<<32)/1e9))
}

func (s *ntpServer) close() {
	if s != nil {
		s.conn.Close()
	}
}
