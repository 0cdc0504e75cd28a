"""Regatta bots and the game loop: `decide` (random, greedy) reads only what its seat sees (its hand,
the face-up tiles, the boats), then `play_range` / `play_trace`: init, legal/decide/step until terminal,
result. The race's yardstick is `path_score`: a breadth-first search over the visible connected rivers."""

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
    N_KINDS,
    PASS,
    PURPOSE_POLICY,
    REVEAL,
    ROTATE,
    S_CAPPED,
    S_NEGATED,
    S_PHASE,
    S_REVEALS,
    S_TO_MOVE,
    S_TURN,
    S_WINNER,
    SWAP_ADJ,
    SWAP_ANY,
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

BOT_RANDOM, BOT_GREEDY = 0, 1
FAR = 1_000_000


@njit(cache=True)
def path_score(st, setup, pos):
    """Moves to the sea by the visible rivers, plus 2 per step still to find: min over the cells the boat can
    reach of (moves there + 2 x distance from there to the sea tile, or to the goal row while the sea tile is
    face down). 0 on the sea tile."""
    cols = setup.cfg[C_COLS]
    rows = setup.cfg[C_ROWS]
    cells = rows * cols
    sea = -1
    for x in range(cols):
        t = st.cell_tile[x]
        if st.cell_up[x] == 1 and setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1:
            sea = x
    st.dist[:] = -1
    st.dist[pos] = 0
    st.queue[0] = pos
    head, tail = 0, 1
    best = FAR
    while head < tail:
        x = st.queue[head]
        head += 1
        if x >= cells:
            r, c = rows, x - cells
        else:
            r, c = x // cols, x % cols
        h = r if sea < 0 else abs(r) + abs(c - sea)
        v = st.dist[x] + 2 * h
        if v < best:
            best = v
        if x >= cells:
            front = cells - cols + c
            if is_open(st, setup, front) & 4 and st.dist[front] < 0:
                st.dist[front] = st.dist[x] + 1
                st.queue[tail] = front
                tail += 1
            continue
        here = is_open(st, setup, x)
        for side in range(4):
            n = neighbour(setup, x, side)
            if n >= 0 and st.dist[n] < 0 and (here >> side) & 1 and (is_open(st, setup, n) >> ((side + 2) % 4)) & 1:
                st.dist[n] = st.dist[x] + 1
                st.queue[tail] = n
                tail += 1
    return best


@njit(cache=True)
def _greedy(st, setup, actions, n):
    """Reveal first (the face-down neighbour nearest the goal row), then the card play that shortens the
    boat's path_score most; else end the turn (or discard the first card when over the limit)."""
    cols = setup.cfg[C_COLS]
    boat = boat_of(setup, st.sc[S_TO_MOVE])
    best_i, best_row = -1, FAR
    for i in range(n):
        if actions[i, 0] == REVEAL and actions[i, 2] // cols < best_row:
            best_i, best_row = i, actions[i, 2] // cols
    if best_i >= 0:
        return best_i
    now = path_score(st, setup, st.boat[boat])
    best_v = now
    for i in range(n):
        kind, b, c = actions[i, 0], actions[i, 2], actions[i, 3]
        if kind == ADV1 or kind == ADV2:
            keep = st.boat[boat]
            st.boat[boat] = b
            t = st.cell_tile[b]
            v = 0 if (setup.tile_kind[t] == GOAL and setup.tile_sea[t] == 1) else path_score(st, setup, b)
            st.boat[boat] = keep
        elif kind == SWAP_ADJ or kind == SWAP_ANY:
            apply_card(st, setup, kind, b, c)
            v = path_score(st, setup, st.boat[boat])
            apply_card(st, setup, kind, b, c)
        elif kind == ROTATE:
            apply_card(st, setup, kind, b, c)
            v = path_score(st, setup, st.boat[boat])
            apply_card(st, setup, kind, b, 4 - c)
        else:
            continue
        if v < best_v:
            best_i, best_v = i, v
    if best_i >= 0:
        return best_i
    return 0  # END (or the first DISCARD, when over the limit): canonical order puts it first


@njit(cache=True)
def decide(st, setup, actions, n, bot, rng):
    if bot == BOT_GREEDY and st.sc[S_PHASE] == TURN:
        return _greedy(st, setup, actions, n)
    if bot == BOT_GREEDY and actions[0, 0] == PASS:
        return 0
    return uniform_int(rng, n)


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
def play_range(setup, st, bots, seed, start, out, actions, rng):
    """Games start .. start + out.shape[1] - 1; bots[seat] is each seat's bot code."""
    for j in range(out.shape[1]):
        game = start + j
        init(st, setup, seed, game)
        stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
        while not terminal(st, setup):
            n = legal(st, setup, actions)
            i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], rng)
            step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
        result(st, setup, out, j)


@njit(cache=True)
def play_trace(setup, st, bots, seed, game, actions, rng, trace):
    """One game with every action (seat, kind, a, b, c) into trace; returns how many (at most len(trace))."""
    init(st, setup, seed, game)
    stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
    m = 0
    while not terminal(st, setup) and m < trace.shape[0]:
        n = legal(st, setup, actions)
        i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], rng)
        trace[m, 0] = st.sc[S_TO_MOVE]
        for q in range(4):
            trace[m, 1 + q] = actions[i, q]
        m += 1
        step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
    return m

