"""Seafarers dice, production and fortress throughput, printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench_seafarers.py

Per core: one thread, one call, after compilation; each figure is the best of five runs, so that
other work on a shared machine does not pull it down. The board is the 19-hex base-game-like
fixture of analyzer/seafarers/reference.py with 8 settlements (4 seats x 2) and the robber on
the desert.
"""

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.seafarers import reference  # noqa: E402
from analyzer.seafarers.production import check_board  # noqa: E402
from kernels.catan import dice as kd  # noqa: E402
from kernels.catan import fortress as kf  # noqa: E402
from kernels.catan import production as kp  # noqa: E402
from kernels.rng import PURPOSE_DICE, stream_init, uniform_int  # noqa: E402

ROLLS = 10_000_000
REPEATS = 5


@njit(cache=True)
def two_draw_2d6(seed, n_rolls, sum_counts):
    """The textbook loop, one uniform_int per die: what one draw per pair saves."""
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, 0, PURPOSE_DICE)
    for _ in range(n_rolls):
        sum_counts[uniform_int(stream, 6) + uniform_int(stream, 6) + 2] += 1


def best_rate(run, items: int) -> float:
    run()  # compile or load the cache
    best = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return items / best


def main() -> None:
    board = reference.base_board()
    robber = board["robber"]
    arrays = check_board(board["hex_terrain"], board["hex_number"], board["corner_hexes"], board["corner_building"],
                         board["corner_owner"], robber, 4)
    counts = np.zeros(13, np.int64)
    tallies = np.zeros((4 * kp.N_TALLY, 1), np.int64)
    kernel_board = kp.Board(*arrays, np.zeros(len(board["hex_terrain"]), np.bool_))
    no_hands = np.zeros((4, kp.N_RESOURCES), np.int32)

    def production(seven_rules: bool, spend_to: int = kp.NO_SPENDING):
        return lambda: kp.simulate_rolls(kernel_board, robber, no_hands, 4, ROLLS, kp.GOLD_POOREST, spend_to,
                                         seven_rules, 1, 0, tallies)

    bare = best_rate(lambda: kd.bare_2d6(1, 0, ROLLS, counts), ROLLS)
    print("Seafarers dice and production (rolls/s on one core, best of 5)")
    print(f"  bare 2d6 loop (one draw per pair)               {bare:14,.0f}")
    two = best_rate(lambda: two_draw_2d6(1, ROLLS, counts), ROLLS)
    print(f"  2d6 with one uniform_int per die                {two:14,.0f}  ({two / bare:.2f} x bare)")
    rows = (("dice + production (7s produce nothing)", production(False)),
            ("dice + production + 7s (discard, robber, steal)", production(True)),
            ("  ... and spending down to 4 cards a turn", production(True, 4)))
    for label, run in rows:
        rate = best_rate(run, ROLLS)
        print(f"  {label:48}{rate:14,.0f}  ({rate / bare:.2f} x bare)")
    t0 = time.perf_counter()
    reference.play_sequence(*[board[k] for k in ("hex_terrain", "hex_number", "corner_hexes", "corner_building",
                                                  "corner_owner")], robber, 4, 20_000, -1, -1, 1, 0)
    ref_rate = 20_000 / (time.perf_counter() - t0)
    print(f"  pure-Python reference, the same rules           {ref_rate:14,.0f}")

    battles = np.zeros((3, 1), np.int64)
    sieges = np.zeros((kf.S_COLS, 1_000_000), np.int32)
    per = np.array([0, 1, 2], np.int64)
    print("\nPirate fortress (one core, best of 5)")
    rate = best_rate(lambda: kf.battle_blocks(5, 1, ROLLS, ROLLS, 0, battles), ROLLS)
    print(f"  single battles, 5 warships                      {rate:14,.0f} battles/s")
    rate = best_rate(lambda: kf.siege_range(3, 5, per, kf.LOSSES_WARSHIPS, 1, 0, sieges), sieges.shape[1])
    print(f"  whole sieges, 5 warships                        {rate:14,.0f} sieges/s")


if __name__ == "__main__":
    main()
