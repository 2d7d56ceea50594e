/*
 * The C ABI against an adversarial caller (issue 9), from C: forged undo records, corrupted
 * positions (every byte of the position's fields set to other values), en passant squares that
 * no legal capture can use, impossible checks. Built with the sanitizers too (scripts/sanitize),
 * so every byte the library reads or writes in caller memory is checked by ASan and UBSan.
 *
 * The contracts: a refused call leaves every byte of its inputs as they were; no call ends in
 * CHESS_ERR_INTERNAL; a record that does not belong to the last move is refused, or (a byte
 * that carries nothing) gives back exactly the position before the move.
 */
#include "common.h"

static ChessPosition pos, saved, other;

/* The byte offsets where two records differ. */
static int differing(const ChessUndo *a, const ChessUndo *b, int out[48])
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    int n = 0;
    for (int i = 0; i < (int)sizeof *a; i++) {
        if (x[i] != y[i]) {
            out[n++] = i;
        }
    }
    return n;
}

static void forged_clock(void)
{
    /* The same move from the same placement with clock 57: only the clock differs. */
    ChessUndo real, forged;
    ChessMove e4 = 0;
    SET_FEN(&pos, START_FEN);
    SET_FEN(&other, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 57 1");
    chess_moveFromUci(&pos, "e2e4", &e4);
    CHECK_STATUS(chess_makeMove(&pos, e4, &real), CHESS_OK, "e2e4");
    CHECK_STATUS(chess_makeMove(&other, e4, &forged), CHESS_OK, "e2e4 at clock 57");
    memcpy(&saved, &pos, sizeof pos);
    CHECK_STATUS(chess_unmakeMove(&pos, e4, &forged), CHESS_ERR_BAD_UNDO, "clock-57 record");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused unmake changed the position");
    CHECK_STATUS(chess_unmakeMove(&pos, e4, &real), CHESS_OK, "real record");
    char fen[CHESS_FEN_MAX];
    CHECK(strcmp(fen_of(&pos, fen), START_FEN) == 0, "unmade to \"%s\"", fen);
}

static void forged_null_en_passant(void)
{
    /* Two genuine null-move records that differ in the en passant square alone locate its
     * byte; h3 written into a null-move record of the start position must be refused. */
    ChessUndo with_ep, without_ep, real;
    int at[48];
    SET_FEN(&pos, "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 1");
    SET_FEN(&other, "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1");
    CHECK_STATUS(chess_makeNullMove(&pos, &with_ep), CHESS_OK, "null with h3");
    CHECK_STATUS(chess_makeNullMove(&other, &without_ep), CHESS_OK, "null without");
    int n = differing(&with_ep, &without_ep, at);
    CHECK(n == 1, "%d bytes differ between the two records", n);
    SET_FEN(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    CHECK_STATUS(chess_makeNullMove(&pos, &real), CHESS_OK, "null move");
    ChessUndo forged = real;
    ((unsigned char *)&forged)[at[0]] = ((const unsigned char *)&with_ep)[at[0]];
    memcpy(&saved, &pos, sizeof pos);
    CHECK_STATUS(chess_unmakeNullMove(&pos, &forged), CHESS_ERR_BAD_UNDO, "h3 record");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused null unmake changed the position");
    CHECK_STATUS(chess_unmakeNullMove(&pos, &real), CHESS_OK, "real null record");
}

/* Every single-byte forgery of every record of a game: refused with the position kept, or
 * accepted giving back exactly the position before the move. */
static void single_byte_forgeries(void)
{
    enum { PLIES = 16 };
    static ChessUndo undos[PLIES];
    static ChessMove moves[PLIES];
    static char fens[PLIES][CHESS_FEN_MAX];
    SET_FEN(&pos, KIWIPETE_FEN);
    Rng rng = rng_new(0x90F6);
    int n = 0;
    for (; n < PLIES; n++) {
        ChessMoveList list;
        chess_generateLegalMoves(&pos, &list);
        if (list.count == 0) {
            break;
        }
        moves[n] = list.moves[rng_below(&rng, list.count)];
        fen_of(&pos, fens[n]);
        CHECK_STATUS(chess_makeMove(&pos, moves[n], &undos[n]), CHESS_OK, "game move");
    }
    unsigned long accepted = 0, tried = 0;
    char fen[CHESS_FEN_MAX];
    for (int i = n - 1; i >= 0; i--) {
        for (int at = 0; at < (int)sizeof(ChessUndo); at++) {
            static const unsigned char flips[] = {0x01, 0x02, 0x08, 0x40, 0x80, 0xFF};
            for (size_t f = 0; f < sizeof flips; f++) {
                ChessUndo forged = undos[i];
                ((unsigned char *)&forged)[at] ^= flips[f];
                memcpy(&saved, &pos, sizeof pos);
                ChessStatus s = chess_unmakeMove(&pos, moves[i], &forged);
                tried++;
                if (s == CHESS_OK) {
                    accepted++;
                    CHECK(strcmp(fen_of(&pos, fen), fens[i]) == 0,
                          "byte %d ^ %#x accepted, giving \"%s\" instead of \"%s\"", at,
                          flips[f], fen, fens[i]);
                    ChessUndo again;
                    CHECK_STATUS(chess_makeMove(&pos, moves[i], &again), CHESS_OK, "remake");
                } else {
                    CHECK(s == CHESS_ERR_BAD_UNDO, "byte %d: %s", at, status_name(s));
                    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "byte %d: refused, changed", at);
                }
            }
        }
        CHECK_STATUS(chess_unmakeMove(&pos, moves[i], &undos[i]), CHESS_OK, "real record %d", i);
    }
    CHECK(strcmp(fen_of(&pos, fen), KIWIPETE_FEN) == 0, "back to \"%s\"", fen);
    /* Only the record's padding and unused tail carry nothing (15 of its 48 bytes in release
     * builds, where the state is 32 bytes). */
    CHECK(accepted * 3 < tried, "%lu of %lu forgeries accepted", accepted, tried);
    printf("single-byte forgeries: %lu tried, %lu harmless ones accepted\n", tried, accepted);
}

/* Every byte of the position's fields set to several values: every call
 * returns OK or an ordinary refusal, never CHESS_ERR_INTERNAL, and keeps the bytes when it
 * refuses; a checked make it accepts is taken back by its own record. */
static void corrupted_positions(void)
{
    ChessMove m = 0, castle = 0;
    SET_FEN(&other, KIWIPETE_FEN);
    chess_moveFromUci(&other, "e2a6", &m);
    chess_moveFromUci(&other, "e1g1", &castle);
    /* The fields follow the 8 KiB history and take about 330 bytes: the sweep covers them,
     * the last history entries and the start of the unused tail. */
    const size_t first = 8192 - 64, last = 8192 + 540;
    unsigned long runs = 0, accepted = 0;
    for (size_t at = first; at < last; at++) {
        static const unsigned char flips[] = {0x01, 0x04, 0x40, 0x80, 0xFF};
        for (size_t f = 0; f < sizeof flips; f++) {
            ChessUndo u;
            uint64_t nodes;
            ChessMoveList list;
            memcpy(&pos, &other, sizeof pos);
            ((unsigned char *)&pos)[at] ^= flips[f];
            memcpy(&saved, &pos, sizeof pos);
            runs++;
            ChessStatus s = chess_perft(&pos, 2, &nodes);
            CHECK(s == CHESS_OK || s == CHESS_ERR_INVALID_POSITION, "perft byte %zu: %s", at,
                  status_name(s));
            CHECK(memcmp(&saved, &pos, sizeof pos) == 0 || s == CHESS_OK,
                  "refused perft changed byte %zu", at);
            s = chess_generateLegalMoves(&pos, &list);
            CHECK(s == CHESS_OK || s == CHESS_ERR_INVALID_POSITION, "generate byte %zu: %s", at,
                  status_name(s));
            memcpy(&pos, &saved, sizeof pos);
            for (int k = 0; k < 2; k++) {
                ChessMove mv = k == 0 ? m : castle;
                s = chess_makeMove(&pos, mv, &u);
                if (s == CHESS_OK) {
                    accepted++;
                    CHECK_STATUS(chess_unmakeMove(&pos, mv, &u), CHESS_OK,
                                 "byte %zu ^ %#x: own record refused", at, flips[f]);
                } else {
                    CHECK(s == CHESS_ERR_INVALID_POSITION || s == CHESS_ERR_ILLEGAL_MOVE ||
                              s == CHESS_ERR_HISTORY_FULL,
                          "make byte %zu: %s", at, status_name(s));
                    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused make changed byte %zu",
                          at);
                }
                memcpy(&pos, &saved, sizeof pos);
            }
            s = chess_makeNullMove(&pos, &u);
            CHECK(s != CHESS_ERR_INTERNAL, "null move byte %zu", at);
            if (s == CHESS_OK) {
                CHECK_STATUS(chess_unmakeNullMove(&pos, &u), CHESS_OK, "null unmake %zu", at);
            }
        }
    }
    printf("corrupted positions: %lu, %lu checked makes accepted and unmade\n", runs, accepted);
}

