"""The Meographic bots: one `decide(state, setup, actions, n) -> index` for every seat, reading only what the
seat sees (the piles, the mission row, its own area and tiles, the public counts of placed and discarded tiles);
never the bag's order. analyzer/meographic/bots.py names them and their parameters.

random   uniform over the legal actions (the policy stream)
greedy   the most immediate points: explore takes the pile whose top tile, or the hand, scores most on the best
         cell (the bag only when no pile stands: its tile is unknown); the photo places the held tile on the cell
         scoring most. Ties: the first in the canonical order.
planner  immediate points + `adj` x the adjacency a future tile of the same type could collect from this one
         (its points per open side, times the chance a tile is of that type) + `mission` x for each uncovered
         card the best window through the new tile blocked by no tile: the card's points times the chance of
         meeting every missing type + `keep` x the points of the tile kept in hand. A type's chance is
         1 - (1 - q)^look, q its share of the tiles not seen (the set minus every area, the discards, the piles
         and the seat's own tiles). The bag is valued as the mean over the types by q of a median tile of each.
"""

import numpy as np

from kernels.jit import internal, kernel
from kernels.meographic.engine import (
    ANY,
    CFG_TYPES,
    EXPLORE,
    GP,
    PAD,
    PILES,
    PLACE,
    ST_NCOLS,
    ST_PHASE,
    ST_PLAN,
    ST_PLAN_CELL,
    ST_PLAN_SLOT,
    ST_SEAT,
    open_cells,
    points_at,
)
from kernels.rng import uniform_int

BOT_RANDOM, BOT_GREEDY, BOT_PLANNER = 0, 1, 2
# planner parameters (vector order)
PL_ADJ, PL_MISSION, PL_KEEP, PL_LOOK = 0, 1, 2, 3


@internal
def best_cell(state, setup, seat, ty, pt, m):
    """(most points, its cell) of a tile (ty, pt) over the first m open cells (state.cells); first on ties."""
    best, where = np.int64(-1), np.int64(-1)
    for i in range(m):
        v = points_at(state, setup, seat, state.cells[i], ty, pt)
        if v > best:
            best, where = v, state.cells[i]
    return best, where


@internal
def action_of(actions, n, slot, cell):
    r, c = cell // GP - PAD, cell % GP - PAD
    for i in range(n):
        if actions[i, 0] == PLACE and actions[i, 1] == slot and actions[i, 2] == r and actions[i, 3] == c:
            return i
    return np.int64(0)


@internal
def greedy(state, setup, actions, n):
    st = state.st
    seat = st[ST_SEAT]
    tile_type, tile_pts = setup.tile_type, setup.tile_pts
    if st[ST_PHASE] == PLACE:
        if st[ST_PLAN] == 1:  # chosen with the explore, on the same area and mission row
            return action_of(actions, n, st[ST_PLAN_SLOT], st[ST_PLAN_CELL])
        m = open_cells(state, seat, state.cells)
        best, pick = np.int64(-1), np.int64(0)
        for slot in range(2):
            t = state.hands[seat, slot]
            if t >= 0:
                v, cell = best_cell(state, setup, seat, tile_type[t], tile_pts[t], m)
                if v > best:
                    best, pick = v, action_of(actions, n, slot, cell)
        return pick
    m = open_cells(state, seat, state.cells)
    hand = state.hands[seat, 0]
    hand_v, hand_cell = np.int64(-1), np.int64(-1)
    if hand >= 0:
        hand_v, hand_cell = best_cell(state, setup, seat, tile_type[hand], tile_pts[hand], m)
    best, pick, slot, where = np.int64(-2), np.int64(0), np.int64(0), hand_cell
    for i in range(n):
        a = actions[i, 1]
        v, s, cell = hand_v, np.int64(0), hand_cell
        if a < PILES:
            top = state.piles[a, state.pile_n[a] - 1]
            tv, tcell = best_cell(state, setup, seat, tile_type[top], tile_pts[top], m)
            if tv > v:
                v, s, cell = tv, np.int64(1), tcell
        if v > best:
            best, pick, slot, where = v, np.int64(i), s, cell
    if actions[pick, 1] < PILES and where >= 0:
        st[ST_PLAN] = 1
        st[ST_PLAN_SLOT] = slot
        st[ST_PLAN_CELL] = where
    return pick


@internal
def set_chances(state, setup, seat, look):
    """state.chance[t]: the chance of meeting type t among `look` unseen tiles; returns nothing."""
    n_types = setup.cfg[CFG_TYPES]
    total = 0.0
    for t in range(n_types):
        unseen = setup.type_total[t] - state.gone[t]
        for i in range(PILES):
            if state.pile_n[i] > 0 and setup.tile_type[state.piles[i, 0]] == t:
                unseen -= state.pile_n[i]
        for k in range(2):
            if state.hands[seat, k] >= 0 and setup.tile_type[state.hands[seat, k]] == t:
                unseen -= 1
        state.chance[t] = max(unseen, 0)
        total += state.chance[t]
    for t in range(n_types):
        q = state.chance[t] / total if total > 0 else 0.0
        state.chance[t] = 1.0 - (1.0 - q) ** look
    return total


