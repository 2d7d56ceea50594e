// Type declarations of index.mjs: chesscore's C ABI compiled to WebAssembly.

/** ChessStatus names and numbers, as in include/chesscore.h. */
export declare const STATUS: Readonly<Record<ChessStatusName, number>>;

export type ChessStatusName =
  | 'CHESS_OK' | 'CHESS_ERR_NULL_ARGUMENT' | 'CHESS_ERR_BUFFER_TOO_SMALL'
  | 'CHESS_ERR_ILLEGAL_MOVE' | 'CHESS_ERR_HISTORY_FULL' | 'CHESS_ERR_INVALID_ARGUMENT'
  | 'CHESS_ERR_INVALID_POSITION' | 'CHESS_ERR_BAD_UNDO' | 'CHESS_ERR_INTERNAL'
  | 'CHESS_ERR_FEN_FIELD_COUNT' | 'CHESS_ERR_FEN_TRAILING_TEXT' | 'CHESS_ERR_FEN_BOARD'
  | 'CHESS_ERR_FEN_SIDE_TO_MOVE' | 'CHESS_ERR_FEN_CASTLING' | 'CHESS_ERR_FEN_EN_PASSANT'
  | 'CHESS_ERR_FEN_HALFMOVE_CLOCK' | 'CHESS_ERR_FEN_FULLMOVE_NUMBER' | 'CHESS_ERR_FEN_KING_COUNT'
  | 'CHESS_ERR_FEN_PAWN_ON_BACK_RANK' | 'CHESS_ERR_FEN_TOO_MANY_PIECES'
  | 'CHESS_ERR_FEN_CASTLING_RIGHTS' | 'CHESS_ERR_FEN_EN_PASSANT_RANK'
  | 'CHESS_ERR_FEN_EN_PASSANT_PAWN' | 'CHESS_ERR_FEN_OPPONENT_IN_CHECK'
  | 'CHESS_ERR_FEN_IMPOSSIBLE_CHECK' | 'CHESS_ERR_ENGINE_BUSY' | 'CHESS_ERR_INVALID_LIMITS'
  | 'CHESS_ERR_UNKNOWN_OPTION' | 'CHESS_ERR_BAD_OPTION_VALUE' | 'CHESS_ERR_OUT_OF_MEMORY'
  | 'CHESS_ERR_EVAL_FILE_UNREADABLE' | 'CHESS_ERR_EVAL_FILE_INVALID'
  | 'CHESS_ERR_DICE_INVALID_GAME' | 'CHESS_ERR_DICE_INVALID_RULES'
  | 'CHESS_ERR_DICE_NOT_AWAITING_ROLL' | 'CHESS_ERR_DICE_NOT_AWAITING_MOVE'
  | 'CHESS_ERR_DICE_INVALID_ROLL' | 'CHESS_ERR_DICE_FEN_EN_PASSANT' | 'CHESS_ERR_DICE_FEN_DICE'
  | 'CHESS_ERR_DICE_FEN_BOTH_IN_CHECK' | 'CHESS_ERR_DICE_UNSUPPORTED_LIMITS'
  | 'CHESS_ERR_SAN_SYNTAX' | 'CHESS_ERR_SAN_ILLEGAL' | 'CHESS_ERR_SAN_AMBIGUOUS'
  | 'CHESS_ERR_PGN_END_OF_INPUT' | 'CHESS_ERR_PGN_TAG' | 'CHESS_ERR_PGN_FEN'
  | 'CHESS_ERR_PGN_VARIANT' | 'CHESS_ERR_PGN_TOKEN' | 'CHESS_ERR_PGN_UNTERMINATED'
  | 'CHESS_ERR_PGN_PARENTHESIS' | 'CHESS_ERR_PGN_NO_GAME' | 'CHESS_ERR_PGN_NO_SUCH_TAG';

/** Thrown by every call that fails: the C function's ChessStatus, by name and number. */
export declare class ChessError extends Error {
  readonly name: 'ChessError';
  /** The ChessStatus name, e.g. 'CHESS_ERR_ILLEGAL_MOVE'. */
  readonly status: ChessStatusName;
  /** The ChessStatus number. */
  readonly code: number;
}

