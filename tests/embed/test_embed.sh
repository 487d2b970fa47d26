#!/bin/sh
# SPDX-License-Identifier: MIT
# fastsha taken into another project (tests/embed/CMakeLists.txt): with
# add_subdirectory and with FetchContent, the outer project's build type is
# left alone, fastsha's tests and tools are not there unless asked for; and
# with add_subdirectory the fastsha::fastsha and fastsha::fastsha_static
# targets build, link and install without the command.
# usage: test_embed.sh SOURCE_DIR SCRATCH_DIR
# From tests/CMakeLists.txt's environment: FASTSHA_EMBED_GENERATOR, and
# FASTSHA_EMBED_CC or FASTSHA_EMBED_TOOLCHAIN (this build's compiler).
set -eu
src=$1 scratch=$2
rm -rf "$scratch"
set -- -S "$src/tests/embed" -DFASTSHA_SRC="$src"
[ -z "${FASTSHA_EMBED_GENERATOR:-}" ] || set -- "$@" -G "$FASTSHA_EMBED_GENERATOR"
[ -z "${FASTSHA_EMBED_TOOLCHAIN:-}" ] || set -- "$@" -DCMAKE_TOOLCHAIN_FILE="$FASTSHA_EMBED_TOOLCHAIN"
[ -z "${FASTSHA_EMBED_CC:-}" ] || set -- "$@" -DCMAKE_C_COMPILER="$FASTSHA_EMBED_CC"
fail() { echo "FAIL: $*"; exit 1; }

# The defaults: no build type set by fastsha, no tests, no tools. Built,
# run and installed with add_subdirectory only: FetchContent_MakeAvailable
# adds the same CMakeLists.txt with add_subdirectory, so its targets are
# those, and a second build of the library took half the test's time.
for how in subdirectory fetchcontent; do
	echo "== $how"
	b=$scratch/$how
	cmake "$@" -B "$b" -DEMBED_HOW=$how >/dev/null
	report=$(cat "$b/embed-report.txt")
	[ "$report" = "build type ''" ] || fail "$how: expected no fastsha targets and no build type, got: $report"
	# The outer project's own test and nothing of fastsha's.
	n=$(cd "$b" && ctest -N | sed -n 's/^Total Tests: //p')
	[ "$n" = 1 ] || fail "$how: the outer project has $n tests, not its one"
	[ $how = subdirectory ] || continue
	cmake --build "$b" >/dev/null
	out=$("$b/consumer_static")
	echo "$out"
	"$b/consumer_shared" >/dev/null || fail "$how: consumer_shared"
	cmake --install "$b" --prefix "$scratch/prefix-$how" >/dev/null
	test ! -e "$scratch/prefix-$how/bin/fastsha" || fail "$how: the command was installed"
done

# An outer project's build type is kept; the tests and tools can still be
# asked for (configure only: the top-level build runs them).
echo "== subdirectory, Debug, tests and tools on"
b=$scratch/asked
cmake "$@" -B "$b" -DCMAKE_BUILD_TYPE=Debug -DFASTSHA_BUILD_TESTS=ON -DFASTSHA_BUILD_TOOLS=ON >/dev/null
report=$(cat "$b/embed-report.txt")
want="target test_api
target fastsha_cli
target fastsha_bench
build type 'Debug'"
[ "$report" = "$want" ] || fail "asked for the tests and tools, got: $report"
echo "embed test: ok"
