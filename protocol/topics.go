package protocol

import (
	"fmt"
	"strconv"
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

// BoardTopic is the prefix of board's topics: zeitnot/v1/{hall}/board/{board}.
func BoardTopic(hall string, board int) string {
	return HallTopic(hall) + "/board/" + strconv.Itoa(board)
}

// ClientID is the MQTT client id of the link of board in hall. Two clocks
// configured as the same board take the connection from each other.
func ClientID(hall string, board int) string { return fmt.Sprintf("zeitnot-%s-%d", hall, board) }
