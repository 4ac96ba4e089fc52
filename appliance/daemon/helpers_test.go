package daemon

import (
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

func pressAt(name string, at time.Duration) button.Event {
	return button.Event{Button: name, Kind: button.Press, At: at}
}
