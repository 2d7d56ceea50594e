/*
 * Concurrency: several pthreads, each with its own ChessPosition (some memcpy'd from one
 * position set up in the main thread, others set from their own FEN inside the thread), run
 * perft (bulk and full) and make/unmake concurrently. Every count must be the known one and
 * every position unchanged afterwards. The library keeps no global mutable state.
 */
#include "common.h"

#include <pthread.h>

typedef struct {
    uint32_t depth;
    uint64_t nodes;
} Count;

typedef struct {
    const char *name;
    const char *fen;    /* set inside the thread; NULL: use the memcpy'd shared position */
    Count counts[4];    /* known perft counts (chess literature / the suites) */
    int ncounts;
    bool full;          /* also chess_perftFull for counts up to 1M */
    int rounds;
    /* results */
    ChessPosition *pos; /* the thread's own position */
    unsigned long long wrong;
    unsigned long long done;
    char message[256];
} Job;

static ChessPosition shared; /* set up once; threads memcpy it before starting */

static void *worker(void *arg)
{
    Job *job = arg;
    job->pos = malloc(sizeof *job->pos);
    if (job->pos == NULL) {
        snprintf(job->message, sizeof job->message, "out of memory");
        job->wrong++;
        return NULL;
    }
    if (job->fen == NULL) {
        memcpy(job->pos, &shared, sizeof shared);
    } else if (chess_setFromFEN(job->pos, job->fen) != CHESS_OK) {
        snprintf(job->message, sizeof job->message, "setFromFEN failed");
        job->wrong++;
        return NULL;
    }
    char fen_before[CHESS_FEN_MAX], fen_after[CHESS_FEN_MAX];
    fen_of(job->pos, fen_before);
    uint64_t hash_before = chess_hash(job->pos);
    for (int r = 0; r < job->rounds; r++) {
        for (int i = 0; i < job->ncounts; i++) {
            const Count *c = &job->counts[i];
            uint64_t n = 0;
            ChessStatus s = chess_perft(job->pos, c->depth, &n);
            job->done++;
            if (s != CHESS_OK || n != c->nodes) {
                if (job->wrong++ == 0) {
                    snprintf(job->message, sizeof job->message,
                             "perft depth %u: status %d, %" PRIu64 " nodes, expected %" PRIu64,
                             c->depth, (int)s, n, c->nodes);
                }
            }
            if (job->full && c->nodes <= 1000000) {
                n = 0;
                s = chess_perftFull(job->pos, c->depth, &n);
                job->done++;
                if ((s != CHESS_OK || n != c->nodes) && job->wrong++ == 0) {
                    snprintf(job->message, sizeof job->message,
                             "perftFull depth %u: status %d, %" PRIu64 " nodes, expected %" PRIu64,
                             c->depth, (int)s, n, c->nodes);
                }
            }
        }
        /* Make/unmake every legal move, and the divide, between perfts. */
        ChessMoveList list;
        if (chess_generateLegalMoves(job->pos, &list) == CHESS_OK) {
            for (uint32_t i = 0; i < list.count; i++) {
                ChessUndo undo;
                if (chess_makeMove(job->pos, list.moves[i], &undo) != CHESS_OK ||
                    chess_unmakeMove(job->pos, list.moves[i], &undo) != CHESS_OK) {
                    if (job->wrong++ == 0) {
                        snprintf(job->message, sizeof job->message, "make/unmake failed");
                    }
                }
            }
        }
    }
    fen_of(job->pos, fen_after);
    if ((strcmp(fen_before, fen_after) != 0 || chess_hash(job->pos) != hash_before) &&
        job->wrong++ == 0) {
        snprintf(job->message, sizeof job->message, "position changed: \"%s\" -> \"%s\"",
                 fen_before, fen_after);
    }
    return NULL;
}

int main(void)
{
    if (!SET_FEN(&shared, KIWIPETE_FEN)) {
        return test_summary("test_threads");
    }
    char shared_fen_before[CHESS_FEN_MAX];
    fen_of(&shared, shared_fen_before);

    /* Counts: kiwipete and the start position are the classic perft results; the others are
     * lines of testdata/standard.epd and testdata/edge.epd. */
    Job jobs[] = {
        {"kiwipete copy 1", NULL, {{1, 48}, {2, 2039}, {3, 97862}, {4, 4085603}}, 4, true, 3,
         NULL, 0, 0, ""},
        {"kiwipete copy 2", NULL, {{4, 4085603}, {3, 97862}, {2, 2039}, {1, 48}}, 4, false, 3,
         NULL, 0, 0, ""},
        {"kiwipete copy 3", NULL, {{3, 97862}, {4, 4085603}}, 2, true, 3, NULL, 0, 0, ""},
        {"start position", START_FEN, {{1, 20}, {3, 8902}, {4, 197281}, {5, 4865609}}, 4, true, 2,
         NULL, 0, 0, ""},
        {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
         {{3, 2812}, {4, 43238}, {5, 674624}}, 3, true, 3, NULL, 0, 0, ""},
        {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
         {{2, 264}, {3, 9467}, {4, 422333}}, 3, true, 3, NULL, 0, 0, ""},
        {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
         {{1, 44}, {2, 1486}, {3, 62379}, {4, 2103487}}, 4, false, 3, NULL, 0, 0, ""},
        {"en passant", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", {{4, 13931}, {5, 206379},
         {6, 1440467}}, 3, true, 2, NULL, 0, 0, ""},
    };
    enum { NJOBS = sizeof jobs / sizeof jobs[0] };
    pthread_t threads[NJOBS];
    bool started[NJOBS];
    double t0 = now_seconds();
    for (int i = 0; i < NJOBS; i++) {
        started[i] = pthread_create(&threads[i], NULL, worker, &jobs[i]) == 0;
        CHECK(started[i], "pthread_create for %s failed", jobs[i].name);
    }
    for (int i = 0; i < NJOBS; i++) {
        if (started[i]) {
            CHECK(pthread_join(threads[i], NULL) == 0, "pthread_join for %s", jobs[i].name);
        }
    }
    for (int i = 0; i < NJOBS; i++) {
        if (!started[i]) {
            continue;
        }
        CHECK(jobs[i].wrong == 0, "thread \"%s\": %llu wrong results; first: %s", jobs[i].name,
              jobs[i].wrong, jobs[i].message);
        CHECK(jobs[i].done > 0, "thread \"%s\" did nothing", jobs[i].name);
        free(jobs[i].pos);
    }
    char shared_fen_after[CHESS_FEN_MAX];
    CHECK(strcmp(fen_of(&shared, shared_fen_after), shared_fen_before) == 0,
          "the shared source position changed");
    printf("%d threads finished in %.2f s\n", NJOBS, now_seconds() - t0);
    return test_summary("test_threads");
}
