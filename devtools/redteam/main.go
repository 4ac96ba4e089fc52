// Command redteam prints the red team's attacks on the hall as a table: it
// reads `go test -json` of the attack tests (make redteam runs them,
// bounded, on the loopback) and gives each finding its result and what
// the test measured. It exits 1 if an attack succeeded (a test failed).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// attacks are the tests make redteam runs, by name: the finding (what the
// attack is on) and the attack each reproduces. `redteam -run` prints the
// -run pattern of them all.
var attacks = []struct{ test, finding, attack string }{
	{"TestClientIDBelongsToItsAccount", "client ids", "board 12's account with board 3's client id"},
	{"TestSameAccountReconnects", "client ids", "two clocks set to one board; a flaky reconnect"},
	{"TestBoardFileBounded", "store bounds", "40,000 states of new game ids on one board"},
	{"TestNoFileHeldPerGame", "store bounds", "many one-line games: a file open each?"},
	{"TestLinesBounded", "store bounds", "lines and bytes one board makes the hall keep"},
	{"TestOpensDamaged", "store bounds", "the hall on a damaged data directory"},
	{"TestHTTPIdleConnections", "connections", "idle and keep-alive connections on the pages"},
	{"TestHTTPSlowBody", "connections", "a request body and a header dribbled byte by byte"},
	{"TestStreamCaps", "connections", "/events streams without a cap; the arbiter's"},
	{"TestConnectionLimits", "connections", "idle MQTT connections that never CONNECT"},
	{"TestGuesserNotAccountLockedOut", "login guessing", "wrong passwords for arbiter every 0.5 s"},
	{"TestLoginRateLimit", "login guessing; CSRF", "the guesser vs the arbiter; the login form's CSRF; Secure cookie"},
	{"TestFailedConnectsLimited", "hashing cost", "wrong-password CONNECTs from one and from 50 addresses"},
	{"TestManyAddressesBounded", "hashing cost", "1,000 failed logins from 200 addresses"},
	{"TestMQTTSToPlainBroker", "TLS errors", "mqtts:// to a plain broker (hall)"},
	{"TestTLSToPlainBroker", "TLS errors", "mqtts:// to a plain broker (link)"},
	{"TestOutsideBrokerNeedsTheACL", "outside broker", "a Mosquitto without zeitnot's ACL"},
	// The second round: lines forged over the hall's, or published ahead.
	{"TestForgedResultOverAcknowledgedLine", "forged lines", "a forged result line over a line the hall had"},
	{"TestFirstLineStands", "forged lines", "64 forged lines over lines the store had; after a restart"},
	{"TestLineAheadDoesNotFreeze", "lines ahead", "a line published ahead with an old instant"},
	{"TestHeldLines", "lines ahead", "lines held past a gap, out of place, and 257 of them"},
	{"TestHeldLineFromTheFuture", "lines ahead", "a line published ahead with an instant far ahead"},
	{"TestRefusedTokensLogBounded", "log flood", "wrong API tokens without end: a log line each?"},
	// The e-board's positions, and the devices a stick's config may name.
	{"TestIllegalPositions", "e-board positions", "16 queens, pawns on the first rank, two kings of a side"},
	{"TestReachable", "e-board positions", "set-ups no legal moves lead to from the game's position"},
	{"TestFollowStart", "e-board positions", "a set-up at the start the arbiter did not choose"},
	{"TestFollowResumed", "e-board positions", "another set-up, then a resume"},
	{"TestFollowLost", "e-board positions", "an unplugged board replugged on an unreachable set-up"},
	{"TestEBoardMovesAreLegal", "e-board positions", "the e-board process hands illegal moves and positions to the daemon"},
	{"TestDevice", "e-board port", "a FIFO, /dev/null, /dev/ptmx, links to a file and to /etc/shadow as the port"},
	{"TestSimDevice", "e-board port", "the demo's terminal named by a config file"},
	{"TestProfileNotARegularFile", "config paths", "a profile path that is missing, relative or ../etc/passwd"},
}

type event struct {
	Action, Package, Test, Output string
}

var logLine = regexp.MustCompile(`^\s+\w+_test\.go:\d+: (.*)$`)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-run" {
		names := make([]string, len(attacks))
		for i, a := range attacks {
			names[i] = a.test
		}
		fmt.Printf("^(%s)$\n", strings.Join(names, "|"))
		return
	}
	result := map[string]string{}
	notes := map[string][]string{}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" || strings.Contains(e.Test, "/") {
			continue
		}
		switch e.Action {
		case "pass", "fail", "skip":
			result[e.Test] = strings.ToUpper(e.Action)
		case "output":
			if m := logLine.FindStringSubmatch(strings.TrimRight(e.Output, "\n")); m != nil && len(notes[e.Test]) < 3 {
				n := m[1]
				if len(n) > 160 {
					n = n[:160] + "..."
				}
				notes[e.Test] = append(notes[e.Test], n)
			}
		}
	}
	failed := false
	fmt.Println("| finding | attack | result | measured |")
	fmt.Println("| --- | --- | --- | --- |")
	for _, a := range attacks {
		r := result[a.test]
		switch r {
		case "":
			r = "NOT RUN"
			failed = true
		case "PASS":
			r = "held"
		case "FAIL":
			r = "FAILED"
			failed = true
		}
		fmt.Printf("| %s | %s | %s | %s |\n", a.finding, a.attack, r, strings.ReplaceAll(strings.Join(notes[a.test], "; "), "|", "/"))
	}
	if failed {
		os.Exit(1)
	}
}
