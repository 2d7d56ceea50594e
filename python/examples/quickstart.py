import threading

import chesscore

board = chesscore.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
print(len(board.legal_moves()), board.perft(3))          # 48 97862
board.push("e2a6")                                       # a Move, or UCI text
print(board.fen(), board.status().name, hex(board.hash()))
board.pop()

try:
    board.push("e1e3")
except chesscore.ChessError as e:
    print(e.status, e.message)                           # 3 (illegal move) and its sentence

with chesscore.Engine(Hash=32, Threads=1) as engine:
    result = engine.search(board, depth=8, on_info=lambda i: print("depth", i.depth, i.score_cp))
    print("bestmove", result.best_move, "score", result.score_cp)
    threading.Timer(0.5, engine.stop).start()            # stop from another thread,
    print("bestmove", engine.search(board, movetime_ms=10_000).best_move)  # long before 10 s
    print("eval", engine.evaluate(board))

game = chesscore.DiceGame(chesscore.DiceRules.TWO_DICE)  # Dice Chess
game.roll(chesscore.Roll.of(1, 2))                       # a pawn and a knight
game.push(game.legal_moves()[0])
print(game.fen())
