#!/bin/bash
# reproducible.sh (make reproducible): builds the SD image of the commit
# checked out (HEAD) twice from clean, each time from a fresh `git archive`
# of it in the same directory with an empty image/cache, and compares the
# .img and .img.xz byte for byte, and the update bundle's payload hash
# (make bundle; only its signature may differ). Where they differ it runs diffoscope on
# the two images and on their file trees (out/repro/diffoscope-*.txt) and
# fails. Needs what `make image` needs (root, make image-deps), and
# diffoscope for the report (apt-get install diffoscope-minimal).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
# Where the builds and the reports go (REPRO_OUT overrides it).
out=${REPRO_OUT:-$repo/out/repro}

# compare NAME DIR1 DIR2: NAME.img, NAME.img.xz and NAME.bmap of two builds,
# byte for byte; where they differ, diffoscope on the images and on the
# root, boot and data trees beside them (in out/repro/diffoscope-*.txt), and
# exit 1.
compare() {
	local name=$1 one=$2 two=$3 same=1 f what
	local files=("$name.img" "$name.img.xz" "$name.bmap")
	[ -e "$one/$name.raucb.payload.sha256" ] || [ -e "$two/$name.raucb.payload.sha256" ] && files+=("$name.raucb.payload.sha256")
	for f in "${files[@]}"; do
		if cmp -s "$one/$f" "$two/$f"; then
			echo "same: $f ($(sha256sum < "$one/$f" | cut -c1-64))"
		else
			echo "DIFFERENT: $f"; same=0
		fi
	done
	[ "$same" = 1 ] && return 0
	if command -v diffoscope >/dev/null 2>&1; then
		mkdir -p "$out"
		for what in root boot data "$name.img"; do
			[ -e "$one/$what" ] && [ -e "$two/$what" ] || continue
			echo "diffoscope $what: $out/diffoscope-${what%%.img}.txt"
			timeout 1200 diffoscope --no-progress --exclude-directory-metadata=no --text "$out/diffoscope-${what%%.img}.txt" \
				"$one/$what" "$two/$what" > /dev/null 2>&1 || true
			head -n 60 "$out/diffoscope-${what%%.img}.txt" 2>/dev/null || true
		done
	else
		echo "reproducible: diffoscope is not installed (apt-get install diffoscope-minimal): no report of the differences" >&2
	fi
	echo "reproducible: the two builds differ ($one and $two)" >&2
	return 1
}

# --compare NAME DIR1 DIR2: only the comparison, of two builds made before.
if [ "${1:-}" = --compare ]; then
	[ $# -eq 4 ] || { echo "usage: reproducible.sh [--compare NAME DIR1 DIR2]" >&2; exit 2; }
	compare "$2" "$3" "$4"
	exit
fi
commit=$(git rev-parse HEAD)
version=${VERSION:-$(git describe --tags --always "$commit")}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct "$commit")}
name=zeitnot-$version-rpi-arm64
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "reproducible: the work tree has changes; building the commit $commit without them" >&2
rm -rf "$out"
mkdir -p "$out"
src=$out/src
start=$(date +%s)
for run in 1 2; do
	rm -rf "$src"
	mkdir -p "$src"
	git archive "$commit" | tar -x -C "$src"
	t0=$(date +%s)
	echo "== reproducible: build $run of $commit ($version, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH)"
	make -C "$src" bundle VERSION="$version" SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" > "$out/build$run.log" 2>&1 ||
		{ tail -n 30 "$out/build$run.log" >&2; echo "reproducible: build $run failed (log: $out/build$run.log)" >&2; exit 1; }
	mkdir -p "$out/run$run"
	mv "$src/image/work/$name.img" "$src/out/$name.img.xz" "$src/out/$name.bmap" "$src/out/$name.raucb.payload.sha256" "$out/run$run/"
	mv "$src/image/work/root" "$src/image/work/boot" "$src/image/work/data" "$out/run$run/"
	echo "== reproducible: build $run took $(( $(date +%s) - t0 )) s"
done
rm -rf "$src"
status=0
compare "$name" "$out/run1" "$out/run2" || status=1
echo "== reproducible: $(( $(date +%s) - start )) s for both builds and the comparison"
exit "$status"
