"""Regatta bots and the game loop: `decide` (random, greedy, blocker; the planner in kernels/regatta/planner.py)
reads only what its seat sees (its hand, the face-up tiles, the boats), then `play_range` / `play_trace`:
init, legal/decide/step until terminal, result. The race's yardstick is `path_score` (kernels/regatta/score.py):
a shortest-path search over the visible rivers (face-down tiles assumed open, at a cost)."""

import numpy as np
from numba import njit

from kernels.regatta.engine import (
    C_BOATS,
    C_COLS,
    MAX_BOATS,
    MULLIGAN,
    N_KINDS,
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
    boat_of,
    init,
    legal,
    step,
    terminal,
)
from kernels.regatta.planner import answer, make_work, turn_choice  # noqa: F401  (make_work: for callers)
from kernels.regatta.score import FAR, keep_rank, path_score, value, value_after
from kernels.rng import stream_init, uniform_int

BOT_RANDOM, BOT_GREEDY, BOT_BLOCKER, BOT_PLANNER = 0, 1, 2, 3
N_PARAMS = 4


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
    best_v = value(st, setup, me, spite)
    for i in range(n):
        kind = actions[i, 0]
        if SWAP_ADJ <= kind <= ROTATE:
            v = value_after(st, setup, me, spite, kind, actions[i, 2], actions[i, 3], me)
            if v < best_v:
                best_i, best_v = i, v
    if best_i >= 0:
        return best_i
    return trade_or_end(setup, actions, n)


@njit(cache=True)
def trade_or_end(setup, actions, n):
    """Trade (mulligan) a card, the least useful first; else end the turn (or discard the first card when
    over the limit)."""
    for rank in range(3):  # nothing helps now: trade a card (a hand of 3 never refills), the least useful first
        for i in range(n):
            if actions[i, 0] == MULLIGAN and keep_rank(setup, actions[i, 1]) == rank:
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
    with_it = value_after(st, setup, me, spite, st.sc[S_PKIND], st.sc[S_PB], st.sc[S_PC], mover)
    without = value(st, setup, me, spite)
    if (happens and with_it > without) or (not happens and with_it < without):
        return 1
    return 0


@njit(cache=True)
def decide(st, setup, actions, n, bot, params, rng, wk):
    """The index of the chosen action. params[0] is the blocker's and the planner's spite (the weight of the
    nearest rival's path); the planner's beam and depth follow; wk is the planner's scratch (planner.Work)."""
    if bot == BOT_RANDOM or st.sc[S_PHASE] == PLACING:
        return uniform_int(rng, n)
    spite = params[0] if bot == BOT_BLOCKER or bot == BOT_PLANNER else 0.0
    if st.sc[S_PHASE] == TURN:
        if bot == BOT_PLANNER:
            i = turn_choice(st, setup, wk, actions, n, spite, int(params[1]), int(params[2]))
            return i if i >= 0 else trade_or_end(setup, actions, n)
        return _greedy(st, setup, actions, n, spite)
    if bot == BOT_BLOCKER:
        return _answer(st, setup, actions, n, spite)
    if bot == BOT_PLANNER:
        return answer(st, setup, n)
    return 0  # greedy passes


@njit(cache=True)
def choose(st, setup, actions, n, bot, params, rng, wk):
    """decide, called from Python (tests): an entry point of its own, since decide's own library is only
    linked into the game loops (kernels/whole_program.py)."""
    return decide(st, setup, actions, n, bot, params, rng, wk)


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
def play_range(setup, st, bots, params, seed, start, out, actions, rng, wk):
    """Games start .. start + out.shape[1] - 1; bots[seat] is each seat's bot code, params[seat] its parameters,
    wk the bots' scratch (make_work)."""
    for j in range(out.shape[1]):
        game = start + j
        init(st, setup, seed, game)
        stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
        while not terminal(st, setup):
            n = legal(st, setup, actions)
            i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], params[st.sc[S_TO_MOVE]], rng, wk)
            step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
        result(st, setup, out, j)


@njit(cache=True)
def play_trace(setup, st, bots, params, seed, game, actions, rng, trace, wk):
    """One game with every action (seat, kind, a, b, c) into trace; returns how many (at most len(trace))."""
    init(st, setup, seed, game)
    stream_init(rng, seed, game, np.int64(PURPOSE_POLICY))
    m = 0
    while not terminal(st, setup) and m < trace.shape[0]:
        n = legal(st, setup, actions)
        i = decide(st, setup, actions, n, bots[st.sc[S_TO_MOVE]], params[st.sc[S_TO_MOVE]], rng, wk)
        trace[m, 0] = st.sc[S_TO_MOVE]
        for q in range(4):
            trace[m, 1 + q] = actions[i, q]
        m += 1
        step(st, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
    return m

