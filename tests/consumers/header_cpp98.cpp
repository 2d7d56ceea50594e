// The header alone, compiled as C++98 with -pedantic-errors (the consumer projects build it).
#include "chesscore.h"

int chesscore_header_cpp98() { return CHESS_OK == 0 ? 1 : 0; }
