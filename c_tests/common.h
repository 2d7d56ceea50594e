/*
 * Shared helpers for the chesscore C test programs: check macros with a failure counter,
 * an EPD perft-suite reader, a fixed-seed xorshift PRNG and small position helpers.
 *
 * Everything here is `static inline` so that a program that does not use a helper gets no
 * "defined but not used" warning under -Wall -Wextra -Werror.
 */
#ifndef CHESSCORE_C_TESTS_COMMON_H
#define CHESSCORE_C_TESTS_COMMON_H

#include "chesscore.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32) && !defined(_UCRT)
#include <sys/timeb.h>
#endif
#include <time.h>

/* ---------------------------------------------------------------------------------------- */
/* Check bookkeeping                                                                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    unsigned long long checks;
    unsigned long long failures;
} TestCounters;

/* One instance per program (each program is a single translation unit). */
static TestCounters g_test;

/* Only the first failures are printed in full: a broken invariant inside a 65536-value loop
 * must not flood the ctest log. */
#define TEST_MAX_PRINTED_FAILURES 60

static inline void test_fail_v(const char *file, int line, const char *fmt, va_list ap)
{
    g_test.failures++;
    if (g_test.failures <= TEST_MAX_PRINTED_FAILURES) {
        fflush(stdout); /* keep progress lines and failures in order in the ctest log */
        fprintf(stderr, "FAIL %s:%d: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        if (g_test.failures == TEST_MAX_PRINTED_FAILURES) {
            fprintf(stderr, "(further failures are counted but not printed)\n");
        }
    }
}

static inline bool test_check(bool ok, const char *file, int line, const char *fmt, ...)
{
    g_test.checks++;
    if (!ok) {
        va_list ap;
        va_start(ap, fmt);
        test_fail_v(file, line, fmt, ap);
        va_end(ap);
    }
    return ok;
}

/* CHECK(condition, printf-format, args...): counts a check; prints the message on failure.
 * Evaluates to the truth of the condition. */
#define CHECK(cond, ...) test_check((cond) ? true : false, __FILE__, __LINE__, __VA_ARGS__)

