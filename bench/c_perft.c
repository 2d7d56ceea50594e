/* chess_perft from C, for scripts/perft-instructions --c-abi: `c_perft FEN DEPTH`. */
#include <stdio.h>
#include <stdlib.h>

#include "chesscore.h"

int main(int argc, char **argv)
{
    static ChessPosition pos;
    uint64_t nodes = 0;
    if (argc != 3 || chess_setFromFEN(&pos, argv[1]) != CHESS_OK) {
        fprintf(stderr, "usage: c_perft FEN DEPTH\n");
        return 2;
    }
    if (chess_perft(&pos, (uint32_t)strtoul(argv[2], NULL, 10), &nodes) != CHESS_OK) {
        return 3;
    }
    printf("Nodes searched: %llu\n", (unsigned long long)nodes);
    return 0;
}
