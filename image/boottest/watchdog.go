package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The watchdog check: systemd kills and restarts a daemon whose event loop
// has stopped, and the restarted daemon recovers the game, paused.
//
// `zeitnot hang` stops the daemon's event loop only when the daemon runs with
// ZEITNOT_TEST_HOOKS=1, which the image never sets. The check sets it in
// the service manager's environment (systemctl set-environment: passed to
// every process systemd starts from then on, gone at the next boot) and
// takes it away again at the end.
//
// Not with a drop-in and a daemon-reload, as it was: a reload under
// emulation on a busy host held PID 1 past the 10 s the hardware watchdog
// gives it (RuntimeWatchdogSec, systemd/system.conf.d). The guest reset,
// and with -no-reboot QEMU exited and the shell's socket with it: "the
// stream ended", then "write unix .../shell.sock: broken pipe", as a boot
// test under load saw more than once.

const hooksSetting = "ZEITNOT_TEST_HOOKS=1"

// watchdogWait is how long systemd has, under emulation, to notice the hung
// loop (WatchdogSec=5s), kill it and start a daemon that answers again.
const watchdogWait = 60 * time.Second

// runFunc runs a command in the guest's root shell: its output and exit
// status (-1 when the shell did not answer in time).
type runFunc func(cmd string, timeout time.Duration) (string, int)

// statusFunc runs `zeitnot status` in the guest.
type statusFunc func() (clockState, string, error)

// parseNRestarts reads `systemctl show -p NRestarts [--value]`.
func parseNRestarts(out string) (int, error) {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "NRestarts=")
		if line == "" {
			continue
		}
		n, err := strconv.Atoi(line)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("NRestarts: not a count: %q", line)
		}
		return n, nil
	}
	return 0, fmt.Errorf("NRestarts: no value in %q", out)
}

// waitActiveScript waits, at most secs seconds, until zeitnot.service is
// active and its daemon answers `zeitnot status`. With after >= 0 it also
// waits until NRestarts is greater than after: a restart by systemd itself.
func waitActiveScript(secs int, after int) string {
	cond := "systemctl is-active -q zeitnot.service && timeout 5 zeitnot status >/dev/null 2>&1"
	if after >= 0 {
		cond = fmt.Sprintf(`[ "$n" -gt %d ] && %s`, after, cond)
	}
	return fmt.Sprintf(`end=$(( $(date +%%s) + %d )); n=; `+
		`while [ "$(date +%%s)" -lt "$end" ]; do `+
		`n=$(systemctl show -p NRestarts --value zeitnot.service); `+
		`if %s; then echo "active, NRestarts=$n"; exit 0; fi; sleep 0.5; done; `+
		`echo "not back after %ds: $(systemctl is-active zeitnot.service), NRestarts=$n"; exit 1`,
		secs, cond, secs)
}

// recoveryProblems compares the state before the hang with the state of the
// restarted daemon: recovered, paused, the same moves, and the times within
// tol ms (the running side may have used the time between the status and
// the hang, and the journal proves its time to the last checkpoint).
func recoveryProblems(before, after clockState, tol int64) []string {
	var p []string
	if !after.Recovered {
		p = append(p, "not recovered")
	}
	if !after.Paused {
		p = append(p, "not paused")
	}
	if after.White.Moves != before.White.Moves || after.Black.Moves != before.Black.Moves {
		p = append(p, fmt.Sprintf("moves %d/%d, were %d/%d", after.White.Moves, after.Black.Moves, before.White.Moves, before.Black.Moves))
	}
	if d := abs(after.White.MS - before.White.MS); d > tol {
		p = append(p, fmt.Sprintf("white's time off by %d ms (at most %d)", d, tol))
	}
	if d := abs(after.Black.MS - before.Black.MS); d > tol {
		p = append(p, fmt.Sprintf("black's time off by %d ms (at most %d)", d, tol))
	}
	return p
}

// leverOf names the button ("left" or "right") of the side that moves.
func leverOf(c clockState, side string) string {
	if c.Left == side {
		return "left"
	}
	return "right"
}

// shellWords quotes each line of text as one shell word.
func shellWords(text string) string {
	var w []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		w = append(w, "'"+strings.ReplaceAll(l, "'", `'\''`)+"'")
	}
	return strings.Join(w, " ")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// watchdogCheck hangs the daemon's event loop and checks that systemd's
