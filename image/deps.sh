#!/bin/bash
# deps.sh (make image-deps): installs the Debian packages that build and
# boot-test the SD image, and makes sure arm64 programs run through
# qemu-user (binfmt_misc mounted, aarch64 registered). Needs root.
set -euo pipefail
pkgs=(mmdebstrap qemu-user-static binfmt-support arch-test genimage dosfstools
	mtools e2fsprogs fdisk bmap-tools xz-utils device-tree-compiler
	qemu-system-arm qemu-utils ipxe-qemu systemd kmod mosquitto
	rauc squashfs-tools openssl)
if [ "$(id -u)" -ne 0 ]; then
	echo "image-deps: run as root (apt-get, binfmt_misc)" >&2
	exit 1
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	update-binfmts --enable qemu-aarch64 2>/dev/null || update-binfmts --import qemu-aarch64
fi
if ! arch-test arm64 >/dev/null 2>&1; then
	echo "image-deps: arm64 programs do not run here (binfmt_misc/qemu-user); see arch-test arm64" >&2
	exit 1
fi
echo "image-deps: ok (arm64 runs through qemu-user)"
