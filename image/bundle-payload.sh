#!/bin/bash
# bundle-payload.sh NAME.raucb: prints the SHA-256 of a plain RAUC bundle's
# payload, as sha256sum does. A plain bundle is the squashfs, then the CMS
# signature, then the signature's size as a 64-bit big-endian number; the
# payload is what comes before the signature.
set -euo pipefail
f=${1:?usage: bundle-payload.sh NAME.raucb}
size=$(stat -c %s "$f")
[ "$size" -gt 8 ] || { echo "bundle-payload.sh: $f: $size bytes, too short for a bundle" >&2; exit 1; }
sig=$(( 0x$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n') ))
[ "$sig" -gt 0 ] && [ "$sig" -lt "$(( size - 8 ))" ] || { echo "bundle-payload.sh: $f: signature size $sig does not fit its $size bytes" >&2; exit 1; }
echo "$(head -c "$(( size - 8 - sig ))" "$f" | sha256sum | cut -d' ' -f1)  $(basename "$f") payload"