// watchdog restarts it and that the game comes back.
func watchdogCheck(rep *report, run runFunc, status statusFunc) {
	// The hooks, whatever happens next, are taken away at the end, so that
	// the image's own service runs again.
	out, code := run("systemctl set-environment "+hooksSetting+" && systemctl show-environment", 60*time.Second)
	defer removeHooks(rep, run)
	if !rep.check("watchdog: test hooks in the manager's environment", code == 0 && strings.Contains(out, hooksSetting), "%s", oneLine(out)) {
		return
	}
	out, code = run("systemctl restart zeitnot.service && "+waitActiveScript(60, -1), 90*time.Second)
	if !rep.check("watchdog: zeitnot.service restarted with the hooks", code == 0, "%s", oneLine(out)) {
		return
	}

	// A running game with a move on the clock.
	s, err := runningGame(run, status)
	if err == nil {
		lever := leverOf(s, s.Running)
		if out, c := run("sleep 1; zeitnot press "+lever, 15*time.Second); c != 0 {
			err = fmt.Errorf("zeitnot press %s: exit %d: %s", lever, c, oneLine(out))
		}
	}
	out, _ = run("systemctl show -p NRestarts --value zeitnot.service; journalctl -u zeitnot.service -o cat --no-pager | grep -c 'Watchdog timeout'", 30*time.Second)
	lines := strings.Fields(out)
	restarts, errN := parseNRestarts(out)
	timeouts := 0
	if len(lines) == 2 {
		timeouts, _ = strconv.Atoi(lines[1])
	}
	before, _, errS := status()
	tStatus := time.Now()
	if err == nil {
		err = errS
	}
	if err == nil {
		err = errN
	}
	moves := before.White.Moves + before.Black.Moves
	if !rep.check("watchdog: game running before the hang", err == nil && before.Running != "none" && moves > 0,
		"%s", errString(err, before.String())) {
		return
	}

	out, code = run("zeitnot hang", 15*time.Second)
	tHang := time.Now()
	if !rep.check("watchdog: zeitnot hang", code == 0, "%s", oneLine(out)) {
		return
	}
	out, code = run(waitActiveScript(int(watchdogWait.Seconds()), restarts), watchdogWait+30*time.Second)
	rep.check("watchdog: hung daemon restarted by systemd", code == 0, "%s after %.1fs", oneLine(out), time.Since(tHang).Seconds())
	if code != 0 {
		detail, _ := run("systemctl status --no-pager -n 20 zeitnot.service", 20*time.Second)
		fmt.Println(indent(detail))
		return
	}
	out, _ = run("journalctl -u zeitnot.service -o cat --no-pager | grep 'Watchdog timeout'", 30*time.Second)
	got := strings.Count(out, "Watchdog timeout")
	rep.check("watchdog: journal says \"Watchdog timeout\"", got > timeouts, "%s", oneLine(out))

	after, _, err := status()
	tol := tHang.Sub(tStatus).Milliseconds() + 2000
	var problems []string
	if err == nil {
		problems = recoveryProblems(before, after, tol)
	}
	detail := fmt.Sprintf("before %s; after %s", before, errString(err, after.String()))
	if len(problems) > 0 {
		detail += ": " + strings.Join(problems, "; ")
	}
	rep.check("watchdog: game recovered, paused, same moves and times", err == nil && len(problems) == 0, "%s", detail)
}

// removeHooks takes the test hooks away and restarts the service as the
// image has it; `zeitnot hang` is then refused again.
func removeHooks(rep *report, run runFunc) {
	out, code := run("systemctl unset-environment ZEITNOT_TEST_HOOKS; systemctl restart zeitnot.service && "+waitActiveScript(60, -1), 120*time.Second)
	env, _ := run("systemctl show-environment", 30*time.Second)
	hang, hangCode := run("zeitnot hang", 15*time.Second)
	ok := code == 0 && !strings.Contains(env, hooksSetting) && hangCode != 0 && strings.Contains(hang, "unknown command")
	rep.check("watchdog: hooks removed, the image's service back, hang refused", ok, "%s; %s", oneLine(out), oneLine(hang))
}
