/*
 * Make/unmake symmetry over random games (fixed-seed xorshift) from every suite position,
 * with null moves mixed in; incremental hashes against hashes recomputed from FEN; the state
 * changes a move must make (chess rules); transpositions.
 *
 *   test_make_unmake EPD_FILE...
 */
#include "common.h"

#define NGAMES 200
#define MAX_PLIES 200
#define NULL_MOVE_MARK 0 /* 0 is never a legal move: marks a null move in a game record */

/* Castling-right bits a move touching this square removes (1 K, 2 Q, 4 k, 8 q). */
static unsigned castle_mask(unsigned sq)
{
    switch (sq) {
    case 4: return 1 | 2;   /* e1 */
    case 7: return 1;       /* h1 */
    case 0: return 2;       /* a1 */
    case 60: return 4 | 8;  /* e8 */
    case 63: return 4;      /* h8 */
    case 56: return 8;      /* a8 */
    default: return 0;
    }
}

typedef struct {
    ChessMove move; /* NULL_MOVE_MARK for a null move */
    ChessUndo undo;
    PosState before;
    PosState after;
} Ply;

/* Recomputes the hashes from the FEN in a fresh position and compares with the incremental
 * ones. */
static void check_fresh_hashes(const ChessPosition *pos, const char *context)
{
    static ChessPosition fresh;
    PosState s = pos_state(pos);
    if (!SET_FEN(&fresh, s.fen)) {
        return;
    }
    PosState f = pos_state(&fresh);
    CHECK(strcmp(f.fen, s.fen) == 0, "%s: FEN \"%s\" re-read as \"%s\"", context, s.fen, f.fen);
    CHECK(f.hash == s.hash, "%s: incremental hash %016" PRIx64 " != hash %016" PRIx64
                            " of chess_setFromFEN(\"%s\")",
          context, s.hash, f.hash, s.fen);
    CHECK(f.pawn_hash == s.pawn_hash, "%s: incremental pawn hash %016" PRIx64
                                      " != %016" PRIx64 " from FEN \"%s\"",
          context, s.pawn_hash, f.pawn_hash, s.fen);
    CHECK(f.material_hash == s.material_hash,
          "%s: incremental material hash %016" PRIx64 " != %016" PRIx64 " from FEN \"%s\"",
          context, s.material_hash, f.material_hash, s.fen);
}

