/*
 * Chess960, move events and illegal-move reasons through the C ABI: perft of every line of
 * testdata/chess960.epd (all 960 start positions to depth 4, odd castling setups) against
 * the committed counts, X-FEN and Shredder-FEN out, castling as king takes rook in UCI,
 * events of castling, en passant and promotion-capture, one hand-made case for every
 * illegal reason, and the bad-argument statuses.
 *
 *   test_chess960 CHESS960_EPD
 */
#include "common.h"

static void perft_suite(const char *path)
{
    EpdFile f = epd_load(path);
    CHECK(f.count >= 1040, "%s: %d lines", path, f.count);
    int checked = 0;
    for (int i = 0; i < f.count; i++) {
        const EpdEntry *e = &f.entries[i];
        ChessPosition pos;
        CHECK_STATUS(chess_setFromFEN960(&pos, e->fen), CHESS_OK, "%s", e->fen);
        char fen[CHESS_FEN_MAX];
        CHECK_STATUS(chess_toFEN(&pos, fen, sizeof fen), CHESS_OK, "toFEN");
        CHECK(strcmp(fen, e->fen) == 0, "X-FEN %s != %s", fen, e->fen);
        CHECK(chess_isChess960(&pos), "mode");
        for (int d = 0; d < e->ndepths; d++) {
            if (e->depth[d] > 4) {
                continue;
            }
            uint64_t nodes = 0;
            CHECK_STATUS(chess_perft(&pos, e->depth[d], &nodes), CHESS_OK, "perft");
            CHECK(nodes == e->count[d], "%s depth %u: %llu, want %llu", e->fen, e->depth[d],
                  (unsigned long long)nodes, (unsigned long long)e->count[d]);
            checked++;
        }
    }
    CHECK(checked >= 4 * 1040, "%d counts", checked);
    epd_free(&f);
}

