"""The lookahead Beacon Patrol policy (numba): plans the rest of the turn on a board value.

A depth-first search over sequences of placements (each one reached by token moves, or
discard-moves when tokens run out), `width` best candidates per level, scored by the value
function below; a plan ends with the ship's position for next turn and (solo) the kept tile. The
best plan's whole line is stored and followed step by step; with 2+ players the trades are weighed
once per turn first. docs/beacon/policies.md explains the terms and how the weights were tuned.
"""

import numpy as np

from kernels.beacon.actions import (
    CAND_CELL,
    CAND_DIR,
    CAND_SLOT,
    CAND_STEPS,
    _free_tiles,
    _hand_masks,
    _placements_from,
    _solo_keeps,
)
from kernels.beacon.board import (
    _bfs,
    _first_step,
    _matches,
    _step,
    lift_tile,
    open_sides,
    placement_gain,
    put_tile,
    sail_sides,
)
from kernels.beacon.codes import (
    ACT_DISCARD_MOVE,
    ACT_END,
    ACT_MOVE,
    ACT_PLACE,
    ACT_TRADE,
    B_SIDES,
    B_TILE,
    CFG_HAND,
    CFG_PLAYERS,
    FEATURE_PIER,
    MAX_HAND,
    POPCOUNT4,
    ST_DECK_LEN,
    ST_DECK_POS,
    ST_N_PIERS,
    ST_PLAYER,
    ST_TOKENS,
    ST_TRADED,
    ST_TURNS,
    TT_FEATURE,
    TT_LAND_MASK,
)
from kernels.jit import inline, internal

# lookahead parameters (vector positions; rollout and oracle share them)
LA_WIDTH = 0  # candidate placements expanded per search level
LA_NEAR = 1  # weight of an unexplored tile missing one neighbour: points x chance it fills
LA_FAR = 2  # same, for tiles missing two or more neighbours
LA_HOLE = 3  # penalty per dead hole: an empty cell next to tiles that nothing can ever fill
LA_SHIP = 4  # value per fillable open side around the ship at the end of the turn
LA_KEEP = 5  # solo: weight of the kept tile's points
LA_TRADE = 6  # a trade is made when it raises the plan value by more than this
LA_DISCARD = 7  # cost of a discard-to-move, per point of the discarded tile
FILL_SIZE = 256 + 81  # fill chance per side field | tiles fitting each side pattern (unseen_fill)
FILL_DRAWS = 3  # a cell's fill chance: 1 - (1 - p)^FILL_DRAWS, p = share of unseen tiles that fit


