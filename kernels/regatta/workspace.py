"""The Regatta bots' scratch, allocated once per chunk (never per game) and passed to every decision:
the planner's search levels and the rollout's continuation state."""

from collections import namedtuple

import numpy as np

from kernels.regatta.engine import MAX_ACTIONS, make_state

MAX_DEPTH = 3  # the planner's plays per line (kernels/regatta/planner.py: the root, _line, _last_line)
MAX_BEAM = 8
MAX_CANDIDATES = 10  # the rollout's: the greedy's choice, up to 8 card plays, the trade-or-end

Work = namedtuple("Work", [
    "acts",  # int64 [MAX_DEPTH - 1, MAX_ACTIONS, 4] the legal actions below the root, per search level
    "beam",  # int64 [MAX_DEPTH, MAX_BEAM] the kept plays (action index) per level
    "beam_v",  # float64 [MAX_DEPTH, MAX_BEAM] their values
    "seen",  # int64 [tiles] 1: the tile lies face up somewhere (the reveal's pool is the rest of its pile)
    "sim",  # engine.State: a continuation's own game
    "sim_acts",  # int64 [MAX_ACTIONS, 4] its legal actions
    "cand",  # int64 [MAX_CANDIDATES, 4] the rollout's candidate actions
    "pool",  # int64 [action cards + tiles] the cards or tiles a determinization deals again
])


def make_work(setup) -> Work:
    z = np.zeros
    return Work(z((MAX_DEPTH - 1, MAX_ACTIONS, 4), np.int64), z((MAX_DEPTH, MAX_BEAM), np.int64),
                z((MAX_DEPTH, MAX_BEAM)), z(len(setup.tile_kind), np.int64), make_state(setup),
                z((MAX_ACTIONS, 4), np.int64), z((MAX_CANDIDATES, 4), np.int64),
                z(int(setup.card_count.sum()) + len(setup.tile_kind), np.int64))
