package usb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config"
)

// status is the text of status.txt: the clock, what this export did, the
// config and its problems, the storage's health, the daemon's state, the
// effective settings.
func (x *exporter) status(games int) []byte {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	now := x.o.Clock.Now()
	p("zeitnot clock %s", x.o.Hostname)
	p("version:  %s", orNone(x.o.Version))
	p("written:  %s (the clock's own calendar: right only with a real-time clock or the network)", now.Format("2006-01-02 15:04:05 MST"))
	p("folder:   %s", x.r.Folder)
	b.WriteString("\n")

	p("Games")
	p("  finished games on the clock: %d (the clock keeps the last 100)", games)
	p("  saved now: %d; on this stick already: %d", x.r.Saved, x.r.Already)
	if x.r.Current {
		p("  the game in the journal (under way, or the last until the next starts): %s.log and .pgn", Current)
	} else {
		p("  no game in the journal")
	}
	for _, pr := range x.r.Problems {
		p("  problem: %s", pr)
	}
	b.WriteString("\n")

	p("Config")
	p("  this stick's zeitnot.toml: %s", x.r.Config)
	for _, e := range x.r.ConfigErrors {
		p("    %s", e)
	}
	defaults := config.Defaults(x.o.DefaultProfile)
	layers, errs := config.LoadLayers(x.o.ConfigPath, x.o.StateDir, defaults)
	p("  club config in use: %s", layers.ClubFile)
	if len(errs) == 0 {
		p("  problems in the config files: none")
	} else {
		p("  problems in the config files (each bad key is replaced by its default):")
		for _, e := range errs {
			p("    %v", e)
		}
	}
	if lines, err := config.ImportErrors(x.o.StateDir); err != nil {
		p("  last import from the boot partition: cannot tell: %v", err)
	} else if len(lines) > 0 {
		p("  last import from the boot partition was refused:")
		for _, l := range lines {
			p("    %s", l)
		}
	}
	b.WriteString("\n")

	p("Storage (%s)", x.o.StateDir)
	st := storageOf(x.o.StateDir)
	if st.err != nil {
		p("  cannot tell: %v", st.err)
	} else {
		p("  free: %s of %s", bytesText(st.free), bytesText(st.size))
	}
	p("  damaged journals kept (game.log.damaged.N): %d", st.damaged)
	p("  unreadable journals kept (game.log.kept.N): %d", st.kept)
	b.WriteString("\n")

	p("Daemon")
	if x.o.Daemon == nil {
		p("  not asked")
	} else if s, err := x.o.Daemon.Status(); err != nil {
		p("  no answer: %v", err)
	} else {
		var out bytes.Buffer
		if json.Indent(&out, []byte(s), "  ", "  ") == nil {
			p("  %s", out.String())
		} else {
			p("  %s", s)
		}
	}
	b.WriteString("\n")

	p("Effective settings (zeitnot config show)")
	b.Write(config.Format(layers.Effective))
	return []byte(strings.ReplaceAll(b.String(), "\r", ""))
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func bytesText(n uint64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
