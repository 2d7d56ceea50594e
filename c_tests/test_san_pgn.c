/*
 * SAN and PGN through the C ABI: SAN of every legal move of the positions of
 * testdata/san/random-games.txt equal to python-chess's (the file holds its SAN, written
 * offline), read back strictly and tolerantly; the SAN errors; the PGN files of testdata/pgn
 * read through a reader handle (move counts and final positions from python-chess, comments,
 * NAGs, tags), written and read back to the same moves; malformed games reported with their
 * status and line; a game built move by move and written; null moves (`--`, `Z0`, `0000`,
 * `@@@@`) as CHESS_PGN_NULL_MOVE; the partial game of a malformed one
 * (chess_pgnReaderPartialGame) with the moves before its error.
 *
 * Usage: test_san_pgn <repository root>
 */
#include "common.h"

static char root[1024];

/* The whole file `root/rel` as a NUL-terminated string (malloc'd), or NULL. */
static char *read_file(const char *rel, size_t *len_out)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "rb");
    if (!CHECK(f != NULL, "cannot open %s", path)) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!CHECK(buf != NULL && got == (size_t)n, "cannot read %s", path)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len_out) {
        *len_out = (size_t)n;
    }
    return buf;
}

/* ---- SAN against python-chess ------------------------------------------------------------ */

/* The next `sep`-separated field at `*cursor` (NUL-terminated in place; empty fields skipped),
 * or NULL at the end. */
static char *next_field(char **cursor, char sep)
{
    char *p = *cursor;
    while (*p == sep) {
        p++;
    }
    if (*p == '\0') {
        return NULL;
    }
    char *start = p;
    while (*p != '\0' && *p != sep) {
        p++;
    }
    if (*p == sep) {
        *p++ = '\0';
    }
    *cursor = p;
    return start;
}

typedef struct {
    char uci[6];
    ChessMove move;
} UciMove;

static int by_uci(const void *a, const void *b)
{
    return strcmp(((const UciMove *)a)->uci, ((const UciMove *)b)->uci);
}

static void san_matches_python_chess(void)
{
    char *data = read_file("testdata/san/random-games.txt", NULL);
    if (!data) {
        return;
    }
    ChessPosition pos;
    ChessUndo undo;
    unsigned long positions = 0, moves = 0;
    char *cursor = data;
    for (char *line = next_field(&cursor, '\n'); line; line = next_field(&cursor, '\n')) {
        if (strncmp(line, "fen ", 4) == 0) {
            SET_FEN(&pos, line + 4);
            continue;
        }
        ChessMoveList list;
        CHECK_STATUS(chess_generateLegalMoves(&pos, &list), CHESS_OK, "generate");
        UciMove sorted[256];
        for (uint32_t i = 0; i < list.count; i++) {
            sorted[i].move = list.moves[i];
            chess_moveToUci(list.moves[i], sorted[i].uci, sizeof sorted[i].uci);
        }
        qsort(sorted, list.count, sizeof sorted[0], by_uci);
        char *fields = line;
        char *played = next_field(&fields, ' ');
        uint32_t k = 0;
        for (char *want = next_field(&fields, ' '); want; want = next_field(&fields, ' ')) {
            if (!CHECK(k < list.count, "position %lu: more SAN than moves", positions)) {
                break;
            }
            char san[CHESS_SAN_MAX];
            ChessMove back = 0;
            CHECK_STATUS(chess_moveToSan(&pos, sorted[k].move, san, sizeof san), CHESS_OK, "san");
            CHECK(strcmp(san, want) == 0, "position %lu: %s is %s, python-chess %s", positions,
                  sorted[k].uci, san, want);
            CHECK_STATUS(chess_moveFromSan(&pos, want, CHESS_SAN_STRICT, &back), CHESS_OK, "%s",
                         want);
            CHECK(back == sorted[k].move, "%s read back", want);
            CHECK_STATUS(chess_moveFromSan(&pos, sorted[k].uci, CHESS_SAN_TOLERANT, &back),
                         CHESS_OK, "%s", sorted[k].uci);
            CHECK(back == sorted[k].move, "%s read back", sorted[k].uci);
            k++;
            moves++;
        }
        CHECK(k == list.count, "position %lu: %u SAN for %u moves", positions, k, list.count);
        positions++;
        if (strcmp(played, "-") != 0) {
            ChessMove m = 0;
            CHECK_STATUS(chess_moveFromUci(&pos, played, &m), CHESS_OK, "%s", played);
            CHECK_STATUS(chess_makeMove(&pos, m, &undo), CHESS_OK, "%s", played);
        }
    }
    CHECK(positions == 24000 && moves > 350000, "%lu positions, %lu moves", positions, moves);
    printf("SAN: %lu positions, %lu moves equal to python-chess\n", positions, moves);
    free(data);
}

