"""Benchmarks, printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench.py                 # throughput, kernel vs reference, start-up
    .venv/bin/python scripts/bench.py --memory 10000000  # also peak memory of a 10M-game run
    .venv/bin/python scripts/bench.py --dask 1000000     # only: --threads 2 vs --dask-local 2 overhead
    .venv/bin/python scripts/bench.py --seafarers        # only: Seafarers dice, production, boards
    .venv/bin/python scripts/bench.py --regatta          # only: Regatta races/s per bot, kernel vs reference
    .venv/bin/python scripts/bench.py --meographic       # only: Meographic games/s per bot, kernel vs reference
    .venv/bin/python scripts/bench.py --catan            # only: full Seafarers games against catanatron (issue 28)
    .venv/bin/python scripts/bench.py --experiments      # only: Seafarers tournament, seats, balance --by wins
    .venv/bin/python scripts/bench.py --against DIR      # only: every kernel side by side with another checkout
    .venv/bin/python scripts/bench.py --against DIR --regatta  # only: the Regatta kernels side by side

Throughput is per core: one thread, one chunk, after compilation, per second of that thread's
CPU time, the best of three runs (CPU time leaves other load out, yet on a shared machine a
single run can still be 30% slow). The reference is the
pure-Python implementation in analyzer/beacon/reference.py playing the very same games.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.beacon import reference  # noqa: E402
from analyzer.beacon.simulation import make_setup, play_range_fn, replay  # noqa: E402
from analyzer.beacon.tiles import parse_expansions  # noqa: E402
from kernels import beacon as kb  # noqa: E402


def kernel_rate(players: int, policy: str, expansions: str, games: int, rounds: int = 3) -> float:
    """Games per second of CPU time of the one thread playing them, the best of `rounds` runs (other
    load does not count, but on a shared machine it still slows a single run by up to 30%)."""
    rate = kernel_timer(players, policy, expansions, games)
    return max(rate() for _ in range(rounds))


def kernel_timer(players: int, policy: str, expansions: str, games: int):
    """A function that plays the same `games` games again and returns their games/s (thread CPU)."""
    play = play_range_fn(make_setup(players, policy, expansions, None), seed=1)
    play(0, np.zeros((kb.N_COLS, 1), np.int16))  # compile / load the cache
    out = np.zeros((kb.N_COLS, games), np.int16)

    def rate() -> float:
        t0 = time.thread_time()
        play(0, out)
        return games / (time.thread_time() - t0)
    return rate


def actions_per_game(players: int, policy: str, expansions: str, games: int = 5) -> float:
    setup = make_setup(players, policy, expansions, None)
    return float(np.mean([len(replay(setup, 1, g, trace_len=4000)[1]) for g in range(games)]))


def policy_speeds(games: int, rounds: int = 5) -> None:
    """Each strategy-lab policy: games/s per core, relative to greedy, and time per decision.

    Greedy and lookahead run alternately `rounds` times and each keeps its best round (on a
    shared machine a single run can be 30% slow), so their ratio compares like with like."""
    print(f"\nPolicies (one core): games/s (greedy, lookahead: best of {rounds} alternating runs), share of "
          "greedy's speed, actions per game, time per decision")
    runs = {"greedy": games, "lookahead": max(games // 20, 50), "rollout": 30, "oracle": 6}
    for players, expansions in ((1, ""), (3, "windmills,piers")):
        timers = {p: kernel_timer(players, p, expansions, runs[p]) for p in ("greedy", "lookahead")}
        best = {p: 0.0 for p in timers}
        for _ in range(rounds):
            for p, timer in timers.items():
                best[p] = max(best[p], timer())
        greedy = best["greedy"]
        for policy, n in runs.items():
            rate = best[policy] if policy in best else kernel_rate(players, policy, expansions, n, rounds=1)
            acts = actions_per_game(players, policy, expansions, 3 if policy in ("rollout", "oracle") else 10)
            print(f"  {policy:9} {players}p {expansions or 'base':16} {rate:10,.1f} games/s  "
                  f"{rate / greedy:7.4f} x greedy  {acts:5.0f} actions  {1e6 / (rate * acts):10,.1f} us/decision")


def reference_rate(players: int, policy: str, expansions: str, games: int) -> float:
    setup = make_setup(players, policy, expansions, None)
    exp = parse_expansions(expansions)
    t0 = time.perf_counter()
    for g in range(games):
        reference.play_game(setup.tiles, players, policy, exp, 1, g)
    return games / (time.perf_counter() - t0)


def start_up() -> tuple[float, float]:
    """Wall time of a small `simulate` with an empty numba cache (cold), then warm: the best of
    three further runs (one run on this shared machine can take a second longer)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        cmd = [str(ROOT / ".venv/bin/tabletop"), "beacon", "simulate", "--games", "1000",
               "--threads", "1", "--no-progress", "--out", str(Path(tmp) / "out")]
        times = []
        for _ in range(4):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return times[0], min(times[1:])


def simulate_cli(*args: str) -> dict:
    """Run `tabletop beacon simulate ARGS` in a child; its wall time, CPU time (its worker processes
    included), peak RSS and summary.json."""
    return command_cli("beacon", "simulate", *args)


