// chesscore in JavaScript (node 18+): node examples/quickstart.mjs; the tests run it too.
import { load, ChessError } from 'chesscore';

const cc = await load(); // chesscore.wasm beside index.mjs; in a browser: load(fetch(url))
const board = new cc.Board('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
console.log(board.legalMoves().length, board.perft(3)); // 48 97862
console.log(board.san('e2a6'));                         // Bxa6
board.push('e2a6');
console.log(board.fen(), board.status());
board.pop();

try {
  board.push('e1e3');
} catch (e) {
  if (!(e instanceof ChessError)) throw e;
  console.log(e.status);                                // CHESS_ERR_ILLEGAL_MOVE
}

const engine = new cc.Engine({ Hash: 32 });             // Threads stays 1: no threads in wasm
const result = engine.search(board, { depth: 8 });      // blocks: use a Worker in a browser
console.log('bestmove', result.bestMove, 'score', result.scoreCp);

const game = new cc.DiceGame('twoDice');                // Dice Chess
game.roll([1, 2]);                                      // a pawn and a knight
const dice = engine.diceSearch(game, { movetimeMs: 100 });
game.push(dice.bestMove);
console.log(game.fen(), game.status().state);

board.free();                                           // or leave it to the garbage collector
engine.free();
game.free();
