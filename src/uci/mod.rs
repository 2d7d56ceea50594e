//! The UCI protocol as a library module: [`Uci`] reads one command line at a time
//! ([`Uci::handle_line`]) and writes its answers to a shared writer, so tests drive it without
//! a process and the binary (`chesscore` with no arguments) drives it from stdin and stdout
//! ([`Uci::run`]).
//!
//! # Threads
//!
//! The input side (the caller of [`Uci::handle_line`]) never blocks on a search. The
//! [`Engine`] lives on a worker thread (64 MiB of stack: the search recurses once per ply,
//! up to [`MAX_PLY`]) that runs the commands needing it in the order they arrived: `go`,
//! `setoption`, `ucinewgame`, and `isready` when no search is running or queued. While a
//! search runs, the input side keeps reading: `stop`, `ponderhit`, `isready` (answered at
//! once), `position`, `d`, `eval`, `uci` and `quit` act immediately.
//!
//! Decisions where the protocol leaves room:
//!
//! - `setoption`, `ucinewgame` and `go` sent while a search runs are *queued*: they run, in
//!   order, when the search has ended (for `go infinite` or `go ponder`, after `stop` or
//!   `ponderhit`). Each `go` gets exactly one `bestmove`. `stop` ends every search started or
//!   queued before it: a queued one then runs to depth 1 only, so that it still answers with a
//!   legal move.
//! - `quit` (and the end of input, in [`Uci::run`]) stops the running search and the queued
//!   ones (each still prints its `bestmove`), lets the other queued commands finish and ends
//!   the worker thread.
//! - `position` never waits: it replaces the stored position, which a running search does not
//!   see (it searches its own copy).
//! - In `go infinite` and in `go ponder` (until `ponderhit`), `bestmove` waits for `stop` even
//!   when the search has ended by itself (a depth limit, a forced mate).
//! - Bad input is reported with `info string` and never ends the program or a search. An
//!   unknown word before a command is skipped, as the protocol asks (`joho isready` answers
//!   `readyok`). A malformed FEN leaves the previous position in place; an illegal or malformed
//!   move in `position ... moves` ends the list there: the position is the one reached before
//!   that move (as Stockfish does). A malformed number in `go` drops that limit and the search
//!   runs with the others; an illegal move after `searchmoves` is dropped from the list.
//! - Any length of game: when the position's history is full, it is compacted (only the
//!   entries a repetition can still reach are kept) and the move is made again.
//!
//! - `EvalFile` (a string option, default `<embedded>`): the path of a network file
//!   (docs/nnue.md) to evaluate with; `<hand>` or an empty value selects the hand-written
//!   evaluation, `<embedded>` the network built into the library. The outcome is reported with
//!   `info string`; a file that cannot be read or is refused leaves the evaluation as it was.
//! - Chess960: the check option `UCI_Chess960` (default false) is the front end's own (the
//!   engine searches any position alike). It takes effect at once, for the `position` commands
//!   after it: with it, `position fen` reads X-FEN and Shredder-FEN castling fields,
//!   `position startpos` is the standard start in Chess960 mode, and castling is read and
//!   written (moves, `bestmove`, `ponder`, `pv`) as the king taking its own rook (`e1h1`); `d`
//!   prints X-FEN.
//!
//! Non-standard commands: `d` prints the board, the FEN and the hash key; `eval` prints the
//! static evaluation.

pub mod bench;

use crate::eval::nnue::Network;
use crate::eval::Evaluator;
use crate::position::{MoveError, Position};
use crate::search::{
    Engine, Limits, OptionKind, Score, ScoreBound, SearchInfo, SearchResult, StopHandle, MAX_PLY,
    OPTIONS,
};
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Stack of the thread that runs the search (the main search thread recurses once per ply).
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("chesscore ", env!("CARGO_PKG_VERSION"));
/// The engine's author in `id author`.
pub const ENGINE_AUTHOR: &str = "the chesscore authors";

/// What the caller of [`Uci::handle_line`] does next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// Read the next line.
    Continue,
    /// Stop reading: `quit` was read (the session has ended), or writing the output failed
    /// (end the session with [`Uci::quit`] or by dropping it).
    Quit,
}

