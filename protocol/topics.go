package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is the protocol's version, the second level of every topic.
const Version = "v1"

// Topics are the MQTT topics of one board, as docs/hall-protocol.md
// describes them.
type Topics struct {
	State  string // retained: the clock's state
	Log    string // QoS 1: the journal's lines, numbered
	Online string // retained, with the will: is the link there
	Cmd    string // subscribed: commands to this board
	All    string // subscribed: commands to every board of the hall
	Reply  string // answers to commands
}

// TopicsFor returns the topics of board in hall.
func TopicsFor(hall string, board int) Topics {
	b := BoardTopic(hall, board)
	return Topics{
		State:  b + "/state",
		Log:    b + "/log",
		Online: b + "/online",
		Cmd:    b + "/cmd",
		All:    HallTopic(hall) + "/all/cmd",
		Reply:  b + "/reply",
	}
}

// HallTopic is the prefix of every topic of hall: zeitnot/v1/{hall}.
func HallTopic(hall string) string { return "zeitnot/" + Version + "/" + hall }

// BoardsFilter is the topic filter of every board's topics in hall:
// zeitnot/v1/{hall}/board/+/+.
func BoardsFilter(hall string) string { return HallTopic(hall) + "/board/+/+" }

// BoardTopic is the prefix of board's topics: zeitnot/v1/{hall}/board/{board}.
func BoardTopic(hall string, board int) string {
	return HallTopic(hall) + "/board/" + strconv.Itoa(board)
}

// The last level of a board's topics (Topics).
const (
	KindState  = "state"
	KindLog    = "log"
	KindOnline = "online"
	KindCmd    = "cmd"
	KindReply  = "reply"
)

// Topic is a topic of the protocol, read by ParseTopic: board Board's
// topic Kind in hall Hall, or (Board 0, Kind cmd) the hall's all/cmd.
type Topic struct {
	Hall  string
	Board int
	Kind  string
}

// ParseTopic reads zeitnot/v1/{hall}/board/{board}/{kind} (kind one of
// state, log, online, cmd, reply; board 1 to MaxBoard, written without
// leading zeros) and zeitnot/v1/{hall}/all/cmd. Any other topic is not
// the protocol's: false.
func ParseTopic(topic string) (Topic, bool) {
	f := strings.Split(topic, "/")
	if len(f) < 5 || f[0] != "zeitnot" || f[1] != Version || f[2] == "" {
		return Topic{}, false
	}
	t := Topic{Hall: f[2]}
	switch {
	case len(f) == 5 && f[3] == "all" && f[4] == KindCmd:
		t.Kind = KindCmd
		return t, true
	case len(f) == 6 && f[3] == "board":
		n, ok := parseBoard(f[4])
		if !ok {
			return Topic{}, false
		}
		switch f[5] {
		case KindState, KindLog, KindOnline, KindCmd, KindReply:
			t.Board, t.Kind = n, f[5]
			return t, true
		}
	}
	return Topic{}, false
}

// FromClock reports whether the topic is one a board's clock publishes:
// its state, log, online and reply (the commands are the hall's).
func (t Topic) FromClock() bool {
	switch t.Kind {
	case KindState, KindLog, KindOnline, KindReply:
		return t.Board != 0
	}
	return false
}

// parseBoard reads a board number as topics and client ids write it: 1 to
// MaxBoard, no sign, no leading zero.
func parseBoard(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxBoard || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// ParseClientID reads the board of the link's client id of hall,
// zeitnot-{hall}-{board} (ClientID); false for another id.
func ParseClientID(hall, id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "zeitnot-"+hall+"-")
	if !ok {
		return 0, false
	}
	return parseBoard(rest)
}

// ClientID is the MQTT client id of the link of board in hall. Two clocks
// configured as the same board take the connection from each other.
func ClientID(hall string, board int) string { return fmt.Sprintf("zeitnot-%s-%d", hall, board) }
