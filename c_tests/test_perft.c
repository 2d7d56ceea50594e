/*
 * Perft suite through the C ABI.
 *
 *   test_perft [--mode bulk|full|divide] [--above N] [--upto N] [--shard K/N]
 *              [--lines A-B] EPD_FILE...
 *
 * Selects every count n of the given EPD files with  above < n <= upto  (and, with --lines,
 * only positions on lines A..B of each file), splits the selection into N shards balanced by
 * node count (largest first, each to the least loaded shard; every shard computes the same
 * split) and checks shard K:
 *
 *   bulk    chess_perft(depth) == n
 *   full    chess_perftFull(depth) == n            (make/unmake at every leaf)
 *   divide  chess_perftDivide(depth): total == n == sum of counts == chess_perft(depth),
 *           the moves are exactly chess_generateLegalMoves' list, and every count equals
 *           chess_makeMove + chess_perft(depth - 1) + chess_unmakeMove
 *
 * and, for every count, that the position (FEN and all three hashes) is the same afterwards.
 * Expected counts come only from the EPD files.
 */
#include "common.h"

typedef enum { MODE_BULK, MODE_FULL, MODE_DIVIDE } Mode;

typedef struct {
    const EpdEntry *entry;
    const char *path;
    int depth_index;
    uint64_t nodes;
    int order; /* position in file order, for a deterministic split */
    int shard;
} Job;

static int usage(void)
{
    fprintf(stderr, "usage: test_perft [--mode bulk|full|divide] [--above N] [--upto N] "
                    "[--shard K/N] [--lines A-B] EPD_FILE...\n");
    return 2;
}

static bool parse_u64_arg(const char *s, uint64_t *out)
{
    const char *end;
    return epd_parse_u64(s, &end, out) && *end == '\0';
}

static int cmp_jobs_by_nodes_desc(const void *a, const void *b)
{
    const Job *x = a, *y = b;
    if (x->nodes != y->nodes) {
        return x->nodes > y->nodes ? -1 : 1;
    }
    return x->order - y->order;
}

static int cmp_jobs_by_order(const void *a, const void *b)
{
    const Job *x = a, *y = b;
    return x->order - y->order;
}

static void check_divide(ChessPosition *pos, const Job *job, uint32_t depth, uint64_t want)
{
    const char *fen = job->entry->fen;
    ChessMoveList moves, legal;
    uint64_t counts[256];
    uint64_t total = 0;
    memset(&moves, 0xAB, sizeof moves);
    if (!CHECK_STATUS(chess_perftDivide(pos, depth, &moves, counts, 256, &total), CHESS_OK,
                      "%s:%d depth %u", job->path, job->entry->line, depth)) {
        return;
    }
    CHECK(total == want, "%s:%d \"%s\" perftDivide depth %u total %" PRIu64 ", expected %" PRIu64,
          job->path, job->entry->line, fen, depth, total, want);
    if (!CHECK(moves.count <= 256, "divide move count %u out of range", moves.count)) {
        return;
    }
    uint64_t sum = 0;
    for (uint32_t i = 0; i < moves.count; i++) {
        sum += counts[i];
    }
    CHECK(sum == total, "\"%s\" depth %u: sum of divide counts %" PRIu64 " != total %" PRIu64,
          fen, depth, sum, total);

    uint64_t bulk = 0;
    CHECK_STATUS(chess_perft(pos, depth, &bulk), CHESS_OK, "\"%s\" depth %u", fen, depth);
    CHECK(bulk == total, "\"%s\" depth %u: chess_perft %" PRIu64 " != divide total %" PRIu64, fen,
          depth, bulk, total);

    CHECK_STATUS(chess_generateLegalMoves(pos, &legal), CHESS_OK, "\"%s\"", fen);
    CHECK(legal.count == moves.count, "\"%s\": divide lists %u moves, legal generator %u", fen,
          moves.count, legal.count);
    for (uint32_t i = 0; i < moves.count; i++) {
        char mt[32];
        ChessMove m = moves.moves[i];
        CHECK(movelist_contains(&legal, m), "\"%s\": divide move %s is not legal", fen,
              move_text(m, mt));
        for (uint32_t j = 0; j < i; j++) {
            CHECK(moves.moves[j] != m, "\"%s\": divide lists %s twice", fen, move_text(m, mt));
        }
        ChessUndo undo;
        if (!CHECK_STATUS(chess_makeMove(pos, m, &undo), CHESS_OK, "\"%s\" move %s", fen,
                          move_text(m, mt))) {
            continue;
        }
        uint64_t sub = 0;
        CHECK_STATUS(chess_perft(pos, depth - 1, &sub), CHESS_OK, "\"%s\" after %s", fen,
                     move_text(m, mt));
        CHECK(sub == counts[i],
              "\"%s\" depth %u move %s: divide count %" PRIu64 ", make + perft(%u) %" PRIu64,
              fen, depth, move_text(m, mt), counts[i], depth - 1, sub);
        CHECK_STATUS(chess_unmakeMove(pos, m, &undo), CHESS_OK, "\"%s\" unmake %s", fen,
                     move_text(m, mt));
    }
}

