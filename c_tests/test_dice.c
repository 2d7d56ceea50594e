/*
 * Dice Chess through the C ABI (issue 11): outcome weights, rules worked by hand (answering
 * check, the pass, king capture, promotion to a knight for a knight die, several en passant
 * targets), dice FEN round trips, every bad argument refused with the game left as it was,
 * and a full random game per rule set made and unmade back to the start.
 */
#include "common.h"

/* The signatures of issue 11, pinned: a changed prototype fails to compile. */
static ChessStatus (*const pin_setFromFEN)(ChessDiceGame *, ChessDiceRules, const char *) =
    chess_diceSetFromFEN;
static ChessStatus (*const pin_getFEN)(const ChessDiceGame *, char *, size_t) = chess_diceGetFEN;
static ChessStatus (*const pin_outcomes)(const ChessDiceGame *, ChessDiceOutcome *, uint32_t,
                                         uint32_t *, uint32_t *) = chess_diceOutcomes;
static ChessStatus (*const pin_setRoll)(ChessDiceGame *, ChessDiceRoll) = chess_diceSetRoll;
static ChessStatus (*const pin_generate)(const ChessDiceGame *, ChessMoveList *) =
    chess_diceGenerateMoves;
static ChessStatus (*const pin_make)(ChessDiceGame *, ChessMove, ChessDiceUndo *) =
    chess_diceMakeMove;
static ChessStatus (*const pin_unmake)(ChessDiceGame *, ChessMove, const ChessDiceUndo *) =
    chess_diceUnmakeMove;
static ChessStatus (*const pin_status)(const ChessDiceGame *, ChessDiceStatus *) =
    chess_diceStatus;

/* Layouts and numbers the ABI promises. */
_Static_assert(CHESS_DICE_TWO_DICE == 0 && CHESS_DICE_ONE_DIE == 1 && CHESS_DICE_THREE_DICE == 2,
               "rule set values");
_Static_assert(sizeof(ChessDiceRoll) == 4 && offsetof(ChessDiceRoll, faces) == 1, "roll layout");
_Static_assert(sizeof(ChessDiceOutcome) == 8 && offsetof(ChessDiceOutcome, weight) == 4,
               "outcome layout");
_Static_assert(sizeof(ChessDiceGame) == 9280 && _Alignof(ChessDiceGame) == 8, "game storage");
_Static_assert(sizeof(ChessDiceUndo) == 160 && _Alignof(ChessDiceUndo) == 8, "undo storage");
_Static_assert(CHESS_ERR_DICE_INVALID_GAME == 300 && CHESS_ERR_DICE_INVALID_RULES == 301 &&
                   CHESS_ERR_DICE_NOT_AWAITING_ROLL == 302 &&
                   CHESS_ERR_DICE_NOT_AWAITING_MOVE == 303 && CHESS_ERR_DICE_INVALID_ROLL == 304 &&
                   CHESS_ERR_DICE_FEN_EN_PASSANT == 305 && CHESS_ERR_DICE_FEN_DICE == 306 &&
                   CHESS_ERR_DICE_FEN_BOTH_IN_CHECK == 307,
               "dice status codes");
_Static_assert(CHESS_DICE_AWAITING_ROLL == 0 && CHESS_DICE_AWAITING_MOVE == 1 &&
                   CHESS_DICE_WON == 2 && CHESS_DICE_DRAWN == 3,
               "dice states");

static const char *const RULE_NAMES[3] = {"two dice", "one die", "three dice"};

static void fen_of_game(const ChessDiceGame *g, char buf[CHESS_DICE_FEN_MAX])
{
    if (chess_diceGetFEN(g, buf, CHESS_DICE_FEN_MAX) != CHESS_OK) {
        strcpy(buf, "(no FEN)");
    }
}

static ChessDiceRoll roll_of(uint8_t a, uint8_t b, uint8_t c)
{
    uint8_t faces[3] = {a, b, c};
    uint32_t n = c ? 3u : b ? 2u : 1u;
    ChessDiceRoll r;
    memset(&r, 0, sizeof r);
    CHECK_STATUS(chess_diceRollFromFaces(faces, n, &r), CHESS_OK, "faces %u %u %u", a, b, c);
    return r;
}

