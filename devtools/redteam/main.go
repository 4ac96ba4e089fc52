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

// attacks are the tests make redteam runs, by name: the finding and the
// attack each reproduces. Tests is the -run pattern of them all.
var attacks = []struct{ test, finding, attack string }{
	{"TestClientIDBelongsToItsAccount", "2", "board 12's account with board 3's client id"},
	{"TestSameAccountReconnects", "2", "two clocks set to one board; a flaky reconnect"},
	{"TestBoardFileBounded", "3", "40,000 states of new game ids on one board"},
	{"TestNoFileHeldPerGame", "3", "many one-line games: a file open each?"},
	{"TestLinesBounded", "3", "lines and bytes one board makes the hall keep"},
	{"TestOpensDamaged", "3", "the hall on a damaged data directory"},
	{"TestHTTPIdleConnections", "4", "idle and keep-alive connections on the pages"},
	{"TestHTTPSlowBody", "4", "a request body and a header dribbled byte by byte"},
	{"TestStreamCaps", "4", "/events streams without a cap; the arbiter's"},
	{"TestConnectionLimits", "4", "idle MQTT connections that never CONNECT"},
	{"TestGuesserNotAccountLockedOut", "7", "wrong passwords for arbiter every 0.5 s"},
	{"TestLoginRateLimit", "7, 11", "the guesser vs the arbiter; the login form's CSRF; Secure cookie"},
	{"TestFailedConnectsLimited", "8", "wrong-password CONNECTs from one and from 50 addresses"},
	{"TestManyAddressesBounded", "8", "1,000 failed logins from 200 addresses"},
	{"TestMQTTSToPlainBroker", "11", "mqtts:// to a plain broker (hall)"},
	{"TestTLSToPlainBroker", "11", "mqtts:// to a plain broker (link)"},
	{"TestOutsideBrokerNeedsTheACL", "limits", "a Mosquitto without zeitnot's ACL"},
	// The second round: findings R2-F1 and on.
	{"TestForgedResultOverAcknowledgedLine", "R2-F1", "a forged result line over a line the hall had"},
	{"TestFirstLineStands", "R2-F1", "64 forged lines over lines the store had; after a restart"},
	{"TestLineAheadDoesNotFreeze", "R2-F2", "a line published ahead with an old instant"},
	{"TestHeldLines", "R2-F2", "lines held past a gap, out of place, and 257 of them"},
	{"TestHeldLineFromTheFuture", "R2-F2", "a line published ahead with an instant far ahead"},
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
