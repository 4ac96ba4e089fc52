#!/bin/bash
# build.sh: builds the zeitnot SD image for 64-bit Raspberry Pi boards.
#
#   image/build.sh [--version V] [--binary bin/zeitnot-linux-arm64] [--out out]
#
# 1. The Debian root file system (mkrootfs.sh, mmdebstrap in unshare mode) is
#    cached in image/cache/, keyed on a hash of the package list, the dpkg
#    filter, the files under image/rootfs/ and image/tryboot/ and mkrootfs.sh.
# 2. It is unpacked into image/work/root, and zeitnot, the units and the
#    image's configuration are added; the device trees are patched (fdtput).
# 3. genimage assembles the partitions (MBR: autoboot.txt's FAT, the A and
#    B slots' FAT boot and ext4 root partitions, B empty, the ext4 data
#    partition; mke2fs -d). No loop devices, no mounts. Slot A's boot.vfat
#    and root.ext4 stay in image/work/slot/ for make bundle.
# 4. Output in --out: NAME.img.xz, NAME.bmap, NAME.img.xz.sha256 and
#    NAME.os_list.json (a Raspberry Pi Imager repository, release/os-list.sh's,
#    with zeitnot-icon.png; ZEITNOT_RELEASE_URL, default file:// of --out,
#    is where it says the image is). The raw image stays in
#    image/work/NAME.img for the boot test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

version=dev
binary=$repo/bin/zeitnot-linux-arm64
outdir=$repo/out
while [ $# -gt 0 ]; do
	case "$1" in
	--version) version=$2; shift 2 ;;
	--binary) binary=$(realpath "$2"); shift 2 ;;
	--out) mkdir -p "$2"; outdir=$(realpath "$2"); shift 2 ;;
	*) echo "usage: $0 [--version V] [--binary FILE] [--out DIR]" >&2; exit 2 ;;
	esac
done
name=zeitnot-$version-rpi-arm64

# The MBR disk signature: root=PARTUUID=5a4e5431-05 in cmdline.txt
# (rootfs/etc/default/raspi-firmware), fstab and RAUC's system.conf depend
# on it. The partition numbers are appliance/slot's.
disk_signature=0x5a4e5431
partuuid=${disk_signature#0x}

start=$(date +%s)
step() { printf '== %4ss  %s\n' "$(( $(date +%s) - start ))" "$*"; }
die() { echo "build.sh: $*" >&2; exit 1; }

# Reproducible builds: every time written into the image is
# SOURCE_DATE_EPOCH (default: the commit's time), and every identifier that
# would be random (file system UUIDs, directory hash seeds, the FAT volume
# ID) is derived from the version, so two builds of one commit give the same
# bytes (make reproducible checks it).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct 2>/dev/null) ||
		die "not a git checkout: set SOURCE_DATE_EPOCH (the commit's time, seconds since 1970)"
fi
case $SOURCE_DATE_EPOCH in ""|*[!0-9]*) die "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH is not a number of seconds" ;; esac
export SOURCE_DATE_EPOCH
# idhex WHAT: 32 hex digits, a hash of the version and what they name.
idhex() { printf 'zeitnot %s %s' "$version" "$1" | sha256sum | cut -c1-32; }
# iduuid WHAT: idhex as a UUID (version 4 and variant bits set, like a random one).
iduuid() { local h; h=$(idhex "$1"); printf '%s-%s-4%s-%x%s-%s\n' "${h:0:8}" "${h:8:4}" "${h:13:3}" $(( (0x${h:16:1} & 3) | 8 )) "${h:17:3}" "${h:20:12}"; }

[ "$(id -u)" -eq 0 ] || die "run as root: the root file system is unpacked with its owners (CI and the build machines run as root)"
for tool in mmdebstrap genimage mke2fs mkdosfs mcopy bmaptool xz fdtput fdtget dtc modinfo systemd-sysusers systemctl; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: run 'make image-deps'"
done
arch-test arm64 >/dev/null 2>&1 || die "arm64 programs cannot run here: run 'make image-deps' (binfmt_misc, qemu-user)"
[ -x "$binary" ] || die "$binary is missing: run 'make cross'"
file_out=$(od -An -tx1 -j18 -N2 "$binary" | tr -d ' ')
[ "$file_out" = "b700" ] || die "$binary is not an arm64 ELF program"

