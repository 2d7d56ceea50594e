# mingw-w64, from the directory of quickstart.c: -lchesscore links lib/libchesscore.dll.a,
# and the program finds chesscore.dll beside it.
x86_64-w64-mingw32-gcc -std=c99 quickstart.c -o quickstart.exe -I"$PREFIX/include" -L"$PREFIX/lib" -lchesscore
cp "$PREFIX/bin/chesscore.dll" .