static void san_errors_and_buffers(void)
{
    ChessPosition pos;
    ChessMove m = 0x1234, e4 = MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1);
    char buf[CHESS_SAN_MAX];
    SET_FEN(&pos, START_FEN);
    CHECK_STATUS(chess_moveFromSan(&pos, "Nf9", CHESS_SAN_TOLERANT, &m), CHESS_ERR_SAN_SYNTAX, "");
    CHECK_STATUS(chess_moveFromSan(&pos, "Nf4", CHESS_SAN_TOLERANT, &m), CHESS_ERR_SAN_ILLEGAL, "");
    CHECK_STATUS(chess_moveFromSan(&pos, "e4+", CHESS_SAN_STRICT, &m), CHESS_ERR_SAN_SYNTAX, "");
    CHECK_STATUS(chess_moveFromSan(&pos, "e4", 2, &m), CHESS_ERR_INVALID_ARGUMENT, "bad mode");
    CHECK(m == 0x1234, "nothing written on error");
    CHECK_STATUS(chess_moveFromSan(&pos, "e4+", CHESS_SAN_TOLERANT, &m), CHESS_OK, "");
    CHECK(m == e4, "e4+ tolerant");
    CHECK_STATUS(chess_moveFromSan(NULL, "e4", 0, &m), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_moveFromSan(&pos, NULL, 0, &m), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_moveFromSan(&pos, "e4", 0, NULL), CHESS_ERR_NULL_ARGUMENT, "");
    SET_FEN(&pos, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    CHECK_STATUS(chess_moveFromSan(&pos, "Nd2", CHESS_SAN_TOLERANT, &m), CHESS_ERR_SAN_AMBIGUOUS,
                 "");
    CHECK(strcmp(chess_statusMessage(CHESS_ERR_SAN_AMBIGUOUS),
                 "the SAN names more than one legal move in this position") == 0,
          "message");
    /* Buffers: the longest SAN fits CHESS_SAN_MAX; one byte less writes nothing. */
    SET_FEN(&pos, "3r2k1/2P5/8/8/8/8/8/4K3 w - - 0 1");
    ChessMove cxd8 = MAKE_MOVE(SQ('c', '7'), SQ('d', '8'), 15);
    CHECK_STATUS(chess_moveToSan(&pos, cxd8, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "cxd8=Q+") == 0 && strlen(buf) + 1 == CHESS_SAN_MAX, "%s", buf);
    memset(buf, 'z', sizeof buf);
    CHECK_STATUS(chess_moveToSan(&pos, cxd8, buf, 7), CHESS_ERR_BUFFER_TOO_SMALL, "");
    CHECK(buf[0] == 'z', "nothing written");
    CHECK_STATUS(chess_moveToSan(&pos, e4, buf, sizeof buf), CHESS_ERR_ILLEGAL_MOVE, "");
    CHECK_STATUS(chess_moveToSan(&pos, cxd8, NULL, 8), CHESS_ERR_NULL_ARGUMENT, "");
    SET_FEN(&pos, KIWIPETE_FEN);
    CHECK_STATUS(chess_moveToSan(&pos, MAKE_MOVE(SQ('e', '1'), SQ('c', '1'), 3), buf, sizeof buf),
                 CHESS_OK, "");
    CHECK(strcmp(buf, "O-O-O") == 0, "%s", buf);
}

