#!/bin/sh
# SPDX-License-Identifier: MIT
# Put the five public SHA-1 colliding files the SHA1DC tests use
# (shattered-1.pdf, shattered-2.pdf, sha-mbles-1.bin, sha-mbles-2.bin,
# sha1_reducedsha_coll.bin) in DEST (default build/sha1dc-files), from
# Debian's librust-sha1collisiondetection-dev (the .deb is only unpacked,
# not installed: installing pulls in 148 Rust packages). They are not kept
# in the repository (licence, size). Never fails: without them the tests
# test_sha1dc_files.* are skipped, saying why.
#
# usage: tests/fetch_sha1dc_files.sh [DEST]
dest=${1:-build/sha1dc-files}
sub=usr/share/cargo/registry/sha1collisiondetection-0.2.6/test
files="shattered-1.pdf shattered-2.pdf sha-mbles-1.bin sha-mbles-2.bin sha1_reducedsha_coll.bin"

have=1
for f in $files; do
	[ -s "$dest/$f" ] || have=0
done
if [ $have = 1 ]; then
	echo "sha1dc files: already in $dest"
	exit 0
fi
tmp=$(mktemp -d) || { echo "sha1dc files: no scratch folder; the tests that need them will be skipped"; exit 0; }
trap 'rm -rf "$tmp"' EXIT
if (cd "$tmp" && apt-get download librust-sha1collisiondetection-dev >/dev/null 2>&1) &&
	dpkg -x "$tmp"/librust-sha1collisiondetection-dev_*.deb "$tmp/x" 2>/dev/null &&
	mkdir -p "$dest"; then
	for f in $files; do
		cp "$tmp/x/$sub/$f" "$dest/" || { echo "sha1dc files: $f missing from the package"; exit 0; }
	done
	echo "sha1dc files: in $dest"
else
	echo "sha1dc files: could not get librust-sha1collisiondetection-dev (apt-get download, dpkg -x); the tests that need them will be skipped"
fi
exit 0
