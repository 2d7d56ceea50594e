#!/usr/bin/env bash
# The strength runs of docs/results/strength.md: chesscore against the engines Debian packages at
# 5 s + 0.05 s a game, one thread and 16 MiB of hash each, through python-chess's UCI client
# (the match runner named by $MATCH_PY: the team's match.py, kept outside this repository).
# Prints W/D/L, score and Elo with 95% error bars per opponent and keeps each
# match's log and PGN in $OUT (default build/strength).
#
#   tools/strength/strength.sh [GAMES] [OPPONENT...]
#
# GAMES defaults to 100; OPPONENTS to `gnuchess phalanx toga2 sf:elo=2500` (any engine spec
# match.py takes). Needs: a release build (built here), python-chess (pip install chess), the
# engines (apt-get install gnuchess phalanx toga2 stockfish). CONCURRENCY (default 2) games
# run at once: keep it at the number of cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-100}
shift || true
opponents=("$@")
[ ${#opponents[@]} -gt 0 ] || opponents=(gnuchess phalanx toga2 sf:elo=2500)
match_py=${MATCH_PY:?set MATCH_PY to the match runner (match.py) to use}
out=${OUT:-build/strength}
mkdir -p "$out"
cargo build --release --bin chesscore --quiet
engine=${CARGO_TARGET_DIR:-target}/release/chesscore
for opp in "${opponents[@]}"; do
  name=${opp//[:=,]/-}
  echo "== chesscore vs $opp, $games games at 5+0.05"
  python3 "$match_py" -a "cmd:$engine" --name-a chesscore -b "$opp" --tc 5+0.05 -n "$games" \
    --openings tools/strength/openings-400.epd --shuffle --seed 10 \
    --concurrency "${CONCURRENCY:-2}" --pgn "$out/$name.pgn" > "$out/$name.log" 2>&1
  grep -E "W/D/L|Elo\(A-B\)|terminations" "$out/$name.log"
done