/* Finds the move written `uci` among the game's moves (0 when absent). */
static ChessMove find_move(const ChessDiceGame *g, const char *uci)
{
    ChessMoveList list;
    if (chess_diceGenerateMoves(g, &list) != CHESS_OK) {
        return 0;
    }
    for (uint32_t i = 0; i < list.count; i++) {
        char buf[8];
        if (chess_moveToUci(list.moves[i], buf, sizeof buf) == CHESS_OK && strcmp(buf, uci) == 0) {
            return list.moves[i];
        }
    }
    return 0;
}

static void test_outcomes(void)
{
    static const uint32_t want_count[3] = {21, 2, 56};
    static const uint32_t want_den[3] = {36, 2, 216};
    for (int r = 0; r < 3; r++) {
        ChessDiceGame g;
        CHECK_STATUS(chess_diceSetStart(&g, (ChessDiceRules)r), CHESS_OK, "%s", RULE_NAMES[r]);
        ChessDiceOutcome out[CHESS_DICE_MAX_OUTCOMES];
        uint32_t count = 0, den = 0;
        CHECK_STATUS(chess_diceOutcomes(&g, out, CHESS_DICE_MAX_OUTCOMES, &count, &den), CHESS_OK,
                     "%s", RULE_NAMES[r]);
        CHECK(count == want_count[r] && den == want_den[r], "%s: %u outcomes over %u",
              RULE_NAMES[r], count, den);
        uint32_t sum = 0, doubles = 0;
        for (uint32_t i = 0; i < count; i++) {
            sum += out[i].weight;
            if (r == 0 && out[i].roll.faces[0] == out[i].roll.faces[1]) {
                doubles++;
                CHECK(out[i].weight == 1, "doubles weigh 1");
            }
        }
        CHECK(sum == den, "%s: weights sum to %u, denominator %u", RULE_NAMES[r], sum, den);
        if (r == 0) {
            CHECK(doubles == 6, "six doubles");
        }
        /* Too small an array: nothing written. */
        uint32_t c2 = 99;
        CHECK_STATUS(chess_diceOutcomes(&g, out, count - 1, &c2, &den), CHESS_ERR_BUFFER_TOO_SMALL,
                     "%s", RULE_NAMES[r]);
        CHECK(c2 == 99, "count untouched on error");
    }
}

