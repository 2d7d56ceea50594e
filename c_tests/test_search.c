/*
 * The engine through the C ABI: chess_search from the start position (a legal move, a PV that
 * plays), mates in one for and against the side to move with the exact scores, checkmated and
 * stalemated roots (bestMove 0 and the documented scores), the info callback (increasing
 * depths, MultiPV lines, legal lines), search moves, chess_engineStop from a second pthread
 * ending an infinite search (returning at once and seen within 1024 nodes: checked by the order
 * of events and in nodes, which a loaded machine cannot upset), from the callback, and ignored
 * when no search runs; CHESS_ERR_ENGINE_BUSY for every call made on a searching engine (from
 * another thread and from the callback); chess_engineFree stopping a running search; every
 * bad argument (each NULL, malformed limits, unknown options, bad values) with nothing
 * written; the caller's position never modified; two engines searching side by side; the
 * options Hash, Threads, Clear Hash, MultiPV; a game of 1000 plies of history.
 */
#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <pthread.h>
#include <stdatomic.h>

/* How long a search may take to return after chess_engineStop (or chess_engineFree) before
 * the test calls it stuck: 100 times the 50 ms the issue asks for, so that no scheduling delay
 * of a loaded CI machine (two shared cores) or a sanitizer build reaches it; an ignored stop
 * never returns at all. How soon a stop is seen is checked in nodes (stop_and_busy). */
#define HANG_BOUND_SECONDS 5.0

#define MATE_IN_1_FEN "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1"     /* Ra8# */
#define MATED_IN_1_FEN "7k/8/6K1/8/8/8/8/R7 b - - 0 1"       /* 1... Kg8 2. Ra8# */
#define FOOLS_MATE_FEN "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
#define STALEMATE_FEN "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static bool all_bytes(const void *p, size_t n, unsigned char b)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        if (c[i] != b) {
            return false;
        }
    }
    return true;
}

/* Whether the first `n` moves of `pv` can be made one after another from `root`. */
static bool line_plays(const ChessPosition *root, const ChessMove *pv, uint32_t n)
{
    static _Thread_local ChessPosition copy;
    memcpy(&copy, root, sizeof copy);
    for (uint32_t i = 0; i < n; i++) {
        ChessUndo undo;
        if (chess_makeMove(&copy, pv[i], &undo) != CHESS_OK) {
            return false;
        }
    }
    return true;
}

static bool is_legal(const ChessPosition *pos, ChessMove m)
{
    ChessMoveList list;
    return chess_generateLegalMoves(pos, &list) == CHESS_OK && movelist_contains(&list, m);
}

/* Checks everything a successful result promises, for a position with legal moves. */
static void check_result(const ChessPosition *pos, const ChessSearchResult *r, const char *what)
{
    char buf[32];
    CHECK(r->size == sizeof *r, "%s: result size %u", what, r->size);
    CHECK(is_legal(pos, r->bestMove), "%s: bestMove %s is not legal", what,
          move_text(r->bestMove, buf));
    CHECK(r->pvLength >= 1 && r->pvLength <= CHESS_MAX_PV, "%s: pvLength %u", what, r->pvLength);
    CHECK(r->pv[0] == r->bestMove, "%s: pv[0] != bestMove", what);
    CHECK(line_plays(pos, r->pv, r->pvLength), "%s: the PV does not play", what);
    CHECK(r->ponderMove == (r->pvLength >= 2 ? r->pv[1] : 0), "%s: ponderMove 0x%04x", what,
          (unsigned)r->ponderMove);
    bool tail_zero = true;
    for (uint32_t i = r->pvLength; i < CHESS_MAX_PV; i++) {
        tail_zero = tail_zero && r->pv[i] == 0;
    }
    CHECK(tail_zero, "%s: pv past pvLength not zero", what);
    CHECK(all_bytes(r->reserved, sizeof r->reserved, 0), "%s: reserved not zero", what);
    CHECK(r->nodes > 0, "%s: no nodes", what);
}

/* ---- Info callback ---------------------------------------------------------------------- */

typedef struct {
    ChessEngine *engine;
    const ChessPosition *root; /* the searched position, for PV checks */
    int calls;
    uint32_t last_depth;
    uint32_t last_multipv;
    int bad_size, bad_order, bad_pv, bad_multipv;
    uint32_t max_multipv;
    uint32_t stop_at_depth;      /* chess_engineStop from the callback at this depth (0: no) */
    bool try_calls;              /* make calls on the searching engine from the callback */
    ChessStatus busy[4];         /* their statuses */
    bool free_in_callback;       /* chess_engineFree from the callback (frees nothing) */
    atomic_int started;          /* set at the first call */
    /* Not 0: the first exact report at this depth or deeper waits in the callback (the engine
     * claimed), with `holding` set, until `released` is set (60 s at most), then lingers there
     * `linger_seconds` more. */
    uint32_t hold_at_depth;
    double linger_seconds;
    atomic_int holding;
    atomic_int released;
    bool held;
    uint64_t held_nodes; /* that report's nodes */
    int hold_timeouts;   /* holds that ended without the release */
    double last_return;  /* when the last call returned (monotonic seconds) */
} InfoLog;

