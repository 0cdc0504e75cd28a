# Shared by demo.sh and test.sh: create .venv if missing and install the package into it.
# Usage: source scripts/_env.sh [extras]   e.g. "test" or "test,catanatron"
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
  echo "Installing the package and its dependencies into .venv (first run only, under a minute)..." >&2
  log=.venv/install.log
  # uv (from the package registry, into .venv) installs in a fifth of pip's time (7 s against 34 s for the test
  # extras on 2 cores); pip does it where uv cannot be had.
  { { .venv/bin/python -m pip install --quiet uv && .venv/bin/uv pip install --quiet --python .venv/bin/python \
        -e "$spec"; } \
    || { echo "(uv failed: installing with pip)"; .venv/bin/python -m pip install --quiet --upgrade pip \
         && .venv/bin/python -m pip install --quiet -e "$spec"; }; } \
    >"$log" 2>&1 || { cat "$log" >&2; echo "error: installing the package failed (the lines above, kept in $log)" >&2
                      exit 1; }
  touch "$stamp"
fi
# Compile the kernels into numba's cache now (minutes the first time, a second after), so that the first command a
# user runs starts warm; TABLETOP_WARMUP=later leaves it to the caller (the demo compiles each game as it reaches it).
if [ "${TABLETOP_WARMUP:-now}" != later ]; then
  .venv/bin/python -m analyzer.warmup
fi