def command_cli(*args: str) -> dict:
    """Run `tabletop ARGS --no-progress --out TMP` in a child: its wall time, CPU time (its worker processes
    included), peak RSS and summary.json."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(ROOT / ".venv/bin/tabletop"), *args, "--no-progress", "--out", tmp]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)  # this child (and its reaped children), not the max so far
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(cmd)} failed")
        summary = json.loads((Path(tmp) / "summary.json").read_text())
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_gib": usage.ru_maxrss / 2**20,
            "summary": summary}


def dask_overhead(games: int) -> None:
    """Same greedy solo games with `--threads 2` and `--dask-local 2` (whole commands, start-up included).

    On a shared machine wall times drift with other load, so the runs alternate and the CPU time
    (every process of the run) is printed too: it shows the overhead whatever the load."""
    print(f"`simulate --games {games:,} --no-per-game` (greedy, 1 player, seed 1), each backend twice, alternating")
    runs: dict[str, list[dict]] = {"--threads 2": [], "--dask-local 2": []}
    for _ in range(2):
        for name in runs:
            r = simulate_cli("--games", str(games), "--seed", "1", "--no-per-game", *name.split())
            runs[name].append(r)
            info = r["summary"]["run"]
            print(f"  {name:15} wall {r['wall']:6.1f} s (start-up {info['startup_seconds']:.1f} s, playing "
                  f"{r['summary']['wall_seconds']:.1f} s), CPU {r['cpu']:6.1f} s, mean {r['summary']['mean']:.4f}")
    best = {name: min(rs, key=lambda r: r["wall"]) for name, rs in runs.items()}
    threads, dask = best["--threads 2"], best["--dask-local 2"]
    print(f"  dask-local / threads (best of 2): wall {dask['wall'] / threads['wall']:.3f}, "
          f"CPU {dask['cpu'] / threads['cpu']:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20_000, help="kernel games per measurement")
    ap.add_argument("--ref-games", type=int, default=100, help="reference games per measurement")
    ap.add_argument("--memory", type=int, default=0, help="also measure peak memory of an N-game run")
    ap.add_argument("--dask", type=int, default=0, metavar="GAMES",
                    help="only measure the overhead of --dask-local 2 vs --threads 2 on GAMES greedy games")
    ap.add_argument("--seafarers", action="store_true", help="only the Seafarers benchmarks (dice, production, "
                    "fortress, board generator)")
    ap.add_argument("--regatta", action="store_true", help="only the Regatta benchmarks (races/s per bot, "
                    "kernel vs reference)")
    ap.add_argument("--meographic", action="store_true", help="only the Cational Meographic benchmarks (games/s "
                    "per bot, kernel vs reference)")
    ap.add_argument("--catan", action="store_true", help="only: full Seafarers games against catanatron (random "
                    "bots, base map), value bots on New Shores, kernel vs reference per scenario")
    ap.add_argument("--experiments", action="store_true", help="only: the Seafarers experiment commands "
                    "(tournament, seats, balance --by wins): games/s per core, --dask-local 2 against --threads 2")
    ap.add_argument("--against", type=Path, metavar="DIR", help="only: every kernel of this checkout side by side "
                    "with the checkout in DIR (e.g. a git worktree of an earlier commit)")
    ap.add_argument("--rounds", type=int, default=4, help="with --against: alternating processes per checkout")
    args = ap.parse_args()
    if args.against:
        from scripts import bench_against
        bench_against.main(args.against, args.rounds, only="regatta" if args.regatta else "")
        return
    if args.dask:
        dask_overhead(args.dask)
        return
    if args.regatta:
        from scripts import bench_regatta
        bench_regatta.main()
        return
    if args.experiments:
        from scripts import bench_experiments
        bench_experiments.main()
        return
    if args.catan:
        from scripts import bench_catan
        bench_catan.main([])
        return
    if args.meographic:
        from scripts import bench_meographic
        bench_meographic.main()
        return
    if args.seafarers:
        from scripts import bench_seafarers, bench_seafarers_boards
        bench_seafarers.main()
        bench_seafarers_boards.main([])
        return

    print("Beacon Patrol kernel throughput (games/s on one core)")
    print(f"{'policy':8} {'players':>7} {'base':>10} {'windmills,piers':>16}")
    for policy in ("random", "greedy"):
        for players in (1, 2, 3, 4):
            base = kernel_rate(players, policy, "", args.games)
            exp = kernel_rate(players, policy, "windmills,piers", args.games)
            print(f"{policy:8} {players:7d} {base:10,.0f} {exp:16,.0f}")

    policy_speeds(args.games)

    print("\nKernel vs pure-Python reference, same games (greedy, base game)")
    for players in (1, 3):
        k = kernel_rate(players, "greedy", "", args.games)
        r = reference_rate(players, "greedy", "", args.ref_games)
        print(f"  {players} player(s): kernel {k:,.0f} games/s, reference {r:,.1f} games/s, ratio {k / r:,.0f}x")

    cold, warm = start_up()
    print(f"\nStart-up of `simulate --games 1000`: cold (empty numba cache) {cold:.1f} s, "
          f"warm (best of 3) {warm:.1f} s")

    if args.memory:
        print()
        for extra in ((), ("--no-per-game",)):
            r = simulate_cli("--policy", "random", "--games", str(args.memory), *extra)
            print(f"`simulate --games {args.memory:,} {' '.join(extra)}` (random, all cores): "
                  f"peak RSS {r['rss_gib']:.2f} GiB, wall {r['wall']:.0f} s")


if __name__ == "__main__":
    main()
