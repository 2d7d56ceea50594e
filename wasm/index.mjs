// chesscore for JavaScript: the C ABI compiled to wasm32-wasip1 (chesscore.wasm), wrapped.
//
// This file marshals only: it allocates the C structs in the module's memory with the
// module's own malloc and free, calls one C function per operation, turns a ChessStatus other
// than CHESS_OK into a ChessError and reads the outputs back. Every chess rule is in the
// module. The module imports a handful of WASI functions (clock, environment, stdout); the
// small shim below provides them, so the same code runs in node and in browsers.

/** ChessStatus values and their names, as in include/chesscore.h (a test compares them). */
export const STATUS = Object.freeze({
  CHESS_OK: 0,
  CHESS_ERR_NULL_ARGUMENT: 1,
  CHESS_ERR_BUFFER_TOO_SMALL: 2,
  CHESS_ERR_ILLEGAL_MOVE: 3,
  CHESS_ERR_HISTORY_FULL: 4,
  CHESS_ERR_INVALID_ARGUMENT: 5,
  CHESS_ERR_INVALID_POSITION: 6,
  CHESS_ERR_BAD_UNDO: 7,
  CHESS_ERR_INTERNAL: 8,
  CHESS_ERR_FEN_FIELD_COUNT: 100,
  CHESS_ERR_FEN_TRAILING_TEXT: 101,
  CHESS_ERR_FEN_BOARD: 102,
  CHESS_ERR_FEN_SIDE_TO_MOVE: 103,
  CHESS_ERR_FEN_CASTLING: 104,
  CHESS_ERR_FEN_EN_PASSANT: 105,
  CHESS_ERR_FEN_HALFMOVE_CLOCK: 106,
  CHESS_ERR_FEN_FULLMOVE_NUMBER: 107,
  CHESS_ERR_FEN_KING_COUNT: 108,
  CHESS_ERR_FEN_PAWN_ON_BACK_RANK: 109,
  CHESS_ERR_FEN_TOO_MANY_PIECES: 110,
  CHESS_ERR_FEN_CASTLING_RIGHTS: 111,
  CHESS_ERR_FEN_EN_PASSANT_RANK: 112,
  CHESS_ERR_FEN_EN_PASSANT_PAWN: 113,
  CHESS_ERR_FEN_OPPONENT_IN_CHECK: 114,
  CHESS_ERR_FEN_IMPOSSIBLE_CHECK: 115,
  CHESS_ERR_ENGINE_BUSY: 200,
  CHESS_ERR_INVALID_LIMITS: 201,
  CHESS_ERR_UNKNOWN_OPTION: 202,
  CHESS_ERR_BAD_OPTION_VALUE: 203,
  CHESS_ERR_OUT_OF_MEMORY: 204,
  CHESS_ERR_EVAL_FILE_UNREADABLE: 205,
  CHESS_ERR_EVAL_FILE_INVALID: 206,
  CHESS_ERR_DICE_INVALID_GAME: 300,
  CHESS_ERR_DICE_INVALID_RULES: 301,
  CHESS_ERR_DICE_NOT_AWAITING_ROLL: 302,
  CHESS_ERR_DICE_NOT_AWAITING_MOVE: 303,
  CHESS_ERR_DICE_INVALID_ROLL: 304,
  CHESS_ERR_DICE_FEN_EN_PASSANT: 305,
  CHESS_ERR_DICE_FEN_DICE: 306,
  CHESS_ERR_DICE_FEN_BOTH_IN_CHECK: 307,
  CHESS_ERR_DICE_UNSUPPORTED_LIMITS: 310,
  CHESS_ERR_SAN_SYNTAX: 400,
  CHESS_ERR_SAN_ILLEGAL: 401,
  CHESS_ERR_SAN_AMBIGUOUS: 402,
  CHESS_ERR_PGN_END_OF_INPUT: 403,
  CHESS_ERR_PGN_TAG: 404,
  CHESS_ERR_PGN_FEN: 405,
  CHESS_ERR_PGN_VARIANT: 406,
  CHESS_ERR_PGN_TOKEN: 407,
  CHESS_ERR_PGN_UNTERMINATED: 408,
  CHESS_ERR_PGN_PARENTHESIS: 409,
  CHESS_ERR_PGN_NO_GAME: 410,
  CHESS_ERR_PGN_NO_SUCH_TAG: 411,
});

const STATUS_NAME = new Map(Object.entries(STATUS).map(([name, code]) => [code, name]));

/** The error of every failed call: `status` is the ChessStatus name, `code` its number. */
export class ChessError extends Error {
  constructor(code, message, options) {
    const status = STATUS_NAME.get(code) ?? `CHESS_STATUS_${code}`;
    super(`${status}: ${message}`, options);
    this.name = 'ChessError';
    this.status = status;
    this.code = code;
  }
}

