#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Checks the AVX-512 Keccak rows (not built by CMake: nothing here can run
# them natively) through SIMDe's emulated intrinsics against the portable
# row: README.md says what and why. Builds check.c twice with clang, -O2
# and -O2 with ASan and UBSan, runs each on a few seeds, and exits
# non-zero on any build error or mismatch. Usage: run.sh [SEED...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/build/simde-check"
cc=${CC:-clang}
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)

# The rows present; the single-state row may not exist yet.
srcs=("$here/check.c" "$root/src/keccak/keccak_portable.c" "$root/src/keccak/keccak_consts.c")
defs=()
rows=()
for r in avx512_x8 avx512; do
	f="$root/src/keccak/x86/keccak_$r.c"
	if [ -f "$f" ]; then
		srcs+=("$f")
		defs+=("-DCHECK_$(echo "$r" | tr a-z A-Z)")
		rows+=("$r")
	fi
done

mkdir -p "$out"
# -I include first: its immintrin.h stands in for the compiler's.
# -Wno-psabi: SIMDe's 64-byte vector types passed by value without
# -mavx512f draw Clang's ABI note; every caller is built the same way.
common=(-std=c11 -O2 -g -Wall -Wextra -Werror -Wno-psabi -I"$here/include" -I"$root/src"
	-I"$root/include" "${defs[@]}")
start=$SECONDS
"$cc" "${common[@]}" -o "$out/check" "${srcs[@]}"
"$cc" "${common[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -o "$out/check-asan" "${srcs[@]}"

declare -A total
for r in "${rows[@]}"; do total[$r]=0; done
runs=0
for bin in check check-asan; do
	for s in "${seeds[@]}"; do
		# a failing run prints its failures and makes set -e stop here
		res=$("$out/$bin" "$s") || { echo "$res"; echo "FAILED: $bin seed $s" >&2; exit 1; }
		while read -r tag name n; do
			[ "$tag" = ROW ] || continue
			total[$name]=$((total[$name] + n))
		done <<<"$res"
		runs=$((runs + 1))
	done
done
for r in "${rows[@]}"; do
	[ "${total[$r]}" -gt 0 ] || { echo "$r: no cases ran" >&2; exit 1; }
	echo "$r: all ${total[$r]} cases equal portable (seeds ${seeds[*]}; -O2 and ASan+UBSan builds; $((SECONDS - start)) s)"
done
