/*
 * The frozen ABI, checked at compile time: each frozen function is assigned to a pointer of
 * exactly its frozen type (any change to a signature is an incompatible-pointer error under
 * -Werror); ChessMove and ChessMoveList layout by _Static_assert, and the engine's structs
 * (field types, offsets, fixed sizes); the stable status numbers.
 * At run time: the version macros against chess_version()/chess_versionNumber(), and
 * chess_statusMessage for every enumerator and for unknown values.
 */
#include "common.h"

/* ---- Frozen signatures ------------------------------------------------------------------ */

static ChessStatus (*const frozen_setFromFEN)(ChessPosition *pos, const char *fen) =
    chess_setFromFEN;
static ChessStatus (*const frozen_toFEN)(const ChessPosition *pos, char *buf, size_t len) =
    chess_toFEN;
static ChessStatus (*const frozen_generatePseudoLegalMoves)(const ChessPosition *pos,
                                                            ChessMoveList *out) =
    chess_generatePseudoLegalMoves;
static ChessStatus (*const frozen_generateLegalMoves)(const ChessPosition *pos,
                                                      ChessMoveList *out) =
    chess_generateLegalMoves;
static ChessStatus (*const frozen_makeMove)(ChessPosition *pos, ChessMove move,
                                            ChessUndo *undo) = chess_makeMove;
static ChessStatus (*const frozen_unmakeMove)(ChessPosition *pos, ChessMove move,
                                              const ChessUndo *undo) = chess_unmakeMove;
static ChessStatus (*const frozen_perft)(ChessPosition *pos, uint32_t depth, uint64_t *nodes) =
    chess_perft;
static ChessStatus (*const frozen_moveFromUci)(const ChessPosition *pos, const char *uci,
                                               ChessMove *out) = chess_moveFromUci;
static ChessStatus (*const frozen_moveToUci)(ChessMove move, char *buf, size_t len) =
    chess_moveToUci;
static bool (*const frozen_isRepetition)(const ChessPosition *pos, int32_t plyLimit) =
    chess_isRepetition;
static void (*const frozen_printBitboard)(uint64_t bb) = chess_printBitboard;
static const char *(*const frozen_statusMessage)(ChessStatus status) = chess_statusMessage;

/* The engine (issue 10), frozen once landed. */
static ChessEngine *(*const frozen_engineNew)(void) = chess_engineNew;
static void (*const frozen_engineFree)(ChessEngine *engine) = chess_engineFree;
static ChessStatus (*const frozen_engineSetOption)(ChessEngine *engine, const char *name,
                                                   const char *value) = chess_engineSetOption;
static ChessStatus (*const frozen_engineNewGame)(ChessEngine *engine) = chess_engineNewGame;
static void (*const frozen_searchLimitsInit)(ChessSearchLimits *limits) = chess_searchLimitsInit;
static ChessStatus (*const frozen_search)(ChessEngine *engine, const ChessPosition *pos,
                                          const ChessSearchLimits *limits,
                                          ChessSearchResult *result) = chess_search;
static void (*const frozen_engineStop)(ChessEngine *engine) = chess_engineStop;
static ChessStatus (*const frozen_evaluate)(ChessEngine *engine, const ChessPosition *pos,
                                            int32_t *centipawns) = chess_evaluate;
static void (*const frozen_enginePonderHit)(ChessEngine *engine) = chess_enginePonderHit;
/* The callback's type, as the issue writes it. */
static void info_sink(const ChessSearchInfo *info, void *userData)
{
    (void)info;
    (void)userData;
}
static void (*const frozen_onInfo)(const ChessSearchInfo *info, void *userData) = info_sink;

/* ---- Types and layout ------------------------------------------------------------------- */

/* ChessMove is exactly uint16_t (not merely the same size). */
_Static_assert(_Generic((ChessMove)0, uint16_t: 1, default: 0), "ChessMove must be uint16_t");
_Static_assert(sizeof(ChessMove) == 2, "ChessMove is 16 bits");
static ChessMove move_storage;
static uint16_t *const move_alias = &move_storage; /* incompatible-pointer error otherwise */

/* ChessMoveList: uint16_t moves[256] at offset 0, then uint32_t count. */
_Static_assert(offsetof(ChessMoveList, moves) == 0, "ChessMoveList.moves at offset 0");
_Static_assert(sizeof(((ChessMoveList *)0)->moves) == 256 * sizeof(uint16_t),
               "ChessMoveList.moves is 256 moves");