int main(int argc, char **argv)
{
    Mode mode = MODE_BULK;
    uint64_t above = 0, upto = UINT64_MAX;
    bool have_above = false;
    uint64_t shard = 0, nshards = 1;
    uint64_t first_line = 0, last_line = UINT64_MAX;
    const char *files[16];
    int nfiles = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--mode") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "bulk") == 0) {
                mode = MODE_BULK;
            } else if (strcmp(m, "full") == 0) {
                mode = MODE_FULL;
            } else if (strcmp(m, "divide") == 0) {
                mode = MODE_DIVIDE;
            } else {
                return usage();
            }
        } else if (strcmp(a, "--above") == 0 && i + 1 < argc) {
            if (!parse_u64_arg(argv[++i], &above)) {
                return usage();
            }
            have_above = true;
        } else if (strcmp(a, "--upto") == 0 && i + 1 < argc) {
            if (!parse_u64_arg(argv[++i], &upto)) {
                return usage();
            }
        } else if (strcmp(a, "--shard") == 0 && i + 1 < argc) {
            const char *s = argv[++i], *end;
            if (!epd_parse_u64(s, &end, &shard) || *end != '/' ||
                !parse_u64_arg(end + 1, &nshards) || nshards == 0 || nshards > 64 ||
                shard >= nshards) {
                return usage();
            }
        } else if (strcmp(a, "--lines") == 0 && i + 1 < argc) {
            const char *s = argv[++i], *end;
            if (!epd_parse_u64(s, &end, &first_line) || *end != '-' ||
                !parse_u64_arg(end + 1, &last_line) || first_line > last_line) {
                return usage();
            }
        } else if (a[0] == '-') {
            return usage();
        } else if (nfiles < 16) {
            files[nfiles++] = a;
        } else {
            return usage();
        }
    }
    if (nfiles == 0) {
        return usage();
    }

    EpdFile suites[16];
    int njobs = 0, cap = 0;
    Job *jobs = NULL;
    for (int f = 0; f < nfiles; f++) {
        suites[f] = epd_load(files[f]);
        for (int e = 0; e < suites[f].count; e++) {
            const EpdEntry *entry = &suites[f].entries[e];
            if ((uint64_t)entry->line < first_line || (uint64_t)entry->line > last_line) {
                continue;
            }
            for (int d = 0; d < entry->ndepths; d++) {
                uint64_t n = entry->count[d];
                if ((have_above && n <= above) || n > upto) {
                    continue;
                }
                if (njobs == cap) {
                    cap = cap ? 2 * cap : 256;
                    Job *grown = realloc(jobs, (size_t)cap * sizeof *grown);
                    if (grown == NULL) {
                        fprintf(stderr, "out of memory\n");
                        return 2;
                    }
                    jobs = grown;
                }
                Job *j = &jobs[njobs];
                j->entry = entry;
                j->path = files[f];
                j->depth_index = d;
                j->nodes = n;
                j->order = njobs;
                j->shard = -1;
                njobs++;
            }
        }
    }

    /* Balanced split: largest job first, each to the least loaded shard. */
    uint64_t load[64] = {0};
    if (njobs > 0) {
        qsort(jobs, (size_t)njobs, sizeof *jobs, cmp_jobs_by_nodes_desc);
        for (int i = 0; i < njobs; i++) {
            uint64_t best = 0;
            for (uint64_t s = 1; s < nshards; s++) {
                if (load[s] < load[best]) {
                    best = s;
                }
            }
            jobs[i].shard = (int)best;
            /* Small jobs still cost a setup and two FEN round trips. */
            load[best] += jobs[i].nodes + 1000;
        }
        qsort(jobs, (size_t)njobs, sizeof *jobs, cmp_jobs_by_order);
    }

    static const char *const mode_names[] = {"bulk", "full", "divide"};
    uint64_t checked = 0, nodes_total = 0;
    double t0 = now_seconds();
    ChessPosition *pos = malloc(sizeof *pos);
    if (pos == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (int i = 0; i < njobs; i++) {
        const Job *job = &jobs[i];
        if ((uint64_t)job->shard != shard) {
            continue;
        }
        const EpdEntry *e = job->entry;
        uint32_t depth = e->depth[job->depth_index];
        uint64_t want = e->count[job->depth_index];
        if (!SET_FEN(pos, e->fen)) {
            continue;
        }
        PosState before = pos_state(pos);
        double t = now_seconds();
        if (mode == MODE_DIVIDE) {
            check_divide(pos, job, depth, want);
        } else {
            uint64_t got = 0;
            ChessStatus s = mode == MODE_BULK ? chess_perft(pos, depth, &got)
                                              : chess_perftFull(pos, depth, &got);
            if (CHECK_STATUS(s, CHESS_OK, "%s:%d depth %u", job->path, e->line, depth)) {
                CHECK(got == want,
                      "%s:%d \"%s\" %s perft depth %u: got %" PRIu64 ", expected %" PRIu64,
                      job->path, e->line, e->fen, mode_names[mode], depth, got, want);
            }
        }
        double dt = now_seconds() - t;
        if (want >= 50000000u) {
            printf("  %s:%d depth %u: %" PRIu64 " nodes in %.2f s\n", job->path, e->line, depth,
                   want, dt);
        }
        PosState after = pos_state(pos);
        CHECK(pos_state_equal(&before, &after),
              "%s:%d: position changed by %s perft depth %u: FEN \"%s\" -> \"%s\", hash "
              "%016" PRIx64 " -> %016" PRIx64,
              job->path, e->line, mode_names[mode], depth, before.fen, after.fen, before.hash,
              after.hash);
        CHECK(strcmp(before.fen, e->fen) == 0, "%s:%d: FEN round trip gave \"%s\"", job->path,
              e->line, before.fen);
        checked++;
        nodes_total += want;
    }
    double elapsed = now_seconds() - t0;

    CHECK(checked > 0, "no perft counts selected (shard %" PRIu64 "/%" PRIu64 ")", shard,
          nshards);
    printf("%s perft: %" PRIu64 " counts, %" PRIu64 " nodes, %.2f s (%.0f Mnodes/s)\n",
           mode_names[mode], checked, nodes_total, elapsed,
           elapsed > 0 ? (double)nodes_total / elapsed / 1e6 : 0.0);
    free(pos);
    free(jobs);
    for (int f = 0; f < nfiles; f++) {
        epd_free(&suites[f]);
    }
    return test_summary("test_perft");
}