export type Color = 'white' | 'black';
export type GameStatus =
  | 'ONGOING' | 'CHECKMATE' | 'STALEMATE' | 'FIFTY_MOVE_RULE' | 'THREEFOLD_REPETITION'
  | 'INSUFFICIENT_MATERIAL';

/** At least one of them. */
export interface SearchLimits {
  depth?: number;
  nodes?: number | bigint;
  movetimeMs?: number;
}

export interface SearchResult {
  /** UCI text; null when the position has no legal move. */
  bestMove: string | null;
  ponderMove: string | null;
  scoreCp: number;
  /** Moves to mate (negative: being mated), 0 for none. */
  mateIn: number;
  depth: number;
  seldepth: number;
  nodes: number;
  timeMs: number;
  pv: string[];
}

export interface DiceSearchResult {
  /** UCI text; null for the pass. */
  bestMove: string | null;
  /** Three dice: the rest of the turn, up to three micro-moves. */
  turn: string[];
  value: number;
  winIn: number;
  /** The expected score in [0, 1] for the side to move. */
  expectedScore: number;
  depth: number;
  nodes: number;
  timeMs: number;
}

/** `Engine.diceEquity`: the side to move's chances before the roll (they sum to 1). */
export interface DiceEquity {
  win: number;
  draw: number;
  loss: number;
  /** `win + draw / 2`. */
  expectedScore: number;
  /** The search's value they come from (a finished game: the win value, its negative, or 0). */
  value: number;
  /** Depth in turns of the last completed iteration (0 for a finished game). */
  depth: number;
  /** Turns to a proven win (> 0) or loss (< 0), this one counted; 0 when none is proven. */
  winIn: number;
  nodes: number;
  timeMs: number;
}

declare class Board {
  /** The starting position, or `fen` (strict; lenient reads as python-chess does). */
  constructor(fen?: string, options?: { lenient?: boolean });
  setFen(fen: string, options?: { lenient?: boolean }): void;
  fen(): string;
  readonly turn: Color;
  /** The legal moves as UCI text. */
  legalMoves(): string[];
  /** Makes a move given as UCI text; an illegal one throws CHESS_ERR_ILLEGAL_MOVE. */
  push(uci: string): void;
  pushSan(san: string, options?: { tolerant?: boolean }): void;
  /** Takes back the last push and returns its UCI text. */
  pop(): string;
  /** The SAN of a legal move given as UCI text. */
  san(uci: string): string;
  /** Leaf nodes at `depth`, 0 to 64 (else a RangeError; a bigint past 2^53). */
  perft(depth: number): number | bigint;
  inCheck(): boolean;
  status(): GameStatus;
  hash(): bigint;
  clone(): Board;
  /** Frees the memory now (else when the board is collected). */
  free(): void;
  /** The ChessPosition's address in the module's memory, for `call`. */
  readonly _ptr: number;
}

declare class Engine {
  /** A new engine; `options` are UCI options, e.g. `{ Hash: 32 }`. */
  constructor(options?: Record<string, string | number | boolean>);
  /** `Threads` above 1 throws CHESS_ERR_OUT_OF_MEMORY: wasm32 has no threads. */
  setOption(name: string, value: string | number | boolean): void;
  newGame(): void;
  /** Blocks the calling thread until a limit is reached (run it in a Worker in browsers). */
  search(board: Board, limits: SearchLimits): SearchResult;
  evaluate(board: Board): number;
  diceSearch(game: DiceGame, limits: SearchLimits): DiceSearchResult;
  /**
   * One search before the roll (`chess_diceSearchAllRolls`): every outcome of the awaited
   * roll, in the order of `outcomes()`, with the best move or turn for it. The game must await
   * its roll (else CHESS_ERR_DICE_NOT_AWAITING_ROLL).
   */
  diceSearchAllRolls(game: DiceGame, limits: SearchLimits): {
    rolls: (DiceSearchResult & { faces: number[]; weight: number })[];
    denominator: number;
  };
  /**
   * The side to move's chances of a win, a draw and a loss before the roll
   * (`chess_diceEquity`): the search's value under `limits` through the rule set's fitted
   * model (fitted at depth 2 in two dice and one die, depth 1 in three dice). A finished game
   * gives its result; a rolled one throws CHESS_ERR_DICE_NOT_AWAITING_ROLL.
   */
  diceEquity(game: DiceGame, limits: SearchLimits): DiceEquity;
  free(): void;
}