def _side_patterns():
    """A cell's side pattern: per side (base-3 digit d of 81 patterns) 0 water shown, 1 land shown,
    2 no neighbour there. Returns the pattern of each land mask (every side shown), each pattern's
    side field (B_SIDES bits 0-7) and whether a ship can place there (some side shows water), and
    the sums that count the tiles fitting each pattern with a side unknown: side d unknown = water
    there + land there, in an order where both are counted first."""
    of_mask = np.array([sum(((m >> d) & 1) * 3 ** d for d in range(4)) for m in range(16)], np.int64)
    field = np.zeros(81, np.int64)
    reachable = np.zeros(81, np.bool_)
    sums = []
    for k in range(81):
        digits = [(k // 3 ** d) % 3 for d in range(4)]
        known = sum(1 << d for d in range(4) if digits[d] != 2)
        land = sum(1 << d for d in range(4) if digits[d] == 1)
        field[k], reachable[k] = known | (land << 4), known & ~land != 0
    for d in range(4):  # pass d: patterns with side d unknown and the sides after it known
        for k in range(81):
            digits = [(k // 3 ** e) % 3 for e in range(4)]
            if digits[d] == 2 and all(digits[e] != 2 for e in range(d + 1, 4)):
                sums.append((k, k - 2 * 3 ** d, k - 3 ** d))
    return of_mask, field, reachable, np.array(sums, np.int64)


PATTERN_OF_MASK, PATTERN_FIELD, PATTERN_REACHABLE, SIDE_PATTERN_SUMS = _side_patterns()
# plan scratch (int64): what the stored plan does next
PLAN_TURN = 0  # st[ST_TURNS] when made; -1 none
PLAN_PLAYER = 1
PLAN_KIND = 2  # PLAN_PLACE, PLAN_REPOSITION or PLAN_END
PLAN_CELL = 3  # where the ship must be (place from here / reposition to here)
PLAN_DIR = 4
PLAN_SLOT = 5
PLAN_TILE = 6
PLAN_TRADES_SEEN = 7  # st[ST_TURNS] when trades were last weighed (once per turn)
PLAN_FIELDS = 7  # a turn option's first step: PLAN_TURN .. PLAN_TILE
PLAN_PLACE, PLAN_REPOSITION, PLAN_END = 0, 1, 2
MAX_DEPTH = MAX_HAND + 1
# The rest of the turn the search found best (its line) follows the first step, so the plan
# goes on after a placement without searching the same subtree again. A step is 5 fields in
# the order of PLAN_KIND .. PLAN_TILE; frames keep each search node's best line the same way.
STEP = 5
PLAN_LINE_LEN = 8  # steps in the line after the first (0: search again after a placement)
PLAN_LINE_POS = 9  # the next of them
PLAN_LINE = 10
PLAN_SIZE = PLAN_LINE + STEP * MAX_DEPTH
MAX_CANDIDATES = 256
MAX_OPTIONS = 16
MAX_WIDTH = 8
ORDER_N_ROOT = MAX_DEPTH * MAX_WIDTH + 1  # order[]: where root_options leaves its candidate count
BASE_POINTS = np.array([1.0, 3.0, 2.0, 3.0, 2.0, 2.0])  # by feature, for tiles not yet explored


@internal
def unseen_fill(tt, cfg, st, hands, deck, p, fill):
    """fill[s] = chance a side field s gets a tile: the share of tiles player p has not seen (the
    draw pile as a multiset, and the other hands) that fit, raised over FILL_DRAWS draws; 0 when
    no placed neighbour shows water towards the cell (no ship can place there). Only the side
    fields a board can hold are written (land bits on placed sides only).

    The tiles fitting each field are counted per side pattern (_side_patterns): the unseen tiles by
    land mask, then summed over each side not yet known (SIDE_PATTERN_SUMS)."""
    fitting = fill[256:256 + 81]
    for m in range(16):
        fitting[PATTERN_OF_MASK[m]] = 0.0
    for i in range(st[ST_DECK_POS], st[ST_DECK_LEN]):
        fitting[PATTERN_OF_MASK[tt[deck[i], TT_LAND_MASK]]] += 1.0
    for q in range(cfg[CFG_PLAYERS]):
        if q != p:
            for s in range(cfg[CFG_HAND]):
                if hands[q * MAX_HAND + s] >= 0:
                    fitting[PATTERN_OF_MASK[tt[hands[q * MAX_HAND + s], TT_LAND_MASK]]] += 1.0
    for k in range(SIDE_PATTERN_SUMS.shape[0]):
        fitting[SIDE_PATTERN_SUMS[k, 0]] = fitting[SIDE_PATTERN_SUMS[k, 1]] + fitting[SIDE_PATTERN_SUMS[k, 2]]
    total = fitting[80]  # no side known: every unseen tile
    for k in range(81):
        v = 0.0
        if PATTERN_REACHABLE[k] and total > 0:
            miss = 1.0 - fitting[k] / total
            v = 1.0 - miss ** FILL_DRAWS
        fill[PATTERN_FIELD[k]] = v
    return total


@internal
def _potential(tt, board, g, fill, params, cell):
    """Value of the unexplored tile on cell: its points x the chance its empty sides all fill."""
    sides = board[cell, B_SIDES]
    missing = 4 - POPCOUNT4[sides & 15]
    chance = 1.0
    for d in range(4):
        if not (sides >> d) & 1:
            chance *= fill[board[cell + _step(g, d), B_SIDES]]
    w = params[LA_NEAR] if missing == 1 else params[LA_FAR]
    return w * BASE_POINTS[tt[board[cell, B_TILE], TT_FEATURE]] * chance


@internal
def region_value(tt, board, g, fill, params, centre):
    """Heuristic value of the cells within two steps of centre: potentials of unexplored
    tiles, minus dead holes right next to it. Differences of this before and after a
    placement on centre are what the placement changes beyond its immediate points."""
    hole = params[LA_HOLE]
    v = 0.0
    for dr in range(-2, 3):
        for dc in range(-2 + abs(dr), 3 - abs(dr)):
            cell = centre + dr * g + dc
            sides = board[cell, B_SIDES]
            if board[cell, B_TILE] >= 0:
                if sides & 15 != 15:
                    v += _potential(tt, board, g, fill, params, cell)
            elif hole != 0.0 and abs(dr) + abs(dc) <= 1 and sides & 15 != 0 and fill[sides] == 0.0:
                v -= hole
    return v


@internal
def board_value(tt, board, g, pos, placed, n_placed, fill, params):
    """Heuristic value of the whole board beyond its score: potentials of the unexplored tiles
    minus a dead hole's penalty for each side of a tile that faces one."""
    v = 0.0
    for i in range(n_placed):
        cell = pos[placed[i]]
        sides = board[cell, B_SIDES]
        if sides & 15 == 15:
            continue
        v += _potential(tt, board, g, fill, params, cell)
        for d in range(4):
            if not (sides >> d) & 1 and fill[board[cell + _step(g, d), B_SIDES]] == 0.0:
                v -= params[LA_HOLE]
    return v


@internal
def _open_fill(tt, board, g, fill, cell):
    """Sum of the fill chances of the empty cells the tile on cell faces with water: the tile's
    share of a ship's prospects for next turn (_stop_value)."""
    open_ = open_sides(board, cell)
    v = 0.0
    for d in range(4):
        if (open_ >> d) & 1:
            v += fill[board[cell + _step(g, d), B_SIDES]]
    return v


@internal
def _cheapest_slot(tt, hands, p, hand, used, keep_slot):
    """The hand slot (not used, not keep_slot) whose tile is worth least; -1 if none."""
    best, best_v = -1, 1e9
    for s in range(hand):
        t = hands[p * MAX_HAND + s]
        if t >= 0 and not (used >> s) & 1 and s != keep_slot:
            v = BASE_POINTS[tt[t, TT_FEATURE]]
            if v < best_v:
                best, best_v = s, v
    return best


@internal
def _discards(tt, hands, p, hand, spent, n, params):
    """The cheapest n hand tiles not yet spent, discarded to pay for steps beyond the tokens:
    the slots spent then, and the discard cost (params[LA_DISCARD] per point of each)."""
    cost = 0.0
    for _ in range(n):
        k = _cheapest_slot(tt, hands, p, hand, spent, np.int64(-1))
        if k >= 0:
            cost += params[LA_DISCARD] * BASE_POINTS[tt[hands[p * MAX_HAND + k], TT_FEATURE]]
            spent |= 1 << k
    return spent, cost


@internal
def _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
                fill, params, cand, cand_v, reached, reached_more):
    """Every placement reachable this turn (token moves, then discard-moves), with its value:
    points now + change of region value - discard cost. Returns the count.
    reached, reached_more: ends of the entries within the tokens and within one step more of the
    breadth-first search from ship that flood still holds (_stop_value's)."""
    hand = cfg[CFG_HAND]
    free = _free_tiles(hands, p, hand, used)
    if free == 0:
        return 0
    masks = _hand_masks(tt, hands, p, hand, used)
    n = np.int64(0)
    for extra in range(free):  # discard-moves only when token moves reach no placement
        tail = reached if extra == 0 else reached_more if extra == 1 else _bfs(
            tt, board, g, ship, tokens + extra, np.int64(-1), flood)
        for i in range(1 + 2 * tt.shape[0], tail, 3):
            n = _placements_from(tt, board, g, masks, flood[i], flood[i + 1], cand, n)
        if n > 0:
            break
    n = min(n, MAX_CANDIDATES)
    last_target, before = -1, 0.0
    for i in range(n):
        s, steps = cand[i, CAND_SLOT], cand[i, CAND_STEPS]
        t = hands[p * MAX_HAND + s]
        target = cand[i, CAND_CELL] + _step(g, cand[i, CAND_DIR])
        if target != last_target:  # candidates for one cell come in a row: one "before" for them
            last_target, before = target, region_value(tt, board, g, fill, params, target)
        spent, cost = _discards(tt, hands, p, hand, used | (1 << s), steps - tokens, params)
        gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, target, flood)
        put_tile(tt, board, g, t, target)
        after = region_value(tt, board, g, fill, params, target)
        lift_tile(tt, board, g, target)
        cand_v[i] = gain + after - before - cost - 0.001 * steps
    return n


@internal
def _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, used, flood, fill, params, where):
    """End of the plan: the best cell within the tokens left for next turn (into where[0]),
    and the solo keep. Returns (value, and the ends of the entries within the tokens and within
    one step more of the breadth-first search left in flood).

    The search goes one step beyond the tokens, so that every cell a reachable cell sails to is in
    it: each cell's open-side fill chances are summed once (into fill[FILL_SIZE:], by entry; the
    entry of each tile in flood's per-tile marks, which only pier floods use) and a cell's value
    is ship x (its neighbours' sums + its own) - 0.001 per sail (docs/beacon/policies.md)."""
    n = tt.shape[0]
    q0, by_tile = 1 + 2 * n, 1 + n
    tail = _bfs(tt, board, g, ship, tokens + 1, np.int64(-1), flood)
    sums = fill[FILL_SIZE:]
    reached = tail
    for i in range(q0, tail, 3):
        cell = flood[i]
        k = (i - q0) // 3
        flood[by_tile + board[cell, B_TILE]] = k
        sums[k] = _open_fill(tt, board, g, fill, cell)
        if flood[i + 1] > tokens and reached == tail:
            reached = i
    best = -1e18
    for i in range(q0, reached, 3):
        cell = flood[i]
        sail = sail_sides(board, cell)
        v = 0.0
        for d in range(4):
            if (sail >> d) & 1:
                v += sums[flood[by_tile + board[cell + _step(g, d), B_TILE]]]
        v = params[LA_SHIP] * (v + sums[(i - q0) // 3]) - 0.001 * flood[i + 1]
        if v > best:
            best = v
            where[0] = cell
    if _solo_keeps(cfg, st, hands, p, cfg[CFG_HAND], used):
        keep = 0.0
        for s in range(cfg[CFG_HAND]):
            t = hands[p * MAX_HAND + s]
            if t >= 0 and not (used >> s) & 1:
                keep = max(keep, params[LA_KEEP] * BASE_POINTS[tt[t, TT_FEATURE]])
        best += keep
    return best, reached, tail


@internal
def _top(cand_v, n, k, order):
    """Indices of the k best values among the first n into order; returns how many."""
    m = min(n, k)
    for j in range(m):
        best = -1
        for i in range(n):
            taken = False
            for jj in range(j):
                if order[jj] == i:
                    taken = True
            if not taken and (best < 0 or cand_v[i] > cand_v[best]):
                best = i
        order[j] = best
    return m


@internal
def _try_candidate(tt, cfg, g, board, pos, piers, n_piers, hands, p, c, used, tokens, params):
    """Put candidate c's tile on its target for the search (the caller lifts it); returns the tile,
    the target, the hand slots then spent (its own and the cheapest discards paying for the steps
    beyond the tokens) and the number of placed piers."""
    s, steps = c[CAND_SLOT], c[CAND_STEPS]
    t = hands[p * MAX_HAND + s]
    target = c[CAND_CELL] + _step(g, c[CAND_DIR])
    spent, _ = _discards(tt, hands, p, cfg[CFG_HAND], used | (1 << s), steps - tokens, params)
    put_tile(tt, board, g, t, target)
    pos[t] = target
    if tt[t, TT_FEATURE] == FEATURE_PIER:
        piers[n_piers] = t
        n_piers += 1
    return t, target, spent, n_piers


FR_SHIP, FR_TOKENS, FR_USED, FR_PIERS, FR_CHILDREN, FR_NEXT, FR_TARGET, FR_TILE, FR_LINE_LEN = range(9)
FR_LINE = 9  # the node's best line: FR_LINE_LEN steps, the last one ending the turn
FR_SIZE = FR_LINE + STEP * MAX_DEPTH


@inline  # literal constants, as _set_action
def _set_step(line, k, kind, cell, d, slot, t):
    o = k * STEP
    line[o], line[o + 1], line[o + 2], line[o + 3], line[o + 4] = kind, cell, d, slot, t


@internal
def _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand, cand_v,
                order, frames, values, level, ship, tokens, used, n_piers):
    """A search node: its value if the turn ends here, and its best children to try."""
    stop, reached, reached_more = _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, used, flood, fill,
                                              params, order[MAX_DEPTH * MAX_WIDTH:])
    values[level] = stop
    m = 0
    if level + 1 < MAX_DEPTH:
        n = _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
                        fill, params, cand[level], cand_v[level], reached, reached_more)
        base = level * MAX_WIDTH
        m = _top(cand_v[level], n, min(max(int(params[LA_WIDTH]), 1), MAX_WIDTH),
                 order[base:base + MAX_WIDTH])
    f = frames[level]
    f[FR_SHIP], f[FR_TOKENS], f[FR_USED], f[FR_PIERS] = ship, tokens, used, n_piers
    f[FR_CHILDREN], f[FR_NEXT], f[FR_TARGET], f[FR_TILE] = m, 0, -1, -1
    where = order[MAX_DEPTH * MAX_WIDTH]  # ending the turn here is the line until a child beats it
    f[FR_LINE_LEN] = 1
    _set_step(f[FR_LINE:], 0, PLAN_REPOSITION if where != ship else PLAN_END, where, 0, 0, 0)