# 1. The root file system, cached.
mkdir -p "$here/cache" "$here/work"
key=$( (cd "$here" && { find rootfs tryboot -type f | LC_ALL=C sort; cat packages.list dpkg-filter.cfg mkrootfs.sh; find rootfs tryboot -type f | LC_ALL=C sort | xargs cat; }) | sha256sum | cut -c1-16)
cache=$here/cache/rootfs-$key.tar
if [ -s "$cache" ]; then
	step "root file system: cached $(basename "$cache")"
else
	step "root file system: building $(basename "$cache") (mmdebstrap, about 10 min)"
	"$here/mkrootfs.sh" "$cache.tmp"
	mv "$cache.tmp" "$cache"
	# Keep the newest two.
	ls -1t "$here"/cache/rootfs-*.tar | tail -n +3 | xargs -r rm -f
	step "root file system: built"
fi

# 2. Unpack and add zeitnot.
work=$here/work
root=$work/root
rm -rf "$root" "$work/boot" "$work/autoboot" "$work/data" "$work/genimage" "$work/empty" "$work/slot"
mkdir -p "$root" "$work/boot" "$work/autoboot" "$work/data" "$work/empty" "$work/slot"
tar --numeric-owner --xattrs --xattrs-include='*' -xpf "$cache" -C "$root"
step "unpacked"

kver=$(ls "$root/usr/lib/modules")
[ "$(echo "$kver" | wc -w)" -eq 1 ] || die "expected one kernel in the root file system, found: $kver"

# Every kernel module kept by dpkg-filter.cfg must find the modules it
# depends on (Debian's System.map is a stub, so depmod -e cannot check the
# symbols themselves; the dependencies are what the filter can break).
moddir=$root/usr/lib/modules/$kver
find "$moddir/kernel" -name '*.ko*' | sed 's|.*/||; s|\.ko.*||; s|-|_|g' | sort -u > "$work/modules.have"
missing=$(find "$moddir/kernel" -name '*.ko*' -print0 | xargs -0 -n1 modinfo -F depends | tr ',' '\n' | sed '/^$/d; s|-|_|g' | sort -u | comm -23 - "$work/modules.have")
[ -z "$missing" ] || die "kernel modules needed by kept ones but filtered out (add them to image/dpkg-filter.cfg): $(echo $missing)"
step "kernel modules: $(wc -l < "$work/modules.have") kept, dependencies complete"