/// Why [`Uci::run`] ended with an error.
#[derive(Debug)]
pub enum RunError {
    /// Writing the output failed (the first error).
    Output(io::Error),
    /// Reading the input failed.
    Input(io::Error),
}

/// Locks a mutex, ignoring poisoning (a panic elsewhere must not take the protocol down).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The output, shared by the input side and the worker: one line at a time, flushed.
struct Sink<W> {
    writer: Arc<Mutex<W>>,
    error: Mutex<Option<io::Error>>,
}

impl<W: Write> Sink<W> {
    fn line(&self, text: &str) {
        let result = {
            let mut w = lock(&self.writer);
            w.write_all(text.as_bytes())
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
        };
        if let Err(e) = result {
            lock(&self.error).get_or_insert(e);
        }
    }

    fn failed(&self) -> bool {
        lock(&self.error).is_some()
    }
}

/// The search the worker is running.
#[derive(Copy, Clone, Debug)]
struct Running {
    ponder: bool,
    /// `Engine::search` has returned (the worker may be waiting for `stop` or `ponderhit`).
    returned: bool,
}

/// State shared by the input side and the worker, under one mutex.
struct State {
    /// Every search with an id up to this one is to stop (`stop`, `quit`).
    stop_upto: u64,
    /// Every pondering search with an id up to this one had its `ponderhit`.
    ponderhit_upto: u64,
    running: Option<Running>,
    /// Searches that have printed their `bestmove` (or were skipped at `quit`).
    searches_done: u64,
    jobs_sent: u64,
    jobs_done: u64,
    quitting: bool,
    /// The engine's stop handle (replaced when the engine is rebuilt after a panic).
    handle: StopHandle,
}

struct Shared<W> {
    out: Sink<W>,
    state: Mutex<State>,
    cond: Condvar,
}

/// Work for the engine's thread.
enum Job {
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    Ready,
    Go {
        id: u64,
        /// The position, or why there is none (then the answer is `bestmove 0000`).
        pos: Result<Box<Position>, String>,
        limits: Box<Limits>,
    },
}

/// The commands the input side recognises (used to skip unknown leading words).
const COMMANDS: [&str; 13] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "setoption",
    "debug",
    "register",
    "d",
    "eval",
];

/// The words that end a value in `go` (and the move list of `searchmoves`).
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// A UCI session: the current position, the engine's worker thread and the output.
pub struct Uci<W: Write + Send + 'static> {
    shared: Arc<Shared<W>>,
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    /// The position the next `go` searches, or why there is none: the last `position`
    /// command was refused, and searching any other position would answer with a move
    /// that is illegal on the GUI's board.
    pos: Result<Position, String>,
    evaluator: Evaluator,
    /// Id of the last `go` (ids start at 1).
    last_go: u64,
    /// The `UCI_Chess960` option.
    chess960: bool,
}

