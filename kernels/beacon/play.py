"""Beacon Patrol games (numba): reset, the game loop per policy tier, ranges of games, scoring a layout.

Python calls `simulate_range_of(tier)(game, setup, seed, start, out, trace, layout)`: games start ..
start + out.shape[1] - 1 of `seed`, one column of out each; `setup` is a Setup (the static arrays),
`game` a Workspace of that tier. Each game draws from its own streams (kernels/rng.py: the deck
and the policies have separate purposes), so results never depend on how games are split into
chunks, and two policies on one seed see the same tile order (common random numbers).
"""

from collections import namedtuple

import numpy as np

from kernels.beacon.actions import _draw_up, _game_over, actions_for, take_action
from kernels.beacon.board import _place, flood_size, grid_size, lift_tile, put_tile, rank_of, score_board
from kernels.beacon.codes import (
    B_TILE,
    CFG_PLAYERS,
    CFG_TOKENS,
    COL_MOVES,
    COL_RANK,
    COL_SCORE,
    COL_TILES_DISCARDED,
    COL_TILES_PLACED,
    COL_TRADES,
    COL_TURNS,
    MAX_PLAYERS,
    N_COLS,
    POLICY_GREEDY,
    POLICY_LOOKAHEAD,
    POLICY_ORACLE,
    POLICY_ROLLOUT,
    ST_DECK_LEN,
    ST_DISCARDED,
    ST_MOVES,
    ST_N_PLACED,
    ST_PLAYER,
    ST_TOKENS,
    ST_TRADES,
    ST_TURNS,
    TURN_LIMIT,
)
from kernels.beacon.lookahead import forget_plan
from kernels.beacon.rollout import O_REPLAY, R_SAMPLES, choose_action
from kernels.jit import allocating, inline, internal, kernel
from kernels.rng import PURPOSE_DECK, PURPOSE_POLICY, stream_init, uniform_int