@internal
def _search(tt, cfg, g, st, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
            fill, params, cand, cand_v, order, frames, values, level):
    """Best value of the rest of the turn from this node (ending it now included): depth first
    over the `width` best placements of every level, each undone on the way back. The node's
    best line is left in frames[level]. A node's value depends only on what lies below it, not
    on the way there, so following the line plays what searching again after each placement
    would."""
    _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand, cand_v,
                order, frames, values, level, ship, tokens, used, n_piers)
    top = level
    while True:
        f = frames[top]
        if f[FR_NEXT] < f[FR_CHILDREN]:
            i = order[top * MAX_WIDTH + f[FR_NEXT]]
            f[FR_NEXT] += 1
            steps = cand[top, i, CAND_STEPS]
            t, target, spent, n_piers_now = _try_candidate(tt, cfg, g, board, pos, piers, f[FR_PIERS], hands,
                                                           p, cand[top, i], f[FR_USED], f[FR_TOKENS], params)
            f[FR_TARGET], f[FR_TILE] = target, t
            _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand,
                        cand_v, order, frames, values, top + 1, target, max(f[FR_TOKENS] - steps, 0),
                        spent, n_piers_now)
            top += 1
        else:
            if top == level:
                return values[level]
            parent = frames[top - 1]
            lift_tile(tt, board, g, parent[FR_TARGET])
            pos[parent[FR_TILE]] = -1
            i = order[(top - 1) * MAX_WIDTH + parent[FR_NEXT] - 1]
            v = cand_v[top - 1, i] + values[top]
            if v > values[top - 1]:  # the child's line, after its placement
                values[top - 1] = v
                c = cand[top - 1, i]
                _set_step(parent[FR_LINE:], 0, PLAN_PLACE, c[CAND_CELL], c[CAND_DIR], c[CAND_SLOT],
                          parent[FR_TILE])
                child = frames[top]
                parent[FR_LINE_LEN] = child[FR_LINE_LEN] + 1
                for k in range(STEP * child[FR_LINE_LEN]):
                    parent[FR_LINE + STEP + k] = child[FR_LINE + k]
            top -= 1


