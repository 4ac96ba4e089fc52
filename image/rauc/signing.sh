# Sourced by build.sh and bundle.sh: the key that signs update bundles and
# its certificate, which the image's RAUC keyring holds. ZEITNOT_BUNDLE_KEY
# and ZEITNOT_BUNDLE_CERT name a release's (PEM files; the key never in the
# repository). Without them a development key is made once per machine in
# ZEITNOT_DEV_KEYS (default ~/.cache/zeitnot/bundle-dev), outside the tree,
# so that two clean builds on one machine sign alike and build one image.
# A clock built with it accepts only bundles signed with it.
bundle_signing() {
	if [ -n "${ZEITNOT_BUNDLE_KEY:-}" ] || [ -n "${ZEITNOT_BUNDLE_CERT:-}" ]; then
		bundle_key=${ZEITNOT_BUNDLE_KEY:?set ZEITNOT_BUNDLE_KEY with ZEITNOT_BUNDLE_CERT}
		bundle_cert=${ZEITNOT_BUNDLE_CERT:?set ZEITNOT_BUNDLE_CERT with ZEITNOT_BUNDLE_KEY}
		[ -r "$bundle_cert" ] || { echo "ZEITNOT_BUNDLE_CERT=$bundle_cert: no such file" >&2; return 1; }
		return 0
	fi
	local dir=${ZEITNOT_DEV_KEYS:-${XDG_CACHE_HOME:-$HOME/.cache}/zeitnot/bundle-dev}
	bundle_key=$dir/key.pem
	bundle_cert=$dir/cert.pem
	if [ ! -s "$bundle_key" ] || [ ! -s "$bundle_cert" ]; then
		mkdir -p "$dir"
		chmod 0700 "$dir"
		openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/O=zeitnot/CN=zeitnot development bundles $(hostname)" \
			-keyout "$bundle_key.tmp" -out "$bundle_cert.tmp" 2>/dev/null || { echo "openssl could not make a development key in $dir" >&2; return 1; }
		mv "$bundle_key.tmp" "$bundle_key"
		mv "$bundle_cert.tmp" "$bundle_cert"
		echo "development signing key for update bundles made: $bundle_key" >&2
	fi
}
