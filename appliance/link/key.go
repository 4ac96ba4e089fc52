package link

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// KeyFile is the file in the link's state directory that holds the
// board's signing key: the Ed25519 private key's seed, one line
// "ed25519-seed:" and 32 bytes in base64. The link makes it at its first
// start; it is the board's identity to the hall, so a file the link cannot
// read is an error, never replaced by a new key in silence.
const KeyFile = "board.key"

const seedPrefix = "ed25519-seed:"

// loadKey reads the board's key from dir, making it if the file does not
// exist (made says so).
func loadKey(dir string) (key ed25519.PrivateKey, made bool, err error) {
	path := filepath.Join(dir, KeyFile)
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 4096, NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, false, fmt.Errorf("%s: making the board's key: %v", path, err)
		}
		text := seedPrefix + base64.StdEncoding.EncodeToString(key.Seed()) + "\n"
		if err := atomicfile.WriteFile(path, []byte(text), 0o600); err != nil {
			return nil, false, fmt.Errorf("%s: keeping the board's new key: %v", path, err)
		}
		return key, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, regfile.WithoutPath(err))
	}
	s := strings.TrimSuffix(string(b), "\n")
	b64, ok := strings.CutPrefix(s, seedPrefix)
	seed, derr := base64.StdEncoding.DecodeString(b64)
	if !ok || derr != nil || len(seed) != ed25519.SeedSize {
		return nil, false, fmt.Errorf("%s: not the board's key (want one line %q and %d bytes in base64); "+
			"restore it from a backup, or remove it to make a new key, which the hall's arbiter must then confirm", path, seedPrefix, ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(seed), false, nil
}

// PublicKey returns the board's public key, nil when the link has no state
// directory (it then signs nothing).
func (l *Link) PublicKey() ed25519.PublicKey {
	if l.key == nil {
		return nil
	}
	return l.key.Public().(ed25519.PublicKey)
}

// sign returns the sig of line seq of game, "" without a key.
func (l *Link) sign(game string, seq int64, line string) string {
	if l.key == nil {
		return ""
	}
	return protocol.SignLine(l.key, l.cfg.Hall, l.cfg.Board, game, seq, line)
}

// withKey adds the board's public key to an online message that says
// online, so that the hall can learn it (docs/hall-protocol.md, online).
func (l *Link) withKey(payload []byte) []byte {
	if l.key == nil {
		return payload
	}
	var m protocol.OnlineMsg
	if protocol.Strict(payload, &m) != nil || !m.Online || m.Key != "" {
		return payload
	}
	m.Key = protocol.FormatKey(l.PublicKey())
	b, err := json.Marshal(m)
	if err != nil {
		return payload
	}
	return b
}
