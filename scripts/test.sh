#!/usr/bin/env bash
# Set everything up (first run: a virtual environment with the test extras) and run the tests.
source "$(dirname "$0")/_env.sh" test
exec .venv/bin/python -m pytest "$@"