_Static_assert(sizeof(((ChessMoveList *)0)->moves[0]) == sizeof(uint16_t),
               "ChessMoveList.moves holds 16-bit moves");
_Static_assert(_Generic(((ChessMoveList *)0)->moves[0], uint16_t: 1, default: 0),
               "ChessMoveList.moves[i] is uint16_t");
_Static_assert(offsetof(ChessMoveList, count) == 512, "ChessMoveList.count at offset 512");
_Static_assert(_Generic(((ChessMoveList *)0)->count, uint32_t: 1, default: 0),
               "ChessMoveList.count is uint32_t");
_Static_assert(sizeof(ChessMoveList) == 516, "ChessMoveList is 516 bytes");
_Static_assert(_Alignof(ChessMoveList) == 4, "ChessMoveList is 4-byte aligned");

/* The opaque caller-owned objects. */
_Static_assert(sizeof(ChessPosition) == CHESS_POSITION_WORDS * 8, "ChessPosition size");
_Static_assert(sizeof(ChessPosition) == 9216, "ChessPosition is 9216 bytes");
_Static_assert(_Alignof(ChessPosition) == 8, "ChessPosition is 8-byte aligned");
_Static_assert(sizeof(ChessUndo) == CHESS_UNDO_WORDS * 8, "ChessUndo size");
_Static_assert(sizeof(ChessUndo) == 48, "ChessUndo is 48 bytes");
_Static_assert(_Alignof(ChessUndo) == 8, "ChessUndo is 8-byte aligned");

/* The engine's structs: field types and offsets (64-bit layout), fixed sizes. */
#define FIELD_IS(type, field, T) _Generic(((type *)0)->field, T: 1, default: 0)
_Static_assert(FIELD_IS(ChessSearchLimits, size, uint32_t) &&
                   FIELD_IS(ChessSearchLimits, depth, int32_t) &&
                   FIELD_IS(ChessSearchLimits, nodes, uint64_t) &&
                   FIELD_IS(ChessSearchLimits, movetimeMs, int64_t) &&
                   FIELD_IS(ChessSearchLimits, wtimeMs, int64_t) &&
                   FIELD_IS(ChessSearchLimits, btimeMs, int64_t) &&
                   FIELD_IS(ChessSearchLimits, wincMs, int64_t) &&
                   FIELD_IS(ChessSearchLimits, bincMs, int64_t) &&
                   FIELD_IS(ChessSearchLimits, movestogo, uint32_t) &&
                   FIELD_IS(ChessSearchLimits, mate, uint32_t) &&
                   FIELD_IS(ChessSearchLimits, searchMoves, const ChessMove *) &&
                   FIELD_IS(ChessSearchLimits, onInfo, ChessInfoCallback) &&
                   FIELD_IS(ChessSearchLimits, userData, void *) &&
                   FIELD_IS(ChessSearchLimits, searchMovesCount, uint32_t) &&
                   FIELD_IS(ChessSearchLimits, infinite, bool) &&
                   FIELD_IS(ChessSearchLimits, ponder, bool),
               "ChessSearchLimits field types");
_Static_assert(FIELD_IS(ChessSearchResult, size, uint32_t) &&
                   FIELD_IS(ChessSearchResult, bestMove, uint16_t) &&
                   FIELD_IS(ChessSearchResult, ponderMove, uint16_t) &&
                   FIELD_IS(ChessSearchResult, scoreCp, int32_t) &&
                   FIELD_IS(ChessSearchResult, mateIn, int32_t) &&
                   FIELD_IS(ChessSearchResult, depth, uint32_t) &&
                   FIELD_IS(ChessSearchResult, seldepth, uint32_t) &&
                   FIELD_IS(ChessSearchResult, nodes, uint64_t) &&
                   FIELD_IS(ChessSearchResult, timeMs, uint64_t) &&
                   FIELD_IS(ChessSearchResult, pvLength, uint32_t) &&
                   FIELD_IS(ChessSearchResult, pv[0], uint16_t),
               "ChessSearchResult field types");