// Sizes and offsets of the header's structs on wasm32 (src/ffi/types.rs asserts the limits').
const POSITION_SIZE = 9216;
const UNDO_SIZE = 48;
const MOVE_LIST_SIZE = 516; // ChessMove moves[256] (u16), uint32_t count at 512
const DICE_GAME_SIZE = 9280;
const DICE_UNDO_SIZE = 160;
const LIMITS_SIZE = 248;
const RESULT_SIZE = 512;
const DICE_RESULT_SIZE = 256;
const DICE_ADVICE_SIZE = 264; // ChessDiceRoll (4), uint32_t weight, the result at 8
const DICE_EQUITY_SIZE = 128; // in the Engine's result block (RESULT_SIZE)
const FEN_MAX = 128;
const DICE_FEN_MAX = 128;
const MAX_OUTCOMES = 56;
const SAN_STRICT = 0;

const GAME_STATUS = ['ONGOING', 'CHECKMATE', 'STALEMATE', 'FIFTY_MOVE_RULE',
  'THREEFOLD_REPETITION', 'INSUFFICIENT_MATERIAL'];
const DICE_STATE = ['AWAITING_ROLL', 'AWAITING_MOVE', 'WON', 'DRAWN'];
const DICE_WIN = [null, 'KING_CAPTURE', 'CHECKMATE'];
const DICE_DRAW = [null, 'FIFTY_MOVES', 'STALEMATE', 'DEAD_POSITION'];
const DICE_RULES = { twoDice: 0, oneDie: 1, threeDice: 2 };
// The PGN `Variant` names of the rule sets (src/dice/rules.rs `Rules::name`).
const DICE_VARIANT = { twoDice: 'two-dice', oneDie: 'one-die', threeDice: 'three-dice' };
const COLORS = ['white', 'black'];

/** Thrown by the WASI shim's proc_exit (the library never calls it; a trap might). */
class WasiExit extends Error {}

// The WASI preview 1 functions the module imports, over its memory. Anything else it might
// import answers ENOSYS.
function wasiImports(mem, moduleImports) {
  const ENOSYS = 52;
  const now = () => BigInt(Math.round(performance.now() * 1e6));
  const epoch = () => BigInt(Date.now()) * 1000000n;
  const decoder = new TextDecoder();
  const lines = { 1: '', 2: '' };
  const fns = {
    environ_sizes_get(countPtr, sizePtr) {
      mem.dv().setUint32(countPtr, 0, true);
      mem.dv().setUint32(sizePtr, 0, true);
      return 0;
    },
    environ_get() {
      return 0;
    },
    args_sizes_get(countPtr, sizePtr) {
      return fns.environ_sizes_get(countPtr, sizePtr);
    },
    args_get() {
      return 0;
    },
    clock_time_get(id, _precision, outPtr) {
      mem.dv().setBigUint64(outPtr, id === 0 ? epoch() : now(), true);
      return 0;
    },
    clock_res_get(_id, outPtr) {
      mem.dv().setBigUint64(outPtr, 1000n, true);
      return 0;
    },
    fd_write(fd, iovs, iovsLen, writtenPtr) {
      const dv = mem.dv();
      let total = 0;
      let text = '';
      for (let i = 0; i < iovsLen; i++) {
        const base = dv.getUint32(iovs + 8 * i, true);
        const len = dv.getUint32(iovs + 8 * i + 4, true);
        text += decoder.decode(mem.u8().subarray(base, base + len));
        total += len;
      }
      if (fd === 1 || fd === 2) {
        const all = lines[fd] + text;
        const cut = all.lastIndexOf('\n');
        if (cut >= 0) (fd === 1 ? console.log : console.error)(all.slice(0, cut));
        lines[fd] = all.slice(cut + 1);
      }
      dv.setUint32(writtenPtr, total, true);
      return 0;
    },
    // std::thread::sleep: one clock subscription (48 bytes), answered by waiting it out.
    poll_oneoff(inPtr, outPtr, count, eventsPtr) {
      const dv = mem.dv();
      if (count !== 1 || dv.getUint8(inPtr + 8) !== 0) return ENOSYS;
      const timeout = dv.getBigUint64(inPtr + 24, true);
      const absolute = (dv.getUint16(inPtr + 40, true) & 1) !== 0;
      const clock = dv.getUint32(inPtr + 16, true) === 0 ? epoch : now;
      const until = absolute ? timeout : clock() + timeout;
      while (clock() < until) { /* a sleep on a thread of its own */ }
      const out = mem.dv();
      out.setBigUint64(outPtr, dv.getBigUint64(inPtr, true), true);
      out.setUint16(outPtr + 8, 0, true);
      out.setUint8(outPtr + 10, 0);
      out.setUint32(eventsPtr, 1, true);
      return 0;
    },
    proc_exit(code) {
      throw new WasiExit(`chesscore.wasm exited with ${code}`);
    },
    sched_yield() {
      return 0;
    },
  };
  const imports = {};
  for (const imp of moduleImports) {
    if (imp.module !== 'wasi_snapshot_preview1' || imp.kind !== 'function') continue;
    imports[imp.name] = fns[imp.name] ?? (() => ENOSYS);
  }
  return imports;
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source === undefined) source = new URL('./chesscore.wasm', import.meta.url);
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(source, import.meta.url);
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      return WebAssembly.compile(await readFile(url));
    }
    source = fetch(url);
  }
  source = await source;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) throw new Error(`chesscore.wasm: HTTP ${source.status}`);
    return WebAssembly.compile(await source.arrayBuffer());
  }
  return WebAssembly.compile(source);
}

