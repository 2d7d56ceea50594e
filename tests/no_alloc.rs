//! Generation, make/unmake and perft allocate nothing: counted by a global allocator.

use chesscore::{GenType, Legality, MoveList, PieceType, Position};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
#[path = "common/nnue_net.rs"]
mod nnue_net;
use counting_alloc::allocations_during;

#[test]
fn hot_paths_do_not_allocate() {
    // Parsing a FEN may allocate (it is not a hot path); everything after must not.
    let mut pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    // Sanity: the counter does count.
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);

    let n = allocations_during(|| {
        let mut list = MoveList::new();
        pos.generate_moves(
            Legality::Legal,
            GenType::All,
            chesscore::ALL_PIECE_TYPES,
            &mut list,
        );
        let pseudo = pos.pseudo_legal_moves();
        let mut caps = MoveList::new();
        pos.generate_moves(
            Legality::Legal,
            GenType::Captures,
            PieceType::KNIGHT.mask_bit(),
            &mut caps,
        );
        for &m in list.iter() {
            let undo = pos.make_move_unchecked(m);
            std::hint::black_box(pos.hash());
            pos.unmake_move_unchecked(m, &undo);
        }
        for &m in pseudo.iter() {
            std::hint::black_box(pos.is_legal_pseudo(m));
            std::hint::black_box(pos.is_legal(m));
        }
        let undo = pos.make_null_move_unchecked();
        pos.unmake_null_move_unchecked(&undo);
        std::hint::black_box(pos.is_repetition(100));
        std::hint::black_box(pos.status());
        std::hint::black_box(pos.perft(3));
        std::hint::black_box(pos.perft_full(2));
    });
    assert_eq!(n, 0, "hot paths allocated {n} times");
}

#[test]
fn setup_and_perft_1_do_not_allocate() {
    let n = allocations_during(|| {
        let mut pos = Position::from_fen(chesscore::START_FEN).unwrap();
        std::hint::black_box(pos.perft(1));
        std::hint::black_box(pos.set_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    });
    assert_eq!(n, 0, "setup and perft 1 allocated {n} times");
}

#[test]
fn a_search_allocates_nothing() {
    use chesscore::search::{Engine, Limits};
    // Creating the engine allocates its tables; a one-thread search then allocates nothing
    // (tests/search_smp_no_alloc.rs counts a search on two threads, on every thread).
    let mut engine = Engine::new();
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let limits = Limits {
        depth: 7,
        ..Limits::default()
    };
    let mut infos = 0;
    let mut nodes = 0;
    let n = allocations_during(|| {
        let r = engine.search(&pos, &limits, &mut |_| infos += 1);
        nodes = r.nodes;
        engine.new_game();
    });
    assert_eq!(n, 0, "a search of {nodes} nodes allocated {n} times");
    assert!(infos >= 7 && nodes > 1000);
}

/// A search at a limited strength (node budget, MultiPV lines, the seeded draw among them)
/// allocates nothing either.
#[test]
fn a_search_at_a_limited_strength_allocates_nothing() {
    use chesscore::search::{Engine, Limits};
    let mut engine = Engine::new();
    engine.set_option("UCI_LimitStrength", "true").unwrap();
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let mut moves = 0;
    for elo in ["1320", "2000", "2600"] {
        engine.set_option("UCI_Elo", elo).unwrap();
        let limits = Limits {
            depth: 6,
            ..Limits::default()
        };
        let n = allocations_during(|| {
            let r = engine.search(&pos, &limits, &mut |_| {});
            moves += usize::from(r.best_move.is_some());
            engine.new_game();
        });
        assert_eq!(n, 0, "a search at UCI_Elo {elo} allocated {n} times");
    }
    assert_eq!(moves, 3);
}

#[test]
fn a_search_with_a_network_allocates_nothing() {
    use chesscore::eval::nnue::Network;
    use chesscore::search::{Engine, Limits};
    // Loading the net and creating the engine allocate; a search on the net allocates
    // nothing (its accumulators are in the thread's tables).
    let params = nnue_net::Params::random(5, 256, 120, 20);
    let net = std::sync::Arc::new(Network::from_bytes(&params.to_bytes()).unwrap());
    let mut engine = Engine::new();
    engine.set_network(Some(net));
    let mut nodes = 0;
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let limits = Limits {
            depth: 6,
            ..Limits::default()
        };
        let n = allocations_during(|| {
            nodes += engine.search(&pos, &limits, &mut |_| {}).nodes;
            std::hint::black_box(engine.evaluate(&pos));
        });
        assert_eq!(n, 0, "a search on the network allocated {n} times ({fen})");
    }
    assert!(nodes > 1000);
}

#[test]
fn chess960_move_events_and_check_move_do_not_allocate() {
    let mut pos =
        Position::from_fen_960("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1").unwrap();
    let std_pos = Position::startpos();
    let n = allocations_during(|| {
        std::hint::black_box(pos.perft(3));
        std::hint::black_box(pos.perft_full(2));
        let list = pos.legal_moves();
        let mut buf = [0u8; 5];
        for &m in list.iter() {
            std::hint::black_box(pos.move_events(m).is_ok());
            std::hint::black_box(pos.write_uci_move(m, &mut buf));
        }
        for from in chesscore::Square::all() {
            for to in chesscore::Square::all() {
                std::hint::black_box(pos.check_move(from, to, PieceType::NONE));
                std::hint::black_box(std_pos.check_move(from, to, PieceType::QUEEN));
            }
        }
    });
    assert_eq!(n, 0, "Chess960, events and check_move allocated {n} times");
}