_Static_assert(FIELD_IS(ChessSearchInfo, size, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, depth, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, seldepth, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, multipv, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, scoreCp, int32_t) &&
                   FIELD_IS(ChessSearchInfo, mateIn, int32_t) &&
                   FIELD_IS(ChessSearchInfo, bound, ChessScoreBound) &&
                   FIELD_IS(ChessSearchInfo, hashfull, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, nodes, uint64_t) &&
                   FIELD_IS(ChessSearchInfo, nps, uint64_t) &&
                   FIELD_IS(ChessSearchInfo, timeMs, uint64_t) &&
                   FIELD_IS(ChessSearchInfo, pvLength, uint32_t) &&
                   FIELD_IS(ChessSearchInfo, pv[0], uint16_t),
               "ChessSearchInfo field types");
_Static_assert(CHESS_MAX_PV == 128 && CHESS_MATE_SCORE == 32000 &&
                   CHESS_MAX_SEARCH_MOVES == 256,
               "engine constants");
_Static_assert(sizeof(((ChessSearchResult *)0)->pv) == CHESS_MAX_PV * sizeof(ChessMove) &&
                   sizeof(((ChessSearchInfo *)0)->pv) == CHESS_MAX_PV * sizeof(ChessMove),
               "PV capacity");
_Static_assert(CHESS_BOUND_EXACT == 0 && CHESS_BOUND_LOWER == 1 && CHESS_BOUND_UPPER == 2,
               "score bounds");
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
_Static_assert(offsetof(ChessSearchLimits, size) == 0 &&
                   offsetof(ChessSearchLimits, depth) == 4 &&
                   offsetof(ChessSearchLimits, nodes) == 8 &&
                   offsetof(ChessSearchLimits, movetimeMs) == 16 &&
                   offsetof(ChessSearchLimits, wtimeMs) == 24 &&
                   offsetof(ChessSearchLimits, btimeMs) == 32 &&
                   offsetof(ChessSearchLimits, wincMs) == 40 &&
                   offsetof(ChessSearchLimits, bincMs) == 48 &&
                   offsetof(ChessSearchLimits, movestogo) == 56 &&
                   offsetof(ChessSearchLimits, mate) == 60 &&
                   offsetof(ChessSearchLimits, searchMoves) == 64 &&
                   offsetof(ChessSearchLimits, onInfo) == 72 &&
                   offsetof(ChessSearchLimits, userData) == 80 &&
                   offsetof(ChessSearchLimits, searchMovesCount) == 88 &&
                   offsetof(ChessSearchLimits, infinite) == 92 &&
                   offsetof(ChessSearchLimits, ponder) == 93 &&
                   offsetof(ChessSearchLimits, reserved) == 94 &&
                   sizeof(ChessSearchLimits) == 256 && _Alignof(ChessSearchLimits) == 8,
               "ChessSearchLimits layout");
#endif
_Static_assert(offsetof(ChessSearchResult, size) == 0 &&
                   offsetof(ChessSearchResult, bestMove) == 4 &&
                   offsetof(ChessSearchResult, ponderMove) == 6 &&
                   offsetof(ChessSearchResult, scoreCp) == 8 &&
                   offsetof(ChessSearchResult, mateIn) == 12 &&
                   offsetof(ChessSearchResult, depth) == 16 &&
                   offsetof(ChessSearchResult, seldepth) == 20 &&
                   offsetof(ChessSearchResult, nodes) == 24 &&
                   offsetof(ChessSearchResult, timeMs) == 32 &&
                   offsetof(ChessSearchResult, pvLength) == 40 &&
                   offsetof(ChessSearchResult, pv) == 44 &&
                   offsetof(ChessSearchResult, reserved) == 300 &&
                   sizeof(ChessSearchResult) == 512 && _Alignof(ChessSearchResult) == 8,
               "ChessSearchResult layout");
_Static_assert(offsetof(ChessSearchInfo, size) == 0 && offsetof(ChessSearchInfo, depth) == 4 &&
                   offsetof(ChessSearchInfo, seldepth) == 8 &&
                   offsetof(ChessSearchInfo, multipv) == 12 &&
                   offsetof(ChessSearchInfo, scoreCp) == 16 &&
                   offsetof(ChessSearchInfo, mateIn) == 20 &&
                   offsetof(ChessSearchInfo, bound) == 24 &&
                   offsetof(ChessSearchInfo, hashfull) == 28 &&
                   offsetof(ChessSearchInfo, nodes) == 32 && offsetof(ChessSearchInfo, nps) == 40 &&
                   offsetof(ChessSearchInfo, timeMs) == 48 &&
                   offsetof(ChessSearchInfo, pvLength) == 56 &&
                   offsetof(ChessSearchInfo, pv) == 60 && sizeof(ChessSearchInfo) == 320,
               "ChessSearchInfo layout");

