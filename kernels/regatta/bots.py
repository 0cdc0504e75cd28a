"""Regatta bots and the game loop: `decide` (random, greedy) reads only what its seat sees (its hand,
the face-up tiles, the boats), then `play_range` / `play_trace`: init, legal/decide/step until terminal,
result. The race's yardstick is `path_score`: a shortest-path search over the visible rivers
(face-down tiles assumed open, at a cost)."""

import numpy as np
from numba import njit

from kernels.regatta.engine import (
    ADV1,
    ADV2,
    C_BOATS,
    C_COLS,
    C_ROWS,
    GOAL,
    MAX_BOATS,
    MULLIGAN,
    N_KINDS,
    NEGATE,
    PLACING,
    PURPOSE_POLICY,
    REVEAL,
    ROTATE,
    S_ACTIVE,
    S_CAPPED,
    S_CHAIN,
    S_NEGATED,
    S_PB,
    S_PC,
    S_PHASE,
    S_PKIND,
    S_REVEALS,
    S_TO_MOVE,
    S_TURN,
    S_WINNER,
    SWAP_ADJ,
    TURN,
    apply_card,
    boat_of,
    init,
    is_open,
    legal,
    neighbour,
    step,
    terminal,
)
from kernels.rng import stream_init, uniform_int

BOT_RANDOM, BOT_GREEDY, BOT_BLOCKER = 0, 1, 2
N_PARAMS = 4
FAR = 1_000_000
STUCK = 1000  # no way to the sea: above every path
UNKNOWN = 3  # the cost of a face-down tile on a path: a reveal, a likely turn, a move


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
def path_score(st, setup, pos):
    """The seat's shortest way to the sea: a Dijkstra search from the boat, 1 per move along visible meeting
    rivers and UNKNOWN per face-down tile (assumed open: the seat cannot see it), to the sea tile (to a
    face-down goal tile while the sea tile is unseen). With no way at all: STUCK plus the best cell's cost
    plus UNKNOWN per grid step from it to the sea. 0 on the sea tile; never reads a face-down tile's face."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    sea = -1
    for x in range(cols):
        t = st.cell_tile[x]
        if st.cell_up[x] == 1 and setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            sea = x
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
def _value(st, setup, me, spite):
    """What a seat minimises: its boat's path_score less `spite` x the nearest rival boat's."""
    own = path_score(st, setup, st.boat[me])
    if spite == 0.0:
        return float(own)
    rival = FAR
    for b in range(setup.cfg[C_BOATS]):
        if b != me:
            v = path_score(st, setup, st.boat[b])
            if v < rival:
                rival = v
    return own - spite * min(rival, STUCK)


@njit(cache=True)
def _value_after(st, setup, me, spite, kind, b, c, mover):
    """_value once the card action (kind, b, c) of `mover`'s boat happened (undone before returning)."""
    if kind == ADV1 or kind == ADV2:
        t = st.cell_tile[b]
        if setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            return -1e9 if mover == me else 1e9  # that move wins the race
        keep = st.boat[mover]
        st.boat[mover] = b
        v = _value(st, setup, me, spite)
        st.boat[mover] = keep
        return v
    apply_card(st, setup, kind, b, c)
    v = _value(st, setup, me, spite)
    apply_card(st, setup, kind, b, c if kind != ROTATE else 4 - c)
    return v


@njit(cache=True)
def _keep_rank(setup, k):
    """0 a card that cannot move the boat, 1 a move card, 2 a negate: the order greedy trades them in."""
    if setup.card_act[k, 0] == NEGATE:
        return 2
    for slot in range(2):
        if setup.card_act[k, slot] == ADV1 or setup.card_act[k, slot] == ADV2:
            return 1
    return 0


