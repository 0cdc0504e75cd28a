"""The Seafarers experiment commands (issue 30), printed as figures (no test asserts a time).

    .venv/bin/python scripts/bench.py --experiments       # about 3 minutes on 2 cores

1. games per second per core of each command's default bots: the command run with --threads 1, its games over the
   runner's playing time (start-up, checks and the report left out), the best of `ROUNDS` runs taking turns;
2. the wall and CPU time of one whole command (seats, start-up included) with --dask-local 2 against --threads 2,
   the best of two alternating runs each.
"""

from __future__ import annotations

from scripts.bench import command_cli

ROUNDS = 2
OPENINGS = "value:opening=pips,value:opening=diverse,value:opening=port"
COMMANDS = {  # name: (argv, games played, the summary's playing seconds)
    "tournament (3 openings, Four Islands, 3 players, 6 seatings)": (
        ["seafarers", "tournament", "--scenario", "four-islands", "--players", "3", "--entrants", OPENINGS,
         "--games", "500", "--seed", "1"], lambda s: s["games_played"], lambda s: s["run"]["wall_seconds"]),
    "seats (value, New Shores, 4 players)": (
        ["seafarers", "seats", "--scenarios", "new-shores", "--players", "4", "--no-base", "--games", "3000", "--seed",
         "1"], lambda s: s["games_played"], lambda s: s["run"]["wall_seconds"]),
    "balance --by wins (New Shores, 4 players, 60 boards x 50 games)": (
        ["seafarers", "balance", "--scenario", "new-shores", "--players", "4", "--boards", "60", "--by", "wins",
         "--games-per-board", "50", "--seed", "1"], lambda s: s["by_wins"]["games"],
        lambda s: s["by_wins"]["games"] / s["by_wins"]["games_per_second"]),
}


def per_core() -> None:
    print(f"Games per second per core (--threads 1; games over the runner's playing time; best of {ROUNDS} runs)")
    best = dict.fromkeys(COMMANDS, 0.0)
    for _ in range(ROUNDS):
        for name, (argv, games, seconds) in COMMANDS.items():
            summary = command_cli(*argv, "--threads", "1")["summary"]
            best[name] = max(best[name], games(summary) / seconds(summary))
    for name, rate in best.items():
        print(f"  {name:66} {rate:8,.0f} games/s")


def dask_against_threads() -> None:
    argv = ["seafarers", "seats", "--scenarios", "new-shores,four-islands", "--players", "3,4", "--games", "4000",
            "--seed", "1"]
    print(f"\n`tabletop {' '.join(argv)}` (whole command, start-up included), each backend twice, alternating")
    runs: dict[str, list[dict]] = {"--threads 2": [], "--dask-local 2": []}
    for _ in range(2):
        for name in runs:
            r = command_cli(*argv, *name.split())
            runs[name].append(r)
            print(f"  {name:15} wall {r['wall']:6.1f} s, CPU {r['cpu']:6.1f} s, peak RSS {r['rss_gib']:.2f} GiB")
    threads, dask = (min(runs[name], key=lambda r: r["wall"]) for name in runs)
    print(f"  dask-local / threads (best of 2): wall {dask['wall'] / threads['wall']:.3f}, "
          f"CPU {dask['cpu'] / threads['cpu']:.3f}")


def main() -> None:
    per_core()
    dask_against_threads()


if __name__ == "__main__":
    main()
