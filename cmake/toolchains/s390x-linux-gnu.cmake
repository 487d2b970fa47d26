# SPDX-License-Identifier: MIT
# Cross build for IBM Z (s390x, big-endian) Linux with Debian's
# gcc-s390x-linux-gnu; the tests run under qemu-s390x with the cross C
# library as its sysroot. No backend beyond portable and reference: this is
# the big-endian check of the byte-order code (src/core/bytes.h).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x;-L;/usr/s390x-linux-gnu)
# Libraries, headers and packages from the cross sysroot only, so the host's
# x86 libcrypto is never picked up; programs (cmake, ninja) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/s390x-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
