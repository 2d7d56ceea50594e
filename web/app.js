// The Dice Chess board: the page's logic. Every rule (the roll's outcomes, the moves a roll
// allows, the game's end, the PGN) comes from chesscore compiled to WebAssembly through
// ../wasm/index.mjs; this file draws the board, forwards clicks and asks the engine (in a
// Web Worker, see worker.js) for its moves, the hints and the win chances.
import { load, ChessError } from '../wasm/index.mjs';
import { makeHandler } from './engine.js';

const FACE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const FACE_GLYPHS = ['', '\u265F', '\u265E', '\u265D', '\u265C', '\u265B', '\u265A'];
const PIECE_GLYPHS = { p: '\u265F', n: '\u265E', b: '\u265D', r: '\u265C', q: '\u265B', k: '\u265A' };
const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/**
 * The limits of the win chances before each roll: the depth each rule set's model was fitted
 * at (docs/results/dice-equity.md: two turns in two dice and one die, one turn in three
 * dice), at most 300 ms; as `chesscore dice` (src/bin/chesscore/dice/play.rs).
 */
export function equityLimits(rules) {
  return { depth: rules === 'threeDice' ? 1 : 2, movetimeMs: 300 };
}

/** Whole percentages of `chances` that sum to 100 (the largest remainders round up). */
export function percentages(chances) {
  const raw = chances.map((c) => 100 * c);
  const out = raw.map(Math.floor);
  const order = raw.map((r, i) => [r - out[i], i]).sort((a, b) => b[0] - a[0]);
  for (let k = 0, left = 100 - out.reduce((s, x) => s + x, 0); k < left; k++) out[order[k % out.length][1]]++;
  return out;
}

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// The dice: Math.random, or a seeded generator with ?seed=N (reproducible games, tests).
let diceRandom = Math.random;
if (params.get('seed')) {
  let x = Number(params.get('seed')) >>> 0;
  diceRandom = () => { // mulberry32
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cc = await load();
$('version').textContent = `chesscore ${cc.version}`;

// The engine: a Web Worker when the browser starts one, else the same code in the page.
let ask;
{
  let worker = null;
  try {
    if (params.get('worker') !== '0') worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
  }
  if (worker) {
    let next = 1;
    const waiting = new Map();
    worker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (e.data.error) w.reject(new Error(e.data.error));
      else w.resolve(e.data.result);
    };
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(`worker: ${e.message}`));
      waiting.clear();
    };
    ask = (msg) => new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id });
    });
  } else {
    const handle = makeHandler(await load());
    ask = async (msg) => {
      await new Promise((r) => setTimeout(r, 0)); // let the page paint first
      return handle(msg);
    };
  }
  window.__engineInWorker = Boolean(worker);
}

const ui = {
  game: null,
  rules: 'twoDice',
  human: 'white',
  selected: null,
  pendingPromotion: null,
  advice: null, // all-rolls result for the position before this roll: { fen, rolls, denominator }
  hint: null,
  lastMove: null,
  busy: false,
  epoch: 0, // bumped by New game: stale engine answers are dropped
  log: [], // lines of the record
};
// Test and console access.
window.diceBoard = ui;

function limits() {
  const ms = Math.max(10, Math.min(10000, Number($('movetime').value) || 500));
  return { movetimeMs: ms };
}

function parseBoard(fen) {
  const rows = fen.split(' ')[0].split('/');
  const squares = {};
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else {
        squares[`${'abcdefgh'[f]}${8 - r}`] = ch;
        f++;
      }
    }
  });
  return squares;
}