static void equal_positions_hash_equal(void)
{
    /* The g5 pawn is pinned by the rook on g6: no legal capture on f6. */
    SET_FEN(&pos, "rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - f6 0 22");
    SET_FEN(&other, "rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - - 0 22");
    CHECK(chess_hash(&pos) == chess_hash(&other), "f6 without a legal capture is hashed");
    /* The repetition of the issue: seen on the ninth ply, not one later. */
    static const char *const line[] = {"f7f5", "g1h3", "b8c6", "h3g1", "c6b8",
                                       "g1h3", "b8c6", "h3g1", "c6b8"};
    SET_FEN(&pos, "rnbq1b2/p2k1pp1/Bp4r1/2pPp1Pp/P4P1P/NRP5/3P2K1/2B2QNR b - - 0 21");
    for (int i = 0; i < 9; i++) {
        ChessMove m = 0;
        ChessUndo u;
        CHECK_STATUS(chess_moveFromUci(&pos, line[i], &m), CHESS_OK, "%s", line[i]);
        CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_OK, "%s", line[i]);
        ChessGameStatus g = CHESS_ONGOING;
        chess_gameStatus(&pos, &g);
        CHECK((g == CHESS_THREEFOLD_REPETITION) == (i == 8), "ply %d: status %d", i + 1, (int)g);
    }
}

