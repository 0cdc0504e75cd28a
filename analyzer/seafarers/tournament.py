"""`tabletop seafarers tournament`: bots (entrants) compared by winning full games, every game once per seating.

Game g of every seating is played on board g of the seed with the dice, deck and steals of (seed, g) (the play
jobs of analyzer/seafarers/full_game.py, one per seating: common random numbers), so board and seat luck cancel
in the paired comparison. The seatings (analyzer.lineup.seatings; docs/seafarers/experiments.md):

- every ordering of the entrants when there are at most MAX_ARMS (16) of them, else the rows of a balanced
  Latin square (Williams 1949: each entrant once in each seat, and directly before each other entrant equally
  often);
- with fewer entrants than seats, an ordering is repeated round the table (entrants A, B at 4 players: A, B, A,
  B), so every entrant sits in every seat equally often over the seatings; with more entrants than seats, the
  first P of each ordering play.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.errors import UserError
from analyzer.lineup import seatings, split_arms, williams_square

__all__ = ["MAX_ENTRANTS", "TournamentResult", "check_tournament", "play_tournament", "seatings", "tournament_jobs",
           "williams_square"]

MAX_ENTRANTS = 8  # a Williams square of 8 entrants has 8 rows; of 7, 14: both within the arms one run plays


def check_tournament(scenario: str, players: int, entrants: str | list[str], games: int | None, seed: int,
                     boards: str) -> list:
    """The entrants' parsed bots; a one-line UserError on anything a tournament cannot be played with."""
    from analyzer.seafarers.bots import bot_name, parse_bot
    from analyzer.seafarers.full_game import check_play

    names = split_arms(entrants, "--entrants", "bot")
    if len(names) < 2:
        raise UserError(f"--entrants names {len(names)} bot: a tournament needs at least 2 (to watch one bot in "
                        "every seat, use `tabletop seafarers play`)")
    if len(names) > MAX_ENTRANTS:
        raise UserError(f"--entrants names {len(names)} bots, more than the {MAX_ENTRANTS} one tournament plays "
                        "(every two are compared); run smaller groups")
    check_play(scenario, players, names[:1], games, seed, boards)  # the scenario, sizes, seed and boards
    arms = [parse_bot(name) for name in names]
    seen: dict[str, str] = {}
    for name, arm in zip(names, arms):
        key = arm.label
        if key in seen:
            same = f"'{seen[key]}' and '{name}' are" if seen[key] != name else f"'{name}' is"
            raise UserError(f"--entrants: {same} the same bot ({bot_name(arm)}); name each entrant once")
        seen[key] = name
    return arms


@dataclass(frozen=True)
class TournamentResult:
    summary: dict
    games: pl.DataFrame  # one row per game, seating and seat


def play_tournament(scenario: str, players: int, entrants: str | list[str], games: int, seed: int,
                    boards: str = "random", rules_file=None, command: str = "", rule=None, **run) -> TournamentResult:
    """Play `games` games once per seating of the entrants (common random numbers); the summary (per entrant: win
    rate, mean VP, mean rolls to win, Bradley-Terry strength, with CIs; every pair's paired difference) and the
    per-game table."""
    from analyzer.arms import arms_run_info, run_arms
    from analyzer.runner import RunOptions, check_table_memory
    from analyzer.seafarers.full_rules import rules_for
    from analyzer.seafarers.scenarios import load_scenario
    from kernels.catan import game as kg

    arms = check_tournament(scenario, players, entrants, games, seed, boards)
    labels = split_arms(entrants, "--entrants", "bot")  # (as check_tournament read them)
    text, rules = rules_for(rules_file, rule, [load_scenario(scenario, players)])
    rules_name = rules.source
    options = RunOptions(games=games, label="games", **run).checked(default_games=1000)
    plan, how, jobs = tournament_jobs(scenario, players, arms, seed, boards, text, rule)
    # the runner's columns and the per-game table (about as large again) of every seating, held together
    check_table_memory(options.games, kg.N_RESULT_COLS, 4, tables=2 * len(plan),
                       instead="ask for fewer games (every seating keeps every game's result for the pairing)")
    t0 = time.perf_counter()
    runs = run_arms(jobs, options)
    wall = time.perf_counter() - t0
    table = pl.concat([seating_table(r.columns, [arms[e] for e in seating], [labels[e] for e in seating], j + 1)
                       for j, (r, seating) in enumerate(zip(runs, plan))]).sort(["game", "seating", "seat"])
    summary = summarize(scenario, players, labels, arms, plan, how, seed, boards, rules, rules_name, table,
                        arms_run_info(runs), wall, command)
    return TournamentResult(summary, table)


