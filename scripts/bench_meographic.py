"""Cational Meographic benchmarks (`scripts/bench.py --meographic`): games/s per core for each bot and player
count (one thread, thread CPU time, best of 3), and the kernel against the pure-Python reference on the same
games (greedy solo)."""

import time

import numpy as np

from analyzer.meographic import reference
from analyzer.meographic.rules import default_rules
from analyzer.meographic.simulation import game_spec, job_of, play_range_for_spec


def games_per_s(players: int, bot: str, games: int, rounds: int = 3) -> tuple[float, float]:
    """(games/s on one core, mean score of seat 1)."""
    spec = game_spec(default_rules(), players, bot, seed=1)
    play = play_range_for_spec(spec)
    n_cols = job_of(spec).n_cols
    play(0, np.zeros((n_cols, 2), np.int16))  # compile / load the cache
    out = np.zeros((n_cols, games), np.int16)
    best = 0.0
    for _ in range(rounds):
        t0 = time.thread_time()
        play(0, out)
        best = max(best, games / (time.thread_time() - t0))
    return best, float(out[0].mean())


def reference_rate(players: int, games: int) -> float:
    rules = default_rules()
    t0 = time.thread_time()
    for g in range(games):
        reference.play(rules, players, 1, g, reference.greedy_choice(rules))
    return games / (time.thread_time() - t0)


def main(games: int = 20_000, ref_games: int = 10) -> None:
    print("Cational Meographic kernel throughput (games/s on one core; aim: greedy solo 50,000)")
    print(f"{'bot':8} {'players':>7} {'games/s':>10} {'score 1':>8}")
    for bot in ("random", "greedy", "planner", "rollout"):
        for players in (1, 2, 4):
            n = {"planner": games // 10, "rollout": games // 100}.get(bot, games)
            rate, score = games_per_s(players, bot, n // players)
            print(f"{bot:8} {players:7d} {rate:10,.0f} {score:8.1f}")
    k, _ = games_per_s(1, "greedy", games)
    r = reference_rate(1, ref_games)
    print(f"greedy, solo: kernel {k:,.0f} games/s, reference {r:,.2f} games/s, ratio {k / r:,.0f}x")


if __name__ == "__main__":
    main()