static void on_info(const ChessSearchInfo *info, void *user)
{
    InfoLog *log = user;
    log->calls++;
    if (info->size != sizeof *info) {
        log->bad_size++;
    }
    /* Exact reports: depth rises by line 1; MultiPV lines 1..k of one depth follow it. */
    if (info->bound == CHESS_BOUND_EXACT) {
        if (info->multipv == 1) {
            if (info->depth <= log->last_depth) {
                log->bad_order++;
            }
            log->last_depth = info->depth;
        } else if (info->depth != log->last_depth || info->multipv != log->last_multipv + 1) {
            log->bad_multipv++;
        }
        log->last_multipv = info->multipv;
    }
    if (info->multipv > log->max_multipv) {
        log->max_multipv = info->multipv;
    }
    if (info->pvLength == 0 || info->pvLength > CHESS_MAX_PV ||
        (log->root != NULL && !line_plays(log->root, info->pv, info->pvLength))) {
        log->bad_pv++;
    }
    if (log->try_calls && log->calls == 1) {
        ChessSearchLimits limits;
        ChessSearchResult result;
        int32_t cp;
        chess_searchLimitsInit(&limits);
        limits.depth = 1;
        log->busy[0] = chess_search(log->engine, log->root, &limits, &result);
        log->busy[1] = chess_engineNewGame(log->engine);
        log->busy[2] = chess_engineSetOption(log->engine, "Hash", "1");
        log->busy[3] = chess_evaluate(log->engine, log->root, &cp);
    }
    if (log->free_in_callback && log->calls == 1) {
        chess_engineFree(log->engine); /* stops the search, frees nothing */
    }
    if (log->stop_at_depth != 0 && info->depth >= log->stop_at_depth) {
        chess_engineStop(log->engine);
    }
    atomic_store(&log->started, 1);
    if (log->hold_at_depth != 0 && !log->held && info->bound == CHESS_BOUND_EXACT &&
        info->depth >= log->hold_at_depth) {
        log->held = true;
        log->held_nodes = info->nodes;
        atomic_store(&log->holding, 1);
        double t0 = monotonic_seconds();
        while (atomic_load(&log->released) == 0) {
            if (monotonic_seconds() - t0 > 60.0) {
                log->hold_timeouts++;
                break;
            }
            sleep_ms(1);
        }
        if (log->linger_seconds > 0) {
            sleep_ms((long)(log->linger_seconds * 1e3));
        }
        atomic_store(&log->holding, 0);
    }
    log->last_return = monotonic_seconds();
}

static void check_log(const InfoLog *log, const char *what)
{
    CHECK(log->calls > 0, "%s: the callback was never called", what);
    CHECK(log->bad_size == 0, "%s: %d infos with a wrong size", what, log->bad_size);
    CHECK(log->bad_order == 0, "%s: %d infos out of depth order", what, log->bad_order);
    CHECK(log->bad_multipv == 0, "%s: %d MultiPV lines out of order", what, log->bad_multipv);
    CHECK(log->bad_pv == 0, "%s: %d infos with a PV that does not play", what, log->bad_pv);
}

static InfoLog new_log(ChessEngine *engine, const ChessPosition *root)
{
    InfoLog log;
    memset(&log, 0, sizeof log);
    log.engine = engine;
    log.root = root;
    atomic_init(&log.started, 0);
    atomic_init(&log.holding, 0);
    atomic_init(&log.released, 0);
    return log;
}

/* The engine's own clock at its completed iterations: the last, and the latest before it. */
typedef struct {
    int calls;
    uint64_t last_time_ms;
    uint64_t earlier_time_ms;
} ClockLog;

static void on_clock_info(const ChessSearchInfo *info, void *user)
{
    ClockLog *log = user;
    if (log->calls++ > 0) {
        log->earlier_time_ms = log->last_time_ms;
    }
    log->last_time_ms = info->timeMs;
}

/* ---- Limits ----------------------------------------------------------------------------- */

static void limits_init(void)
{
    ChessSearchLimits l;
    memset(&l, 0xA5, sizeof l);
    chess_searchLimitsInit(&l);
    CHECK(l.size == sizeof l, "size %u, sizeof %zu", l.size, sizeof l);
    CHECK(l.depth == 0 && l.nodes == 0 && l.movestogo == 0 && l.mate == 0, "zero limits");
    CHECK(l.movetimeMs == -1 && l.wtimeMs == -1 && l.btimeMs == -1 && l.wincMs == -1 &&
              l.bincMs == -1,
          "times not -1");
    CHECK(!l.infinite && !l.ponder, "infinite/ponder set");
    CHECK(l.searchMoves == NULL && l.searchMovesCount == 0, "search moves set");
    CHECK(l.onInfo == NULL && l.userData == NULL, "callback set");
    CHECK(all_bytes(l.reserved, sizeof l.reserved, 0), "reserved not zero");
    /* No byte is left from the fill: the struct has no padding. */
    ChessSearchLimits again;
    memset(&again, 0x5A, sizeof again);
    chess_searchLimitsInit(&again);
    CHECK(memcmp(&l, &again, sizeof l) == 0, "chess_searchLimitsInit left bytes of the fill");
    chess_searchLimitsInit(NULL); /* ignored */
}

/* ---- Searches --------------------------------------------------------------------------- */