impl<W: Write + Send + 'static> core::fmt::Debug for Uci<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Uci")
            .field("position", &self.pos)
            .field("last_go", &self.last_go)
            .finish()
    }
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A session with a new [`Engine`] (16 MiB hash, one thread) writing to `out`, which the
    /// caller may keep a clone of to read what was written.
    ///
    /// # Panics
    /// When the engine's 16 MiB table cannot be allocated or the worker thread cannot be
    /// started.
    pub fn new(out: Arc<Mutex<W>>) -> Uci<W> {
        Self::with_engine(Engine::new(), out)
    }

    /// A session with the given engine (its options as they are).
    ///
    /// # Panics
    /// When the worker thread cannot be started.
    pub fn with_engine(engine: Engine, out: Arc<Mutex<W>>) -> Uci<W> {
        let shared = Arc::new(Shared {
            out: Sink {
                writer: out,
                error: Mutex::new(None),
            },
            state: Mutex::new(State {
                stop_upto: 0,
                ponderhit_upto: 0,
                running: None,
                searches_done: 0,
                jobs_sent: 0,
                jobs_done: 0,
                quitting: false,
                handle: engine.stop_handle(),
            }),
            cond: Condvar::new(),
        });
        let (tx, rx) = mpsc::channel();
        let worker_shared = shared.clone();
        let worker = std::thread::Builder::new()
            .name("chesscore-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || worker(engine, &worker_shared, &rx))
            .expect("the search thread starts");
        Uci {
            shared,
            jobs: Some(tx),
            worker: Some(worker),
            pos: Ok(Position::startpos()),
            evaluator: Evaluator::new(),
            last_go: 0,
            chess960: false,
        }
    }

    /// The position the next `go` searches; `None` after a refused `position` command,
    /// until a valid one arrives (`go` then answers `bestmove 0000`).
    pub fn position(&self) -> Option<&Position> {
        self.pos.as_ref().ok()
    }

    /// Reads lines from `input` until `quit`, the end of input (which acts as `quit`), a read
    /// error or a failed write, then stops the search and the worker.
    ///
    /// # Errors
    /// [`RunError::Output`] with the first error writing the output (a closed pipe is
    /// `BrokenPipe`), else [`RunError::Input`] when reading failed.
    pub fn run(&mut self, mut input: impl BufRead) -> Result<(), RunError> {
        let mut buf = Vec::new();
        let read_result = loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break Ok(()),
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    if self.handle_line(&line) == Control::Quit {
                        break Ok(());
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        self.quit();
        if let Some(e) = self.take_output_error() {
            return Err(RunError::Output(e));
        }
        read_result.map_err(RunError::Input)
    }

    /// The first error writing the output, if any (taken: asked again, it is `None`).
    pub fn take_output_error(&self) -> Option<io::Error> {
        lock(&self.shared.out.error).take()
    }

    /// Blocks until the worker has done every command sent so far (a queued `go` included).
    /// Do not call it while a `go infinite` or `go ponder` waits for `stop`: it would never
    /// return.
    pub fn wait_idle(&self) {
        let mut st = lock(&self.shared.state);
        while st.jobs_done < st.jobs_sent && self.worker.is_some() {
            st = self.shared.cond.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stops the running search and every queued one (each still prints its `bestmove`: a
    /// queued search runs to depth 1 only), lets the other queued commands run and ends the
    /// worker thread. Called by `quit`, at the end of [`Uci::run`] and on drop; idempotent.
    pub fn quit(&mut self) {
        let Some(worker) = self.worker.take() else {
            return;
        };
        {
            let mut st = lock(&self.shared.state);
            st.quitting = true;
            st.stop_upto = self.last_go;
            if st.running.is_some() {
                st.handle.stop();
            }
            self.shared.cond.notify_all();
        }
        self.jobs = None;
        let _ = worker.join();
        // Nothing runs any more: let `wait_idle` return.
        let mut st = lock(&self.shared.state);
        st.jobs_done = st.jobs_sent;
        self.shared.cond.notify_all();
    }

    fn say(&self, text: &str) {
        self.shared.out.line(text);
    }

    fn info_string(&self, text: &str) {
        self.say(&format!("info string {text}"));
    }

    fn send(&mut self, job: Job) {
        let sent = match &self.jobs {
            Some(tx) => {
                lock(&self.shared.state).jobs_sent += 1;
                tx.send(job).is_ok()
            }
            None => false,
        };
        if !sent {
            let mut st = lock(&self.shared.state);
            st.jobs_sent = st.jobs_done;
            drop(st);
            self.info_string("error: the engine thread has stopped");
        }
    }

    /// Handles one line of input (a trailing newline is fine). Never panics on bad input.
    pub fn handle_line(&mut self, line: &str) -> Control {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return self.control();
        }
        if !COMMANDS.contains(&words[0]) {
            self.info_string(&format!("unknown command '{}'", words[0].escape_debug()));
            // The protocol: ignore unknown words and try the rest of the line.
            match words.iter().position(|w| COMMANDS.contains(w)) {
                Some(i) => {
                    words.drain(..i);
                }
                None => return self.control(),
            }
        }
        let args = &words[1..];
        match words[0] {
            "uci" => self.cmd_uci(),
            "isready" => self.cmd_isready(),
            "ucinewgame" => {
                self.evaluator.clear();
                self.send(Job::NewGame);
            }
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => self.cmd_stop(),
            "ponderhit" => self.cmd_ponderhit(),
            "quit" => {
                self.quit();
                return Control::Quit;
            }
            "setoption" => self.cmd_setoption(args),
            "debug" | "register" => {}
            "d" => self.cmd_d(),
            "eval" => self.cmd_eval(),
            _ => unreachable!("every word of COMMANDS is handled"),
        }
        self.control()
    }

    fn control(&self) -> Control {
        if self.shared.out.failed() {
            Control::Quit
        } else {
            Control::Continue
        }
    }

    fn cmd_uci(&self) {
        let mut text = format!("id name {ENGINE_NAME}\nid author {ENGINE_AUTHOR}\n");
        for (name, kind) in OPTIONS {
            let _ = match kind {
                OptionKind::Spin { default, min, max } => writeln!(
                    text,
                    "option name {name} type spin default {default} min {min} max {max}"
                ),
                OptionKind::Check { default } => {
                    writeln!(text, "option name {name} type check default {default}")
                }
                OptionKind::Button => writeln!(text, "option name {name} type button"),
            };
        }
        text.push_str("option name UCI_Chess960 type check default false\n");
        text.push_str(if Network::embedded().is_some() {
            "option name EvalFile type string default <embedded>\n"
        } else {
            "option name EvalFile type string default <hand>\n"
        });
        text.push_str("uciok");
        self.say(&text);
    }

    fn cmd_isready(&mut self) {
        let searching = lock(&self.shared.state).searches_done < self.last_go;
        if searching || self.jobs.is_none() {
            // The protocol: answered at once, even while searching.
            self.say("readyok");
        } else {
            // After the commands before it (a hash resize, a new game) are done.
            self.send(Job::Ready);
        }
    }

    fn cmd_stop(&self) {
        let mut st = lock(&self.shared.state);
        st.stop_upto = self.last_go;
        if let Some(r) = st.running {
            if !r.returned {
                st.handle.stop();
            }
        }
        self.shared.cond.notify_all();
    }

    fn cmd_ponderhit(&self) {
        let mut st = lock(&self.shared.state);
        st.ponderhit_upto = self.last_go;
        if let Some(r) = st.running {
            if r.ponder && !r.returned {
                st.handle.ponderhit();
            }
        }
        self.shared.cond.notify_all();
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        let Some(("name", rest)) = args.split_first().map(|(w, r)| (*w, r)) else {
            self.info_string("setoption: expected 'setoption name NAME [value VALUE]'");
            return;
        };
        let split = rest.iter().position(|w| *w == "value");
        let (name, value) = match split {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        if name.is_empty() {
            self.info_string("setoption: missing option name");
            return;
        }
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            if value.eq_ignore_ascii_case("true") {
                self.chess960 = true;
            } else if value.eq_ignore_ascii_case("false") {
                self.chess960 = false;
            } else {
                self.info_string(&format!(
                    "error: setoption 'UCI_Chess960' value '{}': the value must be true or false",
                    value.escape_debug()
                ));
            }
            return;
        }
        self.send(Job::SetOption { name, value });
    }

    fn cmd_position(&mut self, args: &[&str]) {
        self.pos = self.parse_position(args).map_err(|why| {
            self.info_string(&format!(
                "position: {why} (no position until a valid 'position' command)"
            ));
            format!("the last 'position' command was refused: {why}")
        });
    }

    /// The position a `position` command names: the setup (`startpos`, or `fen` read by the
    /// lenient reader, as python-chess reads FEN) and every move after it. A command that
    /// cannot be followed to its end is refused whole, since the GUI's board is then not
    /// the one any part of it describes.
    fn parse_position(&self, args: &[&str]) -> Result<Position, String> {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match setup.split_first() {
            Some((&"startpos", [])) => {
                let mut p = Position::startpos();
                if self.chess960 {
                    // Always allowed: the standard setup is a Chess960 setup.
                    let _ = p.set_chess960(true);
                }
                p
            }
            Some((&"startpos", extra)) => {
                return Err(format!(
                    "unexpected '{}' after startpos",
                    extra.join(" ").escape_debug()
                ));
            }
            Some((&"fen", fields)) => {
                let fen = fields.join(" ");
                let parsed = if self.chess960 {
                    Position::from_fen_960(&fen).or_else(|_| {
                        // Some GUIs leave out the two clocks.
                        Position::from_fen_960(&format!("{fen} 0 1"))
                    })
                } else {
                    Position::from_fen_lenient(&fen)
                };
                parsed
                    .map_err(|e| format!("invalid FEN '{}': {}", fen.escape_debug(), e.message()))?
            }
            _ => return Err("expected 'position startpos|fen FEN [moves ...]'".to_owned()),
        };
        for (i, text) in moves.iter().enumerate() {
            play(&mut pos, text)
                .map_err(|why| format!("move {} '{}' {why}", i + 1, text.escape_debug()))?;
        }
        Ok(pos)
    }

    fn cmd_go(&mut self, args: &[&str]) {
        let mut limits = Limits::default();
        let mut it = args.iter().copied().peekable();
        while let Some(word) = it.next() {
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while let Some(&text) = it.peek() {
                        if GO_KEYWORDS.contains(&text) {
                            break;
                        }
                        it.next();
                        let Ok(pos) = &self.pos else {
                            continue;
                        };
                        match pos.parse_uci_move(text) {
                            Ok(m) if !limits.search_moves.contains(m) => {
                                limits.search_moves.push(m);
                            }
                            Ok(_) => {}
                            Err(e) => self.info_string(&format!(
                                "go searchmoves: '{}': {e} (dropped)",
                                text.escape_debug()
                            )),
                        }
                    }
                }
                "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc"
                | "movestogo" | "mate" => {
                    let value = match it.peek() {
                        Some(v) if !GO_KEYWORDS.contains(v) => it.next(),
                        _ => None,
                    };
                    let Some(text) = value else {
                        self.info_string(&format!("go: {word} needs a value (ignored)"));
                        continue;
                    };
                    let parsed = text.parse::<i64>().map_err(|_| ());
                    if parsed
                        .and_then(|v| set_limit(&mut limits, word, v))
                        .is_err()
                    {
                        self.info_string(&format!(
                            "go: bad value '{}' for {word} (ignored)",
                            text.escape_debug()
                        ));
                    }
                }
                other => self.info_string(&format!(
                    "go: unknown parameter '{}' (ignored)",
                    other.escape_debug()
                )),
            }
        }
        self.last_go += 1;
        let id = self.last_go;
        self.send(Job::Go {
            id,
            pos: self.pos.clone().map(Box::new),
            limits: Box::new(limits),
        });
    }

    fn cmd_d(&self) {
        let pos = match &self.pos {
            Ok(pos) => pos,
            Err(why) => return self.info_string(&format!("d: no position ({why})")),
        };
        let mut text = pos.to_string();
        let _ = write!(text, "\nFen: {}\nKey: {:016X}", pos.to_fen(), pos.hash());
        self.say(&text);
    }

    fn cmd_eval(&mut self) {
        let pos = match &self.pos {
            Ok(pos) => pos,
            Err(why) => return self.info_string(&format!("eval: no position ({why})")),
        };
        let v = self.evaluator.evaluate(pos);
        let white = if pos.side_to_move() == crate::types::Color::WHITE {
            v
        } else {
            -v
        };
        self.say(&format!(
            "info string static evaluation {v} cp (side to move), {white} cp (White)"
        ));
    }
}

impl<W: Write + Send + 'static> Drop for Uci<W> {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Plays the UCI move `text` on `pos`, compacting (or, failing that, clearing) the history
/// when it is full.
fn play(pos: &mut Position, text: &str) -> Result<(), String> {
    let m = pos.parse_uci_move(text).map_err(|e| e.to_string())?;
    match pos.try_make_move(m) {
        Ok(_) => return Ok(()),
        Err(MoveError::HistoryFull) => pos.compact_history(),
        Err(e) => return Err(e.to_string()),
    }
    if pos.try_make_move(m) == Err(MoveError::HistoryFull) {
        // More than the capacity of reversible moves in a row: repetitions start afresh.
        pos.clear_history();
        pos.try_make_move(m).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Sets one numeric limit of `go`; `Err` for a value out of its range (only the clocks and
/// increments may be negative: a GUI may report an overstepped clock).
fn set_limit(limits: &mut Limits, word: &str, v: i64) -> Result<(), ()> {
    match word {
        "wtime" => limits.wtime_ms = Some(v),
        "btime" => limits.btime_ms = Some(v),
        "winc" => limits.winc_ms = Some(v),
        "binc" => limits.binc_ms = Some(v),
        _ => set_count(limits, word, u64::try_from(v).map_err(|_| ())?)?,
    }
    Ok(())
}

/// Sets one limit of `go` that counts something (never negative).
fn set_count(limits: &mut Limits, word: &str, count: u64) -> Result<(), ()> {
    let small = u32::try_from(count).map_err(|_| ());
    match word {
        "depth" => limits.depth = small?.clamp(1, MAX_PLY as u32 - 1),
        "nodes" => limits.nodes = count.max(1),
        "movetime" => limits.movetime_ms = Some(count),
        "movestogo" => limits.movestogo = small?,
        "mate" => limits.mate = small?,
        _ => unreachable!("only the limits of go come here"),
    }
    Ok(())
}

/// The `score ...` part of an info line.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// An `info` line for one iteration (or one line of MultiPV).
pub fn info_line(info: &SearchInfo) -> String {
    info_line_from(None, info)
}

/// [`info_line`] for a search of `pos`: the moves of the pv in `pos`'s mode (castling as king
/// takes rook in Chess960 mode).
pub fn info_line_in(pos: &Position, info: &SearchInfo) -> String {
    info_line_from(Some(pos), info)
}

fn info_line_from(pos: Option<&Position>, info: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score)
    );
    match info.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => s.push_str(" lowerbound"),
        ScoreBound::Upper => s.push_str(" upperbound"),
    }
    let _ = write!(
        s,
        " nodes {} nps {} hashfull {} time {}",
        info.nodes, info.nps, info.hashfull, info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        match pos {
            Some(p) if p.is_chess960() => {
                // Each move in the position it is played in (moves the search made are legal).
                let mut p = p.clone();
                for &m in info.pv {
                    let _ = write!(s, " {}", p.uci_move_text(m));
                    if !p.is_legal(m) {
                        break;
                    }
                    p.make_move_unchecked(m);
                }
            }
            _ => {
                for m in info.pv {
                    let _ = write!(s, " {m}");
                }
            }
        }
    }
    s
}

/// The `bestmove` line: `bestmove 0000` without a legal move; the ponder move only when it is
/// legal after the best move. (A best move that is not legal, which would be a bug of the
/// search, is replaced by the first legal move rather than forfeiting the game.)
pub fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    let legal = result
        .best_move
        .filter(|&m| pos.is_legal(m))
        .or_else(|| pos.legal_moves().iter().next().copied());
    let Some(best) = legal else {
        return "bestmove 0000".to_owned();
    };
    let mut s = format!("bestmove {}", pos.uci_move_text(best));
    if let Some(ponder) = result.ponder_move {
        let mut after = pos.clone();
        if play(&mut after, &pos.uci_move_text(best)).is_ok() && after.is_legal(ponder) {
            let _ = write!(s, " ponder {}", after.uci_move_text(ponder));
        }
    }
    s
}