/* Symbolic name of a status code, from the header's enum (not from the library). */
static inline const char *status_name(ChessStatus s)
{
    switch ((int)s) {
    case CHESS_OK: return "CHESS_OK";
    case CHESS_ERR_NULL_ARGUMENT: return "CHESS_ERR_NULL_ARGUMENT";
    case CHESS_ERR_BUFFER_TOO_SMALL: return "CHESS_ERR_BUFFER_TOO_SMALL";
    case CHESS_ERR_ILLEGAL_MOVE: return "CHESS_ERR_ILLEGAL_MOVE";
    case CHESS_ERR_HISTORY_FULL: return "CHESS_ERR_HISTORY_FULL";
    case CHESS_ERR_INVALID_ARGUMENT: return "CHESS_ERR_INVALID_ARGUMENT";
    case CHESS_ERR_INVALID_POSITION: return "CHESS_ERR_INVALID_POSITION";
    case CHESS_ERR_BAD_UNDO: return "CHESS_ERR_BAD_UNDO";
    case CHESS_ERR_INTERNAL: return "CHESS_ERR_INTERNAL";
    case CHESS_ERR_FEN_FIELD_COUNT: return "CHESS_ERR_FEN_FIELD_COUNT";
    case CHESS_ERR_FEN_TRAILING_TEXT: return "CHESS_ERR_FEN_TRAILING_TEXT";
    case CHESS_ERR_FEN_BOARD: return "CHESS_ERR_FEN_BOARD";
    case CHESS_ERR_FEN_SIDE_TO_MOVE: return "CHESS_ERR_FEN_SIDE_TO_MOVE";
    case CHESS_ERR_FEN_CASTLING: return "CHESS_ERR_FEN_CASTLING";
    case CHESS_ERR_FEN_EN_PASSANT: return "CHESS_ERR_FEN_EN_PASSANT";
    case CHESS_ERR_FEN_HALFMOVE_CLOCK: return "CHESS_ERR_FEN_HALFMOVE_CLOCK";
    case CHESS_ERR_FEN_FULLMOVE_NUMBER: return "CHESS_ERR_FEN_FULLMOVE_NUMBER";
    case CHESS_ERR_FEN_KING_COUNT: return "CHESS_ERR_FEN_KING_COUNT";
    case CHESS_ERR_FEN_PAWN_ON_BACK_RANK: return "CHESS_ERR_FEN_PAWN_ON_BACK_RANK";
    case CHESS_ERR_FEN_TOO_MANY_PIECES: return "CHESS_ERR_FEN_TOO_MANY_PIECES";
    case CHESS_ERR_FEN_CASTLING_RIGHTS: return "CHESS_ERR_FEN_CASTLING_RIGHTS";
    case CHESS_ERR_FEN_EN_PASSANT_RANK: return "CHESS_ERR_FEN_EN_PASSANT_RANK";
    case CHESS_ERR_FEN_EN_PASSANT_PAWN: return "CHESS_ERR_FEN_EN_PASSANT_PAWN";
    case CHESS_ERR_FEN_OPPONENT_IN_CHECK: return "CHESS_ERR_FEN_OPPONENT_IN_CHECK";
    case CHESS_ERR_FEN_IMPOSSIBLE_CHECK: return "CHESS_ERR_FEN_IMPOSSIBLE_CHECK";
    case CHESS_ERR_ENGINE_BUSY: return "CHESS_ERR_ENGINE_BUSY";
    case CHESS_ERR_INVALID_LIMITS: return "CHESS_ERR_INVALID_LIMITS";
    case CHESS_ERR_UNKNOWN_OPTION: return "CHESS_ERR_UNKNOWN_OPTION";
    case CHESS_ERR_BAD_OPTION_VALUE: return "CHESS_ERR_BAD_OPTION_VALUE";
    case CHESS_ERR_OUT_OF_MEMORY: return "CHESS_ERR_OUT_OF_MEMORY";
    case CHESS_ERR_EVAL_FILE_UNREADABLE: return "CHESS_ERR_EVAL_FILE_UNREADABLE";
    case CHESS_ERR_EVAL_FILE_INVALID: return "CHESS_ERR_EVAL_FILE_INVALID";
    case CHESS_ERR_DICE_INVALID_GAME: return "CHESS_ERR_DICE_INVALID_GAME";
    case CHESS_ERR_DICE_INVALID_RULES: return "CHESS_ERR_DICE_INVALID_RULES";
    case CHESS_ERR_DICE_NOT_AWAITING_ROLL: return "CHESS_ERR_DICE_NOT_AWAITING_ROLL";
    case CHESS_ERR_DICE_NOT_AWAITING_MOVE: return "CHESS_ERR_DICE_NOT_AWAITING_MOVE";
    case CHESS_ERR_DICE_INVALID_ROLL: return "CHESS_ERR_DICE_INVALID_ROLL";
    case CHESS_ERR_DICE_FEN_EN_PASSANT: return "CHESS_ERR_DICE_FEN_EN_PASSANT";
    case CHESS_ERR_DICE_FEN_DICE: return "CHESS_ERR_DICE_FEN_DICE";
    case CHESS_ERR_DICE_FEN_BOTH_IN_CHECK: return "CHESS_ERR_DICE_FEN_BOTH_IN_CHECK";
    case CHESS_ERR_DICE_UNSUPPORTED_LIMITS: return "CHESS_ERR_DICE_UNSUPPORTED_LIMITS";
    case CHESS_ERR_SAN_SYNTAX: return "CHESS_ERR_SAN_SYNTAX";
    case CHESS_ERR_SAN_ILLEGAL: return "CHESS_ERR_SAN_ILLEGAL";
    case CHESS_ERR_SAN_AMBIGUOUS: return "CHESS_ERR_SAN_AMBIGUOUS";
    case CHESS_ERR_PGN_END_OF_INPUT: return "CHESS_ERR_PGN_END_OF_INPUT";
    case CHESS_ERR_PGN_TAG: return "CHESS_ERR_PGN_TAG";
    case CHESS_ERR_PGN_FEN: return "CHESS_ERR_PGN_FEN";
    case CHESS_ERR_PGN_VARIANT: return "CHESS_ERR_PGN_VARIANT";
    case CHESS_ERR_PGN_TOKEN: return "CHESS_ERR_PGN_TOKEN";
    case CHESS_ERR_PGN_UNTERMINATED: return "CHESS_ERR_PGN_UNTERMINATED";
    case CHESS_ERR_PGN_PARENTHESIS: return "CHESS_ERR_PGN_PARENTHESIS";
    case CHESS_ERR_PGN_NO_GAME: return "CHESS_ERR_PGN_NO_GAME";
    case CHESS_ERR_PGN_NO_SUCH_TAG: return "CHESS_ERR_PGN_NO_SUCH_TAG";
    default: return "(unknown status)";
    }
}

