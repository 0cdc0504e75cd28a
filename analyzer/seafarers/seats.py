"""`tabletop seafarers seats`: the seat-advantage study, identical bots in every seat on random boards.

One run per scenario and player count (a cell: the play job of analyzer/seafarers/full_game.py with the same bot
in every seat), each sized by --games or by --precision on its worst seat's win-rate CI (the runner's
"categories" statistic: the widest Wilson half-width of the seats' win rates). The base map is played as the
reference unless --no-base. Every figure comes from the runner's streaming aggregates, so --no-per-game runs in
flat memory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from analyzer.errors import UserError
from analyzer.job import Statistic

__all__ = ["SeatsResult", "check_seats", "play_seats", "worst_seat"]

BASE = "base"


def worst_seat(players: int) -> Statistic:
    """What --precision measures: the widest 95% CI half-width of the seats' win rates."""
    from kernels.catan import game as kg

    return Statistic(kg.R_WINNER, "categories", "worst seat's win rate", value=players)


def _player_counts(text) -> list[int]:
    """Player counts from "3,4" (the CLI), or from an int or a list of them (the API)."""
    if isinstance(text, (list, tuple)):
        text = ",".join(str(p) for p in text)
    out = []
    for item in str(text).split(","):
        item = item.strip()
        if not item.isdigit():
            raise UserError(f"--players takes player counts separated by commas (3,4), not '{text}'")
        if int(item) in out:
            raise UserError(f"--players names {item} twice")
        out.append(int(item))
    return out


def check_seats(scenarios, players, bot: str, games: int | None, seed: int, base: bool = True
                ) -> tuple[list[tuple[str, int]], object]:
    """(cells [(scenario, players)] in the order played: the base map first, then the scenarios in catalog order
    ('all') or as named; the bot). A one-line UserError on anything else."""
    from analyzer.seafarers.full_game import check_play
    from analyzer.seafarers.scenarios import scenario_slugs

    counts = _player_counts(players)
    text = ",".join(scenarios) if isinstance(scenarios, (list, tuple)) else str(scenarios).strip()
    if text == "all":
        named = [s for s in scenario_slugs() if s != BASE]
    else:
        named = [s.strip() for s in text.split(",")]
        if any(not s for s in named):
            raise UserError(f"--scenarios: an empty name in '{scenarios}'; give 'all' or slugs separated by commas")
        twice = next((s for s in named if named.count(s) > 1), None)
        if twice:
            raise UserError(f"--scenarios names '{twice}' twice")
    slugs = ([BASE] if base or BASE in named else []) + [s for s in named if s != BASE]
    from analyzer.lineup import one_arm

    bots = [one_arm(bot, "--bot", "bot", "`tabletop seafarers tournament`")]
    arm = None
    for slug in slugs:
        for p in counts:
            arm = check_play(slug, p, bots, games, seed, "random")[0]
    return [(slug, p) for slug in slugs for p in counts], arm


@dataclass(frozen=True)
class SeatsResult:
    summary: dict
    games: pl.DataFrame | None  # one row per scenario, player count and game (None: a --no-per-game run)


def play_seats(scenarios: str = "all", players: str = "3,4", bot: str = "value", games: int | None = None,
               seed: int = 0, base: bool = True, rules_file=None, command: str = "", rule=None, **run) -> SeatsResult:
    """Every cell's games by `bot` in every seat; the summary (per cell each seat's win rate with its Wilson CI
    and its difference from a fair seat's and from the base map's) and the per-game table."""
    from analyzer.arms import arms_run_info, run_arms
    from analyzer.runner import RunOptions, check_table_memory
    from analyzer.seafarers.full_game import play_job
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario
    from kernels.catan import game as kg

    cells, arm = check_seats(scenarios, players, bot, games, seed, base)
    text, rules = rules_for(rules_file, rule, [load_scenario(slug, p) for slug, p in cells])
    rules_name = rules.source
    options = RunOptions(games=games, label="games", **run).checked(default_games=1000)
    if options.per_game:  # every cell's columns are held until the last cell is played
        check_table_memory(options.games or options.max_games, kg.N_RESULT_COLS, 4,
                           "--games" if options.precision is None else "--max-games", tables=len(cells))
    jobs = [(f"{slug} {p} players", replace(play_job(slug, p, [arm] * p, seed, "random", text, rule),
                                            statistic=worst_seat(p))) for slug, p in cells]
    t0 = time.perf_counter()
    runs = run_arms(jobs, options, aggregate=True, paired=False)
    wall = time.perf_counter() - t0
    table = None
    if options.per_game:
        table = pl.concat([cell_table(r.columns, slug, p) for r, (slug, p) in zip(runs, cells)])
    summary = summarize(cells, arm, runs, seed, base, rules, rules_name, arms_run_info(runs), wall, command)
    return SeatsResult(summary, table)


