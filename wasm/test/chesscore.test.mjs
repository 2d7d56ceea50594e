// The JavaScript wrapper over chesscore.wasm: node --test (scripts/wasm-tests builds the module).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ChessError, STATUS } from '../index.mjs';

const cc = await load();
const root = new URL('../../', import.meta.url);
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

function throwsStatus(fn, status) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ChessError, `not a ChessError: ${e}`);
    assert.equal(e.status, status);
    assert.equal(e.code, STATUS[status]);
    return true;
  });
}

test('the status table equals the header', () => {
  const header = readFileSync(new URL('include/chesscore.h', root), 'utf8');
  const block = header.slice(0, header.indexOf('} ChessStatus;'));
  const fromHeader = Object.fromEntries(
    [...block.matchAll(/^\s+(CHESS_[A-Z0-9_]+) = (\d+)/gm)].map((m) => [m[1], Number(m[2])]),
  );
  assert.ok(Object.keys(fromHeader).length > 50);
  assert.deepEqual({ ...STATUS }, fromHeader);
  for (const [name, code] of Object.entries(STATUS)) {
    assert.notEqual(cc.statusMessage(name), 'unknown status code', name);
    assert.equal(cc.statusMessage(name), cc.statusMessage(code));
  }
});

test('perft: the start position and Kiwipete, depths 1 to 4', () => {
  const counts = { [START]: [20, 400, 8902, 197281], [KIWIPETE]: [48, 2039, 97862, 4085603] };
  for (const [fen, want] of Object.entries(counts)) {
    const b = new cc.Board(fen);
    assert.deepEqual([1, 2, 3, 4].map((d) => b.perft(d)), want, fen);
    assert.equal(b.fen(), fen); // perft leaves the position as it was
    b.free();
  }
});

test('perft: every position of testdata/standard.epd and edge.epd to 100,000 nodes', () => {
  let checked = 0;
  for (const file of ['testdata/standard.epd', 'testdata/edge.epd']) {
    for (const line of readFileSync(new URL(file, root), 'utf8').split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [fen, ...fields] = line.split(';').map((f) => f.trim());
      const b = new cc.Board(fen);
      for (const f of fields) {
        const [, depth, count] = f.match(/^D(\d+)\s+(\d+)$/);
        if (Number(count) > 100_000) continue;
        assert.equal(b.perft(Number(depth)), Number(count), `${fen} depth ${depth}`);
        checked++;
      }
      b.free();
    }
  }
  assert.ok(checked > 300, `only ${checked} counts`);
});

