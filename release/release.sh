#!/bin/bash
# release.sh (make release): the files of a release, signed, in --out
# (default out/release):
#
#   NAME.img.xz, NAME.bmap       the image and its block map (from --in)
#   NAME.raucb                   the update bundle (make bundle), when --in
#                                has one: its CMS signature is checked
#                                against the image's keyring certificate
#                                (image/rauc/signing.sh) before it is taken
#   SHA256SUMS                   their SHA-256 sums (sha256sum -c)
#   SHA256SUMS.minisig           its minisign signature
#   NAME.os_list.json            a Raspberry Pi Imager repository whose URL
#                                is $ZEITNOT_RELEASE_URL/NAME.img.xz
#   zeitnot-icon.png             the repository's icon (the Imager requires one)
#
# NAME is zeitnot-VERSION-rpi-arm64. The secret key is the file named by
# ZEITNOT_SIGNING_KEY (never in the repository; a key made with minisign -W,
# or ZEITNOT_SIGNING_PASSWORD holds its password). The signature is checked
# against ZEITNOT_SIGNING_PUBKEY (default release/zeitnot.pub, the
# project's public key) before anything is left in --out, so a release
# signed with another key fails here rather than on a club's laptop.
#
#   release/release.sh --version V [--in out] [--out out/release]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "release.sh: $*" >&2; exit 1; }
version=
in=out
outdir=out/release
while [ $# -gt 0 ]; do
	case "$1" in
	--version) version=$2; shift 2 ;;
	--in) in=$2; shift 2 ;;
	--out) outdir=$2; shift 2 ;;
	*) echo "usage: $0 --version V [--in DIR] [--out DIR]" >&2; exit 2 ;;
	esac
done
[ -n "$version" ] || die "--version is missing"
case $version in *-dirty) die "version $version: the work tree has changes; commit them (a release is built from a commit)" ;; esac
name=zeitnot-$version-rpi-arm64
command -v minisign >/dev/null 2>&1 || die "minisign is missing: apt-get install minisign"
key=${ZEITNOT_SIGNING_KEY:-}
[ -n "$key" ] || die "ZEITNOT_SIGNING_KEY is not set: the path of the minisign secret key that signs releases"
[ -f "$key" ] && [ -r "$key" ] || die "ZEITNOT_SIGNING_KEY=$key: no such readable file"
case $(realpath "$key") in "$(dirname "$here")"/*) die "ZEITNOT_SIGNING_KEY=$key is inside the repository: keep the secret key out of it" ;; esac
pub=${ZEITNOT_SIGNING_PUBKEY:-$here/zeitnot.pub}
[ -f "$pub" ] || die "ZEITNOT_SIGNING_PUBKEY=$pub: no such file"
[ -n "${ZEITNOT_RELEASE_URL:-}" ] || die "ZEITNOT_RELEASE_URL is not set: where the release will be downloaded from (https://host/path)"
for f in "$name.img.xz" "$name.bmap"; do
	[ -f "$in/$f" ] || die "$in/$f is missing: run make image VERSION=$version"
done
xz -t "$in/$name.img.xz" || die "$in/$name.img.xz: not a sound xz file"

tmp=$outdir.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$in/$name.img.xz" "$in/$name.bmap" "$tmp/"
files=("$name.img.xz" "$name.bmap")
if [ -f "$in/$name.raucb" ]; then
	command -v rauc >/dev/null 2>&1 || die "rauc is missing: it checks $name.raucb's signature"
	. "$here/../image/rauc/signing.sh"
	bundle_signing || die "no certificate to check $name.raucb against"
	rauc info --keyring="$bundle_cert" "$in/$name.raucb" >/dev/null 2>&1 ||
		die "$in/$name.raucb does not verify against $bundle_cert (ZEITNOT_BUNDLE_CERT): a clock with that keyring would refuse it"
	cp "$in/$name.raucb" "$tmp/"
	files+=("$name.raucb")
fi
(cd "$tmp" && sha256sum "${files[@]}" > SHA256SUMS)
sign() { minisign -S -s "$key" -m "$tmp/SHA256SUMS" -t "zeitnot $version: SHA256SUMS of ${files[*]}" -c "zeitnot release signature (verify with release/zeitnot.pub)" "$@"; }
if [ -n "${ZEITNOT_SIGNING_PASSWORD:-}" ]; then
	printf '%s\n' "$ZEITNOT_SIGNING_PASSWORD" | sign >/dev/null
else
	sign >/dev/null </dev/null || die "minisign could not sign with $key (a key with a password needs ZEITNOT_SIGNING_PASSWORD)"
fi
minisign -V -q -p "$pub" -m "$tmp/SHA256SUMS" ||
	die "the signature does not verify with $pub: ZEITNOT_SIGNING_KEY is not the key of that public key"
(cd "$tmp" && sha256sum --quiet -c SHA256SUMS) || die "SHA256SUMS does not match the files"
"$here/os-list.sh" "$tmp" >/dev/null
rm -rf "$outdir"
mv "$tmp" "$outdir"
echo "release $version in $outdir:"
(cd "$outdir" && ls -l)