/* Makes `m` (legal) and checks the observable changes against the rules of chess. */
static bool make_and_check(ChessPosition *pos, ChessMove m, ChessUndo *undo, const char *ctx)
{
    char mt[32];
    PosState before = pos_state(pos);
    unsigned from = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
    unsigned moved = chess_pieceOn(pos, from);
    unsigned captured = flag == 5 ? 1u : (unsigned)(chess_pieceOn(pos, to) & 7);
    unsigned rights = chess_castlingRights(pos);
    int side = chess_sideToMove(pos);
    uint32_t halfmove = chess_halfmoveClock(pos), fullmove = chess_fullmoveNumber(pos);

    if (!CHECK_STATUS(chess_makeMove(pos, m, undo), CHESS_OK, "%s: make %s in \"%s\"", ctx,
                      move_text(m, mt), before.fen)) {
        return false;
    }
    PosState after = pos_state(pos);
    const char *fen = before.fen;
    move_text(m, mt);
    CHECK(after.hash != before.hash, "%s: %s in \"%s\" left the hash unchanged", ctx, mt, fen);
    bool pawns_change = (moved & 7) == 1 || captured == 1;
    CHECK((after.pawn_hash != before.pawn_hash) == pawns_change,
          "%s: %s in \"%s\": pawn hash %s (pawn move or pawn capture: %d)", ctx, mt, fen,
          after.pawn_hash != before.pawn_hash ? "changed" : "unchanged", (int)pawns_change);
    bool material_changes = MOVE_IS_CAPTURE(m) || MOVE_IS_PROMOTION(m);
    CHECK((after.material_hash != before.material_hash) == material_changes,
          "%s: %s in \"%s\": material hash %s (capture or promotion: %d)", ctx, mt, fen,
          after.material_hash != before.material_hash ? "changed" : "unchanged",
          (int)material_changes);
    CHECK(chess_sideToMove(pos) == 1 - side, "%s: %s: side to move not flipped", ctx, mt);
    unsigned want_rights = rights & ~castle_mask(from) & ~castle_mask(to);
    CHECK(chess_castlingRights(pos) == want_rights, "%s: %s in \"%s\": castling %u, expected %u",
          ctx, mt, fen, chess_castlingRights(pos), want_rights);
    int want_ep = flag == 1 ? (int)(from + to) / 2 : -1;
    CHECK(chess_enPassantSquare(pos) == want_ep, "%s: %s in \"%s\": ep %d, expected %d", ctx, mt,
          fen, chess_enPassantSquare(pos), want_ep);
    uint32_t want_half = ((moved & 7) == 1 || MOVE_IS_CAPTURE(m)) ? 0 : halfmove + 1;
    CHECK(chess_halfmoveClock(pos) == want_half, "%s: %s in \"%s\": halfmove %u, expected %u",
          ctx, mt, fen, chess_halfmoveClock(pos), want_half);
    uint32_t want_full = fullmove + (side == 1 ? 1 : 0);
    CHECK(chess_fullmoveNumber(pos) == want_full, "%s: %s in \"%s\": fullmove %u, expected %u",
          ctx, mt, fen, chess_fullmoveNumber(pos), want_full);
    unsigned want_piece = moved;
    if (MOVE_IS_PROMOTION(m)) {
        want_piece = (moved & 8) | (2 + (flag & 3)); /* knight, bishop, rook, queen */
    }
    CHECK(chess_pieceOn(pos, to) == want_piece && chess_pieceOn(pos, from) == 0,
          "%s: %s in \"%s\": to square holds %u (expected %u), from square %u", ctx, mt, fen,
          chess_pieceOn(pos, to), want_piece, chess_pieceOn(pos, from));
    if (flag == 5) {
        unsigned victim = side == 0 ? to - 8 : to + 8;
        CHECK(chess_pieceOn(pos, victim) == 0, "%s: %s: en passant victim not removed", ctx, mt);
    }
    if (flag == 2 || flag == 3) {
        unsigned rook_from = flag == 2 ? from + 3 : from - 4;
        unsigned rook_to = flag == 2 ? from + 1 : from - 1;
        CHECK(chess_pieceOn(pos, rook_from) == 0 &&
                  chess_pieceOn(pos, rook_to) == ((moved & 8) | 4),
              "%s: %s in \"%s\": castling rook not moved", ctx, mt, fen);
    }
    return true;
}

static bool unmake_and_check(ChessPosition *pos, ChessMove m, const ChessUndo *undo,
                             const PosState *want, const char *ctx)
{
    char mt[32];
    ChessStatus s = m == NULL_MOVE_MARK ? chess_unmakeNullMove(pos, undo)
                                        : chess_unmakeMove(pos, m, undo);
    if (!CHECK_STATUS(s, CHESS_OK, "%s: unmake %s", ctx,
                      m == NULL_MOVE_MARK ? "null move" : move_text(m, mt))) {
        return false;
    }
    PosState got = pos_state(pos);
    return CHECK(pos_state_equal(&got, want),
                 "%s: unmake %s: got FEN \"%s\" hash %016" PRIx64 "/%016" PRIx64 "/%016" PRIx64
                 ", expected \"%s\" %016" PRIx64 "/%016" PRIx64 "/%016" PRIx64,
                 ctx, m == NULL_MOVE_MARK ? "null move" : move_text(m, mt), got.fen, got.hash,
                 got.pawn_hash, got.material_hash, want->fen, want->hash, want->pawn_hash,
                 want->material_hash);
}

