//! The README's Rust snippet is examples/quickstart.rs (tests/consumers/readme_snippets.py
//! checks that the two agree): it runs here.

#[path = "../examples/quickstart.rs"]
mod quickstart;

#[test]
fn readme_rust_snippet_runs() {
    quickstart::main().unwrap();
}
