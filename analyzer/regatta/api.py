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

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.command import api_out_dir, results_folder, write_summary
from analyzer.errors import UserError
from analyzer.io import atomic_write_parquet
from analyzer.params import check_seed, check_whole
from analyzer.provenance import provenance
from analyzer.regatta import rules as rules_module
from analyzer.regatta.arms import BOTS
from analyzer.regatta.simulation import path_tracks, regatta_job, table_frame
from analyzer.runner import fixed_games, run_job
from kernels.regatta.engine import COLUMN_NAMES
from reports.document import num, pct

__all__ = ["SimulationResult", "CompareResult", "simulate", "compare", "ASSUMPTIONS"]

DEFAULT_SIMULATE_GAMES, DEFAULT_COMPARE_GAMES = 10_000, 2_000
TRACKED = 500  # races replayed for the path-over-turns plot (the first ones: the same races)

ASSUMPTIONS = ["grid 6x4: goal row, 4 river rows, start row (the seed's scheme is lost)",
               "tile shapes and counts, one goal tile with the sea exit, the three decks' compositions and the "
               "event/effect vocabulary are defaults (analyzer/regatta/data, docs/regatta/rules.md)",
               "a negate answers the action card just played (a response window after every card)",
               "the navigation card has no rule effect; seat 1 starts",
               "a race still running after the turn cap ends without winner (flagged capped)"]


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


def _rules_data(path) -> dict | None:
    return rules_module.load(path).source if path is not None else None


def _bot_names(bots) -> list[str]:
    """--bots as names: "a,b" (a comma followed by key=value continues a bot's parameters) or a list."""
    from analyzer.beacon.comparison import split_policies

    return split_policies(bots, "--bots")


def _check_players(players) -> None:
    check_whole("--players", players)  # (the range: regatta_job, with the team variant's)


