"""The random and greedy Beacon Patrol policies (numba); greedy is every other policy's fallback.

greedy: the placement worth most points now (then the cell with more placed neighbours), else a
trade for a tile that places here, else sail towards the nearest tile with the most placements,
else discard a tile to step next to one, else end the turn keeping (solo) the most valuable tile;
ties are broken from the policy's own stream (docs/beacon/engine.md).
"""

import numpy as np

from kernels.beacon.actions import _free_tiles, _hand_masks, _placements_from
from kernels.beacon.board import _bfs, _step, can_place_from, placed_neighbours, placement_gain
from kernels.beacon.codes import (
    ACT_DISCARD_MOVE,
    ACT_MOVE,
    ACT_PLACE,
    ACT_TRADE,
    CFG_HAND,
    MAX_ACTIONS,
    MAX_HAND,
    ST_N_PIERS,
    ST_PLAYER,
    ST_TOKENS,
    TT_FEATURE,
)
from kernels.jit import inline, internal
from kernels.rng import uniform_int


@internal
def _pick_tied(keys, lo, hi, best, rng):
    """Index of a uniformly chosen action among those in lo .. hi - 1 whose key equals best.

    A random draw is made only when two or more actions tie."""
    ties = np.int64(0)  # not the literal 0, which numba would also compile uniform_int for
    first = -1
    for i in range(lo, hi):
        if keys[i] == best:
            ties += 1
            if first < 0:
                first = i
    if ties == 1:
        return first
    j = uniform_int(rng, ties)
    for i in range(lo, hi):
        if keys[i] == best:
            if j == 0:
                return i
            j -= 1
    return first


@inline  # literal constants, as _set_action
def _run_end(actions, i, n, kind):
    """End of the run of `kind` actions starting at i (legal_actions lists each kind in one run)."""
    while i < n and actions[i, 0] == kind:
        i += 1
    return i


@internal
def _sail_values(tt, board, g, hands, p, hand, ship, tokens, flood, best, no_cand):
    """For each first step N, E, S, W: best (placements * 64 - steps) over the tiles the ship
    reaches with at most `tokens` steps over water starting with that step; NO_KEY if none."""
    best[:] = NO_KEY
    if tokens <= 0 or _free_tiles(hands, p, hand, np.int64(0)) == 0:  # no step, or nothing to place
        return best
    masks = _hand_masks(tt, hands, p, hand, np.int64(0))
    tail = _bfs(tt, board, g, ship, tokens, np.int64(-1), flood)
    for i in range(1 + 2 * tt.shape[0] + 3, tail, 3):  # every reached tile but the start
        k = _placements_from(tt, board, g, masks, flood[i], np.int64(0), no_cand, np.int64(0))
        if k > 0:
            best[flood[i + 2]] = max(best[flood[i + 2]], k * 64 - flood[i + 1])
    return best


@internal
def _best_reachable(tt, board, g, hands, p, hand, cell, skip_slot, no_cand):
    """placements * 64 - 1 for a ship stepping onto cell without hand slot skip_slot."""
    masks = _hand_masks(tt, hands, p, hand, 1 << skip_slot)
    k = _placements_from(tt, board, g, masks, cell, np.int64(0), no_cand, np.int64(0))
    return k * 64 - 1 if k > 0 else NO_KEY


KEEP_PRIORITY = np.array([1, 3, 2, 0, 2, 2], np.int64)  # by feature: what a solo player keeps
NO_KEY = -(1 << 40)


@internal
def _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys):
    """Immediate points first; docs/beacon/engine.md gives the exact order."""
    p = st[ST_PLAYER]
    ship = ships[p]
    n_piers = st[ST_N_PIERS]
    places = _run_end(actions, np.int64(0), n, ACT_PLACE)  # the runs of kinds, in legal_actions' order
    moves = _run_end(actions, places, n, ACT_MOVE)
    discards = _run_end(actions, moves, n, ACT_DISCARD_MOVE)
    trades = _run_end(actions, discards, n, ACT_TRADE)
    # 1. place: most points, then the cell with more placed neighbours
    best = np.int64(NO_KEY)
    for i in range(places):
        cell = ship + _step(g, actions[i, 2])
        t = hands[p * MAX_HAND + actions[i, 1]]
        gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, cell, flood)
        keys[i] = gain * 16 + placed_neighbours(board, g, cell)
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, np.int64(0), places, best, rng)
    # 2. trade for a tile that can be placed here, valued by its best placement
    for i in range(discards, trades):
        keys[i] = NO_KEY
        u = hands[actions[i, 2] * MAX_HAND + actions[i, 3]]
        for d in range(4):
            if can_place_from(tt, board, g, ship, u, d):
                cell = ship + _step(g, d)
                gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, u, cell, flood)
                keys[i] = max(keys[i], gain * 16 + placed_neighbours(board, g, cell))
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, discards, trades, best, rng)
    # 3. sail with a token towards the nearest tile with the most placements (within the
    #    tokens left), else 4. discard a tile to step next to a placement for the others
    by_first_step = keys[MAX_ACTIONS:]
    _sail_values(tt, board, g, hands, p, cfg[CFG_HAND], ship, st[ST_TOKENS], flood, by_first_step,
                 actions[:0])
    for i in range(places, moves):
        keys[i] = by_first_step[actions[i, 1]]
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, places, moves, best, rng)
    for i in range(moves, discards):
        keys[i] = _best_reachable(tt, board, g, hands, p, cfg[CFG_HAND], ship + _step(g, actions[i, 2]),
                                  actions[i, 1], actions[:0])
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, moves, discards, best, rng)
    # 5. end the turn, keeping (solo) the most valuable tile
    for i in range(trades, n):
        s = actions[i, 1]
        keys[i] = 0 if s < 0 else KEEP_PRIORITY[tt[hands[p * MAX_HAND + s], TT_FEATURE]]
        best = max(best, keys[i])
    return _pick_tied(keys, trades, n, best, rng)
