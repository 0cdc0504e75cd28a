#!/usr/bin/env bash
# Set everything up (first run: a virtual environment and the package) and run the main job:
# Beacon Patrol solo and 3 players with both mini expansions, greedy policy, 100,000 games each.
source "$(dirname "$0")/_env.sh"
OUT=${OUT:-runs/demo}
GAMES=${GAMES:-100000}
.venv/bin/tabletop beacon simulate --players 1 --policy greedy --games "$GAMES" --seed 2026 --out "$OUT/solo"
.venv/bin/tabletop beacon simulate --players 3 --policy greedy --games "$GAMES" --seed 2026 \
  --expansions windmills,piers --out "$OUT/three-players-expansions"
echo
echo "Reports:"
echo "  $PWD/$OUT/solo/report.html"
echo "  $PWD/$OUT/three-players-expansions/report.html"
