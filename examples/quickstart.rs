//! The README's Rust snippet ("Use it from C, C++, Python and Rust"): `cargo run --example
//! quickstart`; tests/readme_quickstart.rs runs it under `cargo test`.

use chesscore::search::{Engine, Limits};
use chesscore::{GenType, Legality, MoveList, PieceType, Position};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")?;
    let moves = pos.legal_moves(); // MoveList: fixed 256 entries, no heap
    assert_eq!(moves.len(), 48);
    let m = pos.parse_uci_move("e2a6")?;
    let undo = pos.make_move_unchecked(m); // unchecked: for generated moves
    pos.unmake_move_unchecked(m, &undo);
    let undo = pos.try_make_move(m)?; // checked: any value, refused if illegal
    pos.try_unmake_move(m, &undo)?;

    // A Dice Chess roll of "knight", captures only: generated directly, not filtered.
    let mut list = MoveList::new();
    pos.generate_moves(
        Legality::Legal,
        GenType::Captures,
        PieceType::KNIGHT.mask_bit(),
        &mut list,
    );
    assert_eq!(pos.perft(3), 97862);

    let mut engine = Engine::new(); // 16 MiB hash, one thread
    engine.set_option("Hash", "32").map_err(|e| e.message())?;
    let limits = Limits {
        depth: 6,
        ..Limits::default()
    };
    let result = engine.search(&pos, &limits, &mut |info| println!("depth {}", info.depth));
    println!("bestmove {}", result.best_move.expect("a legal move"));
    Ok(())
}
