/*
 * NULL for every pointer argument of every function in the header: fallible functions return
 * CHESS_ERR_NULL_ARGUMENT and leave the other arguments untouched; getters return their
 * documented fallback. A never-initialised (zero-filled, 0xFF-filled, random) ChessPosition
 * is CHESS_ERR_INVALID_POSITION for every fallible function and is not written.
 */
#include "common.h"

static ChessPosition pos, saved;

/* Fills every output object with a sentinel byte, so "untouched" can be checked. */
#define SENTINEL 0xA7
static ChessMoveList out_list;
static ChessUndo out_undo;
static uint64_t out_counts[256];
static uint64_t out_u64;
static ChessMove out_move;
static ChessGameStatus out_game;
static char out_buf[512];
static ChessSearchResult out_result;
static int32_t out_cp;
static ChessEngine *engine;
static ChessSearchLimits limits;

static void fill_outputs(void)
{
    memset(&out_list, SENTINEL, sizeof out_list);
    memset(&out_undo, SENTINEL, sizeof out_undo);
    memset(out_counts, SENTINEL, sizeof out_counts);
    memset(&out_u64, SENTINEL, sizeof out_u64);
    memset(&out_move, SENTINEL, sizeof out_move);
    memset(&out_game, SENTINEL, sizeof out_game);
    memset(out_buf, SENTINEL, sizeof out_buf);
    memset(&out_result, SENTINEL, sizeof out_result);
    memset(&out_cp, SENTINEL, sizeof out_cp);
}

static bool all_bytes(const void *p, size_t n, unsigned char b)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        if (c[i] != b) {
            return false;
        }
    }
    return true;
}

static bool outputs_untouched(void)
{
    return all_bytes(&out_list, sizeof out_list, SENTINEL) &&
           all_bytes(&out_undo, sizeof out_undo, SENTINEL) &&
           all_bytes(out_counts, sizeof out_counts, SENTINEL) &&
           all_bytes(&out_u64, sizeof out_u64, SENTINEL) &&
           all_bytes(&out_move, sizeof out_move, SENTINEL) &&
           all_bytes(&out_game, sizeof out_game, SENTINEL) &&
           all_bytes(out_buf, sizeof out_buf, SENTINEL) &&
           all_bytes(&out_result, sizeof out_result, SENTINEL) &&
           all_bytes(&out_cp, sizeof out_cp, SENTINEL);
}

