"""The race's yardstick, `path_score`: a seat's shortest way to the sea over the rivers it sees (face-down
tiles assumed open, at a cost), and the values the bots minimise with it.

Two searches give the same number: a level-by-level search on 64-bit masks of the grid (one bit a cell,
every cell of a level expanded at once; the grids of up to 62 cells with their off-map places), and the
Dijkstra search it replaced, kept for larger grids. analyzer/regatta/reference_bots.py is their slow
twin; tests/regatta/test_bots.py checks all three on random positions."""

import numpy as np
from numba import njit

from kernels.regatta.engine import (
    ADV1,
    ADV2,
    C_BOATS,
    C_COLS,
    C_ROWS,
    GOAL,
    NEGATE,
    ROTATE,
    apply_card,
    is_open,
    neighbour,
)

FAR = 1_000_000
STUCK = 1000  # no way to the sea: above every path
UNKNOWN = 3  # the cost of a face-down tile on a path: a reveal, a likely turn, a move
WIN = -1e9  # the value of a move onto the sea tile
MASK_BITS = 62  # grids whose cells and off-map places fit in an int64 (bit 63 never set: no sign trouble)


@njit(cache=True)
def _link(st, setup, x, n, side):
    """The cost of moving from x to its neighbour n on `side` as the seat sees it: 1 along meeting rivers,
    UNKNOWN into a face-down tile (assumed open), 0 for no way."""
    ox = 15 if st.cell_up[x] == 0 else is_open(st, setup, x)
    if not (ox >> side) & 1:
        return 0
    if st.cell_up[n] == 0:
        return UNKNOWN
    return 1 if (is_open(st, setup, n) >> ((side + 2) % 4)) & 1 else 0


@njit(cache=True)
def sea_column(st, setup):
    """The column of the face-up goal tile that opens to the sea (the last one), or -1 while it is unseen."""
    sea = -1
    for x in range(setup.cfg[C_COLS]):
        t = st.cell_tile[x]
        if st.cell_up[x] == 1 and setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            sea = x
    return sea


