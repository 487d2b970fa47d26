#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the build into a scratch prefix, then build a consumer against it
# with the CMake package and with pkg-config, shared and static, and run it.
# usage: test_install.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR
set -eu
build=$1 src=$2 scratch=$3
rm -rf "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/fastsha include/fastsha/fastsha.h include/fastsha/sha1.h include/fastsha/mac.h \
	include/fastsha/sha3.h; do
	test -e "$prefix/$f" || { echo "FAIL: $f not installed"; exit 1; }
done
# The soname follows the header's ABI number (CHANGELOG.md).
abi=$(sed -n 's/^#define FASTSHA_ABI_VERSION \([0-9]*\)$/\1/p' "$src/include/fastsha/fastsha.h")
soname=libfastsha.so.$abi
lib=$(find "$prefix" -name "$soname" | head -n 1)
test -n "$lib" || { echo "FAIL: $soname not installed"; exit 1; }
libdir=$(dirname "$lib")
if command -v readelf >/dev/null; then
	readelf -d "$lib" | grep -q "SONAME.*\[$soname\]" || { echo "FAIL: soname is not $soname"; exit 1; }
fi
test -e "$libdir/libfastsha.a" || { echo "FAIL: static library not installed"; exit 1; }
test -e "$libdir/pkgconfig/fastsha.pc" || { echo "FAIL: fastsha.pc not installed"; exit 1; }
test -e "$libdir/cmake/fastsha/fastshaConfig.cmake" || { echo "FAIL: CMake package not installed"; exit 1; }
"$prefix/bin/fastsha" --version

echo "== CMake package"
cmake -S "$src/tests/install" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
LD_LIBRARY_PATH=$libdir "$scratch/cmake/consumer_shared"
"$scratch/cmake/consumer_static"
# The shared consumer really uses the shared library.
ldd "$scratch/cmake/consumer_shared" | grep -q "$soname" || { echo "FAIL: not linked to $soname"; exit 1; }

echo "== pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc=${CC:-cc}
$cc -std=c11 -o "$scratch/pc_shared" "$src/tests/install/consumer.c" $(pkg-config --cflags --libs fastsha) -Wl,-rpath,"$libdir"
"$scratch/pc_shared"
$cc -std=c11 -o "$scratch/pc_static" "$src/tests/install/consumer.c" $(pkg-config --cflags fastsha) "$libdir/libfastsha.a"
"$scratch/pc_static"
echo "install test: ok"
