//! `chesscore._fast`: the compiled core of the Python package (PyO3, stable ABI `abi3-py38`).
//!
//! It links the chesscore crate directly (no ctypes on the hot paths) and holds two classes:
//! * [`PyMove`] (`chesscore.Move`): a frozen 16-bit move. The moves this module returns are
//!   shared instances, one per value, made on first use: a legal move list is a list of
//!   borrowed references, with no allocation per move.
//! * [`BoardBase`] (`chesscore._fast.BoardBase`): the position, in storage laid out as the C
//!   ABI's `ChessPosition` (9216 bytes, 8-byte aligned), and the stack of moves made with
//!   their undo records. `chesscore.Board` is a Python subclass; the parts of the package that
//!   stay on ctypes (engine, Chess960, PGN, Dice Chess) reach the same bytes through
//!   `_address()`, as a `ChessPosition *`.
//!
//! Errors are raised as the package's `ChessError(status, context)` (the class is handed over
//! by `_set_error_class` at import), with the status codes the C ABI returns for the same
//! failure: the slow paths call the C ABI's own functions in-process, the fast ones map the
//! core's errors with the same `From` impls.

use chesscore::ffi::{self as c, ChessMoveList, ChessPosition, ChessStatus};
use chesscore::{Move, MoveError, PerftMode, Position, SanMode, Undo};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use std::ffi::{c_char, CString};
use std::ptr::NonNull;
use std::sync::OnceLock;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ---- errors ---------------------------------------------------------------------------------

static ERROR_CLASS: OnceLock<Py<PyAny>> = OnceLock::new();

/// `ChessError(status, context)`, or a RuntimeError before the package registered the class.
fn chess_error(py: Python<'_>, status: i32, context: &str) -> PyErr {
    match ERROR_CLASS.get() {
        Some(cls) => match cls.bind(py).call1((status, context)) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        },
        None => PyRuntimeError::new_err(format!("{context}: status {status}")),
    }
}

fn check(py: Python<'_>, status: ChessStatus, context: impl FnOnce() -> String) -> PyResult<()> {
    if status == ChessStatus::CHESS_OK {
        Ok(())
    } else {
        Err(chess_error(py, status as i32, &context()))
    }
}

/// The package's `ChessError` class, used for every failure of the library.
#[pyfunction]
fn _set_error_class(cls: Py<PyAny>) {
    let _ = ERROR_CLASS.set(cls);
}

/// A C string argument: a `str` without NUL characters (TypeError, ValueError otherwise), as
/// the ctypes layer's `_text` checks it. A string that is not valid UTF-8 (lone surrogates)
/// is `CHESS_ERR_INVALID_ARGUMENT`, as the C ABI answers for such bytes, with `context`.
fn c_text(
    value: &Bound<'_, PyAny>,
    name: &str,
    context: impl FnOnce() -> String,
) -> PyResult<CString> {
    let s = value.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{name} must be a str, not {}", type_name(value)))
    })?;
    let Ok(text) = s.to_cow() else {
        let status = ChessStatus::CHESS_ERR_INVALID_ARGUMENT as i32;
        return Err(chess_error(value.py(), status, &context()));
    };
    if text.contains('\0') {
        return Err(PyValueError::new_err(format!(
            "{name} must not contain NUL characters"
        )));
    }
    Ok(CString::new(text.as_bytes()).expect("no NUL"))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// An int argument in `low..=high` (bool refused), as the ctypes layer's `_int_in` checks it.
fn int_in(value: &Bound<'_, PyAny>, low: i64, high: i64, name: &str) -> PyResult<i64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            type_name(value)
        )));
    }
    match value.extract::<i64>() {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be in {low}..{high}, not {}",
            value.repr()?
        ))),
    }
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

// ---- moves ----------------------------------------------------------------------------------

/// A move: its 16-bit value as the C ABI encodes it (from square in bits 0-5, to square in
/// 6-11, flags in 12-15). Get moves from a :class:`Board` (``legal_moves()``,
/// ``parse_uci()``); ``str(move)`` is its UCI text. Immutable, hashable, equal by value.
#[pyclass(frozen, module = "chesscore", name = "Move")]
pub struct PyMove {
    raw: u16,
}

/// One shared `Move` object per 16-bit value, made on first use.
static MOVES: [OnceLock<Py<PyMove>>; 65536] = [const { OnceLock::new() }; 65536];