/* ---- PGN ---------------------------------------------------------------------------------- */

typedef struct {
    const char *event;
    size_t plies;
    const char *fen;
} ExpectedGame;

/* From python-chess 1.11 (see tests/pgn.rs). */
static const ExpectedGame annotated[] = {
    {"Casual game", 33, "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"},
    {"London", 45, "r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23"},
    {"Berlin", 47, "1r3kr1/pbpBBp1p/1b3P2/8/8/2P2q2/P4PPP/3R2K1 b - - 0 24"},
};
static const ExpectedGame odd[] = {
    {"Odd formatting", 85, "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43"},
    {"Set-up position, Black to move", 15, "8/8/8/8/8/Kq6/2k5/8 w - - 8 68"},
    {"No result token, lower case and long algebraic", 24,
     "r1bq1rk1/pp2nppp/2p5/3n4/2BP4/1Q3N2/PP1N1PPP/R3R1K1 w - - 0 13"},
    {"Promotion, en passant, underpromotion", 8, "1R6/8/6R1/3k4/8/8/8/4K3 w - - 2 5"},
};

/* Writes `game`, reads the text back into a new game, and compares the moves. */
static void round_trip(const ChessPgnGame *game, const char *event)
{
    size_t needed = 0;
    CHECK_STATUS(chess_pgnGameWrite(game, NULL, 0, &needed), CHESS_ERR_BUFFER_TOO_SMALL, "%s",
                 event);
    char *text = malloc(needed);
    size_t again = 0;
    CHECK_STATUS(chess_pgnGameWrite(game, text, needed, &again), CHESS_OK, "%s", event);
    CHECK(again == needed && strlen(text) + 1 == needed, "%s: size %zu", event, needed);
    ChessPgnGame *back = NULL;
    CHECK_STATUS(chess_pgnGameNew(&back), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameRead(back, text), CHESS_OK, "%s", event);
    size_t n1 = 0, n2 = 0;
    chess_pgnGameMoveCount(game, &n1);
    chess_pgnGameMoveCount(back, &n2);
    CHECK(n1 == n2, "%s: %zu moves, %zu read back", event, n1, n2);
    ChessMove a[512], b[512];
    CHECK_STATUS(chess_pgnGameMoves(game, a, 512), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameMoves(back, b, 512), CHESS_OK, "");
    CHECK(n1 == n2 && memcmp(a, b, n1 * sizeof a[0]) == 0, "%s: moves differ", event);
    /* Lines of at most 79 characters. */
    size_t col = 0;
    for (const char *c = text; *c; c++) {
        col = *c == '\n' ? 0 : col + 1;
        CHECK(col <= 79, "%s: long line", event);
    }
    chess_pgnGameFree(back);
    free(text);
}

static void read_file_games(const char *rel, const ExpectedGame *expected, size_t count)
{
    size_t len = 0;
    char *data = read_file(rel, &len);
    if (!data) {
        return;
    }
    ChessPgnReader *reader = NULL;
    ChessPgnGame *game = NULL;
    CHECK_STATUS(chess_pgnReaderNew(data, len, &reader), CHESS_OK, "");
    free(data); /* the reader keeps its own copy */
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    size_t line = 0, i = 0;
    ChessStatus s;
    while ((s = chess_pgnReaderNext(reader, game, &line)) == CHESS_OK) {
        char event[128], fen[CHESS_FEN_MAX];
        size_t plies = 0;
        ChessPosition end;
        CHECK_STATUS(chess_pgnGameTag(game, "Event", event, sizeof event), CHESS_OK, "");
        CHECK_STATUS(chess_pgnGameMoveCount(game, &plies), CHESS_OK, "");
        CHECK_STATUS(chess_pgnGameEndPosition(game, &end), CHESS_OK, "");
        if (CHECK(i < count, "%s: more games than expected", rel)) {
            CHECK(strcmp(event, expected[i].event) == 0, "%s: game %zu is %s", rel, i, event);
            CHECK(plies == expected[i].plies, "%s: %zu plies", event, plies);
            CHECK(strcmp(fen_of(&end, fen), expected[i].fen) == 0, "%s: ends in %s", event, fen);
        }
        round_trip(game, event);
        i++;
    }
    CHECK_STATUS(s, CHESS_ERR_PGN_END_OF_INPUT, "%s", rel);
    CHECK(i == count, "%s: %zu games", rel, i);
    chess_pgnGameFree(game);
    chess_pgnReaderFree(reader);
}