static void search_start_position(ChessEngine *e)
{
    ChessPosition pos, saved;
    ChessSearchLimits limits;
    ChessSearchResult r;
    SET_FEN(&pos, START_FEN);
    memcpy(&saved, &pos, sizeof pos);
    InfoLog log = new_log(e, &pos);
    chess_searchLimitsInit(&limits);
    limits.depth = 6;
    limits.onInfo = on_info;
    limits.userData = &log;
    memset(&r, 0xEE, sizeof r);
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "startpos depth 6");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "chess_search modified the position");
    check_result(&pos, &r, "startpos depth 6");
    CHECK(r.depth == 6, "depth %u", r.depth);
    CHECK(r.mateIn == 0 && r.scoreCp > -200 && r.scoreCp < 200, "startpos score %d, mate %d",
          r.scoreCp, r.mateIn);
    check_log(&log, "startpos depth 6");
    CHECK(log.last_depth == 6 && log.calls == 6, "infos: %d calls, last depth %u", log.calls,
          log.last_depth);

    /* The same position again, on the same engine (the hash now warm): still legal. */
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "startpos again");
    check_result(&pos, &r, "startpos again");

    /* Node limit. */
    chess_searchLimitsInit(&limits);
    limits.nodes = 20000;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "nodes 20000");
    check_result(&pos, &r, "nodes 20000");
    CHECK(r.nodes < 40000, "node limit 20000: %" PRIu64 " nodes", r.nodes);

    /* Move time: the search ends by itself (no stop), having used at least half of its time by
     * its own clock (a loaded machine only makes a search late, never early); the upper bound
     * only catches a search that ignores the limit, as load stretches the wall clock. */
    chess_searchLimitsInit(&limits);
    limits.movetimeMs = 100;
    double t0 = monotonic_seconds();
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "movetime 100");
    double took = monotonic_seconds() - t0;
    check_result(&pos, &r, "movetime 100");
    CHECK(r.timeMs >= 50, "movetime 100 stopped after %" PRIu64 " ms", r.timeMs);
    CHECK(took < 0.1 + HANG_BOUND_SECONDS, "movetime 100 took %.3f s", took);

    /* Clocks: 1 s + 10 ms for White: a soft budget of 47 ms and a hard one of 235 (docs/engine.md:
     * 1000/25 + 10 * 3/4, five times that). Checked on the engine's own clock, the timeMs of its
     * info reports, not on the wall clock around the call (which only catches a hang): it starts
     * no iteration once past the soft budget (stretched at most 1.6 times by an unstable best
     * move), so every report but the last comes before twice the soft budget, whatever the
     * load; and its last completed iteration ends before White's second is over, which leaves
     * a loaded machine's scheduling 765 ms between two of the engine's clock checks. */
    chess_searchLimitsInit(&limits);
    limits.wtimeMs = 1000;
    limits.btimeMs = 1000;
    limits.wincMs = 10;
    limits.bincMs = 10;
    ClockLog clock_log = {0, 0, 0};
    limits.onInfo = on_clock_info;
    limits.userData = &clock_log;
    t0 = monotonic_seconds();
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "clock 1s+10ms");
    took = monotonic_seconds() - t0;
    check_result(&pos, &r, "clock 1s+10ms");
    CHECK(clock_log.calls > 0, "clock 1s+10ms: no info");
    CHECK(clock_log.earlier_time_ms < 2 * 47,
          "a move at 1s+10ms started an iteration after %" PRIu64 " ms", clock_log.earlier_time_ms);
    CHECK(clock_log.last_time_ms < 1000,
          "a move at 1s+10ms completed an iteration at %" PRIu64 " ms", clock_log.last_time_ms);
    CHECK(took < HANG_BOUND_SECONDS, "a move at 1s+10ms took %.3f s", took);

    /* Search moves: the root restricted to a2a3, then to a2a3 and h2h3. */
    ChessMove a2a3 = MAKE_MOVE(SQ('a', '2'), SQ('a', '3'), 0);
    ChessMove moves[2] = {a2a3, MAKE_MOVE(SQ('h', '2'), SQ('h', '3'), 0)};
    chess_searchLimitsInit(&limits);
    limits.depth = 4;
    limits.searchMoves = moves;
    limits.searchMovesCount = 1;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "searchmoves a2a3");
    CHECK(r.bestMove == a2a3, "searchmoves a2a3: bestMove 0x%04x", (unsigned)r.bestMove);
    limits.searchMovesCount = 2;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "searchmoves a2a3 h2h3");
    CHECK(r.bestMove == moves[0] || r.bestMove == moves[1],
          "searchmoves a2a3 h2h3: bestMove 0x%04x", (unsigned)r.bestMove);
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "chess_search modified the position");
}

