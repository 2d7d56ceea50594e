//! The `chesscore` binary as a Unix tool: exit statuses, where its messages go, a closed
//! output pipe, non-UTF-8 arguments, the perft counts it prints, the search benchmark, and
//! UCI on stdin and stdout when it has no arguments.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
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
    // FEN as puzzle collections write it (read leniently): Kiwipete with "0 0" and two
    // spaces, position 3 without counters (CPW's counts).
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R  w KQkq - 0 0";
    assert_eq!(nodes_searched(&assert_ok(&["perft", kiwipete, "3"])), 97862);
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w";
    assert_eq!(nodes_searched(&assert_ok(&["perft", fen, "3"])), 2812);
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
fn perftbench_takes_full_and_a_depth() {
    let out = assert_ok(&["perftbench", "2"]);
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
    let full = assert_ok(&["perftbench", "--full", "1"]);
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
        &["perftbench", "--help"],
        &["perftbench", "-h", "3"],
    ] {
        let out = assert_ok(args);
        assert!(
            out.starts_with("usage:") || out.contains("\nusage:"),
            "{args:?}: {out}"
        );
    }
    assert!(assert_ok(&["perft", "--help"]).contains("--threads N"));
    assert!(assert_ok(&["perftbench", "--help"]).contains("--full"));
    let bench_help = assert_ok(&["bench", "--help"]);
    let default = chesscore::uci::bench::DEFAULT_DEPTH;
    assert!(
        bench_help.contains(&format!("(default {default})")),
        "{bench_help}"
    );
    assert!(assert_ok(&["--help"]).contains("UCI"));
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    assert_usage_error(&["frobnicate"], "unknown command 'frobnicate'");
    assert_usage_error(&["uci"], "unknown command 'uci'");
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
    assert_usage_error(&["perftbench", "--bogus"], "unknown option '--bogus'");
    assert_usage_error(&["perftbench", "3", "4"], "unexpected argument '4'");
    assert_usage_error(&["perftbench", "three"], "DEPTH must be");
    assert_usage_error(
        &["perftbench", "--threads", "2"],
        "unknown option '--threads'",
    );
    assert_usage_error(&["bench", "--bogus"], "unknown option '--bogus'");
    assert_usage_error(&["bench", "--full"], "unknown option '--full'");
    assert_usage_error(&["bench", "3", "4"], "unexpected argument '4'");
    for depth in ["three", "0", "128", "-1", ""] {
        assert_usage_error(
            &["bench", depth],
            "DEPTH must be a whole number from 1 to 127",
        );
    }
}