/// The worker thread: runs the jobs in order until the channel closes.
fn worker<W: Write + Send + 'static>(
    mut engine: Engine,
    shared: &Shared<W>,
    rx: &mpsc::Receiver<Job>,
) {
    for job in rx {
        let outcome = catch_unwind(AssertUnwindSafe(|| run_job(&mut engine, shared, &job)));
        if outcome.is_err() {
            // A bug, not bad input: rebuild the engine and keep the session alive.
            engine = Engine::new();
            let mut st = lock(&shared.state);
            st.handle = engine.stop_handle();
            st.running = None;
            drop(st);
            shared.out.line(
                "info string error: internal error in the engine; it was reset to its \
                 default options",
            );
            if let Job::Go { pos, .. } = &job {
                let first = pos.as_ref().ok().and_then(|pos| {
                    pos.legal_moves()
                        .iter()
                        .next()
                        .map(|&m| pos.uci_move_text(m))
                });
                shared.out.line(&match first {
                    Some(m) => format!("bestmove {m}"),
                    None => "bestmove 0000".to_owned(),
                });
            }
        }
        let mut st = lock(&shared.state);
        if let Job::Go { id, .. } = job {
            st.searches_done = st.searches_done.max(id);
        }
        st.jobs_done += 1;
        shared.cond.notify_all();
    }
}

