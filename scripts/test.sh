#!/usr/bin/env bash
# Set everything up (first run: a virtual environment with the test and catanatron extras), check the style (ruff,
# configured in pyproject.toml) and run the tests.
TABLETOP_WARMUP=later source "$(dirname "$0")/_env.sh" test,catanatron
.venv/bin/ruff check --quiet .
# The kernels compile first (minutes on a fresh clone, seconds after). The Seafarers full game's take longest: they
# compile on one core beside the other groups and then beside the tests, which run at a lower priority (the compile
# keeps its core) and run the files that play the full game last, waiting for that group before the first of them
# (tests/conftest.py), so no test compiles it a second time.
.venv/bin/python -m analyzer.warmup seafarers "full game" &
full_game=$!
.venv/bin/python -m analyzer.warmup --skip "seafarers:full game"
# The tests run on every core, at most 4 (pytest-xdist; a file's tests stay in one worker, so a module's fixtures
# and the kernels only its tests compile are built once); TEST_WORKERS=0 runs them in this process.
workers=${TEST_WORKERS:-$(.venv/bin/python -c "import os; print(min(4, len(os.sched_getaffinity(0))))")}
status=0
if [ "$workers" -gt 1 ]; then
  nice -n 10 .venv/bin/python -m pytest -n "$workers" --dist loadfile "$@" || status=$?
else
  nice -n 10 .venv/bin/python -m pytest "$@" || status=$?
fi
wait $full_game || status=1
echo "The command line is .venv/bin/tabletop; 'source .venv/bin/activate' puts it on your PATH as tabletop."
exit $status
