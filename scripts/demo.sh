#!/usr/bin/env bash
# Set everything up (first run: a virtual environment, the package, the compiled kernels) and run
# the main jobs on sensible defaults:
#  1. Beacon Patrol solo: every fair policy and the oracle bound on the same 300 games (paired);
#  2. Beacon Patrol solo, the lookahead policy, 20,000 games: score distribution and ranks;
#  3. Catan: Seafarers "New Shores", 4 players: how fair the seats are over 300 random boards, by income and by
#     40 full games on each board;
#  4. Catan: Seafarers "New Shores", 4 players: 2,000 full games by value bots, who wins from which seat;
#  5. Catan: Seafarers "Four Islands", 3 players: a tournament of the three opening heuristics, every seating;
#  6. Catan: Seafarers, every playable scenario at 3 and 4 players beside the base map: the seat-advantage heat-map;
#  7. the paper-boat river race: the planner bot against greedy, seats rotated, 1,000 races;
#  8. Cational Meographic, 2 players: the planner bot against greedy, seats rotated, 500 games.
source "$(dirname "$0")/_env.sh"
OUT=${OUT:-runs/demo}
.venv/bin/tabletop beacon compare --policies random,greedy,lookahead,rollout,oracle --players 1 \
  --games "${COMPARE_GAMES:-300}" --seed 2026 --out "$OUT/beacon-compare"
.venv/bin/tabletop beacon simulate --players 1 --policy lookahead --games "${GAMES:-20000}" --seed 2026 \
  --out "$OUT/beacon-lookahead"
.venv/bin/tabletop seafarers balance --scenario new-shores --players 4 --boards "${BOARDS:-300}" --rolls 60 \
  --heuristic diverse --by wins --games-per-board "${GAMES_PER_BOARD:-40}" --seed 2026 --out "$OUT/seafarers-balance"
.venv/bin/tabletop seafarers play --scenario new-shores --players 4 --bots value --games "${PLAY_GAMES:-2000}" \
  --seed 2026 --out "$OUT/seafarers-play"
.venv/bin/tabletop seafarers tournament --scenario four-islands --players 3 \
  --entrants value:opening=pips,value:opening=diverse,value:opening=port --games "${TOURNAMENT_GAMES:-300}" \
  --seed 2026 --out "$OUT/seafarers-tournament"
.venv/bin/tabletop seafarers seats --scenarios all --players 3,4 --games "${SEATS_GAMES:-2000}" --seed 2026 \
  --out "$OUT/seafarers-seats"
.venv/bin/tabletop regatta compare --players 2 --bots planner,greedy --games "${RACES:-1000}" --seed 2026 \
  --out "$OUT/regatta-compare"
.venv/bin/tabletop meographic compare --players 2 --bots planner,greedy --games "${MEO_GAMES:-500}" --seed 2026 \
  --out "$OUT/meographic-compare"
echo
echo "Reports:"
case "$OUT" in /*) base=$OUT ;; *) base=$PWD/$OUT ;; esac
for d in beacon-compare beacon-lookahead seafarers-balance seafarers-play seafarers-tournament seafarers-seats \
  regatta-compare meographic-compare; do
  echo "  $base/$d/report.html"
done
echo "The command line is .venv/bin/tabletop; 'source .venv/bin/activate' puts it on your PATH as tabletop."
