/*
 * Output buffers: chess_toFEN, chess_moveToUci, chess_printBitboardToBuffer and
 * chess_positionToText with every length from 0 to the needed size minus 1 return
 * CHESS_ERR_BUFFER_TOO_SMALL and leave the buffer untouched; the exact needed size succeeds
 * with the expected text (computed here from chess knowledge) and writes nothing past it.
 * chess_perftDivide with countsLen too small likewise.
 */
#include "common.h"

#define SENTINEL 0x6B
#define BUF_SIZE 512

static char buf[BUF_SIZE];

static bool all_sentinel(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        if (c[i] != SENTINEL) {
            return false;
        }
    }
    return true;
}

static bool untouched_from(size_t from)
{
    for (size_t i = from; i < BUF_SIZE; i++) {
        if ((unsigned char)buf[i] != SENTINEL) {
            return false;
        }
    }
    return true;
}

/* Calls the writer `w` with every length below strlen(want) + 1 (too small) and with exactly
 * strlen(want) + 1 (must give `want`). */
typedef ChessStatus (*Writer)(const void *arg, char *buf, size_t len);

static void check_writer(Writer w, const void *arg, const char *want, const char *what)
{
    size_t need = strlen(want) + 1;
    for (size_t len = 0; len < need; len++) {
        memset(buf, SENTINEL, sizeof buf);
        ChessStatus s = w(arg, buf, len);
        CHECK_STATUS(s, CHESS_ERR_BUFFER_TOO_SMALL, "%s with len %zu (needs %zu)", what, len, need);
        CHECK(untouched_from(0), "%s with len %zu: buffer modified", what, len);
    }
    memset(buf, SENTINEL, sizeof buf);
    if (CHECK_STATUS(w(arg, buf, need), CHESS_OK, "%s with the exact size %zu", what, need)) {
        CHECK(memcmp(buf, want, need) == 0, "%s: wrote \"%.*s\", expected \"%s\"", what,
              (int)need, buf, want);
        CHECK(untouched_from(need), "%s: wrote past the needed %zu bytes", what, need);
    }
    /* A generous buffer gives the same text. */
    memset(buf, SENTINEL, sizeof buf);
    if (CHECK_STATUS(w(arg, buf, BUF_SIZE), CHESS_OK, "%s with %d bytes", what, BUF_SIZE)) {
        CHECK(memcmp(buf, want, need) == 0, "%s: wrote \"%.*s\"", what, (int)need, buf);
        CHECK(untouched_from(need), "%s: wrote past the text in a large buffer", what);
    }
}

static ChessStatus fen_writer(const void *arg, char *b, size_t len)
{
    return chess_toFEN((const ChessPosition *)arg, b, len);
}

static ChessStatus uci_writer(const void *arg, char *b, size_t len)
{
    return chess_moveToUci(*(const ChessMove *)arg, b, len);
}

static ChessStatus bitboard_writer(const void *arg, char *b, size_t len)
{
    return chess_printBitboardToBuffer(*(const uint64_t *)arg, b, len);
}

static ChessStatus text_writer(const void *arg, char *b, size_t len)
{
    return chess_positionToText((const ChessPosition *)arg, b, len);
}

/* The grid of a bitboard: rank 8 first, files a..h, 'x' or '.', separated by spaces. */
static void bitboard_text(uint64_t bb, char *out)
{
    char *p = out;
    for (int rank = 7; rank >= 0; rank--) {
        for (int file = 0; file < 8; file++) {
            *p++ = ((bb >> (rank * 8 + file)) & 1) ? 'x' : '.';
            *p++ = file < 7 ? ' ' : '\n';
        }
    }
    *p = '\0';
}