export type DiceRules = 'twoDice' | 'oneDie' | 'threeDice';
export type DiceState = 'AWAITING_ROLL' | 'AWAITING_MOVE' | 'WON' | 'DRAWN';

declare class DiceGame {
  /** The starting position awaiting the first roll, or a dice FEN. */
  constructor(rules?: DiceRules, fen?: string);
  readonly rules: DiceRules;
  fen(): string;
  readonly turn: Color;
  /** The awaited roll's outcomes (faces 1 pawn .. 6 king) with weights over `denominator`. */
  outcomes(): { outcomes: { faces: number[]; weight: number }[]; denominator: number };
  /** Rolls `faces`, or a roll drawn by the outcomes' weights with `random`; returns the faces. */
  roll(faces?: number[], random?: () => number): number[];
  /** The dice still to play. */
  dice(): number[];
  /** The moves the dice allow, as UCI text; empty: pass with `push(null)`. */
  legalMoves(): string[];
  push(uci: string | null): void;
  /** Takes back the last move (its UCI text; '0000' for a pass) or roll (null). */
  pop(): string | null;
  /**
   * The game as the dice PGN that `chesscore dice selfplay --verify` reads (rolls in comments,
   * UCI moves, `--` for a pass); `tags` adds or replaces tags (Event, White, Black, ...). A turn
   * not yet complete is left out. Only for a game from the start position (a game made from a
   * FEN: CHESS_ERR_INVALID_ARGUMENT).
   */
  pgn(tags?: Record<string, string>): string;
  status(): {
    state: DiceState;
    winner: Color | null;
    reason: 'KING_CAPTURE' | 'CHECKMATE' | 'FIFTY_MOVES' | 'STALEMATE' | 'DEAD_POSITION' | null;
  };
  free(): void;
  /** The ChessDiceGame's address in the module's memory, for `call`. */
  readonly _ptr: number;
}

/** `diceCubeAdvice`: the doubling cube's advice; equities in units of the current stake. */
export interface CubeAdvice {
  /** Double now (false when it should not or may not). */
  shouldDouble: boolean;
  /** The other side should take a double (else pass). */
  shouldTake: boolean;
  /** The side to move's equity without doubling. */
  noDouble: number;
  /** Its equity after a double and a take (a pass gives +1). */
  doubleTake: number;
  /** The least expected score with which the taker takes. */
  takePoint: number;
}

export interface Chesscore {
  Board: typeof Board;
  Engine: typeof Engine;
  DiceGame: typeof DiceGame;
  /**
   * The doubling cube's advice for the side to move before its roll
   * (`chess_diceCubeAdvice`) from its chances (summing to 1) and who owns the cube.
   */
  diceCubeAdvice(
    equity: Pick<DiceEquity, 'win' | 'draw' | 'loss'>,
    owner?: 'centered' | 'mover' | 'opponent',
  ): CubeAdvice;
  /** chess_version(). */
  version: string;
  /** A C function by name, numbers in and out (pointers are offsets into `memory`). */
  call(name: string, ...args: (number | bigint)[]): number | bigint | undefined;
  memory: WebAssembly.Memory;
  statusMessage(status: ChessStatusName | number): string;
}

/**
 * Loads chesscore.wasm: by default the file beside index.mjs (read from disk in node, fetched
 * in browsers); or a URL, a path, a fetch Response (or its promise), the bytes, or a Module.
 * Each call makes an independent instance.
 */
export declare function load(
  source?: string | URL | Response | Promise<Response> | BufferSource | WebAssembly.Module,
): Promise<Chesscore>;

// The classes belong to an instance (`(await load()).Board`): exported as types only.
export type { Board, Engine, DiceGame };
