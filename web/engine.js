// The engine's side of the page: one chesscore instance with one Engine, answering
// { kind: 'allRolls' | 'search' | 'equity', rules, fen, limits } with the wrapper's result. Runs in the
// Web Worker (worker.js), or in the page itself where a worker cannot start (app.js).
export function makeHandler(cc) {
  const engine = new cc.Engine({ Hash: 16 });
  return (msg) => {
    const game = new cc.DiceGame(msg.rules, msg.fen);
    try {
      if (msg.kind === 'allRolls') return engine.diceSearchAllRolls(game, msg.limits);
      if (msg.kind === 'search') return engine.diceSearch(game, msg.limits);
      if (msg.kind === 'equity') return engine.diceEquity(game, msg.limits);
      throw new Error(`unknown request ${msg.kind}`);
    } finally {
      game.free();
    }
  };
}
