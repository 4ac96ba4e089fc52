package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

func init() {
	register(command{
		Name:    "update",
		Summary: "check an update bundle, install it into the other slot and try it (zeitnot update -h)",
		Run:     runUpdate,
	})
}

const updateUsage = `Usage:
  zeitnot update [--allow-downgrade] [--no-reboot] BUNDLE
      Check a RAUC update bundle (NAME.raucb, make bundle) and, if it is
      for this clock, install it into the slot not booted (rauc install)
      and reboot into it once as a trial (systemctl reboot "0 tryboot").
      The trial is committed only when the clock's daemon is ready
      (zeitnot-update-good.service); otherwise the next boot is the old slot.
      Refused, with one line "update: refused: REASON" and nothing written:
      a bundle whose signature the image's keyring does not verify (another
      key, or damaged or truncated), one for another system (RAUC's
      compatible, which names the architecture), and one older than the
      running system (its build time, os-release's BUILD_ID) unless
      --allow-downgrade. Exit 0 when installed, 1 when refused or failed,
      2 for bad arguments.

Flags:
`

// updatePaths are the files zeitnot update reads; tests point them elsewhere.
type updatePaths struct {
	systemConf, osRelease string
}

var updateFiles = updatePaths{systemConf: "/etc/rauc/system.conf", osRelease: "/etc/os-release"}

func runUpdate(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("update", flag.ContinueOnError)
	flags.SetOutput(stderr)
	downgrade := flags.Bool("allow-downgrade", false, "install a bundle older than the running system (the arbiter's explicit choice)")
	noReboot := flags.Bool("no-reboot", false, "install, but do not reboot into the new slot")
	flags.Usage = func() {
		fmt.Fprint(stderr, updateUsage)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if flags.NArg() != 1 {
		fmt.Fprintln(stderr, "zeitnot update: one bundle expected (zeitnot update -h)")
		return 2
	}
	bundle := flags.Arg(0)
	refuse := func(format string, a ...any) int {
		fmt.Fprintf(stdout, "update: refused: "+format+"\n", a...)
		return 1
	}
	info, err := bundleInfo(bundle)
	if err != nil {
		return refuse("%s: %v", bundle, err)
	}
	compatible, err := keyValue(updateFiles.systemConf, "compatible")
	if err != nil {
		return refuse("%v", err)
	}
	if info["RAUC_MF_COMPATIBLE"] != compatible {
		return refuse("%s is for %q, this clock is %q", bundle, info["RAUC_MF_COMPATIBLE"], compatible)
	}
	newBuild, err1 := strconv.ParseInt(info["RAUC_MF_BUILD"], 10, 64)
	runBuild, err2 := keyValue(updateFiles.osRelease, "BUILD_ID")
	running, err3 := strconv.ParseInt(runBuild, 10, 64)
	switch {
	case err1 != nil:
		return refuse("%s: its manifest has no build time (build=%q)", bundle, info["RAUC_MF_BUILD"])
	case err2 != nil || err3 != nil:
		return refuse("the running system has no build time in %s (BUILD_ID)", updateFiles.osRelease)
	case newBuild < running && !*downgrade:
		return refuse("%s is version %s, older than the running system (built %d, this one %d); --allow-downgrade installs it",
			bundle, info["RAUC_MF_VERSION"], newBuild, running)
	}
	fmt.Fprintf(stdout, "update: installing version %s\n", info["RAUC_MF_VERSION"])
	out, err := exec.Command("rauc", "install", bundle).CombinedOutput()
	if err != nil {
		return refuse("rauc install: %s", lastLine(string(out), err))
	}
	if *noReboot {
		fmt.Fprintf(stdout, "update: version %s installed; reboot with: systemctl reboot \"0 tryboot\"\n", info["RAUC_MF_VERSION"])
		return 0
	}
	fmt.Fprintf(stdout, "update: version %s installed, restarting\n", info["RAUC_MF_VERSION"])
	if out, err := exec.Command("systemctl", "reboot", "0 tryboot").CombinedOutput(); err != nil {
		fmt.Fprintf(stdout, "update: installed, but the trial reboot failed: %s\n", lastLine(string(out), err))
		return 1
	}
	return 0
}

// bundleInfo runs rauc info, which checks the signature against the
// system's keyring, and returns its RAUC_MF_* variables.
func bundleInfo(bundle string) (map[string]string, error) {
	out, err := exec.Command("rauc", "info", "--output-format=shell", bundle).CombinedOutput()
	if err != nil {
		text := string(out)
		switch {
		case strings.Contains(text, "ignature") && (strings.Contains(text, "erif") || strings.Contains(text, "issuer") || strings.Contains(text, "certificate")):
			return nil, fmt.Errorf("its signature is not from this clock's key: %s", lastLine(text, err))
		case strings.Contains(text, "size") || strings.Contains(text, "truncat") || strings.Contains(text, "squashfs"):
			return nil, fmt.Errorf("damaged or truncated: %s", lastLine(text, err))
		}
		return nil, fmt.Errorf("not a bundle this clock can read: %s", lastLine(text, err))
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.HasPrefix(k, "RAUC_MF_") {
			vars[k] = strings.Trim(v, "'\"")
		}
	}
	return vars, nil
}

// keyValue reads KEY=VALUE from a file (RAUC's system.conf, os-release).
func keyValue(path, key string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+"="); ok {
			return strings.Trim(strings.TrimSpace(v), "'\""), nil
		}
	}
	return "", fmt.Errorf("%s: no %s=", path, key)
}

func lastLine(text string, err error) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}