def tournament_jobs(scenario: str, players: int, arms: list, seed: int, boards: str, rules_text: str, rule=None
                    ) -> tuple[list[tuple[int, ...]], str, list]:
    """(seatings, how they were chosen, [(label, play Job)] one per seating): the same seed, so game g of every
    seating is dealt the same board, dice and deck."""
    from analyzer.seafarers.full_game import play_job

    plan, how = seatings(len(arms), players)
    return plan, how, [(f"seating {j + 1}", play_job(scenario, players, [arms[e] for e in seating], seed, boards,
                                                     rules_text, rule)) for j, seating in enumerate(plan)]


def seating_table(cols: np.ndarray, seated_arms: list, seated: list[str], seating: int) -> pl.DataFrame:
    """play's per-game table of one seating (full_game.games_table), each seat's entrant by the name given."""
    from analyzer.seafarers.full_game import games_table

    t = games_table(cols, len(seated), seated_arms)
    entrant = pl.Series("entrant", np.repeat(np.array(seated, dtype=object), cols.shape[1]).tolist(), pl.String)
    return (t.drop(["rotation", "bot"]).insert_column(1, pl.Series("seating", np.full(t.height, seating, np.int8)))
            .insert_column(3, entrant))


def entrant_figures(rows: pl.DataFrame) -> dict:
    """One entrant's seat-games: win rate (clustered by game), mean VP, mean rolls of the games it won."""
    from analyzer.seafarers.full_game import _share
    from analyzer.stats import clustered_mean_ci

    won = rows.filter(pl.col("won"))
    return {**_share(rows),
            "vp": clustered_mean_ci(rows["vp"].to_numpy(), rows["game"].to_numpy(), support=(0, None)),
            "rolls_to_win": clustered_mean_ci(won["rolls"].to_numpy(), won["game"].to_numpy(), support=(0, None))
            if won.height else None,
            "by_seat": [{"seat": s, **_wilson(rows.filter(pl.col("seat") == s))}
                        for s in sorted(rows["seat"].unique().to_list())]}


def _wilson(rows: pl.DataFrame) -> dict:
    from analyzer.stats import wilson_ci

    wins = int(rows["won"].sum())
    return {"seat_games": rows.height, "wins": wins, "p_win": wins / rows.height,
            "ci95": list(wilson_ci(wins, rows.height))}


def strengths(table: pl.DataFrame, labels: list[str], plan: list[tuple[int, ...]]) -> dict:
    """Bradley-Terry strengths from every game and seating with a winner: a contest in which each entrant holds
    as many places as seats (analyzer.stats.bradley_terry), clustered by game. An entrant that never won has
    strength 0 (the likelihood's maximum as its strength goes to 0: the others' fit without it), and the others
    are fitted among themselves."""
    from analyzer.stats import bradley_terry

    first = table.filter(pl.col("seat") == 1).sort(["game", "seating"])  # one row per game and seating
    winner_seat = first["winner"].to_numpy().astype(np.int64)  # 1-based; 0: nobody won
    seating = first["seating"].to_numpy().astype(np.int64) - 1
    winners = np.where(winner_seat > 0, np.array(plan)[seating, np.maximum(winner_seat - 1, 0)], -1)
    never = [k for k in range(len(labels)) if not np.any(winners == k)]
    kept = [k for k in range(len(labels)) if k not in never]
    if len(kept) < 2:
        return {"estimable": False, "contests": int(np.sum(winners >= 0)),
                "reason": "fewer than two entrants won a game"}
    fields = np.array([np.bincount(seating, minlength=len(labels)) for seating in plan], np.int64)[:, kept]
    renumber = np.full(len(labels) + 1, -1)
    renumber[kept] = np.arange(len(kept))
    fit = bradley_terry(renumber[winners], fields[seating], first["game"].to_numpy())
    if not fit["estimable"]:
        k = kept[int(fit["reason"].split()[1])] if fit["reason"].startswith("entrant ") else None
        if k is not None:
            fit["reason"] = f"{labels[k]} " + fit["reason"].split(" ", 2)[2]
        return fit
    fit["entrants"] = {labels[k]: {"log_strength": fit["log_strength"][i], "strength": fit["strength"][i],
                                   "se": fit["se"][i], "ci95": fit["ci95"][i]} for i, k in enumerate(kept)}
    fit["never_won"] = [labels[k] for k in never]
    for k in never:
        fit["entrants"][labels[k]] = {"log_strength": None, "strength": 0.0, "se": None, "ci95": [0.0, None]}
    fit["entrants"] = {label: fit["entrants"][label] for label in labels}
    return fit


def pair_sentence(d: dict, where: str) -> str:
    """`a` wins X points more often than `b` (95% CI ...) on <scenario> with P players: the better first."""
    from reports.document import points_range

    lo, hi = d["ci95"]
    first, second, diff = d["a"], d["b"], d["mean_diff"]
    if diff < 0:
        first, second, diff = second, first, -diff
        lo, hi = (None, None) if lo is None else (-hi, -lo)
    ci = "no interval: every game alike" if lo is None else f"95% CI {points_range([lo, hi])}"
    if diff == 0:
        return f"`{first}` and `{second}` win equally often ({ci}) {where}."
    verdict = "" if lo is None or lo > 0 else "; the interval holds 0, so no measurable difference"
    return f"`{first}` wins {100 * diff:.1f} points more often than `{second}` ({ci}) {where}{verdict}."


