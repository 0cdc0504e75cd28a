#!/usr/bin/env bash
# Set everything up (first run: a virtual environment with the test extras), check the style (ruff,
# configured in pyproject.toml) and run the tests.
source "$(dirname "$0")/_env.sh" test
.venv/bin/ruff check --quiet .
status=0
.venv/bin/python -m pytest "$@" || status=$?
echo "The command line is .venv/bin/tabletop; 'source .venv/bin/activate' puts it on your PATH as tabletop."
exit $status
