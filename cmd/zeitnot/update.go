package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/internal/subcmd"
)

func init() {
	register(command{
		Name:    "update",
		Summary: "install a signed update bundle into the other slot and try it (zeitnot update -h)",
		Run:     runUpdate,
	})
}

const updateUsage = `Usage:
  zeitnot update [--allow-downgrade] [--no-reboot] BUNDLE
      Install a RAUC update bundle (NAME.raucb, make bundle) into the slot
      not booted (rauc install) and reboot into it once as a trial
      (systemctl reboot --reboot-argument="0 tryboot"). The trial is committed only when the
      clock's daemon is ready (zeitnot-update-good.service); otherwise the
      next boot is the old slot. RAUC refuses, before it writes anything,
      a bundle whose signature the image's keyring does not verify
      (another key, or damaged or truncated) and one for another system
      (its compatible, which names the architecture); its pre-install
      handler (zeitnot update --pre-install) refuses one built before the
      running system (the manifest's build against os-release's BUILD_ID)
      unless --allow-downgrade. A refusal is one line, "update: refused:
      REASON". Exit 0 when installed, 1 when refused or failed, 2 for bad
      arguments.
  zeitnot update --pre-install
      RAUC's pre-install handler: reads the mounted bundle's manifest
      ($RAUC_BUNDLE_MOUNT_POINT/manifest.raucm) and exits 1 for a downgrade
      not allowed.

Flags:
`

// updatePaths are the files zeitnot update reads and writes; tests point
// them elsewhere.
type updatePaths struct {
	osRelease string
	// allow holds the arbiter's permission to downgrade for one
	// installation; refused holds the pre-install handler's reason. RAUC
	// runs the handler in its own service, so these are how the two
	// processes talk.
	allow, refused string
}

var updateFiles = updatePaths{
	osRelease: "/etc/os-release",
	allow:     "/run/zeitnot-update/allow-downgrade",
	refused:   "/run/zeitnot-update/refused",
}

func runUpdate(args []string, stdout, stderr io.Writer) int {
	flags := subcmd.FlagSet("update", stderr)
	downgrade := flags.Bool("allow-downgrade", false, "install a bundle older than the running system (the arbiter's explicit choice)")
	noReboot := flags.Bool("no-reboot", false, "install, but do not reboot into the new slot")
	preInstall := flags.Bool("pre-install", false, "run as RAUC's pre-install handler")
	if code, ok := subcmd.Parse(flags, updateUsage, args); !ok {
		return code
	}
	if *preInstall {
		return updatePreInstall(os.Getenv("RAUC_BUNDLE_MOUNT_POINT"), stdout)
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
	os.MkdirAll(filepath.Dir(updateFiles.refused), 0o755)
	os.Remove(updateFiles.refused)
	os.Remove(updateFiles.allow)
	if *downgrade {
		if err := os.WriteFile(updateFiles.allow, []byte("yes\n"), 0o600); err != nil {
			return refuse("%v", err)
		}
		defer os.Remove(updateFiles.allow)
	}
	fmt.Fprintf(stdout, "update: installing %s\n", bundle)
	out, err := runProgress(exec.Command("rauc", "install", bundle), stdout)
	if err != nil {
		if why, rerr := os.ReadFile(updateFiles.refused); rerr == nil {
			return refuse("%s: %s", bundle, strings.TrimSpace(string(why)))
		}
		return refuse("%s: %s", bundle, raucReason(raucError(string(out), err)))
	}
	if *noReboot {
		fmt.Fprintf(stdout, "update: %s installed; reboot with: systemctl reboot --reboot-argument=\"0 tryboot\"\n", bundle)
		return 0
	}
	fmt.Fprintf(stdout, "update: %s installed, restarting\n", bundle)
	if out, err := exec.Command("systemctl", "reboot", "--reboot-argument=0 tryboot").CombinedOutput(); err != nil {
		fmt.Fprintf(stdout, "update: installed, but the trial reboot failed: %s\n", lastLine(string(out), err))
		return 1
	}
	return 0
}

// raucError picks RAUC's error from rauc install's output: its LastError
// line (the progress lines and the closing "Installing ... failed" say
// nothing of why), else the first line raucReason knows, else the last.
func raucError(out string, err error) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "LastError:"); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); raucReason(line) != line {
			return line
		}
	}
	return lastLine(out, err)
}

// raucReason says in a clock's words why rauc install refused, from its
// last line.
func raucReason(line string) string {
	switch {
	case strings.Contains(line, "ompatible"):
		return "for another system: " + line
	case strings.Contains(line, "ignature") && (strings.Contains(line, "erif") || strings.Contains(line, "issuer") || strings.Contains(line, "certificate")):
		return "its signature is not from this clock's key: " + line
	case strings.Contains(line, "size") || strings.Contains(line, "truncat") || strings.Contains(line, "squashfs"):
		return "damaged or truncated: " + line
	}
	return line
}

// updatePreInstall is RAUC's pre-install handler: it refuses a bundle
// built before the running system unless the downgrade was allowed.
func updatePreInstall(mount string, stdout io.Writer) int {
	refuse := func(format string, a ...any) int {
		why := fmt.Sprintf(format, a...)
		fmt.Fprintln(stdout, "update: refused:", why)
		os.MkdirAll(filepath.Dir(updateFiles.refused), 0o755)
		os.WriteFile(updateFiles.refused, []byte(why+"\n"), 0o644)
		return 1
	}
	if mount == "" {
		return refuse("no RAUC_BUNDLE_MOUNT_POINT: run by RAUC only")
	}
	manifest := filepath.Join(mount, "manifest.raucm")
	buildText, err := keyValue(manifest, "build")
	if err != nil {
		return refuse("%v", err)
	}
	version, _ := keyValue(manifest, "version")
	newBuild, err := strconv.ParseInt(buildText, 10, 64)
	if err != nil {
		return refuse("%s: build=%s is not a time", manifest, buildText)
	}
	runText, err := keyValue(updateFiles.osRelease, "BUILD_ID")
	if err != nil {
		return refuse("the running system has no build time: %v", err)
	}
	running, err := strconv.ParseInt(runText, 10, 64)
	if err != nil {
		return refuse("%s: BUILD_ID=%s is not a time", updateFiles.osRelease, runText)
	}
	if _, err := os.Stat(updateFiles.allow); newBuild < running && err != nil {
		return refuse("version %s is older than the running system (built %d, this one %d); --allow-downgrade installs it", version, newBuild, running)
	}
	return 0
}

// keyValue reads KEY=VALUE from a file (a RAUC manifest, os-release).
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