static void search_mates(ChessEngine *e)
{
    ChessPosition pos, saved;
    ChessSearchLimits limits;
    ChessSearchResult r;
    char buf[32];

    /* Mate in 1 for the side to move: Ra8#. */
    SET_FEN(&pos, MATE_IN_1_FEN);
    memcpy(&saved, &pos, sizeof pos);
    chess_searchLimitsInit(&limits);
    limits.depth = 5;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "mate in 1");
    check_result(&pos, &r, "mate in 1");
    ChessMove ra8 = MAKE_MOVE(SQ('a', '1'), SQ('a', '8'), 0);
    CHECK(r.bestMove == ra8, "mate in 1: bestMove %s", move_text(r.bestMove, buf));
    CHECK(r.mateIn == 1, "mate in 1: mateIn %d", r.mateIn);
    CHECK(r.scoreCp == CHESS_MATE_SCORE - 1, "mate in 1: scoreCp %d", r.scoreCp);
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "mate in 1: position modified");

    /* The `mate` limit alone ends the search once the mate is found. */
    chess_searchLimitsInit(&limits);
    limits.mate = 1;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "go mate 1");
    CHECK(r.bestMove == ra8 && r.mateIn == 1, "go mate 1: bestMove %s, mateIn %d",
          move_text(r.bestMove, buf), r.mateIn);

    /* Mated in 1: the only move, then Ra8#. */
    SET_FEN(&pos, MATED_IN_1_FEN);
    chess_searchLimitsInit(&limits);
    limits.depth = 5;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "mated in 1");
    check_result(&pos, &r, "mated in 1");
    CHECK(r.bestMove == MAKE_MOVE(SQ('h', '8'), SQ('g', '8'), 0), "mated in 1: bestMove %s",
          move_text(r.bestMove, buf));
    CHECK(r.mateIn == -1, "mated in 1: mateIn %d", r.mateIn);
    CHECK(r.scoreCp == -(CHESS_MATE_SCORE - 2), "mated in 1: scoreCp %d", r.scoreCp);

    /* Roots without a legal move: at once, bestMove 0, and the documented scores. */
    static const struct {
        const char *fen;
        int32_t score;
    } ends[] = {{FOOLS_MATE_FEN, -CHESS_MATE_SCORE}, {STALEMATE_FEN, 0}};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        SET_FEN(&pos, ends[i].fen);
        memcpy(&saved, &pos, sizeof pos);
        InfoLog log = new_log(e, &pos);
        chess_searchLimitsInit(&limits);
        limits.onInfo = on_info; /* no depth limit: the root has nothing to search */
        limits.userData = &log;
        memset(&r, 0xEE, sizeof r);
        CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "%s", ends[i].fen);
        CHECK(r.size == sizeof r && r.bestMove == 0 && r.ponderMove == 0 && r.pvLength == 0 &&
                  r.mateIn == 0 && r.scoreCp == ends[i].score && r.depth == 0,
              "%s: bestMove 0x%04x, scoreCp %d, mateIn %d, pvLength %u, depth %u", ends[i].fen,
              (unsigned)r.bestMove, r.scoreCp, r.mateIn, r.pvLength, r.depth);
        CHECK(all_bytes(r.pv, sizeof r.pv, 0) && all_bytes(r.reserved, sizeof r.reserved, 0),
              "%s: pv or reserved not zero", ends[i].fen);
        CHECK(log.calls == 0, "%s: %d infos", ends[i].fen, log.calls);
        CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "%s: position modified", ends[i].fen);
    }
}

/* MultiPV 3: three lines per depth, in order; then back to 1. */
static void search_multipv(ChessEngine *e)
{
    ChessPosition pos;
    ChessSearchLimits limits;
    ChessSearchResult r;
    SET_FEN(&pos, KIWIPETE_FEN);
    CHECK_STATUS(chess_engineSetOption(e, "MultiPV", "3"), CHESS_OK, "MultiPV 3");
    InfoLog log = new_log(e, &pos);
    chess_searchLimitsInit(&limits);
    limits.depth = 4;
    limits.onInfo = on_info;
    limits.userData = &log;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "MultiPV 3 search");
    check_result(&pos, &r, "MultiPV 3");
    check_log(&log, "MultiPV 3");
    CHECK(log.max_multipv == 3 && log.calls == 12, "MultiPV 3: %d infos, max multipv %u",
          log.calls, log.max_multipv);
    CHECK_STATUS(chess_engineSetOption(e, "MultiPV", "1"), CHESS_OK, "MultiPV 1");
}

/* ---- Stop, busy, free ------------------------------------------------------------------- */

typedef struct {
    ChessEngine *engine;
    ChessPosition pos;
    ChessSearchLimits limits;
    ChessSearchResult result;
    ChessStatus status;
    InfoLog log;
    double returned_at;
} SearchJob;

static void *search_thread(void *arg)
{
    SearchJob *job = arg;
    job->status = chess_search(job->engine, &job->pos, &job->limits, &job->result);
    job->returned_at = monotonic_seconds();
    return NULL;
}

/* Starts an infinite search from the start position on its own thread and returns once it
 * waits in its callback after depth `hold_at`, until `log.released` is set (then it lingers
 * there `linger_seconds` more). Waiting for the search itself, not sleeping: a stop or free
 * sent before chess_search has claimed the engine would find no search to stop. */
static bool start_infinite(SearchJob *job, ChessEngine *e, pthread_t *thread, uint32_t hold_at,
                           double linger_seconds)
{
    memset(job, 0, sizeof *job);
    job->engine = e;
    SET_FEN(&job->pos, START_FEN);
    job->log = new_log(e, &job->pos);
    job->log.hold_at_depth = hold_at;
    job->log.linger_seconds = linger_seconds;
    chess_searchLimitsInit(&job->limits);
    job->limits.infinite = true;
    job->limits.onInfo = on_info;
    job->limits.userData = &job->log;
    if (!CHECK(pthread_create(thread, NULL, search_thread, job) == 0, "pthread_create")) {
        return false;
    }
    for (int i = 0; i < 60000 && atomic_load(&job->log.holding) == 0; i++) {
        sleep_ms(1);
    }
    CHECK(atomic_load(&job->log.holding) != 0, "the search never reported depth %u", hold_at);
    return true;
}