@internal
def _reset(st, board, pos, placed, piers, hands, ships, deck, deck_rng, rng, tt, cfg, g, active, hq, seed,
           index):
    for i in range(st[ST_N_PLACED]):
        lift_tile(tt, board, g, pos[placed[i]])
        pos[placed[i]] = -1
    st[:] = 0
    st[ST_TOKENS] = cfg[CFG_TOKENS]
    hands[:] = -1
    stream_init(deck_rng, seed, index, np.int64(PURPOSE_DECK))  # np.int64: one compilation for both
    stream_init(rng, seed, index, np.int64(PURPOSE_POLICY))
    centre = (g // 2) * g + g // 2
    _place(tt, g, st, board, pos, placed, piers, hq, centre)
    players = cfg[CFG_PLAYERS]
    for p in range(players):
        ships[p] = centre
    # the draw pile: active tiles but the HQ, Fisher-Yates shuffled by the deck stream
    n = 0
    for t in range(active.shape[0]):
        if active[t] and t != hq:
            deck[n] = t
            n += 1
    for i in range(n - 1, 0, -1):
        j = uniform_int(deck_rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    st[ST_DECK_LEN] = n
    for p in range(players):
        _draw_up(cfg, st, hands, deck, p)


@inline
def play_game(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
    """Play game `index` to the end; result columns into out[:N_COLS].

    trace: int64[k, 5] buffer receiving (player, kind, a, b, c) of every action taken,
    for replays and reference checks; pass a zero-row array to skip. Returns the number
    of actions taken.

    The oracle knows the draw order, so it can also play exactly as a fair policy would:
    its game is the best of the greedy, lookahead and rollout replays and its own search.
    tier: `policy_tier(policy_ids)`, a compile-time constant (see choose_action).
    """
    if tier >= POLICY_LOOKAHEAD:  # tier is a constant: numba compiles only what the tier holds
        forget_plan(game.planner.plan)
    if tier != POLICY_ORACLE:  # (one of the two _play calls)
        return _play(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    sim = game.sim
    ids, row, params = sim.oracle_ids, sim.oracle_row, sim.oracle_params
    runs = len(ORACLE_VARIANTS) + 1  # each variant, then the best again
    best, best_score, n_taken = np.int64(0), -1, 0
    for k in range(runs):
        last = k == runs - 1
        _oracle_variant(cfg, policy_ids, policy_params, ids, params, best if last else k)
        forget_plan(game.planner.plan)
        n_taken = _play(tier, game, tt, cfg, g, active, hq, ids, params, seed, index, out if last else row,
                        trace if last else trace[:0])
        if not last and row[COL_SCORE] > best_score:
            best, best_score = k, row[COL_SCORE]
    return n_taken


ORACLE_VARIANTS = (POLICY_GREEDY, POLICY_LOOKAHEAD, POLICY_ROLLOUT, POLICY_ORACLE)


@internal
def _oracle_variant(cfg, policy_ids, policy_params, ids, params, k):
    """Seats of the oracle play variant k; a rollout replay takes the oracle's replay_* values."""
    for p in range(MAX_PLAYERS):
        ids[p] = policy_ids[p]
        for j in range(policy_params.shape[1]):
            params[p, j] = policy_params[p, j]
        if policy_ids[p] == POLICY_ORACLE:
            ids[p] = ORACLE_VARIANTS[k]
            if ids[p] == POLICY_ROLLOUT:
                for j in range(4):
                    params[p, R_SAMPLES + j] = policy_params[p, O_REPLAY + j]


def _play_of(tier):
    """The game loop for one policy tier (see play_game). tier is a constant of this closure, so
    numba drops the other tiers' branches of choose_action before typing them (it prunes on
    constants, not on literal arguments). Compiled on its own, once per tier: merged into
    play_game it compiled 1.7 s slower."""
    @internal
    def play_of_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
        st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
        _reset(st, board, pos, placed, piers, hands, ships, deck, game.deck_rng, game.rng, tt, cfg, g, active, hq,
               seed, index)
        n_taken = 0
        ended = True  # the game can only end between turns
        while not (ended and _game_over(cfg, st, hands)) and st[ST_TURNS] < TURN_LIMIT:
            p = st[ST_PLAYER]
            n = actions_for(policy_ids[p], tt, cfg, g, st, board, hands, ships, actions)
            i = choose_action(tier, policy_ids[p], policy_params[p], tt, cfg, g, game, n)
            if n_taken < trace.shape[0]:
                trace[n_taken, 0] = p
                for k in range(4):
                    trace[n_taken, k + 1] = actions[i, k]
            n_taken += 1
            ended = take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck,
                                actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
        score = score_board(tt, cfg, board, pos, placed, st[ST_N_PLACED], g, flood, out)
        out[COL_TILES_PLACED] = st[ST_N_PLACED] - 1  # the HQ is not placed by a player
        out[COL_TILES_DISCARDED] = st[ST_DISCARDED]
        out[COL_TURNS] = st[ST_TURNS]
        out[COL_MOVES] = st[ST_MOVES]
        out[COL_TRADES] = st[ST_TRADES]
        out[COL_RANK] = rank_of(cfg, score)
        return n_taken
    return play_of_tier


# Module globals, not captured by play_game's callers: numba's cache keys a closure by what it
# captures, and a captured kernel pickles differently in every process
_play_greedy_tier = _play_of(POLICY_GREEDY)
_play_lookahead_tier = _play_of(POLICY_LOOKAHEAD)
_play_rollout_tier = _play_of(POLICY_ROLLOUT)
_play_oracle_tier = _play_of(POLICY_ORACLE)


@inline
def _play(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
    """The tier's game loop; tier is a constant where play_game is merged."""
    if tier <= POLICY_GREEDY:
        return _play_greedy_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    if tier == POLICY_LOOKAHEAD:
        return _play_lookahead_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    if tier == POLICY_ROLLOUT:
        return _play_rollout_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    return _play_oracle_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)


@inline
def simulate_range(tier, game, tt, cfg, active, hq, policy_ids, policy_params, seed, start, out, trace, layout):
    """Play games start .. start + out.shape[1] - 1; column j of out gets game start + j.

    game: a workspace from new_workspace (any previous game in it is cleared); tier:
    policy_tier(policy_ids), a compile-time constant: Python calls simulate_range_of(tier).

    For the first game of the range, trace gets its actions (player, kind, a, b, c) and
    layout[i] = (row, col, tile) its placed tiles relative to the HQ (zero rows: skipped); that
    makes a replay the same compiled code as a run. Returns (tiles placed, actions) of that game.
    """
    g = grid_size(tt.shape[0])
    row = game.row
    first = (0, 0)
    for j in range(out.shape[1]):
        n_actions = play_game(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, start + j,
                              row, trace[:trace.shape[0] if j == 0 else 0])
        for k in range(N_COLS):
            out[k, j] = row[k]
        if j == 0:
            first = (game.st[ST_N_PLACED], n_actions)
            if layout.shape[0] > 0:
                _board_layout(game.st, game.pos, game.placed, g, layout)
    return first


# What a run's games share, and never change (built by analyzer/beacon/simulation.py).
Setup = namedtuple("Setup", [
    "tt",  # int32 [n_tiles, TT_COLS] the tile table
    "cfg",  # int64 [CFG_SIZE] the rules (CFG_*)
    "active",  # uint8 [n_tiles] the tiles in play (the expansions chosen)
    "hq",  # the HQ's tile id
    "policy_ids",  # int64 [MAX_PLAYERS] each seat's policy (POLICY_*)
    "policy_params",  # float64 [MAX_PLAYERS, N_PARAMS] each seat's parameter vector
])


def _simulate_range_entry(tier):
    @kernel
    def simulate_range_of_tier(game, setup, seed, start, out, trace, layout):
        return simulate_range(tier, game, setup.tt, setup.cfg, setup.active, setup.hq, setup.policy_ids,
                              setup.policy_params, seed, start, out, trace, layout)
    return simulate_range_of_tier


# Python's entry points, one per tier: the tier reaches the kernel as a constant
_SIMULATE_RANGE = {tier: _simulate_range_entry(tier)
                   for tier in (POLICY_GREEDY, POLICY_LOOKAHEAD, POLICY_ROLLOUT, POLICY_ORACLE)}


def simulate_range_of(tier):
    """simulate_range compiled for a tier (`policy_tier`): call it as (game, setup, seed, start, out, trace,
    layout) with a Workspace and a Setup."""
    return _SIMULATE_RANGE[tier]


@internal
def _board_layout(st, pos, placed, g, layout):
    centre = g // 2
    for i in range(st[ST_N_PLACED]):
        t = placed[i]
        layout[i, 0] = pos[t] // g - centre
        layout[i, 1] = pos[t] % g - centre
        layout[i, 2] = t


@allocating
def score_layout(tt, cfg, rows, cols, tile_ids, out):
    """Score a finished board given as (row, col, tile) triples; breakdown into out[:N_COLS].

    The caller has validated the layout (analyzer/beacon/layout.py)."""
    n_tiles = tt.shape[0]
    g = grid_size(n_tiles)
    board = np.zeros((g * g, 2), np.int16)
    board[:, B_TILE] = -1
    pos = np.full(n_tiles, -1, np.int64)
    r0 = rows.min()
    c0 = cols.min()
    for i in range(rows.shape[0]):
        cell = (rows[i] - r0 + 1) * g + (cols[i] - c0 + 1)
        put_tile(tt, board, g, tile_ids[i], cell)
        pos[tile_ids[i]] = cell
    placed = tile_ids.astype(np.int64)
    flood = np.zeros(flood_size(n_tiles), np.int64)
    score = score_board(tt, cfg, board, pos, placed, placed.shape[0], g, flood, out)
    out[COL_RANK] = rank_of(cfg, score)
    return score
