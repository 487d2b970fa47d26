# SPDX-License-Identifier: MIT
#
# The one build-side list of backends, for every family: source,
# architecture, and the ISA flags for that one source file (never for the
# whole target). Each row also defines FSHA_HAVE_<FAMILY>_<NAME> for the
# family's table and registers the name for the per-backend tests
# (FASTSHA_<FAMILY>_BACKEND_NAMES). -DFASTSHA_DISABLE_BACKENDS="avx2;sha256:ssse3"
# leaves backends out at build time: a bare name in every family, or
# family:name in one.
#
#   fastsha_backend(FAMILY NAME SOURCE ARCH FLAGS...)
#   FAMILY: sha1 | sha256 | sha512 | keccak
#   ARCH:   any | x86 (x86_64 or 32-bit i686) | x86_64 (64-bit only) | aarch64
#           | ppc (ppc64 or ppc64le) | ppc64 (big-endian only) | ppc64le

include(CheckCCompilerFlag)

set(FASTSHA_DISABLE_BACKENDS "" CACHE STRING "backends to leave out: names, or family:name")
# A development check, never for an installed library (docs/platforms.md, make
# test-simde): the files built with -mavx512f are built instead with no ISA
# flags against SIMDe's portable intrinsics (cmake/simde/immintrin.h), and
# the library reports AVX-512 on top of the real CPU's bits (src/cpu/cpu.c),
# so the tests run every AVX-512 row, and compare it with portable, on a
# CPU without AVX-512. Results only: the emulated rows say nothing of speed.
option(FASTSHA_SIMDE_AVX512 "Development check: AVX-512 rows on SIMDe's emulated intrinsics (never install)" OFF)
if(FASTSHA_SIMDE_AVX512)
  find_path(FASTSHA_SIMDE_INCLUDE simde/x86/avx512.h)
  if(NOT FASTSHA_SIMDE_INCLUDE)
    message(FATAL_ERROR "FASTSHA_SIMDE_AVX512 needs SIMDe's headers (Debian: libsimde-dev)")
  endif()
  message(STATUS "fastsha: AVX-512 rows on SIMDe's emulation (a development check, not for installing)")
endif()
set(FASTSHA_FAMILIES sha1 sha256 sha512 keccak)
# The Merkle-Damgard families (SHA-1, SHA-2): the tests written for their
# engine (bit-length vectors, CAVP files) run on these.
set(FASTSHA_MD_FAMILIES sha1 sha256 sha512)
set(FASTSHA_BACKEND_SOURCES "")
set(FASTSHA_BACKEND_DEFINES "")
if(FASTSHA_SIMDE_AVX512)
  # For the whole library: src/cpu/cpu.c reports the emulated bits, the
  # AVX-512 files take their few fallbacks under it.
  set(FASTSHA_BACKEND_DEFINES FSHA_SIMDE_AVX512)
endif()
foreach(fam ${FASTSHA_FAMILIES})
  string(TOUPPER ${fam} FAM)
  set(FASTSHA_${FAM}_BACKEND_NAMES "")
  set(FASTSHA_${FAM}_LANE_NAMES "")
endforeach()

