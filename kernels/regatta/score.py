"""The race's yardstick, `path_score`: a seat's shortest way to the sea over the rivers it sees (face-down
tiles assumed open, at a cost), and the values the bots minimise with it.

Two searches give the same number: a level-by-level search on 64-bit masks of the grid (one bit a cell,
every cell of a level expanded at once; the grids of up to 62 cells with their off-map places), and the
Dijkstra search it replaced, kept for larger grids. analyzer/regatta/reference_bots.py is their slow
twin; tests/regatta/test_bots.py checks all three on random positions."""

import numpy as np

from kernels.jit import inline, internal, kernel
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
    turned,
)

FAR = 1_000_000
STUCK = 1000  # no way to the sea: above every path
UNKNOWN = 3  # the cost of a face-down tile on a path: a reveal, a likely turn, a move
WIN = -1e9  # the value of a move onto the sea tile
MASK_BITS = 62  # grids whose cells and off-map places fit in an int64 (bit 63 never set: no sign trouble)


@internal
def _link(st, setup, x, n, side):
    """The cost of moving from x to its neighbour n on `side` as the seat sees it: 1 along meeting rivers,
    UNKNOWN into a face-down tile (assumed open), 0 for no way."""
    ox = 15 if st.cell_up[x] == 0 else is_open(st, setup, x)
    if not (ox >> side) & 1:
        return 0
    if st.cell_up[n] == 0:
        return UNKNOWN
    return 1 if (is_open(st, setup, n) >> ((side + 2) % 4)) & 1 else 0


@kernel
def sea_column(st, setup):
    """The column of the face-up goal tile that opens to the sea (the last one), or -1 while it is unseen."""
    sea = -1
    for x in range(setup.cfg[C_COLS]):
        t = st.cell_tile[x]
        if st.cell_up[x] == 1 and setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            sea = x
    return sea


@kernel
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


@internal
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


@internal
def fits_masks(setup):
    """Whether the grid's cells and off-map places fit the bit-mask search (else the Dijkstra search)."""
    return setup.cfg[C_ROWS] * setup.cfg[C_COLS] + setup.cfg[C_COLS] <= MASK_BITS


