"""Hashes of Regatta races, to show that a speed change plays the same races.

    .venv/bin/python scripts/regatta_hashes.py [SUBSTRING ...] > after.txt
    (the same in a worktree of the commit before) > before.txt; diff before.txt after.txt

For each bot mix (random, greedy, blocker, planner, rollout; 2-4 players and the team variant): a hash of
the result columns of its races (winner, turns, every action kind's count, each boat's final path score)
and a hash of the action traces (seat, kind, card, cells) of its first 50 races. Arguments keep only the
mixes whose name contains one of them. About 15 minutes with a cold numba cache on 2 loaded cores.
"""

import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.regatta.simulation import build_play_range, kernel_args, regatta_job, trace_game  # noqa: E402
from kernels.regatta import engine as ke  # noqa: E402

SEED = 7
TRACED = 50
MIXES = [  # (players, bots, team, races)
    (2, ["random"], False, 2000), (4, ["random"], False, 2000), (4, ["random"], True, 2000),
    (2, ["greedy"], False, 2000), (3, ["greedy"], False, 2000), (4, ["greedy"], False, 2000),
    (4, ["greedy"], True, 2000),
    (2, ["blocker"], False, 2000), (4, ["blocker"], False, 2000), (4, ["blocker"], True, 2000),
    (2, ["planner"], False, 2000), (4, ["planner"], False, 500), (4, ["planner"], True, 500),
    (4, ["greedy", "blocker", "planner", "random"], False, 1000),
    (3, ["planner:beam=2,depth=2", "greedy", "blocker:spite=0"], False, 1000),
    (2, ["rollout:k=2"], False, 6), (4, ["rollout:k=2,top=2", "greedy", "planner", "blocker"], True, 4),
]


def mix_hashes(players: int, bots: list[str], team: bool, races: int) -> tuple[str, str, float]:
    """(hash of the result columns, hash of the first races' action traces, mean race length)."""
    spec = regatta_job(players, bots, seed=SEED, team=team).spec
    out = np.zeros((ke.N_COLS, races), np.int32)
    build_play_range(spec)(0, out)
    setup, codes, params = kernel_args(spec)
    traces = hashlib.sha256()
    for game in range(min(races, TRACED)):
        rows, _ = trace_game(setup, codes, params, SEED, game)
        traces.update(rows.tobytes())
    return hashlib.sha256(out.tobytes()).hexdigest()[:16], traces.hexdigest()[:16], float(out[1].mean())


def main(only: list[str]) -> None:
    for players, bots, team, races in MIXES:
        name = f"{players}p {','.join(bots)}{' team' if team else ''} x{races}"
        if only and not any(o in name for o in only):
            continue
        results, traces, turns = mix_hashes(players, bots, team, races)
        print(f"{name:55s} {results} {traces} turns={turns:.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
