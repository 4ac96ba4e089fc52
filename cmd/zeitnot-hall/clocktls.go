package main

import (
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	"github.com/zeitnot/zeitnot/hall"
	"github.com/zeitnot/zeitnot/hall/broker"
	"github.com/zeitnot/zeitnot/hall/tlsca"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{Name: "clock-config", Summary: "clock-config --board N --broker mqtts://HOST:8883: a clock's [hall] table (its zeitnot.toml for a USB stick) pinning the hall's fingerprint, with a new password", Run: runClockConfig})
	register(command{Name: "tls", Summary: "tls [HOST...]: the hall's CA and a broker certificate for Mosquitto, and the fingerprint the clocks pin", Run: runTLS})
}

// hallFlags are the flags that find the hall's data directory and name:
// --config, --data, --hall, as the hall command takes them.
func hallFlags(fs *flag.FlagSet) func() (hall.Config, error) {
	def := hall.DefaultConfig()
	conf := fs.String("config", "", "the hall's hall.toml (its data directory, hall name and cert_file)")
	data := fs.String("data", def.Data, "the hall's data directory, where its CA is (tls/)")
	name := fs.String("hall", def.Hall, "the hall's topic namespace")
	return func() (hall.Config, error) {
		cfg := def
		if *conf != "" {
			var err error
			if cfg, err = hall.LoadConfig(*conf, cfg); err != nil {
				return cfg, err
			}
		}
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "data":
				cfg.Data = *data
			case "hall":
				cfg.Hall = *name
			}
		})
		if err := hall.CheckHall(cfg.Hall); err != nil {
			return cfg, fmt.Errorf("--hall: %v", err)
		}
		return cfg, nil
	}
}

const clockConfigUsage = `Usage: zeitnot-hall clock-config --board N --broker mqtts://HOST:8883 [flags]

Writes a clock's zeitnot.toml with the [hall] table that links it to this
hall over TLS: the broker, the hall, the board, a user boardN with a new
random password, and the fingerprint of the hall's CA (made now if the hall
has none yet), which the clock pins. Put it on the clock's USB stick as
zeitnot.toml. The hall.toml line of the clock's user (its password's hash,
for [clocks]) goes to standard error.
`

func runClockConfig(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("clock-config", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, clockConfigUsage); fs.PrintDefaults() }
	load := hallFlags(fs)
	board := fs.Int("board", 0, "the clock's board number")
	brokerURL := fs.String("broker", "", "the hall's TLS address as the clocks reach it: mqtts://192.168.1.10:8883")
	user := fs.String("username", "", "the clock's user (default boardN)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *board == 0 || *brokerURL == "" {
		fs.Usage()
		return 2
	}
	cfg, err := load()
	if err != nil {
		return configFailed(stderr, "clock-config", err)
	}
	if *user == "" {
		*user = fmt.Sprintf("board%d", *board)
	}
	f, err := hall.ClockFingerprint(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-hall clock-config: %v\n", err)
		return 1
	}
	r := make([]byte, 18)
	rand.Read(r)
	pw := base64.RawURLEncoding.EncodeToString(r)
	toml := fmt.Sprintf("# Board %d of the hall %q: put this file on the clock's USB stick as zeitnot.toml.\n[hall]\nbroker = %q\nhall = %q\nboard = %d\nusername = %q\npassword = %q\nfingerprint = %q\n",
		*board, cfg.Hall, *brokerURL, cfg.Hall, *board, *user, pw, f.String())
	// The clock would refuse what it cannot use: so does this command,
	// with the clock's messages.
	if errs := halltable.Check("zeitnot.toml", []byte(toml), halltable.CheckOpts{}); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(stderr, "zeitnot-hall clock-config: %v\n", e)
		}
		return exitConfig
	}
	fmt.Fprint(stdout, toml)
	fmt.Fprintf(stderr, "zeitnot-hall clock-config: add to hall.toml's [clocks]:\n%s = { board = %d, password_hash = %q }\n", *user, *board, broker.HashSHA256(pw))
	return 0
}

const tlsUsage = `Usage: zeitnot-hall tls [flags] [HOST...]

Makes the hall's CA if it has none (in DATA/tls/), and a broker certificate
signed by it for this laptop's names and addresses and each HOST, as
DATA/tls/server.crt (the certificate, then the CA's) and server.key: what a
Mosquitto broker takes as certfile and keyfile, so that the clocks pin the
same fingerprint as with the embedded broker. Prints the fingerprint. The
embedded broker makes its own certificate at every start.
`

func runTLS(args []string, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("tls", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, tlsUsage); fs.PrintDefaults() }
	load := hallFlags(fs)
	hosts, err := subcmd.ParseInterspersed(fs, args)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		return 2
	}
	cfg, err := load()
	if err != nil {
		return configFailed(stderr, "tls", err)
	}
	ca, err := hall.CA(cfg)
	if err == nil {
		_, err = ca.Server(append(tlsca.Hosts(), hosts...), time.Now())
	}
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot-hall tls: %v\n", err)
		return 1
	}
	dir := filepath.Join(cfg.Data, hall.TLSDir)
	fmt.Fprintf(stdout, "fingerprint = %q\n\n# Mosquitto (mosquitto.conf):\nlistener 8883\ncertfile %s\nkeyfile %s\n",
		ca.Fingerprint().String(), filepath.Join(dir, tlsca.ServerFile), filepath.Join(dir, tlsca.ServerKey))
	return 0
}

func configFailed(stderr io.Writer, cmd string, err error) int {
	for _, e := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(stderr, "zeitnot-hall %s: %s\n", cmd, e)
	}
	return exitConfig
}
