#!/usr/bin/env bash
# Set everything up (first run: a virtual environment, the package) and run the main jobs on sensible defaults:
#  1. Beacon Patrol solo: every fair policy and the oracle bound on the same 300 games (paired);
#  2. Beacon Patrol solo, the lookahead policy, 20,000 games: score distribution and ranks;
#  3. Cational Meographic, 2 players: the planner bot against greedy, seats rotated, 500 games;
#  4. the paper-boat river race: the planner bot against greedy, seats rotated, 1,000 races;
#  5. Catan: Seafarers "New Shores", 4 players: how fair the seats are over 300 random boards, by income and by
#     40 full games on each board;
#  6. Catan: Seafarers "New Shores", 4 players: 2,000 full games by value bots, who wins from which seat;
#  7. Catan: Seafarers "Four Islands", 3 players: a tournament of the three opening heuristics, every seating;
#  8. Catan: Seafarers, every playable scenario at 3 and 4 players beside the base map: the seat-advantage heat-map.
# On a first run the kernels compile as the demo reaches each game (python -m analyzer.warmup GAME, which says so),
# while a background warm-up compiles the games further on (its lines go to $OUT/warmup.log); a group compiles
# once, under a lock, whichever of the two asks first.
TABLETOP_WARMUP=later source "$(dirname "$0")/_env.sh"
OUT=${OUT:-runs/demo}
mkdir -p "$OUT"
.venv/bin/python -m analyzer.warmup --order seafarers,regatta,meographic,beacon >"$OUT/warmup.log" 2>&1 &
background=$!
trap 'kill $background 2>/dev/null' EXIT
step=0
section() {  # section GAME "what it shows": compile GAME's kernels if needed, then say what runs
  step=$((step + 1))
  .venv/bin/python -m analyzer.warmup "$1" --talk
  echo "[$step/8] $2"
}
report() {  # (for the commands that do not print where their report is)
  case "$OUT" in /*) echo "report: $OUT/$1/report.html" ;; *) echo "report: $PWD/$OUT/$1/report.html" ;; esac; }

section beacon "Beacon Patrol solo: every fair policy and the oracle bound on the same games"
.venv/bin/tabletop beacon compare --policies random,greedy,lookahead,rollout,oracle --players 1 \
  --games "${COMPARE_GAMES:-300}" --seed 2026 --out "$OUT/beacon-compare"
report beacon-compare
section beacon "Beacon Patrol solo, the lookahead policy: score distribution and ranks"
.venv/bin/tabletop beacon simulate --players 1 --policy lookahead --games "${GAMES:-20000}" --seed 2026 \
  --out "$OUT/beacon-lookahead"
section meographic "Cational Meographic, 2 players: planner against greedy, seats rotated"
.venv/bin/tabletop meographic compare --players 2 --bots planner,greedy --games "${MEO_GAMES:-500}" --seed 2026 \
  --out "$OUT/meographic-compare"
report meographic-compare
section regatta "the paper-boat river race: planner against greedy, seats rotated"
.venv/bin/tabletop regatta compare --players 2 --bots planner,greedy --games "${RACES:-1000}" --seed 2026 \
  --out "$OUT/regatta-compare"
report regatta-compare
section seafarers "Catan: Seafarers, New Shores, 4 players: seat fairness over random boards, by income and by wins"
.venv/bin/tabletop seafarers balance --scenario new-shores --players 4 --boards "${BOARDS:-300}" --rolls 60 \
  --heuristic diverse --by wins --games-per-board "${GAMES_PER_BOARD:-40}" --seed 2026 --out "$OUT/seafarers-balance"
section seafarers "Catan: Seafarers, New Shores, 4 players: full games by value bots, who wins from which seat"
.venv/bin/tabletop seafarers play --scenario new-shores --players 4 --bots value --games "${PLAY_GAMES:-2000}" \
  --seed 2026 --out "$OUT/seafarers-play"
section seafarers "Catan: Seafarers, Four Islands, 3 players: the three opening heuristics, every seating"
.venv/bin/tabletop seafarers tournament --scenario four-islands --players 3 \
  --entrants value:opening=pips,value:opening=diverse,value:opening=port --games "${TOURNAMENT_GAMES:-300}" \
  --seed 2026 --out "$OUT/seafarers-tournament"
section seafarers "Catan: Seafarers, every scenario at 3 and 4 players: the seat-advantage heat-map"
.venv/bin/tabletop seafarers seats --scenarios all --players 3,4 --games "${SEATS_GAMES:-2000}" --seed 2026 \
  --out "$OUT/seafarers-seats"
wait $background || true
echo
echo "Reports:"
case "$OUT" in /*) base=$OUT ;; *) base=$PWD/$OUT ;; esac
for d in beacon-compare beacon-lookahead meographic-compare regatta-compare seafarers-balance seafarers-play \
  seafarers-tournament seafarers-seats; do
  echo "  $base/$d/report.html"
done
echo "The command line is .venv/bin/tabletop; 'source .venv/bin/activate' puts it on your PATH as tabletop."
