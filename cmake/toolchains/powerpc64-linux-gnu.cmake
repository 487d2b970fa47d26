# SPDX-License-Identifier: MIT
# Cross build for big-endian 64-bit POWER Linux (ELFv1) with Debian's
# gcc-powerpc64-linux-gnu; the tests run under qemu-ppc64 with the cross C
# library as its sysroot. The emulated CPU is chosen per run with QEMU_CPU
# (the ppc64-power8 and ppc64-power7 test presets), so one build serves both.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64)
set(CMAKE_C_COMPILER powerpc64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64;-L;/usr/powerpc64-linux-gnu)
# Libraries, headers and packages from the cross sysroot only, so the host's
# x86 libcrypto is never picked up; programs (cmake, ninja) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
