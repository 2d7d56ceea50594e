# Cross-compiling chesscore for Windows x86-64 with mingw-w64 (Debian: apt-get install
# mingw-w64; rustup target add x86_64-pc-windows-gnu):
#
#   cmake -S . -B build/windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake
#
# cargo builds the library for CHESSCORE_CARGO_TARGET (x86_64-pc-windows-gnu; rustc links with
# x86_64-w64-mingw32-gcc). When wine is installed it is the emulator that ctest runs the C
# suite through (scripts/cross-windows); -DCMAKE_CROSSCOMPILING_EMULATOR= (empty) turns that off.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)

set(CHESSCORE_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "The mingw-w64 tools' prefix")
set(CMAKE_C_COMPILER ${CHESSCORE_MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${CHESSCORE_MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${CHESSCORE_MINGW_PREFIX}-windres)
find_program(CMAKE_AR NAMES ${CHESSCORE_MINGW_PREFIX}-ar)
find_program(CMAKE_RANLIB NAMES ${CHESSCORE_MINGW_PREFIX}-ranlib)
find_program(CMAKE_STRIP NAMES ${CHESSCORE_MINGW_PREFIX}-strip)
find_program(CMAKE_OBJDUMP NAMES ${CHESSCORE_MINGW_PREFIX}-objdump)
find_program(CMAKE_DLLTOOL NAMES ${CHESSCORE_MINGW_PREFIX}-dlltool)

set(CHESSCORE_CARGO_TARGET x86_64-pc-windows-gnu CACHE STRING "cargo --target for the library")

set(CMAKE_FIND_ROOT_PATH /usr/${CHESSCORE_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Packages: also outside the mingw root, so that -DCMAKE_PREFIX_PATH=<a cross-installed prefix>
# finds chesscoreConfig.cmake.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(CHESSCORE_WINE NAMES wine64 wine)
  if(CHESSCORE_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${CHESSCORE_WINE}")
  endif()
endif()