@kernel
def board(st, setup, sea):
    """The board as the seat's searches see it, one bit a cell: (down, stop, go_n, go_e, go_s, go_w, in_n,
    in_e, in_s, in_w) = the face-down cells, the cells a search never leaves (face-down goal tiles while the
    sea tile is unseen), the cells it can leave by each side (within the grid) and the face-up cells opening
    to each side. `sea`: sea_column(st, setup). Built once, it serves every search on this board and, with
    with_open, on the board after a swap or a turn."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    one = np.int64(1)
    down = np.int64(0)  # face-down cells
    if not fits_masks(setup):  # no mask holds the grid: every search is the Dijkstra one, this board unread
        return down, down, down, down, down, down, down, down, down, down
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
    return (down, stop, go_n & ~first_row, go_e & ~last_col, go_s & ~last_row, go_w & ~first_col,
            in_n, in_e, in_s, in_w)


@internal
def with_open(bd, setup, x, o):
    """The board bd with the face-up cell x opening to the sides in o (after a swap or a turn there)."""
    down, stop, go_n, go_e, go_s, go_w, in_n, in_e, in_s, in_w = bd
    cols = setup.cfg[C_COLS]
    r, c = x // cols, x % cols
    bit = np.int64(1) << x
    off = ~bit
    none = np.int64(0)
    n_ = bit if o & 1 else none
    e_ = bit if o & 2 else none
    s_ = bit if o & 4 else none
    w_ = bit if o & 8 else none
    return (down, stop,
            (go_n & off) | (n_ if r > 0 else none),
            (go_e & off) | (e_ if c < cols - 1 else none),
            (go_s & off) | (s_ if r < setup.cfg[C_ROWS] - 1 else none),
            (go_w & off) | (w_ if c > 0 else none),
            (in_n & off) | n_, (in_e & off) | e_, (in_s & off) | s_, (in_w & off) | w_)


@internal
def _forward(cells, bd, cols):
    """(the face-up cells one step from `cells` at cost 1, the face-down ones at cost UNKNOWN) on bd."""
    down, stop, go_n, go_e, go_s, go_w, in_n, in_e, in_s, in_w = bd
    cells &= ~stop
    step_n = (cells & go_n) >> cols
    step_s = (cells & go_s) << cols
    step_e = (cells & go_e) << 1
    step_w = (cells & go_w) >> 1
    return (step_n & in_s) | (step_s & in_n) | (step_e & in_w) | (step_w & in_e), \
        (step_n | step_s | step_e | step_w) & down


@internal
def _backward(cells, bd, cols):
    """(the cells that step into the face-up `cells` at cost 1, those that step into the face-down ones at
    cost UNKNOWN) on bd: _forward backwards."""
    down, stop, go_n, go_e, go_s, go_w, in_n, in_e, in_s, in_w = bd
    up = cells & ~down
    dn = cells & down
    return (((up & in_s) << cols) & go_n) | (((up & in_n) >> cols) & go_s) | (((up & in_w) >> 1) & go_e) | \
        (((up & in_e) << 1) & go_w), \
        ((dn << cols) & go_n) | ((dn >> cols) & go_s) | ((dn >> 1) & go_e) | ((dn << 1) & go_w)


@internal
def _start(bd, setup, pos):
    """(seen, at distance 0, 1, 3) as a walk from pos begins: off the map, the only way in is the start tile
    in front."""
    down, in_s = bd[0], bd[8]
    cols = setup.cfg[C_COLS]
    cells = setup.cfg[C_ROWS] * cols
    one = np.int64(1)
    none = np.int64(0)
    if pos < cells:
        return none, one << pos, none, none
    front = one << (cells - cols + pos - cells)
    if front & down:
        return one << pos, none, none, front
    return one << pos, none, front & in_s, none


@internal
def _walk(bd, setup, sea, pos, stuck_too):
    """The level-by-level search of path_score on the board bd from pos: the cost to the target, or with
    none reached the STUCK value when stuck_too (else -1: most searches reach the target, so the costlier
    bookkeeping of the STUCK value is left to a second walk)."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    one = np.int64(1)
    target = (((one << cols) - 1) & bd[0]) if sea < 0 else (one << sea)
    seen, now, next1, next3 = _start(bd, setup, pos)
    next2 = np.int64(0)  # now, next1, next2, next3: the cells found at distance d, d + 1, ...
    stuck = FAR
    if stuck_too and pos >= cells:
        stuck = STUCK + UNKNOWN * (rows if sea < 0 else rows + abs(pos - cells - sea))
    d = 0
    while now | next1 | next2 | next3:
        now &= ~seen
        if now:
            if now & target:
                return d
            seen |= now
            if stuck_too:
                h = _lowest_h(now, cells, cols, sea)
                if STUCK + d + UNKNOWN * h < stuck:
                    stuck = STUCK + d + UNKNOWN * h
            one_on, three_on = _forward(now, bd, cols)
            next1 |= one_on
            next3 |= three_on
        now, next1, next2, next3 = next1, next2, next3, np.int64(0)
        d += 1
    return stuck if stuck_too else -1


@internal
def search(bd, setup, sea, pos):
    """path_score from pos on the board bd (board(st, setup, sea), perhaps with_open since)."""
    d = _walk(bd, setup, sea, pos, False)
    return d if d >= 0 else _walk(bd, setup, sea, pos, True)


@kernel
def path_score(st, setup, pos):
    """The seat's shortest way to the sea: 1 per move along visible meeting rivers and UNKNOWN per face-down
    tile (assumed open: the seat cannot see it), to the sea tile (to a face-down goal tile while the sea tile
    is unseen). With no way at all: STUCK plus, over the cells it can reach, the least of its cost plus
    UNKNOWN per grid step from there to the sea. 0 on the sea tile; never reads a face-down tile's face.

    The search goes level by level (distance 0, 1, 2, ...) on bit masks (board): three masks hold the cells
    found at the next three distances (a move costs 1 or UNKNOWN = 3), and every cell of a level moves at
    once, one shift per side."""
    if not fits_masks(setup) or pos < 0:
        return path_score_dijkstra(st, setup, pos)
    sea = sea_column(st, setup)
    return search(board(st, setup, sea), setup, sea, pos)


@inline
def _swapped(pos, b, c):
    """Where a boat at pos is once the tiles of cells b and c swap (it rides along)."""
    return c if pos == b else (b if pos == c else pos)


@internal
def _rivals_on(bd, setup, sea, st, me, b, c):
    """The least search of the other boats on the board bd, each where it is once the tiles of b and c swap
    (b = c = -1: no swap); FAR with none."""
    rival = FAR
    for o in range(setup.cfg[C_BOATS]):
        if o != me:
            v = search(bd, setup, sea, _swapped(st.boat[o], b, c))
            if v < rival:
                rival = v
    return rival