def simulate(players: int = 2, bots: str | list[str] = "greedy", games: int | None = None, seed: int = 1,
             team: bool = False, rules=None, out=None, command: str | None = None, **run) -> SimulationResult:
    """Races of the given bots (`tabletop regatta simulate`): winner, length, cards used; seat and bot win
    rates with 95% CIs. With ``out`` (a folder) also writes what ``--out`` writes: games.parquet, summary.json,
    report.md/.html and the figures (race length, win rates, cards used, paths over turns).

    ``players``: 2 to 4 (4 with ``team``); ``bots``: one bot for every seat or one per seat, as "a,b,..." or a
    list (name:key=value, analyzer/regatta/arms.py); ``games``: default 10,000; ``seed``: default 1, 0 to
    2**63-1; ``team``: the team variant (two teams of two); ``rules``: a TOML rules file whose sections replace
    the defaults'; ``command``: the command line to record in the summary; ``run``: the runner's threads,
    chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_players(players)
    check_seed(seed)
    if not isinstance(team, bool):
        raise UserError(f"--team must be True or False, got {team!r}")
    job = regatta_job(players, _bot_names(bots), seed, team, _rules_data(rules))
    options = fixed_games(games, DEFAULT_SIMULATE_GAMES, "regatta simulate", **run)
    out = api_out_dir(out, "regatta simulate")  # (every input checked before any race)
    cols = run_job(job, options).columns
    boats = 2 if team else players
    seat = [{"seat": s + 1, "win": float((cols[0] == s).mean()),
             "ci95": list(stats.wilson_ci(int((cols[0] == s).sum()), cols.shape[1]))} for s in range(boats)]
    bot_rows = _bot_rates(cols, job.spec["bots"], team)
    turns = stats.mean_ci(cols[1].astype(float))
    capped = float(cols[2].mean())
    summary = provenance("regatta", seed, command, ASSUMPTIONS) | {
        "players": players, "bots": job.spec["bots"], "team": team, "games": int(cols.shape[1]),
        "turns": turns, "capped": capped, "seat_win": seat, "bot_win": bot_rows}
    lo, hi = turns["ci95"] if turns["ci95"][0] is not None else (turns["mean"], turns["mean"])
    headline = (f"Races last {num(turns['mean'], 1)} turns on average (95% CI {num(lo, 1)}-{num(hi, 1)}), "
                f"{pct(capped)} hit the turn cap")
    result = SimulationResult(summary, _table(cols), headline, cols)
    if out is not None:
        _write_simulation(out, result, job.spec)
    return result


def _write_simulation(out: Path, result: SimulationResult, spec: dict) -> None:
    from reports.regatta.report import write

    cols, summary = result.columns, result.summary
    sample = min(cols.shape[1], TRACKED)
    horizon = int(min(max(np.percentile(cols[1][:sample], 90), 1), 200))
    tracks = path_tracks(spec, sample, horizon)
    seat = summary["seat_win"]
    rows = [[s["seat"], pct(s["win"]), f"{pct(s['ci95'][0])}-{pct(s['ci95'][1])}"] for s in seat]
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, summary, "regatta simulate")
        write(stage, result.headline, [("p", f"{cols.shape[1]:,} races, bots {', '.join(spec['bots'])}."),
                                       ("table", ["boat", "wins", "95% CI"], rows, ["r", "r", "r"])],
              cols[1], cols[2], ASSUMPTIONS, seat, _use(cols), summary["bot_win"], tracks)


def compare(players: int = 2, bots: str | list[str] = "blocker,greedy", games: int | None = None, seed: int = 1,
            variant=None, out=None, command: str | None = None, **run) -> CompareResult:
    """Bot a in each seat in turn against bot b in the others, on the same races (`tabletop regatta compare`):
    a's win share less its fair share, with a paired 95% CI. With ``variant``: race length under that rules
    file less the defaults, every seat playing the first bot. With ``out`` (a folder) also writes what
    ``--out`` writes: games.parquet, summary.json, report.md/.html and the race-length figure.

    ``players``: 2 to 4; ``bots``: two bots "a,b" or [a, b] (with ``variant``: the first is played);
    ``games``: default 2,000 (per seating, or per rule set); ``seed``: default 1, 0 to 2**63-1; ``variant``: a
    TOML rules file; ``command``: the command line to record in the summary; ``run``: the runner's threads,
    chunk_size, progress, dask_local, scheduler, checkpoint, long_run.
    """
    _check_players(players)
    check_seed(seed)
    names = _bot_names(bots)
    options = fixed_games(games, DEFAULT_COMPARE_GAMES, "regatta compare", **run)
    if variant is not None:
        return _compare_rules(players, names[0], seed, Path(variant), out, command, options)
    if len(names) != 2:
        raise UserError(f"--bots {bots if isinstance(bots, str) else ','.join(names)!r}: give two bots, a,b")
    a, b = names
    jobs = []
    for s in range(players):
        seating = [b] * players
        seating[s] = a
        jobs.append(regatta_job(players, seating, seed))
    if not jobs:  # (fewer than 2 players: regatta_job says so)
        regatta_job(players, [a], seed)
    out = api_out_dir(out, "regatta compare")
    runs = [run_job(job, options).columns for job in jobs]
    share = sum((c[0] == s).astype(float) for s, c in enumerate(runs)) / players
    edge = stats.mean_ci(share - 1 / players)
    lo, hi = edge["ci95"] if edge["ci95"][0] is not None else (edge["mean"], edge["mean"])
    headline = (f"{a} wins {pct(share.mean())} of races against {b} (fair share {pct(1 / players)}), "
                f"{num(100 * edge['mean'], 1)} points more (95% CI {num(100 * lo, 1)} to {num(100 * hi, 1)})")
    summary = provenance("regatta", seed, command, ASSUMPTIONS) | {
        "players": players, "a": a, "b": b, "games": int(share.size), "share": float(share.mean()), "edge": edge}
    table = pl.concat([_table(c).with_columns(pl.lit(s + 1, pl.Int64).alias("seat_of_a")) for s, c in enumerate(runs)])
    result = CompareResult(summary, table, headline)
    if out is not None:
        _write_comparison(out, result, f"{share.size:,} races, {a} moved through every seat on the same races.", runs)
    return result


def _compare_rules(players: int, bot: str, seed: int, variant: Path, out, command: str | None,
                   options) -> CompareResult:
    jobs = [regatta_job(players, [bot], seed), regatta_job(players, [bot], seed, rules_data=_rules_data(variant))]
    out = api_out_dir(out, "regatta compare")
    base, other = (run_job(job, options).columns for job in jobs)
    diff = stats.paired_difference(other[1].astype(float), base[1].astype(float))
    lo, hi = diff["ci95"] if diff["ci95"][0] is not None else (diff["mean_diff"], diff["mean_diff"])
    more = "more" if diff["mean_diff"] > 0 else "less"
    if more == "less":  # the interval in the sentence's direction
        lo, hi = -hi, -lo
    headline = (f"With {variant.name}, races last {num(abs(diff['mean_diff']), 1)} turns {more} "
                f"(95% CI {num(lo, 1)} to {num(hi, 1)} turns {more}; {bot} in every seat)")
    summary = provenance("regatta", seed, command, ASSUMPTIONS) | {
        "players": players, "bot": bot, "variant": str(variant), "games": int(base.shape[1]), "diff": diff}
    table = pl.concat([_table(c).with_columns(pl.lit(k, pl.Int64).alias("variant"))
                       for k, c in enumerate((base, other))])
    result = CompareResult(summary, table, headline)
    if out is not None:
        _write_comparison(out, result, f"{base.shape[1]:,} races under each rule set, paired race by race "
                                       f"(column variant: 0 the default rules, 1 the variant).", [base, other])
    return result


def _write_comparison(out: Path, result: CompareResult, sentence: str, runs: list[np.ndarray]) -> None:
    from reports.regatta.report import write

    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", result.games)
        write_summary(stage, result.summary, "regatta compare")
        write(stage, result.headline, [("p", sentence)], np.concatenate([c[1] for c in runs]),
              np.concatenate([c[2] for c in runs]), ASSUMPTIONS)
