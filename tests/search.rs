//! The search: exact mate scores against an independent exhaustive mate finder, draws,
//! stop from another thread, the transposition table's moves, limits, determinism.

use chesscore::search::{Engine, Limits, Score, StopHandle};
use chesscore::{Move, Position};
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

fn stop_latency(handle: StopHandle, engine: &mut Engine) -> Duration {
    let pos = Position::startpos();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        handle.stop();
        t
    });
    let r = engine.search(&pos, &limits, &mut |_| {});
    let returned = Instant::now();
    let stopped_at = stopper.join().unwrap();
    assert!(r.best_move.is_some());
    returned.saturating_duration_since(stopped_at)
}

#[test]
fn stop_ends_an_infinite_search_within_50_ms() {
    for threads in ["1", "2"] {
        let mut engine = Engine::new();
        engine.set_option("Threads", threads).unwrap();
        // The best of three tries, so that a loaded machine's scheduling does not decide.
        let best = (0..3)
            .map(|_| stop_latency(engine.stop_handle(), &mut engine))
            .min()
            .unwrap();
        assert!(
            best < Duration::from_millis(50),
            "{threads} threads: {best:?}"
        );
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
    // Movetime.
    let t = Instant::now();
    let r = engine.search(
        &pos,
        &Limits {
            movetime_ms: Some(200),
            ..Limits::default()
        },
        &mut |_| {},
    );
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_millis(600),
        "{took:?}"
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
