"""The full Seafarers game's bots by code (numba); the game loop is kernels/catan/play.py.

    work = bot_work(board)                       the bots' scratch, once per chunk (allocating)
    i = decide(board, game, n, policy, params, stream, work)      an index into game.actions[:n]

The value and planner bots are in kernels/catan/bots.py, the rollout bot in kernels/catan/rollout.py.
"""

from collections import namedtuple

import numpy as np

from kernels.catan import game as kg
from kernels.catan.bots import best_harbour, decide_value
from kernels.catan.rollout import N_NUMBERS, N_TERRAINS, decide_rollout
from kernels.jit import internal, merged
from kernels.rng import uniform_int

POLICY_RANDOM = 0  # uniform over the legal actions
POLICY_WEIGHTED = 1  # 3 times in 4 a uniform pick among the builds (all but end turn, trades, offers, ship moves)
POLICY_VALUE = 2  # decide_value with the seat's params
POLICY_PLANNER = 3  # decide_value saving for _plan_target's build (the value bot's params)
POLICY_ROLLOUT = 4  # decide_rollout: the value bot's best few actions tried in playouts

BotWork = namedtuple("BotWork", [
    "own",  # float64 [6]: a seat's pips per resource and gold
    "scores", "totals",  # float64 [MAX_ACTIONS]: the value bot's score of each action; a rollout candidate's sum
    "order",  # int64 [MAX_ACTIONS]: the rollout's candidates
    "sim",  # Game: the rollout's copy of the game
    "sim_board",  # Board: the board's arrays, but its own terrain and number (the fog dealt afresh)
    "counts",  # int64 [N_TERRAINS + N_NUMBERS]: the pools the rollout deals from
    "stream",  # uint64 [2]: the rollout's deal
])


def bot_work(board: kg.Board) -> BotWork:
    """Scratch for every bot on `board` (whose arrays a chunk may refill in place: sim_board shares them)."""
    return BotWork(np.zeros(6), np.zeros(kg.MAX_ACTIONS), np.zeros(kg.MAX_ACTIONS),
                   np.zeros(kg.MAX_ACTIONS, np.int64), kg.new_game(board),
                   board._replace(terrain=board.terrain.copy(), number=board.number.copy()),
                   np.zeros(N_TERRAINS + N_NUMBERS, np.int64), np.zeros(2, np.uint64))


@internal
def _is_build(kind):
    """Every action but ending the turn, a trade, an offer or its answer, or a ship move (the weighted bot's)."""
    return not (kind == kg.END_TURN or kind == kg.TRADE or kind == kg.MOVE_SHIP or kind == kg.OFFER
                or kind == kg.DECLINE or kind == kg.ACCEPT)


@merged
def decide(board, game, n, policy, params, stream, work):
    """Index of the chosen action among game.actions[:n] (random and weighted: the reference's decide_random and
    decide_weighted); every bot but random lays a harbour token where best_harbour finds best."""
    if game.st[kg.ST_PHASE] == kg.LAY_HARBOUR and policy != POLICY_RANDOM:
        return best_harbour(board, game, n)
    if policy == POLICY_VALUE or policy == POLICY_PLANNER:  # (one call: decide_value is merged into its callers)
        return decide_value(board, game, n, params, work.own, policy == POLICY_PLANNER, work.scores)
    if policy == POLICY_ROLLOUT:
        return decide_rollout(board, game, n, params, stream, work)
    if policy == POLICY_WEIGHTED:
        builds = 0
        for i in range(n):
            if _is_build(game.actions[i, 0]):
                builds += 1
        if builds > 0 and uniform_int(stream, 4) != 0:
            pick = uniform_int(stream, builds)
            for i in range(n):
                if _is_build(game.actions[i, 0]):
                    if pick == 0:
                        return i
                    pick -= 1
    return uniform_int(stream, n)
