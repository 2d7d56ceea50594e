#!/usr/bin/env bash
# The Dice Chess strength runs of issue 12: for every rule set, the engine (Star1/Star2 and the
# table) against the one-ply greedy player and against plain expectimax (same evaluation, same
# time per move), and in three dice against the heuristic player once it exists, each pairing
# GAMES games (default 400) through `chesscore dice match`: colours alternated, each pair of
# games on the same dice seed, W/D/L, score and Elo with 95% error bars. Keeps every match's
# log (one line per game and the result) in $OUT (default build/dice-strength).
#
#   tools/strength/dice-matches.sh [GAMES] [MOVETIME_MS]
#
# MOVETIME_MS defaults to 100 ms per move for both sides; CONCURRENCY (default 2) games run at
# once: keep it at the number of cores (both sides think on the same core, in turn).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-400}
movetime=${2:-100}
out=${OUT:-build/dice-strength}
mkdir -p "$out"
cargo build --release --bin chesscore --quiet
chesscore=${CARGO_TARGET_DIR:-target}/release/chesscore
pairings=(
  "two-dice greedy" "two-dice expectimax"
  "one-die greedy" "one-die expectimax"
  "three-dice greedy" "three-dice expectimax"
)
# The heuristic player (king exposure and attack terms over greedy) comes with the
# evaluation's branch; run it when the binary knows it.
if "$chesscore" dice --help | grep -q "heuristic"; then
  pairings+=("three-dice heuristic")
fi
for p in "${pairings[@]}"; do
  read -r rules opponent <<<"$p"
  log="$out/$rules-engine-vs-$opponent.log"
  echo "== $rules: engine vs $opponent, $games games at $movetime ms a move"
  "$chesscore" dice match --rules "$rules" --a engine --b "$opponent" --games "$games" \
    --movetime "$movetime" --concurrency "${CONCURRENCY:-2}" --seed 12 >"$log" 2>/dev/null
  tail -n 1 "$log"
done