# The ARCH values this build answers to. A 32-bit build on an x86_64 host
# (gcc -m32) is i686 whatever CMAKE_SYSTEM_PROCESSOR says.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86|x86)$")
  if(CMAKE_SIZEOF_VOID_P EQUAL 8)
    set(FASTSHA_ARCH x86_64 x86)
  else()
    set(FASTSHA_ARCH i686 x86)
  endif()
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(FASTSHA_ARCH aarch64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(ppc64|ppc64le|powerpc64|powerpc64le)$")
  if(CMAKE_C_BYTE_ORDER STREQUAL "BIG_ENDIAN")
    set(FASTSHA_ARCH ppc64 ppc)
  else()
    set(FASTSHA_ARCH ppc64le ppc)
  endif()
else()
  set(FASTSHA_ARCH other)
endif()

# Whether @source, of architecture @arch, is built here with its ISA flags
# (ARGN; they then apply to that file only): @ok is set TRUE or FALSE.
function(fastsha_buildable ok what source arch)
  set(flags ${ARGN})
  set(${ok} FALSE PARENT_SCOPE)
  if(NOT arch STREQUAL "any" AND NOT arch IN_LIST FASTSHA_ARCH)
    return()
  endif()
  if(flags)
    # One probe per distinct flag set, shared by the rows that use it.
    string(MAKE_C_IDENTIFIER "FASTSHA_CC_HAS_${flags}" probe)
    string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${flags}")
    check_c_compiler_flag("" ${probe})
    if(NOT ${probe})
      message(STATUS "fastsha: compiler lacks ${flags}; ${what} not built")
      return()
    endif()
    if(FASTSHA_SIMDE_AVX512 AND "-mavx512f" IN_LIST flags)
      # The stand-in <immintrin.h> first on this file's path, as a system
      # directory (SIMDe's headers warn, the project's code must not), and
      # no ISA flags: SIMDe's only native base is then SSE2. -Wno-psabi: a
      # static function here passes SIMDe's 64-byte vectors, which without
      # AVX-512 go in memory; clang warns of the ABI change, which no call
      # sees (none of these files' extern functions takes a vector).
      set(simde -isystem ${PROJECT_SOURCE_DIR}/cmake/simde)
      if(NOT FASTSHA_SIMDE_INCLUDE IN_LIST CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES)
        list(APPEND simde -isystem ${FASTSHA_SIMDE_INCLUDE})
      endif()
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "${simde};-Wno-psabi")
    else()
      set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "${flags}")
    endif()
  endif()
  set(${ok} TRUE PARENT_SCOPE)
endfunction()

function(fastsha_backend family name source arch)
  string(TOUPPER "${family}" FAM)
  if(name IN_LIST FASTSHA_DISABLE_BACKENDS OR "${family}:${name}" IN_LIST FASTSHA_DISABLE_BACKENDS)
    message(STATUS "fastsha: backend ${family}:${name} disabled")
    return()
  endif()
  fastsha_buildable(ok "backend ${family}:${name}" ${source} ${arch} ${ARGN})
  if(NOT ok)
    return()
  endif()
  string(TOUPPER "${name}" upper)
  set(FASTSHA_BACKEND_SOURCES ${FASTSHA_BACKEND_SOURCES} ${source} PARENT_SCOPE)
  set(FASTSHA_${FAM}_BACKEND_NAMES ${FASTSHA_${FAM}_BACKEND_NAMES} ${name} PARENT_SCOPE)
  set(FASTSHA_BACKEND_DEFINES ${FASTSHA_BACKEND_DEFINES} FSHA_HAVE_${FAM}_${upper} PARENT_SCOPE)
endfunction()

# A part of some rows that is not a row itself (SHA1DC's SIMD filters): its
# source with its ISA flags, and FSHA_HAVE_<FAMILY>_PART_<NAME> for the rows'
# files, which name it only when it is built.
function(fastsha_backend_part family name source arch)
  string(TOUPPER "${family}" FAM)
  string(TOUPPER "${name}" upper)
  fastsha_buildable(ok "${family} part ${name}" ${source} ${arch} ${ARGN})
  if(NOT ok)
    return()
  endif()
  set(FASTSHA_BACKEND_SOURCES ${FASTSHA_BACKEND_SOURCES} ${source} PARENT_SCOPE)
  set(FASTSHA_BACKEND_DEFINES ${FASTSHA_BACKEND_DEFINES} FSHA_HAVE_${FAM}_PART_${upper} PARENT_SCOPE)
endfunction()

