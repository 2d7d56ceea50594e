# Cross-compiled on Linux with mingw-w64 (Debian: apt-get install mingw-w64; then
# rustup target add x86_64-pc-windows-gnu). PREFIX: any directory, to copy to Windows.
cmake -S . -B build/windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake
cmake --build build/windows --target chesscore_cargo    # the library only (without --target: the C suite too)
cmake --install build/windows --prefix "$PREFIX"
