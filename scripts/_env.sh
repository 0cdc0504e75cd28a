# Shared by demo.sh and test.sh: create .venv if missing and install the package into it.
# Usage: source scripts/_env.sh [extras]   e.g. "test"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
spec="."
[ -n "${1:-}" ] && spec=".[$1]"
stamp=".venv/.installed-$(cat pyproject.toml | sha256sum | cut -c1-16)-${1:-base}"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e "$spec"
  touch "$stamp"
fi
# Compile the kernels into numba's cache now (minutes the first time, a second after), so
# that the first command a user runs starts warm.
.venv/bin/python -m analyzer.warmup
