package link

import (
	"errors"
	"strings"
	"testing"

	"github.com/eclipse/paho.golang/paho"
)

// TestPublishRefusedByTheHall: the hall's broker acknowledges a message its
// intake refused with reason 0x99, and paho's error for it says the payload
// format does not match its indicator. The link says what the hall means.
func TestPublishRefusedByTheHall(t *testing.T) {
	pahoErr := errors.New("error publishing: The payload format does not match the specified Payload Format Indicator.")
	err := publishErr("zeitnot/club/board/12/log", &paho.PublishResponse{ReasonCode: 0x99}, pahoErr)
	if err == nil {
		t.Fatal("a refusal is no error")
	}
	msg := err.Error()
	for _, want := range []string{"the broker refused a message on zeitnot/club/board/12/log", "the hall refused the message", "the hall's log says why", "0x99"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q has no %q", msg, want)
		}
	}
	if strings.Contains(msg, "does not match") {
		t.Errorf("%q says the payload format does not match", msg)
	}
	if err := publishErr("t", &paho.PublishResponse{ReasonCode: 0x87}, errors.New("paho")); err == nil || !strings.Contains(err.Error(), "not authorized (MQTT reason 0x87)") {
		t.Errorf("0x87: %v", err)
	}
	if err := publishErr("t", &paho.PublishResponse{}, nil); err != nil {
		t.Errorf("accepted: %v", err)
	}
	if err := publishErr("t", nil, pahoErr); err != pahoErr {
		t.Errorf("no acknowledgement: %v, want paho's error", err)
	}
}
