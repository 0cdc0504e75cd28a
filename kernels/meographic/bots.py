"""The Meographic bots (kernels/meographic/rollout.py's `decide` is their one entry point), reading only what the
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

from kernels.jit import internal
from kernels.meographic.engine import (
    ANY,
    CFG_ONCE,
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
    missions_at,
    open_cells,
    points_at,
)
from kernels.rng import uniform_int

BOT_RANDOM, BOT_GREEDY, BOT_PLANNER, BOT_ROLLOUT = 0, 1, 2, 3
# planner parameters (vector order)
PL_ADJ, PL_MISSION, PL_KEEP, PL_LOOK = 0, 1, 2, 3


@internal
def action_of(actions, n, slot, cell):
    r, c = cell // GP - PAD, cell % GP - PAD
    for i in range(n):
        if actions[i, 0] == PLACE and actions[i, 1] == slot and actions[i, 2] == r and actions[i, 3] == c:
            return i
    return np.int64(0)


@internal
def best_open(state, setup, seat, cand, k):
    """For each of the k tiles cand[j] = (type, points), its most points over the seat's open cells and the first
    open cell's index scoring them, into cand[j, 2], cand[j, 3]: one pass over the open cells reading each
    cell's neighbours and mission masks once for all k tiles."""
    btype, bpts, mmask = state.btype, state.bpts, state.mmask
    for j in range(k):
        cand[j, 2] = -1
        cand[j, 3] = -1
    for i in range(state.n_open[seat]):
        cell = state.open_at[seat, i]
        t0, t1, t2, t3 = btype[seat, cell - GP], btype[seat, cell - 1], btype[seat, cell + 1], btype[seat, cell + GP]
        p0, p1, p2, p3 = bpts[seat, cell - GP], bpts[seat, cell - 1], bpts[seat, cell + 1], bpts[seat, cell + GP]
        for j in range(k):
            ty, pt = cand[j, 0], cand[j, 1]
            v = pt
            if t0 == ty and p0 <= pt:
                v += p0
            if t1 == ty and p1 <= pt:
                v += p1
            if t2 == ty and p2 <= pt:
                v += p2
            if t3 == ty and p3 <= pt:
                v += p3
            if mmask[seat, cell, ty] != 0:
                mission, bonus = missions_at(state, setup, seat, cell, ty, False)
                v += mission + bonus
            if v > cand[j, 2]:
                cand[j, 2] = v
                cand[j, 3] = i


@internal
def place_index(state, seat, slot, i):
    """The index of (PLACE, slot, the i-th open cell) in legal's order: slot by slot, the open cells in order."""
    if slot == 1 and state.hands[seat, 0] >= 0:
        return i + state.n_open[seat]
    return np.int64(i)


@internal
def greedy(state, setup, actions, n):
    st = state.st
    seat = st[ST_SEAT]
    tile_type, tile_pts = setup.tile_type, setup.tile_pts
    cand = state.cand
    if st[ST_PHASE] == PLACE:
        if st[ST_PLAN] == 1:  # chosen with the explore, on the same area and mission row
            return place_index(state, seat, st[ST_PLAN_SLOT], st[ST_PLAN_CELL])
        k = 0
        for slot in range(2):
            t = state.hands[seat, slot]
            if t >= 0:
                cand[k, 0], cand[k, 1], cand[k, 4] = tile_type[t], tile_pts[t], slot
                k += 1
        best_open(state, setup, seat, cand, k)
        best, pick = np.int64(-1), np.int64(0)
        for j in range(k):
            if cand[j, 2] > best:
                best, pick = cand[j, 2], place_index(state, seat, cand[j, 4], cand[j, 3])
        return pick
    hand = state.hands[seat, 0]
    k = 0
    if hand >= 0:
        cand[0, 0], cand[0, 1] = tile_type[hand], tile_pts[hand]
        k = 1
    for i in range(n):  # cand[k] for each pile action, in action order
        a = actions[i, 1]
        if a < PILES:
            top = state.piles[a, state.pile_n[a] - 1]
            cand[k, 0], cand[k, 1] = tile_type[top], tile_pts[top]
            k += 1
    best_open(state, setup, seat, cand, k)
    hand_v, hand_at = np.int64(-1), np.int64(-1)
    j = 0
    if hand >= 0:
        hand_v, hand_at = cand[0, 2], cand[0, 3]
        j = 1
    best, pick, slot, where = np.int64(-2), np.int64(0), np.int64(0), hand_at
    for i in range(n):
        a = actions[i, 1]
        v, s, at = hand_v, np.int64(0), hand_at
        if a < PILES:
            if cand[j, 2] > v:
                v, s, at = cand[j, 2], np.int64(1), cand[j, 3]
            j += 1
        if v > best:
            best, pick, slot, where = v, np.int64(i), s, at
    if actions[pick, 1] < PILES and where >= 0:
        st[ST_PLAN] = 1
        st[ST_PLAN_SLOT] = slot
        st[ST_PLAN_CELL] = where  # the open cell's index: the area does not change before the photo
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
    """Per uncovered card that can still pay the seat (card_scores_once), the best window through a tile of type ty
    on cell that no tile blocks: the card's points times the chance of every missing type."""
    btype = state.btype
    value = 0.0
    spent = state.scored[seat] if setup.cfg[CFG_ONCE] != 0 else np.int64(0)
    for j in range(state.st[ST_NCOLS]):
        m = state.col_top[j]
        if (spent >> m) & 1:
            continue
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


@internal
def decide_basic(state, setup, actions, n):
    """The seat to move's random, greedy or planner bot picks one of the n legal actions."""
    if n == 1:
        return np.int64(0)
    seat = state.st[ST_SEAT]
    bot = setup.bots[seat]
    if bot == BOT_GREEDY:
        return greedy(state, setup, actions, n)
    if bot == BOT_PLANNER:
        return planner(state, setup, actions, n, setup.params[seat])
    return uniform_int(state.rng, n)


__all__ = ["BOT_RANDOM", "BOT_GREEDY", "BOT_PLANNER", "BOT_ROLLOUT", "EXPLORE", "decide_basic", "greedy", "planner",
           "plan_value", "set_chances"]
