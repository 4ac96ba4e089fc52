package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/network"
	"github.com/zeitnot/zeitnot/internal/subcmd"
)

// defaultNetworkOut is where zeitnot network writes: systemd-networkd and
// systemd-timesyncd read /run/systemd/..., and /run is memory, so the
// derived Wi-Fi key never reaches the card.
const defaultNetworkOut = "/run"

func init() {
	register(command{
		Name:    "network",
		Summary: "write the network, Wi-Fi and NTP configuration from the [network] table of zeitnot.toml (zeitnot network -h)",
		Run:     runNetwork,
	})
}

const networkUsage = `Usage:
  zeitnot network [--config FILE] [--state-dir DIR] [--out DIR] [--check]
      Read the [network] table of the club config (DIR/zeitnot.toml when
      zeitnot.toml was imported from the boot partition, else FILE) and write
      the files systemd-networkd, wpa_supplicant and systemd-timesyncd read,
      under the output directory:
        systemd/network/50-zeitnot-ethernet.network   with Ethernet
        systemd/network/50-zeitnot-wifi.network       with Wi-Fi
        zeitnot-network/wpa_supplicant.conf           with Wi-Fi (mode 0600)
        systemd/timesyncd.conf.d/50-zeitnot.conf      with ntp
      and remove those of them the config does not ask for. Without a
      [network] table, or without the file, the clock stays off the network:
      none of them is left. One line on standard output says what was set up.
      Exit 0 when done, 78 (EX_CONFIG) for a bad [network] table (the
      problems on standard error, nothing written), 1 when a file cannot be
      written, 2 for bad arguments.
      --check prints what would be written, the Wi-Fi key as <hidden>, and
      writes nothing.

Flags:
`

func runNetwork(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("network", stderr)
	cfg := flags.String("config", config.DefaultConfigPath, "the club config file; its [network] table says what to set up")
	state := flags.String("state-dir", config.DefaultStateDir, "the clock's state directory, read for a zeitnot.toml imported from the boot partition (empty: none)")
	out := flags.String("out", defaultNetworkOut, "the directory to write under")
	check := flags.Bool("check", false, "print what would be written (secrets hidden) and write nothing")
	flags.Usage = func() {
		fmt.Fprint(stderr, networkUsage)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "zeitnot network: unexpected argument %q\n", flags.Arg(0))
		return 2
	}
	path := config.ClubPath(*cfg, *state)
	c, err := network.Load(path)
	if err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(stderr, e)
		}
		fmt.Fprintf(stderr, "zeitnot network: %s: bad [network] table: nothing written\n", path)
		return exitConfig
	}
	files, err := network.Files(c)
	if err != nil {
		fmt.Fprintf(stderr, "zeitnot network: %v\n", err)
		return 1
	}
	msg := "network: " + c.Summary()
	if !c.On {
		msg = fmt.Sprintf("network: no [network] table in %s: the clock stays off the network", path)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			msg = fmt.Sprintf("network: no %s: the clock stays off the network", path)
		}
	}
	if *check {
		fmt.Fprintln(stdout, msg)
		for _, f := range files {
			fmt.Fprintf(stdout, "\n==> %s (mode %04o) <==\n%s", filepath.Join(*out, f.Path), f.Mode, f.Shown)
		}
		var gone []string
		for _, p := range network.Paths {
			if !hasPath(files, p) {
				gone = append(gone, "  "+filepath.Join(*out, p))
			}
		}
		if len(gone) > 0 {
			fmt.Fprintf(stdout, "\nwould remove, if there:\n%s\n", strings.Join(gone, "\n"))
		}
		return 0
	}
	if err := network.Apply(*out, files); err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "zeitnot %s\n", e)
		}
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

func hasPath(files []network.File, p string) bool {
	for _, f := range files {
		if f.Path == p {
			return true
		}
	}
	return false
}
