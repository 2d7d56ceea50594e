/*
 * The rest of the ABI: UCI and micro-move round trips and errors, the filtered generator
 * (piece-type masks, captures/quiets), pseudo-legal against legal, repetition, game status,
 * the history limit and the attack tables against a plain reference implementation.
 */
#include "common.h"

static const char *const positions[] = {
    START_FEN,
    KIWIPETE_FEN,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
};
#define NPOSITIONS (sizeof positions / sizeof positions[0])

/* ---- UCI --------------------------------------------------------------------------------- */

static void uci_text(ChessMove m, char *out)
{
    unsigned f = MOVE_FROM(m), t = MOVE_TO(m);
    out[0] = (char)('a' + (f & 7));
    out[1] = (char)('1' + (f >> 3));
    out[2] = (char)('a' + (t & 7));
    out[3] = (char)('1' + (t >> 3));
    out[4] = MOVE_IS_PROMOTION(m) ? "nbrq"[MOVE_FLAG(m) & 3] : '\0';
    out[5] = '\0';
}

static void uci_round_trips(void)
{
    ChessPosition pos;
    unsigned total = 0;
    for (size_t p = 0; p < NPOSITIONS; p++) {
        ChessMoveList list;
        if (!SET_FEN(&pos, positions[p]) ||
            !CHECK_STATUS(chess_generateLegalMoves(&pos, &list), CHESS_OK, "%s", positions[p])) {
            continue;
        }
        for (uint32_t i = 0; i < list.count; i++) {
            ChessMove m = list.moves[i], back = 0;
            char text[16], want[8], mt[32];
            uci_text(m, want);
            if (!CHECK_STATUS(chess_moveToUci(m, text, sizeof text), CHESS_OK, "%s %s",
                              positions[p], move_text(m, mt))) {
                continue;
            }
            CHECK(strcmp(text, want) == 0, "\"%s\": %s written as \"%s\", expected \"%s\"",
                  positions[p], move_text(m, mt), text, want);
            CHECK_STATUS(chess_moveFromUci(&pos, text, &back), CHESS_OK, "\"%s\" \"%s\"",
                         positions[p], text);
            CHECK(back == m, "\"%s\": \"%s\" read back as 0x%04x, was 0x%04x", positions[p], text,
                  (unsigned)back, (unsigned)m);
            /* Castling is written as the king's move. */
            if (MOVE_FLAG(m) == 2 || MOVE_FLAG(m) == 3) {
                bool white = MOVE_FROM(m) == SQ('e', '1');
                const char *want_castle = MOVE_FLAG(m) == 2 ? (white ? "e1g1" : "e8g8")
                                                            : (white ? "e1c1" : "e8c8");
                CHECK(strcmp(text, want_castle) == 0, "castling written as \"%s\"", text);
            }
            total++;
        }
    }
    CHECK(total > 300, "only %u UCI round trips", total);

    /* Castling through the text interface. */
    if (SET_FEN(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")) {
        ChessMove m = 0;
        CHECK_STATUS(chess_moveFromUci(&pos, "e1g1", &m), CHESS_OK, "e1g1");
        CHECK(m == MAKE_MOVE(SQ('e', '1'), SQ('g', '1'), 2), "e1g1 = 0x%04x", (unsigned)m);
        CHECK_STATUS(chess_moveFromUci(&pos, "e1c1", &m), CHESS_OK, "e1c1");
        CHECK(m == MAKE_MOVE(SQ('e', '1'), SQ('c', '1'), 3), "e1c1 = 0x%04x", (unsigned)m);
        ChessUndo u;
        CHECK_STATUS(chess_makeMove(&pos, MAKE_MOVE(SQ('e', '1'), SQ('g', '1'), 2), &u), CHESS_OK,
                     "O-O");
        char fen[CHESS_FEN_MAX];
        CHECK(strcmp(fen_of(&pos, fen), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1") == 0,
              "after e1g1: \"%s\"", fen);
    }

    /* Malformed text: CHESS_ERR_INVALID_ARGUMENT; legal-looking but illegal: ILLEGAL_MOVE. */
    static const char *const malformed[] = {
        "", "e", "e2", "e2e", "e2e4qq", "e2e4 ", " e2e4", "i2e4", "e9e4", "e0e4", "E2E4",
        "e2-e4", "2e4e", "e2e4x", "e2e4\xff", "\xc3\xa9" "2e4", "e2e4\n",
    };
    if (SET_FEN(&pos, START_FEN)) {
        for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
            ChessMove m = 0x5A5A;
            CHECK_STATUS(chess_moveFromUci(&pos, malformed[i], &m), CHESS_ERR_INVALID_ARGUMENT,
                         "moveFromUci(\"%s\")", malformed[i]);
            CHECK(m == 0x5A5A, "moveFromUci(\"%s\") wrote the output on error", malformed[i]);
        }
        static const char *const illegal[] = {
            "e2e5", "e1g1", "e1c1", "a7a6", "e7e5", "e4e5", "a1a8", "g1g3", "d1h5", "e2e4q",
            "e2e3n", "b1d2", "a2b3",
        };
        for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
            ChessMove m = 0x5A5A;
            CHECK_STATUS(chess_moveFromUci(&pos, illegal[i], &m), CHESS_ERR_ILLEGAL_MOVE,
                         "start position, moveFromUci(\"%s\")", illegal[i]);
            CHECK(m == 0x5A5A, "moveFromUci(\"%s\") wrote the output on error", illegal[i]);
        }
    }
    /* Promotions need their letter, and only n, b, r, q. */
    if (SET_FEN(&pos, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")) {
        ChessMove m = 0;
        CHECK_STATUS(chess_moveFromUci(&pos, "b7b8", &m), CHESS_ERR_ILLEGAL_MOVE, "b7b8 no letter");
        CHECK_STATUS(chess_moveFromUci(&pos, "b7b8q", &m), CHESS_OK, "b7b8q");
        CHECK(m == MAKE_MOVE(SQ('b', '7'), SQ('b', '8'), 11), "b7b8q = 0x%04x", (unsigned)m);
        CHECK_STATUS(chess_moveFromUci(&pos, "b7b8n", &m), CHESS_OK, "b7b8n");
        CHECK(m == MAKE_MOVE(SQ('b', '7'), SQ('b', '8'), 8), "b7b8n = 0x%04x", (unsigned)m);
    }
    /* In check, only evasions resolve. */
    if (SET_FEN(&pos, "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1")) {
        ChessMove m = 0;
        CHECK_STATUS(chess_moveFromUci(&pos, "e1g1", &m), CHESS_ERR_ILLEGAL_MOVE,
                     "castle in check");
        CHECK_STATUS(chess_moveFromUci(&pos, "a1a2", &m), CHESS_ERR_ILLEGAL_MOVE, "ignores check");
        CHECK_STATUS(chess_moveFromUci(&pos, "e1e2", &m), CHESS_OK, "Kxe2");
        CHECK(m == MAKE_MOVE(SQ('e', '1'), SQ('e', '2'), 4), "Kxe2 = 0x%04x", (unsigned)m);
    }
    /* En passant resolves to the en passant flag. */
    if (SET_FEN(&pos, "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1")) {
        ChessMove m = 0;
        CHECK_STATUS(chess_moveFromUci(&pos, "c4d3", &m), CHESS_OK, "c4d3 e.p.");
        CHECK(m == MAKE_MOVE(SQ('c', '4'), SQ('d', '3'), 5), "c4d3 = 0x%04x", (unsigned)m);
    }
}

/* Random short strings: every answer is OK, ILLEGAL_MOVE or INVALID_ARGUMENT; an accepted text
 * is a legal move written back identically. */
static void uci_fuzz(void)
{
    static const char alphabet[] = "abcdefghi0123456789nbrqkNBRQK -";
    ChessPosition pos;
    Rng rng = rng_new(99);
    unsigned ok = 0;
    for (size_t p = 0; p < NPOSITIONS; p++) {
        ChessMoveList list;
        if (!SET_FEN(&pos, positions[p]) || chess_generateLegalMoves(&pos, &list) != CHESS_OK) {
            continue;
        }
        for (int i = 0; i < 20000; i++) {
            char text[16];
            if (list.count > 0 && rng_below(&rng, 2) == 0) {
                /* A legal move's text with one random edit (or none). */
                uci_text(list.moves[rng_below(&rng, list.count)], text);
                size_t len = strlen(text), at = rng_below(&rng, (uint32_t)len + 1);
                char c = alphabet[rng_below(&rng, sizeof alphabet - 1)];
                switch (rng_below(&rng, 4)) {
                case 0:
                    if (at < len) {
                        text[at] = c;
                    }
                    break;
                case 1:
                    memmove(text + at + 1, text + at, len - at + 1);
                    text[at] = c;
                    break;
                case 2:
                    if (at < len) {
                        memmove(text + at, text + at + 1, len - at);
                    }
                    break;
                default:
                    break;
                }
            } else {
                uint32_t len = rng_below(&rng, 7);
                for (uint32_t k = 0; k < len; k++) {
                    text[k] = alphabet[rng_below(&rng, sizeof alphabet - 1)];
                }
                text[len] = '\0';
            }
            ChessMove m = 0;
            ChessStatus s = chess_moveFromUci(&pos, text, &m);
            CHECK(s == CHESS_OK || s == CHESS_ERR_ILLEGAL_MOVE || s == CHESS_ERR_INVALID_ARGUMENT,
                  "moveFromUci(\"%s\") returned %s", text, status_name(s));
            if (s == CHESS_OK) {
                char back[8];
                ok++;
                CHECK(chess_isLegalMove(&pos, m), "\"%s\" resolved to an illegal move", text);
                CHECK(chess_moveToUci(m, back, sizeof back) == CHESS_OK && strcmp(back, text) == 0,
                      "\"%s\" resolved to a move written \"%s\"", text, back);
            }
        }
    }
    CHECK(ok > 10000, "only %u random texts resolved", ok);
}

/* ---- Micro moves ------------------------------------------------------------------------- */

static void micro_round_trips(void)
{
    ChessPosition pos;
    unsigned total = 0;
    for (size_t p = 0; p < NPOSITIONS; p++) {
        ChessMoveList list;
        if (!SET_FEN(&pos, positions[p]) ||
            !CHECK_STATUS(chess_generateLegalMoves(&pos, &list), CHESS_OK, "%s", positions[p])) {
            continue;
        }
        for (uint32_t i = 0; i < list.count; i++) {
            char mt[32];
            ChessMove m = list.moves[i], back = 0;
            uint16_t micro = chess_moveToMicro(m);
            unsigned promo = MOVE_IS_PROMOTION(m) ? 2 + (MOVE_FLAG(m) & 3) : 0;
            uint16_t want = (uint16_t)(MOVE_FROM(m) | MOVE_TO(m) << 6 | promo << 12);
            CHECK(micro == want, "\"%s\": micro of %s is 0x%04x, expected 0x%04x", positions[p],
                  move_text(m, mt), (unsigned)micro, (unsigned)want);
            CHECK_STATUS(chess_moveFromMicro(&pos, micro, &back), CHESS_OK, "\"%s\" micro 0x%04x",
                         positions[p], (unsigned)micro);
            CHECK(back == m, "\"%s\": micro 0x%04x resolved to 0x%04x, expected %s", positions[p],
                  (unsigned)micro, (unsigned)back, move_text(m, mt));
            total++;
        }
    }
    CHECK(total > 300, "only %u micro round trips", total);
    if (SET_FEN(&pos, START_FEN)) {
        ChessMove m = 0x5A5A;
        /* e2e5: not legal. */
        CHECK_STATUS(chess_moveFromMicro(&pos, (uint16_t)(SQ('e', '2') | SQ('e', '5') << 6), &m),
                     CHESS_ERR_ILLEGAL_MOVE, "micro e2e5");
        /* e2e4 with a promotion piece: no such move. */
        ChessStatus s =
            chess_moveFromMicro(&pos, (uint16_t)(SQ('e', '2') | SQ('e', '4') << 6 | 5 << 12), &m);
        CHECK(s == CHESS_ERR_ILLEGAL_MOVE || s == CHESS_ERR_INVALID_ARGUMENT,
              "micro e2e4=Q: %s", status_name(s));
        CHECK(m == 0x5A5A, "moveFromMicro wrote the output on error");
    }
}

/* ---- Filtered generation ----------------------------------------------------------------- */

static bool same_set(const ChessMoveList *a, const ChessMoveList *b)
{
    if (a->count != b->count) {
        return false;
    }
    for (uint32_t i = 0; i < a->count; i++) {
        if (!movelist_contains(b, a->moves[i])) {
            return false;
        }
    }
    return true;
}

/* The moves of `all` selected by piece-type mask and class, in a new list. */
static ChessMoveList filter(const ChessPosition *pos, const ChessMoveList *all, unsigned mask,
                            uint32_t cls)
{
    ChessMoveList out;
    out.count = 0;
    for (uint32_t i = 0; i < all->count; i++) {
        ChessMove m = all->moves[i];
        unsigned type = chess_pieceOn(pos, MOVE_FROM(m)) & 7;
        if (!((mask >> type) & 1)) {
            continue;
        }
        if ((cls == CHESS_GEN_CAPTURES && !MOVE_IS_CAPTURE(m)) ||
            (cls == CHESS_GEN_QUIETS && MOVE_IS_CAPTURE(m))) {
            continue;
        }
        out.moves[out.count++] = m;
    }
    return out;
}

static void filtered_generation(void)
{
    ChessPosition pos;
    for (size_t p = 0; p < NPOSITIONS; p++) {
        const char *fen = positions[p];
        ChessMoveList legal, pseudo, got;
        if (!SET_FEN(&pos, fen) ||
            !CHECK_STATUS(chess_generateLegalMoves(&pos, &legal), CHESS_OK, "%s", fen) ||
            !CHECK_STATUS(chess_generatePseudoLegalMoves(&pos, &pseudo), CHESS_OK, "%s", fen)) {
            continue;
        }
        /* Legal list: no duplicates, no 0, every move legal and in the pseudo-legal list;
         * every pseudo-legal move not in it is illegal. */
        for (uint32_t i = 0; i < legal.count; i++) {
            char mt[32];
            ChessMove m = legal.moves[i];
            CHECK(m != 0, "\"%s\": 0 in the legal list", fen);
            for (uint32_t j = 0; j < i; j++) {
                CHECK(legal.moves[j] != m, "\"%s\": %s listed twice", fen, move_text(m, mt));
            }
            CHECK(movelist_contains(&pseudo, m), "\"%s\": legal %s not pseudo-legal", fen,
                  move_text(m, mt));
            /* Piece and colour of the mover. */
            unsigned piece = chess_pieceOn(&pos, MOVE_FROM(m));
            CHECK(piece != 0 && (int)(piece >> 3) == chess_sideToMove(&pos),
                  "\"%s\": %s moves piece %u", fen, move_text(m, mt), piece);
        }
        for (uint32_t i = 0; i < pseudo.count; i++) {
            char mt[32];
            ChessMove m = pseudo.moves[i];
            CHECK(movelist_contains(&legal, m) == chess_isLegalMove(&pos, m),
                  "\"%s\": pseudo-legal %s: in legal list %d, isLegalMove %d", fen,
                  move_text(m, mt), (int)movelist_contains(&legal, m),
                  (int)chess_isLegalMove(&pos, m));
        }
        /* Promotions come queen, rook, bishop, knight. */
        for (uint32_t i = 0; i < legal.count; i++) {
            ChessMove m = legal.moves[i];
            if (MOVE_IS_PROMOTION(m) && (MOVE_FLAG(m) & 3) == 3) {
                bool ordered = i + 3 < legal.count;
                for (unsigned k = 1; ordered && k <= 3; k++) {
                    ChessMove n = legal.moves[i + k];
                    ordered = (n & 0x0FFF) == (m & 0x0FFF) && MOVE_FLAG(n) == MOVE_FLAG(m) - k;
                }
                CHECK(ordered, "\"%s\": promotions of 0x%04x not ordered Q, R, B, N", fen,
                      (unsigned)m);
            }
        }
        /* Every single piece type (a dice roll), and a few combinations, in every class,
         * legal and pseudo-legal. */
        static const unsigned masks[] = {1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6,
                                         (1u << 2) | (1u << 3), (1u << 1) | (1u << 6),
                                         CHESS_ALL_PIECE_TYPES};
        for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
            for (uint32_t cls = 0; cls < 3; cls++) {
                for (int leg = 0; leg < 2; leg++) {
                    const ChessMoveList *base = leg ? &legal : &pseudo;
                    ChessMoveList want = filter(&pos, base, masks[k], cls);
                    memset(&got, 0xEE, sizeof got);
                    if (!CHECK_STATUS(chess_generateMoves(&pos, leg != 0, cls, (uint8_t)masks[k],
                                                          &got),
                                      CHESS_OK, "\"%s\" mask 0x%02x class %u", fen, masks[k],
                                      cls)) {
                        continue;
                    }
                    CHECK(same_set(&got, &want),
                          "\"%s\" %s mask 0x%02x class %u: %u moves, expected %u", fen,
                          leg ? "legal" : "pseudo-legal", masks[k], cls, got.count, want.count);
                }
            }
        }
        /* Captures and quiets partition the legal list by bit 14. */
        ChessMoveList caps, quiets;
        if (CHECK_STATUS(chess_generateMoves(&pos, true, CHESS_GEN_CAPTURES,
                                             CHESS_ALL_PIECE_TYPES, &caps),
                         CHESS_OK, "%s", fen) &&
            CHECK_STATUS(chess_generateMoves(&pos, true, CHESS_GEN_QUIETS, CHESS_ALL_PIECE_TYPES,
                                             &quiets),
                         CHESS_OK, "%s", fen)) {
            CHECK(caps.count + quiets.count == legal.count, "\"%s\": %u captures + %u quiets != %u",
                  fen, caps.count, quiets.count, legal.count);
            for (uint32_t i = 0; i < caps.count; i++) {
                CHECK(MOVE_IS_CAPTURE(caps.moves[i]) && movelist_contains(&legal, caps.moves[i]) &&
                          !movelist_contains(&quiets, caps.moves[i]),
                      "\"%s\": capture list holds 0x%04x", fen, (unsigned)caps.moves[i]);
            }
            for (uint32_t i = 0; i < quiets.count; i++) {
                CHECK(!MOVE_IS_CAPTURE(quiets.moves[i]) &&
                          movelist_contains(&legal, quiets.moves[i]),
                      "\"%s\": quiet list holds 0x%04x", fen, (unsigned)quiets.moves[i]);
            }
        }
        /* Bad class or mask: CHESS_ERR_INVALID_ARGUMENT, output untouched. */
        static const struct {
            uint32_t cls;
            unsigned mask;
        } bad[] = {{3, CHESS_ALL_PIECE_TYPES}, {99, 2}, {0, 1}, {0, 0x80}, {1, 0xFF}, {2, 0x81}};
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            memset(&got, 0xEE, sizeof got);
            CHECK_STATUS(chess_generateMoves(&pos, true, bad[k].cls, (uint8_t)bad[k].mask, &got),
                         CHESS_ERR_INVALID_ARGUMENT, "\"%s\" class %u mask 0x%02x", fen,
                         bad[k].cls, bad[k].mask);
            CHECK(got.count == 0xEEEEEEEEu, "generateMoves wrote the output on error");
        }
    }
    /* Known counts (chess literature). */
    ChessMoveList l;
    if (SET_FEN(&pos, START_FEN)) {
        chess_generateMoves(&pos, true, CHESS_GEN_ALL, 1u << 1, &l);
        CHECK(l.count == 16, "start: pawn moves %u", l.count);
        chess_generateMoves(&pos, true, CHESS_GEN_ALL, 1u << 2, &l);
        CHECK(l.count == 4, "start: knight moves %u", l.count);
        for (unsigned t = 3; t <= 6; t++) {
            chess_generateMoves(&pos, true, CHESS_GEN_ALL, (uint8_t)(1u << t), &l);
            CHECK(l.count == 0, "start: type %u has %u moves", t, l.count);
        }
    }
    if (SET_FEN(&pos, KIWIPETE_FEN)) {
        chess_generateMoves(&pos, true, CHESS_GEN_CAPTURES, CHESS_ALL_PIECE_TYPES, &l);
        CHECK(l.count == 8, "kiwipete: %u captures, expected 8", l.count);
        chess_generateMoves(&pos, true, CHESS_GEN_ALL, 1u << 6, &l);
        CHECK(l.count == 4, "kiwipete: %u king moves (Kd1, Kf1, O-O, O-O-O), expected 4", l.count);
    }
}

