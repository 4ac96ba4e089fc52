package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/protocol"
)

// The daemon's side of the protocol: the control-socket requests the link
// makes beyond status and watch, and their answers. docs/hall-protocol.md
// specifies them; linktest.Clock implements them.

// clockClient asks the daemon the link's requests over its control socket.
type clockClient struct{ control.Client }

// logInfo asks for the current game.
func (c clockClient) logInfo(ctx context.Context) (protocol.LogInfo, error) {
	a, err := c.Call(ctx, protocol.ReqLog)
	if err != nil {
		return protocol.LogInfo{}, err
	}
	var li protocol.LogInfo
	if err := readJSON(a, &li); err != nil {
		return protocol.LogInfo{}, fmt.Errorf("control %s: log: %w", c.Socket, err)
	}
	if err := protocol.CheckGame(li.Game); err != nil {
		return protocol.LogInfo{}, fmt.Errorf("control %s: log: %w", c.Socket, err)
	}
	return li, nil
}

// logLines asks for game's lines from number from on.
func (c clockClient) logLines(ctx context.Context, game string, from int64) (protocol.LogLines, error) {
	req := protocol.ReqLog + " " + game + " " + strconv.FormatInt(from, 10)
	a, err := c.Call(ctx, req)
	if err != nil {
		return protocol.LogLines{}, err
	}
	var ll protocol.LogLines
	if err := readJSON(a, &ll); err != nil {
		return protocol.LogLines{}, fmt.Errorf("control %s: %s: %w", c.Socket, req, err)
	}
	if err := ll.Check(game, from); err != nil {
		return protocol.LogLines{}, fmt.Errorf("control %s: %s: %w", c.Socket, req, err)
	}
	return ll, nil
}

func readJSON(s string, v any) error {
	// Fields a newer daemon adds are ignored.
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("cannot read the answer: %v", err)
	}
	if dec.More() {
		return errors.New("cannot read the answer: more after the JSON object")
	}
	return nil
}
