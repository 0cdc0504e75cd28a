"""Regatta benchmarks (`scripts/bench.py --regatta`): races/s per core for each bot and player count (one
thread, thread CPU time, best of 3), and the kernel against the pure-Python reference on the same races."""

import time

import numpy as np

from analyzer.regatta import reference
from analyzer.regatta import rules as rules_module
from analyzer.regatta.simulation import build_play_range, regatta_job
from kernels.regatta import engine as ke


def races_per_s(players: int, bot: str, games: int, rounds: int = 3) -> tuple[float, float]:
    """(races/s on one core, mean race length in turns)."""
    play = build_play_range(regatta_job(players, [bot], seed=1).spec)
    play(0, np.zeros((ke.N_COLS, 2), np.int32))  # compile / load the cache
    out = np.zeros((ke.N_COLS, games), np.int32)
    best = 0.0
    for _ in range(rounds):
        t0 = time.thread_time()
        play(0, out)
        best = max(best, games / (time.thread_time() - t0))
    return best, float(out[1].mean())


def reference_rate(players: int, games: int) -> float:
    r = rules_module.load()
    t0 = time.thread_time()
    for g in range(games):
        reference.play_random(r, players, 1, g)
    return games / (time.thread_time() - t0)


def main(games: int = 2000, ref_games: int = 20) -> None:
    print("Regatta kernel throughput (races/s on one core; aims: random 100,000, greedy 10,000)")
    print(f"{'bot':8} {'players':>7} {'races/s':>10} {'turns':>7}")
    share = {"random": 1, "greedy": 1, "blocker": 4, "planner": 20, "rollout": 200}  # slower bots: fewer races, once
    for bot, part in share.items():
        for players in (2, 3, 4):
            rate, turns = races_per_s(players, bot, max(games // part, 5), 3 if part < 10 else 1)
            print(f"{bot:8} {players:7d} {rate:10,.0f} {turns:7.1f}")
    for players in (2, 3):
        k, _ = races_per_s(players, "random", games)
        r = reference_rate(players, ref_games)
        print(f"random, {players} players: kernel {k:,.0f} races/s, reference {r:,.1f} races/s, ratio {k / r:,.0f}x")


if __name__ == "__main__":
    main()
