export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
cc -std=c99 -pedantic-errors quickstart.c -o quickstart $(pkg-config --cflags --libs chesscore) \
   -Wl,-rpath,"$(pkg-config --variable=libdir chesscore)"
./quickstart