/* CHECK_STATUS(expr, expected, printf-format, args...): the call's status must be `expected`. */
#define CHECK_STATUS(expr, expected, ...)                                                      \
    check_status_impl((expr), (expected), #expr, __FILE__, __LINE__, __VA_ARGS__)

static inline bool check_status_impl(ChessStatus got, ChessStatus want, const char *expr,
                                     const char *file, int line, const char *fmt, ...)
{
    g_test.checks++;
    if (got == want) {
        return true;
    }
    char context[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
    g_test.checks--; /* test_check counts it again */
    return test_check(false, file, line, "%s: %s returned %s (%d), expected %s (%d)", context,
                      expr, status_name(got), (int)got, status_name(want), (int)want);
}

/* Prints the one-line summary and returns the process exit code. */
static inline int test_summary(const char *program)
{
    if (g_test.checks == 0) {
        printf("%s: FAILED: no checks were run\n", program);
        return 1;
    }
    if (g_test.failures != 0) {
        printf("%s: FAILED: %llu of %llu checks failed\n", program, g_test.failures,
               g_test.checks);
        return 1;
    }
    printf("%s: PASSED: %llu checks\n", program, g_test.checks);
    return 0;
}

#if defined(_WIN32) && !defined(_UCRT)
/* Wall-clock seconds: mingw-w64 on msvcrt.dll has no C11 timespec_get, so _ftime64 (ms). */
static inline double now_seconds(void)
{
    struct __timeb64 tb;
    _ftime64(&tb);
    return (double)tb.time + (double)tb.millitm * 1e-3;
}
#else
/* Wall-clock seconds (C11 timespec_get). */
static inline double now_seconds(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC) {
        return 0.0;
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

/* ---------------------------------------------------------------------------------------- */
/* PRNG: xorshift64* with a fixed seed, so every run plays the same games                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    uint64_t state;
} Rng;

static inline Rng rng_new(uint64_t seed)
{
    Rng r;
    r.state = seed ? seed : 0x9E3779B97F4A7C15ull;
    return r;
}

static inline uint64_t rng_next(Rng *r)
{
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform in 0..n-1 (n > 0); the bias is irrelevant for testing. */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    return (uint32_t)((rng_next(r) >> 32) % n);
}

/* ---------------------------------------------------------------------------------------- */
/* EPD perft suites: `FEN ;D1 n1 ;D2 n2 ...`                                                 */
/* ---------------------------------------------------------------------------------------- */

#define EPD_MAX_FEN 128
#define EPD_MAX_DEPTHS 16

typedef struct {
    char fen[EPD_MAX_FEN];
    int line;     /* 1-based line number in the file */
    int ndepths;  /* number of `;Dd n` fields */
    uint32_t depth[EPD_MAX_DEPTHS];
    uint64_t count[EPD_MAX_DEPTHS];
} EpdEntry;

typedef struct {
    const char *path;
    EpdEntry *entries;
    int count;
} EpdFile;

static inline bool epd_parse_u64(const char *s, const char **end, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') {
        return false;
    }
    while (*p >= '0' && *p <= '9') {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) {
            return false;
        }
        v = v * 10 + d;
        p++;
    }
    *end = p;
    *out = v;
    return true;
}