static void test_two_dice_rules(void)
{
    ChessDiceGame g;
    ChessDiceUndo u;
    char fen[CHESS_DICE_FEN_MAX];
    /* The white king on e1 is checked by the rook on e8; the knight on c3 can block. */
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1"),
                 CHESS_OK, "check position");
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(2, 3, 0)), CHESS_OK, "knight and bishop");
    ChessMoveList list;
    CHECK_STATUS(chess_diceGenerateMoves(&g, &list), CHESS_OK, "moves");
    CHECK(list.count == 2 && find_move(&g, "c3e2") && find_move(&g, "c3e4"),
          "only the knight blocks: %u moves", list.count);
    /* A second roll is refused while a move is awaited. */
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(1, 1, 0)), CHESS_ERR_DICE_NOT_AWAITING_ROLL, "reroll");

    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1 PB"),
                 CHESS_OK, "rolled in the FEN");
    CHECK_STATUS(chess_diceGenerateMoves(&g, &list), CHESS_OK, "moves");
    CHECK(list.count == 0, "no answer to the check: %u moves", list.count);
    CHECK_STATUS(chess_diceMakeMove(&g, MAKE_MOVE(SQ('e', '1'), SQ('d', '1'), 0), &u),
                 CHESS_ERR_ILLEGAL_MOVE, "king move without a king die");
    CHECK_STATUS(chess_diceMakeMove(&g, 0, &u), CHESS_OK, "pass");
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, "4r2k/8/8/8/8/2N5/8/4K3 b - - 1 1 -") == 0, "after the pass: %s", fen);
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(2, 4, 0)), CHESS_OK, "rook");
    ChessMove take = find_move(&g, "e8e1");
    CHECK(take != 0, "the rook can take the king");
    ChessDiceUndo u2;
    CHECK_STATUS(chess_diceMakeMove(&g, take, &u2), CHESS_OK, "king capture");
    ChessDiceStatus st;
    CHECK_STATUS(chess_diceStatus(&g, &st), CHESS_OK, "status");
    CHECK(st.state == CHESS_DICE_WON && st.winner == 1 && st.reason == CHESS_DICE_WIN_KING_CAPTURE,
          "Black won by king capture (%d %u %u)", (int)st.state, st.winner, st.reason);
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(1, 2, 0)), CHESS_ERR_DICE_NOT_AWAITING_ROLL, "over");
    CHECK_STATUS(chess_diceUnmakeMove(&g, take, &u2), CHESS_OK, "unmake the capture");
    CHECK_STATUS(chess_diceStatus(&g, &st), CHESS_OK, "status");
    CHECK(st.state == CHESS_DICE_AWAITING_MOVE, "the capture is taken back");
    CHECK_STATUS(chess_diceUnmakeMove(&g, 0, &u), CHESS_ERR_BAD_UNDO, "the roll is still set");
    CHECK_STATUS(chess_diceClearRoll(&g), CHESS_OK, "take the roll back");
    CHECK_STATUS(chess_diceClearRoll(&g), CHESS_ERR_DICE_NOT_AWAITING_MOVE, "no roll to clear");
    CHECK_STATUS(chess_diceUnmakeMove(&g, 0, &u), CHESS_OK, "unmake the pass");
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1 PB") == 0, "back: %s", fen);

    /* Mate is judged before the roll. */
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
                 CHESS_OK, "mate");
    CHECK_STATUS(chess_diceStatus(&g, &st), CHESS_OK, "status");
    CHECK(st.state == CHESS_DICE_WON && st.winner == 0 && st.reason == CHESS_DICE_WIN_CHECKMATE,
          "White mated");
}

static void test_three_dice_rules(void)
{
    ChessDiceGame g;
    ChessDiceUndo u;
    char fen[CHESS_DICE_FEN_MAX];
    /* Pawn and two knight dice, no knight: only the knight promotion uses them all. */
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "7k/P7/8/8/8/8/8/K7 w - - 0 1"),
                 CHESS_OK, "promotion");
    ChessDiceRoll unsorted = {3, {2, 1, 2}};
    CHECK_STATUS(chess_diceSetRoll(&g, unsorted), CHESS_ERR_DICE_INVALID_ROLL, "unsorted");
    ChessDiceRoll bad = {3, {1, 2, 7}};
    CHECK_STATUS(chess_diceSetRoll(&g, bad), CHESS_ERR_DICE_INVALID_ROLL, "face 7");
    ChessDiceRoll two = {2, {1, 2, 0}};
    CHECK_STATUS(chess_diceSetRoll(&g, two), CHESS_ERR_DICE_INVALID_ROLL, "two dice");
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(1, 2, 2)), CHESS_OK, "roll");
    ChessMoveList list;
    CHECK_STATUS(chess_diceGenerateMoves(&g, &list), CHESS_OK, "moves");
    ChessMove promo = find_move(&g, "a7a8n");
    CHECK(list.count == 1 && promo != 0, "only a7a8n (%u moves)", list.count);
    CHECK_STATUS(chess_diceMakeMove(&g, promo, &u), CHESS_OK, "promote");
    ChessMove turn[3];
    uint32_t n = 0;
    CHECK_STATUS(chess_diceTurnMoves(&g, turn, &n), CHESS_OK, "turn moves");
    CHECK(n == 1 && turn[0] == promo, "one micro-move so far");
    ChessDiceRoll left;
    CHECK_STATUS(chess_diceGetDice(&g, &left), CHESS_OK, "dice left");
    CHECK(left.count == 2 && left.faces[0] == 2 && left.faces[1] == 2, "two knight dice left");
    char text[CHESS_DICE_ROLL_TEXT_SIZE];
    CHECK_STATUS(chess_diceRollToText(left, text, sizeof text), CHESS_OK, "text");
    CHECK(strcmp(text, "2-2 (N N)") == 0, "roll text %s", text);
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, "N6k/8/8/8/8/8/8/K7 w - - 0 1 NN") == 0, "mid-turn FEN %s", fen);

    /* Several en passant targets survive a FEN round trip and can all be taken. */
    const char *ep = "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 -";
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, ep), CHESS_OK, "targets");
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, ep) == 0, "round trip %s", fen);
    CHECK_STATUS(chess_diceSetRoll(&g, roll_of(1, 1, 1)), CHESS_OK, "pawns");
    CHECK(find_move(&g, "a4b3") && find_move(&g, "c4b3") && find_move(&g, "c4d3") &&
              find_move(&g, "e4d3"),
          "four en passant captures");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "4k3/8/8/8/pPpPp3/8/8/5K2 b - d3b3 0 1"),
                 CHESS_ERR_DICE_FEN_EN_PASSANT, "targets out of order");

    /* Dice letters read in either case (upper case for Black, as other engines write them),
     * written in the mover's case. */
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 BKK"),
                 CHESS_OK, "upper-case dice for Black");
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 bkk") == 0, "written lower case: %s", fen);
    CHECK_STATUS(chess_diceGetDice(&g, &left), CHESS_OK, "dice");
    CHECK(left.count == 3 && left.faces[0] == 3 && left.faces[1] == 6 && left.faces[2] == 6,
          "bishop, king, king");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 rk"),
                 CHESS_OK, "lower-case dice for White");
    fen_of_game(&g, fen);
    CHECK(strcmp(fen, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RK") == 0, "written upper case: %s", fen);
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RX"),
                 CHESS_ERR_DICE_FEN_DICE, "not a piece letter");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_THREE_DICE, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1 pppp"),
                 CHESS_ERR_DICE_FEN_DICE, "four dice");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP"),
                 CHESS_ERR_DICE_FEN_DICE, "three dice in a two-dice FEN");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "R3k3/8/8/8/8/8/4r3/4K3 b - - 0 1"),
                 CHESS_ERR_DICE_FEN_BOTH_IN_CHECK, "both in check");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_TWO_DICE, "4k3/8/8/8/8/8/8/8 w - - 0 1"),
                 CHESS_ERR_FEN_KING_COUNT, "core FEN error");
}

