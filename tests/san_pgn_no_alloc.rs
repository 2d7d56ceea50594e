//! SAN writing and reading allocate nothing, and the PGN reader allocates per game only: the
//! same game read again and again costs the same number of allocations each time (its own
//! tags, moves and comments), with the reader's buffers reused.

use chesscore::pgn::PgnReader;
use chesscore::{Position, SanMode};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;

#[test]
fn san_does_not_allocate() {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let moves = pos.legal_moves();
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    let n = allocations_during(|| {
        for &m in moves.iter() {
            let san = pos.to_san(m).unwrap();
            assert_eq!(pos.parse_san(&san), Ok(m));
            assert_eq!(pos.parse_san_with(&san, SanMode::Tolerant), Ok(m));
            let mut uci = [0u8; 5];
            let len = m.write_uci(&mut uci);
            let uci = core::str::from_utf8(&uci[..len]).unwrap();
            assert_eq!(pos.parse_san_with(uci, SanMode::Tolerant), Ok(m));
        }
        for bad in ["Nf9", "Qh8", "Nd5", "O-O-O-O", "zz"] {
            assert!(pos.parse_san_with(bad, SanMode::Tolerant).is_err());
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn pgn_reader_allocates_per_game_only() {
    let game = std::fs::read_to_string("testdata/pgn/annotated.pgn").unwrap();
    let db = game.repeat(20);
    let mut reader = PgnReader::new(db.as_bytes());
    let mut costs = Vec::new();
    loop {
        let mut done = false;
        costs.push(allocations_during(|| match reader.next() {
            Some(g) => drop(g.unwrap()),
            None => done = true,
        }));
        if done {
            break;
        }
    }
    assert_eq!(costs.len(), 61);
    // After the first round (the reader's buffers grow to the largest game), each game costs
    // what the same game cost before.
    for k in 6..60 {
        assert_eq!(costs[k], costs[k - 3], "game {k}: {costs:?}");
    }
    assert_eq!(costs[60], 0, "{costs:?}");
}