/* Parses one line strictly; returns false (with a message) on any malformation. */
static inline bool epd_parse_line(const char *path, int lineno, char *text, EpdEntry *e)
{
    memset(e, 0, sizeof *e);
    e->line = lineno;
    char *semi = strchr(text, ';');
    if (semi == NULL) {
        fprintf(stderr, "%s:%d: no ';Dn count' fields\n", path, lineno);
        return false;
    }
    size_t fen_len = (size_t)(semi - text);
    while (fen_len > 0 && text[fen_len - 1] == ' ') {
        fen_len--;
    }
    if (fen_len == 0 || fen_len >= EPD_MAX_FEN) {
        fprintf(stderr, "%s:%d: FEN empty or too long\n", path, lineno);
        return false;
    }
    memcpy(e->fen, text, fen_len);
    e->fen[fen_len] = '\0';
    const char *p = semi;
    while (*p == ';') {
        p++;
        if (*p != 'D') {
            fprintf(stderr, "%s:%d: expected 'D' after ';'\n", path, lineno);
            return false;
        }
        p++;
        uint64_t depth, count;
        if (!epd_parse_u64(p, &p, &depth) || depth == 0 || depth > 64 || *p != ' ') {
            fprintf(stderr, "%s:%d: bad depth\n", path, lineno);
            return false;
        }
        p++;
        if (!epd_parse_u64(p, &p, &count)) {
            fprintf(stderr, "%s:%d: bad count\n", path, lineno);
            return false;
        }
        if (e->ndepths == EPD_MAX_DEPTHS) {
            fprintf(stderr, "%s:%d: too many depths\n", path, lineno);
            return false;
        }
        if (e->ndepths > 0 && depth <= e->depth[e->ndepths - 1]) {
            fprintf(stderr, "%s:%d: depths not increasing\n", path, lineno);
            return false;
        }
        e->depth[e->ndepths] = (uint32_t)depth;
        e->count[e->ndepths] = count;
        e->ndepths++;
        while (*p == ' ') {
            p++;
        }
    }
    if (*p != '\0') {
        fprintf(stderr, "%s:%d: trailing text '%s'\n", path, lineno, p);
        return false;
    }
    return true;
}

/* Loads an EPD file; exits the program with status 2 if it cannot be read or parsed (a test
 * must never pass on a missing or half-read suite). */
static inline EpdFile epd_load(const char *path)
{
    EpdFile f;
    f.path = path;
    f.entries = NULL;
    f.count = 0;
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    int cap = 0;
    int lineno = 0;
    char line[1024];
    bool ok = true;
    while (fgets(line, sizeof line, fp) != NULL) {
        lineno++;
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            fprintf(stderr, "%s:%d: line too long\n", path, lineno);
            ok = false;
            break;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) {
            line[--n] = '\0';
        }
        if (n == 0 || line[0] == '#') {
            continue;
        }
        if (f.count == cap) {
            cap = cap ? cap * 2 : 64;
            EpdEntry *grown = realloc(f.entries, (size_t)cap * sizeof *grown);
            if (grown == NULL) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
            f.entries = grown;
        }
        if (!epd_parse_line(path, lineno, line, &f.entries[f.count])) {
            ok = false;
            break;
        }
        f.count++;
    }
    if (ferror(fp)) {
        fprintf(stderr, "%s: read error\n", path);
        ok = false;
    }
    fclose(fp);
    if (!ok || f.count == 0) {
        fprintf(stderr, "%s: unusable perft suite\n", path);
        exit(2);
    }
    return f;
}

static inline void epd_free(EpdFile *f)
{
    free(f->entries);
    f->entries = NULL;
    f->count = 0;
}

/* The FENs of every line of the given suite files, in file order, into fens[0..max); returns
 * how many were read. */