fn shared_move(py: Python<'_>, raw: u16) -> PyResult<Bound<'_, PyMove>> {
    let cell = &MOVES[raw as usize];
    if let Some(m) = cell.get() {
        return Ok(m.bind(py).clone());
    }
    let m = Py::new(py, PyMove { raw })?;
    Ok(cell.get_or_init(|| m).bind(py).clone())
}

fn move_list<'py>(py: Python<'py>, moves: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let items = moves
        .iter()
        .map(|&m| shared_move(py, m))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

fn uci_text(raw: u16) -> Option<String> {
    let m = Move::from_raw(raw);
    if !m.is_well_formed() {
        return None;
    }
    let mut buf = [0u8; 5];
    let n = m.write_uci(&mut buf);
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(raw: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMove {
            raw: int_in(raw, 0, 0xFFFF, "move")? as u16,
        })
    }

    #[getter]
    fn raw(&self) -> u16 {
        self.raw
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)] // the Python attribute's name
    fn from_square(&self) -> u16 {
        self.raw & 63
    }

    #[getter]
    fn to_square(&self) -> u16 {
        (self.raw >> 6) & 63
    }

    #[getter]
    fn flags(&self) -> u16 {
        self.raw >> 12
    }

    #[getter]
    fn is_capture(&self) -> bool {
        self.raw & 0x4000 != 0
    }

    #[getter]
    fn is_en_passant(&self) -> bool {
        self.raw >> 12 == 5
    }

    #[getter]
    fn is_castling(&self) -> bool {
        matches!(self.raw >> 12, 2 | 3)
    }

    /// The piece type promoted to (``KNIGHT`` .. ``QUEEN``), else None.
    #[getter]
    fn promotion(&self) -> Option<u16> {
        (self.raw & 0x8000 != 0).then_some(((self.raw >> 12) & 3) + 2)
    }

    /// UCI text: ``e2e4``, ``e7e8q``, castling as the king's move ``e1g1``.
    fn uci(&self, py: Python<'_>) -> PyResult<String> {
        uci_text(self.raw).ok_or_else(|| {
            chess_error(
                py,
                ChessStatus::CHESS_ERR_INVALID_ARGUMENT as i32,
                &format!("move {:#06x}", self.raw),
            )
        })
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.uci(py)
    }

    fn __repr__(&self) -> String {
        match uci_text(self.raw) {
            Some(t) => format!("Move('{t}')"),
            None => format!("Move(raw={:#06x})", self.raw),
        }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let equal = match other.cast::<PyMove>() {
            Ok(o) => o.get().raw == self.raw,
            Err(_) => return py.NotImplemented(),
        };
        match op {
            CompareOp::Eq => PyBool::new(py, equal).to_owned().into_any().unbind(),
            CompareOp::Ne => PyBool::new(py, !equal).to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        self.raw as u64 ^ 0x6d6f_7665_0000
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                PyTuple::new(py, [slf.get().raw])?.into_any(),
            ],
        )
    }
}

fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<u16> {
    match value.cast::<PyMove>() {
        Ok(m) => Ok(m.get().raw),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected a Move, not {}",
            type_name(value)
        ))),
    }
}

// ---- positions ------------------------------------------------------------------------------

/// The bytes of a `ChessPosition`, 8-byte aligned.
#[repr(C, align(8))]
struct Storage([u64; c::CHESS_POSITION_WORDS]);

const _: () = assert!(core::mem::size_of::<Storage>() == core::mem::size_of::<ChessPosition>());
const _: () = assert!(core::mem::size_of::<Position>() <= core::mem::size_of::<Storage>());
const _: () = assert!(core::mem::align_of::<Position>() <= core::mem::align_of::<Storage>());

/// A heap `ChessPosition` at a fixed address (handed to ctypes), always holding a valid
/// position: written only by this module and by the library's own functions.
struct PosBox(NonNull<Storage>);

// SAFETY: the box owns its storage alone; the pyclass borrow rules serialise access.
unsafe impl Send for PosBox {}
unsafe impl Sync for PosBox {}

impl PosBox {
    fn new(pos: Position) -> PosBox {
        let storage = Box::new(Storage([0; c::CHESS_POSITION_WORDS]));
        let ptr = NonNull::from(Box::leak(storage));
        // SAFETY: size and alignment asserted above; the storage is ours.
        unsafe { (ptr.as_ptr() as *mut Position).write(pos) };
        PosBox(ptr)
    }

