// Package ctxwait waits for a while or until a context ends, whichever
// comes first: the back-off between retries of the helpers that talk to
// a broker, a board or the control socket.
package ctxwait

import (
	"context"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// Sleep waits d and returns true, or returns false as soon as ctx ends. A
// d of zero or less returns at once, true unless ctx has ended.
func Sleep(ctx context.Context, d time.Duration) bool {
	return wallclock.Sleep(ctx, wallclock.Real, d)
}