function renderBoard() {
  const board = $('board');
  board.textContent = '';
  const squares = parseBoard(ui.game.fen());
  const st = ui.game.status();
  if (st.reason === 'KING_CAPTURE' && ui.lastMove) {
    // The library does not make the capture on the board (docs/dice-rules.md): drawn here.
    squares[ui.lastMove.slice(2, 4)] = squares[ui.lastMove.slice(0, 2)];
    delete squares[ui.lastMove.slice(0, 2)];
  }
  const legal = st.state === 'AWAITING_MOVE' ? ui.game.legalMoves() : [];
  const targets = new Set(ui.selected ? legal.filter((m) => m.startsWith(ui.selected)).map((m) => m.slice(2, 4)) : []);
  const hintSquares = new Set(ui.hint ? [ui.hint.slice(0, 2), ui.hint.slice(2, 4)] : []);
  const lastSquares = new Set(ui.lastMove ? [ui.lastMove.slice(0, 2), ui.lastMove.slice(2, 4)] : []);
  const flip = ui.human === 'black';
  for (let i = 0; i < 64; i++) {
    const r = flip ? 7 - Math.floor(i / 8) : Math.floor(i / 8);
    const f = flip ? 7 - (i % 8) : i % 8;
    const sq = `${'abcdefgh'[f]}${8 - r}`;
    const div = document.createElement('div');
    div.className = `sq ${(r + f) % 2 ? 'dark' : 'light'}`;
    div.dataset.sq = sq;
    if (sq === ui.selected) div.classList.add('selected');
    if (targets.has(sq)) div.classList.add('target');
    if (hintSquares.has(sq)) div.classList.add('hinted');
    if (lastSquares.has(sq)) div.classList.add('last');
    const p = squares[sq];
    if (p) {
      const span = document.createElement('span');
      const white = p === p.toUpperCase();
      span.className = `piece ${white ? 'white' : 'black'}`;
      span.textContent = PIECE_GLYPHS[p.toLowerCase()];
      span.draggable = true;
      div.append(span);
    }
    if (f === (flip ? 7 : 0)) {
      const c = document.createElement('span');
      c.className = 'coord';
      c.textContent = sq;
      div.append(c);
    }
    board.append(div);
  }
}

function renderDice() {
  const st = ui.game.status();
  const dice = st.state === 'AWAITING_MOVE' ? ui.game.dice() : [];
  const el = $('dice');
  el.textContent = '';
  for (const d of dice) {
    const die = document.createElement('span');
    die.className = 'die';
    die.dataset.face = d;
    die.title = FACE_NAMES[d];
    die.innerHTML = `${FACE_GLYPHS[d]}<small>${d} ${FACE_NAMES[d]}</small>`;
    el.append(die);
  }
}

function renderLegal() {
  const el = $('legal');
  el.textContent = '';
  const st = ui.game.status();
  if (st.state !== 'AWAITING_MOVE' || ui.game.turn !== ui.human || ui.busy) return;
  for (const m of ui.game.legalMoves()) {
    const b = document.createElement('button');
    b.textContent = m;
    b.dataset.move = m;
    b.className = 'legal-move';
    b.onclick = () => tryMove(m);
    el.append(b);
  }
}

const SCORE_TITLE = 'the search\'s expected score for you after this roll\'s best turn, '
  + '(value + 10000) / 20000: it ranks the rolls; it is not a calibrated win chance';

function renderAdvice() {
  const t = $('advice');
  t.textContent = '';
  if (!ui.advice || ui.advice.side !== ui.human) return;
  // The last column is the search's expected score after the roll's best turn: its value read
  // linearly (the library's `expectedScore`), not a calibrated chance (web/README.md).
  t.insertAdjacentHTML('beforeend', '<tr><th>roll</th><th>chance</th><th>best</th>'
    + `<th title="${SCORE_TITLE}">score %</th></tr>`);
  for (const r of ui.advice.rolls) {
    const tr = document.createElement('tr');
    const best = r.turn.length ? r.turn.join(' ') : r.bestMove ?? '--';
    let score = (100 * r.expectedScore).toFixed(0);
    if (r.winIn > 0) score = `win in ${r.winIn}`;
    else if (r.winIn < 0) score = `loss in ${-r.winIn}`;
    tr.innerHTML = `<td>${r.faces.join('-')}</td><td>${r.weight}/${ui.advice.denominator}</td>`
      + `<td>${best}</td><td>${score}</td>`;
    t.append(tr);
  }
}

// The bar: White's win chance from the left (light), the draw (grey), Black's (dark); the
// text and the data attributes give the human's win, draw and loss chances.
function setWinBar(equity) {
  const bar = $('winbar');
  const text = $('winbar-text');
  if (equity === null) {
    text.textContent = 'your chances: -';
    for (const k of ['win', 'draw', 'loss', 'fen']) delete bar.dataset[k];
    return;
  }
  const { white, draw, black } = equity;
  $('winbar-white').style.width = `${(100 * white).toFixed(1)}%`;
  $('winbar-draw').style.width = `${(100 * draw).toFixed(1)}%`;
  const [win, loss] = ui.human === 'white' ? [white, black] : [black, white];
  bar.dataset.win = String(win);
  bar.dataset.draw = String(draw);
  bar.dataset.loss = String(loss);
  bar.dataset.fen = equity.fen;
  const [w, d, l] = percentages([win, draw, loss]);
  text.textContent = `you: win ${w}% \u00b7 draw ${d}% \u00b7 loss ${l}%`;
  bar.title = equity.depth === undefined
    ? 'the result of the game'
    : `your chances before this roll (chess_diceEquity, depth ${equity.depth}): web/README.md`;
}