/* Runs `call`, which must return `want`, leave every output and the position untouched. */
#define EXPECT(call, want)                                                                     \
    do {                                                                                       \
        fill_outputs();                                                                        \
        memcpy(&saved, &pos, sizeof pos);                                                      \
        CHECK_STATUS((call), (want), "%s", context);                                           \
        CHECK(outputs_untouched(), "%s: %s wrote an output on error", context, #call);         \
        CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "%s: %s modified the position", context,  \
              #call);                                                                          \
    } while (0)

static const ChessMove E2E4 = (ChessMove)(12 | (28 << 6) | (1 << 12));

/* Every fallible function taking a position, with the position `p` (NULL or an invalid
 * position) and otherwise valid arguments: all must return `want`. */
static void every_position_function(ChessPosition *p, ChessStatus want, const char *context)
{
    ChessUndo undo;
    memset(&undo, 0, sizeof undo);
    EXPECT(chess_toFEN(p, out_buf, sizeof out_buf), want);
    EXPECT(chess_generatePseudoLegalMoves(p, &out_list), want);
    EXPECT(chess_generateLegalMoves(p, &out_list), want);
    EXPECT(chess_generateMoves(p, true, CHESS_GEN_ALL, CHESS_ALL_PIECE_TYPES, &out_list), want);
    EXPECT(chess_generateMoves(p, false, CHESS_GEN_CAPTURES, 1u << 1, &out_list), want);
    EXPECT(chess_makeMove(p, E2E4, &out_undo), want);
    EXPECT(chess_unmakeMove(p, E2E4, &undo), want);
    EXPECT(chess_makeMoveUnchecked(p, E2E4, &out_undo), want);
    EXPECT(chess_unmakeMoveUnchecked(p, E2E4, &undo), want);
    EXPECT(chess_makeNullMove(p, &out_undo), want);
    EXPECT(chess_unmakeNullMove(p, &undo), want);
    EXPECT(chess_perft(p, 1, &out_u64), want);
    EXPECT(chess_perftFull(p, 1, &out_u64), want);
    EXPECT(chess_perftDivide(p, 1, &out_list, out_counts, 256, &out_u64), want);
    EXPECT(chess_moveFromUci(p, "e2e4", &out_move), want);
    EXPECT(chess_moveFromMicro(p, (uint16_t)(12 | (28 << 6)), &out_move), want);
    EXPECT(chess_gameStatus(p, &out_game), want);
    EXPECT(chess_positionToText(p, out_buf, sizeof out_buf), want);
    EXPECT(chess_printPosition(p), want);
    EXPECT(chess_validatePosition(p), want);
    EXPECT(chess_compactHistory(p), want);
    EXPECT(chess_perftParallel(p, 1, 1, false, &out_u64), want);
    EXPECT(chess_search(engine, p, &limits, &out_result), want);
    EXPECT(chess_evaluate(engine, p, &out_cp), want);
}

/* Getters on `p` (NULL or invalid) return their fallbacks. */
static void every_getter(const ChessPosition *p, const char *context)
{
    memcpy(&saved, &pos, sizeof pos);
    CHECK(chess_isRepetition(p, 100) == false, "%s: chess_isRepetition", context);
    CHECK(chess_isLegalMove(p, E2E4) == false, "%s: chess_isLegalMove", context);
    CHECK(chess_isInCheck(p) == false, "%s: chess_isInCheck", context);
    CHECK(chess_hash(p) == 0, "%s: chess_hash", context);
    CHECK(chess_pawnHash(p) == 0, "%s: chess_pawnHash", context);
    CHECK(chess_materialHash(p) == 0, "%s: chess_materialHash", context);
    CHECK(chess_sideToMove(p) == -1, "%s: chess_sideToMove = %d", context, chess_sideToMove(p));
    CHECK(chess_pieceOn(p, 4) == 0, "%s: chess_pieceOn", context);
    CHECK(chess_pieces(p, 0, 0) == 0 && chess_pieces(p, 1, 6) == 0, "%s: chess_pieces", context);
    CHECK(chess_castlingRights(p) == 0, "%s: chess_castlingRights", context);
    CHECK(chess_enPassantSquare(p) == -1, "%s: chess_enPassantSquare = %d", context,
          chess_enPassantSquare(p));
    CHECK(chess_halfmoveClock(p) == 0, "%s: chess_halfmoveClock", context);
    CHECK(chess_fullmoveNumber(p) == 0, "%s: chess_fullmoveNumber", context);
    CHECK(chess_attackersTo(p, 4) == 0, "%s: chess_attackersTo", context);
    CHECK(chess_checkers(p) == 0, "%s: chess_checkers", context);
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "%s: a getter modified the position", context);
}

