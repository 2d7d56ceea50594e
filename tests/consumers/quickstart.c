/* A C program using chesscore (C99; header_c89.c checks the header alone as C89). */
#include <stdio.h>
#include "chesscore.h"

int main(void) {
    ChessPosition pos;                   /* 9216 bytes, caller-owned, memcpy to copy */
    ChessMoveList list;
    ChessUndo undo;
    ChessMove move;
    ChessStatus s;
    uint64_t nodes;
    char fen[CHESS_FEN_MAX];

    s = chess_setFromFEN(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    if (s != CHESS_OK) {
        printf("bad FEN: %s\n", chess_statusMessage(s));
        return 1;
    }
    chess_generateLegalMoves(&pos, &list);
    printf("chesscore %s: %u legal moves\n", chess_version(), (unsigned)list.count);

    chess_moveFromUci(&pos, "e2a6", &move);
    s = chess_makeMove(&pos, move, &undo);          /* checked: refuses an illegal value */
    if (s != CHESS_OK) puts(chess_statusMessage(s));
    chess_toFEN(&pos, fen, sizeof fen);
    printf("after e2a6: %s\n", fen);
    chess_unmakeMove(&pos, move, &undo);

    s = chess_makeMove(&pos, 0, &undo);             /* 0 is never a legal move */
    printf("move 0: %s\n", chess_statusMessage(s));

    chess_perft(&pos, 3, &nodes);
    printf("perft 3: %llu\n", (unsigned long long)nodes);
    return nodes == 97862 && list.count == 48 ? 0 : 1;
}