static void stop_and_busy(ChessEngine *e)
{
    /* The search waits in its callback after depth 6 (the engine claimed) until released. */
    SearchJob job;
    pthread_t thread;
    if (!start_infinite(&job, e, &thread, 6, 0.0)) {
        return;
    }

    /* Every call on the searching engine: busy, nothing written, the search goes on. */
    ChessPosition pos, saved;
    ChessSearchLimits limits;
    ChessSearchResult r;
    int32_t cp = 12345;
    SET_FEN(&pos, START_FEN);
    memcpy(&saved, &pos, sizeof pos);
    chess_searchLimitsInit(&limits);
    limits.depth = 1;
    memset(&r, 0xEE, sizeof r);
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_ERR_ENGINE_BUSY, "second search");
    CHECK(all_bytes(&r, sizeof r, 0xEE), "a busy search wrote its result");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "a busy search modified the position");
    CHECK_STATUS(chess_engineSetOption(e, "Hash", "1"), CHESS_ERR_ENGINE_BUSY, "setoption");
    CHECK_STATUS(chess_engineSetOption(e, "Clear Hash", ""), CHESS_ERR_ENGINE_BUSY, "clear");
    CHECK_STATUS(chess_engineNewGame(e), CHESS_ERR_ENGINE_BUSY, "newgame");
    CHECK_STATUS(chess_evaluate(e, &pos, &cp), CHESS_ERR_ENGINE_BUSY, "evaluate");
    CHECK(cp == 12345, "a busy evaluate wrote its output");
    /* Argument errors are still reported as such. */
    CHECK_STATUS(chess_search(e, NULL, &limits, &r), CHESS_ERR_NULL_ARGUMENT, "busy, NULL");
    CHECK(atomic_load(&job.log.holding) != 0, "the search ended by itself");

    /* Stop from this thread while the search waits in its callback. chess_engineStop returns
     * at once: it returns while the search is still held there, so it cannot be waiting for
     * the search (checked by that order, not by a duration, which a loaded machine stretches).
     * Released, the search sees the stop at its next poll of the flag, at most 1024 nodes past
     * the held report (about a millisecond; the issue asks for 50 ms). */
    double t0 = monotonic_seconds();
    chess_engineStop(e);
    double stop_returned = monotonic_seconds() - t0;
    bool held_through_stop = atomic_load(&job.log.holding) != 0;
    double released_at = monotonic_seconds();
    atomic_store(&job.log.released, 1);
    CHECK(pthread_join(thread, NULL) == 0, "pthread_join");
    double took = job.returned_at - released_at;
    printf("stop: chess_engineStop returned in %.3f ms, chess_search %.3f ms after the release, "
           "%" PRIu64 " nodes after the stop\n",
           stop_returned * 1e3, took * 1e3, job.result.nodes - job.log.held_nodes);
    CHECK(held_through_stop,
          "chess_engineStop returned only after the search left its callback (%.3f s)",
          stop_returned);
    CHECK(job.log.hold_timeouts == 0, "the held search was never released");
    CHECK(stop_returned < HANG_BOUND_SECONDS, "chess_engineStop took %.3f s", stop_returned);
    CHECK(took < HANG_BOUND_SECONDS, "the search ended %.3f s after the stop", took);
    CHECK_STATUS(job.status, CHESS_OK, "the stopped search");
    check_result(&job.pos, &job.result, "stopped search");
    check_log(&job.log, "stopped search");
    CHECK(job.result.nodes >= job.log.held_nodes && job.result.nodes <= job.log.held_nodes + 1024,
          "%" PRIu64 " nodes searched after the stop", job.result.nodes - job.log.held_nodes);

    /* The engine is free again. */
    CHECK_STATUS(chess_engineNewGame(e), CHESS_OK, "newgame after the stop");

    /* A stop while no search runs does not stop the next one. */
    chess_engineStop(e);
    chess_engineStop(e);
    chess_searchLimitsInit(&limits);
    limits.depth = 5;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "search after idle stops");
    CHECK(r.depth == 5, "a stop before the search cut it to depth %u", r.depth);

    /* Stop from the callback, and every call on the engine from it is busy. */
    InfoLog log = new_log(e, &pos);
    log.stop_at_depth = 3;
    log.try_calls = true;
    chess_searchLimitsInit(&limits);
    limits.infinite = true;
    limits.onInfo = on_info;
    limits.userData = &log;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "stop from the callback");
    check_result(&pos, &r, "stop from the callback");
    /* The search polls its stop flag every 1024 nodes: a few more shallow iterations may
     * complete before it sees the stop, never the hundred an infinite search would run. */
    CHECK(r.depth >= 3 && r.depth < 20, "stopped at depth 3: depth %u", r.depth);
    for (int i = 0; i < 4; i++) {
        CHECK_STATUS(log.busy[i], CHESS_ERR_ENGINE_BUSY, "call %d from the callback", i);
    }
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "position modified");

    /* chess_engineFree from the callback stops the search and frees nothing. */
    log = new_log(e, &pos);
    log.free_in_callback = true;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "free from the callback");
    check_result(&pos, &r, "free from the callback");
    CHECK_STATUS(chess_engineNewGame(e), CHESS_OK, "the engine lives on");
}

/* chess_engineFree during a search on another thread: stops it, waits, frees. */
static void free_while_searching(void)
{
    ChessEngine *e = chess_engineNew();
    if (!CHECK(e != NULL, "chess_engineNew")) {
        return;
    }
    /* Free is called as the search, released from its callback after depth 4, lingers there
     * 30 ms more (the engine claimed): it must return after that callback has. Ordered by the
     * callback's own return, which comes before chess_search releases the engine:
     * chess_search's return is taken after the release, and a loaded machine may run free's
     * return first. */
    SearchJob job;
    pthread_t thread;
    if (!start_infinite(&job, e, &thread, 4, 0.03)) {
        chess_engineFree(e);
        return;
    }
    atomic_store(&job.log.released, 1);
    double t0 = monotonic_seconds();
    chess_engineFree(e);
    double freed = monotonic_seconds();
    double took = freed - t0;
    CHECK(pthread_join(thread, NULL) == 0, "pthread_join");
    CHECK(took < HANG_BOUND_SECONDS, "chess_engineFree took %.3f s", took);
    CHECK(job.log.last_return != 0.0 && job.log.last_return <= freed,
          "chess_engineFree returned while the search was in its callback");
    CHECK_STATUS(job.status, CHESS_OK, "the search stopped by chess_engineFree");
    check_result(&job.pos, &job.result, "search stopped by chess_engineFree");
}