@njit(cache=True)
def path_score_dijkstra(st, setup, pos):
    """path_score by a Dijkstra search that rescans every cell (any grid size)."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    sea = sea_column(st, setup)
    st.dist[:] = FAR
    st.queue[:] = 0  # settled
    st.dist[pos] = 0
    best = FAR
    stuck = FAR
    while True:
        x, dx = -1, FAR
        for y in range(cells + cols):
            if st.queue[y] == 0 and st.dist[y] < dx:
                x, dx = y, st.dist[y]
        if x < 0:
            break
        st.queue[x] = 1
        if x >= cells:
            r, c = rows, x - cells
        else:
            r, c = x // cols, x % cols
        if (sea < 0 and r == 0 and st.cell_up[x] == 0) or x == sea:
            if dx < best:
                best = dx
        h = r if sea < 0 else r + abs(c - sea)
        if STUCK + dx + UNKNOWN * h < stuck:
            stuck = STUCK + dx + UNKNOWN * h
        if x >= cells:
            front = cells - cols + c
            w = UNKNOWN if st.cell_up[front] == 0 else (1 if is_open(st, setup, front) & 4 else 0)
            if w > 0 and dx + w < st.dist[front]:
                st.dist[front] = dx + w
            continue
        if setup.tile_kind[st.cell_tile[x]] == GOAL and st.cell_up[x] == 0 and sea < 0:
            continue  # a face-down goal tile might be the sea: the search stops there
        for side in range(4):
            n = neighbour(setup, x, side)
            if n >= 0:
                w = _link(st, setup, x, n, side)
                if w > 0 and dx + w < st.dist[n]:
                    st.dist[n] = dx + w
    return best if best < FAR else stuck


@njit(cache=True)
def _lowest_h(bits, cells, cols, sea):
    """The least distance-to-go estimate (rows to the goal row, plus columns to the sea) over the set cells."""
    low = FAR
    x = 0
    while bits:
        if bits & 1:
            if x >= cells:
                r, c = cells // cols, x - cells
            else:
                r, c = x // cols, x % cols
            h = r if sea < 0 else r + abs(c - sea)
            if h < low:
                low = h
        bits >>= 1
        x += 1
    return low


@njit(cache=True)
def path_score(st, setup, pos):
    """The seat's shortest way to the sea: 1 per move along visible meeting rivers and UNKNOWN per face-down
    tile (assumed open: the seat cannot see it), to the sea tile (to a face-down goal tile while the sea tile
    is unseen). With no way at all: STUCK plus, over the cells it can reach, the least of its cost plus
    UNKNOWN per grid step from there to the sea. 0 on the sea tile; never reads a face-down tile's face.

    The search goes level by level (distance 0, 1, 2, ...) on bit masks: three masks hold the cells found
    at the next three distances (a move costs 1 or UNKNOWN = 3), and every cell of a level moves at
    once, one shift per side."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    if cells + cols > MASK_BITS or pos < 0:
        return path_score_dijkstra(st, setup, pos)
    sea = sea_column(st, setup)
    one = np.int64(1)
    down = np.int64(0)  # face-down cells
    stop = np.int64(0)  # cells the search never leaves: face-down goal tiles while the sea is unseen
    go_n, go_e, go_s, go_w = np.int64(0), np.int64(0), np.int64(0), np.int64(0)  # can leave by that side
    in_n, in_e, in_s, in_w = np.int64(0), np.int64(0), np.int64(0), np.int64(0)  # face up, opens that side
    for x in range(cells):
        bit = one << x
        if st.cell_up[x] == 0:
            down |= bit
            if sea < 0 and setup.tile_kind[st.cell_tile[x]] == GOAL:
                stop |= bit
            else:
                go_n |= bit
                go_e |= bit
                go_s |= bit
                go_w |= bit
        else:
            o = is_open(st, setup, x)
            if o & 1:
                go_n |= bit
                in_n |= bit
            if o & 2:
                go_e |= bit
                in_e |= bit
            if o & 4:
                go_s |= bit
                in_s |= bit
            if o & 8:
                go_w |= bit
                in_w |= bit
    first_row = (one << cols) - 1
    last_row = first_row << (cells - cols)
    first_col = np.int64(0)
    for r in range(rows):
        first_col |= one << (r * cols)
    last_col = first_col << (cols - 1)
    go_n &= ~first_row
    go_s &= ~last_row
    go_e &= ~last_col
    go_w &= ~first_col
    target = (first_row & down) if sea < 0 else (one << sea)
    seen = np.int64(0)
    stuck = FAR
    now, next1, next2, next3 = np.int64(0), np.int64(0), np.int64(0), np.int64(0)  # at distance d, d+1, ...
    if pos >= cells:  # off the map: the only way in is the start tile in front
        seen = one << pos
        h = rows if sea < 0 else rows + abs(pos - cells - sea)
        stuck = STUCK + UNKNOWN * h
        front = one << (cells - cols + pos - cells)
        if front & down:
            next3 = front
        elif front & in_s:
            next1 = front
    else:
        now = one << pos
    d = 0
    while now | next1 | next2 | next3:
        now &= ~seen
        if now:
            if now & target:
                return d
            seen |= now
            h = _lowest_h(now, cells, cols, sea)
            if STUCK + d + UNKNOWN * h < stuck:
                stuck = STUCK + d + UNKNOWN * h
            now &= ~stop
            step_n = (now & go_n) >> cols
            step_s = (now & go_s) << cols
            step_e = (now & go_e) << 1
            step_w = (now & go_w) >> 1
            next1 |= (step_n & in_s) | (step_s & in_n) | (step_e & in_w) | (step_w & in_e)
            next3 |= (step_n | step_s | step_e | step_w) & down  # UNKNOWN = 3
        now, next1, next2, next3 = next1, next2, next3, np.int64(0)
        d += 1
    return stuck


@njit(cache=True)
def rival_path(st, setup, me):
    """The shortest path_score of the other boats (FAR with none)."""
    rival = FAR
    for b in range(setup.cfg[C_BOATS]):
        if b != me:
            v = path_score(st, setup, st.boat[b])
            if v < rival:
                rival = v
    return rival


@njit(cache=True)
def value(st, setup, me, spite):
    """What a seat minimises: its boat's path_score less `spite` x the nearest rival boat's."""
    own = path_score(st, setup, st.boat[me])
    if spite == 0.0:
        return float(own)
    return own - spite * min(rival_path(st, setup, me), STUCK)


@njit(cache=True)
def value_after(st, setup, me, spite, kind, b, c, mover):
    """value once the card action (kind, b, c) of `mover`'s boat happened (undone before returning)."""
    if kind == ADV1 or kind == ADV2:
        t = st.cell_tile[b]
        if setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            return WIN if mover == me else -WIN  # that move wins the race
        keep = st.boat[mover]
        st.boat[mover] = b
        v = value(st, setup, me, spite)
        st.boat[mover] = keep
        return v
    apply_card(st, setup, kind, b, c)
    v = value(st, setup, me, spite)
    apply_card(st, setup, kind, b, c if kind != ROTATE else 4 - c)
    return v


@njit(cache=True)
def keep_rank(setup, k):
    """0 a card that cannot move the boat, 1 a move card, 2 a negate: the order bots trade them in."""
    if setup.card_act[k, 0] == NEGATE:
        return 2
    for slot in range(2):
        if setup.card_act[k, slot] == ADV1 or setup.card_act[k, slot] == ADV2:
            return 1
    return 0