function statusText() {
  const st = ui.game.status();
  const rulesName = { twoDice: 'two dice', oneDie: 'one die', threeDice: 'three dice' }[ui.rules];
  if (st.state === 'WON') return `Game over: ${st.winner} wins (${st.reason.toLowerCase().replace('_', ' ')}).`;
  if (st.state === 'DRAWN') return `Game over: drawn (${st.reason.toLowerCase().replace('_', ' ')}).`;
  const who = ui.game.turn === ui.human ? 'You' : 'The engine';
  const what = st.state === 'AWAITING_ROLL' ? 'to roll' : 'to move';
  return `${rulesName}: ${who} (${ui.game.turn}) ${what}.${ui.busy ? ' The engine is thinking...' : ''}`;
}

function render() {
  const st = ui.game.status();
  const mine = ui.game.turn === ui.human && !ui.busy;
  $('status').textContent = statusText();
  $('status').dataset.state = st.state;
  $('roll').disabled = !(mine && st.state === 'AWAITING_ROLL');
  const moves = st.state === 'AWAITING_MOVE' ? ui.game.legalMoves() : [];
  $('pass').disabled = !(mine && st.state === 'AWAITING_MOVE' && moves.length === 0);
  $('hint').disabled = !(mine && st.state === 'AWAITING_MOVE' && moves.length > 0);
  $('hint-text').textContent = ui.hint ? `Hint: ${ui.hint}` : '';
  $('hint-text').dataset.move = ui.hint ?? '';
  $('record').textContent = ui.log.join('\n');
  $('record').scrollTop = 1e9;
  document.body.dataset.busy = ui.busy ? '1' : '0';
  document.body.dataset.over = st.state === 'WON' || st.state === 'DRAWN' ? '1' : '0';
  renderBoard();
  renderDice();
  renderLegal();
  renderAdvice();
  updateSaveLink();
}

function updateSaveLink() {
  const pgn = ui.game.pgn({
    Event: 'chesscore web board',
    Site: location.host || 'local',
    Date: new Date().toISOString().slice(0, 10).replaceAll('-', '.'),
    White: ui.human === 'white' ? 'human' : 'chesscore (wasm)',
    Black: ui.human === 'black' ? 'human' : 'chesscore (wasm)',
  });
  const a = $('save');
  if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
  a.download = `dice-${ui.rules}.pgn`;
  ui.pgn = pgn;
}

/** The saved game's text (what the save link downloads). */
window.savePgn = () => ui.pgn;

function message(text) {
  $('message').textContent = text;
}

function logTurnStart(faces) {
  ui.log.push(`${ui.game.turn} rolls ${faces.join('-')} (${faces.map((f) => FACE_NAMES[f]).join(', ')}):`);
}

function logMove(m) {
  ui.log[ui.log.length - 1] += ` ${m ?? '--'}`;
}

// Why the piece on `from` cannot move, from the moves the library lists for the roll: no
// piece of its type can move with this roll, or this one has no move.
function pieceReason(from) {
  const squares = parseBoard(ui.game.fen());
  const piece = squares[from];
  if (!piece) return '';
  const type = piece.toLowerCase();
  const legal = ui.game.legalMoves();
  if (legal.some((m) => m.startsWith(from))) return '';
  const dice = ui.game.dice();
  const roll = `${dice.join('-')} (${dice.map((f) => FACE_NAMES[f]).join(', ')})`;
  if (!legal.some((m) => squares[m.slice(0, 2)]?.toLowerCase() === type)) {
    return `With the roll ${roll} no ${PIECE_NAMES[type]} can move.`;
  }
  return `This ${PIECE_NAMES[type]} has no move with the roll ${roll}.`;
}

// The reason a move is refused: the library's status and message, after pieceReason's.
function refusal(uci, err) {
  const st = ui.game.status();
  const parts = [];
  if (st.state === 'AWAITING_MOVE') {
    const why = pieceReason(uci.slice(0, 2));
    if (why) parts.push(why);
  }
  if (err instanceof ChessError) parts.push(`${uci} refused: ${err.status}: ${cc.statusMessage(err.status)}.`);
  else parts.push(`${uci} refused: ${err.message}`);
  return parts.join(' ');
}

