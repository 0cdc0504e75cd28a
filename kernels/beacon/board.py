"""The Beacon Patrol board: placing and lifting tiles, sailing, and scoring (numba).

A cell's side field (board[cell, B_SIDES]) says which neighbours are placed and what they show
towards it, and once a tile lies there its own land edges too (OWN_LAND), so fitting, sailing and
placing are mask tests on one field. Scoring follows the rulebook's "explored" tiles: a tile with
all four neighbours placed scores its feature's points (windmills: + open-sea neighbours; piers: +
the buildings on the land masses they are attached to, followed across tiles).
"""

import numpy as np

from kernels.beacon.codes import (
    B_SIDES,
    B_TILE,
    CFG_PTS_BUOY,
    CFG_PTS_HQ,
    CFG_PTS_LIGHTHOUSE,
    CFG_PTS_OTHER,
    CFG_PTS_PIER,
    CFG_PTS_WINDMILL,
    CFG_RANK0,
    COL_EXPLORED,
    COL_EXPLORED_BUOY,
    COL_EXPLORED_LIGHTHOUSE,
    COL_EXPLORED_OTHER,
    COL_EXPLORED_PIER,
    COL_EXPLORED_WINDMILL,
    COL_PIER_POINTS,
    COL_SCORE,
    COL_WINDMILL_POINTS,
    EAST,
    FEATURE_BUOY,
    FEATURE_HQ,
    FEATURE_LIGHTHOUSE,
    FEATURE_PIER,
    FEATURE_WINDMILL,
    MAX_MASSES,
    NORTH,
    OWN_LAND,
    POPCOUNT4,
    SOUTH,
    ST_N_PIERS,
    ST_N_PLACED,
    TT_BUILDINGS,
    TT_FEATURE,
    TT_LAND,
    TT_LAND_MASK,
    TT_MASS,
    TT_OPEN_SEA,
    TT_PIER_MASK,
    WEST,
)
from kernels.jit import internal, kernel


@internal  # (Python calls its py_func)
def flood_size(n_tiles):
    return 1 + 2 * n_tiles + 2 * n_tiles * MAX_MASSES


@internal
def _step(g, d):
    """Cell offset of direction d (N, E, S, W) on a row-major g x g board."""
    return (d == EAST) - (d == WEST) + g * ((d == SOUTH) - (d == NORTH))


@internal
def _matches(land_mask, sides):
    """A tile with these land edges agrees with every placed neighbour described by sides."""
    return ((land_mask ^ (sides >> 4)) & sides & 15) == 0


@internal
def fits(tt, board, g, t, cell):
    """Cell empty and every placed neighbour meets tile t land-to-land, water-to-water."""
    return board[cell, B_TILE] < 0 and _matches(tt[t, TT_LAND_MASK], board[cell, B_SIDES])


@internal
def open_sides(board, cell):
    """Bit d: the tile on cell has water towards an empty cell in direction d."""
    sides = board[cell, B_SIDES]
    return ~((sides >> OWN_LAND) | sides) & 15


@internal
def sail_sides(board, cell):
    """Bit d: a ship on cell may sail to the placed tile in direction d (water edge)."""
    sides = board[cell, B_SIDES]
    return ~(sides >> OWN_LAND) & sides & 15


@internal
def can_place_from(tt, board, g, ship, t, d):
    """Tile t may go next to the ship in direction d: water edge from the ship, and it fits."""
    return (board[ship, B_SIDES] >> (OWN_LAND + d)) & 1 == 0 and fits(tt, board, g, t, ship + _step(g, d))


@internal
def can_sail(tt, board, g, ship, d):
    """The ship may cross into the placed neighbour in direction d over a water edge."""
    return (sail_sides(board, ship) >> d) & 1 == 1


@internal
def is_explored(board, g, cell):
    return board[cell, B_TILE] >= 0 and board[cell, B_SIDES] & 15 == 15


@internal
def placed_neighbours(board, g, cell):
    return POPCOUNT4[board[cell, B_SIDES] & 15]


@internal
def put_tile(tt, board, g, t, cell):
    """Tile t onto the board, telling each neighbour cell that this side is now placed."""
    board[cell, B_TILE] = t
    board[cell, B_SIDES] |= tt[t, TT_LAND_MASK] << OWN_LAND
    for d in range(4):
        back = (d + 2) % 4
        board[cell + _step(g, d), B_SIDES] |= (1 << back) | (tt[t, TT_LAND + d] << (4 + back))