static void opera_game_details(void)
{
    size_t len = 0;
    char *data = read_file("testdata/pgn/annotated.pgn", &len);
    if (!data) {
        return;
    }
    ChessPgnReader *reader = NULL;
    ChessPgnGame *game = NULL;
    size_t line = 0, count = 0, n = 0;
    char buf[256], name[32];
    uint8_t nags[4];
    CHECK_STATUS(chess_pgnReaderNew(data, len, &reader), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), CHESS_OK, "");
    CHECK(line == 1, "starts on line %zu", line);
    CHECK_STATUS(chess_pgnGameComment(game, SIZE_MAX, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "The Opera Game, played during a performance of Norma.") == 0, "%s", buf);
    CHECK_STATUS(chess_pgnGameComment(game, 5, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "This pin is a mistake here.") == 0, "%s", buf);
    CHECK_STATUS(chess_pgnGameComment(game, 99, buf, sizeof buf), CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameNags(game, 30, nags, 4, &n), CHESS_OK, "");
    CHECK(n == 2 && nags[0] == 3 && nags[1] == 18, "Qb8+!! $18: %zu nags", n);
    CHECK_STATUS(chess_pgnGameNags(game, 30, nags, 1, &n), CHESS_ERR_BUFFER_TOO_SMALL, "");
    CHECK_STATUS(chess_pgnGameTagCount(game, &count), CHESS_OK, "");
    CHECK(count == 9, "%zu tags", count);
    CHECK_STATUS(chess_pgnGameTagAt(game, 8, name, sizeof name, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(name, "Annotator") == 0 &&
              strcmp(buf, "chesscore test data \"quoted\" and a backslash \\ here") == 0,
          "%s %s", name, buf);
    CHECK_STATUS(chess_pgnGameTagAt(game, 9, name, sizeof name, buf, sizeof buf),
                 CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameTag(game, "Nope", buf, sizeof buf), CHESS_ERR_PGN_NO_SUCH_TAG, "");
    CHECK_STATUS(chess_pgnGameResult(game, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "1-0") == 0, "%s", buf);
    CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), CHESS_OK, "");
    CHECK(line == 17, "the second game starts on line %zu", line);
    chess_pgnGameFree(game);
    chess_pgnReaderFree(reader);
    free(data);
}

