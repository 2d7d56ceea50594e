//! The committed C header must equal what build.rs generates from the current source.
//! Refresh it with `CHESSCORE_WRITE_HEADER=1 cargo build` and commit.

#[test]
fn committed_header_matches_fresh_generation() {
    let fresh = include_str!(concat!(env!("OUT_DIR"), "/chesscore.h"));
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/chesscore.h"))
            .expect("include/chesscore.h is committed");
    assert!(
        fresh == committed,
        "include/chesscore.h is out of date: run `CHESSCORE_WRITE_HEADER=1 cargo build` and commit"
    );
    assert!(fresh.contains("ChessStatus chess_setFromFEN(ChessPosition *pos, const char *fen);"));
}
