# Cross build for Linux aarch64 with Debian's cross compiler (gcc-aarch64-linux-gnu), the C
# suite run by ctest under qemu-user (qemu-user). scripts/cross-aarch64 uses it:
#
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
#   cmake --build build/aarch64 -j2 && ctest --test-dir build/aarch64 -j2
#
# The Rust library is built by cargo for aarch64-unknown-linux-gnu (rustup target add it),
# linked by the C compiler below, in the lean `cross` profile unless
# -DCHESSCORE_CARGO_PROFILE=release.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CHESSCORE_AARCH64_PREFIX aarch64-linux-gnu CACHE STRING "The cross tools' prefix")
set(CMAKE_C_COMPILER ${CHESSCORE_AARCH64_PREFIX}-gcc)
# Where qemu finds the target's loader and libc (Debian: /usr/aarch64-linux-gnu).
set(CHESSCORE_AARCH64_SYSROOT /usr/${CHESSCORE_AARCH64_PREFIX} CACHE PATH "The target's libc")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L ${CHESSCORE_AARCH64_SYSROOT})

set(CMAKE_FIND_ROOT_PATH ${CHESSCORE_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CHESSCORE_CARGO_TARGET aarch64-unknown-linux-gnu CACHE STRING "cargo --target")
set(CHESSCORE_CARGO_PROFILE cross CACHE STRING "cargo --profile")