@internal
def root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner):
    """The turn's options from here, each a plan row with its search value: ending the turn
    (after sailing to the best cell for next turn) and the `width` best first placements.
    Returns the number of options; option 0 is the end."""
    plan, fill, cand, cand_v, order, opts, opt_v, frames, values = planner
    p = st[ST_PLAYER]
    ship, tokens, n_piers = ships[p], st[ST_TOKENS], st[ST_N_PIERS]
    unseen_fill(tt, cfg, st, hands, deck, p, fill)
    where = order[MAX_DEPTH * MAX_WIDTH:]
    opt_v[0], reached, reached_more = _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, np.int64(0),
                                                  flood, fill, params, where)
    opts[0, PLAN_KIND] = PLAN_REPOSITION if where[0] != ship else PLAN_END
    opts[0, PLAN_CELL] = where[0]
    n = _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, np.int64(0), flood,
                    fill, params, cand[0], cand_v[0], reached, reached_more)
    order[ORDER_N_ROOT] = n
    m = _top(cand_v[0], n, min(max(int(params[LA_WIDTH]), 1), MAX_WIDTH), order[:MAX_WIDTH])
    for j in range(m):
        i = order[j]
        cell, d, s, steps = cand[0, i, 0], cand[0, i, 1], cand[0, i, 2], cand[0, i, 3]
        t, target, spent, n_piers_now = _try_candidate(tt, cfg, g, board, pos, piers, n_piers, hands, p,
                                                       cand[0, i], np.int64(0), tokens, params)
        v = cand_v[0, i] + _search(tt, cfg, g, st, board, pos, piers, n_piers_now, hands, p,
                                   target, max(tokens - steps, 0), spent, flood, fill, params,
                                   cand, cand_v, order, frames, values, np.int64(1))
        lift_tile(tt, board, g, target)
        pos[t] = -1
        _set_step(opts[j + 1, PLAN_KIND:], 0, PLAN_PLACE, cell, d, s, t)
        line = frames[1]  # the rest of the turn after this placement
        opts[j + 1, PLAN_LINE_LEN] = line[FR_LINE_LEN]
        _copy(line[FR_LINE:FR_LINE + STEP * line[FR_LINE_LEN]], opts[j + 1, PLAN_LINE:])
        opt_v[j + 1] = v
    opts[0, PLAN_LINE_LEN] = 0
    for j in range(m + 1):
        opts[j, PLAN_TURN], opts[j, PLAN_PLAYER], opts[j, PLAN_LINE_POS] = st[ST_TURNS], p, 0
    return m + 1


