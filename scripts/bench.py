"""Benchmarks, printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench.py                 # throughput, kernel vs reference, start-up
    .venv/bin/python scripts/bench.py --memory 10000000  # also peak memory of a 10M-game run

Throughput is per core: one thread, one chunk, after compilation. The reference is the
pure-Python implementation in analyzer/beacon/reference.py playing the very same games.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.beacon import reference  # noqa: E402
from analyzer.beacon.simulate import make_setup, play_range_fn  # noqa: E402
from analyzer.beacon.tiles import parse_expansions  # noqa: E402
from kernels import beacon as kb  # noqa: E402


def kernel_rate(players: int, policy: str, expansions: str, games: int) -> float:
    play = play_range_fn(make_setup(players, policy, expansions, None), seed=1)
    play(0, np.zeros((kb.N_COLS, 1), np.int16))  # compile / load the cache
    out = np.zeros((kb.N_COLS, games), np.int16)
    t0 = time.perf_counter()
    play(0, out)
    return games / (time.perf_counter() - t0)


def reference_rate(players: int, policy: str, expansions: str, games: int) -> float:
    setup = make_setup(players, policy, expansions, None)
    exp = parse_expansions(expansions)
    t0 = time.perf_counter()
    for g in range(games):
        reference.play_game(setup.tiles, players, policy, exp, 1, g)
    return games / (time.perf_counter() - t0)


def start_up() -> tuple[float, float]:
    """Wall time of a small `simulate` with an empty numba cache (cold), then again (warm)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        cmd = [str(ROOT / ".venv/bin/tabletop"), "beacon", "simulate", "--games", "1000",
               "--threads", "1", "--no-progress", "--out", str(Path(tmp) / "out")]
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return times[0], times[1]


def peak_memory(games: int) -> tuple[float, float]:
    """Peak RSS (GiB) and wall time of `simulate --games N` (random policy, both threads)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(ROOT / ".venv/bin/tabletop"), "beacon", "simulate", "--policy", "random",
               "--games", str(games), "--no-progress", "--out", tmp]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        wall = time.perf_counter() - t0
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20_000, help="kernel games per measurement")
    ap.add_argument("--ref-games", type=int, default=100, help="reference games per measurement")
    ap.add_argument("--memory", type=int, default=0, help="also measure peak memory of an N-game run")
    args = ap.parse_args()

    print("Beacon Patrol kernel throughput (games/s on one core)")
    print(f"{'policy':8} {'players':>7} {'base':>10} {'windmills,piers':>16}")
    for policy in ("random", "greedy"):
        for players in (1, 2, 3, 4):
            base = kernel_rate(players, policy, "", args.games)
            exp = kernel_rate(players, policy, "windmills,piers", args.games)
            print(f"{policy:8} {players:7d} {base:10,.0f} {exp:16,.0f}")

    print("\nKernel vs pure-Python reference, same games (greedy, base game)")
    for players in (1, 3):
        k = kernel_rate(players, "greedy", "", args.games)
        r = reference_rate(players, "greedy", "", args.ref_games)
        print(f"  {players} player(s): kernel {k:,.0f} games/s, reference {r:,.1f} games/s, ratio {k / r:,.0f}x")

    cold, warm = start_up()
    print(f"\nStart-up of `simulate --games 1000`: cold (empty numba cache) {cold:.1f} s, warm {warm:.1f} s")

    if args.memory:
        rss, wall = peak_memory(args.memory)
        print(f"\n`simulate --games {args.memory:,}` (random): peak RSS {rss:.2f} GiB, wall {wall:.0f} s")


if __name__ == "__main__":
    main()
