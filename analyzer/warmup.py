"""Compile the game kernels into numba's on-disk cache, so the first real command starts warm.

The setup scripts run this once after installing (`python -m analyzer.warmup`); with a warm
cache it takes about a second. From scratch, about a minute on 2 cores: Beacon Patrol's four
policy tiers (greedy, lookahead, rollout, oracle; kernels.beacon.choose_action, each its own
compiled kernel so that a run compiles only the policies it uses) in this process, and every
Seafarers kernel (boards, production, dice, fortress, pirates) in a second one at the same time.
"""

import subprocess
import sys
import time

import numpy as np


def warm_beacon() -> None:
    from analyzer.beacon.simulate import make_setup, play_range_fn
    from kernels import beacon as kb

    for policy in ("greedy", "lookahead", "rollout", "oracle"):  # simulate, compare, replays
        play_range_fn(make_setup(1, policy, "", None), 0)(0, np.zeros((kb.N_COLS, 1), np.int16))


def warm_seafarers() -> None:
    """Every Seafarers kernel, through the calls the commands make (the same argument types)."""
    from analyzer.seafarers.balance import run_balance
    from analyzer.seafarers.boards import deal_plan, generate_boards
    from analyzer.seafarers.dice import roll_stats
    from analyzer.seafarers.fortress import fortress_stats
    from analyzer.seafarers.pirates import run_pirates
    from analyzer.seafarers.scenarios import load_scenario

    generate_boards(deal_plan(load_scenario("new-world", 4)), 1, 0)
    run_balance("new-world", 4, 1, 1, "pips", 0, sequences=1)
    run_pirates(4, 1, 0, ["cards-first"])
    roll_stats(1, 0)
    fortress_stats(1, 1, 0)


def main(argv: list[str]) -> int:
    if argv == ["seafarers"]:
        warm_seafarers()
        return 0
    t0 = time.perf_counter()
    # numba compiles under the GIL: the games compile side by side in two processes
    other = subprocess.Popen([sys.executable, "-m", "analyzer.warmup", "seafarers"])
    warm_beacon()
    if other.wait() != 0:
        print("error: compiling the Seafarers kernels failed", file=sys.stderr)
        return 1
    print(f"kernels ready ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
