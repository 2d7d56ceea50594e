//! The Dice Chess engine on a clock (src/dice/search/time.rs): tiny clocks still give a
//! legal move under limits the time manager keeps small, through the Rust API, the player
//! and the C ABI. No wall time is asserted: the limits the time manager computes are.

use chesscore::dice::player::{sample_roll, DiceClock, RandomPlayer, Rng};
use chesscore::dice::search::player::EnginePlayer;
use chesscore::dice::search::{DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, Phase, Player, Rules};
use chesscore::Move;

/// Rolled games of `rules` from seeded random play, `count` of them, 0 to 29 turns in.
fn rolled_games(rules: Rules, count: usize, seed: u64) -> Vec<DiceGame> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = DiceGame::new(rules);
        let mut p = RandomPlayer(Rng(rng.next_u64()));
        let turns = rng.below(30);
        let mut ok = true;
        for _ in 0..turns {
            let Some(roll) = sample_roll(&g, &mut rng) else {
                ok = false;
                break;
            };
            g.set_roll(roll).unwrap();
            while g.phase() == Phase::AwaitingMove {
                let list = g.moves();
                let m = if list.is_empty() {
                    Move::NONE
                } else {
                    p.choose(&g, list.as_slice())
                };
                g.make_move(m).unwrap();
            }
        }
        if !ok {
            continue;
        }
        let Some(roll) = sample_roll(&g, &mut rng) else {
            continue;
        };
        g.set_roll(roll).unwrap();
        out.push(g);
    }
    out
}

/// `line` is a legal turn (or the rest of one) from `game`: each micro-move among the
/// moves the dice allow, the pass only when there is none.
fn assert_legal_line(game: &DiceGame, line: &[Move]) {
    let mut g = game.clone();
    let side = g.side_to_move();
    let first = line.first().copied().unwrap_or(Move::NONE);
    let list = g.moves();
    if list.is_empty() {
        assert_eq!(first, Move::NONE, "{}", g.to_fen());
        return;
    }
    for &m in line {
        if g.phase() != Phase::AwaitingMove || g.side_to_move() != side {
            panic!("{}: the line goes past the turn", game.to_fen());
        }
        assert!(
            g.moves().as_slice().contains(&m),
            "{}: {m} not legal in {}",
            game.to_fen(),
            g.to_fen()
        );
        g.make_move(m).unwrap();
    }
}

#[test]
fn tiny_clocks_give_small_limits_and_legal_moves() {
    let mut engine = DiceEngine::new(4);
    for rules in Rules::ALL {
        for (i, g) in rolled_games(rules, 12, 40 + rules as u64)
            .iter()
            .enumerate()
        {
            for (time_ms, inc_ms) in [(0, 0), (50, 0), (50, 20), (120, 10)] {
                let clock = DiceClock {
                    time_ms,
                    inc_ms,
                    movestogo: 0,
                };
                let l = DiceLimits::on_clock(g, &clock);
                let hard = l.movetime_ms.unwrap();
                // Never past 80% of the clock less the 5 ms overhead, never 0.
                let cap = ((time_ms as u64).saturating_sub(5) * 4 / 5).max(1);
                assert!(hard >= 1 && hard <= cap, "{clock:?}: {l:?}");
                assert!(l.soft_ms.unwrap() <= hard);
                // A clock under the 50 ms reserve hands out the increment's 3/4 only.
                if time_ms <= 55 {
                    assert!(hard <= (inc_ms as u64 * 3 / 4).max(1), "{clock:?}: {l:?}");
                }
                let r = engine.search(g, &l, &mut |_| {}).unwrap();
                assert_legal_line(g, r.line.as_slice());
                if i == 0 {
                    // The same through a player on that clock.
                    let mut p = EnginePlayer::new(SearchConfig::ALL, DiceLimits::depth(3), 1);
                    p.set_clock(Some(clock));
                    let pl = p.limits_for(g);
                    assert_eq!((pl.depth, pl.movetime_ms), (3, l.movetime_ms));
                    let list = g.moves();
                    if !list.is_empty() {
                        let m = p.choose(g, list.as_slice());
                        assert!(list.as_slice().contains(&m));
                    }
                }
            }
        }
    }
}

#[test]
fn the_c_abi_searches_on_the_clock() {
    use chesscore::ffi::*;
    use std::mem::MaybeUninit;
    let engine = chess_engineNew();
    assert!(!engine.is_null());
    for rules in Rules::ALL {
        for g in rolled_games(rules, 4, 90 + rules as u64) {
            let mut limits = MaybeUninit::<ChessSearchLimits>::uninit();
            let fen = std::ffi::CString::new(g.to_fen()).unwrap();
            // SAFETY: valid pointers for the calls' contracts throughout.
            unsafe {
                chess_searchLimitsInit(limits.as_mut_ptr());
                let mut limits = limits.assume_init();
                limits.wtimeMs = 60;
                limits.btimeMs = 60;
                limits.wincMs = 5;
                limits.bincMs = 5;
                let mut cg = MaybeUninit::<ChessDiceGame>::uninit();
                let st = chess_diceSetFromFEN(
                    cg.as_mut_ptr(),
                    rules as ChessDiceRulesCode,
                    fen.as_ptr(),
                );
                assert_eq!(st, ChessStatus::CHESS_OK, "{}", g.to_fen());
                let cg = cg.assume_init();
                let mut res = MaybeUninit::<ChessDiceSearchResult>::uninit();
                let st = chess_diceSearch(engine, &cg, &limits, res.as_mut_ptr());
                assert_eq!(st, ChessStatus::CHESS_OK);
                let res = res.assume_init();
                let line: Vec<Move> = res.turn[..res.turnLength as usize]
                    .iter()
                    .map(|&m| Move::from_raw(m))
                    .collect();
                assert_eq!(
                    line.first().copied().unwrap_or(Move::NONE).raw(),
                    res.bestMove
                );
                assert_legal_line(&g, &line);
            }
        }
    }
    // SAFETY: the engine made above, freed once.
    unsafe { chess_engineFree(engine) };
}
