package web

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

// KeyView is a board's signing key as the arbiter's card shows it
// (docs/hall-protocol.md, the signature).
type KeyView struct {
	// Fingerprint is the key the hall knows the board by
	// (protocol.Fingerprint).
	Fingerprint string `json:"fingerprint"`
	// From is how the hall knows it: learned (not confirmed: the
	// board's lines are not checked yet), confirmed or config.
	From string `json:"from"`
	// Other is the fingerprint of another key the board offered: a key
	// change, not used unless the arbiter confirms it.
	Other string `json:"other,omitempty"`
}

// keyView is b's key for its card; nil while the hall knows none (the
// board's lines are not verified).
func keyView(b store.Board) *KeyView {
	if b.Key == "" {
		return nil
	}
	return &KeyView{Fingerprint: fingerprint(b.Key), From: b.KeyFrom, Other: fingerprint(b.OtherKey)}
}

// fingerprint is a kept key's fingerprint, "" for none.
func fingerprint(key string) string {
	if key == "" {
		return ""
	}
	k, err := protocol.ParseKey(key)
	if err != nil {
		return "(unreadable key)"
	}
	return protocol.KeyFingerprint(k)
}

// keyToConfirm is a key a board offered that the arbiter has to look at:
// its first key, learned, or another one after the key the hall knows.
type keyToConfirm struct {
	Board       int
	Key         string // protocol.FormatKey form, for the form
	Fingerprint string
	// Known is the fingerprint of the key the hall checks the board's
	// lines with, when Key is a change; From how it knows it.
	Known, From string
}

// keysToConfirm lists the boards' keys for the arbiter to confirm.
func (s *Server) keysToConfirm() []keyToConfirm {
	var out []keyToConfirm
	for _, b := range s.o.Store.Boards() {
		switch {
		case b.OtherKey != "":
			out = append(out, keyToConfirm{Board: b.Board, Key: b.OtherKey, Fingerprint: fingerprint(b.OtherKey), Known: fingerprint(b.Key), From: b.KeyFrom})
		case b.Key != "" && b.KeyFrom == store.KeyLearned:
			out = append(out, keyToConfirm{Board: b.Board, Key: b.Key, Fingerprint: fingerprint(b.Key)})
		}
	}
	return out
}

// keyAction confirms or dismisses the key a board offered (the arbiter's
// forms "confirm board N's key" and "dismiss").
func (s *Server) keyAction(action, board, key string) (string, error) {
	n, err := strconv.Atoi(board)
	if err != nil || protocol.CheckBoard(n) != nil {
		return "", errors.New("key: want a board number")
	}
	fp := fingerprint(key)
	if action == "dismiss-key" {
		if err := s.o.Store.DismissKey(n, key); err != nil {
			return "", err
		}
		return fmt.Sprintf("board %d: key %s dismissed; the hall goes on with the key it knows", n, fp), nil
	}
	if err := s.o.Store.ConfirmKey(n, key); err != nil {
		return "", err
	}
	return fmt.Sprintf("board %d: key %s confirmed; the hall takes only the board's lines signed with it", n, fp), nil
}