def cell_table(cols: np.ndarray, slug: str, players: int) -> pl.DataFrame:
    from kernels.catan import game as kg

    n = cols.shape[1]
    return pl.DataFrame({"scenario": [slug] * n, "players": np.full(n, players, np.int8),
                         "game": np.arange(n, dtype=np.int64), "winner": (cols[kg.R_WINNER] + 1).astype(np.int8),
                         "rolls": cols[kg.R_ROLLS].astype(np.int32), "turns": cols[kg.R_TURNS].astype(np.int32),
                         "capped": cols[kg.R_CAPPED] == 1})


def cell_summary(slug: str, players: int, run) -> dict:
    """One cell from its run's streaming aggregate: each seat's wins, win rate (Wilson CI), its difference from a
    fair seat's share, mean VP; game length; capped games; how the run stopped."""
    from analyzer.seafarers.full_game import Pooled
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.stats import mean_ci_counts, wilson_ci
    from kernels.catan import game as kg

    s = load_scenario(slug, players)
    pool = Pooled([run.aggregate])
    n = run.aggregate.games
    fair = 1 / players
    seats = []
    for seat in range(players):
        wins = pool.count([(0, kg.R_WINNER)], seat)
        lo, hi = wilson_ci(wins, n)
        seats.append({"seat": seat + 1, "wins": wins, "p_win": wins / n, "ci95": [lo, hi],
                      "advantage": wins / n - fair, "advantage_ci95": [lo - fair, hi - fair],
                      "vp": pool.mean(pool.seat(seat, "vp"))})
    capped = pool.count(pool.every_run(kg.R_CAPPED), 1)
    info = run.info
    return {"scenario": slug, "name": s.name, "players": players, "vp_target": s.victory.target, "games": n,
            "fair_share": fair, "seats": seats,
            "half_width": max((x["ci95"][1] - x["ci95"][0]) / 2 for x in seats),
            "rolls": mean_ci_counts(*pool.histogram(pool.every_run(kg.R_ROLLS))),
            "capped": {"games": capped, "share": capped / n},
            "stopped": info["stopped"], "wall_seconds": round(run.wall, 3),
            "games_per_second": n / run.wall if run.wall > 0 else None}


def against_base(cells: list[dict]) -> None:
    """Each cell's seats against the base map's at the same player count: the difference of win rates with
    Newcombe's interval for independent samples (the cells play different games)."""
    from analyzer.stats import share_difference_ci

    base = {c["players"]: c for c in cells if c["scenario"] == BASE}
    for c in cells:
        ref = base.get(c["players"])
        if ref is None or c is ref:
            continue
        for seat, other in zip(c["seats"], ref["seats"]):
            seat["vs_base"] = {"difference": seat["p_win"] - other["p_win"],
                               "ci95": list(share_difference_ci(seat["wins"], c["games"], other["wins"],
                                                                ref["games"]))}


def summarize(cells: list[tuple[str, int]], arm, runs: list, seed: int, base: bool, rules,
              rules_name: str, run_info: dict, wall: float, command: str) -> dict:
    from analyzer.provenance import provenance
    from analyzer.seafarers.bots import bot_name

    figures = [cell_summary(slug, p, r) for (slug, p), r in zip(cells, runs)]
    against_base(figures)
    played = sum(c["games"] for c in figures)
    summary = provenance("seafarers", seed, command, assumptions(arm, rules, rules_name, figures))
    summary.update({
        "experiment": "seafarers seats", "bot": {"label": bot_name(arm), "spec": arm.label,
                                                  "about": arm.spec.description},
        "cells": figures, "base": any(c["scenario"] == BASE for c in figures),
        "games_played": played, "rules": rules_name, "rules_data": rules.data_file(),
        "rule_options": dict(rules.chosen), "turn_cap": rules.turn_cap,
        "games_per_second": played / wall if wall > 0 else None, "wall_seconds": wall, "run": run_info,
    })
    return summary


def assumptions(arm, rules, rules_name: str, cells: list[dict]) -> list[str]:
    from analyzer.seafarers.bots import bot_name
    from analyzer.seafarers.full_game import option_texts
    from analyzer.seafarers.scenarios import load_scenario

    return [rules.describe() + " The defaults where the Seafarers rulebook is silent: docs/seafarers/full_game.md.",
           *option_texts(rules, [load_scenario(c["scenario"], c["players"]) for c in cells]),
           f"Bots: {bot_name(arm)} in every seat ({arm.spec.description}). Seat win rates say how the seats fare "
           "under these bots, not under human play.",
           "Boards: game g of each scenario and player count is played on board g of the seed, a random legal board "
           "of the scenario's variable set-up; every seat's win rate has a Wilson 95% CI (one seat of each game "
           "wins, or none when the turn cap stops it).",
           "Against the base map: a scenario's seat win rate minus the base map's at the same player count, with "
           "Newcombe's interval for independent samples (method 10)."]