static void test_bad_arguments(void)
{
    ChessDiceGame g, copy;
    ChessDiceUndo u;
    ChessMoveList list;
    ChessDiceStatus st;
    char fen[CHESS_DICE_FEN_MAX];
    CHECK_STATUS(chess_diceSetStart(&g, CHESS_DICE_ONE_DIE), CHESS_OK, "start");
    memcpy(&copy, &g, sizeof g);
    CHECK_STATUS(chess_diceSetStart(NULL, CHESS_DICE_ONE_DIE), CHESS_ERR_NULL_ARGUMENT, "NULL");
    CHECK_STATUS(chess_diceSetStart(&g, (ChessDiceRules)3), CHESS_ERR_DICE_INVALID_RULES, "rules 3");
    CHECK_STATUS(chess_diceSetStart(&g, (ChessDiceRules)-1), CHESS_ERR_DICE_INVALID_RULES, "rules -1");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_ONE_DIE, NULL), CHESS_ERR_NULL_ARGUMENT, "fen");
    CHECK_STATUS(chess_diceSetFromFEN(&g, CHESS_DICE_ONE_DIE, "garbage"), CHESS_ERR_FEN_FIELD_COUNT,
                 "garbage");
    CHECK_STATUS(chess_diceGetFEN(&g, fen, 10), CHESS_ERR_BUFFER_TOO_SMALL, "small buffer");
    CHECK_STATUS(chess_diceGetFEN(&g, NULL, 100), CHESS_ERR_NULL_ARGUMENT, "NULL buffer");
    CHECK_STATUS(chess_diceGenerateMoves(NULL, &list), CHESS_ERR_NULL_ARGUMENT, "NULL game");
    CHECK_STATUS(chess_diceGenerateMoves(&g, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL list");
    CHECK_STATUS(chess_diceStatus(&g, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL status");
    CHECK_STATUS(chess_diceMakeMove(&g, 0, &u), CHESS_ERR_DICE_NOT_AWAITING_MOVE, "before the roll");
    /* One die at the start: a bishop cannot move, so the die cannot show it. */
    ChessDiceRoll bishop = {1, {3, 0, 0}};
    CHECK_STATUS(chess_diceSetRoll(&g, bishop), CHESS_ERR_DICE_INVALID_ROLL, "unmovable type");
    ChessDiceRoll knight = {1, {2, 0, 0}};
    CHECK_STATUS(chess_diceSetRoll(NULL, knight), CHESS_ERR_NULL_ARGUMENT, "NULL game");
    CHECK(memcmp(&g, &copy, sizeof g) == 0, "the game is as it was");
    CHECK_STATUS(chess_diceSetRoll(&g, knight), CHESS_OK, "knight");
    memcpy(&copy, &g, sizeof g);
    CHECK_STATUS(chess_diceMakeMove(&g, MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1), &u),
                 CHESS_ERR_ILLEGAL_MOVE, "a pawn on a knight roll");
    CHECK_STATUS(chess_diceMakeMove(&g, 0, &u), CHESS_ERR_ILLEGAL_MOVE, "a pass with moves");
    CHECK_STATUS(chess_diceMakeMove(&g, MAKE_MOVE(SQ('g', '1'), SQ('f', '3'), 0), NULL),
                 CHESS_ERR_NULL_ARGUMENT, "NULL undo");
    CHECK(memcmp(&g, &copy, sizeof g) == 0, "the game is as it was");
    ChessMove nf3 = MAKE_MOVE(SQ('g', '1'), SQ('f', '3'), 0);
    CHECK_STATUS(chess_diceMakeMove(&g, nf3, &u), CHESS_OK, "Nf3");
    memcpy(&copy, &g, sizeof g);
    ChessDiceUndo forged;
    for (size_t i = 0; i < sizeof u; i += 7) {
        memcpy(&forged, &u, sizeof u);
        ((unsigned char *)&forged)[i] ^= 0x5a;
        ChessStatus s = chess_diceUnmakeMove(&g, nf3, &forged);
        CHECK(s == CHESS_ERR_BAD_UNDO || s == CHESS_OK, "forged byte %zu: %d", i, (int)s);
        if (s == CHESS_OK) {
            /* A byte the record does not depend on: the game must be the real one. */
            char a[CHESS_DICE_FEN_MAX];
            fen_of_game(&g, a);
            CHECK(strcmp(a, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 N") == 0,
                  "unmade with byte %zu forged: %s", i, a);
            CHECK_STATUS(chess_diceMakeMove(&g, nf3, &u), CHESS_OK, "again");
        }
        CHECK(memcmp(&g, &copy, sizeof g) == 0, "the game is as it was (byte %zu)", i);
    }
    CHECK_STATUS(chess_diceUnmakeMove(&g, MAKE_MOVE(SQ('b', '1'), SQ('c', '3'), 0), &u),
                 CHESS_ERR_BAD_UNDO, "wrong move");
    CHECK_STATUS(chess_diceUnmakeMove(&g, nf3, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL record");
    CHECK(memcmp(&g, &copy, sizeof g) == 0, "the game is as it was");
    CHECK_STATUS(chess_diceUnmakeMove(&g, nf3, &u), CHESS_OK, "unmake");
    /* Garbage bytes are not a game. */
    ChessDiceGame junk;
    memset(&junk, 0xa5, sizeof junk);
    CHECK_STATUS(chess_diceStatus(&junk, &st), CHESS_ERR_DICE_INVALID_GAME, "garbage game");
    CHECK_STATUS(chess_diceGenerateMoves(&junk, &list), CHESS_ERR_DICE_INVALID_GAME, "garbage");
    memset(&junk, 0, sizeof junk);
    CHECK_STATUS(chess_diceSetRoll(&junk, knight), CHESS_ERR_DICE_INVALID_GAME, "zeroed game");
    CHECK(strcmp(chess_statusMessage(CHESS_ERR_DICE_INVALID_GAME), "unknown status code") != 0,
          "a message for the new codes");
    ChessDiceRoll r;
    uint8_t faces[4] = {1, 2, 3, 4};
    CHECK_STATUS(chess_diceRollFromFaces(faces, 4, &r), CHESS_ERR_DICE_INVALID_ROLL, "four dice");
    CHECK_STATUS(chess_diceRollFromFaces(faces, 0, &r), CHESS_ERR_DICE_INVALID_ROLL, "no dice");
    CHECK_STATUS(chess_diceRollFromFaces(NULL, 2, &r), CHESS_ERR_NULL_ARGUMENT, "NULL faces");
}

#define MAX_EVENTS 6000

static ChessDiceUndo g_undos[MAX_EVENTS];
static ChessMove g_moves[MAX_EVENTS];
static bool g_is_roll[MAX_EVENTS];

/* A random game to its end (or MAX_EVENTS rolls and moves), then every move and roll taken
 * back in reverse order, back to the start. */
static void test_random_game(int rules, uint64_t seed)
{
    ChessDiceGame g;
    Rng rng = rng_new(seed);
    CHECK_STATUS(chess_diceSetStart(&g, (ChessDiceRules)rules), CHESS_OK, "start");
    char start[CHESS_DICE_FEN_MAX];
    fen_of_game(&g, start);
    int n = 0, moves = 0;
    ChessDiceStatus st;
    while (n < MAX_EVENTS) {
        if (chess_diceStatus(&g, &st) != CHESS_OK || st.state == CHESS_DICE_WON ||
            st.state == CHESS_DICE_DRAWN) {
            break;
        }
        if (st.state == CHESS_DICE_AWAITING_ROLL) {
            ChessDiceOutcome out[CHESS_DICE_MAX_OUTCOMES];
            uint32_t count, den;
            CHECK_STATUS(chess_diceOutcomes(&g, out, CHESS_DICE_MAX_OUTCOMES, &count, &den),
                         CHESS_OK, "outcomes");
            uint32_t x = rng_below(&rng, den), i = 0;
            while (i + 1 < count && x >= out[i].weight) {
                x -= out[i].weight;
                i++;
            }
            CHECK_STATUS(chess_diceSetRoll(&g, out[i].roll), CHESS_OK, "roll");
            g_is_roll[n++] = true;
            continue;
        }
        ChessMoveList list;
        CHECK_STATUS(chess_diceGenerateMoves(&g, &list), CHESS_OK, "moves");
        ChessMove m = list.count ? list.moves[rng_below(&rng, list.count)] : 0;
        if (chess_diceMakeMove(&g, m, &g_undos[n]) != CHESS_OK) {
            CHECK(false, "%s: move %d refused", RULE_NAMES[rules], n);
            break;
        }
        g_is_roll[n] = false;
        g_moves[n++] = m;
        moves++;
    }
    char end[CHESS_DICE_FEN_MAX];
    fen_of_game(&g, end);
    printf("%s: %d moves, state %d winner %u reason %u, %s\n", RULE_NAMES[rules], moves,
           (int)st.state, st.winner, st.reason, end);
    CHECK(moves > 10, "%s: a game of %d moves", RULE_NAMES[rules], moves);
    while (n > 0) {
        n--;
        ChessStatus s;
        if (g_is_roll[n]) {
            s = chess_diceClearRoll(&g);
        } else {
            s = chess_diceUnmakeMove(&g, g_moves[n], &g_undos[n]);
        }
        if (s != CHESS_OK) {
            CHECK(false, "%s: taking back event %d refused: %d", RULE_NAMES[rules], n, (int)s);
            return;
        }
    }
    char back[CHESS_DICE_FEN_MAX];
    fen_of_game(&g, back);
    CHECK(strcmp(back, start) == 0, "%s: back to %s", RULE_NAMES[rules], back);
}

int main(void)
{
    CHECK(pin_setFromFEN && pin_getFEN && pin_outcomes && pin_setRoll && pin_generate &&
              pin_make && pin_unmake && pin_status,
          "pinned functions");
    test_outcomes();
    test_two_dice_rules();
    test_three_dice_rules();
    test_bad_arguments();
    for (int r = 0; r < 3; r++) {
        for (uint64_t seed = 0; seed < 4; seed++) {
            test_random_game(r, 0x1234 + 16 * seed + (uint64_t)r);
        }
    }
    return test_summary("test_dice");
}
