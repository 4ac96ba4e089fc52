package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/zeitnot/zeitnot/hall"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/demo"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{Name: "hall", Summary: "the tournament hall: an MQTT broker for the clocks, their live pages and the arbiter's commands", Run: runHall})
}

func runHall(args []string, stdout, stderr io.Writer) int {
	return hallMain(context.Background(), args, os.Stdin, stdout, stderr)
}

func hallMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := subcmd.FlagSet("hall", stderr)
	def := hall.DefaultConfig()
	conf := fs.String("config", "", "hall.toml: the settings below and the arbiters' and clocks' accounts")
	httpAddr := fs.String("http", def.HTTP, "the pages' address")
	mqttAddr := fs.String("mqtt", def.MQTT, "the embedded broker's plain MQTT address, or off (off loopback it needs the clocks' users, and their passwords cross the network in clear: use --mqtts)")
	mqttsAddr := fs.String("mqtts", def.MQTTS, "the embedded broker's TLS address, or off: 0.0.0.0:8883 for the clocks of the hall's network (it needs the clocks' users); the certificate is the hall's own CA's, whose fingerprint the clocks pin")
	brokerURL := fs.String("broker", "", "use this broker instead of the embedded one: mqtt://host:port or mqtts://host:port")
	username := fs.String("username", "", "the hall's user on --broker")
	pwFile := fs.String("password-file", "", "the file holding the hall's password on --broker")
	caFile := fs.String("ca-file", "", "the CA of --broker's certificate (mqtts://); default: the system's")
	withoutACL := fs.Bool("broker-without-acl", false, "start even though --broker lets the hall's user publish a clock's topic (no ACL: any account on it may command the clocks)")
	printACL := fs.Bool("mosquitto-acl", false, "print zeitnot's ACL for Mosquitto (acl_file) and exit")
	data := fs.String("data", def.Data, "the data directory: what the hall received, kept over restarts")
	hallName := fs.String("hall", def.Hall, "the hall's topic namespace, as the clocks' [hall] hall")
	demoN := fs.Int("demo", 0, "also start this many simulated clocks (daemon and link each) playing random games")
	demoWait := fs.Bool("demo-wait", false, "with --demo: the players wait for the round, a rehearsal: only the arbiter's scheduled start starts a game")
	clockExe := fs.String("clock", "", "with --demo: the clock's program, zeitnot, that runs each clock's daemon and link (default: zeitnot beside this program, else on $PATH)")
	hashPw := fs.Bool("hash-password", false, "read a password on standard input and print its bcrypt hash for [arbiters] in hall.toml")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: zeitnot-hall [hall] [flags]\n\nServes the hall's pages and takes in what the clocks publish (docs/hall-protocol.md).\nWith no flags: pages on 127.0.0.1:8080, an embedded broker on 127.0.0.1:8883 (TLS, the\nhall's own CA) and 127.0.0.1:1883 (plain), data in $XDG_STATE_HOME/zeitnot/hall.\nFlags override hall.toml.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zeitnot-hall: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *printACL {
		fmt.Fprint(stdout, hall.MosquittoACL)
		return 0
	}
	if *hashPw {
		line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(stderr, "zeitnot-hall: %v\n", err)
			return 1
		}
		h, err := auth.Hash(strings.TrimRight(line, "\r\n"))
		if err != nil {
			fmt.Fprintf(stderr, "zeitnot-hall: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, h)
		return 0
	}
	cfg := def
	if *conf != "" {
		var err error
		cfg, err = hall.LoadConfig(*conf, cfg)
		if err != nil {
			for _, e := range strings.Split(err.Error(), "\n") {
				fmt.Fprintf(stderr, "zeitnot-hall: %s\n", e)
			}
			return exitConfig
		}
	}
	var flagErr error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "http":
			cfg.HTTP = *httpAddr
		case "mqtt":
			cfg.MQTT = *mqttAddr
		case "mqtts":
			cfg.MQTTS = *mqttsAddr
		case "broker":
			cfg.Broker = *brokerURL
		case "username":
			cfg.Username = *username
		case "password-file":
			pw, err := hall.ReadPassword(*pwFile)
			if err != nil {
				flagErr = fmt.Errorf("--password-file %s: %v", *pwFile, err)
			}
			cfg.Password = pw
		case "ca-file":
			cfg.CAFile = *caFile
		case "broker-without-acl":
			cfg.BrokerWithoutACL = *withoutACL
		case "data":
			cfg.Data = *data
		case "hall":
			cfg.Hall = *hallName
		}
	})
	if flagErr == nil {
		flagErr = cfg.Check()
	}
	if flagErr != nil {
		for _, e := range strings.Split(flagErr.Error(), "\n") {
			fmt.Fprintf(stderr, "zeitnot-hall: %s\n", e)
		}
		return exitConfig
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	var mu sync.Mutex
	logf := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "zeitnot-hall: "+format+"\n", a...)
	}
	h, err := hall.Start(cfg, hall.Opts{Logf: logf})
	if err != nil {
		logf("%v", err)
		return 1
	}
	var demoDone chan struct{}
	if *demoN > 0 {
		exe, err := clockProgram(*clockExe)
		if err != nil {
			logf("demo: %v", err)
			h.Close()
			return 1
		}
		// The demo's clocks connect as real ones do: with TLS, pinning
		// the hall's fingerprint, when the embedded broker has TLS.
		broker, fingerprint := cfg.Broker, ""
		if f, ok := h.Fingerprint(); ok && broker == "" {
			broker, fingerprint = (&url.URL{Scheme: "mqtts", Host: h.MQTTSAddr()}).String(), f.String()
		} else if broker == "" {
			broker = (&url.URL{Scheme: "mqtt", Host: h.MQTTAddr()}).String()
		}
		if len(cfg.Arbiters) == 0 {
			if pw, err := hall.ReadPassword(filepath.Join(cfg.Data, hall.ArbiterPasswordFile)); err == nil {
				logf("demo: open http://%s/ ; the arbiter logs in as arbiter, password %s", h.HTTPAddr(), pw)
			}
		}
		demoDone = make(chan struct{})
		go func() {
			defer close(demoDone)
			err := demo.Run(ctx, demo.Opts{Exe: exe, Dir: filepath.Join(cfg.Data, "demo"), Broker: broker, Fingerprint: fingerprint, Hall: cfg.Hall, Boards: *demoN, Wait: *demoWait, Logf: logf})
			if err != nil {
				logf("demo: %v", err)
			}
		}()
	}
	<-ctx.Done()
	if demoDone != nil {
		<-demoDone
	}
	if err := h.Close(); err != nil {
		logf("%v", err)
		return 1
	}
	return 0
}

// clockProgram is the clock's program that --demo runs: exe if set, else
// zeitnot in this program's directory (make build puts both in bin/), else
// zeitnot on $PATH.
func clockProgram(exe string) (string, error) {
	if exe != "" {
		return exe, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "zeitnot")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	p, err := exec.LookPath("zeitnot")
	if err != nil {
		return "", fmt.Errorf("the clock's program zeitnot is neither beside this program nor on $PATH (make build makes bin/zeitnot; or give --clock)")
	}
	return p, nil
}
