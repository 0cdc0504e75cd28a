"""The Beacon Patrol kernels' per-game state: three named bundles of arrays, allocated once per chunk.

    game = new_workspace(n_tiles, grid_size(n_tiles), policy_tier(policy_ids))
    game.st, game.board, game.hands ...      the game (reset by the kernel for every game)
    game.planner.plan, game.planner.fill     the lookahead's scratch (tier lookahead and up; else ())
    game.sim.st, game.sim.planner ...        a continuation's own state (rollout and oracle; else ())

A bundle holds only the scratch of the policies its tier can play (`policy_tier`): a smaller type
compiles faster, and numba drops the branches of the tiers above it (kernels/beacon/rollout.py).
Named tuples cost nothing at run time: numba lays them out as plain tuples.
"""

from collections import namedtuple

import numpy as np

from kernels.beacon.board import flood_size
from kernels.beacon.codes import (
    B_TILE,
    MAX_ACTIONS,
    MAX_HAND,
    MAX_PLAYERS,
    N_COLS,
    N_PARAMS,
    POLICY_LOOKAHEAD,
    POLICY_ORACLE,
    POLICY_ROLLOUT,
    ST_SIZE,
)
from kernels.beacon.lookahead import FILL_SIZE, FR_SIZE, MAX_CANDIDATES, MAX_DEPTH, MAX_OPTIONS, ORDER_N_ROOT, PLAN_SIZE

Workspace = namedtuple("Workspace", [
    "st",  # int64 [ST_SIZE] scalar game state (ST_*)
    "board",  # int16 [g*g, 2] per cell: tile id (-1 empty) and the sides bit field (B_*)
    "pos",  # int64 [n_tiles] tile -> cell, -1 not placed
    "placed",  # int64 [n_tiles] tiles in placement order
    "piers",  # int64 [n_tiles] placed pier tiles
    "hands",  # int64 [MAX_PLAYERS * MAX_HAND] tile ids, -1 empty slot
    "ships",  # int64 [MAX_PLAYERS] the cell of each ship
    "deck",  # int64 [n_tiles] the draw pile, from st[ST_DECK_POS] on
    "flood",  # int64 [flood_size(n_tiles)] search scratch (pier floods, sailing searches)
    "actions",  # int64 [MAX_ACTIONS, 4] the legal actions (kind, a, b, c)
    "deck_rng",  # uint64 [2] the deck's stream
    "rng",  # uint64 [2] the policies' stream
    "keys",  # int64 [MAX_ACTIONS + 4] policy scratch: a key per action, 4 spare
    "row",  # int64 [N_COLS] one game's result columns, before they go into the int16 output block
    "planner",  # Planner, or () below the lookahead tier
    "sim",  # Sim, or () below the rollout tier
])

Planner = namedtuple("Planner", [
    "plan",  # int64 [PLAN_SIZE] the stored plan (PLAN_*)
    "fill",  # float64 [FILL_SIZE + n_tiles] fill chance per side field, then _stop_value's sums
    "cand",  # int64 [MAX_DEPTH, MAX_CANDIDATES, 4] candidate placements per search level (CAND_*)
    "cand_v",  # float64 [MAX_DEPTH, MAX_CANDIDATES] their values
    "order",  # int64 [ORDER_N_ROOT + 1] top candidates per level | stop cell | root count
    "opts",  # int64 [MAX_OPTIONS, PLAN_SIZE] root options: plan rows
    "opt_v",  # float64 [MAX_OPTIONS] their values
    "frames",  # int64 [MAX_DEPTH, FR_SIZE] depth-first search stack (FR_*)
    "values",  # float64 [MAX_DEPTH] per level: the node's best value, its line's
])

Sim = namedtuple("Sim", [  # a continuation plays on these (board, pos, placed, piers are the game's)
    "st", "hands", "ships", "deck", "actions", "rng", "keys",  # as in Workspace
    "score",  # int64 [N_COLS] the continuation's final score
    "planner",  # Planner of the continuation's inner policy
    "oracle_ids",  # int64 [MAX_PLAYERS] the oracle's replays: seat policies
    "oracle_row",  # int64 [N_COLS] a replay's result
    "oracle_params",  # float64 [MAX_PLAYERS, N_PARAMS]
])


def new_workspace(n_tiles, g, tier=POLICY_ORACLE):
    """A Workspace for a policy tier (`policy_tier`; the default holds every policy's scratch),
    allocated in Python once per chunk and reset per game by the kernel."""
    return Workspace(
        np.zeros(ST_SIZE, np.int64), new_board(g), np.full(n_tiles, -1, np.int64), np.zeros(n_tiles, np.int64),
        np.zeros(n_tiles, np.int64), np.full(MAX_PLAYERS * MAX_HAND, -1, np.int64), np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(n_tiles, np.int64), new_flood(n_tiles), np.zeros((MAX_ACTIONS, 4), np.int64),
        np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(MAX_ACTIONS + 4, np.int64),
        np.zeros(N_COLS, np.int64),
        new_planner(n_tiles) if tier >= POLICY_LOOKAHEAD else (),
        new_sim(n_tiles) if tier >= POLICY_ROLLOUT else ())


def new_board(g):
    """Empty g x g board: per cell the tile (-1 none) and the sides bit field (B_SIDES)."""
    board = np.zeros((g * g, 2), np.int16)
    board[:, B_TILE] = -1
    return board


def new_flood(n_tiles):
    """Pier flood-fill scratch: [stamp | visit stamp per tile | visited masses per tile | stack].

    Stamps make a fresh search O(1) to start: a tile's marks count only under the current stamp.
    """
    return np.zeros(flood_size.py_func(n_tiles), np.int64)  # (called from Python it would compile)


def new_planner(n_tiles):
    """Lookahead scratch: plan, fill table, candidate lists per search level."""
    return Planner(np.full(PLAN_SIZE, -1, np.int64), np.zeros(FILL_SIZE + n_tiles, np.float64),
                   np.zeros((MAX_DEPTH, MAX_CANDIDATES, 4), np.int64),
                   np.zeros((MAX_DEPTH, MAX_CANDIDATES), np.float64), np.zeros(ORDER_N_ROOT + 1, np.int64),
                   np.zeros((MAX_OPTIONS, PLAN_SIZE), np.int64), np.zeros(MAX_OPTIONS, np.float64),
                   np.zeros((MAX_DEPTH, FR_SIZE), np.int64), np.zeros(MAX_DEPTH, np.float64))


def new_sim(n_tiles):
    """The small state arrays a continuation plays on (board, pos, placed, piers are shared)."""
    return Sim(np.zeros(ST_SIZE, np.int64), np.full(MAX_PLAYERS * MAX_HAND, -1, np.int64),
               np.zeros(MAX_PLAYERS, np.int64), np.zeros(n_tiles, np.int64), np.zeros((MAX_ACTIONS, 4), np.int64),
               np.zeros(2, np.uint64), np.zeros(MAX_ACTIONS + 4, np.int64), np.zeros(N_COLS, np.int64),
               new_planner(n_tiles), np.zeros(MAX_PLAYERS, np.int64), np.zeros(N_COLS, np.int64),
               np.zeros((MAX_PLAYERS, N_PARAMS), np.float64))
