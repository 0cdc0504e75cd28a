"""The Python API of Cational Meographic, with the conventions of analyzer/regatta/api.py: `simulate(...)` and
`compare(...)` take the options of `tabletop meographic simulate|compare` as keywords, refuse a bad one before any
game (one UserError naming the argument: a wrong type, an unknown keyword, a value out of range), return (summary,
games table, headline), and with `out=FOLDER` write what `--out` writes.

    >>> from analyzer import meographic
    >>> c = meographic.compare(players=2, bots="planner,greedy", games=500, seed=1, out="runs/meo-compare")
    >>> c.summary["diff"]["mean_diff"], c.games.filter(c.games["seat_of_a"] == 1)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.arms import arms_run_info, run_arms
from analyzer.command import api_out_dir, results_folder, write_summary
from analyzer.errors import UserError
from analyzer.io import atomic_write_parquet
from analyzer.lineup import split_arms
from analyzer.meographic import analysis
from analyzer.meographic.bots import BOTS
from analyzer.meographic.rules import RuleSet, column_names, load_rules
from analyzer.meographic.simulation import check_players, meographic_job, replay
from analyzer.params import check_seed, check_whole
from analyzer.provenance import provenance
from analyzer.runner import fixed_games
from reports.document import ci_range, num, pct, reproduce_blocks

__all__ = ["SimulationResult", "CompareResult", "simulate", "compare"]

DEFAULT_SIMULATE_GAMES, DEFAULT_COMPARE_GAMES = 10_000, 2_000


@dataclass
class SimulationResult:
    summary: dict  # what summary.json holds (less "experiment", which only the file names)
    games: pl.DataFrame  # one row per game: every seat's score, points by source and win, the mission cards
    headline: str  # the report's first line, as the command prints it
    columns: np.ndarray = field(repr=False)  # the kernel's result columns [column, game]


@dataclass
class CompareResult:
    summary: dict
    games: pl.DataFrame  # every seating's games (column seat_of_a; solo: bot), or each rule set's (variant: 0, 1)
    headline: str


ENGINE_ASSUMPTIONS = ["the first tile goes to the centre of a 41 x 41 area (no rule sees where)",
                      "bots see the piles, the mission row, their own area and tiles and the public counts, never "
                      "the bag's order"]


def _assumptions(players: int, *rule_sets: RuleSet) -> list[str]:
    """The assumptions of the rule sets in force (their data, switches and what applies to `players`)."""
    seen = []
    for r in rule_sets:
        seen += [a for a in r.assumptions(players) if a not in seen]
    return ["the landscape types, the tiles' types and points, the mission shapes and points and the mission "
            "row's geometry are reconstructions (the Cational Meographic rulebook gives only 100 tiles and 15 "
            "cards): analyzer/meographic/data, docs/meographic/rules.md", *seen, *ENGINE_ASSUMPTIONS]


def _table(cols: np.ndarray, rules: RuleSet, players: int) -> pl.DataFrame:
    """One row per game: the columns of the seats that play (the kernel's rows hold four seats)."""
    index = {name: k for k, name in enumerate(column_names(len(rules.missions)))}
    frame = {"game": pl.Series(np.arange(cols.shape[1]), dtype=pl.Int64)}
    return pl.DataFrame(frame | {name: pl.Series(cols[index[name]], dtype=pl.Int16)
                                 for name in column_names(len(rules.missions), players)})


def _path_arg(name: str, value) -> None:
    """None or a file path (a text or os.PathLike): an int would be read as a file descriptor and closed."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (str, os.PathLike)):
        raise UserError(f"{name} must be a file or folder path (a text or a path), got {type(value).__name__} "
                        f"{value!r}")
    if not str(os.fspath(value)).strip():
        raise UserError(f"{name}: an empty path; give a file or folder name")


def _check_args(command: str, players, bots, games, seed, rules, rule, out, line, run, variant=None) -> None:
    """Every argument of simulate/compare, before anything is read or played: one UserError naming it."""
    check_players(players)
    check_seed(seed)
    if games is not None:
        check_whole("--games", games)
    split_arms(bots, "--bots", "bot")  # (its type and its names' commas)
    for name, value in (("--rules", rules), ("--variant", variant), ("out", out)):
        _path_arg(name, value)
    ok_rule = rule is None or isinstance(rule, str) or (
        isinstance(rule, (list, tuple)) and all(isinstance(x, str) for x in rule)) or (
        isinstance(rule, dict) and all(isinstance(k, str) for k in rule))
    if not ok_rule:
        raise UserError(f"--rule must be \"NAME=VALUE\", a list of such texts or {{NAME: True/False}}, got "
                        f"{type(rule).__name__} {rule!r}")
    if line is not None and not isinstance(line, str):
        raise UserError(f"command must be a text (the command line to record), got {type(line).__name__} {line!r}")
    _path_arg("--checkpoint", run.get("checkpoint"))
    if run.get("scheduler") is not None and not isinstance(run["scheduler"], str):
        raise UserError(f"--scheduler must be a text (an address), got {type(run['scheduler']).__name__}")
    fixed_games(games, 1, command, **run)  # (unknown keywords and the runner's values)


def _ci(summary: dict, digits: int = 1, scale: float = 1.0) -> str:
    lo, hi = summary["ci95"]
    return "no CI" if lo is None else f"95% CI {num(scale * lo, digits)} to {num(scale * hi, digits)}"


def _seat_rows(cols, rules, players, names) -> list[dict]:
    credit = analysis.win_credit(cols, rules, players)
    scores = analysis.seat_values(cols, rules, "score", players)
    rows = []
    for s in range(players):
        win = stats.mean_ci(credit[s], support=stats.SHARE)
        lo, hi = win["ci95"] if win["ci95"][0] is not None else (win["mean"], win["mean"])
        rows.append({"seat": s + 1, "name": names[s], "win": win["mean"], "ci95": [lo, hi],
                     "score": stats.mean_ci(scores[s])})
    return rows


def _sources(cols, rules, players, seats: list[list[int]]) -> np.ndarray:
    """Mean points per game by source for each group of seats ([group, source])."""
    parts = np.stack([analysis.seat_values(cols, rules, what, players) for what in analysis.SOURCES])
    return np.array([[parts[k, group].mean() for k in range(4)] for group in seats])


def _best_game(spec: dict, cols: np.ndarray, rules: RuleSet, players: int):
    """(game, seat, score, final state) of the highest score of any seat (the first such game)."""
    scores = analysis.seat_values(cols, rules, "score", players)
    seat, game = np.unravel_index(int(np.argmax(scores)), scores.shape)
    _, _, state = replay(spec, int(game))
    return int(game), int(seat), int(scores[seat, game]), state


def _area_png(stage: Path, best: dict, state, rules: RuleSet, label: str) -> None:
    from kernels.meographic.engine import GP
    from reports.meographic.report import area_figure

    seat = best["seat"] - 1
    area_figure(state.btype[seat].reshape(GP, GP), state.bpts[seat].reshape(GP, GP), list(rules.type_names),
                f"Best game: game {best['game']:,}, seat {best['seat']} ({label}), {best['score']} points",
                stage / "best_area.png")


def _distribution(groups: dict) -> list[dict]:
    """Per group of scores: mean with its 95% CI, sd, the 5/25/50/75/95th percentiles, lowest and highest."""
    rows = []
    for name, x in groups.items():
        m = stats.mean_ci(x)
        rows.append({"group": name, "games": int(x.size), "mean": m["mean"], "ci95": m["ci95"], "sd": m["std"],
                     **stats.percentiles(x), "min": int(x.min()), "max": int(x.max())})
    return rows


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _switches(rules: RuleSet) -> str:
    return ", ".join(f"{k}={str(v).lower()}" for k, v in rules.values.items())


def _bag_sentence(bag: dict) -> str:
    """The empty-bag default, with how often it applied."""
    if not bag["games"]:
        return "The bag never ran out in these games."
    return (f"The bag ran out in {pct(bag['share'])} of the games (95% CI {pct(bag['ci95'][0])} to "
            f"{pct(bag['ci95'][1])}), from round {bag['first_round']} (median round {num(bag['median_round'], 0)}); "
            "the rulebook never says it runs out. Then fewer than 3 piles stand and no blind draw is offered; with "
            "no pile and no bag a player takes nothing, and one holding no tile takes no photo (a default: "
            "docs/meographic/rules.md, \"an empty bag\").")


def _distribution_table(rows: list[dict]) -> tuple:
    head = ["scores of", "values (seat-games)", "mean (points)", "95% CI (points)", "sd (points)", "5% (points)",
            "25% (points)", "median (points)", "75% (points)", "95% (points)", "min (points)", "max (points)"]
    body = [[r["group"], f"{r['games']:,}", num(r["mean"], 1), ci_range(r["ci95"], 1), num(r["sd"], 1),
             *(num(r[q], 0) for q in ("p5", "p25", "p50", "p75", "p95")), r["min"], r["max"]] for r in rows]
    return ("table", head, body, ["l"] + ["r"] * 11)


def _short(label: str) -> str:
    return BOTS.parse(label).short_label


def simulate(players: int = 1, bots: str | list[str] = "greedy", games: int | None = None, seed: int = 1,
             rules=None, rule=None, out=None, command: str | None = None, **run) -> SimulationResult:
    """Games of the given bots (`tabletop meographic simulate`): scores per seat and per bot, points by source,
    mission cards completed, seat win shares with 95% CIs, the best game. With ``out`` (a folder) also writes
    what ``--out`` writes: games.parquet, summary.json, report.md/.html and the figures (the best game's area).

    ``players``: 1 (the solo game) to 4; ``bots``: one bot for every seat or one per seat, as "a,b,..." or a
    list (name:key=value, analyzer/meographic/bots.py); ``games``: default 10,000; ``seed``: default 1, 0 to
    2**63-1; ``rules``: a TOML rules file ([[types]] with [[tiles]], and/or [[missions]]) replacing those parts
    of the defaults; ``rule``: switches of the rules' [options] ("card_scores_once=false", a list of such
    texts, or {name: bool}); ``command``: the command line to record in the summary; ``run``: the runner's
    threads, chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_args("meographic simulate", players, bots, games, seed, rules, rule, out, command, run)
    rule_set = load_rules(rules, rule)
    job = meographic_job(players, bots, seed, rule_set)
    options = fixed_games(games, DEFAULT_SIMULATE_GAMES, "meographic simulate", **run)
    out = api_out_dir(out, "meographic simulate")  # (every input checked before any game)
    played = run_arms([("games", job)], options)[0]
    cols = played.columns
    labels = job.spec["bots"]
    short = [_short(b) for b in labels]
    names = [f"seat {s + 1} ({short[s]})" if len(set(labels)) > 1 else f"seat {s + 1}" for s in range(players)]
    seat = _seat_rows(cols, rule_set, players, names)
    scores = analysis.seat_values(cols, rule_set, "score", players)
    mean = stats.mean_ci(scores.mean(axis=0))
    bot_names = list(dict.fromkeys(short))
    by_bot = {b: scores[[s for s in range(players) if short[s] == b]].ravel() for b in bot_names}
    rates = analysis.mission_rates(cols, rule_set)
    bag = analysis.bag_out(cols, rule_set)
    groups = {n: scores[s] for s, n in enumerate(names)}
    if players > 1:
        groups |= {f"{b} (its seats)" if len(bot_names) > 1 else "every seat": v for b, v in by_bot.items()}
    distribution = _distribution(groups)
    if players == 1:
        headline = (f"{short[0]} scores {num(mean['mean'], 1)} points per solo game on average "
                    f"({_ci(mean)}, {cols.shape[1]:,} games)")
    else:
        s1 = seat[0]
        who = (f"With {short[0]} in every seat, seat 1" if len(set(labels)) == 1 else
               f"Seat 1 ({short[0]}; {'seat 2' if players == 2 else f'seats 2-{players}'}: {', '.join(short[1:])})")
        headline = (f"{who} wins {pct(s1['win'])} of {players}-player games (95% CI "
                    f"{pct(s1['ci95'][0])} to {pct(s1['ci95'][1])}; fair share {pct(1 / players)}); a seat scores "
                    f"{num(mean['mean'], 1)} points on average ({_ci(mean)}, {cols.shape[1]:,} games)")
    summary = provenance("meographic", seed, command, _assumptions(players, rule_set)) | {
        "players": players, "bots": labels, "games": int(cols.shape[1]), "rules": rule_set.name,
        "rules_data": rule_set.rules_data, "rules_sha256": rule_set.sha256, "rule_options": rule_set.values,
        "mean_score": mean, "bag_out": bag,
        "bot_score": {b: stats.mean_ci(v) for b, v in by_bot.items()}, "seat": seat,
        "sources": dict(zip(analysis.SOURCES, _sources(cols, rule_set, players, [list(range(players))])[0].tolist())),
        "missions": rates, "distribution": distribution, "run": arms_run_info([played]), "headline": headline}
    game, best_seat, score, state = _best_game(job.spec, cols, rule_set, players)
    summary["best_game"] = {"game": game, "seat": best_seat + 1, "score": score}
    result = SimulationResult(summary, _table(cols, rule_set, players), headline, cols)
    if out is not None:
        _write_simulation(out, result, rule_set, names, short, scores, by_bot, state)
    return result


def _write_simulation(out: Path, result: SimulationResult, rule_set: RuleSet, names: list[str], short: list[str],
                      scores: np.ndarray, by_bot: dict, best_state) -> None:
    from reports.meographic import report

    summary, cols = result.summary, result.columns
    players, seat, rates = summary["players"], summary["seat"], summary["missions"]
    bot_names = list(by_bot)
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        figures = [("Score distribution per seat", report.score_histograms(
            {n: scores[s] for s, n in enumerate(names)}, "Final scores per seat", stage / "scores_by_seat.png").name)]
        several = len(bot_names) > 1 and len(bot_names) < players  # (one seat each: the seats' figures say it)
        if several:
            figures.append(("Score distribution per bot", report.score_histograms(
                by_bot, "Final scores per bot (all its seats)", stage / "scores_by_bot.png").name))
        groups = [[s] for s in range(players)] + ([[s for s in range(players) if short[s] == b] for b in bot_names]
                                                  if several else [])
        group_names = names + ([f"{b} (its seats)" for b in bot_names] if several else [])
        figures.append(("Points by source", report.sources_figure(
            group_names, _sources(cols, rule_set, players, groups), stage / "sources.png").name))
        figures.append(("Mission cards completed", report.missions_figure(rates, stage / "missions.png").name))
        if players > 1:
            figures.append(("Win share per seat", report.seat_figure(seat, stage / "seat_win.png").name))
        best = summary["best_game"]
        _area_png(stage, best, best_state, rule_set, short[best["seat"] - 1])
        figures.append(("The best game's area", "best_area.png"))
        write_summary(stage, summary, "meographic simulate")
        rows = [[s["name"], num(s["score"]["mean"], 1), ci_range(s["score"]["ci95"], 1),
                 pct(s["win"]) if players > 1 else "—",
                 f"{pct(s['ci95'][0])} to {pct(s['ci95'][1])}" if players > 1 else "—"] for s in seat]
        mission_rows = [[r["id"], r["shape"], r["points"], f"{r['revealed']:,}",
                         pct(r["completed"]) if r["revealed"] else "—",
                         num(r["scorings_per_game"], 2) if r["revealed"] else "—"] for r in rates]
        sections = [("p", f"{cols.shape[1]:,} games of {players} player{'s' if players > 1 else ''}, bots "
                          f"{', '.join(summary['bots'])}, rule set {rule_set.name} ({_switches(rule_set)}); ties "
                          "split the win between the seats on the top score."),
                    ("table", ["seat", "mean score (points)", "95% CI (points)", "win share (% of games)",
                               "95% CI (%)"], rows, ["l", "r", "r", "r", "r"]),
                    ("p", _bag_sentence(summary["bag_out"])),
                    ("h2", "Score distribution"),
                    ("p", "Final scores in points, one value per game and seat (percentiles interpolated)."),
                    _distribution_table(summary["distribution"]),
                    ("h2", "Mission cards"),
                    ("p", "A card counts as turned up in a game when it was face up while a placement could still "
                          "complete it (the card the update after the last round turns up does not count). "
                          + _sentence(rule_set.options["card_scores_once"].text[rule_set.card_scores_once])),
                    ("table", ["card", "shape (rows)", "points", "games turned up", "completed (% of those games)",
                               "scorings per game turned up"], mission_rows, ["l", "l", "r", "r", "r", "r"])]
        report.write(stage, result.headline, sections, figures, summary["assumptions"],
                     reproduce_blocks(summary, [f"seed {summary['seed']}", f"{cols.shape[1]:,} games"]))


def compare(players: int = 1, bots: str | list[str] = "planner,greedy", games: int | None = None, seed: int = 1,
            rules=None, variant=None, rule=None, out=None, command: str | None = None, **run) -> CompareResult:
    """Bot a against bot b on the same games (`tabletop meographic compare`): solo each plays every game; with
    more players a sits in each seat in turn among b's. The paired difference in points per game and a's win
    share, with 95% CIs. With ``variant``: the score under that rules file less the base's, game by game, every
    seat playing the first bot. With ``out`` (a folder) also writes what ``--out`` writes: games.parquet,
    summary.json, report.md/.html and the figures.

    ``players``: 1 (solo) to 4; ``bots``: two bots "a,b" or [a, b] (name:key=value; with ``variant`` the first
    is played); ``games``: default 2,000 (per seating, or per rule set); ``seed``: default 1, 0 to 2**63-1;
    ``rules``: a TOML rules file over the defaults (the base of both sides); ``variant``: a TOML rules file
    against the base; ``rule``: switches of the rules' [options] for both sides ("card_scores_once=false", a
    list of such texts, or {name: bool}); ``command``: the command line to record in the summary; ``run``: the
    runner's threads, chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_args("meographic compare", players, bots, games, seed, rules, rule, out, command, run, variant)
    base = load_rules(rules, rule)
    names = split_arms(bots, "--bots", "bot")
    arms = [BOTS.parse(name) for name in names]
    options = fixed_games(games, DEFAULT_COMPARE_GAMES, "meographic compare", **run)
    if variant is not None:
        variant = Path(variant)
        other = load_rules(variant, rule, "--variant")
        meographic_job(players, arms[0].label, seed, other)  # (checks the variant's set plays)
        out = api_out_dir(out, "meographic compare")
        return _compare_rules(base, other, variant, players, arms[0].short_label, seed, out, command, options)
    if len(arms) != 2:
        raise UserError(f"--bots {','.join(names)!r}: give two bots, a,b")
    a, b = arms[0].short_label, arms[1].short_label
    jobs = analysis.seat_jobs(a, b, players, seed, base)
    out = api_out_dir(out, "meographic compare")
    results = run_arms(jobs, options)
    runs = [r.columns for r in results]
    got = analysis.rotated(runs, base, players)
    diff = stats.paired_difference(got["a_score"], got["b_score"])
    n = got["diff"].size
    more = "more" if diff["mean_diff"] >= 0 else "fewer"
    lo, hi = diff["ci95"] if diff["ci95"][0] is not None else (diff["mean_diff"],) * 2
    if more == "fewer":
        lo, hi = -hi, -lo
    where = "solo, on the same games" if players == 1 else f"{players} players, {a} moved through every seat"
    headline = (f"{a} scores {num(abs(diff['mean_diff']), 1)} points {more} than {b} per game (95% CI "
                f"{num(lo, 1)} to {num(hi, 1)}; {where}, {n:,} games)")
    summary = provenance("meographic", seed, command, _assumptions(players, base)) | {
        "players": players, "a": a, "b": b, "bots": [arms[0].label, arms[1].label], "games": int(n),
        "rules": base.name, "rules_data": base.rules_data, "rules_sha256": base.sha256, "rule_options": base.values,
        "a_score": stats.mean_ci(got["a_score"]), "b_score": stats.mean_ci(got["b_score"]), "diff": diff,
        "run": arms_run_info(results)}
    sentence = (f"Played on the same {n:,} games (common random numbers: the same bag and mission cards for both), "
                f"{a} averages {num(got['a_score'].mean(), 1)} points and {b} {num(got['b_score'].mean(), 1)}; "
                f"{a} scores more in {pct(diff['p_better'])} of the games, less in {pct(diff['p_worse'])}.")
    if got["credit"] is not None:
        edge = stats.mean_ci(got["credit"] - 1 / players)
        summary |= {"share": float(got["credit"].mean()), "fair": 1 / players, "edge": edge}
        sentence += (f" Against {players - 1} {b} bot{'s' if players > 2 else ''}, {a} wins "
                     f"{pct(got['credit'].mean())} of the games (ties split; fair share {pct(1 / players)}; "
                     f"{_ci(edge, 1, 100)} points of share above it).")
    summary["headline"] = headline
    if players > 1:
        seat = []
        for s, cols in enumerate(runs):
            win = stats.mean_ci(analysis.win_credit(cols, base, players)[s], support=stats.SHARE)
            lo_s, hi_s = win["ci95"] if win["ci95"][0] is not None else (win["mean"],) * 2
            seat.append({"seat": s + 1, "name": f"{a} in seat {s + 1}", "win": win["mean"], "ci95": [lo_s, hi_s]})
        summary["a_by_seat"] = seat
    if players == 1:  # solo: a's games, then b's
        table = pl.concat([_table(c, base, 1).with_columns(pl.lit(name).alias("bot")) for name, c in zip((a, b), runs)])
    else:
        table = pl.concat([_table(c, base, players).with_columns(pl.lit(s + 1, pl.Int64).alias("seat_of_a"))
                           for s, c in enumerate(runs)])
    result = CompareResult(summary, table, headline)
    if out is not None:
        _write_comparison(out, result, got, sentence)
    return result


def _write_comparison(out: Path, result: CompareResult, got: dict, sentence: str) -> None:
    from reports.meographic import report

    summary, players, diff = result.summary, result.summary["players"], result.summary["diff"]
    a, b, n = summary["a"], summary["b"], summary["games"]
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        groups = {a: got["a_score"], b: got["b_score"]} if players == 1 else {
            f"{a} (its seat, mean over the {players} seatings)": got["a_score"],
            f"{b} (mean of its seats)": got["b_score"]}
        figures = [("Score distribution per bot", report.score_histograms(
            groups, "Final scores per bot", stage / "scores_by_bot.png").name),
            ("Paired difference", report.difference_figure(got["diff"], a, b, stage / "difference.png").name)]
        if players > 1:
            figures.append(("Win share of a per seat", report.seat_figure(
                summary["a_by_seat"], stage / "seat_win.png", f"Win share of {a} in each seat against {b}").name))
        write_summary(stage, summary, "meographic compare")
        rows = [[a, num(got["a_score"].mean(), 1), ci_range(summary["a_score"]["ci95"], 1)],
                [b, num(got["b_score"].mean(), 1), ci_range(summary["b_score"]["ci95"], 1)],
                [f"{a} less {b}", num(diff["mean_diff"], 1), ci_range(diff["ci95"], 1)]]
        sections = [("p", sentence), ("table", ["bot", "points per game", "95% CI (points per game)"], rows,
                                      ["l", "r", "r"]),
                    ("p", "games.parquet holds every seating's games; column " + (
                        "bot: whose game it is." if players == 1 else "seat_of_a: the seat of a (seats from 1)."))]
        report.write(stage, result.headline, sections, figures, summary["assumptions"],
                     reproduce_blocks(summary, [f"seed {summary['seed']}", f"{n:,} games per seating"]))


def _compare_rules(base: RuleSet, other: RuleSet, variant: Path, players: int, bot: str, seed: int, out,
                   command: str | None, options) -> CompareResult:
    got = analysis.compare_rules(base, other, players, bot, options.games, seed, options)
    diff, n = got["diff"], got["games"]
    more = "more" if diff["mean_diff"] >= 0 else "fewer"
    lo, hi = diff["ci95"] if diff["ci95"][0] is not None else (diff["mean_diff"],) * 2
    if more == "fewer":
        lo, hi = -hi, -lo
    headline = (f"With {variant.name}, {bot} scores {num(abs(diff['mean_diff']), 1)} points {more} per game "
                f"(95% CI {num(lo, 1)} to {num(hi, 1)}; {bot} in every seat, {players} player"
                f"{'s' if players > 1 else ''}, {n:,} games on the same seeds)")
    base_runs, other_runs = got.pop("runs")
    summary = provenance("meographic", seed, command, _assumptions(players, base, other)) | {
        "players": players, "bot": bot, "rules": base.name, "rules_data": base.rules_data,
        "rules_sha256": base.sha256, "rule_options": base.values, "variant_rules": other.name,
        "variant_rules_data": other.rules_data, "variant_rules_sha256": other.sha256,
        "games": n, **{k: v for k, v in got.items() if k not in ("bot", "players", "games")}, "headline": headline}
    frames = [_table(c, r, players).with_columns(pl.lit(k, pl.Int64).alias("variant"))
              for k, (c, r) in enumerate(((base_runs, base), (other_runs, other)))]
    if len(other.missions) != len(base.missions):  # (the mission columns differ: keep the seats' columns only)
        frames = [f.select(["game", *column_names(0, players), "variant"]) for f in frames]
    result = CompareResult(summary, pl.concat(frames), headline)
    if out is not None:
        _write_rules_comparison(out, result, base, other, base_runs, other_runs)
    return result


def _write_rules_comparison(out: Path, result: CompareResult, base: RuleSet, other: RuleSet, base_runs: np.ndarray,
                            other_runs: np.ndarray) -> None:
    from reports.meographic import report

    summary = result.summary
    players, bot, diff, n = summary["players"], summary["bot"], summary["diff"], summary["games"]
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        means = {f"base ({base.name})": analysis.seat_values(base_runs, base, "score", players).mean(axis=0),
                 f"variant ({other.name})": analysis.seat_values(other_runs, other, "score", players).mean(axis=0)}
        figures = [("Score distribution per rule set", report.score_histograms(
            means, f"Mean score per seat, {bot} in every seat", stage / "scores_by_rules.png").name),
            ("Paired difference", report.difference_figure(means[f"variant ({other.name})"] - means[
                f"base ({base.name})"], "variant", "base", stage / "difference.png").name),
            ("Mission cards completed (variant)", report.missions_figure(
                analysis.mission_rates(other_runs, other), stage / "missions.png").name)]
        write_summary(stage, summary, "meographic compare")
        rows = [[f"base: {base.name}", num(summary["base_mean"]["mean"], 1), ci_range(summary["base_mean"]["ci95"], 1)],
                [f"variant: {other.name}", num(summary["variant_mean"]["mean"], 1),
                 ci_range(summary["variant_mean"]["ci95"], 1)],
                ["variant less base", num(diff["mean_diff"], 1), ci_range(diff["ci95"], 1)]]
        sections = [("p", f"{n:,} games under each rule set with the same seeds, paired game by game (column "
                          "variant: 0 the base rules, 1 the variant); the score is the mean over the seats."),
                    ("table", ["rule set", "points per seat and game", "95% CI (points per seat and game)"], rows,
                     ["l", "r", "r"])]
        report.write(stage, result.headline, sections, figures, summary["assumptions"],
                     reproduce_blocks(summary, [f"seed {summary['seed']}", f"{n:,} games per rule set"]))
