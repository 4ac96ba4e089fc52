#!/bin/bash
# ext4-times.sh SRCDIR: run by genimage after it made an ext4 image from
# SRCDIR (exec-post, build.sh adds it; the image is $IMAGEOUTFILE). mke2fs -d
# copies each file's access and change times from SRCDIR, and those are the
# times of this build (the change time cannot be set by touch): set them,
# and the nanoseconds, to SOURCE_DATE_EPOCH for every file, so that two
# builds of one commit give the same bytes.
set -euo pipefail
src=${1:?usage: ext4-times.sh SRCDIR (with IMAGEOUTFILE and SOURCE_DATE_EPOCH set)}
img=${IMAGEOUTFILE:?ext4-times.sh: IMAGEOUTFILE is not set (genimage sets it)}
ts=$(date -u -d "@${SOURCE_DATE_EPOCH:?ext4-times.sh: SOURCE_DATE_EPOCH is not set}" +%Y%m%d%H%M%S)
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
	echo "set_current_time $ts"
	(cd "$src" && find . -print0) | LC_ALL=C sort -z | while IFS= read -r -d '' f; do
		case $f in *'"'*|*$'\n'*|*'\'*) echo "ext4-times.sh: $src/$f: a name debugfs cannot quote" >&2; exit 1 ;; esac
		p=${f#.}; p=${p:-/}
		printf 'sif "%s" atime %s\nsif "%s" ctime %s\n' "$p" "$ts" "$p" "$ts"
		printf 'sif "%s" atime_extra 0\nsif "%s" ctime_extra 0\nsif "%s" mtime_extra 0\n' "$p" "$p" "$p"
	done
} > "$script"
out=$(debugfs -w -f "$script" "$img" 2>&1 >/dev/null | grep -v '^debugfs [0-9]' || true)
[ -z "$out" ] || { echo "ext4-times.sh: debugfs on $img: $(echo "$out" | head -n 5)" >&2; exit 1; }