static void malformed_games(void)
{
    size_t len = 0;
    char *data = read_file("testdata/pgn/malformed.pgn", &len);
    if (!data) {
        return;
    }
    static const struct {
        ChessStatus status;
        size_t line;
    } expected[] = {
        {CHESS_OK, 1},
        {CHESS_ERR_SAN_ILLEGAL, 9},
        {CHESS_ERR_PGN_FEN, 12},
        {CHESS_ERR_SAN_AMBIGUOUS, 19},
        {CHESS_ERR_SAN_SYNTAX, 23},
        {CHESS_ERR_PGN_TAG, 25},
        {CHESS_ERR_PGN_UNTERMINATED, 32},
        {CHESS_OK, 34},
        {CHESS_ERR_PGN_END_OF_INPUT, 0},
    };
    ChessPgnReader *reader = NULL;
    ChessPgnGame *game = NULL;
    CHECK_STATUS(chess_pgnReaderNew(data, len, &reader), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        size_t line = 0;
        CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), expected[i].status, "game %zu", i);
        CHECK(line == expected[i].line, "game %zu: line %zu, expected %zu", i, line,
              expected[i].line);
    }
    /* A failed game leaves the game handle as it was: still "good 2". */
    char event[32];
    CHECK_STATUS(chess_pgnGameTag(game, "Event", event, sizeof event), CHESS_OK, "");
    CHECK(strcmp(event, "good 2") == 0, "%s", event);
    CHECK_STATUS(chess_pgnReaderNext(reader, NULL, NULL), CHESS_ERR_NULL_ARGUMENT, "");
    chess_pgnGameFree(game);
    chess_pgnReaderFree(reader);
    free(data);
    /* An empty database. */
    size_t line = 0;
    CHECK_STATUS(chess_pgnReaderNew(NULL, 0, &reader), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), CHESS_ERR_PGN_END_OF_INPUT, "");
    CHECK_STATUS(chess_pgnReaderNew(NULL, 5, &reader), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameRead(game, ""), CHESS_ERR_PGN_NO_GAME, "");
    CHECK_STATUS(chess_pgnGameRead(game, "[Variant \"Atomic\"]\n\n1. e4 *"),
                 CHESS_ERR_PGN_VARIANT, "");
    CHECK_STATUS(chess_pgnGameRead(game, "1. e4 ) *"), CHESS_ERR_PGN_PARENTHESIS, "");
    CHECK_STATUS(chess_pgnGameRead(game, "1. e4 $x *"), CHESS_ERR_PGN_TOKEN, "");
    chess_pgnGameFree(game);
    chess_pgnReaderFree(reader);
    chess_pgnGameFree(NULL);
    chess_pgnReaderFree(NULL);
}

