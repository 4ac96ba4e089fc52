package main

import (
	"fmt"
	"strings"
	"time"
)

// linkCheck: zeitnot-link.service is enabled in the image and, with no
// [hall] table in zeitnot.toml, has run and exited 0 (with one, networkCheck
// checks it runs); its state directory
// (DynamicUser=, so under /var/lib/private) is on the data partition; and
// its exposure as systemd-analyze rates it in the image.
func linkCheck(rep *report, run runFunc, hall bool) {
	out, _ := run("systemctl is-enabled zeitnot-link.service; systemctl show -p Result,ExecMainStatus,NRestarts --value zeitnot-link.service | xargs", 15*time.Second)
	f := strings.Fields(out)
	if hall {
		rep.check("zeitnot-link.service enabled", len(f) >= 1 && f[0] == "enabled", "%s", strings.Join(f, " "))
	} else {
		rep.check("zeitnot-link.service enabled, exited 0 (no [hall])", len(f) == 4 && f[0] == "enabled" && f[1] == "success" && f[2] == "0",
			"%s", strings.Join(f, " "))
	}
	out, _ = run("findmnt -n -o SOURCE /var/lib/private; readlink /var/lib/zeitnot-link; ls -ld /var/lib/private/zeitnot-link 2>&1", 15*time.Second)
	rep.check("zeitnot-link's state directory on the data partition", strings.Contains(out, "vda7[/private]") && strings.Contains(out, "private/zeitnot-link"),
		"%s", strings.Join(strings.Fields(out), " "))
	out, _ = run("journalctl -b -u zeitnot-link.service -o cat --no-pager | tail -n 3; systemd-analyze security --no-pager zeitnot-link.service | tail -n 1", 60*time.Second)
	fmt.Println(indent(strings.TrimSpace(out)))
}