/* The board picture: "8 r n b q k b n r" lines, rank 8 first, then the file line. */
static void position_text(const char *fen, char *out)
{
    char board[64];
    memset(board, '.', sizeof board);
    int rank = 7, file = 0;
    for (const char *c = fen; *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
        } else {
            board[rank * 8 + file++] = *c;
        }
    }
    char *p = out;
    for (int r = 7; r >= 0; r--) {
        *p++ = (char)('1' + r);
        for (int f = 0; f < 8; f++) {
            *p++ = ' ';
            *p++ = board[r * 8 + f];
        }
        *p++ = '\n';
    }
    strcpy(p, "  a b c d e f g h\n");
}

static void fen_buffers(void)
{
    static const char *const fens[] = {
        START_FEN,
        KIWIPETE_FEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "8/8/8/8/8/8/8/k1K5 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 65535 65535",
        /* a long one: few runs of empty squares, five-digit clocks */
        "r1b1k1nr/p1p1p1p1/1p1p1p1p/n1b1q3/3Q3N/P1P1P1P1/1P1P1P1P/RNB1KB1R w KQkq - 65535 65535",
    };
    ChessPosition pos;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        if (SET_FEN(&pos, fens[i])) {
            CHECK(strlen(fens[i]) + 1 <= CHESS_FEN_MAX, "CHESS_FEN_MAX too small");
            check_writer(fen_writer, &pos, fens[i], fens[i]);
        }
    }
}

static void uci_buffers(void)
{
    static const struct {
        ChessMove move;
        const char *text;
    } moves[] = {
        {MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1), "e2e4"},
        {MAKE_MOVE(SQ('g', '1'), SQ('f', '3'), 0), "g1f3"},
        {MAKE_MOVE(SQ('e', '1'), SQ('g', '1'), 2), "e1g1"},
        {MAKE_MOVE(SQ('e', '8'), SQ('c', '8'), 3), "e8c8"},
        {MAKE_MOVE(SQ('d', '5'), SQ('e', '6'), 5), "d5e6"},
        {MAKE_MOVE(SQ('a', '7'), SQ('a', '8'), 8), "a7a8n"},
        {MAKE_MOVE(SQ('a', '7'), SQ('a', '8'), 9), "a7a8b"},
        {MAKE_MOVE(SQ('a', '7'), SQ('a', '8'), 10), "a7a8r"},
        {MAKE_MOVE(SQ('a', '7'), SQ('a', '8'), 11), "a7a8q"},
        {MAKE_MOVE(SQ('b', '2'), SQ('a', '1'), 15), "b2a1q"},
        {MAKE_MOVE(SQ('h', '2'), SQ('g', '1'), 12), "h2g1n"},
        {MAKE_MOVE(SQ('a', '1'), SQ('h', '8'), 4), "a1h8"},
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        check_writer(uci_writer, &moves[i].move, moves[i].text, moves[i].text);
    }
    /* Values that are no move: flags 6 and 7, from == to. */
    ChessMove bad[] = {MAKE_MOVE(12, 28, 6), MAKE_MOVE(12, 28, 7), MAKE_MOVE(12, 12, 0), 0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(buf, SENTINEL, sizeof buf);
        CHECK_STATUS(chess_moveToUci(bad[i], buf, 16), CHESS_ERR_INVALID_ARGUMENT,
                     "chess_moveToUci(0x%04x)", (unsigned)bad[i]);
        CHECK(untouched_from(0), "chess_moveToUci(0x%04x) wrote on error", (unsigned)bad[i]);
    }
}

