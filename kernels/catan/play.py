"""The full Seafarers game's one game loop (numba): every command's games, on fixed or dealt boards, with or without
the invariants checked after every step.

    seats = Seats(policies, params, streams, bots)        who plays (kernels/catan/policies.py)
    deals = Deals(static, work, terrain, number, harbour) the boards (kernels/catan/table.py): game first + j on
                                                          row j; no rows (no_deals): every game on `board` as it is
    checks = Checks(route, out)                           out int64 [N_CHECK_COLS, n]: per game the first broken
                                                          invariant (kernels/catan/invariants.py) and the decisions
                                                          taken; n = 0: no checks
    decisions = play_games(board, game, deals, seats, seed, first, out, checks)

Game first + j: refill `board` for its deal (if any), init, then legal / decide / step until the game is over (or an
invariant broke), then its result columns into out[:, j] (int64 [N_RESULT_COLS, n]): the step contract's init,
legal, decide, step, terminal and result (analyzer/step_contract.py). One loop, one compiled entry: the commands,
the report's replays and the invariant check play through it.
"""

from collections import namedtuple

import numpy as np

from kernels.catan import game as kg
from kernels.catan import invariants as ki
from kernels.catan import policies as kp
from kernels.catan import table as kt
from kernels.catan.route import route_work
from kernels.jit import kernel
from kernels.rng import PURPOSE_POLICY, stream_init

Seats = namedtuple("Seats", [
    "policies",  # int64 [MAX_SEATS]: each seat's bot (kernels/catan/policies.py POLICY_*)
    "params",  # float64 [MAX_SEATS, n_params]: each seat's bot parameters
    "streams",  # uint64 [MAX_SEATS, 2]: each seat's decisions' stream (scratch)
    "bots",  # kernels/catan/policies.BotWork: the bots' scratch
])
Deals = namedtuple("Deals", ["static", "work", "terrain", "number", "harbour"])  # kernels/catan/table.py
Checks = namedtuple("Checks", ["route", "out"])  # kernels/catan/route.RouteWork, int64 [N_CHECK_COLS, n]
CHECK_CODE, CHECK_DECISIONS = range(2)  # Checks.out's rows
N_CHECK_COLS = 2


def no_deals() -> Deals:
    """Deals of no board (every game on the board as the caller built it), of the types dealt ones have."""
    static = kt.DealStatic(np.zeros((0, 6), np.int32), np.zeros(0, np.bool_), np.zeros(0, np.bool_),
                           np.zeros(0, np.bool_), np.zeros(0, np.bool_), np.zeros(0, np.int32), np.zeros(1, np.int32),
                           np.zeros(0, np.bool_), np.zeros(0, np.bool_), np.zeros((0, 2), np.int32), False, 0, 0, 0,
                           0, False, 0, False)
    return Deals(static, kt.new_deal_work(0, 0, 0), np.zeros((0, 0), np.int8), np.zeros((0, 0), np.int8),
                 np.zeros((0, 0), np.int8))


def no_checks() -> Checks:
    return Checks(route_work(0), np.zeros((N_CHECK_COLS, 0), np.int64))


@kernel
def play_games(board, game, deals, seats, seed, first, out, checks):
    """Games first .. first + out.shape[1] - 1 of `seed` (module docstring). Returns the decisions taken."""
    dealt = deals.terrain.shape[0] > 0
    checking = checks.out.shape[1] > 0
    decisions = 0
    for j in range(out.shape[1]):
        if dealt:
            kt.fill_board(deals.static, deals.work, deals.terrain[j], deals.number[j], deals.harbour[j], board)
        g = first + j
        kg.init(board, game, seed, g)
        for seat in range(board.params[kg.P_PLAYERS]):
            stream_init(seats.streams[seat], seed, kg.MAX_SEATS * g + seat, PURPOSE_POLICY)
        code = ki.check(board, game, checks.route, True) if checking else 0
        taken = 0
        while code == 0 and not kg.terminal(board, game):
            n = kg.legal(board, game)
            actor = game.st[kg.ST_ACTOR]
            i = kp.decide(board, game, n, seats.policies[actor], seats.params[actor], seats.streams[actor],
                          seats.bots)
            kind = game.actions[i, 0]
            kg.step(board, game, kind, game.actions[i, 1], game.actions[i, 2])
            taken += 1
            if checking:
                code = ki.check(board, game, checks.route, ki.changes_pieces(game, kind))
        kg.result(board, game, out[:, j])
        if checking:
            checks.out[CHECK_CODE, j] = code
            checks.out[CHECK_DECISIONS, j] = taken
        decisions += taken
    return decisions
