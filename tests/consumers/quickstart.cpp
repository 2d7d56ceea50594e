// A C++ program using chesscore: the header is C++-ready (extern "C"), the handles fit RAII.
#include <chesscore.h>

#include <initializer_list>
#include <iostream>
#include <memory>
#include <string>

int main() {
    std::unique_ptr<ChessEngine, decltype(&chess_engineFree)> engine(chess_engineNew(),
                                                                    chess_engineFree);
    if (!engine || chess_engineSetOption(engine.get(), "Hash", "32") != CHESS_OK) return 1;

    ChessPosition pos;
    chess_setStartPosition(&pos);
    for (const char *uci : {"e2e4", "e7e5", "g1f3"}) {
        ChessMove move;
        ChessUndo undo;
        if (chess_moveFromUci(&pos, uci, &move) != CHESS_OK) return 1;
        chess_makeMove(&pos, move, &undo);
    }

    ChessSearchLimits limits;
    chess_searchLimitsInit(&limits);                 // always first
    limits.depth = 6;
    limits.onInfo = [](const ChessSearchInfo *info, void *) {
        std::cout << "depth " << info->depth << " cp " << info->scoreCp << '\n';
    };
    ChessSearchResult result;
    ChessStatus s = chess_search(engine.get(), &pos, &limits, &result);
    if (s != CHESS_OK) {
        std::cerr << chess_statusMessage(s) << '\n';
        return 1;
    }
    char uci[6];
    chess_moveToUci(result.bestMove, uci, sizeof uci);
    std::cout << "bestmove " << uci << " (" << result.nodes << " nodes)\n";
    return std::string(uci).size() >= 4 ? 0 : 1;
}