@internal
def partial_value(state, setup, seat, cell, ty):
    """Per uncovered card, the best window through a tile of type ty on cell that no tile blocks: the card's
    points times the chance of every missing type."""
    btype = state.btype
    value = 0.0
    for j in range(state.st[ST_NCOLS]):
        m = state.col_top[j]
        best = 0.0
        w0 = setup.win_start[m, ty]
        for w in range(w0, w0 + setup.win_count[m, ty]):
            p = 1.0
            missing = 0
            for k in range(setup.win_len[w]):
                b = btype[seat, cell + setup.win_cells[w, k, 0] * GP + setup.win_cells[w, k, 1]]
                want = setup.win_cells[w, k, 2]
                if b < 0:
                    missing += 1
                    if want != ANY:
                        p *= state.chance[want]
                elif want != ANY and b != want:
                    p = 0.0
                    break
            if missing > 0 and p > best:
                best = p
        value += best * setup.m_points[m]
    return value


@internal
def open_sides(state, seat, cell):
    btype = state.btype
    n = 0
    for d in (-GP, -1, 1, GP):
        if btype[seat, cell + d] < 0:
            n += 1
    return n


@internal
def plan_value(state, setup, seat, cell, ty, pt, params):
    """A tile (ty, pt) on cell: points now and the planner's value of what it opens."""
    v = float(points_at(state, setup, seat, cell, ty, pt))
    v += params[PL_ADJ] * pt * open_sides(state, seat, cell) * state.chance[ty]
    return v + params[PL_MISSION] * partial_value(state, setup, seat, cell, ty)


@internal
def plan_best(state, setup, seat, ty, pt, m, params):
    best, where = -1e18, np.int64(-1)
    for i in range(m):
        v = plan_value(state, setup, seat, state.cells[i], ty, pt, params)
        if v > best:
            best, where = v, state.cells[i]
    return best, where


@internal
def planner(state, setup, actions, n, params):
    st = state.st
    seat = st[ST_SEAT]
    tile_type, tile_pts = setup.tile_type, setup.tile_pts
    keep = params[PL_KEEP]
    set_chances(state, setup, seat, params[PL_LOOK])
    m = open_cells(state, seat, state.cells)
    hand = state.hands[seat, 0]
    if st[ST_PHASE] == PLACE:
        best, pick = -1e18, np.int64(0)
        for slot in range(2):
            t = state.hands[seat, slot]
            if t >= 0:
                other = state.hands[seat, 1 - slot]
                kept = keep * tile_pts[other] if other >= 0 else 0.0
                v, cell = plan_best(state, setup, seat, tile_type[t], tile_pts[t], m, params)
                if v + kept > best:
                    best, pick = v + kept, action_of(actions, n, slot, cell)
        return pick
    hand_v = -1e18
    if hand >= 0:
        hand_v, _ = plan_best(state, setup, seat, tile_type[hand], tile_pts[hand], m, params)
    best, pick = -1e18, np.int64(0)
    n_types = setup.cfg[CFG_TYPES]
    for i in range(n):
        a = actions[i, 1]
        if a < PILES:
            top = state.piles[a, state.pile_n[a] - 1]
            tv, _ = plan_best(state, setup, seat, tile_type[top], tile_pts[top], m, params)
            v = max(tv + (keep * tile_pts[hand] if hand >= 0 else 0.0), hand_v + keep * tile_pts[top])
        elif a == 3:
            v, weight = 0.0, 0.0
            for t in range(n_types):  # the chance of a type here is its share of the unseen tiles, look 1
                q = 1.0 - (1.0 - state.chance[t]) ** (1.0 / params[PL_LOOK]) if state.chance[t] < 1.0 else 1.0
                if q <= 0.0:
                    continue
                tv, _ = plan_best(state, setup, seat, t, setup.type_pt[t], m, params)
                v += q * max(tv + (keep * tile_pts[hand] if hand >= 0 else 0.0), hand_v + keep * setup.type_pt[t])
                weight += q
            v = v / weight if weight > 0 else hand_v
        else:
            v = hand_v
        if v > best:
            best, pick = v, np.int64(i)
    return pick


@kernel
def decide(state, setup, actions, n):
    """The seat to move's bot picks one of the n legal actions."""
    if n == 1:
        return np.int64(0)
    seat = state.st[ST_SEAT]
    bot = setup.bots[seat]
    if bot == BOT_GREEDY:
        return greedy(state, setup, actions, n)
    if bot == BOT_PLANNER:
        return planner(state, setup, actions, n, setup.params[seat])
    return uniform_int(state.rng, n)


__all__ = ["BOT_RANDOM", "BOT_GREEDY", "BOT_PLANNER", "EXPLORE", "decide"]
