#!/usr/bin/env bash
# Set everything up (first run: a virtual environment with the test extras), check the style (ruff,
# configured in pyproject.toml) and run the tests.
source "$(dirname "$0")/_env.sh" test
.venv/bin/ruff check --quiet .
exec .venv/bin/python -m pytest "$@"
