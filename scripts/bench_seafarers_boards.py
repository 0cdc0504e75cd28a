"""Benchmark of the Seafarers board generator, printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench_seafarers_boards.py            # new-world and every scenario, one core
    .venv/bin/python scripts/bench_seafarers_boards.py --boards 2000000

Per core: one call of the kernel on one thread, after compilation. The reference is the pure-Python
deal of analyzer/seafarers/boards_reference.py dealing the very same boards.
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.seafarers.boards import deal_plan, generate_boards  # noqa: E402
from analyzer.seafarers.boards_reference import reference_deal  # noqa: E402
from analyzer.seafarers.scenarios import list_scenarios, load_scenario  # noqa: E402


def kernel_rate(slug: str, players: int, boards: int, max_clump: int = 0) -> tuple[float, float]:
    """(boards per second, number deals per board) of the kernel on one thread."""
    plan = deal_plan(load_scenario(slug, players), max_clump)
    generate_boards(plan, 1, seed=1)  # compile / load the cache
    dealt = generate_boards(plan, boards, seed=1)
    return boards / dealt.seconds, float(dealt.tries.mean())


def reference_rate(slug: str, players: int, boards: int) -> float:
    scenario = load_scenario(slug, players)
    t0 = time.perf_counter()
    for b in range(boards):
        reference_deal(scenario, 1, b)
    return boards / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500_000, help="boards per kernel measurement")
    parser.add_argument("--reference-boards", type=int, default=200, help="boards for the reference rate")
    args = parser.parse_args(argv)
    rate, tries = kernel_rate("new-world", 4, args.boards)
    ref = reference_rate("new-world", 4, args.reference_boards)
    print(f"seafarers boards, new-world 4 players: {rate:,.0f} boards/s per core "
          f"({tries:.2f} number deals per board); reference {ref:,.0f} boards/s ({rate / ref:,.0f}x)")
    clump, _ = kernel_rate("new-world", 4, args.boards // 5, max_clump=2)
    print(f"  with --max-clump 2: {clump:,.0f} boards/s per core")
    for s in list_scenarios():
        if s.slug != "new-world" and s.players == 4:
            rate, tries = kernel_rate(s.slug, 4, args.boards // 5)
            print(f"  {s.slug:20s} {rate:>12,.0f} boards/s  {tries:6.2f} number deals per board")


if __name__ == "__main__":
    main()