static bool make_null_and_check(ChessPosition *pos, ChessUndo *undo, const char *ctx)
{
    PosState before = pos_state(pos);
    int side = chess_sideToMove(pos);
    uint32_t fullmove = chess_fullmoveNumber(pos);
    unsigned rights = chess_castlingRights(pos);
    if (!CHECK_STATUS(chess_makeNullMove(pos, undo), CHESS_OK, "%s: null move in \"%s\"", ctx,
                      before.fen)) {
        return false;
    }
    PosState after = pos_state(pos);
    CHECK(after.hash != before.hash, "%s: null move left the hash unchanged", ctx);
    CHECK(after.pawn_hash == before.pawn_hash, "%s: null move changed the pawn hash", ctx);
    CHECK(after.material_hash == before.material_hash, "%s: null move changed material hash",
          ctx);
    CHECK(chess_sideToMove(pos) == 1 - side, "%s: null move did not flip the side", ctx);
    CHECK(chess_enPassantSquare(pos) == -1, "%s: null move kept an en passant square", ctx);
    CHECK(chess_castlingRights(pos) == rights, "%s: null move changed castling rights", ctx);
    CHECK(chess_fullmoveNumber(pos) == fullmove + (side == 1 ? 1 : 0),
          "%s: null move fullmove number %u", ctx, chess_fullmoveNumber(pos));
    return true;
}

static void random_games(int nfiles, char **files)
{
    /* All suite FENs, in file order. */
    static char fens[512][EPD_MAX_FEN];
    int nfens = load_suite_fens(nfiles, files, fens, 512);
    if (!CHECK(nfens > 0, "no suite positions")) {
        return;
    }

    static Ply plies[MAX_PLIES];
    static ChessPosition pos;
    Rng rng = rng_new(0xC0FFEE1234567ull);
    unsigned long long made = 0, nulls = 0, probes = 0, null_refused = 0;
    for (int g = 0; g < NGAMES; g++) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "game %d ply 0", g);
        const char *start_fen = fens[g % nfens];
        if (!SET_FEN(&pos, start_fen)) {
            continue;
        }
        PosState start = pos_state(&pos);
        int n = 0;
        for (int ply = 0; ply < MAX_PLIES; ply++) {
            snprintf(ctx, sizeof ctx, "game %d ply %d", g, ply);
            ChessMoveList list;
            if (!CHECK_STATUS(chess_generateLegalMoves(&pos, &list), CHESS_OK, "%s", ctx)) {
                break;
            }
            if (list.count == 0) {
                break;
            }
            /* Probes: make and unmake a couple of random legal moves. */
            for (int p = 0; p < 2; p++) {
                ChessMove m = list.moves[rng_below(&rng, list.count)];
                PosState before = pos_state(&pos);
                ChessUndo undo;
                if (make_and_check(&pos, m, &undo, ctx)) {
                    check_fresh_hashes(&pos, ctx);
                    unmake_and_check(&pos, m, &undo, &before, ctx);
                }
                probes++;
            }
            Ply *pl = &plies[n];
            pl->before = pos_state(&pos);
            bool in_check = chess_isInCheck(&pos);
            if (in_check) {
                /* A null move in check is refused and changes nothing. */
                static ChessPosition saved;
                ChessUndo undo;
                memcpy(&saved, &pos, sizeof pos);
                CHECK_STATUS(chess_makeNullMove(&pos, &undo), CHESS_ERR_ILLEGAL_MOVE,
                             "%s: null move in check", ctx);
                CHECK(memcmp(&saved, &pos, sizeof pos) == 0,
                      "%s: refused null move changed the position", ctx);
                null_refused++;
            }
            if (!in_check && rng_below(&rng, 10) == 0) {
                pl->move = NULL_MOVE_MARK;
                if (!make_null_and_check(&pos, &pl->undo, ctx)) {
                    break;
                }
                nulls++;
                /* A null move and its undo, on its own. */
                ChessUndo u2;
                PosState mid = pos_state(&pos);
                if (!chess_isInCheck(&pos) && make_null_and_check(&pos, &u2, ctx)) {
                    unmake_and_check(&pos, NULL_MOVE_MARK, &u2, &mid, ctx);
                }
            } else {
                pl->move = list.moves[rng_below(&rng, list.count)];
                if (!make_and_check(&pos, pl->move, &pl->undo, ctx)) {
                    break;
                }
                made++;
            }
            check_fresh_hashes(&pos, ctx);
            pl->after = pos_state(&pos);
            n++;
        }
        /* Unwind the whole game. */
        for (int i = n - 1; i >= 0; i--) {
            snprintf(ctx, sizeof ctx, "game %d unwind ply %d", g, i);
            if (!unmake_and_check(&pos, plies[i].move, &plies[i].undo, &plies[i].before, ctx)) {
                break;
            }
        }
        PosState end = pos_state(&pos);
        CHECK(pos_state_equal(&end, &start), "game %d: after unwinding, FEN \"%s\" != start \"%s\"",
              g, end.fen, start.fen);
        /* Replay it forward (the same moves must be legal again and give the same states), and
         * unwind once more. */
        for (int i = 0; i < n; i++) {
            snprintf(ctx, sizeof ctx, "game %d replay ply %d", g, i);
            ChessStatus s = plies[i].move == NULL_MOVE_MARK
                                ? chess_makeNullMove(&pos, &plies[i].undo)
                                : chess_makeMove(&pos, plies[i].move, &plies[i].undo);
            if (!CHECK_STATUS(s, CHESS_OK, "%s", ctx)) {
                n = i;
                break;
            }
            PosState got = pos_state(&pos);
            CHECK(pos_state_equal(&got, &plies[i].after), "%s: FEN \"%s\", first time \"%s\"",
                  ctx, got.fen, plies[i].after.fen);
        }
        for (int i = n - 1; i >= 0; i--) {
            snprintf(ctx, sizeof ctx, "game %d second unwind ply %d", g, i);
            if (!unmake_and_check(&pos, plies[i].move, &plies[i].undo, &plies[i].before, ctx)) {
                break;
            }
        }
        end = pos_state(&pos);
        CHECK(pos_state_equal(&end, &start), "game %d: after the replay, FEN \"%s\" != \"%s\"", g,
              end.fen, start.fen);
    }
    printf("random games: %d games, %llu moves, %llu null moves, %llu probes, %llu refused "
           "null moves in check\n",
           NGAMES, made, nulls, probes, null_refused);
    CHECK(made > 10000 && nulls > 500 && null_refused > 50, "too few moves exercised");
}