static void impossible_checks(void)
{
    static const char *const fens[] = {
        "4k3/8/3N1N2/8/8/8/8/4RK2 b - - 0 1",  /* three checkers */
        "4k3/8/3N1N2/8/8/8/8/5K2 b - - 0 1",   /* two knights */
        "4R3/8/8/8/4k3/8/8/4R1K1 b - - 0 1",   /* two rooks on one file */
        "8/8/8/8/3P4/8/8/k2RK3 b - d3 0 1",    /* a check older than the double push */
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        SET_FEN(&pos, START_FEN);
        memcpy(&saved, &pos, sizeof pos);
        CHECK_STATUS(chess_setFromFEN(&pos, fens[i]), CHESS_ERR_FEN_IMPOSSIBLE_CHECK, "%s",
                     fens[i]);
        CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused FEN changed the position");
    }
    CHECK_STATUS(chess_setFromFEN(&pos, "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1"), CHESS_OK,
                 "a knight check uncovering a rook");
    CHECK_STATUS(chess_validatePosition(&pos), CHESS_OK, "valid position");
    memset(&pos, 0, sizeof pos);
    CHECK_STATUS(chess_validatePosition(&pos), CHESS_ERR_INVALID_POSITION, "zeroed position");
}

int main(void)
{
    forged_clock();
    forged_null_en_passant();
    single_byte_forgeries();
    corrupted_positions();
    equal_positions_hash_equal();
    impossible_checks();
    return test_summary("test_hardening");
}