/* ---- Repetition and game status ---------------------------------------------------------- */

static bool play_uci(ChessPosition *pos, const char *uci, ChessUndo *undo)
{
    ChessMove m = 0;
    return CHECK_STATUS(chess_moveFromUci(pos, uci, &m), CHESS_OK, "%s", uci) &&
           CHECK_STATUS(chess_makeMove(pos, m, undo), CHESS_OK, "%s", uci);
}

static ChessGameStatus game_status(const ChessPosition *pos)
{
    ChessGameStatus g = (ChessGameStatus)-1;
    CHECK_STATUS(chess_gameStatus(pos, &g), CHESS_OK, "gameStatus");
    return g;
}

static void repetition(void)
{
    static const char *const shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    ChessPosition pos;
    ChessUndo undo;
    if (!SET_FEN(&pos, START_FEN)) {
        return;
    }
    CHECK(!chess_isRepetition(&pos, 100), "start position a repetition");
    /* The start position occurs at plies 0, 4 and 8: third occurrence at ply 8. */
    for (int ply = 1; ply <= 8; ply++) {
        if (!play_uci(&pos, shuffle[(ply - 1) % 4], &undo)) {
            return;
        }
        bool rep = chess_isRepetition(&pos, 100);
        CHECK(rep == (ply == 8), "knight shuffle ply %d: isRepetition %d", ply, (int)rep);
        ChessGameStatus g = game_status(&pos);
        CHECK(g == (ply == 8 ? CHESS_THREEFOLD_REPETITION : CHESS_ONGOING),
              "knight shuffle ply %d: game status %d", ply, (int)g);
    }
    /* The first occurrence is 8 plies back: a limit below that cannot see it. */
    CHECK(chess_isRepetition(&pos, 8), "plyLimit 8 reaches the first occurrence");
    CHECK(chess_isRepetition(&pos, 1000), "plyLimit 1000");
    CHECK(!chess_isRepetition(&pos, 7), "plyLimit 7 cannot reach the first occurrence");
    CHECK(!chess_isRepetition(&pos, 4), "plyLimit 4 sees only one earlier occurrence");
    CHECK(!chess_isRepetition(&pos, 0), "plyLimit 0");
    /* Undo the last move: back to 2 occurrences of that position. */
    CHECK_STATUS(chess_unmakeMove(&pos, MAKE_MOVE(SQ('f', '6'), SQ('g', '8'), 0), &undo),
                 CHESS_OK, "unmake Ng8");
    CHECK(!chess_isRepetition(&pos, 100), "after unmaking the repeating move");

    /* A pawn move cuts the history: positions before it do not count. */
    if (!SET_FEN(&pos, START_FEN)) {
        return;
    }
    static const char *const game[] = {"g1f3", "g8f6", "f3g1", "f6g8", /* start x2 */
                                       "e2e4", "e7e5",                 /* irreversible */
                                       "g1f3", "g8f6", "f3g1", "f6g8", /* x2 after e5 */
                                       "g1f3", "g8f6", "f3g1", "f6g8"};/* x3 */
    for (size_t i = 0; i < sizeof game / sizeof game[0]; i++) {
        if (!play_uci(&pos, game[i], &undo)) {
            return;
        }
        bool rep = chess_isRepetition(&pos, 1000);
        CHECK(rep == (i == 13), "pawn-cut game ply %zu: isRepetition %d", i + 1, (int)rep);
    }
}