@internal
def lift_tile(tt, board, g, cell):
    """Undo put_tile."""
    board[cell, B_TILE] = -1
    board[cell, B_SIDES] &= 255
    for d in range(4):
        back = (d + 2) % 4
        board[cell + _step(g, d), B_SIDES] &= ~((1 << back) | (1 << (4 + back)))


@internal
def pier_buildings(tt, board, pos, g, t, flood):
    """Buildings on every land mass pier tile t is attached to, followed across tiles."""
    n = tt.shape[0]
    flood[0] += 1
    stamp = flood[0]
    vs, vm, sp = 1, 1 + n, 1 + 2 * n  # offsets: visit stamp, visited masses, stack
    top = sp
    flood[vs + t] = stamp
    flood[vm + t] = tt[t, TT_PIER_MASK]
    for m in range(MAX_MASSES):
        if (tt[t, TT_PIER_MASK] >> m) & 1:
            flood[top] = t
            flood[top + 1] = m
            top += 2
    total = 0
    while top > sp:
        top -= 2
        u = flood[top]
        m = flood[top + 1]
        total += tt[u, TT_BUILDINGS + m]
        cell = pos[u]
        for d in range(4):
            if tt[u, TT_MASS + d] != m:
                continue
            v = board[cell + _step(g, d), B_TILE]
            if v < 0:
                continue
            m2 = tt[v, TT_MASS + (d + 2) % 4]
            if flood[vs + v] != stamp:
                flood[vs + v] = stamp
                flood[vm + v] = 0
            if (flood[vm + v] >> m2) & 1:
                continue
            flood[vm + v] |= np.int64(1) << m2
            flood[top] = v
            flood[top + 1] = m2
            top += 2
    return total


@internal
def tile_points(tt, cfg, board, pos, g, cell, flood):
    """Points of the explored tile on `cell` (the caller checks it is explored)."""
    t = np.int64(board[cell, B_TILE])
    f = tt[t, TT_FEATURE]
    if f == FEATURE_LIGHTHOUSE:
        return cfg[CFG_PTS_LIGHTHOUSE]
    if f == FEATURE_HQ:
        return cfg[CFG_PTS_HQ]
    if f == FEATURE_BUOY:
        return cfg[CFG_PTS_BUOY]
    if f == FEATURE_WINDMILL:
        pts = cfg[CFG_PTS_WINDMILL]
        for d in range(4):
            pts += tt[board[cell + _step(g, d), B_TILE], TT_OPEN_SEA]
        return pts
    if f == FEATURE_PIER:
        return cfg[CFG_PTS_PIER] + pier_buildings(tt, board, pos, g, t, flood)
    return cfg[CFG_PTS_OTHER]


@internal
def score_board(tt, cfg, board, pos, placed, n_placed, g, flood, out):
    """Final score and breakdown into out[COL_SCORE..COL_PIER_POINTS]; returns the score."""
    for k in range(COL_PIER_POINTS + 1):
        out[k] = 0
    for i in range(n_placed):
        cell = pos[placed[i]]
        if not is_explored(board, g, cell):
            continue
        pts = tile_points(tt, cfg, board, pos, g, cell, flood)
        f = tt[board[cell, B_TILE], TT_FEATURE]
        out[COL_SCORE] += pts
        out[COL_EXPLORED] += 1
        if f == FEATURE_LIGHTHOUSE or f == FEATURE_HQ:
            out[COL_EXPLORED_LIGHTHOUSE] += 1
        elif f == FEATURE_BUOY:
            out[COL_EXPLORED_BUOY] += 1
        elif f == FEATURE_WINDMILL:
            out[COL_EXPLORED_WINDMILL] += 1
            out[COL_WINDMILL_POINTS] += pts
        elif f == FEATURE_PIER:
            out[COL_EXPLORED_PIER] += 1
            out[COL_PIER_POINTS] += pts
        else:
            out[COL_EXPLORED_OTHER] += 1
    return out[COL_SCORE]


@internal
def rank_of(cfg, score):
    r = 0
    for k in range(1, 5):
        if score >= cfg[CFG_RANK0 + k]:
            r = k
    return r