function tryMove(uci) {
  if (ui.busy) return;
  if (ui.game.turn !== ui.human && ui.game.status().state !== 'WON' && ui.game.status().state !== 'DRAWN') {
    message(`${uci} refused: it is the engine's turn.`);
    return;
  }
  const legal = ui.game.status().state === 'AWAITING_MOVE' ? ui.game.legalMoves() : [];
  const promotions = legal.filter((m) => m.length === 5 && m.startsWith(uci));
  if (uci.length === 4 && promotions.length > 0) {
    askPromotion(promotions);
    return;
  }
  try {
    ui.game.push(uci); // the library checks it; a refused move throws a ChessError
  } catch (err) {
    message(refusal(uci, err));
    ui.selected = null;
    render();
    return;
  }
  message('');
  logMove(uci);
  ui.lastMove = uci;
  ui.selected = null;
  ui.hint = null;
  afterHumanMove();
}

function askPromotion(moves) {
  const el = $('promotion');
  el.hidden = false;
  el.textContent = 'Promote to: ';
  for (const m of moves) {
    const b = document.createElement('button');
    b.dataset.move = m;
    b.textContent = PIECE_GLYPHS[m[4]];
    b.title = PIECE_NAMES[m[4]];
    b.onclick = () => {
      el.hidden = true;
      tryMove(m);
    };
    el.append(b);
  }
}

function afterHumanMove() {
  const st = ui.game.status();
  if (st.state === 'AWAITING_MOVE' && ui.game.turn === ui.human) {
    // Three dice: the next micro-move; the hint is the rest of the best turn.
    if (ui.hintTurn && ui.hintTurn[0] === ui.lastMove) {
      ui.hintTurn = ui.hintTurn.slice(1);
    } else {
      ui.hintTurn = null;
    }
    render();
    return;
  }
  ui.hintTurn = null;
  advance();
}

function onSquareClick(sq) {
  const st = ui.game.status();
  if (ui.busy) return;
  if (st.state === 'WON' || st.state === 'DRAWN') {
    message('The game is over: start a new one.');
    return;
  }
  const squares = parseBoard(ui.game.fen());
  const p = squares[sq];
  const own = p && (p === p.toUpperCase()) === (ui.human === 'white');
  if (ui.selected && ui.selected !== sq && !(own && !ui.game.legalMoves().some((m) => m.startsWith(ui.selected) && m.slice(2, 4) === sq))) {
    tryMove(ui.selected + sq);
    return;
  }
  if (ui.selected === sq) {
    ui.selected = null;
    render();
    return;
  }
  if (!own) {
    message(p ? 'That piece is not yours.' : 'Pick one of your pieces first.');
    return;
  }
  if (st.state === 'AWAITING_ROLL') {
    message('Roll the dice first (the Roll button).');
    return;
  }
  ui.selected = sq;
  message(pieceReason(sq));
  render();
}

function bindBoard() {
  const board = $('board');
  board.addEventListener('click', (e) => {
    const sq = e.target.closest('.sq');
    if (sq) onSquareClick(sq.dataset.sq);
  });
  // Drag and drop: the drop tries the move (no re-render while dragging: it would end the drag).
  board.addEventListener('dragstart', (e) => {
    const sq = e.target.closest('.sq');
    if (!sq || ui.busy) {
      e.preventDefault();
      return;
    }
    e.dataTransfer.setData('text/plain', sq.dataset.sq);
    e.dataTransfer.effectAllowed = 'move';
  });
  board.addEventListener('dragover', (e) => e.preventDefault());
  board.addEventListener('drop', (e) => {
    e.preventDefault();
    const from = e.dataTransfer.getData('text/plain');
    const sq = e.target.closest('.sq');
    if (from && sq && from !== sq.dataset.sq) {
      ui.selected = null;
      tryMove(from + sq.dataset.sq);
    }
  });
}

async function showHint() {
  const st = ui.game.status();
  if (st.state !== 'AWAITING_MOVE') return;
  // The all-rolls search before the roll already answered this roll (its first micro-move);
  // in the middle of a three-dice turn, the rest of the turn it chose, while it stays legal.
  const legal = ui.game.legalMoves();
  if (ui.hintTurn && ui.hintTurn.length && legal.includes(ui.hintTurn[0])) {
    ui.hint = ui.hintTurn[0];
  } else {
    const epoch = ui.epoch;
    ui.busy = true;
    render();
    const r = await ask({ kind: 'search', rules: ui.rules, fen: ui.game.fen(), limits: limits() });
    ui.busy = false;
    if (epoch !== ui.epoch) return;
    ui.hintTurn = r.turn.length ? r.turn : [r.bestMove];
    ui.hint = r.bestMove;
  }
  render();
}

