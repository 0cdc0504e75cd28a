"""`tabletop regatta simulate|compare`: a thin layer over analyzer.regatta.simulation."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import numpy as np
import polars as pl
import typer

from analyzer import stats
from analyzer.command import command_line, prepare_out_dir, results_folder, run_options, write_summary
from analyzer.errors import UserError
from analyzer.io import atomic_write_parquet
from analyzer.params import path_value
from analyzer.provenance import provenance
from analyzer.regatta import rules as rules_module
from analyzer.regatta.arms import BOTS
from analyzer.regatta.simulation import path_tracks, regatta_job, table_frame
from analyzer.runner import run_job
from kernels.regatta.engine import COLUMN_NAMES
from reports.document import num, pct

TRACKED = 500  # races replayed for the path-over-turns plot (the first ones: the same races)

app = typer.Typer(help="Regatta (seed 003): the paper-boat river race.", no_args_is_help=True)

ASSUMPTIONS = ["grid 6x4: goal row, 4 river rows, start row (the seed's scheme is lost)",
               "tile shapes and counts, one goal tile with the sea exit, the three decks' compositions and the "
               "event/effect vocabulary are defaults (analyzer/regatta/data, docs/regatta/rules.md)",
               "a negate answers the action card just played (a response window after every card)",
               "the navigation card has no rule effect; seat 1 starts",
               "a race still running after the turn cap ends without winner (flagged capped)"]


def _table(cols: np.ndarray, start: int = 0) -> pl.DataFrame:
    return pl.DataFrame({name: pl.Series(v, dtype=pl.Int64 if name == "game" else pl.Int32)
                         for name, v in table_frame(cols, start).items()})


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


def _rules(path):
    return rules_module.load(path).source if path is not None else None


@app.command()
@run_options(count="games", default_games=10_000)
def simulate(players: int = typer.Option(2, help="Players (2-4; 4 with --team)."),
             bots: str = typer.Option("greedy", help="One bot, or one per seat, comma-separated."),
             seed: int = typer.Option(1), team: bool = typer.Option(False, help="The team variant."),
             rules: Optional[Path] = typer.Option(None, parser=path_value, help="A TOML rules file over the "
                                                  "defaults."),
             out: Path = typer.Option(..., parser=path_value, help="Results folder."), run=None):
    """Races of the given bots: winner, length, cards used; seat win rates with CIs."""
    job = regatta_job(players, [b.strip() for b in bots.split(",")], seed, team, _rules(rules))
    prepare_out_dir(out, "regatta simulate")
    cols = run_job(job, run).columns
    boats = 2 if team else players
    seat = [{"seat": s + 1, "win": float((cols[0] == s).mean()),
             "ci95": list(stats.wilson_ci(int((cols[0] == s).sum()), cols.shape[1]))} for s in range(boats)]
    bot_rows = _bot_rates(cols, job.spec["bots"], team)
    sample = min(cols.shape[1], TRACKED)
    horizon = int(min(max(np.percentile(cols[1][:sample], 90), 1), 200))
    tracks = path_tracks(job.spec, sample, horizon)
    turns = stats.mean_ci(cols[1].astype(float))
    capped = float(cols[2].mean())
    summary = provenance("regatta", seed, command_line(), ASSUMPTIONS) | {
        "players": players, "bots": job.spec["bots"], "team": team, "games": int(cols.shape[1]),
        "turns": turns, "capped": capped, "seat_win": seat, "bot_win": bot_rows}
    lo, hi = turns["ci95"] if turns["ci95"][0] is not None else (turns["mean"], turns["mean"])
    headline = (f"Races last {num(turns['mean'], 1)} turns on average (95% CI {num(lo, 1)}-{num(hi, 1)}), "
                f"{pct(capped)} hit the turn cap")
    rows = [[s["seat"], pct(s["win"]), f"{pct(s['ci95'][0])}-{pct(s['ci95'][1])}"] for s in seat]
    from reports.regatta.report import write
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", _table(cols))
        write_summary(stage, summary, "regatta simulate")
        write(stage, headline, [("p", f"{cols.shape[1]:,} races, bots {', '.join(job.spec['bots'])}."),
                                ("table", ["boat", "wins", "95% CI"], rows, ["r", "r", "r"])],
              cols[1], cols[2], ASSUMPTIONS, seat, _use(cols), bot_rows, tracks)
    typer.echo(headline)


@app.command()
@run_options(count="games", default_games=2_000)
def compare(players: int = typer.Option(2), bots: str = typer.Option("blocker,greedy", help="Two bots: a,b."),
            seed: int = typer.Option(1),
            variant: Optional[Path] = typer.Option(None, parser=path_value, help="Instead: a TOML rules file "
                                                   "against the default rules, every seat playing the first bot."),
            out: Path = typer.Option(..., parser=path_value), run=None):
    """Bot a in each seat in turn against bot b in the others, on the same races: a's win share less its fair
    share, with a paired 95% CI. With --variant: race length under that rules file less the defaults."""
    if variant is not None:
        return _compare_rules(players, bots.split(",")[0].strip(), seed, variant, out, run)
    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2:
        raise UserError(f"--bots {bots!r}: give two bots, a,b")
    a, b = names
    jobs = []
    for s in range(players):
        seating = [b] * players
        seating[s] = a
        jobs.append(regatta_job(players, seating, seed))
    prepare_out_dir(out, "regatta compare")
    runs = [run_job(job, run).columns for job in jobs]
    share = sum((c[0] == s).astype(float) for s, c in enumerate(runs)) / players
    edge = stats.mean_ci(share - 1 / players)
    lo, hi = edge["ci95"] if edge["ci95"][0] is not None else (edge["mean"], edge["mean"])
    headline = (f"{a} wins {pct(share.mean())} of races against {b} (fair share {pct(1 / players)}), "
                f"{num(100 * edge['mean'], 1)} points more (95% CI {num(100 * lo, 1)} to {num(100 * hi, 1)})")
    summary = provenance("regatta", seed, command_line(), ASSUMPTIONS) | {
        "players": players, "a": a, "b": b, "games": int(share.size), "share": float(share.mean()), "edge": edge}
    table = pl.concat([_table(c).with_columns(pl.lit(s + 1, pl.Int64).alias("seat_of_a")) for s, c in enumerate(runs)])
    from reports.regatta.report import write
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", table)
        write_summary(stage, summary, "regatta compare")
        write(stage, headline, [("p", f"{share.size:,} races, {a} moved through every seat on the same races.")],
              np.concatenate([c[1] for c in runs]), np.concatenate([c[2] for c in runs]), ASSUMPTIONS)
    typer.echo(headline)


def _compare_rules(players: int, bot: str, seed: int, variant: Path, out: Path, run) -> None:
    jobs = [regatta_job(players, [bot], seed), regatta_job(players, [bot], seed, rules_data=_rules(variant))]
    prepare_out_dir(out, "regatta compare")
    base, other = (run_job(job, run).columns for job in jobs)
    diff = stats.paired_difference(other[1].astype(float), base[1].astype(float))
    lo, hi = diff["ci95"] if diff["ci95"][0] is not None else (diff["mean_diff"], diff["mean_diff"])
    more = "more" if diff["mean_diff"] > 0 else "less"
    if more == "less":  # the interval in the sentence's direction
        lo, hi = -hi, -lo
    headline = (f"With {variant.name}, races last {num(abs(diff['mean_diff']), 1)} turns {more} "
                f"(95% CI {num(lo, 1)} to {num(hi, 1)} turns {more}; {bot} in every seat)")
    summary = provenance("regatta", seed, command_line(), ASSUMPTIONS) | {
        "players": players, "bot": bot, "variant": str(variant), "games": int(base.shape[1]), "diff": diff}
    table = pl.concat([_table(c).with_columns(pl.lit(k, pl.Int64).alias("variant"))
                       for k, c in enumerate((base, other))])
    from reports.regatta.report import write
    with results_folder(out) as stage:
        atomic_write_parquet(stage / "games.parquet", table)
        write_summary(stage, summary, "regatta compare")
        write(stage, headline, [("p", f"{base.shape[1]:,} races under each rule set, paired race by race "
                                      f"(column variant: 0 the default rules, 1 the variant).")],
              np.concatenate([base[1], other[1]]), np.concatenate([base[2], other[2]]), ASSUMPTIONS)
    typer.echo(headline)
