"""Meographic results as figures: per-seat scores and win credit from the result columns, the seat-rotated
comparison of two bots on common random numbers, and a rules variant against a base set on the same seeds.

The result columns are analyzer.meographic.rules.column_names; a tie gives each of the k seats on the top
score a win credit of 1/k, so the credits of a game sum to 1 and the fair share of a seat is 1/players.
"""

from __future__ import annotations

import numpy as np

from analyzer import stats
from analyzer.arms import run_arms
from analyzer.lineup import one_in_each_seat
from analyzer.meographic.rules import RuleSet, column_names
from analyzer.meographic.simulation import meographic_job
from analyzer.runner import RunOptions

SOURCES = ("tile", "adjacency", "mission", "bonus")


def index(rules: RuleSet) -> dict[str, int]:
    return {name: k for k, name in enumerate(column_names(len(rules.missions)))}


def seat_values(cols: np.ndarray, rules: RuleSet, what: str, players: int) -> np.ndarray:
    """[players, games] of column `what`_<seat> ("score", "tile", ..., "win")."""
    col = index(rules)
    return np.stack([cols[col[f"{what}_{s + 1}"]].astype(np.float64) for s in range(players)])


def win_credit(cols: np.ndarray, rules: RuleSet, players: int) -> np.ndarray:
    """[players, games]: 1 for a sole winner, 1/k for each of k seats sharing the top score, else 0."""
    return seat_values(cols, rules, "win", players) / cols[index(rules)["top_seats"]].astype(np.float64)


def mission_rates(cols: np.ndarray, rules: RuleSet) -> list[dict]:
    """Per card: the share of the games it was turned up in where some seat completed it (Wilson 95% CI), and
    its scorings per game turned up."""
    col, out = index(rules), []
    for k, m in enumerate(rules.missions):
        done, shown = cols[col[f"completed_{k + 1}"]].astype(np.int64), cols[col[f"revealed_{k + 1}"]] > 0
        n, hit = int(shown.sum()), int((done[shown] > 0).sum())
        out.append({"id": m.id, "shape": m.shape, "points": m.points, "revealed": n,
                    "completed": hit / n if n else None, "ci95": list(stats.wilson_ci(hit, n)) if n else [None, None],
                    "scorings_per_game": float(done[shown].mean()) if n else None})
    return out


def bag_out(cols: np.ndarray, rules: RuleSet) -> dict:
    """How often the bag ran out (its last tile drawn before the game's end; docs/meographic/rules.md "an empty
    bag"): the share of games (Wilson 95% CI), the earliest and the median round of those games."""
    out = cols[index(rules)["bag_out"]].astype(np.int64)
    n, hit = int(out.size), int((out > 0).sum())
    rounds = out[out > 0]
    return {"share": hit / n if n else None, "ci95": list(stats.wilson_ci(hit, n)) if n else [None, None],
            "games": hit, "first_round": int(rounds.min()) if hit else None,
            "median_round": float(np.median(rounds)) if hit else None}


def seat_jobs(a: str, b: str, players: int, seed: int, rules: RuleSet) -> list[tuple[str, object]]:
    """(label, Job) per seating: solo, a and b each alone; else a in seat s and b in the others, s = 1..N."""
    if players == 1:
        return [(a, meographic_job(1, a, seed, rules)), (b, meographic_job(1, b, seed, rules))]
    return [(f"{a} in seat {s + 1}", meographic_job(players, seating, seed, rules))
            for s, seating in enumerate(one_in_each_seat(a, b, players))]


def rotated(runs: list[np.ndarray], rules: RuleSet, players: int) -> dict:
    """From the seatings' columns (seat_jobs' order): per game, a's score less the mean score of the b seats,
    averaged over the seatings (solo: a's score less b's), and a's win credit averaged over the seatings."""
    if players == 1:
        a_score = seat_values(runs[0], rules, "score", 1)[0]
        b_score = seat_values(runs[1], rules, "score", 1)[0]
        return {"a_score": a_score, "b_score": b_score, "diff": a_score - b_score, "credit": None}
    a_score, b_score, credit = 0.0, 0.0, 0.0
    for s, cols in enumerate(runs):
        scores = seat_values(cols, rules, "score", players)
        others = np.delete(scores, s, axis=0).mean(axis=0)
        a_score, b_score = a_score + scores[s], b_score + others
        credit = credit + win_credit(cols, rules, players)[s]
    a_score, b_score, credit = a_score / players, b_score / players, credit / players
    return {"a_score": a_score, "b_score": b_score, "diff": a_score - b_score, "credit": credit}


def compare_rules(base: RuleSet, variant: RuleSet, players: int, bot: str, games: int, seed: int,
                  options: RunOptions | None = None) -> dict:
    """`bot` in every seat under two rule sets on the same seeds: the variant's mean score per seat less the
    base's, paired game by game (the same bag and card orders where both sets hold as many tiles and cards)."""
    jobs = [(name, meographic_job(players, bot, seed, r)) for name, r in (("base", base), ("variant", variant))]
    runs = [r.columns for r in run_arms(jobs, options or RunOptions.of(games, threads=1))]
    means = [seat_values(c, r, "score", players).mean(axis=0) for c, r in zip(runs, (base, variant))]
    return {"bot": bot, "players": players, "games": int(means[0].size), "base_mean": stats.mean_ci(means[0]),
            "variant_mean": stats.mean_ci(means[1]), "diff": stats.paired_difference(means[1], means[0]),
            "runs": runs}
