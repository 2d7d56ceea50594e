// Plays whole Dice Chess games through the page (web/index.html) in headless Chromium, in
// every rule set, over the Chrome DevTools protocol on a pipe (--remote-debugging-pipe: no
// npm package needed). The human side clicks the page's controls: Roll, Pass, Hint, and the
// board's squares for a move the page lists (or the hint); a refused move must show a reason.
// Each game is then saved through the page's save link and written to OUT_DIR/<rules>.pgn.
// Usage: node web/test/play.mjs CHROMIUM URL OUT_DIR [MAX_TURNS]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { load } from '../../wasm/index.mjs';

// The library itself, beside the page: the outcomes of a roll the hints table must list.
const lib = await load();

const [chromium, baseUrl, outDir, maxTurnsArg] = process.argv.slice(2);
const MAX_TURNS = Number(maxTurnsArg ?? 60); // the human's turns per game
const profile = mkdtempSync(join(tmpdir(), 'chesscore-web-'));
const browser = spawn(chromium, [
  '--headless=new', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu',
  '--no-first-run', '--no-default-browser-check', `--user-data-dir=${profile}`, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stdio[2].on('data', (d) => (stderr += d));

// CDP over the pipe: JSON messages ended by NUL; we write fd 3, Chromium writes fd 4.
let nextId = 1;
const pending = new Map();
const consoleLines = [];
let buffered = '';
browser.stdio[4].on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject, method } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
      else resolve(msg.result);
    } else if (msg.method === 'Input.dragIntercepted') {
      dragData = msg.params.data;
    } else if (msg.method === 'Runtime.consoleAPICalled') {
      consoleLines.push(msg.params.args.map((a) => a.value ?? a.description).join(' '));
    } else if (msg.method === 'Runtime.exceptionThrown') {
      consoleLines.push(`exception: ${msg.params.exceptionDetails.exception?.description ?? msg.params.exceptionDetails.text}`);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  browser.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let session;
const page = (method, params) => send(method, params, session);
async function evaluate(expression) {
  const r = await page('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value;
}
async function waitFor(expression, what, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await evaluate(expression);
    if (v) return v;
    if (Date.now() - t0 > ms) {
      throw new Error(`timed out waiting for ${what}; page message: ${await evaluate("document.getElementById('message').textContent")}\nconsole:\n${consoleLines.join('\n')}`);
    }
    await sleep(10);
  }
}
/** A real mouse click at the centre of the element `selector` matches. */
async function click(selector) {
  const box = await evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return null;
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  })()`);
  assert.ok(box, `no element ${selector}`);
  for (const type of ['mousePressed', 'mouseReleased']) {
    await page('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }
}
const sq = (s) => `#board [data-sq="${s}"]`;

/**
 * The win bar as the page shows it: the human's chances (data attributes) and the three
 * whole percentages of its text. They must sum to 1 and to 100.
 */
async function readBar(what) {
  const bar = await evaluate(`(() => { const b = document.getElementById('winbar');
    return { ...b.dataset, text: document.getElementById('winbar-text').textContent }; })()`);
  const chances = ['win', 'draw', 'loss'].map((k) => Number(bar[k]));
  assert.ok(chances.every((c) => c >= 0 && c <= 1), `${what}: win bar ${JSON.stringify(bar)}`);
  assert.ok(Math.abs(chances[0] + chances[1] + chances[2] - 1) < 1e-9, `${what}: win bar ${JSON.stringify(bar)}`);
  const m = bar.text.match(/^you: win (\d+)% \u00b7 draw (\d+)% \u00b7 loss (\d+)%$/);
  assert.ok(m, `${what}: win bar text '${bar.text}'`);
  const shown = m.slice(1).map(Number);
  assert.equal(shown[0] + shown[1] + shown[2], 100, `${what}: win bar text '${bar.text}'`);
  chances.forEach((c, i) => assert.ok(Math.abs(100 * c - shown[i]) < 1, `${what}: '${bar.text}' for ${chances}`));
  return { ...bar, chances };
}

