/* The header alone, compiled as C89 with -pedantic-errors (the consumer projects build it). */
#include "chesscore.h"

int chesscore_header_c89(void) { return CHESSCORE_VERSION_MAJOR >= 0 && CHESS_OK == 0; }
