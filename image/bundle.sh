#!/bin/bash
# bundle.sh (make bundle): the RAUC update bundle of the image last built,
# next to it in --out: NAME.raucb, signed (rauc/signing.sh says with what),
# and NAME.raucb.payload.sha256, the SHA-256 of its payload (the squashfs
# before the CMS signature), which two clean builds of one commit share:
# only the signature, which carries its signing time, differs.
#
#   image/bundle.sh --version V [--out out]
#
# The bundle holds slot A's boot.vfat and root.ext4 from the image build
# (image/work/slot/), a manifest (compatible, version, build time) and the
# hook that points the boot files at the slot they land in (rauc/bundle-hook).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "bundle.sh: $*" >&2; exit 1; }
version=
outdir=$here/../out
while [ $# -gt 0 ]; do
	case "$1" in
	--version) version=$2; shift 2 ;;
	--out) mkdir -p "$2"; outdir=$(realpath "$2"); shift 2 ;;
	*) echo "usage: $0 --version V [--out DIR]" >&2; exit 2 ;;
	esac
done
[ -n "$version" ] || die "--version is required"
command -v rauc >/dev/null || die "rauc is missing: run 'make image-deps'"
command -v mksquashfs >/dev/null || die "mksquashfs is missing: run 'make image-deps'"
slot=$here/work/slot
for f in boot.vfat root.ext4 build; do
	[ -s "$slot/$f" ] || die "$slot/$f is missing: run 'make image' first"
done
[ "$(cat "$slot/version")" = "$version" ] || die "$slot holds version $(cat "$slot/version"), not $version: run 'make image'"
. "$here/rauc/signing.sh"
bundle_signing
SOURCE_DATE_EPOCH=$(cat "$slot/build")
export SOURCE_DATE_EPOCH
name=zeitnot-$version-rpi-arm64
dir=$here/work/bundle
rm -rf "$dir"
mkdir -p "$dir"
cp --sparse=always "$slot/boot.vfat" "$slot/root.ext4" "$dir/"
install -m 0755 "$here/rauc/bundle-hook" "$dir/hook"
cat > "$dir/manifest.raucm" <<MANIFEST
[update]
compatible=$(cat "$slot/compatible")
version=$version
build=$SOURCE_DATE_EPOCH
description=zeitnot $version

[bundle]
format=plain

[hooks]
filename=hook

[image.rootfs]
filename=root.ext4

[image.boot]
filename=boot.vfat
hooks=post-install
MANIFEST
touch --date="@$SOURCE_DATE_EPOCH" "$dir" "$dir"/*
out=$outdir/$name.raucb
rm -f "$outdir"/zeitnot-*-rpi-arm64.raucb "$outdir"/zeitnot-*-rpi-arm64.raucb.payload.sha256
rauc bundle --cert="$bundle_cert" --key="$bundle_key" "$dir" "$out.tmp" >"$here/work/bundle.log" 2>&1 ||
	{ tail -n 20 "$here/work/bundle.log" >&2; die "rauc bundle failed (log: $here/work/bundle.log)"; }
rauc info --keyring="$bundle_cert" "$out.tmp" >/dev/null 2>>"$here/work/bundle.log" || die "the bundle does not verify against $bundle_cert"
mv "$out.tmp" "$out"
"$here/bundle-payload.sh" "$out" > "$out.payload.sha256"
rm -rf "$dir"
echo "bundle: $out ($(( $(stat -c %s "$out") / 1024 / 1024 )) MB), payload $(cut -d' ' -f1 "$out.payload.sha256")"
