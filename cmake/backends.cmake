# SPDX-License-Identifier: MIT
#
# The one build-side list of SHA-1 backends: source, architecture, and the
# ISA flags for that one source file (never for the whole target). Each row
# also defines FSHA1_HAVE_<NAME> for the dispatch table and registers the
# name for the per-backend tests. -DFASTSHA_DISABLE_BACKENDS="avx2;ssse3"
# leaves backends out at build time.
#
#   fastsha_sha1_backend(NAME SOURCE ARCH FLAGS...)
#   ARCH: any | x86_64 | aarch64

include(CheckCCompilerFlag)

set(FASTSHA_DISABLE_BACKENDS "" CACHE STRING "SHA-1 backends to leave out (a list of names)")
set(FASTSHA_SHA1_SOURCES "")
set(FASTSHA_SHA1_BACKEND_NAMES "")
set(FASTSHA_SHA1_DEFINES "")

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(FASTSHA_ARCH x86_64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(FASTSHA_ARCH aarch64)
else()
  set(FASTSHA_ARCH other)
endif()

function(fastsha_sha1_backend name source arch)
  set(flags ${ARGN})
  if(NOT arch STREQUAL "any" AND NOT arch STREQUAL FASTSHA_ARCH)
    return()
  endif()
  if(name IN_LIST FASTSHA_DISABLE_BACKENDS)
    message(STATUS "fastsha: backend ${name} disabled")
    return()
  endif()
  if(flags)
    string(MAKE_C_IDENTIFIER "FASTSHA_CC_HAS_${name}" probe)
    set(CMAKE_REQUIRED_FLAGS "${flags}")
    string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${flags}")
    check_c_compiler_flag("" ${probe})
    if(NOT ${probe})
      message(STATUS "fastsha: compiler lacks ${flags}; backend ${name} not built")
      return()
    endif()
    set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "${flags}")
  endif()
  string(TOUPPER "${name}" upper)
  set(FASTSHA_SHA1_SOURCES ${FASTSHA_SHA1_SOURCES} ${source} PARENT_SCOPE)
  set(FASTSHA_SHA1_BACKEND_NAMES ${FASTSHA_SHA1_BACKEND_NAMES} ${name} PARENT_SCOPE)
  set(FASTSHA_SHA1_DEFINES ${FASTSHA_SHA1_DEFINES} FSHA1_HAVE_${upper} PARENT_SCOPE)
endfunction()

#                    name          source                            arch    flags
fastsha_sha1_backend(reference     src/sha1/sha1_reference.c         any)
fastsha_sha1_backend(portable      src/sha1/sha1_portable.c          any)
fastsha_sha1_backend(shani         src/sha1/x86/sha1_shani.c         x86_64  -msha -msse4.1 -mssse3)
fastsha_sha1_backend(avx2          src/sha1/x86/sha1_avx2.c          x86_64  -mavx2 -mbmi -mbmi2)
fastsha_sha1_backend(avx           src/sha1/x86/sha1_avx.c           x86_64  -mavx)
fastsha_sha1_backend(ssse3         src/sha1/x86/sha1_ssse3.c         x86_64  -mssse3)
fastsha_sha1_backend(armv8         src/sha1/arm/sha1_armv8.c         aarch64 -march=armv8-a+crypto)