static void game_statuses(void)
{
    static const struct {
        const char *fen;
        ChessGameStatus want;
    } cases[] = {
        {START_FEN, CHESS_ONGOING},
        {KIWIPETE_FEN, CHESS_ONGOING},
        /* fool's mate */
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", CHESS_CHECKMATE},
        /* back-rank mate, with the clock at 100: mate comes first */
        {"R5k1/5ppp/8/8/8/8/8/4K3 b - - 100 80", CHESS_CHECKMATE},
        {"R5k1/5ppp/8/8/8/8/8/4K3 b - - 0 80", CHESS_CHECKMATE},
        /* stalemates */
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", CHESS_STALEMATE},
        {"k7/8/1Q6/8/8/8/8/7K b - - 0 1", CHESS_STALEMATE},
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 100 1", CHESS_STALEMATE},
        /* fifty-move rule */
        {"4k3/8/8/8/8/8/8/R3K3 w Q - 100 80", CHESS_FIFTY_MOVE_RULE},
        {"4k3/8/8/8/8/8/8/R3K3 w Q - 150 80", CHESS_FIFTY_MOVE_RULE},
        {"4k3/8/8/8/8/8/8/R3K3 w Q - 99 80", CHESS_ONGOING},
        /* insufficient material */
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_INSUFFICIENT_MATERIAL},
        {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_INSUFFICIENT_MATERIAL},
        {"4kb2/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_INSUFFICIENT_MATERIAL},
        {"4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", CHESS_INSUFFICIENT_MATERIAL},
        /* enough material */
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", CHESS_ONGOING},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", CHESS_ONGOING},
        {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", CHESS_ONGOING},
        {"4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", CHESS_ONGOING},
    };
    ChessPosition pos;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (SET_FEN(&pos, cases[i].fen)) {
            ChessGameStatus g = game_status(&pos);
            CHECK(g == cases[i].want, "\"%s\": game status %d, expected %d", cases[i].fen, (int)g,
                  (int)cases[i].want);
        }
    }
    /* Mate and check flags agree. */
    if (SET_FEN(&pos, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")) {
        CHECK(chess_isInCheck(&pos), "fool's mate: in check");
        CHECK(chess_checkers(&pos) == 1ull << SQ('h', '4'), "fool's mate: checker h4");
    }
    /* Fifty-move rule reached by play: clock 99 plus a quiet move. */
    if (SET_FEN(&pos, "4k3/8/8/8/8/8/8/R3K3 w Q - 99 80")) {
        ChessUndo u;
        if (play_uci(&pos, "a1a2", &u)) {
            CHECK(chess_halfmoveClock(&pos) == 100, "clock %u", chess_halfmoveClock(&pos));
            CHECK(game_status(&pos) == CHESS_FIFTY_MOVE_RULE, "fifty-move rule after a1a2");
        }
    }
    /* Checkmate reached by play. */
    if (SET_FEN(&pos, START_FEN)) {
        ChessUndo u;
        static const char *const fools[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
        bool ok = true;
        for (size_t i = 0; ok && i < 4; i++) {
            ok = play_uci(&pos, fools[i], &u);
        }
        if (ok) {
            CHECK(game_status(&pos) == CHESS_CHECKMATE, "fool's mate by play");
            ChessMoveList l;
            chess_generateLegalMoves(&pos, &l);
            CHECK(l.count == 0, "mated side has %u moves", l.count);
        }
    }
}

/* ---- History limit ----------------------------------------------------------------------- */

static void history_limit(void)
{
    static ChessPosition pos, saved;
    static const char *const shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    if (!SET_FEN(&pos, START_FEN)) {
        return;
    }
    ChessUndo u;
    int made = 0;
    ChessStatus s = CHESS_OK;
    for (int i = 0; i < 1024; i++) {
        ChessMove m = 0;
        chess_moveFromUci(&pos, shuffle[i % 4], &m);
        s = chess_makeMove(&pos, m, &u);
        if (s != CHESS_OK) {
            break;
        }
        made++;
    }
    CHECK(made == 1024, "only %d moves made before %s", made, status_name(s));
    ChessMove m = 0;
    chess_moveFromUci(&pos, shuffle[made % 4], &m);
    memcpy(&saved, &pos, sizeof pos);
    CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_ERR_HISTORY_FULL, "move 1025");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused move 1025 changed the position");
    CHECK_STATUS(chess_makeNullMove(&pos, &u), CHESS_ERR_HISTORY_FULL, "null move 1025");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused null move changed the position");
    /* Setting the position again starts a new history. */
    CHECK_STATUS(chess_setFromFEN(&pos, START_FEN), CHESS_OK, "reset");
    chess_moveFromUci(&pos, "e2e4", &m);
    CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_OK, "after reset");
    /* The unchecked make refuses past the history too, so that every move it made can be
     * taken back by the checked unmake with its record: all 1024 of them here. */
    static ChessUndo undos[1024];
    static ChessMove made_moves[1024];
    SET_FEN(&pos, START_FEN);
    made = 0;
    for (int i = 0; i < 1100; i++) {
        chess_moveFromUci(&pos, shuffle[i % 4], &m);
        memcpy(&saved, &pos, sizeof pos);
        s = chess_makeMoveUnchecked(&pos, m, &undos[made < 1024 ? made : 1023]);
        if (s != CHESS_OK) {
            CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "refused unchecked make changed it");
            break;
        }
        made_moves[made++] = m;
    }
    CHECK(made == 1024 && s == CHESS_ERR_HISTORY_FULL, "unchecked make stopped after %d: %s",
          made, status_name(s));
    char fen[CHESS_FEN_MAX];
    /* 256 knight round trips: the start placement, clock 1024, move 513. */
    CHECK(strcmp(fen_of(&pos, fen),
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1024 513") == 0,
          "after 1024 shuffle plies: \"%s\"", fen);
    for (int i = made - 1; i >= 0; i--) {
        s = chess_unmakeMove(&pos, made_moves[i], &undos[i]);
        if (s != CHESS_OK) {
            CHECK(false, "checked unmake of unchecked move %d refused: %s", i, status_name(s));
            break;
        }
    }
    CHECK(strcmp(fen_of(&pos, fen), START_FEN) == 0, "unmade back to \"%s\"", fen);
    /* Compacting lets a long game go on: the clock (1024) keeps every entry here, so play a
     * pawn move first. */
    SET_FEN(&pos, START_FEN);
    for (int i = 0; i < 1023; i++) {
        chess_moveFromUci(&pos, shuffle[i % 4], &m);
        chess_makeMove(&pos, m, &u);
    }
    chess_moveFromUci(&pos, "e7e6", &m);
    CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_OK, "pawn move 1024");
    chess_moveFromUci(&pos, "e2e3", &m);
    CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_ERR_HISTORY_FULL, "move 1025");
    CHECK_STATUS(chess_compactHistory(&pos), CHESS_OK, "compact");
    CHECK_STATUS(chess_makeMove(&pos, m, &u), CHESS_OK, "move 1025 after compaction");
    CHECK_STATUS(chess_unmakeMove(&pos, m, &u), CHESS_OK, "unmake after compaction");
    CHECK(strcmp(fen_of(&pos, fen),
                 "rnbqkb1r/pppp1ppp/4pn2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 513") == 0,
          "after compaction: \"%s\"", fen);
}

