//! The search: exact mate scores against an independent exhaustive mate finder, draws,
//! stop from another thread, the transposition table's moves, limits, determinism.
//!
//! Timing: a loaded machine (CI runs on two shared cores) delays any thread by an unknown
//! amount, so promptness (of `stop`, of a deadline) is checked in the engine's own nodes, and
//! wall-clock bounds are lower bounds or [`HANG_BOUND`]-sized guards against a hang.

use chesscore::search::{Engine, Limits, Score, SearchInfo, SearchResult};
use chesscore::{Move, Position};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Independent oracle: true when the side to move can force mate within `n` of its moves
/// (plain exhaustive search over legal moves, no pruning, no table).
fn can_mate(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for &m in pos.legal_moves().iter() {
        let undo = pos.make_move_unchecked(m);
        let mated = defender_is_mated(pos, n);
        pos.unmake_move_unchecked(m, &undo);
        if mated {
            return true;
        }
    }
    false
}

/// True when the side to move is mated now or every reply allows mate within `n - 1` more
/// attacker moves.
fn defender_is_mated(pos: &mut Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.in_check();
    }
    for &m in moves.iter() {
        let undo = pos.make_move_unchecked(m);
        let ok = can_mate(pos, n - 1);
        pos.unmake_move_unchecked(m, &undo);
        if !ok {
            return false;
        }
    }
    true
}

fn search(fen: &str, limits: Limits) -> (chesscore::search::SearchResult, Position) {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new();
    let r = engine.search(&pos, &limits, &mut |_| {});
    (r, pos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: d,
        ..Limits::default()
    }
}

#[test]
fn mates_in_one_to_three_have_the_exact_score() {
    // (position, mate distance for the side to move; negative: it is mated). The distances
    // are confirmed below by the exhaustive oracle.
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
        ("k7/8/3K4/8/8/8/8/7R w - - 0 1", 2),
        ("1k6/8/8/2K5/8/8/8/7R w - - 0 1", 3),
        ("2k5/8/8/2K5/8/8/8/7R w - - 0 1", 3),
        ("k7/8/1K6/8/8/8/8/7R b - - 0 1", -1),
        ("1k6/8/2K5/8/8/8/8/7R b - - 0 1", -2),
    ];
    for (fen, n) in cases {
        let mut pos = Position::from_fen(fen).unwrap();
        if n > 0 {
            let n = n as u32;
            assert!(can_mate(&mut pos, n), "{fen}: oracle finds no mate in {n}");
            assert!(
                !can_mate(&mut pos, n - 1),
                "{fen}: oracle finds a mate in {}",
                n - 1
            );
        } else {
            // Mated in k: after every move, the opponent mates in at most k.
            let k = (-n) as u32;
            assert!(
                defender_is_mated(&mut pos, k + 1),
                "{fen}: not mated in {k}"
            );
            assert!(!defender_is_mated(&mut pos, k), "{fen}: mated sooner");
        }
        let (r, pos) = search(fen, depth(16));
        assert_eq!(r.score, Score::Mate(n), "{fen}");
        let best = r.best_move.unwrap();
        assert!(pos.is_legal(best));
        if n > 0 {
            // The move leads to a mate in n - 1 after the best defence (oracle).
            let mut p = pos.clone();
            p.make_move_unchecked(best);
            assert!(
                defender_is_mated(&mut p, n as u32),
                "{fen}: {best} does not mate in {n}"
            );
        }
        // The principal variation is a legal line ending in mate for a win.
        let mut p = pos.clone();
        for &m in r.pv() {
            assert!(p.is_legal(m), "{fen}: illegal pv move {m}");
            p.make_move_unchecked(m);
        }
        if n > 0 {
            assert_eq!(r.pv().len() as i32, 2 * n - 1, "{fen}");
            assert!(
                p.legal_moves().is_empty() && p.in_check(),
                "{fen}: pv does not end in mate"
            );
        }
    }
}

#[test]
fn roots_without_moves_return_at_once() {
    let (r, _) = search("k7/8/1Q6/8/8/8/8/7K b - - 0 1", Limits::default());
    assert_eq!((r.best_move, r.score), (None, Score::Cp(0)), "stalemate");
    let (r, _) = search("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", Limits::default());
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)), "checkmate");
}

