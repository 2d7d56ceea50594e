/*
 * Every 16-bit value as a move: chess_makeMove accepts exactly the values in
 * chess_generateLegalMoves' list (chess_isLegalMove agrees), a refused value leaves the
 * position byte-identical and the undo buffer untouched, an accepted one unmakes back to the
 * same FEN and hashes. Then chess_unmakeMove with wrong moves and garbage undo records.
 *
 *   test_all_moves [sweep|unmake]
 */
#include "common.h"

static const char *const positions[] = {
    START_FEN,
    KIWIPETE_FEN,
    /* en passant available (and an en passant capture that is illegal: pinned on the rank) */
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
    /* promotions, captures with promotion */
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    /* castling both ways, through/out of check variants */
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    /* in check: only evasions */
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    /* checkmated and stalemated: nothing is legal */
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
};

static ChessPosition pos, saved;
static uint8_t legal_bits[65536 / 8];

static void sweep(const char *fen)
{
    if (!SET_FEN(&pos, fen)) {
        return;
    }
    ChessMoveList list;
    if (!CHECK_STATUS(chess_generateLegalMoves(&pos, &list), CHESS_OK, "\"%s\"", fen)) {
        return;
    }
    memset(legal_bits, 0, sizeof legal_bits);
    for (uint32_t i = 0; i < list.count; i++) {
        legal_bits[list.moves[i] >> 3] |= (uint8_t)(1u << (list.moves[i] & 7));
    }
    CHECK((legal_bits[0] & 1) == 0, "\"%s\": 0 listed as a legal move", fen);
    PosState start = pos_state(&pos);
    uint32_t accepted = 0;
    for (uint32_t v = 0; v < 65536; v++) {
        char mt[32];
        ChessMove m = (ChessMove)v;
        bool listed = (legal_bits[v >> 3] >> (v & 7)) & 1;
        bool is_legal = chess_isLegalMove(&pos, m);
        CHECK(is_legal == listed, "\"%s\": chess_isLegalMove(%s) = %d, in legal list: %d", fen,
              move_text(m, mt), (int)is_legal, (int)listed);
        memcpy(&saved, &pos, sizeof pos);
        ChessUndo undo;
        memset(&undo, 0xE7, sizeof undo);
        ChessStatus s = chess_makeMove(&pos, m, &undo);
        if (listed) {
            accepted++;
            if (!CHECK_STATUS(s, CHESS_OK, "\"%s\": legal move %s refused", fen,
                              move_text(m, mt))) {
                continue;
            }
            if (!CHECK_STATUS(chess_unmakeMove(&pos, m, &undo), CHESS_OK, "\"%s\" unmake %s",
                              fen, move_text(m, mt))) {
                memcpy(&pos, &saved, sizeof pos);
                continue;
            }
            PosState now = pos_state(&pos);
            CHECK(pos_state_equal(&now, &start), "\"%s\": make/unmake %s gave \"%s\"", fen,
                  move_text(m, mt), now.fen);
        } else {
            CHECK_STATUS(s, CHESS_ERR_ILLEGAL_MOVE, "\"%s\": value %s", fen, move_text(m, mt));
            CHECK(memcmp(&saved, &pos, sizeof pos) == 0,
                  "\"%s\": refused value %s modified the position", fen, move_text(m, mt));
            bool untouched = true;
            for (size_t i = 0; i < sizeof undo; i++) {
                untouched &= ((const unsigned char *)&undo)[i] == 0xE7;
            }
            CHECK(untouched, "\"%s\": refused value %s wrote the undo record", fen,
                  move_text(m, mt));
            if (s == CHESS_OK) {
                /* Keep sweeping from the right position. */
                memcpy(&pos, &saved, sizeof pos);
            }
        }
    }
    CHECK(accepted == list.count, "\"%s\": %u of %u listed moves accepted", fen, accepted,
          list.count);
    printf("  %-70s %3u legal of 65536\n", fen, list.count);
}

static bool undo_untouched_by(ChessPosition *p, ChessMove m, const ChessUndo *u, const char *what)
{
    static ChessPosition before;
    memcpy(&before, p, sizeof *p);
    ChessStatus s = chess_unmakeMove(p, m, u);
    bool ok = CHECK_STATUS(s, CHESS_ERR_BAD_UNDO, "%s", what);
    CHECK(memcmp(&before, p, sizeof *p) == 0, "%s: refused unmake modified the position", what);
    if (s == CHESS_OK) {
        memcpy(p, &before, sizeof *p);
    }
    return ok;
}