#[test]
fn non_utf8_argument_exits_2() {
    let bad = OsStr::from_bytes(b"start\xffpos").to_owned();
    for args in [
        vec![OsString::from("perft"), bad.clone(), OsString::from("3")],
        vec![bad.clone()],
        vec![OsString::from("bench"), bad.clone()],
        vec![OsString::from("perftbench"), bad],
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

/// `chesscore perftbench 4 | head -1`: perftbench writes a line as each position finishes, so
/// the Kiwipete line and the total are written after the reader has gone.
#[test]
fn closed_pipe_after_first_line_is_quiet_success() {
    let mut child = chesscore()
        .args(["perftbench", "4"])
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
    assert_quiet_success(child, "perftbench 4 | head -1");
}

/// The same without a race: stdout is a socket whose peer is closed before the program
/// starts, so its first write must fail with EPIPE.
#[test]
fn closed_output_before_start_is_quiet_success() {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    for args in [
        &["perft", "startpos", "3"][..],
        &["perftbench", "1"],
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
    // The search benchmark too (its progress lines go to stderr).
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    let out = chesscore()
        .args(["bench", "1"])
        .stdout(OwnedFd::from(theirs))
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.lines().all(|l| l.starts_with("position ")), "{err}");
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

/// The search benchmark: totals on stdout, a line per position on stderr, and the same node
/// count on every run.
#[test]
fn bench_is_deterministic() {
    let mut counts = Vec::new();
    for _ in 0..2 {
        let out = run(&["bench", "4"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{stdout}");
        assert!(lines[0].starts_with("Total time (ms): "), "{stdout}");
        assert!(lines[2].starts_with("Nodes/second: "), "{stdout}");
        let progress = text(&out.stderr);
        let count = chesscore::uci::bench::BENCH_POSITIONS.len();
        assert_eq!(progress.lines().count(), count, "{progress}");
        assert!(progress
            .lines()
            .all(|l| l.starts_with("position ") && l.contains(&format!("/{count}: bestmove "))));
        counts.push(nodes_searched(stdout));
    }
    assert_eq!(counts[0], counts[1]);
    assert_eq!(
        counts[0],
        chesscore::uci::bench::bench(4).0,
        "the library agrees"
    );
}

/// A UCI process: the lines it writes, read on a thread.
struct UciProcess {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl UciProcess {
    fn start() -> UciProcess {
        let mut child = chesscore()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        UciProcess {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no '{prefix}' line ({e}): {out:?}"));
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Closes stdin and waits: status 0, empty stderr; returns the remaining lines.
    fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        assert_quiet_success(self.child, "chesscore (UCI)");
        self.lines.iter().collect()
    }
}

#[test]
fn no_arguments_speaks_uci() {
    let mut p = UciProcess::start();
    p.send("uci");
    let lines = p.until("uciok");
    assert!(lines[0].starts_with("id name chesscore "), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    p.send("isready");
    assert_eq!(p.until("readyok"), ["readyok"]);
    p.send("position startpos moves e2e4 e7e5");
    p.send("go depth 5");
    let lines = p.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    p.send("nonsense");
    assert_eq!(
        p.until("info string"),
        ["info string unknown command 'nonsense'"]
    );
    p.send("go infinite");
    p.send("isready");
    p.until("readyok");
    p.send("stop");
    p.until("bestmove");
    p.send("quit");
    assert_eq!(p.finish(), Vec::<String>::new());
}

/// The end of input acts as `quit`: a running search is stopped and answers.
#[test]
fn end_of_input_stops_the_search() {
    let mut p = UciProcess::start();
    p.send("go infinite");
    p.until("info depth 1 ");
    let rest = p.finish();
    assert!(rest.last().unwrap().starts_with("bestmove "), "{rest:?}");
}

/// UCI into a closed output: a quiet exit 0; into a full disk: one message and status 1.
#[test]
fn uci_output_errors() {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    let mut child = chesscore()
        .stdin(Stdio::piped())
        .stdout(OwnedFd::from(theirs))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Never closed by us: the program must end by itself once the write fails.
    let _ = stdin.write_all(b"uci\n");
    let _ = stdin.flush();
    assert_quiet_success(child, "chesscore (UCI) into a closed socket");
    drop(stdin);

    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let mut child = chesscore()
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"isready\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("chesscore: error writing to stdout: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

// ------------------------------------------------------------------------------------------
// chesscore dice
// ------------------------------------------------------------------------------------------

/// Runs `chesscore ARGS` with `input` on stdin.
fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = chesscore()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn dice_selfplay_is_seeded_pgn_that_verifies() {
    for rules in ["two-dice", "one-die", "three-dice"] {
        let args = [
            "dice", "selfplay", "--rules", rules, "--games", "3", "--seed", "42",
        ];
        let pgn = assert_ok(&args);
        // The same seed gives the same games; another seed other games.
        assert_eq!(assert_ok(&args), pgn, "{rules}");
        let mut other = args;
        other[7] = "43";
        assert_ne!(assert_ok(&other), pgn, "{rules}");
        assert_eq!(pgn.matches("[Event ").count(), 3);
        assert!(pgn.contains(&format!("[Variant \"{rules}\"]")), "{pgn}");
        assert!(pgn.contains("[Seed \"42\"]") && pgn.contains("[Seed \"44\"]"));
        assert!(pgn.contains("{roll "), "{pgn}");
        // Read back from a file and from stdin.
        let dir = std::env::temp_dir().join(format!("chesscore-dice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{rules}.pgn"));
        std::fs::write(&file, &pgn).unwrap();
        let out = assert_ok(&["dice", "selfplay", "--verify", file.to_str().unwrap()]);
        assert!(out.ends_with("3 game(s) verified\n"), "{out}");
        assert_eq!(out.matches(": verified").count(), 3, "{out}");
        let out = run_with_input(&["dice", "selfplay", "--verify", "-"], &pgn);
        assert!(out.status.success(), "{}", text(&out.stderr));
        // A move changed to one the roll does not allow is caught.
        let first_roll = pgn.find("{roll ").unwrap();
        let after = &pgn[first_roll..];
        let close = after.find('}').unwrap();
        let mv_start = first_roll + close + 2;
        let mv: String = pgn[mv_start..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        if mv != "--" {
            let tampered = format!("{}a1a1{}", &pgn[..mv_start], &pgn[mv_start + mv.len()..]);
            std::fs::write(&file, tampered).unwrap();
            assert_usage_error(
                &["dice", "selfplay", "--verify", file.to_str().unwrap()],
                "'a1a1' is not a move the roll allows",
            );
        }
        // A result that the final position does not give is caught.
        let wrong = if pgn.contains("[Result \"1-0\"]") {
            pgn.replacen("1-0", "0-1", 2)
        } else {
            pgn.replacen("0-1", "1-0", 2)
        };
        std::fs::write(&file, wrong).unwrap();
        let out = run(&["dice", "selfplay", "--verify", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{rules}: {}", text(&out.stdout));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn dice_play_answers_bad_input_with_a_reason() {
    // Seed 5: White rolls knight and bishop first (see the seeded dice).
    let out = run_with_input(
        &["dice", "--seed", "5", "--rules", "two-dice"],
        "e2e4\nxx\ne3e4\nmoves\ng1f3\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert!(stdout.contains("White rolls 2-3 (N B)"), "{stdout}");
    assert!(
        stdout.contains("illegal: the dice 2-3 (N B) do not move a pawn"),
        "{stdout}"
    );
    assert!(
        stdout.contains("illegal: 'xx' is not a move in UCI form"),
        "{stdout}"
    );
    assert!(
        stdout.contains("illegal: you have no piece on e3"),
        "{stdout}"
    );
    assert!(stdout.contains("b1a3 b1c3 g1f3 g1h3"), "{stdout}");
    assert!(stdout.contains("3 . . . . . N . ."), "{stdout}");
    assert!(stdout.contains("Black plays "), "{stdout}");
    // The win chances for the human before every roll (issue 30): three whole percentages
    // that add up to 100 give or take rounding.
    let chances: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("chances for you (White): win "))
        .collect();
    assert!(chances.len() >= 2, "{stdout}");
    for l in chances {
        let pct: Vec<i32> = l
            .split_whitespace()
            .filter_map(|w| w.strip_suffix('%')?.parse().ok())
            .collect();
        assert_eq!(pct.len(), 3, "{l}");
        assert!((98..=102).contains(&pct.iter().sum::<i32>()), "{l}");
    }
    // The end of input ends the game quietly. (Seeded: unseeded dice may give White a roll
    // with no move, "B R Q" in three dice, and the turn passes.)
    for rules in ["one-die", "three-dice"] {
        let out = run_with_input(
            &[
                "dice",
                "--seed",
                "3",
                "--rules",
                rules,
                "--color",
                "black",
                "--opponent",
                "greedy",
            ],
            "",
        );
        assert!(out.status.success(), "{rules}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("White plays "), "{rules}");
    }
}

#[test]
fn dice_play_with_the_cube() {
    // Seed 5: White (the human) doubles before the first roll, the engine takes (an even
    // start is far above its take point); the cube is then Black's, so White is not asked
    // again before its next roll. A word that is not an answer is refused with a reason.
    let out = run_with_input(
        &["dice", "--seed", "5", "--rules", "two-dice", "--cube"],
        "redouble\ndouble\ng1f3\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("'redouble': type double, or Enter to roll"),
        "{stdout}"
    );
    assert!(stdout.contains("White doubles to 2"), "{stdout}");
    assert!(stdout.contains("Black takes: the stake is 2"), "{stdout}");
    assert_eq!(
        stdout.matches("double, or Enter to roll:").count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("White rolls 1-5 (P Q)"), "{stdout}");
    // Without --cube nobody is asked.
    let out = run_with_input(&["dice", "--seed", "5"], "quit\n");
    assert!(!text(&out.stdout).contains("Enter to roll"));
}

#[test]
fn dice_help_and_bad_arguments() {
    let help = assert_ok(&["dice", "--help"]);
    assert!(help.starts_with("usage: chesscore dice"), "{help}");
    assert!(assert_ok(&["dice", "selfplay", "--help"]).starts_with("usage: chesscore dice"));
    assert!(assert_ok(&["--help"]).contains("chesscore dice"));
    for (args, needle) in [
        (&["dice", "--rules", "four-dice"][..], "--rules must be"),
        (&["dice", "--rules"], "option '--rules' needs a value"),
        (
            &["dice", "--color", "red"],
            "--color must be white or black",
        ),
        (
            &["dice", "--opponent", "stockfish"],
            "--opponent must be engine, engine:CONFIG, expectimax, heuristic, random or greedy",
        ),
        (
            &["dice", "match", "--a", "engine:nope"],
            "--a must be engine, engine:CONFIG",
        ),
        (&["dice", "--seed", "-1"], "--seed needs a whole number"),
        (&["dice", "--games", "2"], "unknown option '--games'"),
        (&["dice", "extra"], "unexpected argument 'extra'"),
        (
            &["dice", "selfplay", "--games", "0"],
            "--games needs a whole number",
        ),
        (
            &["dice", "selfplay", "--white", "human"],
            "--white must be random or greedy",
        ),
        (
            &["dice", "selfplay", "--max-turns", "x"],
            "--max-turns needs a whole number",
        ),
        (
            &["dice", "selfplay", "--color", "white"],
            "unknown option '--color'",
        ),
        (
            &["dice", "selfplay", "--verify", "/nonexistent/x.pgn"],
            "cannot read",
        ),
        (&["dice", "match", "--tc", "0"], "--tc needs BASE+INC"),
        (&["dice", "match", "--tc", "0+1"], "--tc needs BASE+INC"),
        (&["dice", "match", "--tc", "1+-1"], "--tc needs BASE+INC"),
        (&["dice", "match", "--tc", "-1"], "--tc needs BASE+INC"),
        (&["dice", "match", "--tc", "1.0001"], "--tc needs BASE+INC"),
        (
            &["dice", "match", "--tc", "2+0.05+1"],
            "--tc needs BASE+INC",
        ),
        (&["dice", "match", "--tc", "1e3"], "--tc needs BASE+INC"),
        (&["dice", "match", "--tc", "."], "--tc needs BASE+INC"),
        (
            &["dice", "match", "--tc", "86400.001"],
            "--tc needs BASE+INC",
        ),
        (
            &["dice", "match", "--tc", "1+3600.001"],
            "--tc needs BASE+INC",
        ),
        (&["dice", "match", "--tc"], "option '--tc' needs a value"),
        (
            &["dice", "match", "--tc", "2+0.05", "--movetime", "100"],
            "--tc and --movetime exclude each other",
        ),
        (&["dice", "--tc", "2+0.05"], "unknown option '--tc'"),
        (&["dice", "match", "--a", "greedy/old-clock"], "--a must be"),
    ] {
        assert_usage_error(args, needle);
    }
}

/// `dice match --tc`: a clock per side, named in the header (seconds, as given to the
/// millisecond), and the tally's lines on time. The built-in players take no time to speak
/// of, so no game is lost on time on a minute's clock.
#[test]
fn dice_match_on_a_clock() {
    for tc in ["60", "60+.5", "60.000+0.5"] {
        let out = run(&[
            "dice",
            "match",
            "--rules",
            "three-dice",
            "--a",
            "random",
            "--b",
            "greedy",
            "--tc",
            tc,
            "--games",
            "2",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let clock = if tc == "60" {
            "clock 60+0 s"
        } else {
            "clock 60+0.5 s"
        };
        assert!(
            stdout.lines().next().unwrap_or("").contains(clock),
            "{stdout}"
        );
        assert!(stdout.contains("\ntime losses: 0 (A 0, B 0)\n"), "{stdout}");
        assert!(stdout.contains("\ntime a game: A "), "{stdout}");
        assert!(stdout.contains("\ntime a game: B "), "{stdout}");
    }
}

#[test]
fn dice_selfplay_closed_output_is_quiet_success() {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    let child = chesscore()
        .args(["dice", "selfplay", "--games", "50"])
        .stdout(OwnedFd::from(theirs))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert_quiet_success(child, "dice selfplay --games 50 > closed socket");
}

/// `dice match` between two configurations of the engine: `engine:CONFIG` names one of the
/// search's configurations, and the tally names both players.
/// `dice match --cube`: players that do not search never double, so the games are the
/// same as without the cube (same dice, same players) and the points are wins minus losses;
/// with engines the stakes follow the doubles (each doubles the stake, a pass keeps the
/// stake before it), each game's points are its stake won or lost, and the tally's total,
/// doubles and passes are the sums of the games'.
#[test]
fn dice_match_with_the_cube() {
    let base = [
        "dice", "match", "--rules", "one-die", "--a", "random", "--b", "greedy", "--games", "6",
        "--seed", "11",
    ];
    let plain = run(&base);
    let cubed = run(&[&base[..], &["--cube"]].concat());
    assert!(plain.status.success() && cubed.status.success());
    let results = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(|l| l.split(", stake").next().unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(results(&plain), results(&cubed));
    let out = text(&cubed.stdout);
    let tally = out.lines().find(|l| l.starts_with("result ")).unwrap();
    let count = |key: &str| -> i64 {
        let rest = &tally[tally.find(key).unwrap() + key.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (w, l) = (count(" W "), count(" L "));
    assert!(
        out.contains(&format!("points {:+} for A in 6 games", w - l)),
        "{out}"
    );
    assert!(
        out.contains("doubles 0, passes 0, mean final stake 1.00"),
        "{out}"
    );

    for rules in ["one-die", "two-dice"] {
        let o = run(&[
            "dice",
            "match",
            "--rules",
            rules,
            "--a",
            "engine",
            "--b",
            "engine:plain",
            "--depth",
            "1",
            "--games",
            "12",
            "--seed",
            "5",
            "--cube",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
        let field = |line: &str, key: &str| -> i64 {
            let rest =
                &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
            let n = rest.split([',', ' ']).next().unwrap();
            n.trim_start_matches('+').parse().unwrap()
        };
        let (mut total, mut doubles, mut passes) = (0, 0, 0);
        for line in stderr.lines().filter(|l| l.starts_with("game ")) {
            let (stake, d) = (field(line, "stake "), field(line, "doubles "));
            assert_eq!(stake, 1 << d, "{line}");
            doubles += d;
            passes += i64::from(line.contains("a double passed"));
        }
        for line in stdout.lines().filter(|l| l.starts_with("game ")) {
            let (stake, points) = (field(line, "stake "), field(line, "points "));
            let want = if line.contains("1-0 for A") {
                stake
            } else if line.contains("0-1 for A") {
                -stake
            } else {
                0
            };
            assert_eq!(points, want, "{line}");
            total += points;
        }
        assert!(doubles > 0, "{rules}: engines that never double\n{stderr}");
        let last = stdout.lines().find(|l| l.starts_with("cube ")).unwrap();
        assert!(
            last.contains(&format!("points {total:+} for A in 12 games"))
                && last.contains(&format!("doubles {doubles}, passes {passes},")),
            "{last}"
        );
    }
}

#[test]
fn dice_match_between_engine_configurations() {
    let out = run(&[
        "dice",
        "match",
        "--rules",
        "one-die",
        "--a",
        "engine:all-exact",
        "--b",
        "engine:plain",
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("result all-exact vs plain (one-die): ") && last.contains(" of 2,"),
        "{stdout}"
    );
}

/// `dice match` with a fixed depth per player: `engine:CONFIG/dN` searches to depth N every
/// move whatever `--movetime`. Two exact configurations at the same depth choose the same
/// moves (they return plain expectimax's value and move), so each pair of games (the same
/// dice, colours swapped) is won by the same colour: A scores exactly half.
#[test]
fn dice_match_with_a_fixed_depth_per_player() {
    let out = run(&[
        "dice",
        "match",
        "--rules",
        "one-die",
        "--a",
        "engine:plain/d2",
        "--b",
        "engine:all-exact/d2",
        "--movetime",
        "1",
        "--games",
        "6",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("result plain/d2 vs all-exact/d2 (one-die): ") && last.contains(" of 6,"),
        "{stdout}"
    );
    let wins = last.split(" W ").nth(1).and_then(|t| t.split(' ').next());
    let losses = last.split(" L ").nth(1).and_then(|t| t.split(' ').next());
    assert_eq!(wins, losses, "{stdout}");
    for bad in ["engine/d0", "greedy/d2", "engine/d", "engine/d65"] {
        let out = run(&["dice", "match", "--a", bad]);
        assert!(!out.status.success(), "{bad}");
        assert!(text(&out.stderr).contains("--a must be engine"), "{bad}");
    }
}

/// `dice match` with threads: `engine@N` (and `engine:CONFIG@N`) names an engine on N
/// threads, `--threads` sets the others; bad thread counts are refused.
#[test]
fn dice_match_with_threads() {
    let out = run(&[
        "dice",
        "match",
        "--rules",
        "two-dice",
        "--a",
        "engine@2",
        "--b",
        "engine:star2-tt",
        "--threads",
        "2",
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("result engine@2 vs star2-tt (two-dice): ") && last.contains(" of 2,"),
        "{stdout}"
    );
    let help = assert_ok(&["dice", "--help"]);
    assert!(
        help.contains("--threads N") && help.contains("engine@N"),
        "{help}"
    );
    for (args, want) in [
        (
            &["dice", "match", "--a", "engine@0"][..],
            "--a must be engine",
        ),
        (&["dice", "match", "--b", "greedy@2"], "--b must be engine"),
        (
            &["dice", "match", "--a", "engine@257"],
            "--a must be engine",
        ),
        (
            &["dice", "--threads", "0"],
            "--threads needs a whole number from 1 to 256",
        ),
        (
            &["dice", "selfplay", "--threads", "2"],
            "unknown option '--threads'",
        ),
    ] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
