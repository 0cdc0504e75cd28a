"""Compile the game kernels into numba's on-disk cache, so the first real command starts warm.

The setup scripts run this once after installing (`python -m analyzer.warmup`); with a warm
cache it takes about a second. From scratch, under a minute here (42 s on 2 cores):
each policy tier (greedy, lookahead, rollout, oracle; kernels.beacon.choose_action) is its
own compiled kernel, so that a run compiles only the policies it uses.
"""

import sys
import time

import numpy as np


def warm_beacon() -> None:
    from analyzer.beacon.simulate import make_setup, play_range_fn
    from kernels import beacon as kb

    for policy in ("greedy", "lookahead", "rollout", "oracle"):  # simulate, compare, replays
        play_range_fn(make_setup(1, policy, "", None), 0)(0, np.zeros((kb.N_COLS, 1), np.int16))


def main() -> int:
    t0 = time.perf_counter()
    warm_beacon()
    print(f"kernels ready ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