/* Every other 16-bit value as the move to take back, with the right record: all refused,
 * the position byte-identical. One check per made move, naming the first values accepted. */
static void wrong_move_values(const char *fen, const char *uci)
{
    static ChessPosition after;
    ChessMove m = 0;
    ChessUndo undo;
    if (!SET_FEN(&pos, fen) ||
        !CHECK_STATUS(chess_moveFromUci(&pos, uci, &m), CHESS_OK, "\"%s\" %s", fen, uci) ||
        !CHECK_STATUS(chess_makeMove(&pos, m, &undo), CHESS_OK, "\"%s\" %s", fen, uci)) {
        return;
    }
    memcpy(&after, &pos, sizeof pos);
    unsigned accepted = 0, modified = 0;
    char first[4][32];
    for (uint32_t v = 0; v < 65536; v++) {
        if (v == m) {
            continue;
        }
        ChessStatus s = chess_unmakeMove(&pos, (ChessMove)v, &undo);
        if (s != CHESS_ERR_BAD_UNDO) {
            if (accepted < 4) {
                move_text((ChessMove)v, first[accepted]);
            }
            accepted++;
        }
        if (memcmp(&after, &pos, sizeof pos) != 0) {
            if (s != CHESS_OK) {
                modified++;
            }
            memcpy(&pos, &after, sizeof pos);
        }
    }
    char mt[32];
    CHECK(accepted == 0,
          "\"%s\": after %s (%s), chess_unmakeMove accepted %u other move values instead of "
          "CHESS_ERR_BAD_UNDO, e.g. %s %s %s %s",
          fen, uci, move_text(m, mt), accepted, accepted > 0 ? first[0] : "",
          accepted > 1 ? first[1] : "", accepted > 2 ? first[2] : "", accepted > 3 ? first[3] : "");
    CHECK(modified == 0, "\"%s\" after %s: %u refused unmakes modified the position", fen, uci,
          modified);
    /* The right pair still works. */
    CHECK_STATUS(chess_unmakeMove(&pos, m, &undo), CHESS_OK, "\"%s\" unmake %s", fen, uci);
    char out[CHESS_FEN_MAX];
    CHECK(strcmp(fen_of(&pos, out), fen) == 0, "\"%s\": unmake %s gave \"%s\"", fen, uci, out);
}

