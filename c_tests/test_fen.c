/*
 * FEN through the C ABI: round trips of every suite FEN, one or more inputs for every
 * CHESS_ERR_FEN_* class with the exact code, the position byte-identical after every error,
 * invalid UTF-8, four-field FEN and the state getters on a few known positions.
 *
 *   test_fen EPD_FILE...
 */
#include "common.h"

typedef struct {
    const char *fen;
    ChessStatus want;
} BadFen;

/* Each input has exactly one defect, so the expected code does not depend on the order in
 * which the parser checks things. */
static const BadFen bad_fens[] = {
    /* Not 6 (or 4) fields separated by single spaces. */
    {"", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w  KQkq - 0 1", CHESS_ERR_FEN_FIELD_COUNT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq - 0 1", CHESS_ERR_FEN_FIELD_COUNT},
    {" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_FIELD_COUNT},
    /* Text after the sixth field. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", CHESS_ERR_FEN_TRAILING_TEXT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0 1", CHESS_ERR_FEN_TRAILING_TEXT},
    /* Malformed piece placement. */
    {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8/8/0/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    {"rnbqkbnr/pppppppp/8/8/8/44/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_FEN_BOARD},
    /* Side to move. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", CHESS_ERR_FEN_SIDE_TO_MOVE},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", CHESS_ERR_FEN_SIDE_TO_MOVE},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1", CHESS_ERR_FEN_SIDE_TO_MOVE},
    /* Castling field syntax. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1", CHESS_ERR_FEN_CASTLING},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", CHESS_ERR_FEN_CASTLING},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", CHESS_ERR_FEN_CASTLING},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w X - 0 1", CHESS_ERR_FEN_CASTLING},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1", CHESS_ERR_FEN_CASTLING},
    /* En passant field syntax. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z6 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", CHESS_ERR_FEN_EN_PASSANT},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1", CHESS_ERR_FEN_EN_PASSANT},
    /* Halfmove clock. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", CHESS_ERR_FEN_HALFMOVE_CLOCK},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", CHESS_ERR_FEN_HALFMOVE_CLOCK},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1", CHESS_ERR_FEN_HALFMOVE_CLOCK},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
     CHESS_ERR_FEN_HALFMOVE_CLOCK},
    /* Fullmove number. */
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", CHESS_ERR_FEN_FULLMOVE_NUMBER},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 65536", CHESS_ERR_FEN_FULLMOVE_NUMBER},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", CHESS_ERR_FEN_FULLMOVE_NUMBER},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", CHESS_ERR_FEN_FULLMOVE_NUMBER},
    /* King count. */
    {"8/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_KING_COUNT},
    {"4k3/8/8/8/8/8/8/8 b - - 0 1", CHESS_ERR_FEN_KING_COUNT},
    {"8/8/8/8/8/8/8/8 w - - 0 1", CHESS_ERR_FEN_KING_COUNT},
    {"4k3/8/8/8/8/8/8/K3K3 w - - 0 1", CHESS_ERR_FEN_KING_COUNT},
    {"k3k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_KING_COUNT},
    /* Pawn on rank 1 or 8. */
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_PAWN_ON_BACK_RANK},
    {"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", CHESS_ERR_FEN_PAWN_ON_BACK_RANK},
    {"p3k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_PAWN_ON_BACK_RANK},
    /* More pieces than a game can produce. */
    {"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES},     /* 9 pawns */
    {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES},     /* 9 pawns */
    {"4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES},    /* 2 Q */
    {"4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES},   /* 3 N */
    {"4k3/8/8/8/8/8/PPPPPPPP/RRR1K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES},   /* 3 R */
    {"qqqqkqqq/qqqqqqqq/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES}, /* 15 Q */
    /* Castling rights contradicted by the placement. */
    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},
    {"4k3/8/8/8/8/8/8/4K3 w Q - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},
    {"4k3/8/8/8/8/8/8/4K3 b k - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},
    {"4k3/8/8/8/8/8/8/4K3 b q - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},
    {"r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS}, /* K on f1 */
    {"r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},   /* R on g1 */
    {"1r2k2r/8/8/8/8/8/8/R3K2R w q - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},   /* r on b8 */
    {"r3k2r/8/8/8/8/8/8/R3K2B w K - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},    /* B on h1 */
    {"r3k2r/8/8/8/8/8/8/R3K2r w K - 0 1", CHESS_ERR_FEN_CASTLING_RIGHTS},    /* black r h1 */
    /* En passant square on the wrong rank for the side to move. */
    {"4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", CHESS_ERR_FEN_EN_PASSANT_RANK},
    {"4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1", CHESS_ERR_FEN_EN_PASSANT_RANK},
    {"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", CHESS_ERR_FEN_EN_PASSANT_RANK},
    {"4k3/8/8/8/8/8/8/4K3 w - a1 0 1", CHESS_ERR_FEN_EN_PASSANT_RANK},
    /* En passant square without the pawn that just double-stepped. */
    {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN},
    {"4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN},  /* own pawn */
    {"4k3/8/8/8/8/8/8/4K3 b - d3 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN},
    {"4k3/8/8/3p4/8/8/8/4K3 b - d3 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN},  /* enemy pawn */
    {"4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN}, /* e7 occupied */
    {"4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_EN_PASSANT_PAWN}, /* e6 occupied */
    /* The side not to move is in check. */
    {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", CHESS_ERR_FEN_OPPONENT_IN_CHECK},
    {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", CHESS_ERR_FEN_OPPONENT_IN_CHECK},
    {"8/8/8/3kK3/8/8/8/8 w - - 0 1", CHESS_ERR_FEN_OPPONENT_IN_CHECK},
    {"rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
     CHESS_ERR_FEN_OPPONENT_IN_CHECK},
};

/* Every CHESS_ERR_FEN_* enumerator; each must be covered by bad_fens. */
static const ChessStatus fen_classes[] = {
    CHESS_ERR_FEN_FIELD_COUNT,       CHESS_ERR_FEN_TRAILING_TEXT,   CHESS_ERR_FEN_BOARD,
    CHESS_ERR_FEN_SIDE_TO_MOVE,      CHESS_ERR_FEN_CASTLING,        CHESS_ERR_FEN_EN_PASSANT,
    CHESS_ERR_FEN_HALFMOVE_CLOCK,    CHESS_ERR_FEN_FULLMOVE_NUMBER, CHESS_ERR_FEN_KING_COUNT,
    CHESS_ERR_FEN_PAWN_ON_BACK_RANK, CHESS_ERR_FEN_TOO_MANY_PIECES, CHESS_ERR_FEN_CASTLING_RIGHTS,
    CHESS_ERR_FEN_EN_PASSANT_RANK,   CHESS_ERR_FEN_EN_PASSANT_PAWN, CHESS_ERR_FEN_OPPONENT_IN_CHECK,
};

/* Calls chess_setFromFEN expecting `want` != OK; checks the position is byte-identical. */
static void expect_rejected(ChessPosition *pos, const char *fen, ChessStatus want,
                            const char *what)
{
    ChessPosition *saved = malloc(sizeof *saved);
    if (saved == NULL) {
        exit(2);
    }
    memcpy(saved, pos, sizeof *pos);
    ChessStatus got = chess_setFromFEN(pos, fen);
    CHECK(got == want, "setFromFEN(\"%s\") [%s]: got %s (%d), expected %s (%d)", fen, what,
          status_name(got), (int)got, status_name(want), (int)want);
    CHECK(memcmp(saved, pos, sizeof *pos) == 0,
          "setFromFEN(\"%s\") [%s] returned %s but modified the position", fen, what,
          status_name(got));
    free(saved);
}

static void test_rejections(void)
{
    ChessPosition *pos = malloc(sizeof *pos);
    if (pos == NULL) {
        exit(2);
    }
    size_t n = sizeof bad_fens / sizeof bad_fens[0];
    for (size_t c = 0; c < sizeof fen_classes / sizeof fen_classes[0]; c++) {
        int inputs = 0;
        for (size_t i = 0; i < n; i++) {
            inputs += bad_fens[i].want == fen_classes[c];
        }
        CHECK(inputs > 0, "no rejection input for %s", status_name(fen_classes[c]));
    }
    for (size_t i = 0; i < n; i++) {
        /* Over an initialised position ... */
        SET_FEN(pos, KIWIPETE_FEN);
        expect_rejected(pos, bad_fens[i].fen, bad_fens[i].want, "over kiwipete");
        /* ... one with history (a move made) ... */
        SET_FEN(pos, START_FEN);
        ChessUndo undo;
        CHECK_STATUS(chess_makeMove(pos, MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1), &undo),
                     CHESS_OK, "e2e4");
        expect_rejected(pos, bad_fens[i].fen, bad_fens[i].want, "after e2e4");
        /* ... and over never-initialised storage. */
        memset(pos, 0xA5, sizeof *pos);
        expect_rejected(pos, bad_fens[i].fen, bad_fens[i].want, "over garbage");
    }

    /* Text that is not UTF-8: CHESS_ERR_INVALID_ARGUMENT, position untouched. */
    static const char *const not_utf8[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\xff",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \xc3\x28",
        "\x80nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq \xed\xa0\x80 0 1", /* surrogate */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\xc0\xaf",   /* overlong */
        "\xfe",
    };
    for (size_t i = 0; i < sizeof not_utf8 / sizeof not_utf8[0]; i++) {
        SET_FEN(pos, START_FEN);
        expect_rejected(pos, not_utf8[i], CHESS_ERR_INVALID_ARGUMENT, "invalid UTF-8");
        memset(pos, 0x5A, sizeof *pos);
        expect_rejected(pos, not_utf8[i], CHESS_ERR_INVALID_ARGUMENT, "invalid UTF-8, garbage");
    }
    /* Valid UTF-8 that is not FEN is a FEN error, not an argument error. */
    SET_FEN(pos, START_FEN);
    expect_rejected(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\xc3\xa9 w KQkq - 0 1",
                    CHESS_ERR_FEN_BOARD, "UTF-8 letter on the board");
    free(pos);
}

static void test_round_trips(int nfiles, char **files)
{
    ChessPosition *pos = malloc(sizeof *pos);
    if (pos == NULL) {
        exit(2);
    }
    int total = 0;
    for (int f = 0; f < nfiles; f++) {
        EpdFile suite = epd_load(files[f]);
        for (int i = 0; i < suite.count; i++) {
            const char *fen = suite.entries[i].fen;
            char out[CHESS_FEN_MAX];
            memset(pos, 0xC3, sizeof *pos); /* from uninitialised storage */
            if (!SET_FEN(pos, fen)) {
                continue;
            }
            CHECK_STATUS(chess_toFEN(pos, out, sizeof out), CHESS_OK, "%s", fen);
            CHECK(strcmp(out, fen) == 0, "%s:%d: round trip \"%s\" -> \"%s\"", files[f],
                  suite.entries[i].line, fen, out);
            /* Setting the same FEN again over a used position gives the same hash. */
            uint64_t h = chess_hash(pos);
            SET_FEN(pos, fen);
            CHECK(chess_hash(pos) == h, "\"%s\": hash differs on re-set", fen);
            total++;
        }
        epd_free(&suite);
    }
    CHECK(total > 0, "no suite FENs");
    printf("round-tripped %d suite FENs\n", total);

    /* A few more canonical FENs with every field exercised. */
    static const char *const extra[] = {
        START_FEN,
        KIWIPETE_FEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        "4k3/8/8/8/8/8/8/4K3 w - - 65535 65535",
        "4k3/8/8/8/8/8/8/4K3 b - - 100 1",
        "r3k3/8/8/8/8/8/8/4K2R w Kq - 7 42",
        "8/8/8/8/8/8/8/k1K5 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char out[CHESS_FEN_MAX];
        if (SET_FEN(pos, extra[i])) {
            CHECK(strcmp(fen_of(pos, out), extra[i]) == 0, "round trip \"%s\" -> \"%s\"",
                  extra[i], out);
        }
    }
    free(pos);
}

static void test_four_fields(void)
{
    ChessPosition pos;
    char out[CHESS_FEN_MAX];
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", START_FEN},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", KIWIPETE_FEN},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
        {"8/8/8/8/8/8/8/k1K5 b - -", "8/8/8/8/8/8/8/k1K5 b - - 0 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&pos, 0, sizeof pos);
        if (SET_FEN(&pos, cases[i].in)) {
            CHECK(strcmp(fen_of(&pos, out), cases[i].out) == 0,
                  "four-field \"%s\" -> \"%s\", expected \"%s\"", cases[i].in, out, cases[i].out);
            CHECK(chess_halfmoveClock(&pos) == 0, "four-field halfmove clock %u",
                  chess_halfmoveClock(&pos));
            CHECK(chess_fullmoveNumber(&pos) == 1, "four-field fullmove number %u",
                  chess_fullmoveNumber(&pos));
        }
        /* Same hash as the six-field form. */
        ChessPosition six;
        if (SET_FEN(&six, cases[i].out)) {
            CHECK(chess_hash(&six) == chess_hash(&pos), "four-field hash differs for \"%s\"",
                  cases[i].in);
        }
    }
}

/* The lenient reader: FEN as puzzle collections and GUIs write it, read as python-chess
   reads it (the expected FENs are python-chess's board.fen() for the same text). */
static void test_lenient(void)
{
    static const struct {
        const char *in, *out;
    } accepted[] = {
        {"8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0",
         "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 1"},
        {"  4k3/8/8/8/8/8/8/4K3\tb   -  - \n", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},
        {"4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
        {"4k3/8/8/8/8/8/8/4K2R w KQkq - 007 +3", "4k3/8/8/8/8/8/8/4K2R w K - 7 3"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w HAha -", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
        {"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
         "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"},
        {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
    };
    static const struct {
        const char *in;
        ChessStatus want;
    } refused[] = {
        {"", CHESS_ERR_FEN_FIELD_COUNT},
        {" \t ", CHESS_ERR_FEN_FIELD_COUNT},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", CHESS_ERR_FEN_TRAILING_TEXT},
        {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", CHESS_ERR_FEN_HALFMOVE_CLOCK},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 -1", CHESS_ERR_FEN_FULLMOVE_NUMBER},
        {"4k3/8/8/8/8/8/8/4K3 w kK - 0 1", CHESS_ERR_FEN_CASTLING},
        {"4k3/8/8/8/8/8/8/4K3 w - E3 0 1", CHESS_ERR_FEN_EN_PASSANT},
        {"4k3/8/8/8/8/8/8/4K3 W", CHESS_ERR_FEN_SIDE_TO_MOVE},
        {"8/8/8/8/8/8/8/8", CHESS_ERR_FEN_KING_COUNT},
        {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_OPPONENT_IN_CHECK},
        {"P3k3/8/8/8/8/8/8/4K3", CHESS_ERR_FEN_PAWN_ON_BACK_RANK},
    };
    char out[CHESS_FEN_MAX];
    ChessPosition *pos = malloc(sizeof *pos);
    ChessPosition *saved = malloc(sizeof *saved);
    if (pos == NULL || saved == NULL) {
        exit(2);
    }
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        memset(pos, 0xA5, sizeof *pos);
        ChessStatus st = chess_setFromFENLenient(pos, accepted[i].in);
        CHECK(st == CHESS_OK, "lenient \"%s\": %s", accepted[i].in, status_name(st));
        if (st != CHESS_OK) {
            continue;
        }
        CHECK(strcmp(fen_of(pos, out), accepted[i].out) == 0, "lenient \"%s\" -> \"%s\", expected \"%s\"",
              accepted[i].in, out, accepted[i].out);
        CHECK(chess_validatePosition(pos) == CHESS_OK, "lenient \"%s\": not a valid position",
              accepted[i].in);
        /* What it writes, the strict reader reads to the same position. */
        ChessPosition *strict = saved;
        CHECK(chess_setFromFEN(strict, out) == CHESS_OK, "strict reader refuses \"%s\"", out);
        CHECK(chess_hash(strict) == chess_hash(pos), "\"%s\": strict hash differs", out);
    }
    SET_FEN(pos, KIWIPETE_FEN);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        memcpy(saved, pos, sizeof *pos);
        ChessStatus st = chess_setFromFENLenient(pos, refused[i].in);
        CHECK(st == refused[i].want, "lenient \"%s\": got %s, expected %s", refused[i].in,
              status_name(st), status_name(refused[i].want));
        CHECK(memcmp(saved, pos, sizeof *pos) == 0, "lenient \"%s\" modified the position",
              refused[i].in);
    }
    /* The frozen strict reader still refuses a fullmove number of 0. */
    CHECK(chess_setFromFEN(pos, accepted[0].in) == CHESS_ERR_FEN_FULLMOVE_NUMBER,
          "strict reader accepts fullmove 0");
    free(saved);
    free(pos);
}

/* Getters checked against the FEN's own fields (chess knowledge, not library output). */
static void test_getters(void)
{
    ChessPosition pos;
    if (SET_FEN(&pos, START_FEN)) {
        CHECK(chess_sideToMove(&pos) == 0, "start: side to move");
        CHECK(chess_castlingRights(&pos) == 15, "start: castling %u", chess_castlingRights(&pos));
        CHECK(chess_enPassantSquare(&pos) == -1, "start: ep %d", chess_enPassantSquare(&pos));
        CHECK(chess_halfmoveClock(&pos) == 0, "start: halfmove");
        CHECK(chess_fullmoveNumber(&pos) == 1, "start: fullmove");
        CHECK(chess_pieceOn(&pos, SQ('e', '1')) == 6, "start: e1 = white king (6), got %u",
              chess_pieceOn(&pos, SQ('e', '1')));
        CHECK(chess_pieceOn(&pos, SQ('d', '8')) == (1 << 3 | 5), "start: d8 = black queen");
        CHECK(chess_pieceOn(&pos, SQ('e', '4')) == 0, "start: e4 empty");
        CHECK(chess_pieceOn(&pos, 64) == 0, "square 64 out of range");
        CHECK(chess_pieces(&pos, 0, 1) == 0x000000000000FF00ull, "white pawns");
        CHECK(chess_pieces(&pos, 1, 1) == 0x00FF000000000000ull, "black pawns");
        CHECK(chess_pieces(&pos, 0, 0) == 0x000000000000FFFFull, "white pieces");
        CHECK(chess_pieces(&pos, 1, 0) == 0xFFFF000000000000ull, "black pieces");
        CHECK(chess_pieces(&pos, 0, 4) == 0x81ull, "white rooks");
        CHECK(chess_pieces(&pos, 2, 1) == 0 && chess_pieces(&pos, 0, 7) == 0,
              "out-of-range color/type");
        CHECK(!chess_isInCheck(&pos) && chess_checkers(&pos) == 0, "start: not in check");
    }
    if (SET_FEN(&pos, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w Kq d6 17 23")) {
        CHECK(chess_sideToMove(&pos) == 0, "side");
        CHECK(chess_castlingRights(&pos) == (1 | 8), "castling Kq = 9, got %u",
              chess_castlingRights(&pos));
        CHECK(chess_enPassantSquare(&pos) == (int)SQ('d', '6'), "ep d6 = 43, got %d",
              chess_enPassantSquare(&pos));
        CHECK(chess_halfmoveClock(&pos) == 17, "halfmove 17");
        CHECK(chess_fullmoveNumber(&pos) == 23, "fullmove 23");
    }
    if (SET_FEN(&pos, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")) {
        CHECK(chess_sideToMove(&pos) == 0, "side");
        CHECK(chess_isInCheck(&pos), "Re2 gives check");
        CHECK(chess_checkers(&pos) == (1ull << SQ('e', '2')), "checker e2");
        CHECK(chess_castlingRights(&pos) == 0, "no castling");
    }
    if (SET_FEN(&pos, "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1")) {
        CHECK(chess_sideToMove(&pos) == 1, "black to move");
        CHECK(chess_enPassantSquare(&pos) == (int)SQ('d', '3'), "ep d3 = 19");
    }
}

/* Random single-character edits of the suite FENs: every answer is CHESS_OK or a FEN error
 * (never CHESS_ERR_INTERNAL), an error leaves the position byte-identical, and an accepted
 * FEN (strict parsing accepts only canonical text) is written back unchanged, with a move
 * generator consistent with perft. */
static void mutations(int nfiles, char **files)
{
    static char fens[512][EPD_MAX_FEN];
    int nfens = load_suite_fens(nfiles, files, fens, 512);
    static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0 9";
    ChessPosition *pos = malloc(sizeof *pos), *saved = malloc(sizeof *saved);
    if (pos == NULL || saved == NULL || nfens == 0) {
        exit(2);
    }
    Rng rng = rng_new(0xFE11);
    unsigned accepted = 0, rejected = 0;
    for (int i = 0; i < 100000; i++) {
        char text[EPD_MAX_FEN + 8];
        strcpy(text, fens[rng_below(&rng, (uint32_t)nfens)]);
        size_t len = strlen(text);
        int edits = 1 + (int)rng_below(&rng, 2);
        for (int e = 0; e < edits && len > 1 && len < EPD_MAX_FEN + 4; e++) {
            size_t at = rng_below(&rng, (uint32_t)len);
            char c = alphabet[rng_below(&rng, sizeof alphabet - 1)];
            switch (rng_below(&rng, 3)) {
            case 0: /* replace */
                text[at] = c;
                break;
            case 1: /* insert */
                memmove(text + at + 1, text + at, len - at + 1);
                text[at] = c;
                len++;
                break;
            default: /* delete */
                memmove(text + at, text + at + 1, len - at);
                len--;
                break;
            }
        }
        SET_FEN(pos, KIWIPETE_FEN);
        memcpy(saved, pos, sizeof *pos);
        ChessStatus s = chess_setFromFEN(pos, text);
        if (s != CHESS_OK) {
            rejected++;
            CHECK(s >= CHESS_ERR_FEN_FIELD_COUNT && s <= CHESS_ERR_FEN_IMPOSSIBLE_CHECK,
                  "setFromFEN(\"%s\") returned %s (%d)", text, status_name(s), (int)s);
            CHECK(memcmp(saved, pos, sizeof *pos) == 0,
                  "setFromFEN(\"%s\") returned %s but modified the position", text,
                  status_name(s));
            continue;
        }
        accepted++;
        char out[CHESS_FEN_MAX];
        CHECK(strcmp(fen_of(pos, out), text) == 0, "accepted \"%s\" written back as \"%s\"",
              text, out);
        ChessMoveList list;
        uint64_t n1 = 0, n2 = 0, f2 = 0;
        CHECK_STATUS(chess_generateLegalMoves(pos, &list), CHESS_OK, "%s", text);
        CHECK_STATUS(chess_perft(pos, 1, &n1), CHESS_OK, "%s", text);
        CHECK_STATUS(chess_perft(pos, 2, &n2), CHESS_OK, "%s", text);
        CHECK_STATUS(chess_perftFull(pos, 2, &f2), CHESS_OK, "%s", text);
        CHECK(n1 == list.count && n2 == f2,
              "\"%s\": %u legal moves, perft 1 %" PRIu64 ", perft 2 %" PRIu64 " / full %" PRIu64,
              text, list.count, n1, n2, f2);
        CHECK(strcmp(fen_of(pos, out), text) == 0, "\"%s\" changed by perft", text);
    }
    printf("mutated FENs: %u accepted, %u rejected\n", accepted, rejected);
    CHECK(accepted > 1000 && rejected > 10000, "mutation mix too one-sided");
    free(pos);
    free(saved);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_fen EPD_FILE...\n");
        return 2;
    }
    test_round_trips(argc - 1, argv + 1);
    test_four_fields();
    test_rejections();
    test_lenient();
    test_getters();
    mutations(argc - 1, argv + 1);
    return test_summary("test_fen");
}
