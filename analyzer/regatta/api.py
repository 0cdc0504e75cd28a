"""The Python API of the Regatta: `simulate(...)` and `compare(...)`, one per `tabletop regatta` command.

Each takes the command's options as keyword arguments, with its defaults and bounds (and the runner's threads,
chunk_size, progress, dask_local, scheduler, checkpoint), checks every one before any race (a mistake is one
UserError) and returns a result with the summary, the per-race table (polars) and the headline the command
prints; with `out=FOLDER` it also writes what the command's `--out` writes, all or nothing:

    >>> from analyzer import regatta
    >>> r = regatta.simulate(players=3, bots="greedy", games=2000, seed=1, out="runs/regatta")
    >>> r.headline, r.summary["seat_win"], r.games.columns[:3]
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.command import api_out_dir, results_folder, write_summary
from analyzer.errors import UserError
from analyzer.io import atomic_write_parquet, read_data_file
from analyzer.lineup import one_in_each_seat, split_arms
from analyzer.params import check_seed, check_whole
from analyzer.provenance import data_file, provenance
from analyzer.regatta import rules as rules_module
from analyzer.regatta.arms import BOTS
from analyzer.regatta.simulation import path_tracks, regatta_job, table_frame
from analyzer.runner import fixed_games, run_job
from kernels.regatta.engine import COLUMN_NAMES
from reports.document import num, pct

__all__ = ["SimulationResult", "CompareResult", "simulate", "compare"]

DEFAULT_SIMULATE_GAMES, DEFAULT_COMPARE_GAMES = 10_000, 2_000
TRACKED = 500  # races replayed for the path-over-turns plot (the first ones: the same races)

@dataclass
class SimulationResult:
    summary: dict  # what summary.json holds (less "experiment", which only the file names)
    games: pl.DataFrame  # one row per race: game, winner (boat 1.., 0 none), turns, capped, cards used, scores
    headline: str  # the report's first line, as the command prints it
    columns: np.ndarray = field(repr=False)  # the kernel's result columns [column, race]


@dataclass
class CompareResult:
    summary: dict
    games: pl.DataFrame  # every seating's races (column seat_of_a), or each rule set's (column variant: 0, 1)
    headline: str


def _table(cols: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame({name: pl.Series(v, dtype=pl.Int64 if name == "game" else pl.Int32)
                         for name, v in table_frame(cols).items()})


def _use(cols: np.ndarray) -> tuple[list[str], np.ndarray]:
    """(kind names, mean uses per race) of the played actions, placing left out."""
    kinds = [k for k, name in enumerate(COLUMN_NAMES) if name.startswith("used_") and name != "used_place"]
    return [COLUMN_NAMES[k][5:].replace("_", " ") for k in kinds], cols[kinds].mean(axis=1)


def _bot_rates(cols: np.ndarray, bots: list[str], team: bool) -> list[dict]:
    """Per bot: the share of its seat-races won (a team seat wins with its boat), with a 95% CI that treats
    the seats of one race as one cluster."""
    rows = []
    for bot in dict.fromkeys(bots):
        seats = [s for s, b in enumerate(bots) if b == bot]
        hits = np.concatenate([cols[0] == (s % 2 if team else s) for s in seats])
        races = np.tile(np.arange(cols.shape[1]), len(seats))
        rows.append({"bot": BOTS.parse(bot).short_label, "seats": len(seats), "win": float(hits.mean()),
                     "ci95": list(stats.clustered_wilson_ci(hits, races)),
                     "fair": 1 / (2 if team else len(bots))})
    return rows


def _rules(path, rule, flag: str = "--rules") -> tuple[dict, dict, list[str]]:
    """(the rules data for the job, its summary keys, the assumptions it rests on): the packaged rules, or the file
    `path` over them, with the --rule switches `rule`. The keys: `rules_data` (analyzer.provenance.data_file: the
    file's name and sha256, or "packaged" and the packaged files' sha256) and `rule_options` (the switches)."""
    r = rules_module.load(path, flag, rule)
    content = rules_module.packaged_bytes() if path is None else read_data_file(path)
    keys = {"rules_data": data_file(None if path is None else Path(path).name, content), "rule_options": dict(r.chosen)}
    return r.source, keys, rules_module.assumptions(r)


def _bot_names(bots) -> list[str]:
    """--bots as names: "a,b" (a comma followed by key=value continues a bot's parameters) or a list."""
    return split_arms(bots, "--bots", "bot")


def _check_arguments(players, bots, games, seed, command, out, paths: dict, rule,
                     flags: dict) -> None:
    """Every argument of a public function, before anything runs: one UserError naming the argument."""
    check_whole("--players", players)  # (the range: regatta_job, with the team variant's)
    _bot_names(bots)  # (its type and its names' commas)
    if games is not None:
        check_whole("--games", games)
    check_seed(seed)
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise UserError(f"--{name} must be True or False, got {value!r:.40}")
    for name, value in {**paths, "out": out}.items():
        if value is not None and (not isinstance(value, (str, os.PathLike)) or not str(value).strip()):
            raise UserError(f"--{name} must be a path (str or pathlib.Path), got {type(value).__name__} {value!r:.40}")
    if command is not None and not isinstance(command, str):
        raise UserError(f"command must be the command line as text, got {type(command).__name__}")
    if rule is not None and not isinstance(rule, (str, dict)) and not (
            isinstance(rule, (list, tuple)) and all(isinstance(r, str) for r in rule)):
        raise UserError(f"--rule must be 'NAME=VALUE', a list of them or a {{name: bool}} mapping, got {rule!r:.40}")


def _command(experiment: str, players: int, bots, games, seed: int, extra: list[str], out, default_games: int) -> str:
    """The command line that gives these results (a Python call records the one that would)."""
    names = ",".join(_bot_names(bots))
    words = ["tabletop", "regatta", experiment, "--players", str(players), "--bots", names, "--games",
             str(games if games is not None else default_games), "--seed", str(seed), *extra]
    return " ".join(shlex.quote(w) for w in words + (["--out", str(out)] if out is not None else []))


def _rule_words(rule) -> list[str]:
    if rule is None:
        return []
    items = [rule] if isinstance(rule, str) else (
        [f"{k}={str(v).lower()}" for k, v in rule.items()] if isinstance(rule, dict) else list(rule))
    return [w for item in items for w in ("--rule", item)]


def _headline(seat: list[dict], bot_rows: list[dict], bots: list[str], team: bool) -> str:
    """The report's first line: which bot (bots mixed) or which seat (one bot everywhere) wins most, with its
    share, 95% CI and fair share."""
    if len(bot_rows) > 1:
        best = max(bot_rows, key=lambda b: b["win"])
        lo, hi = best["ci95"]
        rivals = ", ".join(b["bot"] for b in bot_rows if b is not best)
        return (f"{best['bot']} wins most: {pct(best['win'])} of its seat-races (95% CI {pct(lo)}-{pct(hi)}; fair "
                f"share {pct(best['fair'])}) against {rivals}, seats {', '.join(bots)}")
    best = max(seat, key=lambda s: s["win"])
    lo, hi = best["ci95"]
    fair = 1 / len(seat)
    who = f"Team {best['seat']} (seats {best['seat']} and {best['seat'] + 2})" if team else f"Seat {best['seat']}"
    chance = "; every seat's CI holds the fair share" if all(s["ci95"][0] <= fair <= s["ci95"][1] for s in seat) else ""
    return (f"{who} wins most often: {pct(best['win'])} of races (95% CI {pct(lo)}-{pct(hi)}; fair share "
            f"{pct(fair)}), {bot_rows[0]['bot']} in every seat{chance}")


def simulate(players: int = 2, bots: str | list[str] = "greedy", games: int | None = None, seed: int = 1,
             team: bool = False, rules=None, out=None, command: str | None = None, rule=None,
             **run) -> SimulationResult:
    """Races of the given bots (`tabletop regatta simulate`): winner, length, cards used; seat and bot win
    rates with 95% CIs. With ``out`` (a folder) also writes what ``--out`` writes: games.parquet, summary.json,
    report.md/.html and the figures (race length, win rates, cards used, paths over turns).

    ``players``: 2 to 4 (4 with ``team``); ``bots``: one bot for every seat or one per seat, as "a,b,..." or a
    list (name:key=value, analyzer/regatta/arms.py); ``games``: default 10,000; ``seed``: default 1, 0 to
    2**63-1; ``team``: the team variant (two teams of two); ``rules``: a TOML rules file whose sections replace
    the defaults'; ``rule``: rule switches, "NAME=VALUE" texts or {name: bool} (--rule); ``command``: the
    command line to record in the summary (default: the command that gives these results); ``run``: the
    runner's threads, chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_arguments(players, bots, games, seed, command, out, {"rules": rules}, rule, {"team": team})
    data, rules_keys, assumptions = _rules(rules, rule)
    job = regatta_job(players, _bot_names(bots), seed, team, data)
    options = fixed_games(games, DEFAULT_SIMULATE_GAMES, "regatta simulate", **run)
    out = api_out_dir(out, "regatta simulate")  # (every input checked before any race)
    if command is None:
        command = _command("simulate", players, bots, games, seed, (["--team"] if team else [])
                           + (["--rules", str(rules)] if rules is not None else []) + _rule_words(rule), out,
                           DEFAULT_SIMULATE_GAMES)
    cols = run_job(job, options).columns
    boats = 2 if team else players
    seat = [{"seat": s + 1, "win": float((cols[0] == s).mean()),
             "ci95": list(stats.wilson_ci(int((cols[0] == s).sum()), cols.shape[1]))} for s in range(boats)]
    bot_rows = _bot_rates(cols, job.spec["bots"], team)
    turns = stats.mean_ci(cols[1].astype(float))
    capped = float(cols[2].mean())
    summary = provenance("regatta", seed, command, assumptions) | {
        "players": players, "bots": job.spec["bots"], "team": team, **rules_keys, "games": int(cols.shape[1]),
        "turns": turns, "capped": capped, "seat_win": seat, "bot_win": bot_rows}
    headline = _headline(seat, bot_rows, job.spec["bots"], team)
    result = SimulationResult(summary, _table(cols), headline, cols)
    if out is not None:
        _write_simulation(out, result, job.spec)
    return result


def _race_sentence(summary: dict) -> str:
    turns = summary["turns"]
    lo, hi = turns["ci95"] if turns["ci95"][0] is not None else (turns["mean"], turns["mean"])
    return (f"Races last {num(turns['mean'], 1)} turns on average (95% CI {num(lo, 1)}-{num(hi, 1)} turns; every "
            f"player's turn counted), {pct(summary['capped'])} of races hit the turn cap.")


def _write_simulation(out: Path, result: SimulationResult, spec: dict) -> None:
    from reports.regatta.report import write

    cols, summary = result.columns, result.summary
    sample = min(cols.shape[1], TRACKED)
    horizon = int(min(max(np.percentile(cols[1][:sample], 90), 1), 200))
    tracks = path_tracks(spec, sample, horizon)
    unit = "team" if summary["team"] else "boat"
    rows = [[s["seat"], pct(s["win"]), f"{pct(s['ci95'][0])}-{pct(s['ci95'][1])}"] for s in summary["seat_win"]]
    bot_rows = [[b["bot"], b["seats"], pct(b["win"]), f"{pct(b['ci95'][0])}-{pct(b['ci95'][1])}", pct(b["fair"])]
                for b in summary["bot_win"]]
    sections = [("p", f"{cols.shape[1]:,} races, {summary['players']} players, bots by seat: "
                      f"{', '.join(spec['bots'])}."),
                ("p", _race_sentence(summary)),
                ("table", [f"{unit} (seat order)", "races won (%)", "95% CI (%)"], rows, ["r", "r", "r"]),
                ("table", ["bot", "seats (count)", "seat-races won (%)", "95% CI (%)", "fair share (%)"], bot_rows,
                 ["l", "r", "r", "r", "r"])]
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, summary, "regatta simulate")
        write(stage, result.headline, sections, cols[1], cols[2], summary, seat=summary["seat_win"], use=_use(cols),
              bots=summary["bot_win"], tracks=tracks)


def compare(players: int = 2, bots: str | list[str] = "blocker,greedy", games: int | None = None, seed: int = 1,
            variant=None, out=None, command: str | None = None, rule=None, **run) -> CompareResult:
    """Bot a in each seat in turn against bot b in the others, on the same races (`tabletop regatta compare`):
    a's win share less its fair share, with a paired 95% CI. With ``variant``: race length under that rules
    file less the defaults, every seat playing the first bot. With ``out`` (a folder) also writes what
    ``--out`` writes: games.parquet, summary.json, report.md/.html and the race-length figure.

    ``players``: 2 to 4; ``bots``: two bots "a,b" or [a, b] (with ``variant``: the first is played);
    ``games``: default 2,000 (per seating, or per rule set); ``seed``: default 1, 0 to 2**63-1; ``variant``: a
    TOML rules file; ``rule``: rule switches for every race, "NAME=VALUE" texts or {name: bool} (--rule);
    ``command``: the command line to record in the summary (default: the command that gives these results);
    ``run``: the runner's threads, chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_arguments(players, bots, games, seed, command, out, {"variant": variant}, rule, {})
    names = _bot_names(bots)
    options = fixed_games(games, DEFAULT_COMPARE_GAMES, "regatta compare", **run)
    data, rules_keys, assumptions = _rules(None, rule)
    if command is None:
        command = _command("compare", players, bots, games, seed, (["--variant", str(variant)] if variant is not None
                                                                   else []) + _rule_words(rule), out,
                           DEFAULT_COMPARE_GAMES)
    if variant is not None:
        return _compare_rules(players, names[0], seed, Path(variant), out, command, options, rule,
                              (data, rules_keys, assumptions))
    if len(names) != 2:
        raise UserError(f"--bots {bots if isinstance(bots, str) else ','.join(names)!r}: give two bots, a,b")
    a, b = names
    jobs = [regatta_job(players, seating, seed, rules_data=data) for seating in one_in_each_seat(a, b, players)]
    if not jobs:  # (fewer than 2 players: regatta_job says so)
        regatta_job(players, [a], seed)
    out = api_out_dir(out, "regatta compare")
    runs = [run_job(job, options).columns for job in jobs]
    share = sum((c[0] == s).astype(float) for s, c in enumerate(runs)) / players
    edge = stats.mean_ci(share - 1 / players)
    lo, hi = edge["ci95"] if edge["ci95"][0] is not None else (edge["mean"], edge["mean"])
    headline = (f"{a} wins {pct(share.mean())} of races against {b} (fair share {pct(1 / players)}), "
                f"{num(100 * edge['mean'], 1)} points more (95% CI {num(100 * lo, 1)} to {num(100 * hi, 1)})")
    summary = provenance("regatta", seed, command, assumptions) | {
        "players": players, "a": a, "b": b, **rules_keys, "games": int(share.size), "share": float(share.mean()),
        "edge": edge}
    table = pl.concat([_table(c).with_columns(pl.lit(s + 1, pl.Int64).alias("seat_of_a")) for s, c in enumerate(runs)])
    result = CompareResult(summary, table, headline)
    if out is not None:
        _write_comparison(out, result, f"{share.size:,} races, {a} moved through every seat on the same races, "
                                       f"{players} players.", runs)
    return result


def _compare_rules(players: int, bot: str, seed: int, variant: Path, out, command: str, options, rule,
                   base_rules: tuple) -> CompareResult:
    data, rules_keys, assumptions = base_rules
    other, other_keys, other_assumptions = _rules(variant, rule, "--variant")
    assumptions = assumptions + [f"{variant.name} (the variant): {a}" for a in other_assumptions
                                 if a not in assumptions]
    jobs = [regatta_job(players, [bot], seed, rules_data=data), regatta_job(players, [bot], seed, rules_data=other)]
    out = api_out_dir(out, "regatta compare")
    base, changed = (run_job(job, options).columns for job in jobs)
    diff = stats.paired_difference(changed[1].astype(float), base[1].astype(float))
    lo, hi = diff["ci95"] if diff["ci95"][0] is not None else (diff["mean_diff"], diff["mean_diff"])
    more = "more" if diff["mean_diff"] > 0 else "less"
    if more == "less":  # the interval in the sentence's direction
        lo, hi = -hi, -lo
    headline = (f"With {variant.name}, races last {num(abs(diff['mean_diff']), 1)} turns {more} "
                f"(95% CI {num(lo, 1)} to {num(hi, 1)} turns {more}; {bot} in every seat)")
    summary = provenance("regatta", seed, command, assumptions) | {
        "players": players, "bot": bot, **rules_keys,
        **{f"variant_{k}": v for k, v in other_keys.items()}, "games": int(base.shape[1]),
        "diff": diff}
    table = pl.concat([_table(c).with_columns(pl.lit(k, pl.Int64).alias("variant"))
                       for k, c in enumerate((base, changed))])
    result = CompareResult(summary, table, headline)
    if out is not None:
        _write_comparison(out, result, f"{base.shape[1]:,} races under each rule set, paired race by race "
                                       f"(column variant: 0 the default rules, 1 the variant), {players} players.",
                          [base, changed])
    return result


def _write_comparison(out: Path, result: CompareResult, sentence: str, runs: list[np.ndarray]) -> None:
    from reports.regatta.report import write

    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, result.summary, "regatta compare")
        write(stage, result.headline, [("p", sentence)], np.concatenate([c[1] for c in runs]),
              np.concatenate([c[2] for c in runs]), result.summary)
