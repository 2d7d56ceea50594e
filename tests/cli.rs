//! The `chesscore` binary as a Unix tool: exit statuses, where its messages go, a closed
//! output pipe, non-UTF-8 arguments, and the perft counts it prints.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Output, Stdio};

fn chesscore() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chesscore"))
}

fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    chesscore().args(args).output().expect("chesscore runs")
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("output is UTF-8")
}

/// Asserts a usage error: status 2, nothing on stdout, one line on stderr containing `needle`
/// and pointing at `--help`.
fn assert_usage_error<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S], needle: &str) {
    let out = run(args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: stdout {:?}",
        text(&out.stdout)
    );
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one line expected: {err:?}"
    );
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(
        err.contains("--help"),
        "{args:?}: {err:?} has no usage hint"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// Asserts success with empty stderr and returns stdout.
fn assert_ok<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {:?} {}",
        out.status,
        text(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout).to_owned()
}

fn nodes_searched(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .unwrap_or_else(|| panic!("no node count in {stdout:?}"));
    line.parse().expect("node count is a number")
}

#[test]
fn perft_startpos_3_is_8902() {
    let out = assert_ok(&["perft", "startpos", "3"]);
    assert_eq!(nodes_searched(&out), 8902);
    assert!(out.lines().nth(1).unwrap().starts_with("Time: "), "{out}");
    assert!(out.contains("(bulk perft, 1 thread(s), "), "{out}");
}

#[test]
fn perft_options_keep_the_count() {
    let full = assert_ok(&["perft", "--full", "startpos", "3"]);
    assert_eq!(nodes_searched(&full), 8902);
    assert!(full.contains("(full perft, 1 thread(s), "), "{full}");
    // Options after operands, `--threads=N` and `--threads N`; Kiwipete 3 from the literature.
    for args in [
        &["perft", "kiwipete", "3", "--threads", "2"][..],
        &["perft", "--threads=2", "--full", "kiwipete", "3"],
    ] {
        let out = assert_ok(args);
        assert_eq!(nodes_searched(&out), 97862, "{args:?}");
        assert!(out.contains(" 2 thread(s), "), "{out}");
    }
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"; // position 3, depth 3: 2812
    assert_eq!(nodes_searched(&assert_ok(&["perft", fen, "3"])), 2812);
    assert_eq!(nodes_searched(&assert_ok(&["perft", "startpos", "0"])), 1);
}

