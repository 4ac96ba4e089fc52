// Package release holds the tests of the release scripts in this
// directory: release.sh (make release: the image, its block map,
// SHA256SUMS and its minisign signature, and a Raspberry Pi Imager
// repository) and os-list.sh (the Imager repository, for a mirror).
// zeitnot.pub is the project's public
// key, which every release's SHA256SUMS.minisig verifies with.
package release