async function humanRoll() {
  if (ui.busy || ui.game.status().state !== 'AWAITING_ROLL' || ui.game.turn !== ui.human) return;
  const faces = ui.game.roll(undefined, diceRandom);
  logTurnStart(faces);
  message('');
  ui.hint = null;
  ui.hintTurn = null;
  if (ui.advice && ui.advice.fen === ui.preRollFen) {
    const a = ui.advice.rolls.find((r) => r.faces.join() === faces.join());
    if (a) ui.hintTurn = a.turn.length ? a.turn : [a.bestMove];
  }
  render();
}

function humanPass() {
  if (ui.busy || ui.game.legalMoves().length) return;
  try {
    ui.game.push(null);
  } catch (err) {
    message(refusal('--', err));
    return;
  }
  logMove(null);
  afterHumanMove();
}

// The engine's turn, and the chances before each roll.
async function advance() {
  const epoch = ui.epoch;
  for (;;) {
    const st = ui.game.status();
    if (st.state === 'WON' || st.state === 'DRAWN') {
      const white = st.winner === 'white' ? 1 : 0;
      const black = st.winner === 'black' ? 1 : 0;
      setWinBar({ white, draw: st.state === 'DRAWN' ? 1 : 0, black, fen: ui.game.fen() });
      ui.log.push(statusText());
      render();
      return;
    }
    if (st.state === 'AWAITING_ROLL') {
      // Before every roll: the side to move's chances for the bar, and before the human's
      // roll the all-rolls search for the hints.
      ui.busy = true;
      render();
      const fen = ui.game.fen();
      const side = ui.game.turn;
      const q = await ask({ kind: 'equity', rules: ui.rules, fen, limits: equityLimits(ui.rules) });
      if (epoch !== ui.epoch) return;
      const [white, black] = side === 'white' ? [q.win, q.loss] : [q.loss, q.win];
      setWinBar({ white, draw: q.draw, black, fen, depth: q.depth });
      if (side === ui.human) {
        const a = await ask({ kind: 'allRolls', rules: ui.rules, fen, limits: { movetimeMs: Math.min(300, limits().movetimeMs) } });
        if (epoch !== ui.epoch) return;
        ui.advice = { ...a, fen, side };
        ui.preRollFen = fen;
      } else {
        ui.advice = null;
      }
      ui.busy = false;
      if (side === ui.human) {
        render();
        return;
      }
      const faces = ui.game.roll(undefined, diceRandom);
      logTurnStart(faces);
      continue;
    }
    if (ui.game.turn === ui.human) {
      render();
      return;
    }
    // The engine moves: its best turn, micro-move by micro-move.
    if (ui.game.legalMoves().length === 0) {
      ui.game.push(null);
      logMove(null);
      continue;
    }
    ui.busy = true;
    render();
    const r = await ask({ kind: 'search', rules: ui.rules, fen: ui.game.fen(), limits: limits() });
    if (epoch !== ui.epoch) return;
    ui.busy = false;
    const side = ui.game.turn;
    for (const m of r.turn.length ? r.turn : [r.bestMove]) {
      if (ui.game.status().state !== 'AWAITING_MOVE' || ui.game.turn !== side) break;
      if (!ui.game.legalMoves().includes(m)) break;
      ui.game.push(m);
      logMove(m);
      ui.lastMove = m;
    }
  }
}

function newGame() {
  ui.epoch++;
  ui.busy = false;
  if (ui.game) ui.game.free();
  ui.rules = $('rules').value;
  ui.human = $('color').value;
  ui.game = new cc.DiceGame(ui.rules);
  ui.selected = null;
  ui.hint = null;
  ui.hintTurn = null;
  ui.advice = null;
  ui.lastMove = null;
  ui.log = [];
  $('promotion').hidden = true;
  message('');
  setWinBar(null);
  advance().catch(fail);
}

function fail(err) {
  ui.busy = false;
  message(`Error: ${err.message ?? err}`);
  console.error(err);
  render();
}

$('new').onclick = newGame;
$('roll').onclick = () => humanRoll().catch(fail);
$('pass').onclick = humanPass;
$('hint').onclick = () => showHint().catch(fail);
bindBoard();
if (params.get('rules')) $('rules').value = params.get('rules');
if (params.get('color')) $('color').value = params.get('color');
if (params.get('movetime')) $('movetime').value = params.get('movetime');
newGame();
window.__ready = true;
