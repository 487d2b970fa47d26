# SPDX-License-Identifier: MIT
#
# Thin wrapper over the CMake presets (CMakePresets.json), so the README's
# two commands are `make` and `make test`. CMake and ctest do the work.

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
QEMU_CPUS ?= qemu64 Nehalem Haswell
# What automatic dispatch must pick on each emulated CPU (test_api.expect_auto):
# qemu64 has SSE2 only, Nehalem SSSE3 without AVX, Haswell AVX2 and BMI
# without SHA-NI; no SSSE3 SHA-512 backend exists, so Nehalem's is portable.
QEMU_EXPECT_qemu64 = sha1:sse2,portable
QEMU_EXPECT_Nehalem = sha1:ssse3,sha256:ssse3,sha512:portable
QEMU_EXPECT_Haswell = keccak:bmi2,avx2
# Which tests each emulated CPU runs (ctest arguments). qemu64 and Nehalem:
# dispatch and the NIST answers of every row there (the SSE2 and SSSE3 rows
# on CPUs without SSSE3 or AVX: an instruction a row must not use faults);
# their other suites are the native run's, on the same code. Haswell (AVX2
# without SHA-NI): dispatch only, its rows run natively on every CPU this
# project is tested on. Under TCG the full suites took 190 s of a CI run
# that must stay under 20 minutes.
QEMU_CTEST_qemu64 = -R '^test_(api|vectors)(\.|$$)'
QEMU_CTEST_Nehalem = $(QEMU_CTEST_qemu64)
QEMU_CTEST_Haswell = -R '^test_api(\.|$$)'
FUZZ_SECONDS ?= 60

.PHONY: all run build test test-python test-asan test-msan test-wipe-stack test-qemu test-arm test-cross test-valgrind test-simde fuzz bench clean

# The main job: build, check every backend against NIST's answers (a
# summary; --self-test=verbose for a line per backend), and a one-screen
# speed report next to OpenSSL on this machine (fastsha-bench --quick).
all: run

build:
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

run: build
	build/release/tools/fastsha --self-test
	build/release/tools/fastsha-bench --quick

test: build
	ctest --preset release -j $(JOBS)
	$(MAKE) test-python

# The Python binding (python/, docs/python.md): pip builds the abi3 wheel
# once from this tree (scikit-build-core runs this CMake build, warnings as
# errors) and installs it, with the pinned test tools, in a venv under
# build/; then pytest on every core (pytest-xdist), whose fresh-venv test
# installs the same wheel again.
# PYTHON is any CPython >= 3.11 (Debian: python3-venv and python3-dev).
PYTHON ?= python3
PYDIR ?= build/python
PYVENV = $(PYDIR)/venv

test-python:
	test -x $(PYVENV)/bin/python || $(PYTHON) -m venv $(PYVENV)
	$(PYVENV)/bin/python -m pip install -q -r python/tests/requirements.txt
	rm -rf $(PYDIR)/wheelhouse
	$(PYVENV)/bin/python -m pip wheel -q --no-deps -w $(PYDIR)/wheelhouse \
		--config-settings=build-dir=$(PYDIR)/cmake \
		--config-settings=cmake.define.FASTSHA_WERROR=ON .
	$(PYVENV)/bin/python -m pip install -q --force-reinstall --no-deps $(PYDIR)/wheelhouse/fastsha-*.whl
	FASTSHA_WHEEL="$$(echo $(CURDIR)/$(PYDIR)/wheelhouse/fastsha-*.whl)" \
		$(PYVENV)/bin/python -m pytest -q -rs -n $(JOBS) python/tests

# Configure, build and test one preset of CMakePresets.json.
preset-%:
	cmake --preset $*
	cmake --build --preset $* -j $(JOBS)
	ctest --preset $* -j $(JOBS)

# AddressSanitizer + UndefinedBehaviorSanitizer, built with clang and
# libFuzzer's coverage instrumentation, which make fuzz's targets need: one
# sanitizer build serves both (a GCC sanitizer build and a clang fuzz build
# took about 200 s of CI between them; the one build about 105 s, its tests
# as fast as GCC's within the machine's noise). GCC's warnings are the
# release and cross builds'. Every test but those
# labelled slow-backend (the command's per-backend runs under portable and
# reference only, its GNU comparisons as fastsha and as sha256sum, the
# SHA1DC tests under portable) and test_large (its 13 GiB of zeros under
# the chosen row would take minutes with the sanitizers; the paths past
# 4 GiB are the engine's length arithmetic, which the release run checks)
# and test_guard (messages against PROT_NONE pages: a read past the input
# faults with or without the sanitizers, and the release and i686 runs put
# every row through it; here it cost about 29 s, 59 CPU-s, and ASan's
# redzones check the clang build's reads in every other test).
# FASTSHA_TEST_CLI_SAMPLE=3: the 200 MiB file-race suite (cli_changing_big)
# runs one in 3 of its reads, every scenario and configuration among them
# (all 60 took a minute under the sanitizers), and the command's random
# --check lists against GNU's (cli_compat_fuzz) a third of theirs (the
# parser has its own libFuzzer target under ASan in make fuzz);
# FASTSHA_TEST_SHA1DC_SAMPLE=8: the colliding shattered files hashed whole
# at one in 8 of their split points (48 s under portable with clang's
# instrumentation; the release run takes every one on every row).
test-asan: preset-asan