/* Stable status numbers ("new codes are only ever added"). */
_Static_assert(CHESS_OK == 0 && CHESS_ERR_NULL_ARGUMENT == 1 && CHESS_ERR_BUFFER_TOO_SMALL == 2 &&
                   CHESS_ERR_ILLEGAL_MOVE == 3 && CHESS_ERR_HISTORY_FULL == 4 &&
                   CHESS_ERR_INVALID_ARGUMENT == 5 && CHESS_ERR_INVALID_POSITION == 6 &&
                   CHESS_ERR_BAD_UNDO == 7 && CHESS_ERR_INTERNAL == 8,
               "general status numbers");
_Static_assert(CHESS_ERR_FEN_FIELD_COUNT == 100 && CHESS_ERR_FEN_TRAILING_TEXT == 101 &&
                   CHESS_ERR_FEN_BOARD == 102 && CHESS_ERR_FEN_SIDE_TO_MOVE == 103 &&
                   CHESS_ERR_FEN_CASTLING == 104 && CHESS_ERR_FEN_EN_PASSANT == 105 &&
                   CHESS_ERR_FEN_HALFMOVE_CLOCK == 106 && CHESS_ERR_FEN_FULLMOVE_NUMBER == 107 &&
                   CHESS_ERR_FEN_KING_COUNT == 108 && CHESS_ERR_FEN_PAWN_ON_BACK_RANK == 109 &&
                   CHESS_ERR_FEN_TOO_MANY_PIECES == 110 &&
                   CHESS_ERR_FEN_CASTLING_RIGHTS == 111 &&
                   CHESS_ERR_FEN_EN_PASSANT_RANK == 112 &&
                   CHESS_ERR_FEN_EN_PASSANT_PAWN == 113 &&
                   CHESS_ERR_FEN_OPPONENT_IN_CHECK == 114 &&
                   CHESS_ERR_FEN_IMPOSSIBLE_CHECK == 115,
               "FEN status numbers");
_Static_assert(CHESS_ERR_ENGINE_BUSY == 200 && CHESS_ERR_INVALID_LIMITS == 201 &&
                   CHESS_ERR_UNKNOWN_OPTION == 202 && CHESS_ERR_BAD_OPTION_VALUE == 203 &&
                   CHESS_ERR_OUT_OF_MEMORY == 204 && CHESS_ERR_EVAL_FILE_UNREADABLE == 205 &&
                   CHESS_ERR_EVAL_FILE_INVALID == 206,
               "engine status numbers");
_Static_assert(CHESS_ONGOING == 0 && CHESS_CHECKMATE == 1 && CHESS_STALEMATE == 2 &&
                   CHESS_FIFTY_MOVE_RULE == 3 && CHESS_THREEFOLD_REPETITION == 4 &&
                   CHESS_INSUFFICIENT_MATERIAL == 5,
               "game status numbers");
_Static_assert(CHESS_GEN_ALL == 0 && CHESS_GEN_CAPTURES == 1 && CHESS_GEN_QUIETS == 2,
               "generator classes");
_Static_assert(CHESS_ALL_PIECE_TYPES == 126, "pawn..king bits 1..6");
_Static_assert(CHESSCORE_VERSION == CHESSCORE_VERSION_MAJOR * 10000 +
                                       CHESSCORE_VERSION_MINOR * 100 + CHESSCORE_VERSION_PATCH,
               "CHESSCORE_VERSION encoding");