@internal
def _best_option(opt_v, n):
    best = 0
    for j in range(1, n):
        if opt_v[j] > opt_v[best]:
            best = j
    return best


@internal
def forget_plan(plan):
    """A new game: no plan, no trades weighed."""
    plan[PLAN_TURN] = -1
    plan[PLAN_TRADES_SEEN] = -1


@internal
def _plan_valid(st, hands, plan):
    p = st[ST_PLAYER]
    if plan[PLAN_TURN] != st[ST_TURNS] or plan[PLAN_PLAYER] != p:
        return False
    return plan[PLAN_KIND] != PLAN_PLACE or hands[p * MAX_HAND + plan[PLAN_SLOT]] == plan[PLAN_TILE]


@internal
def _copy(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@inline  # literal constants, as _set_action
def _find(actions, n, kind, a, b, c):
    for i in range(n):
        if actions[i, 0] == kind and actions[i, 1] == a and actions[i, 2] == b and actions[i, 3] == c:
            return i
    return -1


@internal
def _next_step(plan):
    """Move the plan to the next step of its line; none left: the plan is used up."""
    k = plan[PLAN_LINE_POS]
    if k < plan[PLAN_LINE_LEN]:
        _copy(plan[PLAN_LINE + STEP * k:PLAN_LINE + STEP * (k + 1)], plan[PLAN_KIND:PLAN_KIND + STEP])
        plan[PLAN_LINE_POS] = k + 1
    else:
        plan[PLAN_TURN] = -1


@inline  # literal constants, as _set_action
def _adopt(option, plan, line):
    """Make a turn option the plan: its first step, and its line when `line` (else the plan
    ends after the first placement and the policy decides again)."""
    _copy(option[:PLAN_FIELDS], plan)
    plan[PLAN_LINE_LEN] = option[PLAN_LINE_LEN] if line else 0
    plan[PLAN_LINE_POS] = 0
    if line:
        _copy(option[PLAN_LINE:], plan[PLAN_LINE:])


@internal
def follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan):
    """The next action of the stored plan (-1 if it cannot be followed); a placement uses it up."""
    p = st[ST_PLAYER]
    ship = ships[p]
    hand = cfg[CFG_HAND]
    kind = plan[PLAN_KIND]
    if kind == PLAN_PLACE:
        if ship == plan[PLAN_CELL]:
            i = _find(actions, n, ACT_PLACE, plan[PLAN_SLOT], plan[PLAN_DIR], 0)
            _next_step(plan)
            return i
        d = _first_step(tt, board, g, ship, plan[PLAN_CELL], tt.shape[0], flood)
        if d < 0:
            return -1
        if st[ST_TOKENS] > 0:
            return _find(actions, n, ACT_MOVE, d, 0, 0)
        k = _cheapest_slot(tt, hands, p, hand, np.int64(0), plan[PLAN_SLOT])
        return _find(actions, n, ACT_DISCARD_MOVE, k, d, 0)
    if kind == PLAN_REPOSITION and ship != plan[PLAN_CELL] and st[ST_TOKENS] > 0:
        d = _first_step(tt, board, g, ship, plan[PLAN_CELL], st[ST_TOKENS], flood)
        if d >= 0:
            return _find(actions, n, ACT_MOVE, d, 0, 0)
    keep = -1  # end the turn; solo keeps its most valuable tile where it may
    if _solo_keeps(cfg, st, hands, p, hand, np.int64(0)):
        best_v = -1.0
        for s in range(hand):
            t = hands[s]
            if t >= 0 and BASE_POINTS[tt[t, TT_FEATURE]] > best_v:
                keep, best_v = s, BASE_POINTS[tt[t, TT_FEATURE]]
    return _find(actions, n, ACT_END, keep, 0, 0)