test('FEN round trip, legal moves, push and pop', () => {
  const fens = [START, KIWIPETE, '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    'rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6'];
  for (const fen of fens) {
    const b = new cc.Board(fen);
    assert.equal(b.fen(), fen);
    const moves = b.legalMoves();
    assert.equal(moves.length, b.perft(1));
    for (const m of moves) {
      assert.match(m, /^[a-h][1-8][a-h][1-8][nbrq]?$/);
      b.push(m);
      assert.equal(b.turn, fen.split(' ')[1] === 'w' ? 'black' : 'white');
      assert.equal(b.pop(), m);
      assert.equal(b.fen(), fen);
    }
    b.free();
  }
  const b = new cc.Board();
  assert.deepEqual(b.legalMoves().sort().slice(0, 4), ['a2a3', 'a2a4', 'b1a3', 'b1c3']);
  assert.equal(b.san('g1f3'), 'Nf3');
  b.pushSan('e4');
  b.push('e7e5');
  assert.equal(b.fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2');
  const c = b.clone();
  assert.equal(b.pop(), 'e7e5');
  assert.equal(c.fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2');
  assert.equal(c.pop(), 'e7e5');
  assert.equal(c.pop(), 'e2e4');
  assert.equal(c.fen(), START);
  // Fool's mate.
  for (const m of ['f2f3', 'e7e5', 'g2g4', 'd8h4']) c.push(m);
  assert.equal(c.status(), 'CHECKMATE');
  assert.ok(c.inCheck());
  assert.deepEqual(c.legalMoves(), []);
  b.free();
  c.free();
});

test('an illegal move, bad SAN and a malformed FEN throw ChessError', () => {
  const b = new cc.Board();
  throwsStatus(() => b.push('e2e5'), 'CHESS_ERR_ILLEGAL_MOVE');
  throwsStatus(() => b.push('e1e2'), 'CHESS_ERR_ILLEGAL_MOVE');
  throwsStatus(() => b.push('zz'), 'CHESS_ERR_INVALID_ARGUMENT');
  throwsStatus(() => b.pushSan('Ke2'), 'CHESS_ERR_SAN_ILLEGAL');
  throwsStatus(() => b.pop(), 'CHESS_ERR_INVALID_ARGUMENT');
  assert.equal(b.fen(), START); // untouched by the errors
  throwsStatus(() => new cc.Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1'), 'CHESS_ERR_FEN_BOARD');
  throwsStatus(() => new cc.Board('8/8/8/8/8/8/8/8 w - - 0 1'), 'CHESS_ERR_FEN_KING_COUNT');
  throwsStatus(() => new cc.Board(`${START} extra`), 'CHESS_ERR_FEN_TRAILING_TEXT');
  throwsStatus(() => b.setFen('not a fen'), 'CHESS_ERR_FEN_FIELD_COUNT');
  assert.equal(b.fen(), START);
  // Lenient reading, as python-chess reads a puzzle's FEN.
  assert.equal(new cc.Board('4k3/8/8/8/8/8/8/4K3 w - -', { lenient: true }).fen(), '4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  b.free();
  assert.throws(() => b.fen(), /freed/);
});

test('search: depth and movetime give a legal move and a score', () => {
  const engine = new cc.Engine({ Hash: 8 });
  const b = new cc.Board(KIWIPETE);
  const r = engine.search(b, { depth: 6 });
  assert.ok(b.legalMoves().includes(r.bestMove), r.bestMove);
  assert.equal(r.depth, 6);
  assert.equal(r.pv[0], r.bestMove);
  assert.ok(r.nodes > 0 && Number.isInteger(r.scoreCp));
  assert.equal(b.fen(), KIWIPETE);
  const t = engine.search(b, { movetimeMs: 150 });
  assert.ok(b.legalMoves().includes(t.bestMove));
  // The limit is a maximum: after an iteration the search may stop once 0.7 of its budget
  // (150 ms less the 10 ms overhead) has passed, at 98 ms (docs/engine.md). By its own clock
  // it uses at least half of the time (a loaded machine only makes a search late, never
  // early; as test_search.c); the upper bound only catches a search that ignores the limit.
  assert.ok(t.depth >= 1 && t.nodes > 0, `depth ${t.depth} nodes ${t.nodes}`);
  assert.ok(t.timeMs >= 75 && t.timeMs < 2000, `timeMs ${t.timeMs}`);
  // Mate in one: Qh5xf7#.
  const mate = new cc.Board('r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4');
  const m = engine.search(mate, { depth: 4 });
  assert.equal(m.bestMove, 'h5f7');
  assert.equal(m.mateIn, 1);
  assert.equal(typeof engine.evaluate(b), 'number');
  assert.throws(() => engine.search(b, {}), TypeError);
  throwsStatus(() => engine.search(b, { depth: -1 }), 'CHESS_ERR_INVALID_LIMITS');
  throwsStatus(() => engine.search(b, { movetimeMs: -5 }), 'CHESS_ERR_INVALID_LIMITS');
  assert.throws(() => engine.search(b, { depth: 2.5 }), RangeError);
  assert.throws(() => b.perft(-1), RangeError);
  assert.throws(() => b.perft(65), RangeError);
  assert.equal(b.perft(0), 1);
  throwsStatus(() => engine.setOption('No Such Option', 1), 'CHESS_ERR_UNKNOWN_OPTION');
  throwsStatus(() => engine.setOption('Hash', 'lots'), 'CHESS_ERR_BAD_OPTION_VALUE');
  engine.free();
  b.free();
  mate.free();
});

test('Threads above 1 fail with a status on wasm32 (no threads), and the engine goes on', () => {
  const engine = new cc.Engine();
  throwsStatus(() => engine.setOption('Threads', 2), 'CHESS_ERR_OUT_OF_MEMORY');
  const b = new cc.Board();
  assert.ok(b.legalMoves().includes(engine.search(b, { depth: 3 }).bestMove));
  const g = new cc.DiceGame();
  g.roll([1, 2]);
  assert.ok(g.legalMoves().includes(engine.diceSearch(g, { depth: 1 }).bestMove));
  engine.setOption('Threads', 1);
  // chess_perftParallel on 4 threads: the calling thread counts alone.
  const out = cc.call('malloc', 8);
  assert.equal(cc.call('chess_perftParallel', b._ptr, 4, 4, 0, out), 0);
  assert.equal(new DataView(cc.memory.buffer).getBigUint64(out, true), 197281n);
  cc.call('free', out);
  engine.free();
});

test('Dice Chess: rolled turns with legal moves, search, pop back to the start', () => {
  const engine = new cc.Engine({ Hash: 4 });
  for (const rules of ['twoDice', 'oneDie', 'threeDice']) {
    const g = new cc.DiceGame(rules);
    const start = g.fen();
    const { outcomes, denominator } = g.outcomes();
    assert.equal(outcomes.reduce((s, o) => s + o.weight, 0), denominator);
    assert.equal(outcomes.length, { twoDice: 21, oneDie: 2, threeDice: 56 }[rules]);
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    let actions = 0;
    for (let turn = 0; turn < 8 && g.status().state === 'AWAITING_ROLL'; turn++) {
      const mover = g.turn;
      const faces = g.roll(undefined, random);
      actions++;
      assert.deepEqual(g.dice(), faces);
      assert.equal(g.status().state, 'AWAITING_MOVE');
      // A turn: one move (three dice: micro-moves while the side stays).
      while (g.status().state === 'AWAITING_MOVE' && g.turn === mover) {
        const legal = g.legalMoves();
        if (turn % 2 === 0) {
          const r = engine.diceSearch(g, { depth: 2 });
          if (legal.length === 0) assert.equal(r.bestMove, null);
          else assert.ok(legal.includes(r.bestMove), `${rules}: ${r.bestMove} not in ${legal}`);
          assert.ok(r.expectedScore >= 0 && r.expectedScore <= 1);
          g.push(r.bestMove);
        } else {
          g.push(legal.length ? legal[Math.floor(random() * legal.length)] : null);
        }
        actions++;
      }
    }
    assert.ok(actions >= 8, `${rules}: ${actions}`);
    assert.notEqual(g.fen(), start);
    throwsStatus(() => g.push('a1a8'), 'CHESS_ERR_ILLEGAL_MOVE'); // never legal here
    for (let i = 0; i < actions; i++) g.pop();
    assert.equal(g.fen(), start);
    g.free();
  }
  const g = new cc.DiceGame();
  throwsStatus(() => engine.diceSearch(g, { depth: 1 }), 'CHESS_ERR_DICE_NOT_AWAITING_MOVE');
  throwsStatus(() => g.roll([7, 1]), 'CHESS_ERR_DICE_INVALID_ROLL');
  throwsStatus(() => new cc.DiceGame('fiveDice'), 'CHESS_ERR_DICE_INVALID_RULES');
  throwsStatus(() => new cc.DiceGame('twoDice', 'bad fen'), 'CHESS_ERR_FEN_FIELD_COUNT');
  g.roll([1, 2]); // a pawn and a knight
  assert.ok(g.legalMoves().every((m) => /^([a-h]2[a-h][34]|[bg]1[a-h]3)$/.test(m)), g.legalMoves().join());
  throwsStatus(() => g.roll([1, 2]), 'CHESS_ERR_DICE_NOT_AWAITING_ROLL');
  g.free();
  engine.free();
});

test('a trap (here a pointer outside memory) makes the instance refuse every later call', async () => {
  const own = await load();
  const b = new own.Board();
  const past = own.memory.buffer.byteLength + 4096;
  throwsStatus(() => own.call('chess_toFEN', b._ptr, past, 128), 'CHESS_ERR_INTERNAL');
  throwsStatus(() => b.fen(), 'CHESS_ERR_INTERNAL');
  assert.equal(new cc.Board().fen(), START); // other instances are unaffected
});

test('the quickstart of docs/install.md runs', async () => {
  const { execFileSync } = await import('node:child_process');
  const script = new URL('../examples/quickstart.mjs', import.meta.url);
  const lines = execFileSync(process.execPath, [script.pathname], { encoding: 'utf8' }).split('\n');
  assert.equal(lines[0], '48 97862');
  assert.equal(lines[1], 'Bxa6');
  assert.equal(lines[3], 'CHESS_ERR_ILLEGAL_MOVE');
  assert.match(lines[4], /^bestmove [a-h][1-8][a-h][1-8] score -?\d+$/);
  assert.match(lines[5], / - AWAITING_ROLL$/);
});

test('load(fetch(url)), as a browser loads it, over HTTP', async () => {
  const http = await import('node:http');
  const bytes = readFileSync(new URL('../chesscore.wasm', import.meta.url));
  const server = http.createServer((req, res) => {
    res.writeHead(req.url === '/chesscore.wasm' ? 200 : 404, { 'content-type': 'application/wasm' });
    res.end(req.url === '/chesscore.wasm' ? bytes : undefined);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const web = await load(fetch(`${base}/chesscore.wasm`));
    assert.equal(new web.Board(KIWIPETE).perft(2), 2039);
    await assert.rejects(load(fetch(`${base}/missing.wasm`)), /HTTP 404/);
  } finally {
    server.close();
  }
});

test('Dice Chess: diceSearchAllRolls gives every roll of outcomes() a move it allows', () => {
  const engine = new cc.Engine({ Hash: 4 });
  for (const rules of ['twoDice', 'oneDie', 'threeDice']) {
    const g = new cc.DiceGame(rules);
    g.roll(rules === 'oneDie' ? [1] : rules === 'twoDice' ? [1, 2] : [1, 2, 2]);
    g.push(g.legalMoves()[0]);
    while (g.status().state === 'AWAITING_MOVE') g.push(g.legalMoves()[0] ?? null);
    const fen = g.fen();
    const { outcomes, denominator } = g.outcomes();
    const all = engine.diceSearchAllRolls(g, { depth: 1 });
    assert.equal(g.fen(), fen); // not modified
    assert.equal(all.denominator, denominator);
    assert.deepEqual(all.rolls.map((r) => [r.faces, r.weight]), outcomes.map((o) => [o.faces, o.weight]));
    for (const r of all.rolls) {
      const rolled = new cc.DiceGame(rules, fen);
      rolled.roll(r.faces);
      const legal = rolled.legalMoves();
      if (legal.length === 0) assert.equal(r.bestMove, null, `${rules} ${r.faces}`);
      else assert.ok(legal.includes(r.bestMove), `${rules} ${r.faces}: ${r.bestMove} not in ${legal}`);
      // Three dice: the turn is micro-moves each legal in turn.
      for (const m of r.turn) {
        if (rolled.status().state !== 'AWAITING_MOVE') break;
        rolled.push(m);
      }
      assert.ok(r.expectedScore >= 0 && r.expectedScore <= 1);
      assert.equal(r.depth, 1);
      rolled.free();
    }
    throwsStatus(() => { g.roll(); engine.diceSearchAllRolls(g, { depth: 1 }); }, 'CHESS_ERR_DICE_NOT_AWAITING_ROLL');
    g.free();
  }
  engine.free();
});

test('Dice Chess: pgn() writes the dice PGN of src/dice/pgn.rs', () => {
  const g = new cc.DiceGame('twoDice');
  g.roll([3, 4]); // bishops and rooks are shut in at the start: the turn passes
  assert.deepEqual(g.legalMoves(), []);
  g.push(null);
  g.roll([1, 2]);
  g.push('e7e5');
  g.roll([1, 3]);
  g.push('e2e4');
  g.roll([1, 2]);
  g.push('d7d6');
  g.roll([1, 2]); // an unfinished turn is left out
  // Written by hand from the format (src/dice/pgn.rs: rolls in comments, UCI, `--`).
  const want = [
    '[Event "chesscore dice game"]', '[Site "?"]', '[Round "1"]', '[White "human"]',
    '[Black "engine"]', '[Result "*"]', '[Variant "two-dice"]', '[Termination "unterminated"]', '',
    '1. {roll 3-4} -- {roll 1-2} e7e5 2. {roll 1-3} e2e4 {roll 1-2} d7d6 *', '', ''].join('\n');
  assert.equal(g.pgn({ White: 'human', Black: 'engine' }), want);
  // A game to its end: lines of at most 80 characters, the result from the status.
  let seed = 3;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const h = new cc.DiceGame('threeDice');
  const tokens = [];
  let number = 1;
  while (h.status().state === 'AWAITING_ROLL' || h.status().state === 'AWAITING_MOVE') {
    if (h.status().state === 'AWAITING_ROLL') {
      if (h.turn === 'white') tokens.push(`${number}.`);
      tokens.push(`{roll ${h.roll(undefined, random).join('-')}}`);
      if (h.turn === 'black') number++;
    } else {
      const legal = h.legalMoves();
      const m = legal.length ? legal[Math.floor(random() * legal.length)] : null;
      h.push(m);
      tokens.push(m ?? '--');
    }
  }
  const st = h.status();
  const result = st.state === 'DRAWN' ? '1/2-1/2' : st.winner === 'white' ? '1-0' : '0-1';
  const text = h.pgn();
  const [head, body] = text.split('\n\n');
  assert.match(head, new RegExp(`\\[Result "${result.replace('/', '\\/')}"\\]`));
  assert.match(head, /\[Variant "three-dice"\]/);
  assert.ok(body.split('\n').every((l) => l.length <= 80));
  assert.equal(body.split(/\s+/).join(' '), [...tokens, result].join(' '));
  throwsStatus(() => new cc.DiceGame('oneDie', new cc.DiceGame('oneDie').fen()).pgn(), 'CHESS_ERR_INVALID_ARGUMENT');
  g.free();
  h.free();
});

test('Dice Chess: diceCubeAdvice at thresholds worked out by hand, refusals', () => {
  // docs/dice.md's model at cube efficiency 1/2: take from 2/9 of the taker's expected
  // score; double from 7/11 centred, from 2/3 owning the cube, never when the other side
  // owns it.
  const adv = (win, draw, owner) => cc.diceCubeAdvice({ win, draw, loss: 1 - win - draw }, owner);
  assert.ok(Math.abs(adv(0.5, 0).takePoint - 2 / 9) < 1e-12);
  assert.equal(adv(0.63, 0).shouldDouble, false);
  assert.equal(adv(0.64, 0).shouldDouble, true);
  assert.equal(adv(0.5, 0.28).shouldDouble, true);
  assert.equal(adv(0.66, 0, 'mover').shouldDouble, false);
  assert.equal(adv(0.67, 0, 'mover').shouldDouble, true);
  assert.equal(adv(0.9, 0, 'opponent').shouldDouble, false);
  assert.equal(adv(0.77, 0).shouldTake, true);
  assert.equal(adv(0.78, 0).shouldTake, false);
  const engine = new cc.Engine({ Hash: 4 });
  const g = new cc.DiceGame('oneDie');
  const a = cc.diceCubeAdvice(engine.diceEquity(g, { depth: 1 }));
  assert.deepEqual([a.shouldDouble, a.shouldTake], [false, true]);
  throwsStatus(() => adv(1.2, 0), 'CHESS_ERR_INVALID_ARGUMENT');
  throwsStatus(() => cc.diceCubeAdvice({ win: 0.5, draw: 0, loss: 0.4 }), 'CHESS_ERR_INVALID_ARGUMENT');
  throwsStatus(() => cc.diceCubeAdvice({ win: NaN, draw: 0, loss: 1 }), 'CHESS_ERR_INVALID_ARGUMENT');
  assert.throws(() => adv(0.5, 0, 'nobody'), TypeError);
  g.free();
  engine.free();
});

test('Dice Chess: diceEquity gives the side to move chances that sum to 1', () => {
  const engine = new cc.Engine({ Hash: 4 });
  const close = (a, b) => Math.abs(a - b) < 1e-12;
  for (const rules of ['twoDice', 'oneDie', 'threeDice']) {
    const g = new cc.DiceGame(rules);
    const fen = g.fen();
    const q = engine.diceEquity(g, { depth: 1 });
    assert.equal(g.fen(), fen); // not modified
    assert.ok(close(q.win + q.draw + q.loss, 1), `${rules}: ${JSON.stringify(q)}`);
    assert.ok([q.win, q.draw, q.loss].every((x) => x >= 0 && x <= 1), rules);
    assert.ok(close(q.expectedScore, q.win + q.draw / 2), rules);
    assert.equal(q.depth, 1);
    assert.equal(q.winIn, 0);
    assert.ok(Math.abs(q.value) < 10000 && q.nodes > 0, rules);
    g.free();
  }
  // The chances are the side to move's: a queen and a rook up, White to move, wins far more
  // often than it loses; the same board with Black to move is the other way round; the
  // colour-mirrored board with Black to move gives the same chances as the first.
  const up = '4k3/8/8/8/8/8/8/Q3K2R w - - 0 1';
  const sides = {};
  for (const [name, fen] of [['white', up], ['black', up.replace(' w ', ' b ')],
    ['mirror', 'q3k2r/8/8/8/8/8/8/4K3 b - - 0 1']]) {
    engine.newGame();
    const g = new cc.DiceGame('twoDice', fen);
    sides[name] = engine.diceEquity(g, { depth: 1 });
    g.free();
  }
  assert.ok(sides.white.win > 0.8 && sides.white.loss < 0.2, JSON.stringify(sides.white));
  assert.ok(sides.black.loss > 0.8 && sides.black.win < 0.2, JSON.stringify(sides.black));
  assert.deepEqual({ ...sides.mirror, timeMs: 0 }, { ...sides.white, timeMs: 0 });
  // A finished game gives its result, without a search: the king taken (one die, the queen
  // rolled), then a dead position (two bare kings).
  const won = new cc.DiceGame('oneDie', '4k3/8/8/8/4Q3/8/8/4K3 w - - 0 1');
  won.roll([5]);
  throwsStatus(() => engine.diceEquity(won, { depth: 1 }), 'CHESS_ERR_DICE_NOT_AWAITING_ROLL');
  won.push('e4e8');
  assert.deepEqual(won.status(), { state: 'WON', winner: 'white', reason: 'KING_CAPTURE' });
  const q = engine.diceEquity(won, { depth: 1 });
  const [win, loss] = won.turn === 'white' ? [1, 0] : [0, 1];
  assert.deepEqual([q.win, q.draw, q.loss, q.expectedScore, q.depth, q.nodes], [win, 0, loss, win, 0, 0]);
  const dead = new cc.DiceGame('twoDice', '4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  assert.equal(dead.status().state, 'DRAWN');
  const d = engine.diceEquity(dead, { depth: 1 });
  assert.deepEqual([d.win, d.draw, d.loss, d.expectedScore, d.value, d.depth], [0, 1, 0, 0.5, 0, 0]);
  throwsStatus(() => engine.diceEquity(new cc.DiceGame(), { depth: -1 }), 'CHESS_ERR_INVALID_LIMITS');
  won.free();
  dead.free();
  engine.free();
});