/* Every enumerator of ChessStatus, for the message test. */
static const ChessStatus all_statuses[] = {
    CHESS_OK,
    CHESS_ERR_NULL_ARGUMENT,
    CHESS_ERR_BUFFER_TOO_SMALL,
    CHESS_ERR_ILLEGAL_MOVE,
    CHESS_ERR_HISTORY_FULL,
    CHESS_ERR_INVALID_ARGUMENT,
    CHESS_ERR_INVALID_POSITION,
    CHESS_ERR_BAD_UNDO,
    CHESS_ERR_INTERNAL,
    CHESS_ERR_FEN_FIELD_COUNT,
    CHESS_ERR_FEN_TRAILING_TEXT,
    CHESS_ERR_FEN_BOARD,
    CHESS_ERR_FEN_SIDE_TO_MOVE,
    CHESS_ERR_FEN_CASTLING,
    CHESS_ERR_FEN_EN_PASSANT,
    CHESS_ERR_FEN_HALFMOVE_CLOCK,
    CHESS_ERR_FEN_FULLMOVE_NUMBER,
    CHESS_ERR_FEN_KING_COUNT,
    CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
    CHESS_ERR_FEN_TOO_MANY_PIECES,
    CHESS_ERR_FEN_CASTLING_RIGHTS,
    CHESS_ERR_FEN_EN_PASSANT_RANK,
    CHESS_ERR_FEN_EN_PASSANT_PAWN,
    CHESS_ERR_FEN_OPPONENT_IN_CHECK,
    CHESS_ERR_FEN_IMPOSSIBLE_CHECK,
    CHESS_ERR_ENGINE_BUSY,
    CHESS_ERR_INVALID_LIMITS,
    CHESS_ERR_UNKNOWN_OPTION,
    CHESS_ERR_BAD_OPTION_VALUE,
    CHESS_ERR_OUT_OF_MEMORY,
    CHESS_ERR_EVAL_FILE_UNREADABLE,
    CHESS_ERR_EVAL_FILE_INVALID,
};
#define NSTATUSES (sizeof all_statuses / sizeof all_statuses[0])
_Static_assert(NSTATUSES == 32, "update all_statuses when the enum grows");

static void versions(void)
{
    CHECK(chess_versionNumber() == CHESSCORE_VERSION, "chess_versionNumber() = %u, header %d",
          chess_versionNumber(), CHESSCORE_VERSION);
    const char *v = chess_version();
    CHECK(v != NULL && strcmp(v, CHESSCORE_VERSION_STRING) == 0,
          "chess_version() = \"%s\", header \"%s\"", v ? v : "(null)", CHESSCORE_VERSION_STRING);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", CHESSCORE_VERSION_MAJOR, CHESSCORE_VERSION_MINOR,
             CHESSCORE_VERSION_PATCH);
    CHECK(strcmp(expect, CHESSCORE_VERSION_STRING) == 0,
          "CHESSCORE_VERSION_STRING \"%s\" != MAJOR.MINOR.PATCH \"%s\"", CHESSCORE_VERSION_STRING,
          expect);
    const char *backend = chess_sliderBackend();
    CHECK(backend != NULL && (strcmp(backend, "pext") == 0 || strcmp(backend, "magic") == 0),
          "chess_sliderBackend() = \"%s\"", backend ? backend : "(null)");
#if !defined(__x86_64__) && !defined(_M_X64)
    /* No PEXT off x86-64 (aarch64 under qemu: scripts/cross-aarch64): the magic tables. */
    CHECK(backend != NULL && strcmp(backend, "magic") == 0,
          "chess_sliderBackend() = \"%s\" on a non-x86-64 target, expected \"magic\"",
          backend ? backend : "(null)");
#endif
    printf("chesscore %s (%u), slider back end %s\n", v ? v : "?", chess_versionNumber(),
           backend ? backend : "?");
}

static void status_messages(void)
{
    const char *msgs[NSTATUSES];
    for (size_t i = 0; i < NSTATUSES; i++) {
        msgs[i] = frozen_statusMessage(all_statuses[i]);
        CHECK(msgs[i] != NULL, "chess_statusMessage(%s) is NULL", status_name(all_statuses[i]));
        if (msgs[i] == NULL) {
            msgs[i] = "";
            continue;
        }
        CHECK(strlen(msgs[i]) > 0, "chess_statusMessage(%s) is empty",
              status_name(all_statuses[i]));
        for (size_t j = 0; j < i; j++) {
            CHECK(strcmp(msgs[i], msgs[j]) != 0, "chess_statusMessage(%s) == (%s): \"%s\"",
                  status_name(all_statuses[i]), status_name(all_statuses[j]), msgs[i]);
        }
        /* Static text: the same pointer or at least the same text on the next call. */
        const char *again = chess_statusMessage(all_statuses[i]);
        CHECK(again != NULL && strcmp(again, msgs[i]) == 0, "message for %s not stable",
              status_name(all_statuses[i]));
    }
    static const int unknown[] = {9999, 9, 99, 116, 199, 207, 1000, -1, 0x7fffffff};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *m = chess_statusMessage((ChessStatus)unknown[i]);
        CHECK(m != NULL && strlen(m) > 0, "chess_statusMessage(%d) is NULL or empty", unknown[i]);
        if (m == NULL) {
            continue;
        }
        for (size_t j = 0; j < NSTATUSES; j++) {
            CHECK(strcmp(m, msgs[j]) != 0, "unknown code %d has the message of %s", unknown[i],
                  status_name(all_statuses[j]));
        }
    }
}