/** Drags the piece on `from` to `to` with the mouse (HTML5 drag and drop, intercepted). */
let dragData = null;
async function drag(from, to) {
  const centre = (s) => evaluate(`(() => { const r = document.querySelector('${sq(s)}').getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
  const a = await centre(from);
  const b = await centre(to);
  dragData = null;
  await page('Input.setInterceptDrags', { enabled: true });
  await page('Input.dispatchMouseEvent', { type: 'mousePressed', x: a.x, y: a.y, button: 'left', clickCount: 1 });
  await page('Input.dispatchMouseEvent', { type: 'mouseMoved', x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, button: 'left' });
  await page('Input.dispatchMouseEvent', { type: 'mouseMoved', x: b.x, y: b.y, button: 'left' });
  for (let i = 0; i < 100 && !dragData; i++) await sleep(10);
  assert.ok(dragData, `no drag started from ${from}`);
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await page('Input.dispatchDragEvent', { type, x: b.x, y: b.y, data: dragData });
  }
  await page('Input.dispatchMouseEvent', { type: 'mouseReleased', x: b.x, y: b.y, button: 'left', clickCount: 1 });
  await page('Input.setInterceptDrags', { enabled: false });
}

// The page's state, as a player reads it off the page.
const STATE = `(() => {
  const b = document.body.dataset;
  return {
    busy: b.busy === '1', over: b.over === '1',
    roll: !document.getElementById('roll').disabled,
    pass: !document.getElementById('pass').disabled,
    hint: !document.getElementById('hint').disabled,
    legal: [...document.querySelectorAll('#legal [data-move]')].map((e) => e.dataset.move),
    promotion: !document.getElementById('promotion').hidden,
    fen: window.diceBoard.game.fen(),
    human: window.diceBoard.human,
  };
})()`;
const idle = `(() => { const s = ${STATE}; return !s.busy && (s.over || s.roll || s.pass || s.hint) ? s : null; })()`;

let seed = 12345;
// The page's dice seeds: games where the human has a move to make early (the refusal check).
const SEEDS = { twoDice: 1, oneDie: 2, threeDice: 3 };
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

async function playOne(rules, color, { worker = true, hintRate = 0.6, name = rules } = {}) {
  const t0 = Date.now();
  await page('Page.navigate', { url: `${baseUrl}?rules=${rules}&color=${color}&movetime=20&seed=${SEEDS[rules]}${worker ? '' : '&worker=0'}` });
  await waitFor('window.__ready === true && document.getElementById("status").textContent !== ""', 'the page to load');
  const inWorker = await evaluate('window.__engineInWorker');
  let turns = 0;
  let moves = 0;
  let hints = 0;
  let refusedChecked = false;
  let dragged = false;
  for (;;) {
    const s = await waitFor(idle, 'the human\'s turn');
    if (process.env.WEB_DEBUG) console.log(JSON.stringify(s));
    if (s.over) break;
    if (s.roll) {
      if (turns >= MAX_TURNS) break; // the ply cap: a saved game, result '*'
      turns++;
      await click('#roll');
      await waitFor(`!(${STATE}).roll`, 'the roll');
      // The bar shows the human's chances before this roll (the position the roll was for).
      const bar = await readBar(`${rules} turn ${turns}`);
      assert.equal(bar.fen, s.fen, `${rules} turn ${turns}: the bar is for another position`);
      // The hints table: a row per outcome of the roll, its last column the expected score
      // (a whole percentage) or a proven result.
      const rows = await evaluate(`[...document.querySelectorAll('#advice tr')].map((tr) => [...tr.children].map((c) => c.textContent))`);
      assert.deepEqual(rows[0], ['roll', 'chance', 'best', 'score %']);
      const pre = new lib.DiceGame(rules, s.fen);
      const want = pre.outcomes();
      pre.free();
      assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1]]),
        want.outcomes.map((o) => [o.faces.join('-'), `${o.weight}/${want.denominator}`]), `${rules}: hints rows`);
      for (const r of rows.slice(1)) assert.match(r[3], /^(\d{1,3}|win in \d+|loss in \d+)$/, `${rules}: hints row ${r}`);
      const dice = await evaluate('[...document.querySelectorAll("#dice .die")].map((d) => Number(d.dataset.face))');
      assert.ok(dice.length >= 1 && dice.every((f) => f >= 1 && f <= 6), `dice shown: ${dice}`);
      continue;
    }
    if (s.pass) {
      await click('#pass');
      await waitFor(`!(${STATE}).pass`, 'the pass');
      continue;
    }
    // A move. Once per game first a refused one: a piece of ours no listed move starts from,
    // to an empty square; the page must say why.
    if (!refusedChecked) {
      const board = await evaluate(`Object.fromEntries([...document.querySelectorAll('#board .sq')].map((e) => [e.dataset.sq, e.querySelector('.piece')?.className ?? '']))`);
      const mine = Object.keys(board).filter((k) => board[k].includes(s.human));
      const stuck = mine.find((k) => !s.legal.some((m) => m.startsWith(k)));
      const empty = Object.keys(board).find((k) => board[k] === '' && !s.legal.some((m) => m.startsWith(stuck ?? '') && m.slice(2, 4) === k));
      if (stuck && empty) {
        await click(sq(stuck));
        await click(sq(empty));
        const msg = await evaluate("document.getElementById('message').textContent");
        assert.match(msg, /refused: CHESS_ERR_ILLEGAL_MOVE: /, `refusal of ${stuck}${empty}: '${msg}'`);
        refusedChecked = true;
        console.log(`  ${rules}: ${stuck}${empty} refused: ${msg}`);
      }
    }
    let move;
    if (random() < hintRate) {
      await click('#hint');
      move = await waitFor(`(() => { const m = document.getElementById('hint-text').dataset.move; return m && !document.body.dataset.busy.includes('1') ? m : null; })()`, 'the hint');
      assert.ok(s.legal.includes(move), `hint ${move} is not among the listed moves ${s.legal}`);
      hints++;
    } else {
      move = s.legal[Math.floor(random() * s.legal.length)];
    }
    if (moves === 1 && move.length === 4) {
      await drag(move.slice(0, 2), move.slice(2, 4)); // one move a game by drag and drop
      dragged = true;
    } else {
      await click(sq(move.slice(0, 2)));
      await click(sq(move.slice(2, 4)));
    }
    if (move.length === 5) {
      await waitFor(`(${STATE}).promotion`, 'the promotion choice');
      await click(`#promotion [data-move="${move}"]`);
    }
    await waitFor(`(${STATE}).fen !== ${JSON.stringify(s.fen)}`, `the move ${move}`);
    moves++;
  }
  // Save through the page's save link (what a click on it downloads).
  const pgn = await evaluate("fetch(document.getElementById('save').href).then((r) => r.text())");
  assert.equal(pgn, await evaluate('window.savePgn()'));
  const status = await evaluate("document.getElementById('status').textContent");
  const bar = (await readBar(`${rules} at the end`)).text;
  if (await evaluate("document.body.dataset.over === '1'")) {
    // A finished game: the bar is its result for the human.
    const { state, winner } = await evaluate('window.diceBoard.game.status()');
    const want = state === 'DRAWN' ? [0, 1, 0] : winner === color ? [1, 0, 0] : [0, 0, 1];
    assert.deepEqual((await readBar('the result')).chances, want, `${rules}: ${state} ${winner}`);
  }
  writeFileSync(join(outDir, `${name}.pgn`), pgn);
  assert.equal(inWorker, worker);
  console.log(`  ${rules} (human ${color}, engine in a worker: ${inWorker}): ${turns} human turns, ${moves} moves (${hints} hints, dragged: ${dragged}) in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${status} win bar ${bar}`);
  assert.ok(refusedChecked, `${rules}: no refused move was tried`);
}

try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  ({ sessionId: session } = await send('Target.attachToTarget', { targetId, flatten: true }));
  await page('Runtime.enable');
  await page('Page.enable');
  await page('Emulation.setDeviceMetricsOverride', { width: 1200, height: 1000, deviceScaleFactor: 1, mobile: false });
  await playOne('twoDice', 'white');
  await playOne('oneDie', 'black');
  await playOne('threeDice', 'white', { hintRate: 0.9 });
  // The engine in the page itself (where no Worker starts, e.g. some file:// setups).
  await playOne('twoDice', 'black', { worker: false, name: 'twoDice-noworker' });
  if (process.env.WEB_SCREENSHOT) {
    const { data } = await page('Page.captureScreenshot', { format: 'png' });
    writeFileSync(process.env.WEB_SCREENSHOT, Buffer.from(data, 'base64'));
  }
} catch (e) {
  console.error(e.stack ?? e);
  if (consoleLines.length) console.error(`page console:\n${consoleLines.join('\n')}`);
  if (stderr) console.error(`chromium stderr (tail):\n${stderr.slice(-2000)}`);
  process.exitCode = 1;
} finally {
  browser.kill();
  await sleep(100);
  rmSync(profile, { recursive: true, force: true });
}