    fn get(&self) -> &Position {
        // SAFETY: the storage always holds a valid position (see the type's docs).
        unsafe { &*(self.0.as_ptr() as *const Position) }
    }

    fn get_mut(&mut self) -> &mut Position {
        // SAFETY: as `get`, and `&mut self` is exclusive.
        unsafe { &mut *(self.0.as_ptr() as *mut Position) }
    }

    fn c(&self) -> *mut ChessPosition {
        self.0.as_ptr() as *mut ChessPosition
    }
}

impl Drop for PosBox {
    fn drop(&mut self) {
        // SAFETY: allocated by `Box::new` in `new`, freed once.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

/// The position and its move stack; ``chesscore.Board`` is its Python subclass.
#[pyclass(subclass, module = "chesscore._fast")]
pub struct BoardBase {
    pos: PosBox,
    /// The moves made since setup (0 for a null move) with their undo records.
    stack: Vec<(u16, Undo)>,
}

impl BoardBase {
    fn set_text(&mut self, py: Python<'_>, fen: &Bound<'_, PyAny>, strict: bool) -> PyResult<()> {
        let text = c_text(fen, "fen", || format!("FEN {}", repr(fen)))?;
        let s = text.to_str().unwrap_or("");
        let read = if strict {
            Position::from_fen(s)
        } else {
            Position::from_fen_lenient(s)
        };
        match read {
            Ok(p) => {
                *self.pos.get_mut() = p;
                self.stack.clear();
                Ok(())
            }
            Err(e) => Err(chess_error(
                py,
                ChessStatus::from(e) as i32,
                &format!("FEN {}", repr(fen)),
            )),
        }
    }

    fn make(&mut self, py: Python<'_>, raw: u16) -> PyResult<()> {
        match self.pos.get_mut().try_make_move(Move::from_raw(raw)) {
            Ok(undo) => {
                self.stack.push((raw, undo));
                Ok(())
            }
            Err(e) => Err(chess_error(py, status_of(e), &move_repr(raw))),
        }
    }

    fn parse_uci_raw(&self, py: Python<'_>, uci: &Bound<'_, PyAny>) -> PyResult<u16> {
        let text = c_text(uci, "uci", || format!("move {}", repr(uci)))?;
        let mut out: u16 = 0;
        // SAFETY: a valid position, a NUL-terminated string, a valid output.
        let st = unsafe { c::chess_moveFromUci(self.pos.c(), text.as_ptr(), &mut out) };
        check(py, st, || format!("move {}", repr(uci)))?;
        Ok(out)
    }

    fn parse_san_raw(&self, py: Python<'_>, san: &Bound<'_, PyAny>, strict: bool) -> PyResult<u16> {
        let text = c_text(san, "san", || format!("SAN {}", repr(san)))?;
        let mode = if strict {
            SanMode::Strict
        } else {
            SanMode::Tolerant
        };
        match self
            .pos
            .get()
            .parse_san_with(text.to_str().unwrap_or(""), mode)
        {
            Ok(m) => Ok(m.raw()),
            Err(e) => Err(chess_error(
                py,
                ChessStatus::from(e) as i32,
                &format!("SAN {}", repr(san)),
            )),
        }
    }

    fn text(
        &self,
        py: Python<'_>,
        size: usize,
        f: unsafe extern "C" fn(*const ChessPosition, *mut c_char, usize) -> ChessStatus,
    ) -> PyResult<String> {
        let mut buf = vec![0u8; size];
        // SAFETY: a valid position, a buffer of `size` bytes.
        let st = unsafe { f(self.pos.c(), buf.as_mut_ptr() as *mut c_char, size) };
        check(py, st, String::new)?;
        let end = buf.iter().position(|&b| b == 0).unwrap_or(size);
        Ok(String::from_utf8_lossy(&buf[..end]).into_owned())
    }
}

fn status_of(e: MoveError) -> i32 {
    ChessStatus::from(e) as i32
}

fn move_repr(raw: u16) -> String {
    PyMove { raw }.__repr__()
}

#[pymethods]
impl BoardBase {
    #[new]
    #[pyo3(signature = (fen = None, *, strict = false))]
    fn new(py: Python<'_>, fen: Option<&Bound<'_, PyAny>>, strict: bool) -> PyResult<Self> {
        let mut b = BoardBase {
            pos: PosBox::new(Position::startpos()),
            stack: Vec::new(),
        };
        if let Some(f) = fen {
            let is_start = match f.cast::<PyString>() {
                Ok(t) => t.to_cow().map(|t| t == START_FEN).unwrap_or(false),
                Err(_) => false,
            };
            if !is_start {
                b.set_text(py, f, strict)?;
            }
        }
        Ok(b)
    }

    /// Replaces the position (and forgets the move stack), reading ``fen`` as :class:`Board`
    /// does (``strict=True``: the strict reader). On error nothing changes.
    #[pyo3(signature = (fen, *, strict = false))]
    fn set_fen(&mut self, py: Python<'_>, fen: &Bound<'_, PyAny>, strict: bool) -> PyResult<()> {
        self.set_text(py, fen, strict)
    }

    /// The position as FEN.
    fn fen(&self) -> String {
        self.pos.get().to_fen()
    }

    /// An independent copy, move stack included.
    fn copy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let other = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let o = other.cast::<BoardBase>()?;
            let mut o = o.borrow_mut();
            // SAFETY: two distinct storages of the same size.
            unsafe { core::ptr::copy_nonoverlapping(me.pos.0.as_ptr(), o.pos.0.as_ptr(), 1) };
            o.stack.clone_from(&me.stack);
        }
        Ok(other)
    }