/* ---- Attack tables against a plain reference --------------------------------------------- */

static uint64_t ref_steps(unsigned sq, const int (*d)[2], int n, uint64_t occ, bool slide)
{
    uint64_t bb = 0;
    int f0 = (int)(sq & 7), r0 = (int)(sq >> 3);
    for (int i = 0; i < n; i++) {
        int f = f0 + d[i][0], r = r0 + d[i][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            bb |= 1ull << (r * 8 + f);
            if (!slide || ((occ >> (r * 8 + f)) & 1)) {
                break;
            }
            f += d[i][0];
            r += d[i][1];
        }
    }
    return bb;
}

static const int knight_d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int king_d[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
static const int rook_d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_d[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};

static void attack_tables(void)
{
    Rng rng = rng_new(2024);
    for (unsigned sq = 0; sq < 64; sq++) {
        CHECK(chess_knightAttacks(sq) == ref_steps(sq, knight_d, 8, 0, false), "knight %u", sq);
        CHECK(chess_kingAttacks(sq) == ref_steps(sq, king_d, 8, 0, false), "king %u", sq);
        CHECK(chess_pawnAttacks(0, sq) == ref_steps(sq, wpawn_d, 2, 0, false), "white pawn %u",
              sq);
        CHECK(chess_pawnAttacks(1, sq) == ref_steps(sq, bpawn_d, 2, 0, false), "black pawn %u",
              sq);
        for (int k = 0; k < 200; k++) {
            uint64_t occ = rng_next(&rng) & rng_next(&rng);
            if (k == 0) {
                occ = 0;
            } else if (k == 1) {
                occ = UINT64_MAX;
            }
            uint64_t r = ref_steps(sq, rook_d, 4, occ, true);
            uint64_t b = ref_steps(sq, bishop_d, 4, occ, true);
            CHECK(chess_rookAttacks(sq, occ) == r, "rook %u occ %016" PRIx64, sq, occ);
            CHECK(chess_bishopAttacks(sq, occ) == b, "bishop %u occ %016" PRIx64, sq, occ);
            CHECK(chess_queenAttacks(sq, occ) == (r | b), "queen %u occ %016" PRIx64, sq, occ);
        }
    }
    CHECK(chess_knightAttacks(64) == 0 && chess_kingAttacks(64) == 0 &&
              chess_pawnAttacks(0, 64) == 0 && chess_pawnAttacks(2, 10) == 0 &&
              chess_knightAttacks(UINT32_MAX) == 0,
          "out-of-range squares give 0");
    /* attackersTo on the start position. */
    ChessPosition pos;
    if (SET_FEN(&pos, START_FEN)) {
        /* f3: g1 knight, e2 and g2 pawns. */
        uint64_t want = 1ull << SQ('g', '1') | 1ull << SQ('e', '2') | 1ull << SQ('g', '2');
        CHECK(chess_attackersTo(&pos, SQ('f', '3')) == want, "attackers of f3");
        CHECK(chess_attackersTo(&pos, SQ('e', '4')) == 0, "attackers of e4");
        CHECK(chess_attackersTo(&pos, 64) == 0, "attackers of square 64");
    }
}

/* ---- Perft corner cases ------------------------------------------------------------------ */

static void perft_corners(void)
{
    ChessPosition pos;
    uint64_t n = 0;
    if (SET_FEN(&pos, START_FEN)) {
        CHECK_STATUS(chess_perft(&pos, 0, &n), CHESS_OK, "perft 0");
        CHECK(n == 1, "perft depth 0 = %" PRIu64 ", expected 1", n);
        n = 0;
        CHECK_STATUS(chess_perftFull(&pos, 0, &n), CHESS_OK, "perftFull 0");
        CHECK(n == 1, "perftFull depth 0 = %" PRIu64 ", expected 1", n);
        ChessMoveList moves;
        uint64_t counts[256], total = 0;
        memset(&moves, 0xEE, sizeof moves);
        CHECK_STATUS(chess_perftDivide(&pos, 0, &moves, counts, 256, &total), CHESS_OK,
                     "divide 0");
        CHECK(moves.count == 0 && total == 1, "divide depth 0: %u moves, total %" PRIu64,
              moves.count, total);
        CHECK_STATUS(chess_perftDivide(&pos, 1, &moves, counts, 256, &total), CHESS_OK,
                     "divide 1");
        bool ones = moves.count == 20 && total == 20;
        for (uint32_t i = 0; ones && i < moves.count; i++) {
            ones = counts[i] == 1;
        }
        CHECK(ones, "divide depth 1 of the start: %u moves, total %" PRIu64, moves.count, total);
    }
    /* A mated or stalemated side has no moves: perft 0 below depth 0. */
    static const char *const dead[] = {
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    };
    for (size_t i = 0; i < 2; i++) {
        if (SET_FEN(&pos, dead[i])) {
            for (uint32_t d = 1; d <= 3; d++) {
                n = 99;
                CHECK_STATUS(chess_perft(&pos, d, &n), CHESS_OK, "%s", dead[i]);
                CHECK(n == 0, "\"%s\" perft %u = %" PRIu64 ", expected 0", dead[i], d, n);
                n = 99;
                CHECK_STATUS(chess_perftFull(&pos, d, &n), CHESS_OK, "%s", dead[i]);
                CHECK(n == 0, "\"%s\" perftFull %u = %" PRIu64 ", expected 0", dead[i], d, n);
            }
        }
    }
}

int main(void)
{
    perft_corners();
    uci_round_trips();
    uci_fuzz();
    micro_round_trips();
    filtered_generation();
    repetition();
    game_statuses();
    history_limit();
    attack_tables();
    return test_summary("test_misc");
}
