"""Where a random-bot Regatta race's time goes (issue 31): each piece of a step called `EXTRA` more times
per step in otherwise plain races, timed against the plain races (thread time, best of 3).

    .venv/bin/python scripts/regatta_step_costs.py [--players 2] [--races 1000]

A piece's cost is its extra time over its extra calls; a step's cost is that of stepping a copy of the
state less that of copying it. Each extra call passes State and Setup as some 230 scalars, as the game
loop's own calls do; the shares add up to about the whole, the rest being the loop itself. This loop is
compiled apart from the game loop (plain numba, not kernels/whole_program.py), so its races run about 1.5x
slower than `scripts/bench.py --regatta`'s: read the shares, not the absolute times.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.regatta import rules as rules_module  # noqa: E402
from kernels.regatta import engine as E  # noqa: E402
from kernels.regatta.rollout import copy_state  # noqa: E402
from kernels.rng import PURPOSE_POLICY, stream_init, uniform_int  # noqa: E402

EXTRA = 4
LEGAL_TURN, LEGAL_OTHER, DRAW, INIT, STEP_END, STEP_CARD, STEP_MULLIGAN, STEP_OTHER = range(8)
PIECES = ("legal(), in a turn", "legal(), placing or a window", "the policy's draw", "init (a race)",
          "step(): end of turn", "step(): a card play", "step(): a mulligan", "step(): the rest")


@njit(_nrt=False, cache=True)
def _step_group(kind):
    if kind == E.END:
        return STEP_END
    if E.SWAP_ADJ <= kind <= E.ROTATE:
        return STEP_CARD
    return STEP_MULLIGAN if kind == E.MULLIGAN else STEP_OTHER


@njit(_nrt=False, cache=True)
def races(setup, st, spare, count, piece, and_step, actions, spare_actions, rng, spare_rng, tally):
    """Random races 0 .. count - 1 (seed 1) with EXTRA more calls of `piece` (-1: none) wherever it applies
    (a step piece: copy the state, then step the copy when and_step); tally[0] += steps, tally[1] += actions
    listed. Returns the extra calls made."""
    calls = 0
    for game in range(count):
        E.init(st, setup, 1, game)
        if piece == INIT:
            for _ in range(EXTRA):
                E.init(spare, setup, 1, game)
            calls += EXTRA
        stream_init(rng, 1, game, np.int64(PURPOSE_POLICY))
        while not E.terminal(st, setup):
            n = E.legal(st, setup, actions)
            turn = st.sc[E.S_PHASE] == E.TURN
            if (piece == LEGAL_TURN and turn) or (piece == LEGAL_OTHER and not turn):
                for _ in range(EXTRA):
                    E.legal(st, setup, spare_actions)
                calls += EXTRA
            if piece == DRAW:
                for _ in range(EXTRA):
                    uniform_int(spare_rng, n)
                calls += EXTRA
            i = uniform_int(rng, n)
            kind, a, b, c = actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3]
            if piece == _step_group(kind):
                for _ in range(EXTRA):
                    copy_state(spare, st)
                    if and_step:
                        E.step(spare, setup, kind, a, b, c)
                calls += EXTRA
            tally[0] += 1
            tally[1] += n
            E.step(st, setup, kind, a, b, c)
    return calls


def best_time(run) -> tuple[float, int]:
    best, calls = 1e9, 0
    for _ in range(3):
        t0 = time.thread_time()
        calls = run()
        best = min(best, time.thread_time() - t0)
    return best, calls


def main(players: int, count: int) -> None:
    setup = E.make_setup(rules_module.load(), players, False)
    st, spare = E.make_state(setup), E.make_state(setup)
    actions, spare_actions = np.zeros((E.MAX_ACTIONS, 4), np.int64), np.zeros((E.MAX_ACTIONS, 4), np.int64)
    rng, spare_rng, tally = np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(2, np.int64)

    def run(piece, and_step=True):
        return lambda: races(setup, st, spare, count, piece, and_step, actions, spare_actions, rng, spare_rng,
                             tally)

    run(-1)()  # compile
    tally[:] = 0
    run(-1)()
    steps = tally[0] / count
    base, _ = best_time(run(-1))
    print(f"random bots, {players} players, {count} races: {steps:.0f} steps a race, {tally[1] / tally[0]:.1f} "
          f"actions listed a step; {base / count * 1e6:.0f} us a race, {base / count / steps * 1e9:.0f} ns a step")
    for piece, name in enumerate(PIECES):
        t, calls = best_time(run(piece))
        t -= best_time(run(piece, False))[0] if piece >= STEP_END else base  # less the copies, or the plain races
        per_race = calls / EXTRA / count
        print(f"  {name:30s} {t / calls * 1e9:6.0f} ns a call, {per_race:6.1f} a race: {t / EXTRA / count * 1e6:5.1f} "
              f"us a race ({t / EXTRA / base * 100:.0f}%)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--races", type=int, default=1000)
    args = ap.parse_args()
    main(args.players, args.races)