#[test]
fn perft_divide_lists_root_moves() {
    let out = assert_ok(&["perft", "--divide", "startpos", "3"]);
    let mut lines = out.lines();
    let rows: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 20, "{out}");
    let sum: u64 = rows
        .iter()
        .map(|r| {
            let (m, n) = r.split_once(": ").expect("MOVE: COUNT");
            assert_eq!(m.len(), 4, "{r}");
            n.parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(sum, 8902);
    assert!(rows.contains(&"e2e4: 600"), "{out}");
    assert_eq!(nodes_searched(lines.next().unwrap()), 8902);
    assert!(lines.next().unwrap().starts_with("Time: "));
    assert_eq!(lines.next(), None);
}

#[test]
fn bench_takes_full_and_a_depth() {
    let out = assert_ok(&["bench", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("startpos  depth 2:         400 nodes"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("kiwipete  depth 2:        2039 nodes"),
        "{out}"
    );
    assert!(lines[2].starts_with("total: 2439 nodes "), "{out}");
    assert!(lines[2].ends_with("(bulk perft)"), "{out}");
    let full = assert_ok(&["bench", "--full", "1"]);
    assert!(full.contains("total: 68 nodes "), "{full}");
    assert!(full.ends_with("(full perft)\n"), "{full}");
}

#[test]
fn help_and_version_go_to_stdout() {
    let version = format!("chesscore {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(assert_ok(&["--version"]), version);
    assert_eq!(assert_ok(&["-V"]), version);
    for args in [
        &["--help"][..],
        &["-h"],
        &["perft", "--help"],
        &["perft", "-h", "startpos", "3"],
        &["bench", "--help"],
        &["bench", "-h"],
    ] {
        let out = assert_ok(args);
        assert!(
            out.starts_with("usage:") || out.contains("\nusage:"),
            "{args:?}: {out}"
        );
    }
    assert!(assert_ok(&["perft", "--help"]).contains("--threads N"));
    assert!(assert_ok(&["bench", "--help"]).contains("DEPTH"));
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let none: [&str; 0] = [];
    assert_usage_error(&none, "missing command");
    assert_usage_error(&["frobnicate"], "unknown command 'frobnicate'");
    assert_usage_error(&["--bogus"], "unknown option '--bogus'");
    assert_usage_error(&["perft"], "missing FEN and DEPTH");
    assert_usage_error(&["perft", "startpos"], "missing DEPTH");
    assert_usage_error(&["perft", "startpos", "3", "4"], "unexpected argument '4'");
    assert_usage_error(
        &["perft", "--bogus", "startpos", "3"],
        "unknown option '--bogus'",
    );
    assert_usage_error(&["perft", "-x", "startpos", "3"], "unknown option '-x'");
    assert_usage_error(&["perft", "--full=1", "startpos", "3"], "unknown option");
    for depth in ["x", "", "-1", "3.0", "257", "99999999999999999999"] {
        assert_usage_error(&["perft", "startpos", depth], "DEPTH must be");
    }
    assert_usage_error(&["perft", "startpos", "3", "--threads"], "needs a value");
    for threads in ["0", "x", "257", "-2"] {
        assert_usage_error(
            &["perft", "--threads", threads, "startpos", "3"],
            "--threads",
        );
    }
    assert_usage_error(&["perft", "--threads=", "startpos", "3"], "--threads");
    assert_usage_error(
        &["perft", "--divide", "--threads", "2", "startpos", "3"],
        "--divide",
    );
    assert_usage_error(&["perft", "nonsense", "3"], "invalid FEN");
    // An unquoted FEN is six arguments.
    assert_usage_error(
        &["perft", "8/8/8/8/8/8/8/K1k5", "w", "-", "-", "0", "1", "3"],
        "quote a FEN",
    );
    assert_usage_error(&["bench", "--bogus"], "unknown option '--bogus'");
    assert_usage_error(&["bench", "3", "4"], "unexpected argument '4'");
    assert_usage_error(&["bench", "three"], "DEPTH must be");
    assert_usage_error(&["bench", "--threads", "2"], "unknown option '--threads'");
}

#[test]
fn non_utf8_argument_exits_2() {
    let bad = OsStr::from_bytes(b"start\xffpos").to_owned();
    for args in [
        vec![OsString::from("perft"), bad.clone(), OsString::from("3")],
        vec![bad.clone()],
        vec![OsString::from("bench"), bad],
    ] {
        assert_usage_error(&args, "not valid UTF-8");
    }
}

/// Waits for `child` and asserts the quiet end a closed pipe must give: status 0, no stderr.
fn assert_quiet_success(mut child: std::process::Child, what: &str) {
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{what}: {status:?}, stderr {err:?}");
    assert!(err.is_empty(), "{what}: stderr {err:?}");
}

/// `chesscore perft --divide kiwipete 4 | true`: the reader is gone before the first write.
#[test]
fn closed_pipe_before_any_output_is_quiet_success() {
    let mut child = chesscore()
        .args(["perft", "--divide", "kiwipete", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_quiet_success(child, "perft --divide kiwipete 4 | true");
}

/// `chesscore bench 4 | head -1`: bench writes a line as each position finishes, so the
/// Kiwipete line and the total are written after the reader has gone.
#[test]
fn closed_pipe_after_first_line_is_quiet_success() {
    let mut child = chesscore()
        .args(["bench", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8];
    while first.last() != Some(&b'\n') {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "{first:?}");
        first.push(byte[0]);
    }
    drop(stdout);
    assert!(text(&first).starts_with("startpos  depth 4:      197281 nodes"));
    assert_quiet_success(child, "bench 4 | head -1");
}

/// The same without a race: stdout is a socket whose peer is closed before the program
/// starts, so its first write must fail with EPIPE.
#[test]
fn closed_output_before_start_is_quiet_success() {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    for args in [
        &["perft", "startpos", "3"][..],
        &["bench", "1"],
        &["--help"],
    ] {
        let (ours, theirs) = UnixStream::pair().unwrap();
        drop(ours);
        let child = chesscore()
            .args(args)
            .stdout(OwnedFd::from(theirs))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert_quiet_success(child, &format!("{args:?} into a closed socket"));
    }
}

/// Any other write error is reported, with status 1.
#[test]
fn full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let out = chesscore()
        .args(["perft", "startpos", "1"])
        .stdout(full)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("chesscore: error writing to stdout: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A closed stderr does not turn a usage error into a panic.
#[test]
fn usage_error_with_closed_stderr_still_exits_2() {
    let mut child = chesscore()
        .arg("--bogus")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));
}
