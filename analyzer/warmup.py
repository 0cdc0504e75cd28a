"""Compile the game kernels into numba's on-disk cache, so the first real command starts warm.

The setup scripts run this once after installing (`python -m analyzer.warmup`); with a warm
cache it takes about a second. Compiling from scratch takes minutes on a small machine: the
kernels are large, and numba optimises each entry point together with everything it calls.
"""

import sys
import time

import numpy as np


def warm_beacon() -> None:
    from analyzer.beacon.simulate import make_setup, play_range_fn
    from kernels import beacon as kb

    setup = make_setup(1, "greedy", "", None)
    play_range_fn(setup, 0)(0, np.zeros((kb.N_COLS, 1), np.int16))  # simulate, compare, replays


def main() -> int:
    t0 = time.perf_counter()
    warm_beacon()
    print(f"kernels ready ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