#[test]
fn threefold_repetition_is_a_draw_in_the_tree() {
    // Black has no queen. After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, ...Ng8 repeats the start position
    // a third time: a draw, which Black (lost otherwise) takes.
    let mut pos =
        Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.try_make_move(mv).unwrap();
    }
    let mut engine = Engine::new();
    let r = engine.search(&pos, &depth(6), &mut |_| {});
    assert_eq!(r.best_move.map(|m| m.to_string()), Some("f6g8".into()));
    assert_eq!(r.score, Score::Cp(0));
    // White, a queen up, avoids the repetition one move earlier.
    let mut pos =
        Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"] {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.try_make_move(mv).unwrap();
    }
    let r = engine.search(&pos, &depth(6), &mut |_| {});
    assert_ne!(r.best_move.map(|m| m.to_string()), Some("f3g1".into()));
    assert!(matches!(r.score, Score::Cp(v) if v > 300));
}

#[test]
fn stalemate_and_fifty_moves_inside_the_tree_score_zero() {
    // White, far ahead, must not stalemate: Qb6 stalemates (Black then has no move), which
    // the search sees as the draw it is.
    let (r, pos) = search("k7/8/8/2Q5/8/8/8/7K w - - 0 1", depth(8));
    let qb6 = pos.parse_uci_move("c5b6").unwrap();
    let mut after = pos.clone();
    after.make_move_unchecked(qb6);
    assert!(after.legal_moves().is_empty() && !after.in_check());
    assert_ne!(r.best_move, Some(qb6));
    assert!(
        matches!(r.score, Score::Cp(v) if v > 500) || matches!(r.score, Score::Mate(n) if n > 0)
    );
    // Black's lone king can reach a draw by the 50-move rule next move only if nothing
    // resets the clock: with the clock at 99, any white move that is not a capture or pawn
    // move ends the game drawn, so a queen-up White still scores 0 unless it mates at once.
    let (r, _) = search("7k/8/8/8/8/8/8/1Q5K w - - 99 80", depth(6));
    assert_eq!(r.score, Score::Cp(0));
}

/// How long after `stop` (or after its own deadline) a search may take to return before a test
/// calls it stuck: 100 times the 50 ms the issue asks for, so that no scheduling delay of a
/// loaded machine reaches it, and far below what an ignored stop or deadline costs (the 60 s
/// movetime these searches get, or forever). How soon the search reacts is checked in nodes,
/// which load does not change: see `stop_from_another_thread_is_seen_within_1024_nodes` and
/// the deadline check in `limits_and_options`.
const HANG_BOUND: Duration = Duration::from_secs(5);

/// Runs `search` with a watchdog that stops it after [`HANG_BOUND`], so that a search which
/// ignores its limits fails the test's time assertions instead of hanging it.
fn search_with_watchdog(
    engine: &mut Engine,
    pos: &Position,
    limits: &Limits,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let handle = engine.stop_handle();
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            if wait.recv_timeout(HANG_BOUND) == Err(RecvTimeoutError::Timeout) {
                handle.stop();
            }
        });
        let r = engine.search(pos, limits, on_info);
        drop(done);
        r
    })
}

/// `stop` from another thread is seen at the search's next poll of its stop flag, which comes
/// every 1024 nodes (about a millisecond; the issue asks for 50 ms). Sent while the search
/// waits in its info callback after depth 8, the stop ends the search at most 1024 nodes after
/// that report: it is neither ignored nor seen only every so many iterations. Counted in the engine's nodes, not in wall-clock time, so that a loaded machine
/// cannot make it fail.
#[test]
fn stop_from_another_thread_is_seen_within_1024_nodes() {
    let pos = Position::startpos();
    let mut engine = Engine::new();
    let handle = engine.stop_handle();
    let (reached, wait_reached) = mpsc::channel::<()>();
    let (stopped, wait_stopped) = mpsc::channel::<()>();
    let stopper = std::thread::spawn(move || {
        if wait_reached.recv().is_ok() {
            handle.stop();
            stopped.send(()).unwrap();
        }
    });
    // A movetime far away, not an infinite search: a stop that is ignored then fails the test
    // (60 s later) instead of hanging it.
    let limits = Limits {
        movetime_ms: Some(60_000),
        ..Limits::default()
    };
    let mut held = None;
    let r = engine.search(&pos, &limits, &mut |i| {
        if held.is_none() && i.depth >= 8 {
            held = Some(i.nodes);
            reached.send(()).unwrap();
            // The search waits here until the other thread has sent its stop.
            wait_stopped
                .recv_timeout(Duration::from_secs(60))
                .expect("the other thread sent no stop");
        }
    });
    drop(reached);
    stopper.join().unwrap();
    let nodes = held.expect("the search reported depth 8");
    assert!(
        r.nodes >= nodes && r.nodes <= nodes + 1024,
        "{} nodes after the stop (reported {nodes} at depth 8, returned {})",
        r.nodes.saturating_sub(nodes),
        r.nodes
    );
    assert!(pos.is_legal(r.best_move.unwrap()));
}

