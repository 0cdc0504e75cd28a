"""A sample of the kernels run with numba's bounds checking: every array index checked, so an index outside an
array raises IndexError where the compiled kernels would write outside it ("no input may make a kernel write outside
its arrays"; the fuzz run's deck larger than the kernel's array ended in glibc's "free(): invalid pointer").

Each case runs in a process of its own with NUMBA_BOUNDSCHECK=1 and a cache folder of its own
(.numba_cache/boundscheck: numba's cache key does not include the flag, so checked and unchecked machine code must
never share a folder), through the jobs the commands run. The sample is the river race on its largest grid (12 x 8:
96 cells, past the 64-bit masks of the default 6 x 4) with every bot, and Meographic at 4 players with every bot:
about 35 CPU-s of compiling each. The Seafarers full game is left out of CI: bounds-checked it compiles for more
than 6 CPU-minutes (5.6 GB at -O0); run it by hand with the same two variables before changing what its data files
can size.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "river race, 12 x 8 grid, every bot": """
from tests.regatta.test_large_grid import grid_rules
from analyzer.regatta.simulation import regatta_job
from analyzer.runner import RunOptions, run_job
job = regatta_job(4, ["greedy", "random", "blocker", "planner"], 3, rules_data=grid_rules(12, 8).source)
print(run_job(job, RunOptions(games=24, threads=1, progress=False)).columns.shape[1], "games")
""",
    "Meographic, 4 players, every bot": """
from analyzer.meographic import api
result = api.simulate(players=4, bots="greedy,planner,random,rollout", games=60, seed=3, progress=False)
print(result.columns.shape[1], "games")
""",
}


@pytest.mark.parametrize("case", CASES)
def test_a_sample_of_the_kernels_never_indexes_outside_its_arrays(case):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(ROOT / ".numba_cache" / "boundscheck"),
               PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", CASES[case]], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0 and done.stdout.strip().endswith("games"), done.stderr[-3000:]


def test_bounds_checking_is_on_in_those_processes(tmp_path):
    """The check itself: under the same variables an internal kernel writing past its array raises IndexError."""
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy as np\nfrom kernels.jit import internal, kernel\n\n\n@internal\ndef _write(a, i):\n"
                     "    a[i] = 1\n\n\n@kernel\ndef outer(a, i):\n    _write(a, i)\n    return a.sum()\n")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from probe import outer; import numpy as np\n"
            "try:\n    outer(np.zeros(4, np.int64), 7)\nexcept IndexError:\n    print('checked')")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.strip() == "checked", done.stderr[-3000:]
