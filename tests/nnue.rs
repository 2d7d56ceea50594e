//! The learned evaluation's inference (src/eval/nnue, docs/nnue.md): the library's output
//! against a slow reference written from the format page, the loader's refusals, the
//! engine's evaluation choice.

#[path = "common/nnue_net.rs"]
mod nnue_net;

use chesscore::eval::nnue::{NetError, Network};
use chesscore::search::{Engine, Limits, Score};
use chesscore::Position;
use nnue_net::{constant, Params, Rng};
use std::sync::Arc;

/// Positions of random games from the start position and from Chess960 starts.
fn random_game_positions(rng: &mut Rng, games: usize, plies: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut pos = if g % 2 == 0 {
            Position::startpos()
        } else {
            Position::chess960_start(rng.below(960) as u16).unwrap()
        };
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.make_move_unchecked(m);
        }
    }
    out
}

#[test]
fn the_output_equals_the_reference_on_random_positions() {
    let mut rng = Rng(0x29);
    // Feature weights up to 900 (33 * 900 fits i16: 32 pieces and the bias), full-range
    // output weights: accumulators far outside 0..=255 on both sides, large sums.
    // Version 2 files with output buckets among them: 8 (the usual), 3 and the most, 16.
    for (seed, n, buckets, fw, ow) in [
        (1, 16, 1, 900, 127),
        (2, 128, 1, 300, 127),
        (3, 256, 1, 120, 20),
        (4, 1024, 1, 60, 127),
        (5, 64, 8, 300, 127),
        (6, 32, 3, 500, 127),
        (7, 16, 16, 900, 127),
    ] {
        let params = Params::random_buckets(seed, n, buckets, fw, ow);
        let net = Network::from_bytes(&params.to_bytes()).expect("the random net loads");
        assert_eq!(net.hidden_size(), n);
        assert_eq!(net.buckets(), buckets);
        let mut engine = Engine::new();
        engine.set_network(Some(Arc::new(
            Network::from_bytes(&params.to_bytes()).unwrap(),
        )));
        let positions = random_game_positions(&mut rng, if n >= 1024 { 4 } else { 16 }, 120);
        let mut distinct = std::collections::HashSet::new();
        for pos in &positions {
            let fen = pos.to_fen();
            let want = params.reference_eval(&fen);
            assert_eq!(net.evaluate(pos) as i64, want, "n = {n}, {fen}");
            assert_eq!(engine.evaluate(pos) as i64, want, "engine, n = {n}, {fen}");
            distinct.insert(want);
        }
        assert!(
            distinct.len() > positions.len() / 4,
            "the net's values vary"
        );
    }
}