# MemorySanitizer (clang, origins tracked): reads of uninitialised memory
# in the library, the C tests and the command, which ASan and valgrind
# (branches and addresses only) let pass. Not in CI. Every test but the
# "slow-backend" and "large" ones, at test-asan's samples; the bench is
# built without OpenSSL (an uninstrumented libcrypto would stop it). The
# command's io_uring reads are kernel writes MSan cannot see: cli_uring.c
# marks their buffers initialised in this build. On 2 shared cores about
# 25 s to build, 4.5 min of library tests and 2.5 min of the command's.
test-msan: preset-msan

# The library built with FASTSHA_WIPE_STACK (HMAC and HKDF clear the stack
# their work used, off by default for its cost: docs/mac.md), and
# test_mac_residue and test_mac under every backend: the residue test then
# asserts every keyed call, where the release run asserts PBKDF2's alone.
# The library and the two tests only (no command).
test-wipe-stack: preset-wipe

# The library and its per-backend tests cross-built for AArch64 and run
# under qemu-aarch64 (needs gcc-aarch64-linux-gnu and qemu-user) on the
# ARMv8 rows (the portable and reference rows are the same C as the native
# run's, which runs them all: 88 s of CPU under qemu for nothing new), with
# the API tests; then the API tests on a CPU without the SHA512 and SHA3
# hwcaps, where SHA-512 and the Keccak family fall back to portable
# (docs/platforms.md).
test-arm: preset-aarch64
	ctest --preset aarch64-fallback -j $(JOBS)

# The other machines (docs/platforms.md): big-endian s390x and ppc64 (as
# POWER8 and as POWER7, one build), ppc64le as POWER8, each cross-built and
# its per-backend and API tests run under qemu-user; and 32-bit x86
# (gcc -m32), every test run natively with the x86 backends built but those
# labelled large (test_large skips there anyway: no buffer past 4 GiB; the
# colliding files' SHA1DC tests add nothing 32-bit to the release run's)
# and embed (embed_consumer: CMake's handling of a project taken into
# another, the same for every target, about 60 s with its -m32 builds),
# cli_changing_big (200 MiB races, nothing 32-bit in them; the smaller
# changing-file cases run), the command's per-backend runs (the kernels'
# 32-bit builds are the per-backend tests'), every suite's repeat under
# each GNU tool's name (the run as fastsha stays) and the
# option, progress-bar, changing-tree and emulated-CPU suites (nothing
# 32-bit in them; about 30 s of CI), and the SHA-3 commands against hashlib
# (27 s: test_sha3 checks the 32-bit Keccak rows, cli_keccak_k12 and the
# cksum suites the command), and the Keccak engine's guard-page test but on
# portable. s390x runs dispatch and the NIST answers of its rows: they are
# the portable C that ppc64's big-endian run puts through every
# per-backend test; and the install test, its consumers built with the
# cross toolchain and run under qemu (about 1 s). ppc64le runs the POWER8
# rows' per-backend tests and the API tests (its portable rows are the
# native run's, little-endian too); it and AArch64 (test-arm) leave
# streaming and threads to the native and ppc64 runs: the engine's
# splitting is the same C everywhere, and their kernels' block counts and
# reads are test_vectors' and test_guard's.
# The i686 run leaves out cli_err_output and cli_err_open: they run GNU's
# tools under the fault shim, which is built 32-bit there and cannot be
# preloaded into the host's 64-bit sha256sum (the native run has them).
# Needs
# gcc-s390x-linux-gnu, gcc-powerpc64-linux-gnu, gcc-powerpc64le-linux-gnu,
# gcc-12-multilib, libc6-dev-i386 and qemu-user.
test-cross:
	$(MAKE) preset-s390x
	cmake --preset ppc64
	cmake --build --preset ppc64 -j $(JOBS)
	ctest --preset ppc64-power8 -j $(JOBS)
	ctest --preset ppc64-power7 -j $(JOBS)
	$(MAKE) preset-ppc64le
	$(MAKE) preset-i686

test-valgrind: preset-valgrind