fn run_job<W: Write>(engine: &mut Engine, shared: &Shared<W>, job: &Job) {
    match job {
        Job::SetOption { name, value } if name.trim().eq_ignore_ascii_case("EvalFile") => {
            let line = match engine.set_eval_file(value) {
                Ok(()) => match engine.network() {
                    Some(net) => format!(
                        "info string EvalFile: evaluating with the network '{}' ({} hidden, \
                         {} output bucket{}, checksum {:#010x})",
                        value.trim().escape_debug(),
                        net.hidden_size(),
                        net.buckets(),
                        if net.buckets() == 1 { "" } else { "s" },
                        net.checksum()
                    ),
                    None => "info string EvalFile: evaluating with the hand-written evaluation"
                        .to_owned(),
                },
                Err(e) => format!(
                    "info string error: setoption 'EvalFile' value '{}': {e}; keeping the {}",
                    value.escape_debug(),
                    match engine.network() {
                        Some(_) => "network loaded before",
                        None => "hand-written evaluation",
                    }
                ),
            };
            shared.out.line(&line);
        }
        Job::SetOption { name, value } => {
            if let Err(e) = engine.set_option(name, value) {
                shared.out.line(&format!(
                    "info string error: setoption '{}' value '{}': {}",
                    name.escape_debug(),
                    value.escape_debug(),
                    e.message()
                ));
            }
        }
        Job::NewGame => engine.new_game(),
        Job::Ready => shared.out.line("readyok"),
        Job::Go {
            id,
            pos: Ok(pos),
            limits,
        } => run_go(engine, shared, *id, pos, limits),
        Job::Go {
            id,
            pos: Err(why),
            limits,
        } => answer_without_position(shared, *id, why, limits),
    }
}