static void build_and_write(void)
{
    ChessPgnGame *game = NULL;
    ChessPosition start;
    ChessMove m = 0;
    char text[512];
    size_t needed = 0;
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    SET_FEN(&start, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    CHECK_STATUS(chess_pgnGameReset(game, &start), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "White", "A \"quoted\" name"), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "bad name", "x"), CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGamePushSan(game, "e4", &m), CHESS_OK, "");
    CHECK(m == MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1), "e4");
    CHECK_STATUS(chess_pgnGamePushSan(game, "e5", NULL), CHESS_ERR_SAN_ILLEGAL, "");
    CHECK_STATUS(chess_pgnGamePushMove(game, MAKE_MOVE(SQ('e', '8'), SQ('d', '7'), 0)), CHESS_OK,
                 "");
    CHECK_STATUS(chess_pgnGamePushMove(game, MAKE_MOVE(SQ('e', '4'), SQ('e', '6'), 0)),
                 CHESS_ERR_ILLEGAL_MOVE, "");
    CHECK_STATUS(chess_pgnGameSetResult(game, "1-0"), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameSetResult(game, "2-0"), CHESS_ERR_INVALID_ARGUMENT, "");
    /* Tags the start position decides are refused; Result is the result. */
    CHECK_STATUS(chess_pgnGameSetTag(game, "FEN", "8/8/8/8/8/8/8/K6k w - - 0 1"),
                 CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "SetUp", "0"), CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "Variant", "Crazyhouse"), CHESS_ERR_INVALID_ARGUMENT,
                 "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "Result", "3-0"), CHESS_ERR_INVALID_ARGUMENT, "");
    CHECK_STATUS(chess_pgnGameSetTag(game, "Result", "0-1"), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameResult(game, text, sizeof text), CHESS_OK, "");
    CHECK(strcmp(text, "0-1") == 0, "result after the Result tag: %s", text);
    CHECK_STATUS(chess_pgnGameSetResult(game, "1-0"), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameTag(game, "Result", text, sizeof text), CHESS_OK, "");
    CHECK(strcmp(text, "1-0") == 0, "Result tag after the result: %s", text);
    /* A missing buffer announced with a length: NULL_ARGUMENT, *needed untouched. */
    needed = 12345;
    CHECK_STATUS(chess_pgnGameWrite(game, NULL, 1000, &needed), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK(needed == 12345, "needed written on NULL_ARGUMENT");
    CHECK_STATUS(chess_pgnGameWrite(game, text, sizeof text, &needed), CHESS_OK, "");
    const char *want = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                       "[White \"A \\\"quoted\\\" name\"]\n[Black \"?\"]\n[Result \"1-0\"]\n"
                       "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n"
                       "1. e4 Kd7 1-0\n\n";
    CHECK(strcmp(text, want) == 0, "written:\n%s", text);
    CHECK_STATUS(chess_pgnGameWrite(game, text, needed - 1, &needed), CHESS_ERR_BUFFER_TOO_SMALL,
                 "");
    ChessPosition check;
    char fen[CHESS_FEN_MAX];
    CHECK_STATUS(chess_pgnGameStartPosition(game, &check), CHESS_OK, "");
    CHECK(strcmp(fen_of(&check, fen), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") == 0, "%s", fen);
    CHECK_STATUS(chess_pgnGameEndPosition(game, NULL), CHESS_ERR_NULL_ARGUMENT, "");
    chess_pgnGameFree(game);
}

/* ---- Null moves and partial games (issue 26; expectations worked by hand) ----------------- */

static void null_moves(void)
{
    static const char *const spellings[] = {"--", "Z0", "0000", "@@@@"};
    ChessPgnGame *game = NULL, *copy = NULL;
    ChessMove moves[8], m = 0x1234;
    size_t n = 0, needed = 0;
    char text[512], fen[CHESS_FEN_MAX], pgn[64];
    ChessPosition end;
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameNew(&copy), CHESS_OK, "");
    CHECK(CHESS_PGN_NULL_MOVE == 0, "CHESS_PGN_NULL_MOVE is %d", CHESS_PGN_NULL_MOVE);
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        snprintf(pgn, sizeof pgn, "1. e4 %s 2. d4 *", spellings[i]);
        CHECK_STATUS(chess_pgnGameRead(game, pgn), CHESS_OK, "%s", pgn);
        CHECK_STATUS(chess_pgnGameMoveCount(game, &n), CHESS_OK, "");
        CHECK_STATUS(chess_pgnGameMoves(game, moves, 8), CHESS_OK, "");
        CHECK(n == 3 && moves[0] == MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1) &&
                  moves[1] == CHESS_PGN_NULL_MOVE &&
                  moves[2] == MAKE_MOVE(SQ('d', '2'), SQ('d', '4'), 1),
              "%s: %zu moves", pgn, n);
        CHECK_STATUS(chess_pgnGameEndPosition(game, &end), CHESS_OK, "");
        CHECK(strcmp(fen_of(&end, fen),
                     "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2") == 0,
              "%s: %s", pgn, fen);
        CHECK_STATUS(chess_validatePosition(&end), CHESS_OK, "%s", pgn);
        CHECK_STATUS(chess_pgnGameWrite(game, text, sizeof text, &needed), CHESS_OK, "");
        CHECK(strstr(text, "\n\n1. e4 -- 2. d4 *\n\n") != NULL, "%s written:\n%s", pgn, text);
        round_trip(game, pgn);
    }
    /* The moves pushed one by one (the null move as CHESS_PGN_NULL_MOVE) make the same game. */
    CHECK_STATUS(chess_pgnGameReset(copy, NULL), CHESS_ERR_NULL_ARGUMENT, "");
    for (size_t i = 0; i < 3; i++) {
        CHECK_STATUS(chess_pgnGamePushMove(copy, moves[i]), CHESS_OK, "move %zu", i);
    }
    char again[512];
    CHECK_STATUS(chess_pgnGameWrite(copy, again, sizeof again, &needed), CHESS_OK, "");
    CHECK(strcmp(text, again) == 0, "pushed:\n%s", again);
    /* Through SAN: "Z0" appends a null move and gives CHESS_PGN_NULL_MOVE. */
    CHECK_STATUS(chess_pgnGamePushSan(copy, "Z0", &m), CHESS_OK, "");
    CHECK(m == CHESS_PGN_NULL_MOVE, "Z0 gave %u", (unsigned)m);
    CHECK_STATUS(chess_pgnGameMoveCount(copy, &n), CHESS_OK, "");
    CHECK(n == 4, "%zu moves", n);
    /* In check a null move is refused, by PushMove, PushSan and the reader. */
    CHECK_STATUS(chess_pgnGameRead(game, "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ *"), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGamePushMove(game, CHESS_PGN_NULL_MOVE), CHESS_ERR_ILLEGAL_MOVE, "");
    m = 0x1234;
    CHECK_STATUS(chess_pgnGamePushSan(game, "--", &m), CHESS_ERR_SAN_ILLEGAL, "");
    CHECK(m == 0x1234, "nothing written on error");
    CHECK_STATUS(chess_pgnGameMoveCount(game, &n), CHESS_OK, "");
    CHECK(n == 5, "%zu moves", n);
    CHECK_STATUS(chess_pgnGameRead(game, "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Z0 *"),
                 CHESS_ERR_SAN_ILLEGAL, "");
    chess_pgnGameFree(copy);
    chess_pgnGameFree(game);
}