@internal
def _best_local(tt, cfg, g, board, pos, piers, n_piers, t, ship, flood, fill, params):
    """Value of tile t's best placement right next to ship (no moves); 0 if none fits."""
    best = 0.0
    open_ = open_sides(board, ship)
    for d in range(4):
        target = ship + _step(g, d)
        if (open_ >> d) & 1 and _matches(tt[t, TT_LAND_MASK], board[target, B_SIDES]):
            before = region_value(tt, board, g, fill, params, target)
            gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, target, flood)
            put_tile(tt, board, g, t, target)
            after = region_value(tt, board, g, fill, params, target)
            lift_tile(tt, board, g, target)
            best = max(best, gain + after - before)
    return best


@internal
def _trade_choice(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                  params, planner):
    """A trade that raises the team's value by more than params[LA_TRADE]: my plan value with
    the partner's tile, minus what the partner loses next to its ship. -1 for none; then the
    plan is the best one without a trade (its search is not repeated)."""
    plan, cand, cand_v, opts, opt_v = planner.plan, planner.cand, planner.cand_v, planner.opts, planner.opt_v
    p = st[ST_PLAYER]
    b0 = _best_option(opt_v, root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood,
                                          params, planner))
    v0 = opt_v[b0]
    _adopt(opts[b0], plan, True)
    # offer only the tile whose best placement this turn is worth least (none: worth nothing)
    give, give_v = -1, 1e18
    for s in range(cfg[CFG_HAND]):
        if hands[p * MAX_HAND + s] >= 0:
            v = -1e9
            for i in range(planner.order[ORDER_N_ROOT]):
                if cand[0, i, CAND_SLOT] == s:
                    v = max(v, cand_v[0, i])
            if v < give_v:
                give, give_v = s, v
    best, best_i = params[LA_TRADE], -1
    for i in range(n):
        if actions[i, 0] != ACT_TRADE or actions[i, 1] != give:
            continue
        a, o, c = actions[i, 1], actions[i, 2], actions[i, 3]
        mine, theirs = p * MAX_HAND + a, o * MAX_HAND + c
        t, u = hands[mine], hands[theirs]
        loss = (_best_local(tt, cfg, g, board, pos, piers, st[ST_N_PIERS], u, ships[o], flood,
                            planner.fill, params)
                - _best_local(tt, cfg, g, board, pos, piers, st[ST_N_PIERS], t, ships[o], flood,
                              planner.fill, params))
        hands[mine], hands[theirs] = u, t
        k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
        v = opt_v[_best_option(opt_v, k)]
        hands[mine], hands[theirs] = t, u
        if v - v0 - loss > best:
            best, best_i = v - v0 - loss, i
    if best_i >= 0:
        plan[PLAN_TURN] = -1  # the hand changes: plan again after the trade
    return best_i


@internal
def _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n, params,
                 planner):
    """Weigh the trades once per turn, before the first plan (2+ players); -1 for no trade."""
    plan = planner.plan
    if cfg[CFG_PLAYERS] == 1 or st[ST_TRADED] == 1 or plan[PLAN_TRADES_SEEN] == st[ST_TURNS]:
        return -1
    plan[PLAN_TRADES_SEEN] = st[ST_TURNS]
    return _trade_choice(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)


@internal
def _lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n, params,
               planner):
    plan, opts, opt_v = planner.plan, planner.opts, planner.opt_v
    if not _plan_valid(st, hands, plan):
        i = _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)
        if i >= 0:
            return i
        if not _plan_valid(st, hands, plan):  # (weighing the trades leaves the no-trade plan)
            k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
            _adopt(opts[_best_option(opt_v, k)], plan, True)
    return follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan)