/* ---- Bad arguments ---------------------------------------------------------------------- */

/* chess_search must return `want` and write nothing. */
static void expect_refused(ChessEngine *e, const ChessPosition *pos, const ChessSearchLimits *l,
                           ChessStatus want, const char *what)
{
    ChessSearchResult r;
    ChessPosition saved;
    if (pos != NULL) {
        memcpy(&saved, pos, sizeof saved);
    }
    memset(&r, 0xEE, sizeof r);
    CHECK_STATUS(chess_search(e, pos, l, &r), want, "%s", what);
    CHECK(all_bytes(&r, sizeof r, 0xEE), "%s: the result was written", what);
    if (pos != NULL) {
        CHECK(memcmp(&saved, pos, sizeof saved) == 0, "%s: the position was modified", what);
    }
}

static void bad_arguments(ChessEngine *e)
{
    ChessPosition pos, bad;
    ChessSearchLimits limits, l;
    ChessSearchResult r;
    int32_t cp = 12345;
    SET_FEN(&pos, START_FEN);
    chess_searchLimitsInit(&limits);
    limits.depth = 2;

    /* NULLs. */
    expect_refused(NULL, &pos, &limits, CHESS_ERR_NULL_ARGUMENT, "NULL engine");
    expect_refused(e, NULL, &limits, CHESS_ERR_NULL_ARGUMENT, "NULL position");
    expect_refused(e, &pos, NULL, CHESS_ERR_NULL_ARGUMENT, "NULL limits");
    CHECK_STATUS(chess_search(e, &pos, &limits, NULL), CHESS_ERR_NULL_ARGUMENT, "NULL result");
    CHECK_STATUS(chess_evaluate(NULL, &pos, &cp), CHESS_ERR_NULL_ARGUMENT, "evaluate engine");
    CHECK_STATUS(chess_evaluate(e, NULL, &cp), CHESS_ERR_NULL_ARGUMENT, "evaluate position");
    CHECK_STATUS(chess_evaluate(e, &pos, NULL), CHESS_ERR_NULL_ARGUMENT, "evaluate output");
    CHECK(cp == 12345, "evaluate wrote its output on error");
    CHECK_STATUS(chess_engineSetOption(NULL, "Hash", "1"), CHESS_ERR_NULL_ARGUMENT, "opt engine");
    CHECK_STATUS(chess_engineSetOption(e, NULL, "1"), CHESS_ERR_NULL_ARGUMENT, "opt name");
    CHECK_STATUS(chess_engineSetOption(e, "Hash", NULL), CHESS_ERR_NULL_ARGUMENT, "opt value");
    CHECK_STATUS(chess_engineNewGame(NULL), CHESS_ERR_NULL_ARGUMENT, "newgame");
    chess_engineStop(NULL);
    chess_enginePonderHit(NULL);
    chess_engineFree(NULL);

    /* Invalid positions: never initialised (zero, 0xFF), corrupted. */
    memset(&bad, 0, sizeof bad);
    expect_refused(e, &bad, &limits, CHESS_ERR_INVALID_POSITION, "zero-filled position");
    CHECK_STATUS(chess_evaluate(e, &bad, &cp), CHESS_ERR_INVALID_POSITION, "evaluate zeros");
    memset(&bad, 0xFF, sizeof bad);
    expect_refused(e, &bad, &limits, CHESS_ERR_INVALID_POSITION, "0xFF-filled position");
    memcpy(&bad, &pos, sizeof bad);
    bad._opaque[CHESS_POSITION_WORDS / 2] ^= 0x0101010101010101ull;
    bad._opaque[0] ^= 0x10;
    bad._opaque[CHESS_POSITION_WORDS - 1] ^= 1;
    if (chess_validatePosition(&bad) != CHESS_OK) {
        expect_refused(e, &bad, &limits, CHESS_ERR_INVALID_POSITION, "corrupted position");
    }
    CHECK(cp == 12345, "evaluate wrote its output on error");

    /* Malformed limits: size, reserved, never initialised. */
    memcpy(&l, &limits, sizeof l);
    l.size = 0;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "size 0");
    l.size = sizeof l - 1;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "size - 1");
    l.size = sizeof l + 8;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "size + 8");
    for (size_t i = 0; i < sizeof l.reserved; i += 23) {
        memcpy(&l, &limits, sizeof l);
        l.reserved[i] = 1;
        expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "reserved byte set");
    }
    memcpy(&l, &limits, sizeof l);
    l.reserved[sizeof l.reserved - 1] = 0x80;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "last reserved byte set");
    memset(&l, 0, sizeof l);
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "zero-filled limits");
    memset(&l, 0xA5, sizeof l);
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "0xA5-filled limits");
    Rng rng = rng_new(99);
    for (int k = 0; k < 20; k++) {
        unsigned char *bytes = (unsigned char *)&l;
        for (size_t i = 0; i < sizeof l; i++) {
            bytes[i] = (unsigned char)rng_next(&rng);
        }
        expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "random limits");
    }
    /* A random struct that has the right size still fails on its reserved bytes. */
    l.size = sizeof l;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "random limits, right size");

    /* Malformed limits: fields out of range. */
    memcpy(&l, &limits, sizeof l);
    l.depth = -1;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "depth -1");
    memcpy(&l, &limits, sizeof l);
    l.movetimeMs = -2;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "movetime -2");
    memcpy(&l, &limits, sizeof l);
    l.wincMs = -5;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "winc -5");
    memcpy(&l, &limits, sizeof l);
    l.bincMs = INT64_MIN;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "binc INT64_MIN");
    ChessMove e2e4 = MAKE_MOVE(SQ('e', '2'), SQ('e', '4'), 1);
    ChessMove many[CHESS_MAX_SEARCH_MOVES + 1];
    for (size_t i = 0; i < sizeof many / sizeof many[0]; i++) {
        many[i] = e2e4;
    }
    memcpy(&l, &limits, sizeof l);
    l.searchMoves = many;
    l.searchMovesCount = CHESS_MAX_SEARCH_MOVES + 1;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "257 search moves");
    l.searchMovesCount = CHESS_MAX_SEARCH_MOVES; /* 256 repeats of e2e4: fine */
    CHECK_STATUS(chess_search(e, &pos, &l, &r), CHESS_OK, "256 search moves");
    CHECK(r.bestMove == e2e4, "256 x e2e4: bestMove 0x%04x", (unsigned)r.bestMove);
    memcpy(&l, &limits, sizeof l);
    l.searchMoves = NULL;
    l.searchMovesCount = 1;
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "NULL search moves, count 1");
    /* A bool holding neither 0 nor 1 (written as a byte: C never reads it as a bool here). */
    memcpy(&l, &limits, sizeof l);
    memset((unsigned char *)&l + offsetof(ChessSearchLimits, infinite), 2, 1);
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "infinite = 2");
    memcpy(&l, &limits, sizeof l);
    memset((unsigned char *)&l + offsetof(ChessSearchLimits, ponder), 0xFF, 1);
    expect_refused(e, &pos, &l, CHESS_ERR_INVALID_LIMITS, "ponder = 0xFF");

    /* Search moves that are not legal: refused. */
    ChessMove illegal[3] = {e2e4, MAKE_MOVE(SQ('e', '2'), SQ('e', '5'), 0), 0};
    memcpy(&l, &limits, sizeof l);
    l.searchMoves = illegal;
    l.searchMovesCount = 2;
    expect_refused(e, &pos, &l, CHESS_ERR_ILLEGAL_MOVE, "search move e2e5");
    l.searchMoves = illegal + 2;
    l.searchMovesCount = 1;
    expect_refused(e, &pos, &l, CHESS_ERR_ILLEGAL_MOVE, "search move 0");
    illegal[2] = 0xFFFF;
    expect_refused(e, &pos, &l, CHESS_ERR_ILLEGAL_MOVE, "search move 0xFFFF");

    /* Options: unknown names and bad values change nothing. */
    static const struct {
        const char *name, *value;
        ChessStatus want;
    } options[] = {
        {"Hashh", "16", CHESS_ERR_UNKNOWN_OPTION},
        {"", "", CHESS_ERR_UNKNOWN_OPTION},
        {"UCI_Chess960", "true", CHESS_ERR_UNKNOWN_OPTION},
        {"Hash", "0", CHESS_ERR_BAD_OPTION_VALUE},
        {"Hash", "65537", CHESS_ERR_BAD_OPTION_VALUE},
        {"Hash", "abc", CHESS_ERR_BAD_OPTION_VALUE},
        {"Hash", "", CHESS_ERR_BAD_OPTION_VALUE},
        {"Hash", "-1", CHESS_ERR_BAD_OPTION_VALUE},
        {"Threads", "0", CHESS_ERR_BAD_OPTION_VALUE},
        {"Threads", "257", CHESS_ERR_BAD_OPTION_VALUE},
        {"Ponder", "maybe", CHESS_ERR_BAD_OPTION_VALUE},
        {"MultiPV", "0", CHESS_ERR_BAD_OPTION_VALUE},
        {"Move Overhead", "5001", CHESS_ERR_BAD_OPTION_VALUE},
        {"Hash", "\xff", CHESS_ERR_INVALID_ARGUMENT},
        {"\xc3", "1", CHESS_ERR_INVALID_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        CHECK_STATUS(chess_engineSetOption(e, options[i].name, options[i].value), options[i].want,
                     "setoption \"%s\" \"%s\"", options[i].name, options[i].value);
    }
    /* Still one line per iteration (MultiPV unchanged) and a working search. */
    InfoLog log = new_log(e, &pos);
    memcpy(&l, &limits, sizeof l);
    l.depth = 3;
    l.onInfo = on_info;
    l.userData = &log;
    CHECK_STATUS(chess_search(e, &pos, &l, &r), CHESS_OK, "search after bad options");
    check_result(&pos, &r, "after bad options");
    CHECK(log.calls == 3 && log.max_multipv == 1, "after bad options: %d infos", log.calls);
}

