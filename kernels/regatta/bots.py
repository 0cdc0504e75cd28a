"""Regatta bots and the game loop: `decide` (random; greedy and blocker in greedy.py, planner.py, rollout.py)
reads only what its seat sees (its hand, the face-up tiles, the boats), then `play_range`, the one game loop:
init, legal/decide/step until terminal, result. The race's yardstick is `path_score` (kernels/regatta/score.py):
a shortest-path search over the visible rivers (face-down tiles assumed open, at a cost)."""

import numpy as np

from kernels.jit import internal, kernel
from kernels.regatta import rollout
from kernels.regatta.engine import (
    C_BOATS,
    END,
    MAX_BOATS,
    N_KINDS,
    PASS,
    PLACE,
    PLACING,
    PURPOSE_POLICY,
    S_CAPPED,
    S_NEGATED,
    S_PHASE,
    S_REVEALS,
    S_TO_MOVE,
    S_TURN,
    S_WINNER,
    TURN,
    WINDOW,
    init,
    legal,
    step,
    terminal,
)
from kernels.regatta.greedy import blocker_answer, greedy, trade_or_end
from kernels.regatta.planner import answer, turn_choice
from kernels.regatta.score import path_score
from kernels.regatta.workspace import make_work  # noqa: F401  (for callers)
from kernels.rng import stream_init, uniform_int

BOT_RANDOM, BOT_GREEDY, BOT_BLOCKER, BOT_PLANNER, BOT_ROLLOUT = 0, 1, 2, 3, 4
N_PARAMS = 4


@internal
def decide(st, setup, actions, n, bot, params, rng, wk):
    """The index of the chosen action. params[0] is the blocker's and the planner's spite (the weight of the
    nearest rival's path), then the planner's beam and depth; the rollout's are k, top and rounds
    (kernels/regatta/rollout.py). wk is the bots' scratch (workspace.Work)."""
    if bot == BOT_RANDOM or st.sc[S_PHASE] == PLACING:
        return uniform_int(rng, n)
    spite = params[0] if bot == BOT_BLOCKER or bot == BOT_PLANNER else 0.0
    if st.sc[S_PHASE] == TURN:
        if bot == BOT_ROLLOUT:
            return rollout.turn_choice(st, setup, wk, actions, n, rng, int(params[0]), int(params[1]), int(params[2]))
        if bot == BOT_PLANNER:
            i = turn_choice(st, setup, wk, actions, n, spite, int(params[1]), int(params[2]))
            return i if i >= 0 else trade_or_end(setup, actions, n)
        return greedy(st, setup, actions, n, spite)
    if bot == BOT_BLOCKER:
        return blocker_answer(st, setup, actions, n, spite)
    if bot == BOT_PLANNER or bot == BOT_ROLLOUT:
        return answer(st, setup, n)
    return 0  # greedy passes


@internal
def _pick(st, setup, bots, params, actions, rng, wk):
    """The seat to move's action, its index into actions: legal, then decide. The random bot and the
    greedy are called here directly (decide's long argument list costs more than their choice), and the
    greedy in a negate window passes without a list: it always does, and PASS is a window's first action."""
    seat = st.sc[S_TO_MOVE]
    bot = bots[seat]
    phase = st.sc[S_PHASE]
    if bot == BOT_GREEDY and phase == WINDOW:
        actions[0, 0], actions[0, 1], actions[0, 2], actions[0, 3] = PASS, 0, 0, 0
        return 0
    n = legal(st, setup, actions)
    if bot == BOT_RANDOM or phase == PLACING:
        return uniform_int(rng, n)
    if bot == BOT_GREEDY and phase == TURN:
        return greedy(st, setup, actions, n, 0.0)
    return decide(st, setup, actions, n, bot, params[seat], rng, wk)


@kernel
def choose(st, setup, actions, n, bot, params, rng, wk):
    """decide, called from Python (tests): an entry point of its own, since decide's own library is only
    linked into the game loops (kernels/whole_program.py)."""
    return decide(st, setup, actions, n, bot, params, rng, wk)


@internal
def result(st, setup, out):
    """The race's result columns (engine.COLUMN_NAMES, N_COLS) into out: each boat's final path_score last."""
    out[0] = st.sc[S_WINNER]
    out[1] = st.sc[S_TURN]
    out[2] = st.sc[S_CAPPED]
    out[3] = st.sc[S_NEGATED]
    out[4] = st.sc[S_REVEALS]
    for k in range(N_KINDS):
        out[5 + k] = st.used[k]
    for b in range(MAX_BOATS):
        out[5 + N_KINDS + b] = path_score(st, setup, st.boat[b]) if b < setup.cfg[C_BOATS] else -1


@internal
def _record_paths(st, setup, tracks, j):
    t = st.sc[S_TURN]
    if t < tracks.shape[1]:
        for b in range(setup.cfg[C_BOATS]):
            tracks[j, t, b] = path_score(st, setup, st.boat[b])


@kernel
def play_range(setup, st, bots, params, seed, start, out, tracks, trace, actions, rng, wk):
    """Games start .. start + out.shape[1] - 1, each one's result into out[:, j]; bots[seat] is each seat's bot
    code, params[seat] its parameters, wk the bots' scratch (make_work). The one game loop, with two sinks that
    are empty arrays when unused (one compiled program serves the runner, the report and the tests):
    tracks[j, turn, boat], each boat's path_score when the boats are placed and after every turn (-1 where the
    race had ended or the boat does not exist); trace, every action (seat, kind, a, b, c) of the last game (a
    game stops when its trace is full). Returns the last game's trace rows."""
    tracks[:, :, :] = -1
    m = 0
    for j in range(out.shape[1]):
        init(st, setup, seed, start + j)
        stream_init(rng, seed, start + j, np.int64(PURPOSE_POLICY))
        m = 0
        while not terminal(st, setup) and (trace.shape[0] == 0 or m < trace.shape[0]):
            i = _pick(st, setup, bots, params, actions, rng, wk)
            kind = actions[i, 0]
            if trace.shape[0] > 0:
                trace[m, 0] = st.sc[S_TO_MOVE]
                for q in range(4):
                    trace[m, 1 + q] = actions[i, q]
                m += 1
            step(st, setup, kind, actions[i, 1], actions[i, 2], actions[i, 3])
            if j < tracks.shape[0] and (kind == END or kind == PLACE) and st.sc[S_PHASE] == TURN:
                _record_paths(st, setup, tracks, j)
        result(st, setup, out[:, j])
    return m
