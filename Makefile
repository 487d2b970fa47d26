# SPDX-License-Identifier: MIT
#
# Thin wrapper over the CMake presets (CMakePresets.json), so the README's
# two commands are `make` and `make test`. CMake and ctest do the work.

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
QEMU_CPUS ?= qemu64 Nehalem Haswell

.PHONY: all run build test test-asan test-qemu test-arm test-valgrind bench clean

# The main job: build, check every backend against NIST's answers, and a
# short speed report next to OpenSSL on this machine.
all: run

build:
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

run: build
	build/release/tools/fastsha --self-test
	build/release/tools/fastsha-bench --quick

test: build
	ctest --preset release -j $(JOBS)

# Configure, build and test one preset of CMakePresets.json.
preset-%:
	cmake --preset $*
	cmake --build --preset $* -j $(JOBS)
	ctest --preset $* -j $(JOBS)

# AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: preset-asan

# The library and its per-backend tests cross-built for AArch64 and run
# under qemu-aarch64 (needs gcc-aarch64-linux-gnu and qemu-user).
test-arm: preset-aarch64

test-valgrind: preset-valgrind

# The per-backend and API tests on emulated CPUs: SSE2 only, SSSE3 without
# AVX, AVX2 without SHA-NI. Dispatch must not pick what the CPU lacks.
test-qemu:
	cmake --preset qemu
	cmake --build --preset qemu -j $(JOBS)
	for cpu in $(QEMU_CPUS); do echo "== QEMU_CPU=$$cpu"; \
		QEMU_CPU=$$cpu ctest --preset qemu -j $(JOBS) || exit 1; done

bench: build
	build/release/tools/fastsha-bench

clean:
	rm -rf build