# The AVX-512 rows' results on a CPU without AVX-512 (this machine and CI's,
# where the release run only skips them): the simde preset builds the files
# made with -mavx512f against SIMDe's emulated intrinsics (clang;
# cmake/simde/immintrin.h), everything else natively, and the library
# reports AVX-512 on top of the CPU's bits (FASTSHA_SIMDE_AVX512, a
# development build, never installed). Results only, no speed, and nothing
# of what real AVX-512 hardware could get wrong (docs/platforms.md). Needs
# clang and libsimde-dev. The simde test preset runs every test of every
# AVX-512 row (vectors, streaming, guard pages, threads, test_large,
# batches, HMAC/PBKDF2 and their batches, the command's -B runs), every
# SHA1DC test (the SHA-NI rows' SHA1DC reaches AVX-512's filter here), the
# auto-dispatched batch and HMAC tests and the API tests; then simde-novbmi
# the avx512_x16 row's SHA1DC again without VBMI (FASTSHA_SIMDE_HIDE), on
# the plain AVX-512 filter. It runs the AVX-512 Keccak rows' tests too
# (in release builds since 0.3.9, natively on AVX-512 CPUs), and the
# command's SHA-3 and KangarooTwelve tests, whose batches take avx512_x8
# here. Left out: the rows that are native code here (the release run's,
# on the same sources) and the command's other suites. The colliding
# files at one in 8 of their split points (FASTSHA_TEST_SHA1DC_SAMPLE, as
# test-asan): whole, the emulated row took 37 s of them. On 2 cores the
# whole suite took 221 s after a 30 s build; this 116 s, build included,
# 133 s with the colliding files present (tests/fetch_sha1dc_files.sh).
# Last, tools/simde-check/run.sh calls the AVX-512 Keccak rows' kernels
# directly against portable's at every rate and alignment, and checks the
# bounds of every load and store (24 s; tools/simde-check/README.md).
test-simde:
	cmake --preset simde
	cmake --build --preset simde -j $(JOBS)
	ctest --preset simde -j $(JOBS)
	ctest --preset simde-novbmi -j $(JOBS)
	bash tools/simde-check/run.sh

# The API tests and NIST answers on emulated CPUs: SSE2 only, SSSE3 without
# AVX, AVX2 without SHA-NI. Dispatch must not pick what the CPU lacks. The
# release build's tests, each run under qemu-x86_64 by itself
# (FASTSHA_TEST_EMULATOR, tests/testutil.h): no second build.
test-qemu: build
	$(foreach cpu,$(QEMU_CPUS),echo "== QEMU_CPU=$(cpu)" && \
		QEMU_CPU=$(cpu) FASTSHA_TEST_EMULATOR=qemu-x86_64 \
		FASTSHA_EXPECT_AUTO="$(QEMU_EXPECT_$(cpu))" \
		ctest --preset release -j $(JOBS) $(QEMU_CTEST_$(cpu)) && ) true

# libFuzzer (needs clang and libclang-rt-14-dev), FUZZ_SECONDS shared by
# the three targets, a third each: fuzz_digest, differential (every
# algorithm and backend this CPU runs against OpenSSL and portable),
# fuzz_mac, HMAC, PBKDF2 and HKDF against OpenSSL's (every backend too),
# and fuzz_check, the --check list parser (docs/check.md). They are built
# in the sanitizer build (the asan preset: clang, ASan + UBSan, libFuzzer's
# coverage in everything), so after make test-asan nothing is compiled
# again. New inputs go to build/asan/corpus{,_mac,_check}, the seeds in
# tests/fuzz/corpus{,_mac,_check} are only read; a finding is saved in
# build/asan/crashes/ and fails the target.
FUZZ_FLAGS = -max_total_time=$$(( ($(FUZZ_SECONDS) + 2) / 3 )) -timeout=10 -print_final_stats=1 \
	-artifact_prefix=build/asan/crashes/
fuzz:
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS) --target fuzz_digest fuzz_mac fuzz_check
	mkdir -p build/asan/corpus build/asan/corpus_mac build/asan/corpus_check build/asan/crashes
	build/asan/tests/fuzz/fuzz_digest $(FUZZ_FLAGS) -max_len=4096 \
		build/asan/corpus tests/fuzz/corpus
	build/asan/tests/fuzz/fuzz_mac $(FUZZ_FLAGS) -max_len=1024 \
		build/asan/corpus_mac tests/fuzz/corpus_mac
	build/asan/tests/fuzz/fuzz_check $(FUZZ_FLAGS) -max_len=4096 \
		build/asan/corpus_check tests/fuzz/corpus_check

# Every backend this CPU runs against OpenSSL (the tables behind `make`'s
# one-screen report): docs/benchmarks.md.
bench: build
	build/release/tools/fastsha-bench --all

clean:
	rm -rf build
