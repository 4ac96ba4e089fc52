package broker

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// rawClient is a minimal MQTT 3.1.1 / 5 client for the delivery tests:
// paho.golang speaks only MQTT 5, and these tests need a 3.1.1 QoS 1
// subscriber and a publisher that puts a whole burst on the wire at once.
type rawClient struct {
	c       net.Conn
	r       *bufio.Reader
	version byte // 4: MQTT 3.1.1, 5: MQTT 5
	nextID  uint16
}

// rawPacket is one packet read: its type and flags, and for a PUBLISH
// its topic, packet id and payload.
type rawPacket struct {
	typ, flags byte
	id         uint16
	topic      string
	payload    []byte
	props      []byte // a PUBLISH's MQTT 5 properties
	body       []byte
}

func appendVarint(b []byte, n int) []byte {
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

func packet(typ byte, body []byte) []byte {
	return append(appendVarint([]byte{typ}, len(body)), body...)
}

// dialRaw connects with a clean session; receiveMax (MQTT 5 only, 0: not
// sent) is the client's Receive Maximum.
func dialRaw(addr, id string, version byte, receiveMax uint16) (*rawClient, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	rc := &rawClient{c: c, r: bufio.NewReaderSize(c, 64<<10), version: version}
	b := appendString(nil, "MQTT")
	b = append(b, version, 0x02) // clean session
	b = binary.BigEndian.AppendUint16(b, 60)
	if version == 5 {
		var props []byte
		if receiveMax > 0 {
			props = binary.BigEndian.AppendUint16([]byte{0x21}, receiveMax)
		}
		b = append(appendVarint(b, len(props)), props...)
	}
	b = appendString(b, id)
	if _, err := c.Write(packet(0x10, b)); err != nil {
		c.Close()
		return nil, err
	}
	p, err := rc.read(5 * time.Second)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("connack: %w", err)
	}
	if p.typ != 2 || len(p.body) < 2 || p.body[1] != 0 {
		c.Close()
		return nil, fmt.Errorf("connection refused: packet type %d, body % x", p.typ, p.body)
	}
	return rc, nil
}

func (rc *rawClient) close() { rc.c.Close() }

func (rc *rawClient) id() uint16 {
	rc.nextID++
	if rc.nextID == 0 {
		rc.nextID = 1
	}
	return rc.nextID
}

// subscribe subscribes to filter at QoS 1 and waits for the SUBACK.
func (rc *rawClient) subscribe(filter string) error {
	code, err := rc.subscribeCode(filter)
	if err == nil && code >= 0x80 {
		err = fmt.Errorf("subscription to %s refused: reason 0x%02x", filter, code)
	}
	return err
}

// subscribeCode subscribes to filter at QoS 1 and returns the SUBACK's
// reason code.
func (rc *rawClient) subscribeCode(filter string) (byte, error) {
	b := binary.BigEndian.AppendUint16(nil, rc.id())
	if rc.version == 5 {
		b = append(b, 0)
	}
	b = append(appendString(b, filter), 1)
	if _, err := rc.c.Write(packet(0x82, b)); err != nil {
		return 0, err
	}
	p, err := rc.read(5 * time.Second)
	if err != nil {
		return 0, err
	}
	if p.typ != 9 || len(p.body) < 3 {
		return 0, fmt.Errorf("subscription to %s: packet type %d, body % x", filter, p.typ, p.body)
	}
	return p.body[len(p.body)-1], nil
}

// publishQoS1 encodes a QoS 1 PUBLISH.
func (rc *rawClient) publishQoS1(topic string, payload []byte) []byte {
	return rc.publish(topic, payload, false, nil)
}

// publish encodes a QoS 1 PUBLISH, retained or not, with MQTT 5
// properties props.
func (rc *rawClient) publish(topic string, payload []byte, retain bool, props []byte) []byte {
	b := appendString(nil, topic)
	b = binary.BigEndian.AppendUint16(b, rc.id())
	if rc.version == 5 {
		b = append(appendVarint(b, len(props)), props...)
	}
	h := byte(0x32)
	if retain {
		h |= 1
	}
	return packet(h, append(b, payload...))
}

// messageExpiry reads the Message Expiry Interval from a PUBLISH's
// properties.
func messageExpiry(props []byte) (uint32, bool, error) {
	for len(props) > 0 {
		id := props[0]
		props = props[1:]
		var n int
		switch id {
		case 0x01:
			n = 1
		case 0x02:
			if len(props) < 4 {
				return 0, false, errors.New("short message expiry")
			}
			return binary.BigEndian.Uint32(props), true, nil
		case 0x23:
			n = 2
		case 0x0B:
			for n = 0; n < len(props) && props[n]&0x80 != 0; n++ {
			}
			n++
		case 0x03, 0x08, 0x09:
			if len(props) < 2 {
				return 0, false, errors.New("short property")
			}
			n = 2 + int(binary.BigEndian.Uint16(props))
		case 0x26:
			if len(props) < 2 {
				return 0, false, errors.New("short user property")
			}
			k := 2 + int(binary.BigEndian.Uint16(props))
			if len(props) < k+2 {
				return 0, false, errors.New("short user property")
			}
			n = k + 2 + int(binary.BigEndian.Uint16(props[k:]))
		default:
			return 0, false, fmt.Errorf("property 0x%02x in a PUBLISH", id)
		}
		if n > len(props) {
			return 0, false, fmt.Errorf("short property 0x%02x", id)
		}
		props = props[n:]
	}
	return 0, false, nil
}

func (rc *rawClient) puback(id uint16) error {
	_, err := rc.c.Write(packet(0x40, binary.BigEndian.AppendUint16(nil, id)))
	return err
}

// read reads one packet, waiting at most d.
func (rc *rawClient) read(d time.Duration) (rawPacket, error) {
	rc.c.SetReadDeadline(time.Now().Add(d))
	h, err := rc.r.ReadByte()
	if err != nil {
		return rawPacket{}, err
	}
	n, mult := 0, 1
	for i := 0; ; i++ {
		d, err := rc.r.ReadByte()
		if err != nil {
			return rawPacket{}, err
		}
		n += int(d&0x7f) * mult
		mult *= 128
		if d&0x80 == 0 {
			break
		}
		if i == 3 {
			return rawPacket{}, errors.New("malformed remaining length")
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rc.r, body); err != nil {
		return rawPacket{}, err
	}
	p := rawPacket{typ: h >> 4, flags: h & 0x0f, body: body}
	if p.typ != 3 {
		if len(body) >= 2 {
			p.id = binary.BigEndian.Uint16(body)
		}
		return p, nil
	}
	if len(body) < 2 {
		return p, errors.New("short PUBLISH")
	}
	tl := int(binary.BigEndian.Uint16(body))
	rest := body[2:]
	if len(rest) < tl {
		return p, errors.New("short PUBLISH topic")
	}
	p.topic, rest = string(rest[:tl]), rest[tl:]
	if (p.flags>>1)&3 > 0 {
		if len(rest) < 2 {
			return p, errors.New("short PUBLISH packet id")
		}
		p.id, rest = binary.BigEndian.Uint16(rest), rest[2:]
	}
	if rc.version == 5 {
		pl, k := 0, 0
		for mult := 1; k < len(rest); k++ {
			pl += int(rest[k]&0x7f) * mult
			mult *= 128
			if rest[k]&0x80 == 0 {
				break
			}
		}
		k++
		if k+pl > len(rest) {
			return p, errors.New("short PUBLISH properties")
		}
		p.props, rest = rest[k:k+pl], rest[k+pl:]
	}
	p.payload = rest
	return p, nil
}