static void bad_undo(void)
{
    ChessMove e2e4 = MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1);
    ChessMove d2d4 = MAKE_MOVE(SQ('d', '2'), SQ('d', '4'), 1);
    ChessMove g1f3 = MAKE_MOVE(SQ('g', '1'), SQ('f', '3'), 0);
    ChessMove e7e5 = MAKE_MOVE(SQ('e', '7'), SQ('e', '5'), 1);
    ChessUndo u1, u2, garbage;
    Rng rng = rng_new(77);

    /* No move made since setup: nothing to take back. */
    SET_FEN(&pos, START_FEN);
    memset(&garbage, 0, sizeof garbage);
    undo_untouched_by(&pos, e2e4, &garbage, "unmake with no move made (zero record)");

    SET_FEN(&pos, START_FEN);
    PosState start = pos_state(&pos);
    CHECK_STATUS(chess_makeMove(&pos, e2e4, &u1), CHESS_OK, "e2e4");
    PosState after1 = pos_state(&pos);
    /* Wrong move with the right record. */
    undo_untouched_by(&pos, d2d4, &u1, "unmake d2d4 after e2e4");
    undo_untouched_by(&pos, g1f3, &u1, "unmake g1f3 after e2e4");
    undo_untouched_by(&pos, e7e5, &u1, "unmake e7e5 after e2e4");
    undo_untouched_by(&pos, 0, &u1, "unmake of move value 0");
    /* Right move with garbage records. */
    memset(&garbage, 0, sizeof garbage);
    undo_untouched_by(&pos, e2e4, &garbage, "unmake e2e4 with a zero record");
    memset(&garbage, 0xFF, sizeof garbage);
    undo_untouched_by(&pos, e2e4, &garbage, "unmake e2e4 with a 0xFF record");
    for (int i = 0; i < 100; i++) {
        for (size_t k = 0; k < CHESS_UNDO_WORDS; k++) {
            garbage._opaque[k] = rng_next(&rng);
        }
        undo_untouched_by(&pos, e2e4, &garbage, "unmake e2e4 with a random record");
    }
    /* A record from an earlier ply (the state of another position). */
    CHECK_STATUS(chess_makeMove(&pos, e7e5, &u2), CHESS_OK, "e7e5");
    undo_untouched_by(&pos, e7e5, &u1, "unmake e7e5 with the record of e2e4");
    undo_untouched_by(&pos, e2e4, &u1, "unmake e2e4 (not the last move)");
    undo_untouched_by(&pos, e2e4, &u2, "unmake e2e4 with the record of e7e5");
    /* The right pair still works after all the refusals. */
    CHECK_STATUS(chess_unmakeMove(&pos, e7e5, &u2), CHESS_OK, "unmake e7e5");
    PosState now = pos_state(&pos);
    CHECK(pos_state_equal(&now, &after1), "after unmake e7e5: \"%s\"", now.fen);
    CHECK_STATUS(chess_unmakeMove(&pos, e2e4, &u1), CHESS_OK, "unmake e2e4");
    now = pos_state(&pos);
    CHECK(pos_state_equal(&now, &start), "after unmake e2e4: \"%s\"", now.fen);
    /* Everything taken back: a further unmake is refused. */
    undo_untouched_by(&pos, e2e4, &u1, "unmake e2e4 twice");

    /* The record of a null move does not take back a real move. */
    SET_FEN(&pos, START_FEN);
    CHECK_STATUS(chess_makeMove(&pos, e2e4, &u1), CHESS_OK, "e2e4");
    CHECK_STATUS(chess_makeNullMove(&pos, &u2), CHESS_OK, "null move");
    undo_untouched_by(&pos, e2e4, &u1, "unmake e2e4 while a null move is the last move");
    undo_untouched_by(&pos, e2e4, &u2, "unmake e2e4 with the null move's record");
    CHECK_STATUS(chess_unmakeNullMove(&pos, &u2), CHESS_OK, "unmake null move");
    CHECK_STATUS(chess_unmakeMove(&pos, e2e4, &u1), CHESS_OK, "unmake e2e4");
    now = pos_state(&pos);
    CHECK(pos_state_equal(&now, &start), "after null and e2e4 unmade: \"%s\"", now.fen);

    /* Records are plain data: a memcpy'd record works. */
    CHECK_STATUS(chess_makeMove(&pos, g1f3, &u1), CHESS_OK, "g1f3");
    memcpy(&u2, &u1, sizeof u1);
    memset(&u1, 0, sizeof u1);
    CHECK_STATUS(chess_unmakeMove(&pos, g1f3, &u2), CHESS_OK, "unmake g1f3 from a copy");
    now = pos_state(&pos);
    CHECK(pos_state_equal(&now, &start), "after copied-record unmake: \"%s\"", now.fen);

    /* Every other move value with the right record, for moves of every kind. */
    wrong_move_values(START_FEN, "e2e4");                                  /* double push */
    wrong_move_values(START_FEN, "g1f3");                                  /* quiet */
    wrong_move_values("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1");     /* castling */
    wrong_move_values("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8");     /* castling */
    wrong_move_values("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q");         /* promotion */
    wrong_move_values("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", "b7a8n"); /* capture-promo */
    wrong_move_values(KIWIPETE_FEN, "e2a6");                               /* capture */
    wrong_move_values("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", "c4d3");      /* en passant */
}

int main(int argc, char **argv)
{
    /* "sweep": the 65536 values through make; "unmake": wrong moves and records for unmake;
     * no argument: both. */
    bool all = argc < 2;
    bool do_sweep = all || strcmp(argv[1], "sweep") == 0;
    bool do_unmake = all || strcmp(argv[1], "unmake") == 0;
    if (!do_sweep && !do_unmake) {
        fprintf(stderr, "usage: test_all_moves [sweep|unmake]\n");
        return 2;
    }
    if (do_sweep) {
        for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
            sweep(positions[i]);
        }
    }
    if (do_unmake) {
        bad_undo();
    }
    return test_summary(do_sweep && do_unmake ? "test_all_moves"
                        : do_sweep            ? "test_all_moves sweep"
                                              : "test_all_moves unmake");
}
