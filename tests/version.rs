//! The version is in one place: `Cargo.toml`'s `[package] version`. This test fails when a
//! file that carries it disagrees (docs/release.md): the places that derive it are checked to
//! still derive it, the places that must hold it as text (npm's package.json, the Python
//! module's `__version__`, the Python extension crate) are checked to hold the same text.
//! `scripts/set-version X.Y.Z` rewrites them all.

use std::path::Path;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The text between the first `"` after `key` on the first line that starts with `key`.
fn quoted_after(text: &str, key: &str) -> Option<String> {
    let line = text.lines().find(|l| l.trim_start().starts_with(key))?;
    let rest = &line[line.find(key)? + key.len()..];
    let start = rest.find('"')? + 1;
    let len = rest[start..].find('"')?;
    Some(rest[start..start + len].to_string())
}

#[test]
fn cmake_reads_the_package_version() {
    // CMakeLists.txt takes the first line of Cargo.toml matching ^version = "X.Y.Z": it must be
    // [package]'s, that is the first `version =` line at all.
    let cmake = read("CMakeLists.txt");
    assert!(cmake.contains(r#"REGEX "^version = \"[0-9]+\\.[0-9]+\\.[0-9]+\"" LIMIT_COUNT 1"#));
    assert!(cmake.contains("project(chesscore VERSION ${chesscore_version}"));
    let cargo = read("Cargo.toml");
    let first = cargo.lines().find(|l| l.starts_with("version = ")).unwrap();
    assert_eq!(first, format!("version = \"{VERSION}\""));
    let package = cargo.find("[package]").unwrap();
    assert!(package < cargo.find(first).unwrap());
    assert!(
        cargo[..cargo.find(first).unwrap()].matches('[').count() == 1,
        "not in [package]"
    );
}

#[test]
fn header_carries_the_package_version() {
    // build.rs writes it; scripts/test-all checks that the committed header is fresh.
    let header = read("include/chesscore.h");
    assert_eq!(
        quoted_after(&header, "#define CHESSCORE_VERSION_STRING").as_deref(),
        Some(VERSION)
    );
    let mut parts = VERSION.split('.');
    for name in ["MAJOR", "MINOR", "PATCH"] {
        let want = format!("#define CHESSCORE_VERSION_{name} {}", parts.next().unwrap());
        assert!(header.lines().any(|l| l == want), "header lacks {want}");
    }
}

#[test]
fn wasm_package_json_has_the_version() {
    let json = read("wasm/package.json");
    assert_eq!(
        quoted_after(&json, "\"version\":").as_deref(),
        Some(VERSION)
    );
}

#[test]
fn python_package_derives_or_has_the_version() {
    // pyproject.toml: dynamic, from setup.py, which reads ../Cargo.toml (or an sdist's PKG-INFO).
    let pyproject = read("python/pyproject.toml");
    assert!(pyproject
        .lines()
        .any(|l| l.starts_with(r#"dynamic = ["version"]"#)));
    assert!(!pyproject
        .lines()
        .any(|l| l.trim_start().starts_with("version")));
    let setup = read("python/setup.py");
    assert!(setup.contains("version=package_version()"));
    let init = read("python/chesscore/__init__.py");
    assert_eq!(
        quoted_after(&init, "__version__ =").as_deref(),
        Some(VERSION)
    );
    let rust = read("python/rust/Cargo.toml");
    assert_eq!(quoted_after(&rust, "version =").as_deref(), Some(VERSION));
}

#[test]
fn changelog_has_an_unreleased_section_and_no_future_version() {
    let changelog = read("CHANGELOG.md");
    assert!(changelog.contains("## [Unreleased]"));
    // The newest released version is at most this one (scripts/set-version bumps before).
    let released: Vec<&str> = changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .filter_map(|l| l.split(']').next())
        .filter(|v| *v != "Unreleased")
        .collect();
    let parse = |v: &str| -> Vec<u32> { v.split('.').map(|p| p.parse().unwrap()).collect() };
    for v in released {
        assert!(
            parse(v) <= parse(VERSION),
            "CHANGELOG has {v}, newer than {VERSION}"
        );
    }
}
