"""Whole games: init, then legal / decide / step until terminal, then result, game after game."""

from kernels.jit import kernel
from kernels.meographic.bots import BOT_ROLLOUT, decide_basic
from kernels.meographic.engine import MAX_PLAYERS, ST_SEAT, init, legal, result, step, terminal
from kernels.meographic.rollout import decide


def _play_of(with_rollout):
    """The game loop with the rollout bot's code, or without it: in the loop of every game, it made greedy solo
    12% slower (45,200 -> 39,700 games/s per core)."""
    @kernel
    def play_games(state, setup, seed, start, out, trace, sim):
        actions, row = state.actions, state.row
        taken = 0
        for j in range(out.shape[1]):
            init(state, setup, seed, start + j)
            taken = 0
            while not terminal(state, setup):
                n = legal(state, setup, actions)
                if with_rollout:
                    i = decide(state, setup, actions, n, sim)
                else:
                    i = decide_basic(state, setup, actions, n)
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
    return play_games


# module globals (numba's cache keys a closure by what it captures)
_play_basic = _play_of(False)
_play_rollout = _play_of(True)


@kernel
def play_range(state, setup, seed, start, out, trace, sim):
    """Games start .. start + out.shape[1] - 1 of `seed`, their result columns into out[:, j]. trace: int64
    [k, 5] receiving (seat, kind, a, b, c) of the last game's first k actions (a zero-row array for none).
    sim: a second State, the rollout bot's continuations. Returns the number of actions of the last game."""
    for s in range(MAX_PLAYERS):
        if setup.bots[s] == BOT_ROLLOUT:
            return _play_rollout(state, setup, seed, start, out, trace, sim)
    return _play_basic(state, setup, seed, start, out, trace, sim)