@internal
def explored_pier_points(tt, cfg, board, pos, piers, n_piers, g, flood):
    total = 0
    for i in range(n_piers):
        if is_explored(board, g, pos[piers[i]]):
            total += cfg[CFG_PTS_PIER] + pier_buildings(tt, board, pos, g, piers[i], flood)
    return total


@internal
def _explores(board, g, cell):
    """A tile placed on the empty cell would explore it or a placed neighbour: it closes the
    last open side of one of them."""
    sides = board[cell, B_SIDES] & 15
    closes = sides == 15
    for d in range(4):
        back = 1 << ((d + 2) % 4)  # the placed neighbour's side towards the cell
        closes |= (sides >> d) & 1 == 1 and (board[cell + _step(g, d), B_SIDES] & 15) | back == 15
    return closes


@internal
def placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, cell, flood):
    """Exact change of the score if tile t is placed on the empty `cell`.

    Only the cell and its four neighbours can become explored (none of them was
    explored while `cell` was empty). Piers explored before gain buildings only when t's
    land joins land already placed; only then are the explored piers re-counted before
    and after (a flood over land masses each), otherwise the new points are those of the
    tiles this placement explores.
    """
    recount = n_piers > 0 and board[cell, B_SIDES] >> 4 != 0
    if not recount and not _explores(board, g, cell):
        return 0  # nine in ten in a solo greedy game, told by the side bits, the board untouched
    before = explored_pier_points(tt, cfg, board, pos, piers, n_piers, g, flood) if recount else 0
    put_tile(tt, board, g, t, cell)
    pos[t] = cell
    gain = 0
    for k in range(5):
        y = cell if k == 4 else cell + _step(g, k)
        if is_explored(board, g, y) and not (recount and tt[board[y, B_TILE], TT_FEATURE] == FEATURE_PIER):
            gain += tile_points(tt, cfg, board, pos, g, y, flood)
    if recount:
        is_pier = tt[t, TT_FEATURE] == FEATURE_PIER
        if is_pier:
            piers[n_piers] = t
        gain += explored_pier_points(tt, cfg, board, pos, piers, n_piers + is_pier, g, flood) - before
    lift_tile(tt, board, g, cell)
    pos[t] = -1
    return gain


@internal
def _place(tt, g, st, board, pos, placed, piers, t, cell):
    put_tile(tt, board, g, t, cell)
    pos[t] = cell
    placed[st[ST_N_PLACED]] = t
    st[ST_N_PLACED] += 1
    if tt[t, TT_FEATURE] == FEATURE_PIER:
        piers[st[ST_N_PIERS]] = t
        st[ST_N_PIERS] += 1


@internal
def _bfs(tt, board, g, ship, max_steps, target, flood):
    """Breadth-first over sail edges from ship, at most max_steps; flood gets (cell, steps,
    first direction) triples from offset 1 + 2n; returns the end offset of the queue. Stops
    once the cell target (-1: none) is queued, as the last triple."""
    n_tiles = tt.shape[0]
    flood[0] += 1
    stamp = flood[0]
    vs, q = 1, 1 + 2 * n_tiles
    tail = q
    flood[vs + board[ship, B_TILE]] = stamp
    flood[tail], flood[tail + 1], flood[tail + 2] = ship, 0, -1
    tail += 3
    head = q
    while head < tail:
        cell, steps, first = flood[head], flood[head + 1], flood[head + 2]
        head += 3
        if steps < max_steps:
            sail = sail_sides(board, cell)
            for d in range(4):
                if (sail >> d) & 1:
                    nxt = cell + _step(g, d)
                    if flood[vs + board[nxt, B_TILE]] != stamp:
                        flood[vs + board[nxt, B_TILE]] = stamp
                        flood[tail], flood[tail + 1] = nxt, steps + 1
                        flood[tail + 2] = d if steps == 0 else first
                        tail += 3
                        if nxt == target:
                            return tail
    return tail


@internal
def _first_step(tt, board, g, ship, target, max_steps, flood):
    """Direction of the first sail on a shortest way from ship to target; -1 if none."""
    tail = _bfs(tt, board, g, ship, max_steps, target, flood)
    return flood[tail - 1] if flood[tail - 3] == target else -1


@kernel  # Python calls it too
def grid_size(n_tiles):
    """Side of the square board: a chain of all tiles plus a free ring fits from the centre."""
    return 2 * n_tiles + 3