@internal
def _masks_serve(st, setup):
    """Whether the bit-mask board serves this position: the grid fits and every boat is placed."""
    if not fits_masks(setup):
        return False
    for b in range(setup.cfg[C_BOATS]):
        if st.boat[b] < 0:
            return False
    return True


@internal
def rival_path(st, setup, me):
    """The shortest path_score of the other boats (FAR with none)."""
    rival = FAR
    if _masks_serve(st, setup):
        sea = sea_column(st, setup)
        return _rivals_on(board(st, setup, sea), setup, sea, st, me, -1, -1)
    for b in range(setup.cfg[C_BOATS]):
        if b != me:
            v = path_score(st, setup, st.boat[b])
            if v < rival:
                rival = v
    return rival


@internal
def value_on(bd, setup, sea, st, me, spite):
    """value on the board bd = board(st, setup, sea) (every boat placed)."""
    own = search(bd, setup, sea, st.boat[me])
    if spite == 0.0:
        return float(own)
    return own - spite * min(_rivals_on(bd, setup, sea, st, me, -1, -1), STUCK)


@internal
def value(st, setup, me, spite):
    """What a seat minimises: its boat's path_score less `spite` x the nearest rival boat's."""
    if _masks_serve(st, setup):
        sea = sea_column(st, setup)
        return value_on(board(st, setup, sea), setup, sea, st, me, spite)
    own = path_score(st, setup, st.boat[me])
    if spite == 0.0:
        return float(own)
    return own - spite * min(rival_path(st, setup, me), STUCK)


@internal
def standing(st, setup, me, spite):
    """(board, sea column, value now, the rivals' least path now: FAR without spite), what value_with reads."""
    sea = sea_column(st, setup)
    bd = board(st, setup, sea)
    if not _masks_serve(st, setup):
        return bd, sea, value(st, setup, me, spite), rival_path(st, setup, me) if spite != 0.0 else FAR
    own = search(bd, setup, sea, st.boat[me])
    if spite == 0.0:
        return bd, sea, float(own), FAR
    rival = _rivals_on(bd, setup, sea, st, me, -1, -1)
    return bd, sea, own - spite * min(rival, STUCK), rival


@internal
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


@internal
def _sea_after_swap(st, setup, sea, b, c):
    """sea_column once the tiles of cells b and c (both face up) swap."""
    cols = setup.cfg[C_COLS]
    if b >= cols and c >= cols:
        return sea
    after = -1
    for x in range(cols):
        t = st.cell_tile[_swapped(x, b, c)]
        if st.cell_up[x] == 1 and setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            after = x
    return after


@internal
def _board_after(bd, setup, sea, st, kind, b, c):
    """(board, sea column) once the face-up tile at b turns (kind ROTATE, c quarter turns) or the face-up
    tiles of b and c swap, each cell taking the other's tile as it lies."""
    if kind == ROTATE:
        return with_open(bd, setup, b, turned(setup.tile_open[st.cell_tile[b]], (st.cell_rot[b] + c) % 4)), sea
    after = with_open(with_open(bd, setup, b, is_open(st, setup, c)), setup, c, is_open(st, setup, b))
    return after, _sea_after_swap(st, setup, sea, b, c)


@kernel
def value_with(bd, setup, sea, st, me, spite, rival, kind, b, c):
    """value_after(st, setup, me, spite, kind, b, c, me), the card action of `me`'s own boat, found on the
    board bd = board(st, setup, sea) changed where the action changes it, without making the action;
    `rival` is the rivals' least path now (read only with spite, after a move, which leaves it as it is)."""
    if not _masks_serve(st, setup):
        return value_after(st, setup, me, spite, kind, b, c, me)
    if kind == ADV1 or kind == ADV2:
        t = st.cell_tile[b]
        if setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            return WIN  # that move wins the race
        own = search(bd, setup, sea, b)
        if spite == 0.0:
            return float(own)
        return own - spite * min(rival, STUCK)
    after, sea_after = _board_after(bd, setup, sea, st, kind, b, c)
    if kind == ROTATE:
        b, c = -1, -1  # no boat rides anywhere
    own = search(after, setup, sea_after, _swapped(st.boat[me], b, c))
    if spite == 0.0:
        return float(own)
    return own - spite * min(_rivals_on(after, setup, sea_after, st, me, b, c), STUCK)


