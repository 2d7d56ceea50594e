# From the checkout. PREFIX: /usr/local (with sudo), $HOME/.local, or any directory.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build --target chesscore_cargo    # the library only (without --target: the C suite too)
cmake --install build --prefix "$PREFIX"
