"""Full Seafarers games with every invariant checked after every step (kernels/catan/invariants.py), per
scenario and player count; prints one line per case and exits 1 if any invariant broke.

    .venv/bin/python scripts/check_invariants.py                      # 100,000 games per scenario and count
    .venv/bin/python scripts/check_invariants.py --games 2000 --scenarios new-shores --players 4

Games are split into chunks over --threads (the kernels release the GIL); game g of a seed is the same game
whatever the split. The bots differ by seat (random, value, weighted, value with the port opening), so the games
cover odd moves and finished ones alike.
"""

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.seafarers.full_game import PLAY_SCENARIOS  # noqa: E402
from analyzer.seafarers.invariants import check_games  # noqa: E402

BOTS = ["random", "value", "weighted", "value:opening=port"]


def run_case(scenario: str, players: int, games: int, seed: int, threads: int, chunk: int = 2000) -> dict:
    starts = list(range(0, games, chunk))
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda s: check_games(scenario, players, BOTS[:players], min(chunk, games - s), seed,
                                                    first=s), starts))
    total = {"games": games, "capped": 0, "decisions": 0, "won": 0, "cloth_end": 0, "broken": {},
             "first_broken_game": None}
    for part in parts:
        for key in ("capped", "decisions", "won", "cloth_end"):
            total[key] += part[key]
        for name, k in part["broken"].items():
            total["broken"][name] = total["broken"].get(name, 0) + k
        if total["first_broken_game"] is None:
            total["first_broken_game"] = part["first_broken_game"]
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenarios", default=",".join(PLAY_SCENARIOS))
    ap.add_argument("--players", default="3,4")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    if args.games < 1 or args.threads < 1:
        print("error: --games and --threads must be at least 1", file=sys.stderr)
        return 2
    failed = False
    print(f"bots by seat: {', '.join(BOTS)}; seed {args.seed}; every invariant after every step")
    for scenario in args.scenarios.split(","):
        for players in (int(p) for p in args.players.split(",")):
            t0 = time.perf_counter()
            r = run_case(scenario, players, args.games, args.seed, args.threads)
            bad = {name: k for name, k in r["broken"].items() if k}
            failed = failed or bool(bad)
            where = f" (first game {r['first_broken_game']})" if bad else ""
            print(f"{scenario:20} {players}p  {r['games']:>9,} games  {r['decisions']:>13,} steps checked  "
                  f"won {r['won']:,}  capped {r['capped']:,}"
                  + (f"  ended by the villages {r['cloth_end']:,}" if scenario == "cloth-for-catan" else "")
                  + f"  broken: {bad or 'none'}{where}  "
                  f"{time.perf_counter() - t0:,.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