@kernel
def reach_levels(bd, setup, sea, pos, cum, limit):
    """cum[d] = the places at most d from pos (path_score's costs), for d < limit."""
    cols = setup.cfg[C_COLS]
    seen, now, next1, next3 = _start(bd, setup, pos)
    next2 = np.int64(0)
    for d in range(limit):
        now &= ~seen
        seen |= now
        cum[d] = seen
        one_on, three_on = _forward(now, bd, cols)
        next1 |= one_on
        next3 |= three_on
        now, next1, next2, next3 = next1, next2, next3, np.int64(0)


@kernel
def target_levels(bd, setup, sea, cum, limit):
    """cum[d] = the cells whose path_score is at most d, for d < limit: the search of path_score run
    backwards from the target, every cell of a level stepping back at once."""
    cols = setup.cfg[C_COLS]
    one = np.int64(1)
    now = (((one << cols) - 1) & bd[0]) if sea < 0 else (one << sea)
    seen, next1, next2, next3 = np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    for d in range(limit):
        now &= ~seen
        seen |= now
        cum[d] = seen
        one_back, three_back = _backward(now, bd, cols)
        next1 |= one_back
        next3 |= three_back
        now, next1, next2, next3 = next1, next2, next3, np.int64(0)


@internal
def may_beat(after, setup, changed, start_changed, target_changed, pos, reach, back, limit, k):
    """Whether the board `after`, `bd` changed at the face-up cells `changed` (a mask) by a swap or a turn,
    may give a path_score of at most k, given reach = reach_levels and back = target_levels of the board
    before (limit levels each). A shorter way than before must pass a changed cell: it costs at least the
    way to the first changed cell it enters (unchanged cells up to there: reach) plus the way on from the
    last changed cell it leaves (unchanged cells from there: back). True when the levels cannot tell."""
    in_s = after[8]
    cols = setup.cfg[C_COLS]
    cells = setup.cfg[C_ROWS] * cols
    if k < 0:
        return False
    # the way in: 0 when the boat is on a changed cell
    if start_changed:
        pre = 0
    elif pos >= cells and (changed >> (cells - cols + pos - cells)) & 1:
        if not (changed & in_s) >> (cells - cols + pos - cells) & 1:
            return False  # off the map and the start tile in front no longer opens south
        pre = 1
    else:
        into = _backward(changed, after, cols)[0] & ~changed
        pre = -1
        for d in range(min(k, limit)):
            if reach[d] & into:
                pre = d + 1
                break
        if pre < 0:
            return k >= limit + 1  # not within the levels kept: cannot tell
    if target_changed:
        return True
    rest = k - pre  # what the way on may cost
    out_up, out_down = _forward(changed, after, cols)
    out_up &= ~changed
    out_down &= ~changed
    if rest - 1 >= limit:
        return True
    if rest >= 1 and back[rest - 1] & out_up:
        return True
    return rest >= UNKNOWN and (back[rest - UNKNOWN] & out_down) != 0


@kernel
def path_after_below(bd, setup, sea, st, me, kind, b, c, reach, back, limit, best):
    """value_with for the greedy (no spite) when it is below `best`, else `best` itself: a play the levels
    show cannot beat `best` is not searched. reach and back: reach_levels from the boat and target_levels
    of bd, `limit` levels each (enough for every value below `best` when limit >= best)."""
    k = int(best) - 1  # the most a play beating best may leave
    if kind == ADV1 or kind == ADV2:
        t = st.cell_tile[b]
        if setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            return WIN
        if k < 0 or (k < limit and not (back[k] >> b) & 1):
            return best
        return float(search(bd, setup, sea, b))
    after, sea_after = _board_after(bd, setup, sea, st, kind, b, c)
    one = np.int64(1)
    changed = one << b
    if kind == ROTATE:
        b, c = -1, -1
    else:
        changed |= one << c
    pos = st.boat[me]
    start_changed = ((changed >> pos) & 1) == 1
    target_changed = sea_after >= 0 and ((changed >> sea_after) & 1) == 1
    if not may_beat(after, setup, changed, start_changed, target_changed, pos, reach, back, limit, k):
        return best
    return float(search(after, setup, sea_after, _swapped(pos, b, c)))


@internal
def keep_rank(setup, k):
    """0 a card that cannot move the boat, 1 a move card, 2 a negate: the order bots trade them in."""
    if setup.card_act[k, 0] == NEGATE:
        return 2
    for slot in range(2):
        if setup.card_act[k, slot] == ADV1 or setup.card_act[k, slot] == ADV2:
            return 1
    return 0