def summarize(scenario: str, players: int, labels: list[str], arms: list, plan: list[tuple[int, ...]], how: str,
              seed: int, boards: str, rules, rules_name: str, table: pl.DataFrame, run_info: dict, wall: float,
              command: str) -> dict:
    from analyzer.provenance import provenance
    from analyzer.seafarers.bots import bot_name
    from analyzer.seafarers.full_game import bot_differences
    from analyzer.seafarers.scenarios import load_scenario
    from analyzer.stats import mean_ci, wilson_ci

    s = load_scenario(scenario, players)
    games = int(table["game"].n_unique())
    where = f"on {s.name} with {players} players"
    per_entrant = {label: entrant_figures(table.filter(pl.col("entrant") == label)) for label in labels}
    pairs = bot_differences(table.rename({"entrant": "bot"}), labels)
    for d in pairs.values():
        d["sentence"] = pair_sentence(d, where)
    first = table.filter(pl.col("seat") == 1)
    capped = int(first["capped"].sum())
    summary = provenance("seafarers", seed, command, assumptions(s, arms, labels, boards, rules, rules_name, how))
    summary.update({
        "experiment": "seafarers tournament",
        "scenario": {"slug": s.slug, "name": s.name, "players": players, "vp_target": s.victory.target},
        "games": games, "seatings": [[labels[e] for e in seating] for seating in plan], "seating_plan": how,
        "games_played": games * len(plan), "boards": boards, "rules": rules_name, "rules_data": rules.data_file(),
        "rule_options": dict(rules.chosen), "fair_share": 1 / players,
        "entrants": [{"label": label, "bot": bot_name(arm), "spec": arm.label, "fair": arm.spec.fair,
                      "about": arm.spec.description} for label, arm in zip(labels, arms)],
        "by_entrant": per_entrant, "pairs": pairs, "bradley_terry": strengths(table, labels, plan),
        "capped": {"games": capped, "share": capped / first.height, "ci95": list(wilson_ci(capped, first.height))},
        "rolls": mean_ci(first["rolls"].to_numpy(), support=(0, None)),
        "turn_cap": rules.turn_cap,
        "games_per_second": first.height / wall if wall > 0 else None, "wall_seconds": wall, "run": run_info,
    })
    summary["strongest"] = strongest(summary)
    return summary


def strongest(summary: dict) -> dict:
    """The entrant with the highest win rate, the runner-up, and their paired difference (the better first)."""
    by = summary["by_entrant"]
    order = sorted(by, key=lambda k: -by[k]["p_win"])
    best, second = order[0], order[1]
    d = summary["pairs"].get(f"{best} vs {second}")
    if d is None:
        d = summary["pairs"][f"{second} vs {best}"]
        lo, hi = d["ci95"]
        d = {**d, "a": best, "b": second, "mean_diff": -d["mean_diff"],
             "ci95": [None, None] if lo is None else [-hi, -lo]}
    alike = d["ci95"][0] is None  # every game gave the same difference: no interval, nothing left to chance here
    return {"label": best, "runner_up": second, "difference": d["mean_diff"], "ci95": d["ci95"],
            "clear": d["mean_diff"] > 0 if alike else d["ci95"][0] > 0, "alike": alike}


def assumptions(s, arms: list, labels: list[str], boards: str, rules, rules_name: str, how: str) -> list[str]:
    """play's assumptions (rules, defaults, boards, scenario) with the tournament's seats and entrants."""
    from analyzer.seafarers.full_game import assumptions as play_assumptions

    kept = [a for a in play_assumptions(s, arms, boards, rules, rules_name, True)
            if not a.startswith(("Bots:", "Seats:"))]
    kinds: dict[str, list[str]] = {}
    for label, a in zip(labels, arms):
        kinds.setdefault(a.spec.description, []).append(label)
    return kept + [
        "Entrants: " + "; ".join(f"{', '.join(names)} ({about})" for about, names in kinds.items())
        + ". Win rates say how the entrants fare against each other under these bots, not under human play.",
        f"Seatings: {how}. Every game is played once per seating on the same board, dice, deck and steals (common "
        "random numbers); win-rate CIs are clustered by game; a pair's difference is the per-game difference of "
        "their win rates over the seat-games each played in that game's seatings (Student t over games).",
        "Bradley-Terry strengths: each seating of a game is a contest in which an entrant holds as many chances as "
        "seats, scaled by its strength (Luce's choice model); maximum likelihood, sandwich CIs clustered by game; "
        "games without a winner are left out."]