/// Rewrites the checksum after an edit.
fn reseal(b: &mut [u8]) {
    let end = b.len() - 4;
    let sum = nnue_net::fnv1a(&b[..end]);
    b[end..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn the_loader_refuses_each_bad_file_with_its_reason() {
    let params = Params::random(7, 32, 500, 127);
    let good = params.to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    let n = 32;
    let check = |b: &[u8], want: fn(&NetError) -> bool, word: &str| {
        let e = Network::from_bytes(b).expect_err("refused");
        assert!(want(&e), "{e:?}");
        assert!(e.to_string().contains(word), "'{e}' names '{word}'");
    };
    // Truncated, and one byte too many.
    check(
        &good[..good.len() - 1],
        |e| matches!(e, NetError::Size { .. }),
        "size",
    );
    check(&good[..10], |e| matches!(e, NetError::Size { .. }), "size");
    let mut long = good.clone();
    long.push(0);
    check(&long, |e| matches!(e, NetError::Size { .. }), "size");
    // A flipped byte in the weights, and in the checksum itself.
    let mut b = good.clone();
    b[1000] ^= 0x10;
    check(&b, |e| matches!(e, NetError::Checksum { .. }), "checksum");
    let mut b = good.clone();
    *b.last_mut().unwrap() ^= 1;
    check(&b, |e| matches!(e, NetError::Checksum { .. }), "checksum");
    // Header fields.
    let mut b = good.clone();
    b[0..4].copy_from_slice(b"CCNM");
    reseal(&mut b);
    check(&b, |e| *e == NetError::Magic, "magic");
    for version in [0u8, 3] {
        let mut b = good.clone();
        b[4] = version;
        reseal(&mut b);
        check(&b, |e| matches!(e, NetError::Version(_)), "version");
        assert_eq!(
            Network::from_bytes(&b).unwrap_err(),
            NetError::Version(version as u32)
        );
    }
    // Version 2: the bucket count in 1..=16, and a size that matches it.
    let two = Params::random_buckets(9, n, 4, 500, 127).to_bytes();
    assert_eq!(Network::from_bytes(&two).unwrap().buckets(), 4);
    for bad in [0u32, 17, u32::MAX] {
        let mut b = two.clone();
        b[16..20].copy_from_slice(&bad.to_le_bytes());
        reseal(&mut b);
        check(&b, |e| matches!(e, NetError::Buckets(_)), "bucket count");
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::Buckets(bad));
    }
    let mut b = two.clone();
    b[16..20].copy_from_slice(&5u32.to_le_bytes());
    reseal(&mut b);
    check(&b, |e| matches!(e, NetError::Size { .. }), "size");
    // A version 1 file relabelled version 2 reads its weights as the bucket count.
    let mut b = good.clone();
    b[4] = 2;
    reseal(&mut b);
    assert!(Network::from_bytes(&b).is_err());
    check(&two[..18], |e| matches!(e, NetError::Size { .. }), "size");
    for bad_n in [0u32, 8, 24, 1040] {
        let mut b = good.clone();
        b[8..12].copy_from_slice(&bad_n.to_le_bytes());
        check(
            &b,
            move |e| matches!(e, NetError::HiddenSize(_)),
            "hidden size",
        );
    }
    let mut b = good.clone();
    b[12] = 2;
    reseal(&mut b);
    check(&b, |e| *e == NetError::Activation(2), "activation");
    // Output weights just outside the range (the edge values load).
    for (v, ok) in [
        (127i16, true),
        (-127, true),
        (128, false),
        (-128, false),
        (i16::MIN, false),
    ] {
        let mut p = params.clone();
        p.out[2 * n - 1] = v;
        let r = Network::from_bytes(&p.to_bytes());
        if ok {
            assert!(r.is_ok(), "{v}");
        } else {
            assert_eq!(
                r.unwrap_err(),
                NetError::OutputWeight {
                    index: 2 * n - 1,
                    value: v
                }
            );
            let mut b = p.to_bytes();
            reseal(&mut b);
            check(
                &b,
                |e| matches!(e, NetError::OutputWeight { .. }),
                "output weight",
            );
        }
    }
    // The overflow bound: neuron 5 with 32 weights of 1000 and a bias of 767 reaches 32767
    // exactly (loads); one more unit does not.
    for (bias, ok) in [(767i16, true), (768, false), (-768, false)] {
        let mut p = Params::random(8, n, 10, 127);
        for f in 0..768 {
            p.w[f * n + 5] = if f % 24 == 0 {
                if f % 48 == 0 {
                    1000
                } else {
                    -1000
                }
            } else {
                0
            };
        }
        p.bias[5] = bias;
        let r = Network::from_bytes(&p.to_bytes());
        if ok {
            assert!(r.is_ok());
        } else {
            let e = r.unwrap_err();
            assert_eq!(
                e,
                NetError::AccumulatorOverflow {
                    neuron: 5,
                    bound: 32768
                }
            );
            assert!(e.to_string().contains("overflow"), "{e}");
        }
    }
}

#[test]
fn the_engine_searches_with_a_net_and_switches_back() {
    let pos = Position::startpos();
    let limits = Limits {
        depth: 4,
        ..Limits::default()
    };
    let mut engine = Engine::new();
    engine.set_eval_file("<hand>").unwrap();
    let hand = engine.evaluate(&pos);
    // A net that values every position at 1234 cp for the side to move: a search to an
    // even depth scores the root at 1234.
    let net = Arc::new(Network::from_bytes(&constant(16, 1234).to_bytes()).unwrap());
    engine.set_network(Some(net.clone()));
    assert!(Arc::ptr_eq(engine.network().unwrap(), &net));
    assert_eq!(engine.evaluate(&pos), 1234);
    let r = engine.search(&pos, &limits, &mut |_| {});
    assert_eq!(r.score, Score::Cp(1234));
    engine.set_option("Threads", "2").unwrap();
    let r = engine.search(&pos, &limits, &mut |_| {});
    assert_eq!(r.score, Score::Cp(1234));
    // A random net: the search runs, on two threads, from a Chess960 start too.
    let params = Params::random(11, 128, 200, 20);
    engine.set_network(Some(Arc::new(
        Network::from_bytes(&params.to_bytes()).unwrap(),
    )));
    let p960 = Position::chess960_start(77).unwrap();
    for p in [&pos, &p960] {
        let r = engine.search(p, &limits, &mut |_| {});
        assert!(r.best_move.is_some() && r.depth == 4);
        assert_eq!(
            engine.evaluate(p) as i64,
            params.reference_eval(&p.to_fen())
        );
    }
    // Back to the hand-written evaluation.
    engine.set_eval_file("<hand>").unwrap();
    assert!(engine.network().is_none());
    assert_eq!(engine.evaluate(&pos), hand);
    // Errors leave the evaluation as it was.
    engine.set_network(Some(net.clone()));
    let e = engine
        .set_eval_file("/nonexistent/chesscore.nnue")
        .unwrap_err();
    assert!(matches!(e, NetError::Io(_)), "{e:?}");
    assert_eq!(engine.evaluate(&pos), 1234);
    if Network::embedded().is_none() {
        assert_eq!(
            engine.set_eval_file("<embedded>"),
            Err(NetError::NoEmbeddedNet)
        );
        assert_eq!(engine.evaluate(&pos), 1234);
    }
}

/// The embedded net (none until a trained one is embedded): when there is one, it loads (the
/// loader's checks pass), `<embedded>` selects it, and the search runs on it.
#[test]
fn the_embedded_net_loads_when_there_is_one() {
    let Some(net) = Network::embedded() else {
        let mut engine = Engine::new();
        assert_eq!(
            engine.set_eval_file("<embedded>"),
            Err(NetError::NoEmbeddedNet)
        );
        return;
    };
    assert!(
        Arc::ptr_eq(&net, &Network::embedded().unwrap()),
        "loaded once"
    );
    let mut engine = Engine::new();
    engine.set_eval_file("<embedded>").unwrap();
    assert!(Arc::ptr_eq(engine.network().unwrap(), &net));
    let pos = Position::startpos();
    let r = engine.search(
        &pos,
        &Limits {
            depth: 5,
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(r.best_move.is_some());
    assert!(
        net.evaluate(&pos).abs() < 200,
        "the start position is about level"
    );
}