/**
 * Loads chesscore.wasm and returns the API bound to that instance. `source`: nothing (the
 * chesscore.wasm beside this file), a URL or path, a fetch Response or its promise, the
 * bytes, or a compiled WebAssembly.Module.
 */
export async function load(source) {
  const module = await compile(source);
  const mem = {
    buffer: null,
    view: null,
    bytes: null,
    memory: null,
    dv() {
      if (this.buffer !== this.memory.buffer) this.refresh();
      return this.view;
    },
    u8() {
      if (this.buffer !== this.memory.buffer) this.refresh();
      return this.bytes;
    },
    refresh() {
      this.buffer = this.memory.buffer;
      this.view = new DataView(this.buffer);
      this.bytes = new Uint8Array(this.buffer);
    },
  };
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasiImports(mem, WebAssembly.Module.imports(module)),
  });
  mem.memory = instance.exports.memory;
  return bind(instance.exports, mem);
}

function bind(x, mem) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let broken = null; // the trap that ended this instance, if any

  // Every call into the module: a trap (a panic aborts on wasm32) leaves the instance in an
  // unknown state, so it becomes unusable and each later call throws CHESS_ERR_INTERNAL.
  function raw(name, ...args) {
    if (broken) throw new ChessError(STATUS.CHESS_ERR_INTERNAL, 'the module trapped earlier', { cause: broken });
    try {
      return x[name](...args);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError || e instanceof WasiExit) {
        broken = e;
        throw new ChessError(STATUS.CHESS_ERR_INTERNAL, `${name} trapped: ${e.message}`, { cause: e });
      }
      throw e;
    }
  }

  function message(code) {
    return cString(raw('chess_statusMessage', code));
  }

  function fail(code) {
    return new ChessError(code, message(code));
  }

  function check(name, ...args) {
    const s = raw(name, ...args);
    if (s !== 0) throw fail(s);
  }

  function malloc(size) {
    const p = raw('malloc', size);
    if (p === 0) throw fail(STATUS.CHESS_ERR_OUT_OF_MEMORY);
    if (p % 8 !== 0) throw new Error(`malloc returned a misaligned pointer ${p}`);
    mem.u8().fill(0, p, p + size);
    return p;
  }

  function free(p) {
    if (p) raw('free', p);
  }

  function cString(p) {
    const u8 = mem.u8();
    let end = p;
    while (u8[end] !== 0) end++;
    return decoder.decode(u8.subarray(p, end));
  }

  // One scratch block for the outputs of a call (moves lists, text, numbers): calls are
  // synchronous and never re-enter, so one is enough.
  const SCRATCH_LIST = 0;
  const SCRATCH_TEXT = 520; // 256 bytes
  const SCRATCH_OUT = 776; // 256 bytes of small outputs
  const SCRATCH_IN = 1032; // input strings up to 1,016 bytes (longer ones get their own block)
  const SCRATCH_SIZE = 2048;
  const scratch = malloc(SCRATCH_SIZE);
  const list = scratch + SCRATCH_LIST;
  const text = scratch + SCRATCH_TEXT;
  const out = scratch + SCRATCH_OUT;

  /** Runs `fn` with `s` as a NUL-terminated UTF-8 string in the module's memory. */
  function withString(s, fn) {
    if (typeof s !== 'string') throw new TypeError(`expected a string, got ${typeof s}`);
    const bytes = encoder.encode(s);
    const own = bytes.length + 1 > SCRATCH_SIZE - SCRATCH_IN;
    const p = own ? malloc(bytes.length + 1) : scratch + SCRATCH_IN;
    mem.u8().set(bytes, p);
    mem.u8()[p + bytes.length] = 0;
    try {
      return fn(p);
    } finally {
      if (own) free(p);
    }
  }

  /** A NUL-terminated UTF-8 copy of `s` in its own block (free it). */
  function allocString(s) {
    const bytes = encoder.encode(s);
    const p = malloc(bytes.length + 1);
    mem.u8().set(bytes, p);
    return p;
  }

  function readList() {
    const dv = mem.dv();
    const n = dv.getUint32(list + 512, true);
    const moves = new Array(n);
    for (let i = 0; i < n; i++) moves[i] = dv.getUint16(list + 2 * i, true);
    return moves;
  }

  function uci(move, pos) {
    if (pos) check('chess_moveToUciInPosition', pos, move, text, 16);
    else check('chess_moveToUci', move, text, 16);
    return cString(text);
  }

  /** `v` if it is an integer in [lo, hi], else a RangeError (before any call, as Python does). */
  function intIn(v, lo, hi, what) {
    if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`${what}: an integer from ${lo} to ${hi}, got ${v}`);
    return v;
  }

  function u64(p) {
    const v = mem.dv().getBigUint64(p, true);
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }

  // Frees what the caller forgot to free when its wrapper is collected.
  const registry = new FinalizationRegistry((release) => {
    if (!broken) release();
  });

  function live(obj, ptr) {
    if (!ptr) throw new Error(`this ${obj.constructor.name} was freed`);
    return ptr;
  }

  class Board {
    #pos;
    #history = []; // {move, undo}: the records of push, for pop
    #release;

    /** The standard starting position, or `fen` (strict; `{ lenient: true }` reads as python-chess). */
    constructor(fen, { lenient = false } = {}) {
      this.#pos = malloc(POSITION_SIZE);
      const pos = this.#pos;
      const history = this.#history;
      this.#release = () => {
        for (const h of history) free(h.undo);
        free(pos);
      };
      registry.register(this, this.#release, this);
      try {
        if (fen === undefined) check('chess_setStartPosition', pos);
        else this.setFen(fen, { lenient });
      } catch (e) {
        this.free();
        throw e;
      }
    }

    /** Sets the position from a FEN; the move history is cleared. */
    setFen(fen, { lenient = false } = {}) {
      const pos = live(this, this.#pos);
      withString(fen, (p) => check(lenient ? 'chess_setFromFENLenient' : 'chess_setFromFEN', pos, p));
      this.#clearHistory();
    }

    /** The position's FEN. */
    fen() {
      check('chess_toFEN', live(this, this.#pos), text, FEN_MAX);
      return cString(text);
    }

    /** 'white' or 'black'. */
    get turn() {
      return COLORS[raw('chess_sideToMove', live(this, this.#pos))];
    }

    /** The legal moves as UCI strings. */
    legalMoves() {
      const pos = live(this, this.#pos);
      check('chess_generateLegalMoves', pos, list);
      return readList().map((m) => uci(m, pos));
    }

    /** Makes a move given as UCI text (checked: an illegal move throws CHESS_ERR_ILLEGAL_MOVE). */
    push(move) {
      const pos = live(this, this.#pos);
      const m = withString(move, (p) => {
        check('chess_moveFromUci', pos, p, out);
        return mem.dv().getUint16(out, true);
      });
      this.#make(m);
    }

    /** Makes a move given in SAN (strict SAN; `{ tolerant: true }` accepts common variants). */
    pushSan(san, { tolerant = false } = {}) {
      const pos = live(this, this.#pos);
      const m = withString(san, (p) => {
        check('chess_moveFromSan', pos, p, tolerant ? 1 : SAN_STRICT, out);
        return mem.dv().getUint16(out, true);
      });
      this.#make(m);
    }

    #make(m) {
      const undo = malloc(UNDO_SIZE);
      try {
        check('chess_makeMove', this.#pos, m, undo);
      } catch (e) {
        free(undo);
        throw e;
      }
      this.#history.push({ move: m, undo });
    }

    /** Takes back the last move made with push or pushSan and returns it as UCI text. */
    pop() {
      const pos = live(this, this.#pos);
      const last = this.#history.at(-1);
      if (!last) throw new ChessError(STATUS.CHESS_ERR_INVALID_ARGUMENT, 'no move to take back');
      check('chess_unmakeMove', pos, last.move, last.undo);
      this.#history.pop();
      free(last.undo);
      return uci(last.move, pos);
    }

    /** The SAN of a legal move given as UCI text, in this position. */
    san(move) {
      const pos = live(this, this.#pos);
      return withString(move, (p) => {
        check('chess_moveFromUci', pos, p, out);
        check('chess_moveToSan', pos, mem.dv().getUint16(out, true), text, 16);
        return cString(text);
      });
    }

    /** Number of leaf nodes at `depth` (a number; a bigint past 2^53). */
    perft(depth) {
      check('chess_perft', live(this, this.#pos), intIn(depth, 0, 64, 'depth'), out);
      return u64(out);
    }

    /** Whether the side to move is in check. */
    inCheck() {
      return raw('chess_isInCheck', live(this, this.#pos)) !== 0;
    }

    /** 'ONGOING', 'CHECKMATE', 'STALEMATE', 'FIFTY_MOVE_RULE', 'THREEFOLD_REPETITION', 'INSUFFICIENT_MATERIAL'. */
    status() {
      check('chess_gameStatus', live(this, this.#pos), out);
      return GAME_STATUS[mem.dv().getInt32(out, true)];
    }

    /** The 64-bit Zobrist hash. */
    hash() {
      return BigInt.asUintN(64, raw('chess_hash', live(this, this.#pos)));
    }

    /** An independent copy (its own memory; pop works on it as on this board). */
    clone() {
      const pos = live(this, this.#pos);
      const copy = new Board();
      mem.u8().copyWithin(copy.#pos, pos, pos + POSITION_SIZE);
      for (const h of this.#history) {
        const undo = malloc(UNDO_SIZE);
        mem.u8().copyWithin(undo, h.undo, h.undo + UNDO_SIZE);
        copy.#history.push({ move: h.move, undo });
      }
      return copy;
    }

    #clearHistory() {
      for (const h of this.#history) free(h.undo);
      this.#history.length = 0;
    }

    /** Frees the position's memory now (else it is freed when the board is collected). */
    free() {
      if (!this.#pos) return;
      registry.unregister(this);
      this.#release();
      this.#pos = 0;
    }

    /** @internal */
    get _ptr() {
      return live(this, this.#pos);
    }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
      this.free();
    }
  }

  /** Writes a ChessSearchLimits for `limits`; at least one of depth, nodes, movetimeMs. */
  function writeLimits(p, { depth, nodes, movetimeMs } = {}) {
    if (depth === undefined && nodes === undefined && movetimeMs === undefined) {
      // An unlimited search would block this thread until depth 127.
      throw new TypeError('give a limit: depth, nodes or movetimeMs');
    }
    raw('chess_searchLimitsInit', p);
    const dv = mem.dv();
    if (dv.getUint32(p, true) !== LIMITS_SIZE) throw new Error('unexpected ChessSearchLimits size');
    // Out-of-range values go to the library as they are (it refuses them with
    // CHESS_ERR_INVALID_LIMITS); only what does not fit the field's type stops here.
    if (depth !== undefined) dv.setInt32(p + 4, intIn(depth, -(2 ** 31), 2 ** 31 - 1, 'depth'), true);
    if (nodes !== undefined) dv.setBigUint64(p + 8, BigInt.asUintN(64, BigInt(nodes)), true);
    if (movetimeMs !== undefined) {
      dv.setBigInt64(p + 16, BigInt(intIn(movetimeMs, -(2 ** 53), 2 ** 53, 'movetimeMs')), true);
    }
  }

  class Engine {
    #engine;
    #buf; // limits, then the result
    #release;

    /** A new engine; `options` are UCI options (`{ Hash: 32 }`). */
    constructor(options = {}) {
      const engine = raw('chess_engineNew');
      if (engine === 0) throw fail(STATUS.CHESS_ERR_OUT_OF_MEMORY);
      let buf = 0;
      try {
        buf = malloc(LIMITS_SIZE + RESULT_SIZE);
      } catch (e) {
        raw('chess_engineFree', engine);
        throw e;
      }
      this.#engine = engine;
      this.#buf = buf;
      this.#release = () => {
        raw('chess_engineFree', engine);
        free(buf);
      };
      registry.register(this, this.#release, this);
      try {
        for (const [name, value] of Object.entries(options)) this.setOption(name, value);
      } catch (e) {
        this.free();
        throw e;
      }
    }

    /** Sets a UCI option. `Threads` above 1 throws CHESS_ERR_OUT_OF_MEMORY: wasm32 has no threads. */
    setOption(name, value) {
      const engine = live(this, this.#engine);
      const n = allocString(String(name));
      try {
        withString(String(value), (v) => check('chess_engineSetOption', engine, n, v));
      } finally {
        free(n);
      }
    }

    /** Forgets the previous games (clears the hash tables). */
    newGame() {
      check('chess_engineNewGame', live(this, this.#engine));
    }

    /**
     * Searches `board` (not changed) and returns the best move and its score. `limits`:
     * `depth`, `nodes`, `movetimeMs` (at least one). It blocks this thread meanwhile (in a
     * browser, run it in a Worker).
     */
    search(board, limits) {
      const engine = live(this, this.#engine);
      const lim = this.#buf;
      const res = lim + LIMITS_SIZE;
      writeLimits(lim, limits);
      check('chess_search', engine, board._ptr, lim, res);
      const dv = mem.dv();
      const pvLength = dv.getUint32(res + 40, true);
      const pv = [];
      for (let i = 0; i < pvLength; i++) pv.push(uci(dv.getUint16(res + 44 + 2 * i, true)));
      const best = dv.getUint16(res + 4, true);
      const ponder = dv.getUint16(res + 6, true);
      return {
        bestMove: best ? uci(best, board._ptr) : null,
        ponderMove: ponder ? uci(ponder) : null,
        scoreCp: dv.getInt32(res + 8, true),
        mateIn: dv.getInt32(res + 12, true),
        depth: dv.getUint32(res + 16, true),
        seldepth: dv.getUint32(res + 20, true),
        nodes: u64(res + 24),
        timeMs: u64(res + 32),
        pv,
      };
    }

    /** The static evaluation of `board` in centipawns, from the side to move's view. */
    evaluate(board) {
      check('chess_evaluate', live(this, this.#engine), board._ptr, out);
      return mem.dv().getInt32(out, true);
    }

    /**
     * Searches a Dice Chess game whose dice are rolled: the best move (null: the pass), in
     * three dice the whole rest of the turn, the value and the expected score.
     */
    diceSearch(game, limits) {
      const engine = live(this, this.#engine);
      const lim = this.#buf;
      const res = lim + LIMITS_SIZE;
      writeLimits(lim, limits);
      check('chess_diceSearch', engine, game._ptr, lim, res);
      return readDiceResult(res);
    }

    /**
     * One search before the roll (`chess_diceSearchAllRolls`): for every outcome of the
     * awaited roll, in the order of `outcomes()`, its faces, its weight over `denominator`
     * and the best move or turn for it with its value (as `diceSearch` gives them).
     */
    diceSearchAllRolls(game, limits) {
      const engine = live(this, this.#engine);
      const lim = this.#buf;
      writeLimits(lim, limits);
      const buf = malloc(DICE_ADVICE_SIZE * MAX_OUTCOMES + 8);
      try {
        const count = buf + DICE_ADVICE_SIZE * MAX_OUTCOMES;
        check('chess_diceSearchAllRolls', engine, game._ptr, lim, buf, MAX_OUTCOMES, count);
        const n = mem.dv().getUint32(count, true);
        const rolls = [];
        for (let i = 0; i < n; i++) {
          const p = buf + DICE_ADVICE_SIZE * i;
          rolls.push({
            faces: rollFaces(p),
            weight: mem.dv().getUint32(p + 4, true),
            ...readDiceResult(p + 8),
          });
        }
        return { rolls, denominator: rolls.reduce((sum, r) => sum + r.weight, 0) };
      } finally {
        free(buf);
      }
    }

    /**
     * The chances of a win, a draw and a loss of a Dice Chess game before its roll, for its
     * side to move (`chess_diceEquity`): the search's value under `limits` read through the
     * rule set's fitted model (docs/results/dice-equity.md, fitted at depth 2 in two dice and
     * one die, depth 1 in three dice); they sum to 1. A finished game gives its result.
     */
    diceEquity(game, limits) {
      const engine = live(this, this.#engine);
      const lim = this.#buf;
      const res = lim + LIMITS_SIZE;
      writeLimits(lim, limits);
      check('chess_diceEquity', engine, game._ptr, lim, res);
      const dv = mem.dv();
      if (dv.getUint32(res, true) !== DICE_EQUITY_SIZE) throw new Error('unexpected ChessDiceEquity size');
      return {
        win: dv.getFloat64(res + 8, true),
        draw: dv.getFloat64(res + 16, true),
        loss: dv.getFloat64(res + 24, true),
        expectedScore: dv.getFloat64(res + 32, true),
        value: dv.getInt32(res + 4, true),
        depth: dv.getUint32(res + 40, true),
        winIn: dv.getInt32(res + 44, true),
        nodes: u64(res + 48),
        timeMs: u64(res + 56),
      };
    }

    /** Frees the engine now (else it is freed when the object is collected). */
    free() {
      if (!this.#engine) return;
      registry.unregister(this);
      this.#release();
      this.#engine = 0;
    }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
      this.free();
    }
  }

  function readDiceResult(res) {
    const dv = mem.dv();
    const turn = [];
    const turnLength = dv.getUint16(res + 6, true);
    for (let i = 0; i < turnLength; i++) turn.push(uci(dv.getUint16(res + 8 + 2 * i, true)));
    const best = dv.getUint16(res + 4, true);
    return {
      bestMove: best ? uci(best) : null,
      turn,
      value: dv.getInt32(res + 16, true),
      winIn: dv.getInt32(res + 20, true),
      expectedScore: dv.getFloat64(res + 24, true),
      depth: dv.getUint32(res + 32, true),
      nodes: u64(res + 40),
      timeMs: u64(res + 48),
    };
  }

  function rollFaces(p) {
    const u8 = mem.u8();
    return Array.from(u8.subarray(p + 1, p + 1 + u8[p]));
  }

  class DiceGame {
    #game;
    #pos; // scratch for the side to move
    #history = []; // {roll: true, faces, mover} or {move, undo}
    #fromStart = false;
    #release;

    /**
     * A Dice Chess game under `rules` ('twoDice', 'oneDie', 'threeDice'): the starting
     * position awaiting the first roll, or a dice FEN.
     */
    constructor(rules = 'twoDice', fen) {
      const code = DICE_RULES[rules];
      if (code === undefined) throw fail(STATUS.CHESS_ERR_DICE_INVALID_RULES);
      this.#game = malloc(DICE_GAME_SIZE);
      this.#pos = malloc(POSITION_SIZE);
      const game = this.#game;
      const pos = this.#pos;
      const history = this.#history;
      this.#release = () => {
        for (const h of history) free(h.undo);
        free(game);
        free(pos);
      };
      registry.register(this, this.#release, this);
      try {
        if (fen === undefined) check('chess_diceSetStart', game, code);
        else withString(fen, (p) => check('chess_diceSetFromFEN', game, code, p));
      } catch (e) {
        this.free();
        throw e;
      }
      this.rules = rules;
      this.#fromStart = fen === undefined;
    }

    /** The dice FEN (seven fields: the dice still to play last). */
    fen() {
      check('chess_diceGetFEN', live(this, this.#game), text, DICE_FEN_MAX);
      return cString(text);
    }

    /** The player whose turn it is: 'white' or 'black'. */
    get turn() {
      check('chess_diceGetPosition', live(this, this.#game), this.#pos);
      return COLORS[raw('chess_sideToMove', this.#pos)];
    }

    /** The outcomes of the awaited roll with their weights over `denominator`. */
    outcomes() {
      const game = live(this, this.#game);
      const buf = malloc(8 * MAX_OUTCOMES);
      try {
        check('chess_diceOutcomes', game, buf, MAX_OUTCOMES, out, out + 4);
        const dv = mem.dv();
        const count = dv.getUint32(out, true);
        const outcomes = [];
        for (let i = 0; i < count; i++) {
          outcomes.push({ faces: rollFaces(buf + 8 * i), weight: dv.getUint32(buf + 8 * i + 4, true) });
        }
        return { outcomes, denominator: dv.getUint32(out + 4, true) };
      } finally {
        free(buf);
      }
    }

    /**
     * Rolls the dice: `faces` (1 pawn .. 6 king; any order), or, without it, a roll drawn
     * with `random` (a function returning [0, 1)) by the outcomes' weights. Returns the faces.
     */
    roll(faces, random = Math.random) {
      const game = live(this, this.#game);
      if (faces === undefined) {
        const { outcomes, denominator } = this.outcomes();
        if (outcomes.length === 0) throw fail(STATUS.CHESS_ERR_DICE_NOT_AWAITING_ROLL);
        let r = Math.floor(random() * denominator);
        let pick = outcomes.at(-1);
        for (const o of outcomes) {
          if (r < o.weight) {
            pick = o;
            break;
          }
          r -= o.weight;
        }
        faces = pick.faces;
      }
      const u8 = mem.u8();
      const f = out + 16;
      if (!Array.isArray(faces) || faces.length > 8) throw fail(STATUS.CHESS_ERR_DICE_INVALID_ROLL);
      faces.forEach((v, i) => (u8[f + i] = v));
      check('chess_diceRollFromFaces', f, faces.length, out);
      const mover = this.turn;
      check('chess_diceSetRoll', game, out); // a struct argument is passed by address on wasm32
      const rolled = rollFaces(out);
      this.#history.push({ roll: true, faces: rolled, mover });
      return rolled;
    }

    /** The dice still to play (empty before the roll). */
    dice() {
      check('chess_diceGetDice', live(this, this.#game), out);
      return rollFaces(out);
    }

    /** The moves the dice allow, as UCI text (empty: the turn passes, `push(null)`). */
    legalMoves() {
      check('chess_diceGenerateMoves', live(this, this.#game), list);
      return readList().map((m) => uci(m));
    }

    /** Makes one of `legalMoves()` (UCI text), or passes with null when there is none. */
    push(move) {
      const game = live(this, this.#game);
      let m = 0;
      if (move !== null) {
        check('chess_diceGenerateMoves', game, list);
        const found = readList().find((v) => uci(v) === move);
        if (found === undefined) throw fail(STATUS.CHESS_ERR_ILLEGAL_MOVE);
        m = found;
      }
      const undo = malloc(DICE_UNDO_SIZE);
      try {
        check('chess_diceMakeMove', game, m, undo);
      } catch (e) {
        free(undo);
        throw e;
      }
      this.#history.push({ move: m, undo });
    }

    /** Takes back the last roll or move; returns null for a roll, else the move's UCI text. */
    pop() {
      const game = live(this, this.#game);
      const last = this.#history.at(-1);
      if (!last) throw new ChessError(STATUS.CHESS_ERR_INVALID_ARGUMENT, 'nothing to take back');
      if (last.roll) {
        check('chess_diceClearRoll', game);
        this.#history.pop();
        return null;
      }
      check('chess_diceUnmakeMove', game, last.move, last.undo);
      this.#history.pop();
      free(last.undo);
      return last.move ? uci(last.move) : '0000';
    }

    /** `{ state, winner, reason }`: state 'AWAITING_ROLL', 'AWAITING_MOVE', 'WON', 'DRAWN'. */
    status() {
      check('chess_diceStatus', live(this, this.#game), out);
      const dv = mem.dv();
      const state = DICE_STATE[dv.getUint32(out, true)];
      const reason = dv.getUint8(out + 5);
      return {
        state,
        winner: state === 'WON' ? COLORS[dv.getUint8(out + 4)] : null,
        reason: state === 'WON' ? DICE_WIN[reason] : state === 'DRAWN' ? DICE_DRAW[reason] : null,
      };
    }

    /**
     * The game as the dice PGN of `chesscore dice selfplay` (src/dice/pgn.rs), which
     * `chesscore dice selfplay --verify` reads: rolls in comments, moves in UCI, `--` for a
     * pass. `tags` adds or replaces tags (`White`, `Black`, `Event`, ...). A turn not yet
     * complete is left out (the result is then `*`). Only a game from the start position
     * (the format has no FEN tag): else CHESS_ERR_INVALID_ARGUMENT.
     */
    pgn(tags = {}) {
      live(this, this.#game);
      if (!this.#fromStart) {
        throw new ChessError(STATUS.CHESS_ERR_INVALID_ARGUMENT, 'the dice PGN needs a game from the start position');
      }
      const st = this.status();
      let history = this.#history;
      if (st.state === 'AWAITING_MOVE') {
        let i = history.length - 1;
        while (i >= 0 && !history[i].roll) i--;
        history = history.slice(0, Math.max(i, 0));
      }
      const result = st.state === 'WON' ? (st.winner === 'white' ? '1-0' : '0-1')
        : st.state === 'DRAWN' ? '1/2-1/2' : '*';
      const termination = st.state === 'AWAITING_MOVE' || st.state === 'AWAITING_ROLL' ? 'unterminated'
        : st.reason === 'KING_CAPTURE' ? 'king capture' : st.reason === 'CHECKMATE' ? 'checkmate'
          : st.reason === 'FIFTY_MOVES' ? 'fifty-move rule' : st.reason === 'STALEMATE' ? 'stalemate'
            : 'dead position';
      const all = {
        Event: 'chesscore dice game', Site: '?', Round: '1', White: '?', Black: '?',
        ...tags, Result: result, Variant: DICE_VARIANT[this.rules], Termination: termination,
      };
      const quote = (v) => String(v).replace(/[\\"]/g, '');
      let s = Object.entries(all).map(([k, v]) => `[${k} "${quote(v)}"]\n`).join('') + '\n';
      const tokens = [];
      let number = 1;
      for (const h of history) {
        if (h.roll) {
          if (h.mover === 'white') tokens.push(`${number}.`);
          else if (tokens.length === 0) tokens.push(`${number}...`);
          tokens.push(`{roll ${h.faces.join('-')}}`);
          if (h.mover === 'black') number++;
        } else {
          tokens.push(h.move ? uci(h.move) : '--');
        }
      }
      tokens.push(result);
      let line = '';
      for (const t of tokens) {
        if (line.length + t.length + 1 > 80) {
          s += line + '\n';
          line = '';
        }
        line += (line ? ' ' : '') + t;
      }
      return s + line + '\n\n';
    }

    /** Frees the game's memory now (else it is freed when the game is collected). */
    free() {
      if (!this.#game) return;
      registry.unregister(this);
      this.#release();
      this.#game = 0;
    }

    /** @internal */
    get _ptr() {
      return live(this, this.#game);
    }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
      this.free();
    }
  }

  const CUBE_OWNERS = { centered: 0, mover: 1, opponent: 2 };

  /**
   * The doubling cube's advice for the side to move before its roll (`chess_diceCubeAdvice`;
   * docs/dice.md "The doubling cube"): from its chances `{ win, draw, loss }` (an
   * `Engine.diceEquity` result, or the caller's own, summing to 1) and who owns the cube
   * (`'centered'`, `'mover'` or `'opponent'`). Equities are the side to move's, in units of
   * the current stake.
   */
  function diceCubeAdvice(equity, owner = 'centered') {
    if (!Object.hasOwn(CUBE_OWNERS, owner)) throw new TypeError(`unknown cube owner ${owner}`);
    const q = out; // a ChessDiceEquity (128 bytes), then the advice (64) in the 256 of `out`
    const a = out + DICE_EQUITY_SIZE;
    mem.u8().fill(0, q, q + DICE_EQUITY_SIZE);
    const dv = mem.dv();
    dv.setUint32(q, DICE_EQUITY_SIZE, true);
    dv.setFloat64(q + 8, Number(equity.win), true);
    dv.setFloat64(q + 16, Number(equity.draw), true);
    dv.setFloat64(q + 24, Number(equity.loss), true);
    check('chess_diceCubeAdvice', q, CUBE_OWNERS[owner], a);
    const r = mem.dv();
    if (r.getUint32(a, true) !== 64) throw new Error('unexpected ChessDiceCubeAdvice size');
    return {
      shouldDouble: r.getUint8(a + 4) === 1,
      shouldTake: r.getUint8(a + 5) === 1,
      noDouble: r.getFloat64(a + 8, true),
      doubleTake: r.getFloat64(a + 16, true),
      takePoint: r.getFloat64(a + 24, true),
    };
  }

  return {
    Board,
    Engine,
    DiceGame,
    diceCubeAdvice,
    version: cString(raw('chess_version')),
    /**
     * Calls a C function of the header by name with numbers (pointers are offsets into the
     * module's memory) and returns what it returns; a trap becomes CHESS_ERR_INTERNAL.
     */
    call: raw,
    /** The module's memory (views over it are invalid once it grows). */
    memory: mem.memory,
    /** The English sentence of a ChessStatus (name or number). */
    statusMessage: (status) => message(typeof status === 'string' ? STATUS[status] : status),
  };
}
