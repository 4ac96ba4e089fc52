#!/bin/bash
# verify.sh: checks every unit with `systemd-analyze verify` (and the
# sysusers.d file with systemd-sysusers) in a scratch root that holds the
# units, stand-ins for the programs they start, and the build machine's own
# systemd units. Any warning fails the check. Installs nothing: run
# systemd/ci-deps.sh first on a machine without systemd's tools.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for tool in systemd-analyze systemd-sysusers; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "verify-units: $tool is missing; install systemd (Debian: apt-get install systemd, or run systemd/ci-deps.sh)" >&2
		exit 1
	fi
done
sysunits=
for d in /usr/lib/systemd/system /lib/systemd/system; do
	[ -f "$d/sysinit.target" ] && { sysunits=$d; break; }
done
if [ -z "$sysunits" ]; then
	echo "verify-units: systemd's own units (sysinit.target …) are missing; install systemd" >&2
	exit 1
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/libexec/zeitnot" "$root/etc/systemd/system" "$root/usr/lib/systemd"
printf '#!/bin/sh\nexit 0\n' > "$root/usr/bin/zeitnot"
chmod 755 "$root/usr/bin/zeitnot"
# wpa_supplicant (zeitnot-wifi.service) is the image's, not this machine's.
install -m 755 "$root/usr/bin/zeitnot" "$root/usr/sbin/wpa_supplicant"
# rauc (the A/B update units) is the image's too.
install -m 755 "$root/usr/bin/zeitnot" "$root/usr/bin/rauc"
cp -a "$sysunits" "$root/usr/lib/systemd/system"
ln -s usr/lib "$root/lib"

units=()
for u in "$here"/*.service "$here"/*.path; do
	cp "$u" "$root/etc/systemd/system/"
	u=$(basename "$u")
	# A template is verified as an instance: zeitnot-usb@sda1.service.
	[[ $u == *@.service ]] && u=${u%@.service}@sda1.service
	units+=("$u")
done

fail=0
for u in "${units[@]}"; do
	out=$(systemd-analyze verify --man=no --root="$root" "$u" 2>&1) || fail=1
	if [ -n "$out" ]; then
		printf '%s\n' "$out" >&2
		fail=1
	else
		echo "ok   $u"
	fi
done

# The drop-ins on Debian's units: each directory names a unit of
# systemd's, and every file in it parses as a unit's [Unit] section.
for d in "$here"/*.service.d; do
	for f in "$d"/*.conf; do
		if awk '/^[[:space:]]*(#|$)/ {next} /^\[Unit\]$/ {next} /^(After|Before|Wants|Requires|ConditionPathExistsGlob|ConditionPathExists)=/ {next}
			{ printf "%s:%d: unexpected line: %s\n", FILENAME, FNR, $0; bad=1 } END { exit bad }' "$f" >&2; then
			echo "ok   $(basename "$d")/$(basename "$f")"
		else
			fail=1
		fi
	done
done

# The laptop's demo flags are never a clock's: a simulated e-board on a
# pseudo-terminal, the simulated hardware, the host's clock trusted.
if grep -nE '^ExecStart.*(--sim-port|--profile[ =]sim|--trust-host-clock)' "$here"/*.service >&2; then
	echo "FAIL a unit passes a flag of the laptop's demo" >&2
	fail=1
else
	echo "ok   no unit passes the demo's flags"
fi

# sysusers.d: must create the user and groups without a complaint.
mkdir -p "$root/etc"
: > "$root/etc/passwd"; : > "$root/etc/group"; : > "$root/etc/shadow"; : > "$root/etc/gshadow"
if out=$(systemd-sysusers --root="$root" "$here/sysusers.d/zeitnot.conf" 2>&1) &&
	! printf '%s\n' "$out" | grep -qv '^Creating ' &&
	grep -q '^zeitnot:' "$root/etc/passwd" && grep -q '^gpio:.*zeitnot' "$root/etc/group"; then
	echo "ok   sysusers.d/zeitnot.conf"
else
	printf '%s\n' "$out" >&2
	echo "FAIL sysusers.d/zeitnot.conf" >&2
	fail=1
fi

# udev rules: every line is a comment, blank, or KEY op "VALUE" pairs.
if awk '/^[[:space:]]*(#|$)/ {next}
	{ line=$0; gsub(/[A-Z_]+(\{[^}]*\})?[[:space:]]*(==|!=|\+=|-=|:=|=)[[:space:]]*"[^"]*"[[:space:]]*,?[[:space:]]*/, "", line)
	  if (line != "") { printf "%s:%d: cannot parse: %s\n", FILENAME, FNR, line; bad=1 } }
	END { exit bad }' "$here"/udev/*.rules >&2; then
	echo "ok   udev/*.rules"
else
	fail=1
fi

# Hardening: each unit's exposure by systemd-analyze, at most the limit
# given (in tenths: 20 is 2.0).
exposure() {
	local unit=$1 tenths=$2 out
	if out=$(systemd-analyze security --offline=yes --threshold="$tenths" --no-pager --root="$root" "$unit" 2>&1); then
		echo "ok   $unit exposure: $(printf '%s\n' "$out" | tail -n 1 | sed 's/.*: //')"
	else
		printf '%s\n' "$out" | grep -E '✗|Overall' >&2
		echo "FAIL $unit exposure is above $((tenths / 10)).$((tenths % 10))" >&2
		fail=1
	fi
}
# The daemon, and the link, which has the network.
exposure zeitnot.service 20
exposure zeitnot-link.service 20
# The network settings writer (root with nothing else) and the USB stick's
# exporter (it parses untrusted input).
exposure zeitnot-network.service 10
exposure zeitnot-usb@sda1.service 10
# The e-board process (it parses an untrusted USB device).
exposure zeitnot-eboard.service 10
# The update installer: root, as RAUC writes block devices, but no network.
exposure zeitnot-installer.service 20
# The data partition's growth: root with two capabilities, the card's block
# devices only, no network.
exposure zeitnot-grow-data.service 20

if [ "$fail" -ne 0 ]; then
	echo "verify-units: FAILED" >&2
	exit 1
fi
echo "verify-units: all units verified"