static void bitboard_buffers(void)
{
    const uint64_t bbs[] = {1, 0, UINT64_MAX, 1ull << 63, 0x00000000000000FFull,
                            0x0101010101010101ull, 0x8040201008040201ull, 0x0000001818000000ull};
    for (size_t i = 0; i < sizeof bbs / sizeof bbs[0]; i++) {
        char want[256], what[64];
        bitboard_text(bbs[i], want);
        snprintf(what, sizeof what, "bitboard %016" PRIx64, bbs[i]);
        CHECK(strlen(want) + 1 == CHESS_BITBOARD_TEXT_SIZE, "CHESS_BITBOARD_TEXT_SIZE is %d",
              CHESS_BITBOARD_TEXT_SIZE);
        check_writer(bitboard_writer, &bbs[i], want, what);
    }
    /* bb = 1 (a1): 8 lines, the last "x . . . . . . ." */
    memset(buf, SENTINEL, sizeof buf);
    if (CHECK_STATUS(chess_printBitboardToBuffer(1, buf, CHESS_BITBOARD_TEXT_SIZE), CHESS_OK,
                     "a1")) {
        int lines = 0;
        const char *last = buf;
        for (const char *c = buf; *c; c++) {
            if (*c == '\n') {
                lines++;
                if (c[1] != '\0') {
                    last = c + 1;
                }
            }
        }
        CHECK(lines == 8, "a1 grid has %d lines", lines);
        CHECK(strcmp(last, "x . . . . . . .\n") == 0, "a1 grid last line \"%s\"", last);
    }
}

static void position_text_buffers(void)
{
    static const char *const fens[] = {START_FEN, KIWIPETE_FEN, "8/8/8/8/8/8/8/k1K5 w - - 0 1"};
    ChessPosition pos;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        if (!SET_FEN(&pos, fens[i])) {
            continue;
        }
        char want[256];
        position_text(fens[i], want);
        CHECK(strlen(want) + 1 == CHESS_POSITION_TEXT_SIZE, "CHESS_POSITION_TEXT_SIZE is %d",
              CHESS_POSITION_TEXT_SIZE);
        check_writer(text_writer, &pos, want, fens[i]);
    }
}

static void divide_buffers(void)
{
    static const struct {
        const char *fen;
        uint32_t moves;
        uint64_t d2;
    } cases[] = {
        {START_FEN, 20, 400},
        {KIWIPETE_FEN, 48, 2039},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 264},
        {"8/8/8/8/8/8/8/k1K5 b - - 0 1", 1, 3},   /* Ka2 only; then Kc2, Kd1, Kd2 */
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0, 0}, /* mated */
    };
    ChessPosition pos;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!SET_FEN(&pos, cases[i].fen)) {
            continue;
        }
        uint64_t counts[260];
        ChessMoveList moves;
        uint64_t total;
        for (size_t len = 0; len < cases[i].moves; len++) {
            memset(counts, SENTINEL, sizeof counts);
            memset(&moves, SENTINEL, sizeof moves);
            memset(&total, SENTINEL, sizeof total);
            CHECK_STATUS(chess_perftDivide(&pos, 2, &moves, counts, len, &total),
                         CHESS_ERR_BUFFER_TOO_SMALL, "\"%s\" countsLen %zu", cases[i].fen, len);
            CHECK(all_sentinel(counts, sizeof counts) && all_sentinel(&moves, sizeof moves) &&
                      all_sentinel(&total, sizeof total),
                  "\"%s\" countsLen %zu: output written on error", cases[i].fen, len);
        }
        memset(counts, SENTINEL, sizeof counts);
        if (CHECK_STATUS(chess_perftDivide(&pos, 2, &moves, counts, cases[i].moves, &total),
                         CHESS_OK, "\"%s\" countsLen %u", cases[i].fen, cases[i].moves)) {
            CHECK(moves.count == cases[i].moves, "\"%s\": %u moves, expected %u", cases[i].fen,
                  moves.count, cases[i].moves);
            CHECK(total == cases[i].d2, "\"%s\": total %" PRIu64 ", expected %" PRIu64,
                  cases[i].fen, total, cases[i].d2);
            CHECK(all_sentinel(counts + cases[i].moves, sizeof counts - cases[i].moves * 8),
                  "\"%s\": counts written past the moves", cases[i].fen);
        }
    }
}

int main(void)
{
    fen_buffers();
    uci_buffers();
    bitboard_buffers();
    position_text_buffers();
    divide_buffers();
    return test_summary("test_buffers");
}