/* ---- Options, evaluation, engines side by side ------------------------------------------ */

static void options_and_evaluation(ChessEngine *e)
{
    ChessPosition pos, saved;
    ChessSearchLimits limits;
    ChessSearchResult r;
    SET_FEN(&pos, KIWIPETE_FEN);
    memcpy(&saved, &pos, sizeof pos);
    static const char *const good[][2] = {
        {"Hash", "32"}, {"hash", " 8 "}, {"Clear Hash", ""}, {"clear hash", "ignored"},
        {"Threads", "2"}, {"Ponder", "true"}, {"Ponder", "FALSE"}, {"Move Overhead", "0"},
        {"MultiPV", "1"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECK_STATUS(chess_engineSetOption(e, good[i][0], good[i][1]), CHESS_OK,
                     "setoption \"%s\" \"%s\"", good[i][0], good[i][1]);
    }
    /* Two threads (Lazy SMP). */
    chess_searchLimitsInit(&limits);
    limits.depth = 7;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "2 threads");
    check_result(&pos, &r, "2 threads");
    CHECK(r.depth == 7, "2 threads: depth %u", r.depth);
    CHECK_STATUS(chess_engineSetOption(e, "Threads", "1"), CHESS_OK, "Threads 1");
    CHECK_STATUS(chess_engineSetOption(e, "Hash", "16"), CHESS_OK, "Hash 16");
    CHECK_STATUS(chess_engineNewGame(e), CHESS_OK, "newgame");

    int32_t a = 0, b = 0, start = 0;
    CHECK_STATUS(chess_evaluate(e, &pos, &a), CHESS_OK, "evaluate kiwipete");
    CHECK_STATUS(chess_evaluate(e, &pos, &b), CHESS_OK, "evaluate kiwipete again");
    CHECK(a == b, "evaluate is not stable: %d then %d", a, b);
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "evaluate modified the position");
    ChessPosition s;
    SET_FEN(&s, START_FEN);
    CHECK_STATUS(chess_evaluate(e, &s, &start), CHESS_OK, "evaluate start");
    CHECK(start > -100 && start < 100, "start position evaluates to %d", start);
    /* A queen up is worth a lot, for either side to move. */
    SET_FEN(&s, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    CHECK_STATUS(chess_evaluate(e, &s, &a), CHESS_OK, "evaluate KQK");
    SET_FEN(&s, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    CHECK_STATUS(chess_evaluate(e, &s, &b), CHESS_OK, "evaluate KQK, Black to move");
    CHECK(a > 500 && b < -500, "KQK: %d for White to move, %d for Black", a, b);
}

static void *fresh_engine_search(void *arg)
{
    SearchJob *job = arg;
    job->engine = chess_engineNew();
    if (job->engine == NULL) {
        job->status = CHESS_ERR_INTERNAL;
        return NULL;
    }
    job->status = chess_search(job->engine, &job->pos, &job->limits, &job->result);
    chess_engineFree(job->engine);
    return NULL;
}

/* Two engines searching at once, each on its own thread, and a third alone: one thread each,
 * so the same search gives the same result side by side as alone. */
static void engines_side_by_side(void)
{
    static SearchJob jobs[3];
    static const char *const fens[3] = {KIWIPETE_FEN, START_FEN, KIWIPETE_FEN};
    for (int i = 0; i < 3; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        SET_FEN(&jobs[i].pos, fens[i]);
        chess_searchLimitsInit(&jobs[i].limits);
        jobs[i].limits.depth = 7;
    }
    pthread_t threads[2];
    bool started[2];
    for (int i = 0; i < 2; i++) {
        started[i] = pthread_create(&threads[i], NULL, fresh_engine_search, &jobs[i]) == 0;
        CHECK(started[i], "pthread_create %d", i);
    }
    for (int i = 0; i < 2; i++) {
        if (started[i]) {
            CHECK(pthread_join(threads[i], NULL) == 0, "pthread_join %d", i);
        }
    }
    fresh_engine_search(&jobs[2]);
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(jobs[i].status, CHESS_OK, "engine %d", i);
        check_result(&jobs[i].pos, &jobs[i].result, fens[i]);
    }
    CHECK(jobs[0].result.bestMove == jobs[2].result.bestMove &&
              jobs[0].result.nodes == jobs[2].result.nodes &&
              jobs[0].result.scoreCp == jobs[2].result.scoreCp,
          "side by side %s %" PRIu64 " %d, alone %s %" PRIu64 " %d",
          move_text(jobs[0].result.bestMove, (char[32]){0}), jobs[0].result.nodes,
          jobs[0].result.scoreCp, move_text(jobs[2].result.bestMove, (char[32]){0}),
          jobs[2].result.nodes, jobs[2].result.scoreCp);
}