static void start_positions(void)
{
    ChessPosition pos;
    char fen[CHESS_FEN_MAX];
    CHECK_STATUS(chess_setChess960Start(&pos, 518), CHESS_OK, "518");
    CHECK_STATUS(chess_toFEN(&pos, fen, sizeof fen), CHESS_OK, "toFEN");
    CHECK(strcmp(fen, START_FEN) == 0, "518: %s", fen);
    CHECK_STATUS(chess_toShredderFEN(&pos, fen, sizeof fen), CHESS_OK, "shredder");
    CHECK(strcmp(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1") == 0, "%s", fen);
    CHECK_STATUS(chess_setChess960Start(&pos, 0), CHESS_OK, "0");
    CHECK_STATUS(chess_toFEN(&pos, fen, sizeof fen), CHESS_OK, "toFEN");
    CHECK(strcmp(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1") == 0, "%s", fen);
    /* Errors change nothing. */
    ChessPosition before = pos;
    CHECK_STATUS(chess_setChess960Start(&pos, 960), CHESS_ERR_INVALID_ARGUMENT, "960");
    CHECK_STATUS(chess_setFromFEN960(&pos, "4k3/8/8/8/8/8/8/4KRRR w FF - 0 1"),
                 CHESS_ERR_FEN_CASTLING, "twice");
    CHECK_STATUS(chess_setFromFEN960(&pos, "4k3/8/8/8/8/8/8/4KRRR w D - 0 1"),
                 CHESS_ERR_FEN_CASTLING_RIGHTS, "no rook");
    CHECK(memcmp(&pos, &before, sizeof pos) == 0, "position changed on error");
    CHECK_STATUS(chess_setChess960Start(NULL, 1), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(chess_setFromFEN960(NULL, START_FEN), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(chess_setFromFEN960(&pos, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK(!chess_isChess960(NULL), "NULL is not 960");
}

static void uci_text(void)
{
    ChessPosition pos;
    ChessMove m = 0;
    char text[8];
    SET_FEN(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    CHECK(!chess_isChess960(&pos), "standard");
    CHECK_STATUS(chess_moveFromUci(&pos, "e1g1", &m), CHESS_OK, "e1g1");
    CHECK_STATUS(chess_moveToUciInPosition(&pos, m, text, sizeof text), CHESS_OK, "text");
    CHECK(strcmp(text, "e1g1") == 0, "%s", text);
    CHECK_STATUS(chess_setChess960(&pos, true), CHESS_OK, "on");
    CHECK_STATUS(chess_moveToUciInPosition(&pos, m, text, sizeof text), CHESS_OK, "text");
    CHECK(strcmp(text, "e1h1") == 0, "%s", text);
    ChessMove again = 0;
    CHECK_STATUS(chess_moveFromUci(&pos, "e1h1", &again), CHESS_OK, "e1h1");
    CHECK(again == m, "same move");
    CHECK_STATUS(chess_moveFromUci(&pos, "e1g1", &again), CHESS_ERR_ILLEGAL_MOVE, "e1g1 in 960");
    CHECK_STATUS(chess_moveToUciInPosition(&pos, m, text, 4), CHESS_ERR_BUFFER_TOO_SMALL, "short");
    CHECK_STATUS(chess_moveToUciInPosition(&pos, 0, text, sizeof text), CHESS_ERR_ILLEGAL_MOVE,
                 "no move");
    CHECK_STATUS(chess_setChess960(&pos, false), CHESS_OK, "off");
    /* A king castling onto its own square: from == to. */
    CHECK_STATUS(chess_setFromFEN960(&pos, "4k3/8/8/8/8/8/8/6KR w H - 0 1"), CHESS_OK, "g1");
    CHECK_STATUS(chess_moveFromUci(&pos, "g1h1", &m), CHESS_OK, "g1h1");
    CHECK(MOVE_FROM(m) == SQ('g', '1') && MOVE_TO(m) == SQ('g', '1') && MOVE_FLAG(m) == 2,
          "castle encoding %u", (unsigned)m);
    CHECK(chess_isLegalMove(&pos, m), "legal");
    ChessPosition before = pos;
    CHECK_STATUS(chess_setChess960(&pos, false), CHESS_ERR_FEN_CASTLING_RIGHTS, "cannot leave");
    CHECK(memcmp(&pos, &before, sizeof pos) == 0, "position changed on error");
    /* A position the full check refuses (a bit of the board flipped behind the hashes) is not
       changed by setChess960 (found by review: it once took the cheap check only). */
    {
        ChessPosition bad = pos;
        unsigned char *bytes = (unsigned char *)&bad;
        ChessPosition probe;
        size_t at = 0;
        for (at = 0; at < sizeof bad; at++) {
            probe = bad;
            ((unsigned char *)&probe)[at] ^= 0x01;
            char probe_fen[CHESS_FEN_MAX];
            /* Bytes the cheap check passes (read-only calls work) and the full check refuses. */
            if (chess_validatePosition(&probe) == CHESS_ERR_INVALID_POSITION &&
                chess_toFEN(&probe, probe_fen, sizeof probe_fen) == CHESS_OK) {
                break;
            }
        }
        CHECK(at < sizeof bad, "found a board byte to corrupt");
        bytes[at] ^= 0x01;
        ChessPosition copy = bad;
        CHECK_STATUS(chess_setChess960(&bad, false), CHESS_ERR_INVALID_POSITION, "corrupted");
        CHECK(memcmp(&bad, &copy, sizeof bad) == 0, "corrupted position changed");
    }
    PosState st = pos_state(&pos);
    ChessUndo undo;
    CHECK_STATUS(chess_makeMove(&pos, m, &undo), CHESS_OK, "make");
    char fen[CHESS_FEN_MAX];
    CHECK_STATUS(chess_toFEN(&pos, fen, sizeof fen), CHESS_OK, "toFEN");
    CHECK(strcmp(fen, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1") == 0, "%s", fen);
    CHECK_STATUS(chess_unmakeMove(&pos, m, &undo), CHESS_OK, "unmake");
    PosState back = pos_state(&pos);
    CHECK(pos_state_equal(&st, &back), "unmake restores the position");
}

typedef struct {
    const char *fen;
    const char *uci;
    int count;
    ChessMoveEvent want[4];
} EventCase;

#define PC(color, type) ((uint8_t)((color) << 3 | (type)))

static void events(void)
{
    const EventCase cases[] = {
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", 2,
         {{CHESS_EVENT_MOVE, PC(0, 6), 4, 2}, {CHESS_EVENT_CASTLE_ROOK, PC(0, 4), 0, 3}}},
        {"4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", 2,
         {{CHESS_EVENT_MOVE, PC(1, 1), 28, 19}, {CHESS_EVENT_CAPTURE, PC(0, 1), 27, 27}}},
        {"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 3,
         {{CHESS_EVENT_MOVE, PC(0, 1), 48, 57},
          {CHESS_EVENT_CAPTURE, PC(1, 2), 57, 57},
          {CHESS_EVENT_PROMOTE, PC(0, 5), 57, 57}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ChessPosition pos;
        SET_FEN(&pos, cases[i].fen);
        ChessMove m = 0;
        CHECK_STATUS(chess_moveFromUci(&pos, cases[i].uci, &m), CHESS_OK, "%s", cases[i].uci);
        ChessMoveEvent ev[CHESS_MOVE_EVENTS_MAX];
        size_t n = 99;
        CHECK_STATUS(chess_moveEvents(&pos, m, ev, CHESS_MOVE_EVENTS_MAX, &n), CHESS_OK, "events");
        CHECK(n == (size_t)cases[i].count, "%s: %zu events", cases[i].uci, n);
        for (size_t k = 0; k < n && k < 4; k++) {
            const ChessMoveEvent *w = &cases[i].want[k];
            CHECK(ev[k].kind == w->kind && ev[k].piece == w->piece && ev[k].from == w->from &&
                      ev[k].to == w->to,
                  "%s event %zu: %u %u %u %u", cases[i].uci, k, ev[k].kind, ev[k].piece,
                  ev[k].from, ev[k].to);
        }
        /* Too little room, an illegal move, NULLs: nothing written. */
        size_t n2 = 77;
        CHECK_STATUS(chess_moveEvents(&pos, m, ev, n - 1, &n2), CHESS_ERR_BUFFER_TOO_SMALL, "room");
        CHECK_STATUS(chess_moveEvents(&pos, 0, ev, 4, &n2), CHESS_ERR_ILLEGAL_MOVE, "illegal");
        CHECK_STATUS(chess_moveEvents(&pos, m, NULL, 4, &n2), CHESS_ERR_NULL_ARGUMENT, "NULL");
        CHECK_STATUS(chess_moveEvents(&pos, m, ev, 4, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL");
        CHECK(n2 == 77, "count written on error");
    }
    /* Chess960: king and rook swap squares. */
    ChessPosition pos;
    CHECK_STATUS(chess_setFromFEN960(&pos, "4k3/8/8/8/8/8/8/5KR1 w G - 0 1"), CHESS_OK, "960");
    ChessMove m = 0;
    CHECK_STATUS(chess_moveFromUci(&pos, "f1g1", &m), CHESS_OK, "f1g1");
    ChessMoveEvent ev[4];
    size_t n = 0;
    CHECK_STATUS(chess_moveEvents(&pos, m, ev, 4, &n), CHESS_OK, "events");
    CHECK(n == 2 && ev[0].from == 5 && ev[0].to == 6 && ev[1].kind == CHESS_EVENT_CASTLE_ROOK &&
              ev[1].from == 6 && ev[1].to == 5,
          "swap");
}

typedef struct {
    const char *fen;
    const char *uci;
    uint8_t promo;
    ChessIllegalReason want;
    int square; /* 64: none */
} ReasonCase;

static void reasons(void)
{
    const ReasonCase cases[] = {
        {START_FEN, "e2e4", 0, CHESS_MOVE_LEGAL, 64},
        {START_FEN, "e3e4", 0, CHESS_ILLEGAL_NO_PIECE, 64},
        {START_FEN, "e7e5", 0, CHESS_ILLEGAL_NOT_YOUR_PIECE, 64},
        {START_FEN, "g1g3", 0, CHESS_ILLEGAL_WRONG_GEOMETRY, 64},
        {START_FEN, "f1c4", 0, CHESS_ILLEGAL_PATH_BLOCKED, 12},
        {START_FEN, "g1e2", 0, CHESS_ILLEGAL_OWN_PIECE_ON_TARGET, 64},
        {"4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", 0, CHESS_ILLEGAL_PAWN_FORWARD_BLOCKED, 64},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", 0, CHESS_ILLEGAL_PAWN_CAPTURE_NOTHING, 64},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e5d6", 0, CHESS_ILLEGAL_EN_PASSANT_NOT_AVAILABLE, 64},
        {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 0, CHESS_ILLEGAL_PROMOTION_MISSING, 64},
        {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 6, CHESS_ILLEGAL_PROMOTION_NOT_ALLOWED, 64},
        {"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1g1", 0, CHESS_ILLEGAL_CASTLING_NO_RIGHT, 64},
        {"r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "e1g1", 0, CHESS_ILLEGAL_CASTLING_OUT_OF_CHECK,
         12},
        {"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1", 0,
         CHESS_ILLEGAL_CASTLING_THROUGH_CHECK, 13},
        {"4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d2d3", 0, CHESS_ILLEGAL_KING_LEFT_IN_CHECK, 25},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ChessPosition pos;
        SET_FEN(&pos, cases[i].fen);
        const char *u = cases[i].uci;
        ChessIllegalReason r = (ChessIllegalReason)99;
        uint8_t sq = 99;
        CHECK_STATUS(chess_checkMove(&pos, (uint8_t)SQ(u[0], u[1]), (uint8_t)SQ(u[2], u[3]),
                                     cases[i].promo, &r, &sq),
                     CHESS_OK, "%s", u);
        CHECK(r == cases[i].want && sq == cases[i].square, "%s %s: reason %d square %u",
              cases[i].fen, u, (int)r, sq);
        const char *msg = chess_illegalReasonMessage((int)r);
        CHECK(msg != NULL && strlen(msg) > 5, "message");
    }
    ChessPosition pos;
    SET_FEN(&pos, START_FEN);
    ChessIllegalReason r = CHESS_MOVE_LEGAL;
    uint8_t sq = 5;
    CHECK_STATUS(chess_checkMove(&pos, 64, 1, 0, &r, &sq), CHESS_ERR_INVALID_ARGUMENT, "square");
    CHECK_STATUS(chess_checkMove(&pos, 12, 28, 7, &r, &sq), CHESS_ERR_INVALID_ARGUMENT, "promo");
    CHECK_STATUS(chess_checkMove(&pos, 12, 28, 0, NULL, &sq), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(chess_checkMove(NULL, 12, 28, 0, &r, &sq), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK(r == CHESS_MOVE_LEGAL && sq == 5, "outputs written on error");
    CHECK(strcmp(chess_illegalReasonMessage(99), "unknown illegal-move reason") == 0, "unknown");
    CHECK(strcmp(chess_illegalReasonMessage(-1), "unknown illegal-move reason") == 0, "unknown");
    /* Every reason has its own message. */
    for (int a = 0; a <= CHESS_ILLEGAL_KING_LEFT_IN_CHECK; a++) {
        for (int b = 0; b < a; b++) {
            CHECK(strcmp(chess_illegalReasonMessage(a), chess_illegalReasonMessage(b)) != 0,
                  "%d and %d share a message", a, b);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_chess960 CHESS960_EPD\n");
        return 2;
    }
    start_positions();
    uci_text();
    events();
    reasons();
    perft_suite(argv[1]);
    return test_summary("test_chess960");
}
