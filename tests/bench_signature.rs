//! `chesscore bench`'s node count at its default depth equals the pinned
//! `chesscore::uci::bench::SIGNATURE`: the check engines use to say "no functional change".
//! A search or evaluation change that alters it must update the number on purpose (with the
//! match that justifies the change). Too slow with debug assertions (every make is checked),
//! so it runs in release builds: `cargo test --release --test bench_signature`, which
//! `scripts/test-all` runs.

use chesscore::uci::bench::{bench, DEFAULT_DEPTH, SIGNATURE};

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo test --release --test bench_signature"
)]
fn bench_node_count_is_the_pinned_signature() {
    let (nodes, _) = bench(DEFAULT_DEPTH);
    assert_eq!(
        nodes, SIGNATURE,
        "chesscore bench gives {nodes} nodes, the pinned signature is {SIGNATURE}: a change \
         altered what the search does; if that is meant, update SIGNATURE in \
         src/uci/bench.rs with the match that shows it gains"
    );
}