/* A game of 1000 plies played through chess_makeMove (knights shuffling: every position
 * repeats): the search handles the long history and sees the repetitions. */
static void long_history(ChessEngine *e)
{
    ChessPosition pos;
    SET_FEN(&pos, START_FEN);
    static const char *const cycle[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    int made = 0;
    for (int i = 0; i < 1000; i++) {
        ChessMove m;
        ChessUndo undo;
        if (chess_moveFromUci(&pos, cycle[i % 4], &m) != CHESS_OK ||
            chess_makeMove(&pos, m, &undo) != CHESS_OK) {
            break;
        }
        made++;
    }
    CHECK(made == 1000, "only %d plies made", made);
    ChessPosition saved;
    memcpy(&saved, &pos, sizeof pos);
    ChessSearchLimits limits;
    ChessSearchResult r;
    chess_searchLimitsInit(&limits);
    limits.depth = 8;
    CHECK_STATUS(chess_search(e, &pos, &limits, &r), CHESS_OK, "after 1000 plies");
    check_result(&pos, &r, "after 1000 plies");
    CHECK(memcmp(&saved, &pos, sizeof pos) == 0, "position modified");
}

int main(void)
{
    limits_init();
    ChessEngine *e = chess_engineNew();
    if (!CHECK(e != NULL, "chess_engineNew returned NULL")) {
        return test_summary("test_search");
    }
    search_start_position(e);
    search_mates(e);
    search_multipv(e);
    stop_and_busy(e);
    bad_arguments(e);
    options_and_evaluation(e);
    long_history(e);
    chess_engineFree(e);
    free_while_searching();
    engines_side_by_side();
    return test_summary("test_search");
}
