"""Whole games: init, then legal / decide / step until terminal, then result, game after game."""

from kernels.jit import kernel
from kernels.meographic.engine import ST_SEAT, init, legal, result, step, terminal
from kernels.meographic.rollout import decide


@kernel
def play_range(state, setup, seed, start, out, trace, sim):
    """Games start .. start + out.shape[1] - 1 of `seed`, their result columns into out[:, j]. trace: int64
    [k, 5] receiving (seat, kind, a, b, c) of the last game's first k actions (a zero-row array for none).
    sim: a second State, the rollout bot's continuations. Returns the number of actions of the last game."""
    actions, row = state.actions, state.row
    taken = 0
    for j in range(out.shape[1]):
        init(state, setup, seed, start + j)
        taken = 0
        while not terminal(state, setup):
            n = legal(state, setup, actions)
            i = decide(state, setup, actions, n, sim)
            if taken < trace.shape[0]:
                trace[taken, 0] = state.st[ST_SEAT]
                for k in range(4):
                    trace[taken, k + 1] = actions[i, k]
            step(state, setup, actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
            taken += 1
        result(state, setup, row)
        for k in range(out.shape[0]):
            out[k, j] = row[k]
    return taken
