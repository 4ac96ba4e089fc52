package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"time"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// The sessions are kept in Opts.File so that a restart of the hall (an
// update, a laptop put to sleep and woken) does not log the arbiter out
// mid-round. The file holds no token: a session is found by the SHA-256
// of its token, so the file alone logs nobody in. It holds each session's
// user, its CSRF token and when it was last used; a session expired, or
// of a user the hall no longer has, is dropped when the file is read and
// whenever it is written. It is written whole (atomicfile), mode 0600, on
// each login and logout and as a session's use moves on by saveEvery.

// SessionsFile is the name of the sessions' file in the hall's data
// directory.
const SessionsFile = "sessions.json"

// saveEvery is how far a session's last use moves on before the file is
// written again: its expiry is that much short at worst after a restart.
const saveEvery = time.Minute

// maxSessionsFile is the largest sessions' file read.
const maxSessionsFile = 4 << 20

// savedSession is one session in the file.
type savedSession struct {
	// Key is the hex SHA-256 of the session's token (tokenKey).
	Key  string    `json:"token_sha256"`
	User string    `json:"user"`
	CSRF string    `json:"csrf"`
	Seen time.Time `json:"seen"`
}

type sessionsFile struct {
	Sessions []savedSession `json:"sessions"`
}

// tokenKey is the key a session is kept under: its token's SHA-256, in
// hex. A token is 32 random bytes: no salt or slow hash is needed.
func tokenKey(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// load reads Opts.File into the sessions. What it cannot read is logged,
// naming the file and the session, and left out: the arbiter logs in
// again.
func (a *Auth) load() {
	if a.o.File == "" {
		return
	}
	data, err := regfile.ReadFile(a.o.File, regfile.Opts{Max: maxSessionsFile, NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		a.o.Logf("auth: sessions: %v: the arbiters log in again", err)
		return
	}
	var f sessionsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		a.o.Logf("auth: sessions: %s: %v: the arbiters log in again", a.o.File, err)
		return
	}
	now := a.o.Clock.Now()
	dropped := 0
	for i, s := range f.Sessions {
		if k, err := hex.DecodeString(s.Key); err != nil || len(k) != sha256.Size || s.CSRF == "" {
			a.o.Logf("auth: sessions: %s: session %d: token_sha256 or csrf is not one the hall writes: left out", a.o.File, i+1)
			dropped++
			continue
		}
		if _, ok := a.o.Users[s.User]; !ok || now.Sub(s.Seen) > a.o.SessionTTL {
			dropped++ // expired, or of a user no longer an arbiter
			continue
		}
		a.sessions[s.Key] = &Session{User: s.User, CSRF: s.CSRF, seen: s.Seen, saved: s.Seen}
	}
	if dropped > 0 {
		a.save()
	}
}

// save writes the sessions not expired to Opts.File; a.mu held. A
// failure is logged: the sessions hold in memory.
func (a *Auth) save() {
	if a.o.File == "" {
		return
	}
	now := a.o.Clock.Now()
	f := sessionsFile{Sessions: []savedSession{}}
	for k, s := range a.sessions {
		if now.Sub(s.seen) > a.o.SessionTTL {
			delete(a.sessions, k)
			continue
		}
		s.saved = s.seen
		f.Sessions = append(f.Sessions, savedSession{Key: k, User: s.User, CSRF: s.CSRF, Seen: s.seen})
	}
	slices.SortFunc(f.Sessions, func(x, y savedSession) int { return x.Seen.Compare(y.Seen) })
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		a.o.Logf("auth: sessions: %s: %v", a.o.File, err)
		return
	}
	if err := atomicfile.WriteFile(a.o.File, append(data, '\n'), 0o600); err != nil {
		a.o.Logf("auth: sessions: %v", err) // the error names the file
	}
}
