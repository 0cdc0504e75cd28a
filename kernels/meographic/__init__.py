"""Cational Meographic game kernels (numba, nopython, nogil):

engine     the step contract: init, legal, step, terminal, result (and the scoring they share)
bots       random, greedy and planner
rollout    the rollout bot, and decide: every bot's one entry point
play       play_range: whole games into result columns
workspace  the Setup and State named tuples of arrays
"""

from kernels.meographic.bots import BOT_GREEDY, BOT_PLANNER, BOT_RANDOM, BOT_ROLLOUT  # noqa: F401
from kernels.meographic.engine import (  # noqa: F401
    EXPLORE,
    MAX_PLAYERS,
    PASS,
    PLACE,
    ROUNDS,
    init,
    legal,
    result,
    step,
    terminal,
)
from kernels.meographic.play import play_range  # noqa: F401
from kernels.meographic.rollout import decide  # noqa: F401
from kernels.meographic.workspace import N_PARAMS, Setup, State, new_state  # noqa: F401