@njit(cache=True)
def _greedy(st, setup, actions, n, spite):
    """Reveal first (the face-down neighbour nearest the goal row), then the card play that lowers _value
    most; else trade (mulligan) a card, the least useful first; else end the turn (or discard the first
    card when over the limit)."""
    cols = setup.cfg[C_COLS]
    me = boat_of(setup, st.sc[S_TO_MOVE])
    best_i, best_row = -1, FAR
    for i in range(n):
        if actions[i, 0] == REVEAL and actions[i, 2] // cols < best_row:
            best_i, best_row = i, actions[i, 2] // cols
    if best_i >= 0:
        return best_i
    best_v = _value(st, setup, me, spite)
    for i in range(n):
        kind = actions[i, 0]
        if SWAP_ADJ <= kind <= ROTATE:
            v = _value_after(st, setup, me, spite, kind, actions[i, 2], actions[i, 3], me)
            if v < best_v:
                best_i, best_v = i, v
    if best_i >= 0:
        return best_i
    for rank in range(3):  # nothing helps now: trade a card (a hand of 3 never refills), the least useful first
        for i in range(n):
            if actions[i, 0] == MULLIGAN and _keep_rank(setup, actions[i, 1]) == rank:
                return i
    return 0  # END (or the first DISCARD, when over the limit): canonical order puts it first


@njit(cache=True)
def _answer(st, setup, actions, n, spite):
    """In a negate window: negate when the pending card, as the chain stands, would leave this seat worse
    off (its own path longer or a rival's shorter, by _value) than the alternative."""
    if n < 2:
        return 0
    me = boat_of(setup, st.sc[S_TO_MOVE])
    mover = boat_of(setup, st.sc[S_ACTIVE])
    happens = st.sc[S_CHAIN] % 2 == 0
    with_it = _value_after(st, setup, me, spite, st.sc[S_PKIND], st.sc[S_PB], st.sc[S_PC], mover)
    without = _value(st, setup, me, spite)
    if (happens and with_it > without) or (not happens and with_it < without):
        return 1
    return 0


@njit(cache=True)
def decide(st, setup, actions, n, bot, params, rng):
    """The index of the chosen action; params[0] is the blocker's spite (weight of the nearest rival)."""
    if bot == BOT_RANDOM or st.sc[S_PHASE] == PLACING:
        return uniform_int(rng, n)
    spite = params[0] if bot == BOT_BLOCKER else 0.0
    if st.sc[S_PHASE] == TURN:
        return _greedy(st, setup, actions, n, spite)
    if bot == BOT_BLOCKER:
        return _answer(st, setup, actions, n, spite)
    return 0  # greedy passes


@njit(cache=True)
def result(st, setup, out, j):
    out[0, j] = st.sc[S_WINNER]
    out[1, j] = st.sc[S_TURN]
    out[2, j] = st.sc[S_CAPPED]
    out[3, j] = st.sc[S_NEGATED]
    out[4, j] = st.sc[S_REVEALS]
    for k in range(N_KINDS):
        out[5 + k, j] = st.used[k]
    for b in range(MAX_BOATS):
        out[5 + N_KINDS + b, j] = path_score(st, setup, st.boat[b]) if b < setup.cfg[C_BOATS] else -1


@njit(cache=True, nogil=True)
def play_range(setup, st, bots, params, seed, start, out, actions, rng):
    """Games start .. start + out.shape[1] - 1; bots[seat] is each seat's bot code, params[seat] its parameters."""
    for j in range(out.shape[1]):
        game = start + j
        init(st, setup, seed, game)
        stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
        while not terminal(st, setup):
            n = legal(st, setup, actions)
            i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], params[st.sc[S_TO_MOVE]], rng)
            step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
        result(st, setup, out, j)


@njit(cache=True)
def play_trace(setup, st, bots, params, seed, game, actions, rng, trace):
    """One game with every action (seat, kind, a, b, c) into trace; returns how many (at most len(trace))."""
    init(st, setup, seed, game)
    stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
    m = 0
    while not terminal(st, setup) and m < trace.shape[0]:
        n = legal(st, setup, actions)
        i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], params[st.sc[S_TO_MOVE]], rng)
        trace[m, 0] = st.sc[S_TO_MOVE]
        for q in range(4):
            trace[m, 1 + q] = actions[i, q]
        m += 1
        step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
    return m

