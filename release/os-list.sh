#!/bin/bash
# os-list.sh DIR: writes DIR/NAME.os_list.json, a Raspberry Pi Imager
# repository (rpi-imager --repo URL-of-the-json) for the image DIR holds
# (one zeitnot-VERSION-rpi-arm64.img.xz). Its download URL is
# $ZEITNOT_RELEASE_URL/NAME.img.xz, so a club that mirrors a release runs
# this with its own URL. The sizes and SHA-256 sums are computed from the
# files; release_date is SOURCE_DATE_EPOCH's day (default: now). The
# Imager's schema requires an icon: zeitnot-icon.png (drawn by
# icon_test.go) is copied into DIR, to be served at
# $ZEITNOT_RELEASE_URL/zeitnot-icon.png beside the image. It is the one
# writer of the file: make release (release.sh) runs it on the release's
# folder, make image (image/build.sh) on out/, with file:// of out/ unless
# ZEITNOT_RELEASE_URL says otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "os-list.sh: $*" >&2; exit 1; }
dir=${1:?usage: ZEITNOT_RELEASE_URL=https://... os-list.sh DIR}
base=${ZEITNOT_RELEASE_URL:?os-list.sh: set ZEITNOT_RELEASE_URL to where the image will be downloaded from (https://host/path)}
case $base in https://*|http://*|file://*) ;; *) die "ZEITNOT_RELEASE_URL=$base: not an http(s):// or file:// URL" ;; esac
case $base in *'"'*|*'\'*|*' '*) die "ZEITNOT_RELEASE_URL=$base: a URL with a quote, backslash or space" ;; esac
base=${base%/}
shopt -s nullglob
xzs=("$dir"/zeitnot-*-rpi-arm64.img.xz)
[ ${#xzs[@]} -eq 1 ] || die "$dir: expected one zeitnot-VERSION-rpi-arm64.img.xz, found ${#xzs[@]}"
xzf=${xzs[0]}
file=$(basename "$xzf")
name=${file%.img.xz}
version=${name#zeitnot-}; version=${version%-rpi-arm64}
case $version in *'"'*|*'\'*) die "$file: a version with a quote or backslash" ;; esac
# The image's size from the .xz index (no second decompression), its hash
# from the stream.
extract_size=$(xz --robot --list "$xzf" | awk -F'\t' '$1 == "totals" { print $5 }')
case $extract_size in ""|*[!0-9]*) die "$file: xz --list gives no uncompressed size" ;; esac
extract_sha=$(xz -dc "$xzf" | sha256sum | cut -d' ' -f1)
dl_size=$(stat -c %s "$xzf")
dl_sha=$(sha256sum "$xzf" | cut -d' ' -f1)
day=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%F)
cp "$here/zeitnot-icon.png" "$dir/zeitnot-icon.png"
cat > "$dir/$name.os_list.json.tmp" <<JSON
{
  "os_list": [
    {
      "name": "zeitnot $version",
      "description": "FIDE tournament chess clock (Debian trixie, arm64). Pi 3B, 3B+, 4B, 400, CM4, Zero 2 W.",
      "icon": "$base/zeitnot-icon.png",
      "url": "$base/$file",
      "release_date": "$day",
      "extract_size": $extract_size,
      "extract_sha256": "$extract_sha",
      "image_download_size": $dl_size,
      "image_download_sha256": "$dl_sha",
      "devices": ["pi4-64bit", "pi3-64bit"],
      "init_format": "none"
    }
  ]
}
JSON
mv "$dir/$name.os_list.json.tmp" "$dir/$name.os_list.json"
echo "$dir/$name.os_list.json: $base/$file"
