#!/usr/bin/env bash
# Set everything up (first run: a virtual environment, the package, the compiled kernels) and run
# the main jobs on sensible defaults:
#  1. Beacon Patrol solo: every fair policy and the oracle bound on the same 300 games (paired);
#  2. Beacon Patrol solo, the lookahead policy, 20,000 games: score distribution and ranks;
#  3. Catan: Seafarers "New Shores", 4 players: how fair the seats are over 300 random boards;
#  4. Catan: Seafarers "New Shores", 4 players: 2,000 full games by value bots, who wins from which seat;
#  5. the paper-boat river race: the blocker bot against greedy, seats rotated, 1,000 races;
#  6. Cational Meographic, 2 players: the planner bot against greedy, seats rotated, 500 games.
source "$(dirname "$0")/_env.sh"
OUT=${OUT:-runs/demo}
.venv/bin/tabletop beacon compare --policies random,greedy,lookahead,rollout,oracle --players 1 \
  --games "${COMPARE_GAMES:-300}" --seed 2026 --out "$OUT/beacon-compare"
.venv/bin/tabletop beacon simulate --players 1 --policy lookahead --games "${GAMES:-20000}" --seed 2026 \
  --out "$OUT/beacon-lookahead"
.venv/bin/tabletop seafarers balance --scenario new-shores --players 4 --boards "${BOARDS:-300}" --rolls 60 \
  --heuristic diverse --seed 2026 --out "$OUT/seafarers-balance"
.venv/bin/tabletop seafarers play --scenario new-shores --players 4 --bots value --games "${PLAY_GAMES:-2000}" \
  --seed 2026 --out "$OUT/seafarers-play"
.venv/bin/tabletop regatta compare --players 2 --bots planner,greedy --games "${RACES:-1000}" --seed 2026 \
  --out "$OUT/regatta-compare"
.venv/bin/tabletop meographic compare --players 2 --bots planner,greedy --games "${MEO_GAMES:-500}" --seed 2026 \
  --out "$OUT/meographic-compare"
echo
echo "Reports:"
case "$OUT" in /*) base=$OUT ;; *) base=$PWD/$OUT ;; esac
for d in beacon-compare beacon-lookahead seafarers-balance seafarers-play regatta-compare meographic-compare; do
  echo "  $base/$d/report.html"
done
echo "The command line is .venv/bin/tabletop; 'source .venv/bin/activate' puts it on your PATH as tabletop."