/// A `go` with no position (the last `position` command was refused): the reason, then
/// `bestmove 0000`, at the time a search would have given it (`go infinite` and `go ponder`
/// wait for `stop` or `ponderhit`).
fn answer_without_position<W: Write>(shared: &Shared<W>, id: u64, why: &str, limits: &Limits) {
    shared
        .out
        .line(&format!("info string go: no position: {why}"));
    wait_until_answer_due(shared, id, limits);
    shared.out.line("bestmove 0000");
}

/// Waits until a search's `bestmove` may be sent: at once, or for `go infinite` and
/// `go ponder` only after `stop` (or `ponderhit`).
fn wait_until_answer_due<W: Write>(shared: &Shared<W>, id: u64, limits: &Limits) {
    let mut st = lock(&shared.state);
    if let Some(r) = st.running.as_mut() {
        r.returned = true;
    }
    while !(st.quitting
        || id <= st.stop_upto
        || !(limits.infinite || limits.ponder && id > st.ponderhit_upto))
    {
        st = shared.cond.wait(st).unwrap_or_else(|e| e.into_inner());
    }
    st.running = None;
}

fn run_go<W: Write>(
    engine: &mut Engine,
    shared: &Shared<W>,
    id: u64,
    pos: &Position,
    limits: &Limits,
) {
    let mut limits = limits.clone();
    {
        let mut st = lock(&shared.state);
        if id <= st.stop_upto {
            // Stopped before it started: one iteration, for a legal move.
            limits.depth = 1;
            limits.infinite = false;
            limits.ponder = false;
        } else if limits.ponder && id <= st.ponderhit_upto {
            limits.ponder = false;
        }
        st.running = Some(Running {
            ponder: limits.ponder,
            returned: false,
        });
    }
    let result = engine.search(pos, &limits, &mut |info| {
        {
            // A `stop` that came before the search had armed itself (the engine clears its
            // stop flag when a search starts) is passed on again here.
            let st = lock(&shared.state);
            if st.quitting || id <= st.stop_upto {
                st.handle.stop();
            }
        }
        shared.out.line(&info_line_in(pos, info));
    });
    if result.best_move.is_none() {
        shared
            .out
            .line(&format!("info depth 0 score {}", score_text(result.score)));
    }
    wait_until_answer_due(shared, id, &limits);
    shared.out.line(&bestmove_line(pos, &result));
}
