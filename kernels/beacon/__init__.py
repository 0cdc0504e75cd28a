"""Beacon Patrol game kernels (numba, nopython, nogil), one module per concern:

codes      integer codes and array layouts (tile table, cfg, board, state, result columns)
board      placing, sailing, scoring
actions    the legal actions in canonical order, and carrying one out
greedy     the random and greedy policies (greedy: every policy's fallback)
lookahead  the lookahead policy: plans the whole turn on a board value
rollout    the rollout and oracle policies, and `choose_action`, the one policy entry point
workspace  the per-game state bundles (Workspace, Planner, Sim)
play       games: reset, the loop per policy tier, `simulate_range_of`, `score_layout`

`from kernels import beacon as kb` gives the public names of all of them (kb.N_COLS,
kb.simulate_range_of); names with a leading underscore are reached through their module.
"""

from kernels.beacon.actions import *  # noqa: F401,F403
from kernels.beacon.board import *  # noqa: F401,F403
from kernels.beacon.codes import *  # noqa: F401,F403
from kernels.beacon.greedy import *  # noqa: F401,F403
from kernels.beacon.lookahead import *  # noqa: F401,F403
from kernels.beacon.play import *  # noqa: F401,F403
from kernels.beacon.rollout import *  # noqa: F401,F403
from kernels.beacon.workspace import *  # noqa: F401,F403