/* Calls through every frozen pointer once, so the frozen types are also exercised at run
 * time (the compile-time assignment is the real check). */
static void frozen_calls(void)
{
    ChessPosition pos;
    ChessMoveList list;
    ChessUndo undo;
    char buf[CHESS_FEN_MAX];
    ChessMove m = 0;
    uint64_t nodes = 0;
    CHECK_STATUS(frozen_setFromFEN(&pos, START_FEN), CHESS_OK, "setFromFEN");
    CHECK_STATUS(frozen_toFEN(&pos, buf, sizeof buf), CHESS_OK, "toFEN");
    CHECK(strcmp(buf, START_FEN) == 0, "toFEN \"%s\"", buf);
    CHECK_STATUS(frozen_generatePseudoLegalMoves(&pos, &list), CHESS_OK, "pseudo");
    CHECK(list.count == 20, "pseudo-legal moves of the start: %u", list.count);
    CHECK_STATUS(frozen_generateLegalMoves(&pos, &list), CHESS_OK, "legal");
    CHECK(list.count == 20, "legal moves of the start: %u", list.count);
    CHECK_STATUS(frozen_moveFromUci(&pos, "e2e4", &m), CHESS_OK, "moveFromUci");
    *move_alias = m;
    CHECK(move_storage == m, "alias");
    CHECK(m == MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1), "e2e4 = 0x%04x", (unsigned)m);
    CHECK_STATUS(frozen_moveToUci(m, buf, sizeof buf), CHESS_OK, "moveToUci");
    CHECK(strcmp(buf, "e2e4") == 0, "moveToUci \"%s\"", buf);
    CHECK_STATUS(frozen_makeMove(&pos, m, &undo), CHESS_OK, "makeMove");
    CHECK(!frozen_isRepetition(&pos, 100), "isRepetition");
    CHECK_STATUS(frozen_unmakeMove(&pos, m, &undo), CHESS_OK, "unmakeMove");
    CHECK_STATUS(frozen_perft(&pos, 3, &nodes), CHESS_OK, "perft");
    CHECK(nodes == 8902, "perft 3 = %" PRIu64, nodes);
    frozen_printBitboard(1); /* prints the a1 grid; the text is checked via the buffer form */

    ChessEngine *engine = frozen_engineNew();
    CHECK(engine != NULL, "engineNew");
    ChessSearchLimits limits;
    ChessSearchResult result;
    int32_t cp = 0;
    frozen_searchLimitsInit(&limits);
    limits.depth = 3;
    limits.onInfo = frozen_onInfo;
    CHECK_STATUS(frozen_engineSetOption(engine, "Hash", "1"), CHESS_OK, "engineSetOption");
    CHECK_STATUS(frozen_engineNewGame(engine), CHESS_OK, "engineNewGame");
    CHECK_STATUS(frozen_search(engine, &pos, &limits, &result), CHESS_OK, "search");
    CHECK(result.bestMove != 0 && result.depth == 3, "search: bestMove 0x%04x, depth %u",
          (unsigned)result.bestMove, result.depth);
    CHECK_STATUS(frozen_evaluate(engine, &pos, &cp), CHESS_OK, "evaluate");
    frozen_engineStop(engine);      /* no search running: ignored */
    frozen_enginePonderHit(engine); /* likewise */
    frozen_engineFree(engine);
}

int main(void)
{
    versions();
    status_messages();
    frozen_calls();
    return test_summary("test_abi");
}
