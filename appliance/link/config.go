package link

import (
	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	"github.com/zeitnot/zeitnot/protocol"
)

// The [hall] table of zeitnot.toml is read by package halltable, which
// `zeitnot config check` and the imports use too, so that they refuse what
// the link refuses, with the same messages.

// Config is the [hall] table of zeitnot.toml: where the clock publishes.
type Config = halltable.Config

// ConfigError is one problem in the [hall] table: FILE:LINE: hall.KEY: what is wrong.
type ConfigError = halltable.ConfigError

// MaxBoard is the highest board number.
const MaxBoard = protocol.MaxBoard

// ErrNoHall is returned by LoadConfig and ParseConfig for a config file
// without a [hall] table: the clock is not linked to a hall.
var ErrNoHall = halltable.ErrNoHall

// LoadConfig reads the [hall] table of the config file at path: see
// halltable.LoadConfig.
func LoadConfig(path string) (Config, error) { return halltable.LoadConfig(path) }

// ParseConfig reads the [hall] table from a config file's contents: see
// halltable.ParseConfig.
func ParseConfig(name string, data []byte) (Config, error) { return halltable.ParseConfig(name, data) }