static inline int load_suite_fens(int nfiles, char **files, char (*fens)[EPD_MAX_FEN], int max)
{
    int n = 0;
    for (int f = 0; f < nfiles; f++) {
        EpdFile suite = epd_load(files[f]);
        for (int i = 0; i < suite.count && n < max; i++) {
            strcpy(fens[n++], suite.entries[i].fen);
        }
        epd_free(&suite);
    }
    return n;
}

/* ---------------------------------------------------------------------------------------- */
/* Position helpers                                                                         */
/* ---------------------------------------------------------------------------------------- */

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE_FEN "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

/* Move encoding from the header. */
#define MOVE_FROM(m) ((unsigned)((m) & 63u))
#define MOVE_TO(m) ((unsigned)(((m) >> 6) & 63u))
#define MOVE_FLAG(m) ((unsigned)(((m) >> 12) & 15u))
#define MOVE_IS_CAPTURE(m) ((((m) >> 14) & 1u) != 0)
#define MOVE_IS_PROMOTION(m) ((((m) >> 15) & 1u) != 0)
#define MAKE_MOVE(from, to, flag)                                                              \
    ((ChessMove)((unsigned)(from) | ((unsigned)(to) << 6) | ((unsigned)(flag) << 12)))

/* Square index from "e4"-style text (LERF: a1 = 0). */
#define SQ(file_char, rank_char) ((unsigned)(((rank_char) - '1') * 8 + ((file_char) - 'a')))

/* Sets a position from FEN, counting a failure (and returning false) if refused. */
#define SET_FEN(pos, fen) set_fen_impl((pos), (fen), __FILE__, __LINE__)

static inline bool set_fen_impl(ChessPosition *pos, const char *fen, const char *file, int line)
{
    ChessStatus s = chess_setFromFEN(pos, fen);
    return test_check(s == CHESS_OK, file, line, "chess_setFromFEN(\"%s\") returned %s (%d)", fen,
                      status_name(s), (int)s);
}

/* The FEN of a position into buf (CHESS_FEN_MAX bytes); "<error>" on failure. */
static inline const char *fen_of(const ChessPosition *pos, char *buf)
{
    if (chess_toFEN(pos, buf, CHESS_FEN_MAX) != CHESS_OK) {
        strcpy(buf, "<chess_toFEN failed>");
    }
    return buf;
}

/* A snapshot of everything observable about a position through the ABI that must be restored
 * exactly by unmake. */
typedef struct {
    char fen[CHESS_FEN_MAX];
    uint64_t hash;
    uint64_t pawn_hash;
    uint64_t material_hash;
} PosState;

static inline PosState pos_state(const ChessPosition *pos)
{
    PosState s;
    memset(&s, 0, sizeof s);
    fen_of(pos, s.fen);
    s.hash = chess_hash(pos);
    s.pawn_hash = chess_pawnHash(pos);
    s.material_hash = chess_materialHash(pos);
    return s;
}

static inline bool pos_state_equal(const PosState *a, const PosState *b)
{
    return strcmp(a->fen, b->fen) == 0 && a->hash == b->hash && a->pawn_hash == b->pawn_hash &&
           a->material_hash == b->material_hash;
}

/* Whether `m` is among the first `list->count` moves. */
static inline bool movelist_contains(const ChessMoveList *list, ChessMove m)
{
    for (uint32_t i = 0; i < list->count && i < 256; i++) {
        if (list->moves[i] == m) {
            return true;
        }
    }
    return false;
}

/* Text of a move for messages, "e2e4/f1(0x170c)"-like (buffer of 32 bytes), computed locally
 * from the encoding. */
static inline const char *move_text(ChessMove m, char buf[32])
{
    unsigned f = MOVE_FROM(m), t = MOVE_TO(m);
    snprintf(buf, 32, "%c%c%c%c/f%u(0x%04x)", 'a' + (int)(f & 7), '1' + (int)(f >> 3),
             'a' + (int)(t & 7), '1' + (int)(t >> 3), MOVE_FLAG(m), (unsigned)m);
    return buf;
}

#endif /* CHESSCORE_C_TESTS_COMMON_H */