# Another single-message row defined in the source of an already listed row
# BASE of the same family (built only with it): its name for the
# per-backend tests and FSHA_HAVE_<FAMILY>_<NAME> for the table. The row's
# file says what else it needs.
function(fastsha_backend_also family name base arch)
  string(TOUPPER "${family}" FAM)
  string(TOUPPER "${name}" upper)
  string(TOUPPER "${base}" bupper)
  if(name IN_LIST FASTSHA_DISABLE_BACKENDS OR "${family}:${name}" IN_LIST FASTSHA_DISABLE_BACKENDS)
    message(STATUS "fastsha: backend ${family}:${name} disabled")
    return()
  endif()
  if(NOT arch IN_LIST FASTSHA_ARCH OR NOT "FSHA_HAVE_${FAM}_${bupper}" IN_LIST FASTSHA_BACKEND_DEFINES)
    return()
  endif()
  set(FASTSHA_${FAM}_BACKEND_NAMES ${FASTSHA_${FAM}_BACKEND_NAMES} ${name} PARENT_SCOPE)
  set(FASTSHA_BACKEND_DEFINES ${FASTSHA_BACKEND_DEFINES} FSHA_HAVE_${FAM}_${upper} PARENT_SCOPE)
endfunction()

# A lane row (multi-buffer) defined in an already listed source: named for
# the batch tests (FASTSHA_<FAMILY>_LANE_NAMES), which run the scheduler on
# it. Its single-message function is another row's code, tested there.
function(fastsha_backend_row family name)
  string(TOUPPER "${family}" FAM)
  set(FASTSHA_${FAM}_LANE_NAMES ${FASTSHA_${FAM}_LANE_NAMES} ${name} PARENT_SCOPE)
endfunction()

# The reference and portable rows are always built: the tables name them
# unconditionally (portable is the fallback, reference what tests compare with).
# A file may hold more than one row; fastsha_backend_row() names the others
# (portable_x4, the scheduler's test row, is in each portable file).
#               family  name        source                              arch    flags
fastsha_backend(sha1    reference   src/sha1/sha1_reference.c           any)
fastsha_backend(sha1    portable    src/sha1/sha1_portable.c            any)
fastsha_backend_row(sha1 portable_x4)
fastsha_backend(sha1    shani       src/sha1/x86/sha1_shani.c           x86     -msha -msse4.1 -mssse3)
# shani's rounds with parts of the schedule on AVX-512VL. It and its chain
# kernels need the real SHA extensions beside AVX-512VL, which the SIMDe
# development build cannot give a file it builds without ISA flags: not in
# that build.
if(NOT FASTSHA_SIMDE_AVX512)
  fastsha_backend(sha1  shani_avx512 src/sha1/x86/sha1_shani_avx512.c  x86_64  -msha -msse4.1 -mssse3 -mavx512f -mavx512vl)