    /// The address of the position's ``ChessPosition`` (for the ctypes layer; valid while the
    /// board lives).
    fn _address(&self) -> usize {
        self.pos.0.as_ptr() as usize
    }

    /// Forgets the move stack (after the ctypes layer replaced the position).
    fn _clear_stack(&mut self) {
        self.stack.clear();
    }

    // ---- moves ------------------------------------------------------------------------------

    /// Every legal move (promotions queen, rook, bishop, knight).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.pos.get().legal_moves();
        let raws: Vec<u16> = list.iter().map(|m| m.raw()).collect();
        move_list(py, &raws)
    }

    /// The legal moves as their 16-bit values (a list of ints).
    fn legal_moves_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.pos.get().legal_moves();
        PyList::new(py, list.iter().map(|m| m.raw()))
    }

    /// The number of legal moves.
    fn legal_move_count(&self) -> usize {
        self.pos.get().legal_moves().len()
    }

    /// Every pseudo-legal move: the king may be left in check (see :meth:`is_legal`).
    fn pseudo_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.pos.get().pseudo_legal_moves();
        let raws: Vec<u16> = list.iter().map(|m| m.raw()).collect();
        move_list(py, &raws)
    }

    /// ``chess_generateMoves`` (the arguments checked by the Python layer).
    fn _generate<'py>(
        &self,
        py: Python<'py>,
        legal: bool,
        class: u32,
        mask: u8,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut ml = ChessMoveList::new();
        // SAFETY: a valid position and list.
        let st = unsafe { c::chess_generateMoves(self.pos.c(), legal, class, mask, &mut ml) };
        check(py, st, String::new)?;
        move_list(py, ml.as_slice())
    }

    /// The legal move that UCI text names here (ChessError: malformed or illegal).
    fn parse_uci<'py>(
        &self,
        py: Python<'py>,
        uci: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyMove>> {
        let raw = self.parse_uci_raw(py, uci)?;
        shared_move(py, raw)
    }

    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let raw = move_arg(r#move)?;
        Ok(self.pos.get().is_legal(Move::from_raw(raw)))
    }

    /// Makes a move (a :class:`Move` or UCI text), checked: an illegal one raises
    /// :class:`ChessError` (``ERR_ILLEGAL_MOVE``) and changes nothing.
    fn push<'py>(
        &mut self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(m) = r#move.cast::<PyMove>() {
            self.make(py, m.get().raw)?;
            return Ok(r#move.clone());
        }
        if r#move.is_instance_of::<PyString>() {
            let raw = self.parse_uci_raw(py, r#move)?;
            self.make(py, raw)?;
            return Ok(shared_move(py, raw)?.into_any());
        }
        Err(PyTypeError::new_err(format!(
            "expected a Move, not {}",
            type_name(r#move)
        )))
    }

    fn push_uci<'py>(
        &mut self,
        py: Python<'py>,
        uci: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyMove>> {
        let raw = self.parse_uci_raw(py, uci)?;
        self.make(py, raw)?;
        shared_move(py, raw)
    }

    /// Passes the turn (not in check).
    fn push_null(&mut self, py: Python<'_>) -> PyResult<()> {
        match self.pos.get_mut().try_make_null_move() {
            Ok(undo) => {
                self.stack.push((0, undo));
                Ok(())
            }
            Err(e) => Err(chess_error(py, status_of(e), "null move")),
        }
    }

    /// Takes back the last move pushed (IndexError when there is none); returns it.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyMove>> {
        let Some((raw, undo)) = self.stack.pop() else {
            return Err(PyIndexError::new_err("pop from a board without moves"));
        };
        let pos = self.pos.get_mut();
        if raw == 0 {
            pos.unmake_null_move_unchecked(&undo);
        } else {
            pos.unmake_move_unchecked(Move::from_raw(raw), &undo);
        }
        shared_move(py, raw)
    }

    /// The moves pushed since the FEN was set (``Move(0)`` for a null move).
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let raws: Vec<u16> = self.stack.iter().map(|&(m, _)| m).collect();
        move_list(py, &raws)
    }

    // ---- perft ------------------------------------------------------------------------------

    /// Leaf nodes of the legal move tree ``depth`` plies deep (bulk counting; ``full``
    /// makes and unmakes every move; ``threads``: parallel, 0 = every core).
    #[pyo3(signature = (depth, *, full = false, threads = None))]
    fn perft(
        &mut self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        full: bool,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let depth = int_in(depth, 0, 64, "depth")? as u32;
        let threads = match threads {
            Some(t) => Some(int_in(t, 0, 256, "threads")? as u32),
            None => None,
        };
        if threads.is_none() && depth <= 3 {
            // Small trees: no reason to let go of the interpreter.
            let mode = if full {
                PerftMode::Full
            } else {
                PerftMode::Bulk
            };
            return Ok(self.pos.get_mut().perft_mode(depth, mode));
        }
        let addr = self.pos.0.as_ptr() as usize;
        let (st, nodes) = py.detach(move || {
            let p = addr as *mut ChessPosition;
            let mut nodes = 0u64;
            // SAFETY: the board stays borrowed (and alive) for the call; a valid position.
            let st = unsafe {
                match threads {
                    Some(t) => c::chess_perftParallel(p, depth, t, full, &mut nodes),
                    None if full => c::chess_perftFull(p, depth, &mut nodes),
                    None => c::chess_perft(p, depth, &mut nodes),
                }
            };
            (st, nodes)
        });
        check(py, st, || "perft".into())?;
        Ok(nodes)
    }

    /// The perft count below each legal move, by UCI text.
    fn perft_divide<'py>(
        &mut self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = int_in(depth, 0, 64, "depth")? as u32;
        let mut ml = ChessMoveList::new();
        let mut counts = [0u64; 256];
        let mut total = 0u64;
        // SAFETY: a valid position, list, 256 counts and total.
        let st = unsafe {
            c::chess_perftDivide(
                self.pos.c(),
                depth,
                &mut ml,
                counts.as_mut_ptr(),
                256,
                &mut total,
            )
        };
        check(py, st, || "perft divide".into())?;
        let out = PyDict::new(py);
        for (i, &m) in ml.as_slice().iter().enumerate() {
            out.set_item(uci_text(m).unwrap_or_default(), counts[i])?;
        }
        Ok(out)
    }

    // ---- state ------------------------------------------------------------------------------

    /// ``WHITE`` (0) or ``BLACK`` (1).
    #[getter]
    fn turn(&self) -> u8 {
        self.pos.get().side_to_move().index() as u8
    }

    fn _piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<u8> {
        let sq = int_in(square, 0, 63, "square")? as u32;
        // SAFETY: a valid position.
        Ok(unsafe { c::chess_pieceOn(self.pos.c(), sq) })
    }

    /// Bitboard (a1 = bit 0) of ``color``'s pieces of ``piece_type`` (0: every type).
    #[pyo3(signature = (color, piece_type = None))]
    fn pieces(
        &self,
        color: &Bound<'_, PyAny>,
        piece_type: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let color = int_in(color, 0, 1, "color")? as u32;
        let kind = match piece_type {
            Some(t) => int_in(t, 0, 6, "piece type")? as u32,
            None => 0,
        };
        // SAFETY: a valid position.
        Ok(unsafe { c::chess_pieces(self.pos.c(), color, kind) })
    }

    /// 4 bits: 1 White king side, 2 White queen side, 4 Black king side, 8 queen side.
    #[getter]
    fn castling_rights(&self) -> u8 {
        // SAFETY: a valid position.
        unsafe { c::chess_castlingRights(self.pos.c()) }
    }

    #[getter]
    fn ep_square(&self) -> Option<i32> {
        // SAFETY: a valid position.
        let sq = unsafe { c::chess_enPassantSquare(self.pos.c()) };
        (sq >= 0).then_some(sq)
    }

    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.get().halfmove_clock()
    }

    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.get().fullmove_number()
    }

    fn is_check(&self) -> bool {
        self.pos.get().in_check()
    }

    /// Bitboard of the pieces giving check.
    fn checkers(&self) -> u64 {
        self.pos.get().checkers().0
    }

    fn _status(&self) -> i32 {
        self.pos.get().status() as i32
    }

    fn is_checkmate(&self) -> bool {
        self.pos.get().status() as i32 == 1
    }

    fn is_game_over(&self) -> bool {
        self.pos.get().status() as i32 != 0
    }

    /// True at the third occurrence of the position.
    #[pyo3(signature = (ply_limit = None))]
    fn is_repetition(&self, ply_limit: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let limit = match ply_limit {
            Some(l) => int_in(l, 0, i32::MAX as i64, "ply_limit")? as i32,
            None => i32::MAX,
        };
        Ok(self.pos.get().is_repetition(limit))
    }

    /// Zobrist hash (equal positions hash equal; the same on every run and machine).
    fn hash(&self) -> u64 {
        self.pos.get().hash()
    }

    fn pawn_hash(&self) -> u64 {
        self.pos.get().pawn_hash()
    }

    fn material_hash(&self) -> u64 {
        self.pos.get().material_hash()
    }

    /// Keeps only the history a repetition can still reach, so a game can go on past the
    /// 1024 moves the history holds; the moves before can no longer be popped.
    fn compact_history(&mut self) {
        self.pos.get_mut().compact_history();
        self.stack.clear();
    }

    // ---- SAN --------------------------------------------------------------------------------

    /// The standard SAN of a legal move (``Nbd2``, ``exd8=Q+``, ``O-O-O#``); ChessError
    /// ``ERR_ILLEGAL_MOVE`` for a move not legal here.
    fn san(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let raw = move_arg(r#move)?;
        match self.pos.get().to_san(Move::from_raw(raw)) {
            Ok(s) => Ok(s.as_str().to_owned()),
            Err(_) => Err(chess_error(
                py,
                ChessStatus::CHESS_ERR_ILLEGAL_MOVE as i32,
                &repr(r#move),
            )),
        }
    }

    /// The legal move SAN text names. Tolerant by default (missing or extra ``+``/``#``,
    /// ``!?``, ``0-0``, lower-case piece letters, long algebraic ``e2e4``/``Ng1-f3``, ``e8Q``);
    /// ``strict=True`` takes only the standard SAN :meth:`san` writes. ChessError
    /// ``ERR_SAN_SYNTAX``, ``ERR_SAN_ILLEGAL`` or ``ERR_SAN_AMBIGUOUS``.
    #[pyo3(signature = (san, *, strict = false))]
    fn parse_san<'py>(
        &self,
        py: Python<'py>,
        san: &Bound<'py, PyAny>,
        strict: bool,
    ) -> PyResult<Bound<'py, PyMove>> {
        let raw = self.parse_san_raw(py, san, strict)?;
        shared_move(py, raw)
    }

    /// Makes the move SAN text names (tolerant reading) and returns it.
    fn push_san<'py>(
        &mut self,
        py: Python<'py>,
        san: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyMove>> {
        let raw = self.parse_san_raw(py, san, false)?;
        self.make(py, raw)?;
        shared_move(py, raw)
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, c::CHESS_POSITION_TEXT_SIZE, c::chess_positionToText)
    }
}

/// The size in bytes of the position storage (the C ABI's `ChessPosition`).
#[pyfunction]
fn _position_size() -> usize {
    core::mem::size_of::<Storage>()
}

#[pymodule]
fn _fast(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMove>()?;
    m.add_class::<BoardBase>()?;
    m.add_function(wrap_pyfunction!(_set_error_class, m)?)?;
    m.add_function(wrap_pyfunction!(_position_size, m)?)?;
    Ok(())
}