/// `stop` from another thread ends a running search, on one thread and on two, infinite or
/// with a far-away movetime, cutting the iteration in progress rather than finishing it. The
/// wall clock only catches a stop that is ignored (the 60 s movetime, or forever): the bound
/// is [`HANG_BOUND`], not the 50 ms, which a loaded machine's scheduling can exceed;
/// how soon the stop is seen is checked in nodes above.
#[test]
fn stop_from_another_thread_ends_the_search() {
    let pos = Position::startpos();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let far_movetime = Limits {
        movetime_ms: Some(60_000),
        ..Limits::default()
    };
    for threads in ["1", "2"] {
        // The movetime first: an ignored stop fails it (60 s later) before the infinite search
        // would hang the test.
        for (name, limits) in [("movetime 60 s", &far_movetime), ("infinite", &infinite)] {
            let mut engine = Engine::new();
            engine.set_option("Threads", threads).unwrap();
            let handle = engine.stop_handle();
            let reported = AtomicU32::new(0);
            let mut last = (0, 0);
            let (r, late) = std::thread::scope(|s| {
                let stopper = s.spawn(|| {
                    // Stop once the search is under way (a stop sent before a search starts
                    // is dropped by it, and no sleep rules that out on a loaded machine), a
                    // little into an iteration.
                    let t = Instant::now();
                    while reported.load(Ordering::SeqCst) < 8 && t.elapsed() < HANG_BOUND {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    let at = Instant::now();
                    handle.stop();
                    at
                });
                let r = engine.search(&pos, limits, &mut |i| {
                    last = (i.depth, i.nodes);
                    reported.store(i.depth, Ordering::SeqCst);
                });
                let returned = Instant::now();
                let stopped_at = stopper.join().unwrap();
                (r, returned.saturating_duration_since(stopped_at))
            });
            let what = format!("{threads} threads, {name}");
            assert!(
                late < HANG_BOUND,
                "{what}: returned {late:?} after the stop"
            );
            assert!(r.time_ms < 60_000, "{what}: ran to its movetime");
            assert!(pos.is_legal(r.best_move.unwrap()), "{what}");
            if threads == "1" {
                // One thread: the last report counts every node searched up to it, so nodes
                // beyond it mean the stop cut an iteration instead of waiting for its end.
                assert_eq!(r.depth, last.0, "{what}");
                assert!(
                    r.nodes > last.1,
                    "{what}: the search ended at an iteration's end ({} nodes)",
                    r.nodes
                );
            }
        }
    }
}

#[test]
fn the_table_holds_only_moves_legal_where_they_are_stored() {
    let mut engine = Engine::new();
    let fens = [
        chesscore::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let mut checked = 0;
    let mut rng = 0x1234_5678_9abc_def0u64;
    for fen in fens {
        let root = Position::from_fen(fen).unwrap();
        engine.search(&root, &depth(8), &mut |_| {});
        // Walk random lines from the root and probe every position on them.
        for _ in 0..200 {
            let mut p = root.clone();
            for _ in 0..8 {
                if let Some(m) = engine.hash_move(&p) {
                    assert!(p.is_legal(m), "table move {m} illegal in {}", p.to_fen());
                    checked += 1;
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let m = moves.as_slice()[(rng % moves.len() as u64) as usize];
                p.make_move_unchecked(m);
            }
        }
    }
    assert!(checked > 500, "only {checked} table moves probed");
}

#[test]
fn limits_and_options() {
    let pos = Position::startpos();
    let mut engine = Engine::new();
    // Node limit (one thread: exact).
    let r = engine.search(
        &pos,
        &Limits {
            nodes: 5000,
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(r.nodes >= 5000 && r.nodes < 5100, "{}", r.nodes);
    // Movetime: the search spends about the time it is given, by its own clock. At least
    // half of it (a loaded machine only makes a search late, never early); at most
    // [`HANG_BOUND`], where the watchdog stops a search that ignores its movetime.
    let limits = Limits {
        movetime_ms: Some(200),
        ..Limits::default()
    };
    let t = Instant::now();
    let r = search_with_watchdog(&mut engine, &pos, &limits, &mut |_| {});
    let took = t.elapsed();
    assert!(
        r.time_ms >= 100,
        "movetime 200 stopped after {} ms",
        r.time_ms
    );
    assert!(took < HANG_BOUND, "movetime 200 took {took:?}");
    assert!(r.best_move.is_some());
    // ...and it stops at its deadline, not an iteration or more later: the deadline of
    // movetime 100 passes while the search waits 150 ms in its depth-1 callback, so the search
    // must stop when it next looks at its clock: at that iteration's end, or at its next poll
    // (every 1024 nodes). Counted in nodes, which load does not change.
    let limits = Limits {
        movetime_ms: Some(100),
        ..Limits::default()
    };
    let mut first = None;
    let r = search_with_watchdog(&mut engine, &pos, &limits, &mut |i| {
        if first.is_none() {
            first = Some(i.nodes);
            std::thread::sleep(Duration::from_millis(150));
        }
    });
    let first = first.expect("the search reported depth 1");
    assert!(
        r.nodes <= first + 1024,
        "{} nodes searched after the deadline",
        r.nodes - first
    );
    assert!(r.best_move.is_some());
    // Search moves restrict the root.
    let mut only = chesscore::MoveList::new();
    only.push(pos.parse_uci_move("a2a3").unwrap());
    only.push(pos.parse_uci_move("h2h3").unwrap());
    let r = engine.search(
        &pos,
        &Limits {
            depth: 6,
            search_moves: only.clone(),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(only.contains(r.best_move.unwrap()));
    // MultiPV: 3 distinct lines per iteration, scores in order.
    engine.set_option("MultiPV", "3").unwrap();
    let mut lines: Vec<(u32, u32, i32, Move)> = Vec::new();
    engine.search(&pos, &depth(6), &mut |i| {
        lines.push((i.depth, i.multipv, i.score_internal, i.pv[0]))
    });
    let last: Vec<_> = lines.iter().filter(|l| l.0 == 6).collect();
    assert_eq!(last.iter().map(|l| l.1).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last[0].2 >= last[1].2 && last[1].2 >= last[2].2);
    assert!(last[0].3 != last[1].3 && last[1].3 != last[2].3 && last[0].3 != last[2].3);
    // Option errors leave the engine as it was.
    use chesscore::search::OptionError;
    assert_eq!(engine.set_option("Hash", "0"), Err(OptionError::BadValue));
    assert_eq!(engine.set_option("Hash", "x"), Err(OptionError::BadValue));
    assert_eq!(
        engine.set_option("Nope", "1"),
        Err(OptionError::UnknownName)
    );
    assert_eq!(engine.hash_mib(), 16);
    engine.set_option("hash", "4").unwrap();
    assert_eq!(engine.hash_mib(), 4);
    engine.set_option("threads", "3").unwrap();
    assert_eq!(engine.thread_count(), 3);
    engine.set_option("MultiPV", "1").unwrap();
    let r = engine.search(&pos, &depth(6), &mut |_| {});
    assert!(pos.is_legal(r.best_move.unwrap()) && r.depth == 6);
}

#[test]
fn go_mate_stops_at_the_mate() {
    let pos = Position::from_fen("1k6/8/8/2K5/8/8/8/7R w - - 0 1").unwrap();
    let mut engine = Engine::new();
    let r = engine.search(
        &pos,
        &Limits {
            mate: 3,
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.score, Score::Mate(3));
    assert!(r.depth < 20);
}

#[test]
fn one_thread_fixed_depth_is_deterministic() {
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let mut a = Engine::new();
    let mut b = Engine::new();
    let ra = a.search(&pos, &depth(9), &mut |_| {});
    // A used engine after new_game behaves like a fresh one.
    b.search(&Position::startpos(), &depth(7), &mut |_| {});
    b.new_game();
    let rb = b.search(&pos, &depth(9), &mut |_| {});
    assert_eq!(
        (ra.nodes, ra.best_move, ra.score),
        (rb.nodes, rb.best_move, rb.score)
    );
}

#[test]
fn the_callers_position_is_not_modified_and_long_games_are_fine() {
    // A game of 1000 plies of knights shuffling (no capture or pawn move, so compacting
    // keeps everything): the history is nearly full; the search still works.
    let mut pos = Position::startpos();
    let mut engine = Engine::new();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut n = 0;
    while pos.ply_count() < 1000 {
        let m = pos.parse_uci_move(cycle[n % 4]).unwrap();
        pos.try_make_move(m).unwrap();
        n += 1;
    }
    let before = pos.to_fen();
    let hash = pos.hash();
    let r = engine.search(&pos, &depth(6), &mut |_| {});
    assert!(pos.is_legal(r.best_move.unwrap()));
    assert_eq!((pos.to_fen(), pos.hash()), (before, hash));
}
