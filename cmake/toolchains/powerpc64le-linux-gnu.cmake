# SPDX-License-Identifier: MIT
# Cross build for little-endian 64-bit POWER Linux (ELFv2, POWER8 and later)
# with Debian's gcc-powerpc64le-linux-gnu; the tests run under qemu-ppc64le
# with the cross C library as its sysroot and QEMU_CPU=power8 (the
# ppc64le test preset).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le;-L;/usr/powerpc64le-linux-gnu)
# Libraries, headers and packages from the cross sysroot only, so the host's
# x86 libcrypto is never picked up; programs (cmake, ninja) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64le-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