/* Plays UCI moves from `fen`; false (with a failure) if any is refused. */
static bool play(ChessPosition *pos, const char *fen, const char *const *uci, size_t n)
{
    if (!SET_FEN(pos, fen)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        ChessMove m = 0;
        ChessUndo undo;
        if (!CHECK_STATUS(chess_moveFromUci(pos, uci[i], &m), CHESS_OK, "\"%s\" move %s", fen,
                          uci[i]) ||
            !CHECK_STATUS(chess_makeMove(pos, m, &undo), CHESS_OK, "\"%s\" move %s", fen, uci[i])) {
            return false;
        }
    }
    return true;
}

#define PLAY(pos, fen, ...)                                                                    \
    play((pos), (fen), (const char *const[]){__VA_ARGS__},                                     \
         sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

static uint64_t hash_of_fen(const char *fen)
{
    ChessPosition p;
    return SET_FEN(&p, fen) ? chess_hash(&p) : 0;
}

static void transpositions(void)
{
    static ChessPosition a, b, c;
    char fa[CHESS_FEN_MAX], fb[CHESS_FEN_MAX], fc[CHESS_FEN_MAX];

    /* Knights, two orders. */
    if (PLAY(&a, START_FEN, "g1f3", "g8f6", "b1c3", "b8c6") &&
        PLAY(&b, START_FEN, "b1c3", "b8c6", "g1f3", "g8f6")) {
        const char *want = "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3";
        CHECK(strcmp(fen_of(&a, fa), want) == 0 && strcmp(fen_of(&b, fb), want) == 0,
              "knight transposition FENs \"%s\" / \"%s\"", fa, fb);
        CHECK(chess_hash(&a) == chess_hash(&b), "knight transposition: hashes differ");
        CHECK(chess_hash(&a) == hash_of_fen(want), "knight transposition: hash != FEN hash");
        CHECK(chess_pawnHash(&a) == chess_pawnHash(&b) &&
                  chess_materialHash(&a) == chess_materialHash(&b),
              "knight transposition: pawn/material hashes differ");
    }
    /* Single pawn steps (no en passant square), two orders. */
    if (PLAY(&a, START_FEN, "e2e3", "e7e6", "d2d3", "d7d6") &&
        PLAY(&b, START_FEN, "d2d3", "d7d6", "e2e3", "e7e6")) {
        const char *want = "rnbqkbnr/ppp2ppp/3pp3/8/8/3PP3/PPP2PPP/RNBQKBNR w KQkq - 0 3";
        CHECK(strcmp(fen_of(&a, fa), want) == 0 && strcmp(fen_of(&b, fb), want) == 0,
              "pawn transposition FENs \"%s\" / \"%s\"", fa, fb);
        CHECK(chess_hash(&a) == chess_hash(&b) && chess_hash(&a) == hash_of_fen(want),
              "pawn transposition: hashes differ");
        CHECK(chess_pawnHash(&a) == chess_pawnHash(&b), "pawn transposition: pawn hashes differ");
    }
    /* Kiwipete: rook and king moves in three orders. */
    if (PLAY(&a, KIWIPETE_FEN, "a1b1", "a8b8", "e1f1", "e8f8") &&
        PLAY(&b, KIWIPETE_FEN, "e1f1", "e8f8", "a1b1", "a8b8") &&
        PLAY(&c, KIWIPETE_FEN, "a1b1", "e8f8", "e1f1", "a8b8")) {
        const char *want = "1r3k1r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/1R3K1R w - - 4 3";
        fen_of(&a, fa);
        fen_of(&b, fb);
        fen_of(&c, fc);
        CHECK(strcmp(fa, want) == 0 && strcmp(fb, want) == 0 && strcmp(fc, want) == 0,
              "kiwipete transposition FENs \"%s\" / \"%s\" / \"%s\"", fa, fb, fc);
        CHECK(chess_hash(&a) == chess_hash(&b) && chess_hash(&b) == chess_hash(&c) &&
                  chess_hash(&a) == hash_of_fen(want),
              "kiwipete transposition: hashes differ");
    }
    /* Same pieces as the start but castling rights lost: a different hash. */
    if (PLAY(&a, START_FEN, "g1f3", "g8f6", "h1g1", "h8g8", "g1h1", "g8h8", "f3g1", "f6g8")) {
        const char *want = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qq - 8 5";
        CHECK(strcmp(fen_of(&a, fa), want) == 0, "rook shuffle FEN \"%s\"", fa);
        CHECK(chess_hash(&a) != hash_of_fen(START_FEN), "castling rights not in the hash");
        CHECK(chess_hash(&a) == hash_of_fen(want), "rook shuffle hash != FEN hash");
    }
    /* The side to move is in the hash. */
    CHECK(hash_of_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1") !=
              hash_of_fen("4k3/8/8/8/8/8/8/4K2R b - - 0 1"),
          "side to move not in the hash");
    /* En passant: in the hash only when a pawn can capture there. */
    if (PLAY(&a, START_FEN, "e2e4")) {
        CHECK(chess_enPassantSquare(&a) == (int)SQ('e', '3'), "e2e4 sets e3");
        CHECK(chess_hash(&a) ==
                  hash_of_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
              "1.e4: no capture possible, yet the en passant square changed the hash");
    }
    if (PLAY(&a, "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4")) {
        uint64_t without =
            hash_of_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        uint64_t with =
            hash_of_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        CHECK(chess_hash(&a) != without, "d4 pawn can take e3 en passant: must be in the hash");
        CHECK(chess_hash(&a) == with, "hash after e2e4 != hash of the FEN with e3");
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_make_unmake EPD_FILE...\n");
        return 2;
    }
    random_games(argc - 1, argv + 1);
    transpositions();
    return test_summary("test_make_unmake");
}