endif()
fastsha_backend(sha1    shani_x4    src/sha1/x86/sha1_shani_x4.c        x86     -msha -msse4.1 -mssse3)
fastsha_backend(sha1    shani_x2    src/sha1/x86/sha1_shani_x2.c        x86     -msha -msse4.1 -mssse3)
fastsha_backend(sha1    avx512_x16  src/sha1/x86/sha1_avx512_x16.c      x86_64  -mavx512f -mavx512bw)
fastsha_backend(sha1    avx2_x8     src/sha1/x86/sha1_avx2_x8.c         x86     -mavx2)
fastsha_backend(sha1    avx2        src/sha1/x86/sha1_avx2.c            x86     -mavx2 -mbmi -mbmi2)
fastsha_backend(sha1    avx         src/sha1/x86/sha1_avx.c             x86     -mavx)
fastsha_backend(sha1    ssse3       src/sha1/x86/sha1_ssse3.c           x86     -mssse3)
fastsha_backend(sha1    sse2        src/sha1/x86/sha1_sse2.c            x86     -msse2)
fastsha_backend(sha1    armv8       src/sha1/arm/sha1_armv8.c           aarch64 -march=armv8-a+crypto)
fastsha_backend(sha1    armv8_x2    src/sha1/arm/sha1_armv8_x2.c        aarch64 -march=armv8-a+crypto)
# SHA1DC's SIMD filters, named by the rows whose CPU bits cover them.
fastsha_backend_part(sha1 dc_avx2   src/sha1/x86/sha1dc_avx2.c          x86     -mavx2)
fastsha_backend_part(sha1 dc_sse2   src/sha1/x86/sha1dc_sse2.c          x86     -msse2)
fastsha_backend_part(sha1 dc_avx512 src/sha1/x86/sha1dc_avx512.c        x86_64  -mavx512f -mavx512bw)
fastsha_backend_part(sha1 dc_avx512vbmi src/sha1/x86/sha1dc_avx512vbmi.c x86_64 -mavx512f -mavx512bw -mavx512vbmi)
fastsha_backend_part(sha1 dc_pipe_avx2 src/sha1/x86/sha1dc_pipe_avx2.c x86   -msha -mavx2)
fastsha_backend_part(sha1 dc_neon   src/sha1/arm/sha1dc_neon.c          aarch64)
# PBKDF2's chain kernels of the shani and shani_avx512 rows (sha1_backends.c
# names them with those).
fastsha_backend_part(sha1 shani_chain src/sha1/x86/sha1_shani_chain.c   x86_64  -msha -msse4.1 -mssse3)
if("FSHA_HAVE_SHA1_SHANI_AVX512" IN_LIST FASTSHA_BACKEND_DEFINES)
  fastsha_backend_part(sha1 shani_avx512_chain src/sha1/x86/sha1_shani_avx512_chain.c x86_64 -msha -msse4.1 -mssse3 -mavx512f -mavx512vl)
endif()
# ... and avx512_x16's, with that row's flags.
fastsha_backend_part(sha1 avx512_x16_chain src/sha1/x86/sha1_avx512_x16_chain.c x86_64 -mavx512f -mavx512bw)

fastsha_backend(sha256  reference   src/sha256/sha256_reference.c       any)
fastsha_backend(sha256  portable    src/sha256/sha256_portable.c        any)
fastsha_backend_row(sha256 portable_x4)
fastsha_backend(sha256  shani       src/sha256/x86/sha256_shani.c       x86     -msha -mssse3)
if(NOT FASTSHA_SIMDE_AVX512) # as sha1's shani_avx512
  fastsha_backend(sha256 shani_avx512 src/sha256/x86/sha256_shani_avx512.c x86_64 -msha -mssse3 -mavx512f -mavx512vl)
endif()
fastsha_backend(sha256  shani_x3    src/sha256/x86/sha256_shani_x3.c    x86     -msha -mssse3)
fastsha_backend(sha256  shani_x2    src/sha256/x86/sha256_shani_x2.c    x86     -msha -mssse3)
fastsha_backend(sha256  avx2_x8     src/sha256/x86/sha256_avx2_x8.c     x86     -mavx2)
fastsha_backend(sha256  avx512_x16  src/sha256/x86/sha256_avx512_x16.c  x86_64  -mavx512f -mavx512bw)
fastsha_backend(sha256  avx2        src/sha256/x86/sha256_avx2.c        x86     -mavx2 -mbmi -mbmi2)
fastsha_backend(sha256  avx         src/sha256/x86/sha256_avx.c         x86     -mavx)
fastsha_backend(sha256  ssse3       src/sha256/x86/sha256_ssse3.c       x86     -mssse3)
fastsha_backend(sha256  armv8       src/sha256/arm/sha256_armv8.c       aarch64 -march=armv8-a+crypto)
fastsha_backend(sha256  armv8_x2    src/sha256/arm/sha256_armv8_x2.c    aarch64 -march=armv8-a+crypto)
fastsha_backend(sha256  power8      src/sha256/ppc/sha256_power8.c      ppc     -mcpu=power8)
# PBKDF2's chain kernels of the shani and shani_avx512 rows (sha256_backends.c
# names them with those).
fastsha_backend_part(sha256 shani_chain src/sha256/x86/sha256_shani_chain.c x86_64 -msha -mssse3)
if("FSHA_HAVE_SHA256_SHANI_AVX512" IN_LIST FASTSHA_BACKEND_DEFINES)
  fastsha_backend_part(sha256 shani_avx512_chain src/sha256/x86/sha256_shani_avx512_chain.c x86_64 -msha -mssse3 -mavx512f -mavx512vl)