static void null_arguments(void)
{
    const char *context;
    ChessUndo undo;

    context = "NULL position";
    SET_FEN(&pos, START_FEN);
    every_position_function(NULL, CHESS_ERR_NULL_ARGUMENT, context);
    EXPECT(chess_setFromFEN(NULL, START_FEN), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_setFromFENLenient(NULL, START_FEN), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_setStartPosition(NULL), CHESS_ERR_NULL_ARGUMENT);
    every_getter(NULL, context);

    /* NULL for each of the other pointer arguments, with a valid position. */
    context = "NULL output/input";
    SET_FEN(&pos, START_FEN);
    EXPECT(chess_setFromFEN(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_setFromFENLenient(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_toFEN(&pos, NULL, CHESS_FEN_MAX), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_generatePseudoLegalMoves(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_generateLegalMoves(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_generateMoves(&pos, true, CHESS_GEN_ALL, CHESS_ALL_PIECE_TYPES, NULL),
           CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_makeMove(&pos, E2E4, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_makeMoveUnchecked(&pos, E2E4, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_makeNullMove(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_perft(&pos, 2, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_perftFull(&pos, 2, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_perftDivide(&pos, 2, NULL, out_counts, 256, &out_u64), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_perftDivide(&pos, 2, &out_list, NULL, 256, &out_u64), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_perftDivide(&pos, 2, &out_list, out_counts, 256, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_moveFromUci(&pos, NULL, &out_move), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_moveFromUci(&pos, "e2e4", NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_moveFromMicro(&pos, (uint16_t)(12 | (28 << 6)), NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_moveToUci(E2E4, NULL, 16), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_printBitboardToBuffer(1, NULL, CHESS_BITBOARD_TEXT_SIZE),
           CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_positionToText(&pos, NULL, CHESS_POSITION_TEXT_SIZE), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_gameStatus(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_search(NULL, &pos, &limits, &out_result), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_search(engine, &pos, NULL, &out_result), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_search(engine, &pos, &limits, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_evaluate(NULL, &pos, &out_cp), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_evaluate(engine, &pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_engineSetOption(NULL, "Hash", "1"), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_engineSetOption(engine, NULL, "1"), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_engineSetOption(engine, "Hash", NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_engineNewGame(NULL), CHESS_ERR_NULL_ARGUMENT);
    /* The void functions ignore NULL. */
    chess_engineStop(NULL);
    chess_enginePonderHit(NULL);
    chess_engineFree(NULL);
    chess_searchLimitsInit(NULL);

    /* Unmake with a NULL record, after a real make. */
    context = "NULL undo record";
    CHECK_STATUS(chess_makeMove(&pos, E2E4, &undo), CHESS_OK, "e2e4");
    EXPECT(chess_unmakeMove(&pos, E2E4, NULL), CHESS_ERR_NULL_ARGUMENT);
    EXPECT(chess_unmakeMoveUnchecked(&pos, E2E4, NULL), CHESS_ERR_NULL_ARGUMENT);
    CHECK_STATUS(chess_unmakeMove(&pos, E2E4, &undo), CHESS_OK, "unmake e2e4");
    CHECK_STATUS(chess_makeNullMove(&pos, &undo), CHESS_OK, "null move");
    EXPECT(chess_unmakeNullMove(&pos, NULL), CHESS_ERR_NULL_ARGUMENT);
    CHECK_STATUS(chess_unmakeNullMove(&pos, &undo), CHESS_OK, "unmake null move");
    char fen[CHESS_FEN_MAX];
    CHECK(strcmp(fen_of(&pos, fen), START_FEN) == 0, "after the NULL calls: \"%s\"", fen);

    /* Functions without pointer arguments that return pointers never return NULL. */
    CHECK(chess_version() != NULL, "chess_version() is NULL");
    CHECK(chess_sliderBackend() != NULL, "chess_sliderBackend() is NULL");
    CHECK(chess_statusMessage(CHESS_ERR_NULL_ARGUMENT) != NULL, "chess_statusMessage is NULL");
}

static void invalid_positions(void)
{
    char context[64];
    for (int kind = 0; kind < 3; kind++) {
        static const char *const names[] = {"zero-filled", "0xFF-filled", "random-filled"};
        snprintf(context, sizeof context, "%s position", names[kind]);
        if (kind == 0) {
            memset(&pos, 0, sizeof pos);
        } else if (kind == 1) {
            memset(&pos, 0xFF, sizeof pos);
        } else {
            Rng rng = rng_new(12345);
            for (size_t i = 0; i < CHESS_POSITION_WORDS; i++) {
                pos._opaque[i] = rng_next(&rng);
            }
        }
        every_position_function(&pos, CHESS_ERR_INVALID_POSITION, context);
        every_getter(&pos, context);
        /* Setting it from FEN is what makes it valid. */
        ChessPosition *p = malloc(sizeof *p);
        if (p != NULL) {
            memcpy(p, &pos, sizeof pos);
            CHECK_STATUS(chess_setStartPosition(p), CHESS_OK, "%s: set start", context);
            char fen[CHESS_FEN_MAX];
            CHECK(strcmp(fen_of(p, fen), START_FEN) == 0, "%s: start position \"%s\"", context,
                  fen);
            memcpy(p, &pos, sizeof pos);
            CHECK_STATUS(chess_setFromFEN(p, KIWIPETE_FEN), CHESS_OK, "%s: set kiwipete", context);
            CHECK(strcmp(fen_of(p, fen), KIWIPETE_FEN) == 0, "%s: kiwipete \"%s\"", context, fen);
            free(p);
        }
    }
}

int main(void)
{
    engine = chess_engineNew();
    if (!CHECK(engine != NULL, "chess_engineNew")) {
        return test_summary("test_null_args");
    }
    chess_searchLimitsInit(&limits);
    limits.depth = 1;
    null_arguments();
    invalid_positions();
    chess_engineFree(engine);
    return test_summary("test_null_args");
}
