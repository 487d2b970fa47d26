# SPDX-License-Identifier: MIT
# 32-bit x86 Linux built on an x86_64 Debian host with gcc -m32 (packages
# gcc-12-multilib and libc6-dev-i386; not the gcc-multilib metapackage, which
# conflicts with the cross compilers). The programs run natively, so no
# emulator. The x86 backends are built too (ARCH x86 in cmake/backends.cmake).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER gcc)
# The kernel's asm/ headers: Debian's gcc-multilib has /usr/include/asm
# link to the x86_64 ones (they serve both ABIs); searching that directory
# last does the same without the package.
set(CMAKE_C_FLAGS_INIT "-m32 -idirafter /usr/include/x86_64-linux-gnu")
set(CMAKE_EXE_LINKER_FLAGS_INIT -m32)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -m32)
set(CMAKE_MODULE_LINKER_FLAGS_INIT -m32)
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
# Only 32-bit libraries: the host's pkg-config would point find_package at
# the x86_64 libcrypto, which cannot link. Without an i386 libcrypto the
# bench builds without its OpenSSL columns.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /lib64)