endif()
# ... and avx512_x16's, with that row's flags.
fastsha_backend_part(sha256 avx512_x16_chain src/sha256/x86/sha256_avx512_x16_chain.c x86_64 -mavx512f -mavx512bw)

fastsha_backend(sha512  reference   src/sha512/sha512_reference.c       any)
fastsha_backend(sha512  portable    src/sha512/sha512_portable.c        any)
fastsha_backend_row(sha512 portable_x4)
fastsha_backend(sha512  avx512_x16  src/sha512/x86/sha512_avx512_x16.c  x86_64  -mavx512f -mavx512bw)
fastsha_backend(sha512  avx512_x8   src/sha512/x86/sha512_avx512_x8.c   x86_64  -mavx512f -mavx512bw)
fastsha_backend(sha512  avx2_x4     src/sha512/x86/sha512_avx2_x4.c     x86     -mavx2)
fastsha_backend(sha512  avx2        src/sha512/x86/sha512_avx2.c        x86     -mavx2 -mbmi -mbmi2)
# avx2's rounds with the schedule on AVX-512VL (inline assembly, so the
# file keeps avx2's flags). Not in the SIMDe build, which reports AVX-512
# on CPUs without it: these are real EVEX instructions.
if(NOT FASTSHA_SIMDE_AVX512)
  fastsha_backend_also(sha512 avx2_vl avx2 x86_64)
endif()
# PBKDF2's chain kernels of the avx2 row (sha512_backends.c names them with it).
fastsha_backend_part(sha512 avx2_chain src/sha512/x86/sha512_avx2_chain.c x86_64 -mavx2 -mbmi -mbmi2)
# GCC 12 has the SHA-512 intrinsics only under +sha3; the file uses no SHA3
# instruction (checked with objdump), so CPUs with SHA512 alone run it.
fastsha_backend(sha512  armv8       src/sha512/arm/sha512_armv8.c       aarch64 -march=armv8.2-a+sha3)
fastsha_backend(sha512  power8      src/sha512/ppc/sha512_power8.c      ppc     -mcpu=power8)

fastsha_backend(keccak  reference   src/keccak/keccak_reference.c       any)
fastsha_backend(keccak  portable    src/keccak/keccak_portable.c        any)
fastsha_backend_row(keccak portable_x4)
fastsha_backend(keccak  avx512_x8   src/keccak/x86/keccak_avx512_x8.c   x86_64  -mavx512f)
fastsha_backend(keccak  avx512      src/keccak/x86/keccak_avx512.c      x86_64  -mavx512f)
fastsha_backend(keccak  avx2_x4     src/keccak/x86/keccak_avx2_x4.c     x86     -mavx2)
fastsha_backend(keccak  avx2_x4s    src/keccak/x86/keccak_avx2_x4s.c    x86     -mavx2)
fastsha_backend(keccak  bmi2        src/keccak/keccak_bmi2.c            x86_64  -mbmi -mbmi2)
# AArch64 with the SHA3 instructions (eor3, rax1, xar, bcax: GCC has their
# intrinsics under +sha3); the rows need the SHA3 hwcap.
fastsha_backend(keccak  armv8_x2    src/keccak/arm/keccak_armv8_x2.c    aarch64 -march=armv8.2-a+sha3)
fastsha_backend(keccak  armv8       src/keccak/arm/keccak_armv8.c       aarch64 -march=armv8.2-a+sha3)