static void partial_games(void)
{
    size_t len = 0;
    char *data = read_file("testdata/pgn/malformed.pgn", &len);
    if (!data) {
        return;
    }
    /* Per game of malformed.pgn: the status, the line chess_pgnReaderNext gives, and for a
     * partial game its first line, Event, number of moves and result (NULL event: none). */
    static const struct {
        ChessStatus status;
        size_t line, start;
        const char *event;
        size_t moves;
        const char *result;
    } expected[] = {
        {CHESS_OK, 1, 0, NULL, 0, NULL},
        {CHESS_ERR_SAN_ILLEGAL, 9, 6, "illegal move", 10, "*"},
        {CHESS_ERR_PGN_FEN, 12, 0, NULL, 0, NULL},
        {CHESS_ERR_SAN_AMBIGUOUS, 19, 16, "ambiguous move", 0, "*"},
        {CHESS_ERR_SAN_SYNTAX, 23, 21, "unknown text", 3, "*"},
        {CHESS_ERR_PGN_TAG, 25, 0, NULL, 0, NULL},
        {CHESS_ERR_PGN_UNTERMINATED, 32, 30, "unterminated variation", 1, "*"},
        {CHESS_OK, 34, 0, NULL, 0, NULL},
        {CHESS_ERR_PGN_END_OF_INPUT, 0, 0, NULL, 0, NULL},
    };
    ChessPgnReader *reader = NULL;
    ChessPgnGame *game = NULL, *partial = NULL;
    char buf[64], fen[CHESS_FEN_MAX];
    CHECK_STATUS(chess_pgnReaderNew(data, len, &reader), CHESS_OK, "");
    free(data);
    CHECK_STATUS(chess_pgnGameNew(&game), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameNew(&partial), CHESS_OK, "");
    /* Before any game: none. */
    size_t start = 777;
    CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, &start), CHESS_ERR_PGN_NO_GAME, "");
    CHECK(start == 777, "nothing written");
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        size_t line = 0, n = 99;
        CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), expected[i].status, "game %zu", i);
        CHECK(line == expected[i].line, "game %zu: line %zu", i, line);
        start = 777;
        if (!expected[i].event) {
            CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, &start), CHESS_ERR_PGN_NO_GAME,
                         "game %zu", i);
            CHECK(start == 777, "game %zu: nothing written", i);
            continue;
        }
        /* Twice: it stays until the next chess_pgnReaderNext. */
        for (int k = 0; k < 2; k++) {
            CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, &start), CHESS_OK,
                         "game %zu", i);
        }
        CHECK(start == expected[i].start, "game %zu starts on line %zu", i, start);
        CHECK_STATUS(chess_pgnGameTag(partial, "Event", buf, sizeof buf), CHESS_OK, "");
        CHECK(strcmp(buf, expected[i].event) == 0, "game %zu: %s", i, buf);
        CHECK_STATUS(chess_pgnGameMoveCount(partial, &n), CHESS_OK, "");
        CHECK(n == expected[i].moves, "%s: %zu moves", expected[i].event, n);
        CHECK_STATUS(chess_pgnGameResult(partial, buf, sizeof buf), CHESS_OK, "");
        CHECK(strcmp(buf, expected[i].result) == 0, "%s: result %s", expected[i].event, buf);
        round_trip(partial, expected[i].event);
    }
    /* The last partial game, "unterminated variation": 1. e4; the ambiguous one started from
     * its FEN (checked on a fresh reader below). */
    ChessPosition end;
    CHECK_STATUS(chess_pgnGameEndPosition(partial, &end), CHESS_OK, "");
    CHECK(strcmp(fen_of(&end, fen),
                 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == 0,
          "%s", fen);
    /* The game handle is untouched by errors: still "good 2". */
    CHECK_STATUS(chess_pgnGameTag(game, "Event", buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "good 2") == 0, "%s", buf);
    chess_pgnReaderFree(reader);
    /* A junk word after a null move, the result token after it, and NULL arguments. */
    const char *db = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 Z0 2. d4\nfoo 3. c4 0-1\n\n"
                     "[Event \"y\"]\n\n1. f4 *\n";
    CHECK_STATUS(chess_pgnReaderNew(db, strlen(db), &reader), CHESS_OK, "");
    size_t line = 0;
    CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), CHESS_ERR_SAN_SYNTAX, "");
    CHECK(line == 5, "line %zu", line);
    CHECK_STATUS(chess_pgnReaderPartialGame(NULL, partial, &start), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_pgnReaderPartialGame(reader, NULL, &start), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, NULL), CHESS_ERR_NULL_ARGUMENT, "");
    CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, &start), CHESS_OK, "");
    ChessMove moves[4];
    size_t n = 0;
    CHECK_STATUS(chess_pgnGameMoveCount(partial, &n), CHESS_OK, "");
    CHECK_STATUS(chess_pgnGameMoves(partial, moves, 4), CHESS_OK, "");
    CHECK(start == 1 && n == 3 && moves[1] == CHESS_PGN_NULL_MOVE, "start %zu, %zu moves", start,
          n);
    CHECK_STATUS(chess_pgnGameResult(partial, buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "0-1") == 0, "result %s (the token wins over the tag)", buf);
    CHECK_STATUS(chess_pgnGameTag(partial, "Result", buf, sizeof buf), CHESS_OK, "");
    CHECK(strcmp(buf, "0-1") == 0, "Result tag %s", buf);
    CHECK_STATUS(chess_pgnReaderNext(reader, game, &line), CHESS_OK, "");
    CHECK(line == 7, "line %zu", line);
    CHECK_STATUS(chess_pgnReaderPartialGame(reader, partial, &start), CHESS_ERR_PGN_NO_GAME, "");
    chess_pgnReaderFree(reader);
    chess_pgnGameFree(partial);
    chess_pgnGameFree(game);
}

int main(int argc, char **argv)
{
    snprintf(root, sizeof root, "%s", argc > 1 ? argv[1] : ".");
    san_errors_and_buffers();
    san_matches_python_chess();
    read_file_games("testdata/pgn/annotated.pgn", annotated, 3);
    read_file_games("testdata/pgn/odd-format.pgn", odd, 4);
    opera_game_details();
    malformed_games();
    build_and_write();
    null_moves();
    partial_games();
    return test_summary("test_san_pgn");
}