install -D -m 0755 "$binary" "$root/usr/bin/zeitnot"
sd=$repo/systemd
install -D -m 0644 -t "$root/usr/lib/systemd/system" "$sd"/*.service
install -D -m 0644 "$sd/sysusers.d/zeitnot.conf" "$root/usr/lib/sysusers.d/zeitnot.conf"
install -D -m 0644 "$sd/tmpfiles.d/zeitnot-update.conf" "$root/usr/lib/tmpfiles.d/zeitnot-update.conf"
install -D -m 0644 -t "$root/usr/lib/udev/rules.d" "$sd"/udev/*.rules
install -D -m 0644 -t "$root/usr/lib/modules-load.d" "$sd"/modules-load.d/*.conf
install -D -m 0644 -t "$root/etc/systemd/system.conf.d" "$sd"/system.conf.d/*.conf
install -D -m 0644 -t "$root/etc/systemd/journald.conf.d" "$sd"/journald.conf.d/*.conf
# networkd and timesyncd run only when zeitnot.toml has a [network] table
# (zeitnot-network.service writes their files into /run; the drop-ins
# make them wait for it and skip without a .network file). RAUC loads the
# loop module before it starts (its drop-in says why).
for unit in systemd-networkd.service systemd-timesyncd.service systemd-resolved.service rauc.service; do
	install -D -m 0644 -t "$root/usr/lib/systemd/system/$unit.d" "$sd/$unit.d"/*.conf
done
install -D -m 0644 -t "$root/usr/lib/systemd/resolved.conf.d" "$sd"/resolved.conf.d/*.conf
# Names through systemd-resolved's stub (a dangling link without a network).
ln -sfn ../run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"
# The user and groups must be in /etc/passwd before the root is read-only.
chroot "$root" systemd-sysusers /usr/lib/sysusers.d/zeitnot.conf
systemctl --root="$root" enable zeitnot.service zeitnot-import.service zeitnot-hostname.service zeitnot-grow-data.service zeitnot-link.service zeitnot-eboard.service \
	zeitnot-network.service zeitnot-wifi.service systemd-networkd.service systemd-timesyncd.service systemd-resolved.service >/dev/null 2>&1
# Nothing waits for the network: the link retries by itself, and a clock
# whose hall has no network must still boot at once.
systemctl --root="$root" disable systemd-networkd-wait-online.service >/dev/null 2>&1 || true
for unit in zeitnot-network.service systemd-networkd.service systemd-timesyncd.service systemd-resolved.service; do
	[ "$(systemctl --root="$root" is-enabled "$unit" 2>/dev/null)" = enabled ] || die "$unit is not enabled in the image"
done
[ -L "$root/etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants/zeitnot-wifi.service" ] ||
	die "zeitnot-wifi.service is not wanted by wlan0's device unit"
# zeitnot-link.service runs with DynamicUser=: its StateDirectory lives in
# /var/lib/private/zeitnot-link, which systemd reaches through the link
# /var/lib/zeitnot-link. The root is read-only, so the link is made here and
# /var/lib/private is the data partition's private/ (fstab).
ln -sfn private/zeitnot-link "$root/var/lib/zeitnot-link"
# Timers that write to the (read-only) root: apt lists, dpkg database
# backups, ext4 scrubbing. The clock is updated by flashing a new image.
systemctl --root="$root" mask apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer e2scrub_reap.service >/dev/null 2>&1
# Nobody logs in (logind would want /var/lib/systemd/linger on the
# read-only root), and Debian's wpa_supplicant.service, a D-Bus service for
# desktop network managers, is not how the clock joins Wi-Fi
# (zeitnot-wifi.service is).
systemctl --root="$root" mask systemd-logind.service wpa_supplicant.service >/dev/null 2>&1
# networkd keeps its state in /run only: the root is read-only.
systemctl --root="$root" mask systemd-networkd-persistent-storage.service >/dev/null 2>&1
# A short boot: what a clock does not use is not started at all
# (image/README.md, "The boot"). No logins (root is locked, no user has a
# password): no login prompts, no user sessions, no utmp. No kernel
# interfaces it does not use: the pstore and its EFI variables, FUSE,
# configfs, DRM, huge pages, tracing and debugfs
# (the boot test mounts debugfs itself), binfmt_misc.
systemctl --root="$root" mask getty.target systemd-user-sessions.service systemd-update-utmp.service systemd-update-utmp-runlevel.service \
	systemd-pstore.service modprobe@efi_pstore.service modprobe@fuse.service modprobe@configfs.service modprobe@drm.service \
	sys-fs-fuse-connections.mount sys-kernel-config.mount dev-hugepages.mount sys-kernel-tracing.mount sys-kernel-debug.mount \
	proc-sys-fs-binfmt_misc.automount systemd-binfmt.service >/dev/null 2>&1
# Nor what has nothing to do on this root: udev rules from credentials and
# network units from the kernel command line (none are given; udevd waits
# for both), a journal flushed to /var (it stays in memory), static device
# nodes for modules loaded on first open (the clock opens none), and a
# random seed the read-only root can never refresh. And what stood
# between systemd's start and udevd, one after the other: the remount of
# the root, which the kernel mounted read-only as fstab has it (noatime and
# errors=remount-ro mean nothing on a read-only file system), and the
# modes of static device nodes (sound, KVM, FUSE, loop) the clock has
# none of.
systemctl --root="$root" mask systemd-udev-load-credentials.service systemd-network-generator.service systemd-journal-flush.service \
	kmod-static-nodes.service systemd-fsck-root.service systemd-random-seed.service \
	systemd-remount-fs.service systemd-tmpfiles-setup-dev-early.service systemd-tmpfiles-setup-dev.service >/dev/null 2>&1
# alsa-utils' mixer state: restored at boot and saved at shutdown into
# /var/lib/alsa, which the read-only root cannot keep; the spoken clock
# plays at the card's own level.
systemctl --root="$root" mask alsa-restore.service alsa-state.service >/dev/null 2>&1

# The default configuration: the appliance's example, if it ships one.
install -d -m 0755 "$root/etc/zeitnot"
for f in "$repo/appliance/zeitnot.toml" "$repo/appliance/config/zeitnot.toml"; do
	if [ -f "$f" ]; then install -m 0644 "$f" "$root/etc/zeitnot/zeitnot.toml"; break; fi
done

install -m 0644 /dev/stdin "$root/etc/fstab" <<FSTAB
# The root file system is read-only, mounted by the initramfs from the
# slot's root= (partition 5 in slot A, 6 in slot B), so it has no line
# here. /boot/firmware is the card's first FAT partition (autoboot.txt,
# zeitnot.toml). The data partition holds the clock's
# state (/var/lib/zeitnot, including the imported zeitnot.toml, which
# overrides /etc/zeitnot/zeitnot.toml) and is the only one written at run
# time. Temporary files and logs live in memory. The root is never
# checked: mounted read-only, it is never written and so never needs it
# (systemd-fsck-root is masked above), and its check held up udevd.
PARTUUID=$partuuid-01  /boot/firmware   vfat   ro,nodev,nosuid,noexec,umask=0022,nofail    0 0
PARTUUID=$partuuid-07  /data            ext4   rw,noatime,lazytime,nodev,nosuid,noexec,commit=60  0 2
/data/zeitnot          /var/lib/zeitnot none   bind,x-systemd.requires-mounts-for=/data    0 0
/data/private          /var/lib/private none   bind,x-systemd.requires-mounts-for=/data    0 0
/data/timesync         /var/lib/systemd/timesync none bind,x-systemd.requires-mounts-for=/data 0 0
/data/zeitnot-update   /var/lib/zeitnot-update none bind,x-systemd.requires-mounts-for=/data 0 0
tmpfs                  /tmp             tmpfs  nodev,nosuid,size=32M,mode=1777             0 0
tmpfs                  /var/tmp         tmpfs  nodev,nosuid,size=8M,mode=1777              0 0
tmpfs                  /var/log         tmpfs  nodev,nosuid,noexec,size=8M,mode=0755       0 0
FSTAB
# The initramfs checks and mounts /data and /boot/firmware
# (rootfs/etc/initramfs-tools/scripts/local-bottom/zeitnot), so systemd
# finds them mounted and the clock does not wait for udev. fstab keeps
# their lines for when it did not: then systemd checks and mounts them
# as before. The data partition's check by systemd is skipped when the
# initramfs has mounted it (checked already, and e2fsck refuses a mounted
# file system). The drop-in is the template's: the data partition is the
# only file system systemd-fsck@ checks (the root's check is masked, the
# boot partition has none), and ext4-times.sh cannot quote the instance's
# name (its backslashes) for debugfs.
fsckd="$root/etc/systemd/system/systemd-fsck@.service.d"
install -d -m 0755 "$fsckd"
install -m 0644 /dev/stdin "$fsckd/zeitnot-data.conf" <<'FSCK'
[Unit]
ConditionPathIsMountPoint=!/data
FSCK
install -d -m 0755 "$root/data" "$root/var/lib/zeitnot" "$root/boot/firmware"
install -d -m 0700 "$root/var/lib/private"
# systemd-timesyncd's state (the time of its last synchronisation, which
# it sets the clock forward to at boot) on the data partition.
install -d -m 0755 "$root/var/lib/systemd/timesync"
# The update spool (systemd/tmpfiles.d/zeitnot-update.conf makes spool/ at boot).
install -d -m 0755 "$root/var/lib/zeitnot-update"
echo zeitnot > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
# /etc/os-release: Debian's, with the image's name and version
# (image/os-release.in; VERSION and VERSION_ID stay Debian's, as
# os-release(5) has them name the operating system, IMAGE_VERSION the image).
osr=$(readlink -f "$root/etc/os-release")
case $osr in "$root"/*) ;; *) die "/etc/os-release leads out of the root file system: $osr" ;; esac
{ cat "$osr"; sed -e '/^#/d' -e "s|@BUILD@|$SOURCE_DATE_EPOCH|g" -e "s|@VERSION@|$version|g" "$here/os-release.in"; } > "$work/os-release"
rm -f "$root/etc/os-release"
install -m 0644 "$work/os-release" "$root/etc/os-release"
# Empty: systemd makes a machine ID in memory at every boot (read-only root).
: > "$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
# No user has a password, and root is locked.
sed -i -e 's/^\([^:]*\):[^:]*:/\1:!*:/' "$root/etc/shadow"
if awk -F: '$2 !~ /^[!*]/ { bad=1; print "user with a password: " $1 } END { exit !bad }' "$root/etc/shadow" >&2; then
	die "a user has a password"
fi
# A/B updates (README.md, "Updates"): RAUC's configuration with the
# custom bootloader backend (zeitnot slot), the keyring bundles are checked
# against, the commit once the clock is ready and the trial's time limit.
compatible=zeitnot-rpi-arm64
. "$here/rauc/signing.sh"
bundle_signing || die "no key for update bundles"
command -v rauc >/dev/null 2>&1 || die "rauc is missing: run 'make image-deps'"
[ -x "$root/usr/bin/rauc" ] || die "the root file system has no rauc (image/packages.list)"
install -D -m 0644 "$bundle_cert" "$root/etc/rauc/keyring.pem"
sed -e "s|@COMPATIBLE@|$compatible|" -e "s|@PARTUUID@|$partuuid|g" "$here/rauc/system.conf.in" > "$work/system.conf"
install -D -m 0644 "$work/system.conf" "$root/etc/rauc/system.conf"
install -D -m 0755 "$here/rauc/rauc-bootloader" "$root/usr/libexec/zeitnot/rauc-bootloader"
install -D -m 0755 "$here/rauc/rauc-pre-install" "$root/usr/libexec/zeitnot/rauc-pre-install"
install -m 0644 -t "$root/usr/lib/systemd/system" "$sd"/zeitnot-trial.timer "$sd"/zeitnot-installer.path
systemctl --root="$root" enable zeitnot-update-good.service zeitnot-trial.timer zeitnot-installer.path >/dev/null 2>&1
[ "$(systemctl --root="$root" is-enabled zeitnot-update-good.service 2>/dev/null)" = enabled ] || die "zeitnot-update-good.service is not enabled"
step "root file system configured"

# 3. Boot partition: everything raspi-firmware put into /boot/firmware, with
# patched device trees; the kernel and initramfs in /boot are not kept twice.
fw=$root/boot/firmware
[ -f "$fw/config.txt" ] && [ -f "$fw/cmdline.txt" ] || die "raspi-firmware wrote no config.txt/cmdline.txt"
grep -q "root=PARTUUID=$partuuid-05" "$fw/cmdline.txt" || die "cmdline.txt does not boot PARTUUID=$partuuid-05: $(cat "$fw/cmdline.txt")"
grep -qw ro "$fw/cmdline.txt" || die "cmdline.txt does not mount the root read-only: $(cat "$fw/cmdline.txt")"
# RAUC and zeitnot slot read the booted slot from rauc.slot=; an update
# bundle's hook writes slot B's (image/bundle-hook).
sed -i "s/\$/ rauc.slot=A/" "$fw/cmdline.txt"
PWM=${PWM:-0} "$here/patch-dtb.sh" "$fw"
cp -a "$fw/." "$work/boot/"
# The first FAT partition: autoboot.txt, which the firmware of every board
# reads there (appliance/slot), and the Pi 3's bootcode.bin, which its ROM
# loads from the first FAT partition only.
"$binary" slot --autoboot "$work/autoboot/autoboot.txt" init || die "zeitnot slot init failed (the arm64 program runs through binfmt_misc)"
cp -a "$fw/bootcode.bin" "$work/autoboot/"
find "$fw" -mindepth 1 -delete
rm -f "$root/boot/vmlinuz-$kver" "$root/boot/initrd.img-$kver" "$root/boot/System.map-$kver" "$root/boot/config-$kver" \
	"$root/vmlinuz" "$root/vmlinuz.old" "$root/initrd.img" "$root/initrd.img.old"
# Not needed at run time on a read-only root: the firmware's source copy
# (the boot partition has the one used) and the hardware database sources
# (hwdb.bin is built).
rm -rf "$root/usr/lib/raspi-firmware" "$root/usr/lib/udev/hwdb.d" "$root/etc/udev/hwdb.d"
install -d -m 0750 "$work/data/zeitnot"
install -d -m 0700 "$work/data/private"
install -d -m 0755 "$work/data/timesync"
install -d -m 0700 "$work/data/rauc"
install -d -m 0755 "$work/data/zeitnot-update"
step "boot partition prepared ($(du -sm "$work/boot" | cut -f1) MB)"

# Reproducibility: what differs from one build to the next is the time
# files were written, and caches that record inodes and times.
rm -f "$root/var/cache/ldconfig/aux-cache"
find "$root" "$work/boot" "$work/autoboot" "$work/data" -newermt "@$SOURCE_DATE_EPOCH" -print0 |
	xargs -0 -r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"

# 4. Partitions and image.

# reproducible_ext4 CFG: CFG with every ext4 image made the same way each
# time: a directory hash seed of its own (added to its -E root_owner=0:0),
# genimage's fs-timestamp, and an exec-post that sets the inode times
# mke2fs -d copies from the source tree (atime and ctime, which touch
# cannot set) to SOURCE_DATE_EPOCH.
reproducible_ext4() {
	local ts
	ts=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d%H%M%S)
	awk -v ts="$ts" -v fix="$here/ext4-times.sh" -v version="$version" '
		/^image [^ ]*\.ext4 *\{/ { img = $2; n++ }
		/^}/ { img = "" }
		img != "" && /extraargs/ {
			cmd = "printf \"zeitnot %s hash_seed %s\" \"" version "\" \"" img "\" | sha256sum | cut -c1-32"
			cmd | getline h; close(cmd)
			seed = substr(h,1,8) "-" substr(h,9,4) "-" substr(h,13,4) "-" substr(h,17,4) "-" substr(h,21,12)
			if (!sub(/root_owner=0:0/, "root_owner=0:0,hash_seed=" seed)) { print "build.sh: genimage.cfg.in: " img " has no -E root_owner=0:0 to add the hash seed to" > "/dev/stderr"; bad = 1 }
			print
			print "\t\tfs-timestamp = \"" ts "\""
			next
		}
		img != "" && /srcpath/ { src = $3; gsub(/"/, "", src); print; print "\texec-post = \"" fix " " src "\""; next }
		{ print }
		END { exit bad }' "$1"
}
# The slots' partitions have fixed sizes (a later version's file systems
# must fit the partitions of the cards in use); the file systems are made
# smaller, for the bundle.
boot_slot=128
root_slot=512
root_mb=$(du -sm "$root" | cut -f1)
root_size=$(( (root_mb * 5 / 4 + 48 + 15) / 16 * 16 ))
boot_mb=$(du -sm "$work/boot" | cut -f1)
boot_size=$(( (boot_mb * 5 / 4 + 8 + 15) / 16 * 16 ))
[ "$root_size" -le "$root_slot" ] || die "the root file system needs ${root_size} MB, the slot has ${root_slot} MB"
[ "$boot_size" -le "$boot_slot" ] || die "the boot files need ${boot_size} MB, the slot has ${boot_slot} MB"
# FAT32 wants at least 65525 clusters: 33 MB with 512-byte ones.
[ "$boot_size" -ge 48 ] || boot_size=48
sed -e "s|@WORK@|$work|g" -e "s|@IMAGE@|$name.img|" -e "s|@DISK_SIGNATURE@|$disk_signature|" \
	-e "s|@BOOT_SIZE@|${boot_size}M|" -e "s|@AUTOBOOT_SIZE@|16M|" -e "s|@BOOT_SLOT@|${boot_slot}M|" -e "s|@ROOT_SLOT@|${root_slot}M|" -e "s|@ROOT_SIZE@|${root_size}M|" -e "s|@DATA_SIZE@|64M|" \
	-e "s|@ROOT_UUID@|$(iduuid root)|" -e "s|@DATA_UUID@|$(iduuid data)|" \
	-e "s|@BOOT_VOLID@|$(idhex boot | cut -c1-8)|" -e "s|@AUTOBOOT_VOLID@|$(idhex autoboot | cut -c1-8)|" \
	"$here/genimage.cfg.in" > "$work/genimage.cfg.tmp"
reproducible_ext4 "$work/genimage.cfg.tmp" > "$work/genimage.cfg"
rm -rf "$work/genimage" "$work/images"
E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH E2FSCK_TIME=$SOURCE_DATE_EPOCH \
genimage --config "$work/genimage.cfg" --rootpath "$work/empty" --tmppath "$work/genimage" \
	--inputpath "$work/images" --outputpath "$work/images" >"$work/genimage.log" 2>&1 ||
	{ tail -n 30 "$work/genimage.log" >&2; die "genimage failed (log: $work/genimage.log)"; }
rm -f "$work"/zeitnot-*-rpi-arm64.img
mv "$work/images/$name.img" "$work/$name.img"
mv "$work/images/boot.vfat" "$work/images/root.ext4" "$work/slot/"
echo "$version" > "$work/slot/version"
echo "$SOURCE_DATE_EPOCH" > "$work/slot/build"
echo "$compatible" > "$work/slot/compatible"
# The boot test signs its own variants of the bundle with the same key.
echo "$(realpath "$bundle_key") $(realpath "$bundle_cert")" > "$work/slot/signing"
rm -rf "$work/genimage" "$work/images"
step "genimage: $name.img (slots of ${boot_slot} + ${root_slot} MB: root ${root_size} MB, boot ${boot_size} MB; data 64 MB)"

mkdir -p "$outdir"
img=$work/$name.img
# Only the newest image is kept in the output directory.
rm -f "$outdir"/zeitnot-*-rpi-arm64.*
bmaptool -q create -o "$outdir/$name.bmap" "$img"
# Level 3: about 10% larger than -6 and about 40% less CPU time (see README).
xz -T2 "-${XZ_LEVEL:-3}" -c "$img" > "$outdir/$name.img.xz.tmp"
mv "$outdir/$name.img.xz.tmp" "$outdir/$name.img.xz"
(cd "$outdir" && sha256sum "$name.img.xz" > "$name.img.xz.sha256")
dl_size=$(stat -c %s "$outdir/$name.img.xz")
# The Imager repository is release/os-list.sh's, as for a release: its
# download URL is ZEITNOT_RELEASE_URL, by default the output directory
# itself (rpi-imager --repo file://$outdir/$name.os_list.json on this
# machine; the Imager does not resolve a relative URL).
ZEITNOT_RELEASE_URL=${ZEITNOT_RELEASE_URL:-file://${outdir// /%20}} "$repo/release/os-list.sh" "$outdir" >/dev/null
step "done: $outdir/$name.img.xz ($(( dl_size / 1024 / 1024 )) MB), .bmap, .sha256, .os_list.json, zeitnot-icon.png"
