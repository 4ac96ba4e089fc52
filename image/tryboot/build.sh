#!/bin/sh
# build.sh SRC: builds zeitnot_tryboot.ko (image/README.md, "Updates") for
# the one kernel in this root file system and installs it under
# /usr/lib/modules/VERSION/updates, then removes every package it
# installed to build it. Runs inside the root (mkrootfs.sh's customize hook
# runs it through chroot), with the apt lists the root was made from, so
# the compiler is the suite's and the headers are the kernel's own.
set -eu
src=${1:?usage: build.sh SRC}
die() { echo "tryboot/build.sh: $*" >&2; exit 1; }

kver=$(ls /usr/lib/modules)
[ "$(echo "$kver" | wc -w)" -eq 1 ] || die "expected one kernel in /usr/lib/modules, found: $kver"
[ -f "$src/zeitnot_tryboot.c" ] || die "$src/zeitnot_tryboot.c is missing"

# The packages installed to build are exactly the ones not there before.
installed() { dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | LC_ALL=C sort; }
installed > /tmp/tryboot.before
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -o Dpkg::Use-Pty=0 \
	make gcc binutils "linux-headers-$kver" >/tmp/tryboot.apt.log 2>&1 || { tail -n 20 /tmp/tryboot.apt.log >&2; die "apt-get install of the build packages failed"; }
installed > /tmp/tryboot.after
added=$(LC_ALL=C comm -13 /tmp/tryboot.before /tmp/tryboot.after)

# A fixed build directory: the module's bytes do not depend on where the
# tree was.
build=/tmp/zeitnot-tryboot
rm -rf "$build"
mkdir -p "$build"
cp "$src/Kbuild" "$src/zeitnot_tryboot.c" "$build/"
make -s -C "/usr/lib/modules/$kver/build" M="$build" modules || die "the module does not build against linux-headers-$kver"
# Debian's kernel has debug info on; the module's is of no use on a clock.
strip --strip-debug "$build/zeitnot_tryboot.ko"
install -D -m 0644 "$build/zeitnot_tryboot.ko" "/usr/lib/modules/$kver/updates/zeitnot_tryboot.ko"
depmod "$kver"
[ "$(modinfo -k "$kver" -F vermagic zeitnot_tryboot | cut -d' ' -f1)" = "$kver" ] || die "the module's vermagic is not $kver"
echo "tryboot/build.sh: zeitnot_tryboot.ko for $kver ($(stat -c %s "/usr/lib/modules/$kver/updates/zeitnot_tryboot.ko") bytes), built with $(gcc --version | head -n1)"

# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get purge -y -o Dpkg::Use-Pty=0 $added >/tmp/tryboot.apt.log 2>&1 || { tail -n 20 /tmp/tryboot.apt.log >&2; die "apt-get purge of the build packages failed"; }
installed > /tmp/tryboot.after
cmp -s /tmp/tryboot.before /tmp/tryboot.after || die "the build packages are not all gone: $(LC_ALL=C comm -13 /tmp/tryboot.before /tmp/tryboot.after | xargs)"
rm -rf "$build" /tmp/tryboot.before /tmp/tryboot.after /tmp/tryboot.apt.log
