#!/bin/bash
# ci-deps.sh: installs what `make verify-units` needs (systemd-analyze and
# systemd-sysusers, from Debian's systemd package) when it is missing.
set -euo pipefail
if command -v systemd-analyze >/dev/null 2>&1 && command -v systemd-sysusers >/dev/null 2>&1 &&
	{ [ -f /usr/lib/systemd/system/sysinit.target ] || [ -f /lib/systemd/system/sysinit.target ]; }; then
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends systemd
