#!/bin/bash
# mkrootfs.sh OUT.tar: the clock's Debian root filesystem (trixie, arm64) as a
# tarball, with the kernel, its initramfs and the Raspberry Pi boot firmware,
# but without zeitnot itself (build.sh adds that, so a code change does not
# rebuild this), and with the tryboot module (tryboot/build.sh builds it in
# the root with the suite's compiler and the kernel's headers, then removes
# them). Runs mmdebstrap in unshare mode: no mounts, no loop devices.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mkrootfs.sh OUT.tar}
suite=${SUITE:-trixie}

pkgs=$(sed -e 's/#.*//' "$here/packages.list" | xargs | tr ' ' ',')

# Mirrors: the same archive the build machine's apt uses (its deb822 or
# one-line sources), for the suite and its updates and security suites;
# mmdebstrap's default mirror when the machine has none. MIRROR and
# SECURITY_MIRROR override.
host_uris() {
	{ cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p'
	  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p'
	} | tr ' ' '\n' | sed '/^$/d'
}
mirror=${MIRROR:-$(host_uris | grep -E '/debian/?$' | head -n1 || true)}
security=${SECURITY_MIRROR:-$(host_uris | grep -E '/debian-security/?$' | head -n1 || true)}
mirrors=()
if [ -n "$mirror" ]; then
	mirrors+=("deb $mirror $suite main non-free-firmware" "deb $mirror $suite-updates main non-free-firmware")
	[ -n "$security" ] && mirrors+=("deb $security $suite-security main non-free-firmware")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The unshared root must be able to read what it copies in.
cp -r "$here/rootfs" "$tmp/rootfs"
cp -r "$here/tryboot" "$tmp/tryboot"
chmod -R a+rX "$tmp"

mmdebstrap \
	--mode=unshare \
	--variant=minbase \
	--format=tar \
	--components=main,non-free-firmware \
	--architectures=arm64 \
	--aptopt="$here/rootfs/etc/apt/apt.conf.d/90zeitnot" \
	--dpkgopt="$here/dpkg-filter.cfg" \
	--dpkgopt=force-confold \
	--dpkgopt=force-confdef \
	--include="$pkgs" \
	--setup-hook="sync-in $tmp/rootfs /" \
	--customize-hook="copy-in $tmp/tryboot /tmp" \
	--customize-hook='chroot "$1" sh /tmp/tryboot/build.sh /tmp/tryboot && rm -rf "$1"/tmp/tryboot' \
	--customize-hook='chroot "$1" apt-get clean' \
	--customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log "$1"/var/log/apt/*' \
	"$suite" "$out" "${mirrors[@]}"
