// Perft speed of chesscore.wasm under node: node wasm/bench.mjs [FEN|startpos|kiwipete] [DEPTH] [RUNS]
// Prints each run and the median in nodes per second (docs/results/performance.md).
import { load } from './index.mjs';

const FENS = {
  startpos: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  kiwipete: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
};
const [fen = 'startpos', depth = '5', runs = '7'] = process.argv.slice(2);
const cc = await load();
const board = new cc.Board(FENS[fen] ?? fen);
const backend = cc.call('chess_sliderBackend');
const speeds = [];
for (let i = 0; i < Number(runs); i++) {
  const t0 = process.hrtime.bigint();
  const nodes = board.perft(Number(depth));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  speeds.push(Number(nodes) / s);
  console.log(`perft ${depth}: ${nodes} nodes in ${s.toFixed(3)} s, ${(Number(nodes) / s / 1e6).toFixed(1)} Mnps`);
}
speeds.sort((a, b) => a - b);
const name = new TextDecoder().decode(new Uint8Array(cc.memory.buffer, backend, 16)).split('\0')[0];
console.log(`median ${(speeds[speeds.length >> 1] / 1e6).toFixed(1)} Mnps (node ${process.version}, slider back end ${name})`);
