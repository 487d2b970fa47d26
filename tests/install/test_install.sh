#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the build into a scratch prefix, then build a consumer against it
# with the CMake package and with pkg-config, shared and static, and run it.
# usage: test_install.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR
# From tests/CMakeLists.txt's environment: FASTSHA_INSTALL_TOOLS (OFF: no
# command to find); for a build run under an emulator,
# FASTSHA_INSTALL_TOOLCHAIN, FASTSHA_INSTALL_CC and FASTSHA_INSTALL_RUN
# (the emulator's command line, put before every program of the target).
set -eu
build=$1 src=$2 scratch=$3
tools=${FASTSHA_INSTALL_TOOLS:-ON} toolchain=${FASTSHA_INSTALL_TOOLCHAIN:-}
run=${FASTSHA_INSTALL_RUN:-}
rm -rf "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
want="include/fastsha/fastsha.h include/fastsha/sha1.h include/fastsha/mac.h include/fastsha/sha3.h"
[ "$tools" = OFF ] || want="bin/fastsha $want"
for f in $want; do
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
[ "$tools" = OFF ] || $run "$prefix/bin/fastsha" --version

echo "== CMake package"
if [ -n "$toolchain" ]; then
	# The toolchain roots package searches in its sysroot
	# (CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY), where CMAKE_PREFIX_PATH is
	# not looked at: the package's folder is named instead.
	set -- -DCMAKE_TOOLCHAIN_FILE="$toolchain" -Dfastsha_DIR="$libdir/cmake/fastsha"
else
	set -- -DCMAKE_PREFIX_PATH="$prefix"
fi
cmake -S "$src/tests/install" -B "$scratch/cmake" "$@" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
LD_LIBRARY_PATH=$libdir $run "$scratch/cmake/consumer_shared"
$run "$scratch/cmake/consumer_static"
# The shared consumer really uses the shared library (the host's ldd cannot
# load a target's program: its NEEDED entry instead).
if [ -n "$run" ]; then
	if command -v readelf >/dev/null; then
		readelf -d "$scratch/cmake/consumer_shared" | grep -q "NEEDED.*\[$soname\]" ||
			{ echo "FAIL: not linked to $soname"; exit 1; }
	fi
else
	ldd "$scratch/cmake/consumer_shared" | grep -q "$soname" || { echo "FAIL: not linked to $soname"; exit 1; }
fi

echo "== pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc=${FASTSHA_INSTALL_CC:-${CC:-cc}}
$cc -std=c11 -o "$scratch/pc_shared" "$src/tests/install/consumer.c" $(pkg-config --cflags --libs fastsha) -Wl,-rpath,"$libdir"
$run "$scratch/pc_shared"
# README.md's static link: the archive named through pkg-config's libdir
# (-lfastsha, which `pkg-config --static --libs` gives too, takes the
# shared library from the same directory).
$cc -std=c11 -o "$scratch/pc_static" "$src/tests/install/consumer.c" $(pkg-config --cflags fastsha) \
	"$(pkg-config --variable=libdir fastsha)/libfastsha.a"
$run "$scratch/pc_static"
if command -v readelf >/dev/null; then
	if readelf -d "$scratch/pc_static" | grep -q "NEEDED.*\[$soname\]"; then
		echo "FAIL: README's static pkg-config link needs $soname"; exit 1
	fi
fi
echo "install test: ok"
