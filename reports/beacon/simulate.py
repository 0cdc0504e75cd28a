"""The Beacon Patrol ``simulate`` report: plots, Markdown and a self-contained HTML page.

The document is assembled once as a list of simple blocks and rendered twice (Markdown and HTML),
so both files always carry the same content.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from analyzer import stats
from analyzer.io import atomic_write_text
from reports.beacon import plots
from reports.document import ci_phrase, ci_range, integer, num, pct, plural, rate, render_html, render_md

__all__ = ["write_simulate_report", "report_title", "headline", "bot_sentence", "band_shift_sentence"]

# Friendly descriptions of known per-game columns (anything else is shown by its column name).
_COLUMN_LABELS = {
    "explored": "explored tiles",
    "explored_lighthouse": "explored lighthouses (incl. HQ)",
    "explored_buoy": "explored buoys",
    "explored_other": "explored other tiles",
    "explored_windmill": "explored windmills",
    "explored_pier": "explored piers",
    "windmill_points": "windmill points",
    "pier_points": "pier points",
    "tiles_placed": "tiles placed",
    "tiles_discarded": "tiles discarded",
    "turns": "turns",
    "moves": "ship moves",
    "trades": "trades",
}


# --------------------------------------------------------------------------- number formatting

def report_title(summary: dict) -> str:
    policy = (summary.get("bot") or {}).get("label") or summary.get("policy", "unknown policy")
    players = summary.get("players")
    if players is None:
        who = "unknown players"
    else:
        who = f"{int(players)} player" + ("" if int(players) == 1 else "s")
    exps = list(summary.get("expansions") or [])
    return f"Beacon Patrol — {policy}, {who}, {', '.join(map(str, exps)) if exps else 'base game'}"


def bot_sentence(summary: dict) -> str | None:
    """Near the headline: whose play the scores are, and how to measure the oracle's bound on them."""
    bot = summary.get("bot")
    if not bot:
        return None
    if not bot["fair"]:
        return (f"**Not a fair policy:** these are the scores of the {bot['label']} bot, which sees the future "
                "draw order; they bound what play can reach, not what a player at the table can.")
    exps = ",".join(summary.get("expansions") or [])
    command = (f"tabletop beacon compare --policies {bot['label']},oracle --players {summary.get('players', 1)}"
               + (f" --expansions {exps}" if exps else "") + f" --seed {summary.get('seed', 0)} --games 1000")
    return (f"These are a bot's scores, not a person's. The **{bot['label']}** policy: {bot['about']}; a fair "
            "policy, it sees only what its seat would see. The oracle, which knows the draw order, bounds "
            f"what play can reach; measure it on the same games with `{command}`.")


def band_shift_sentence(summary: dict) -> str | None:
    """Rank-band bounds depend on the expansions in play (rulebook p. 8): one line wherever bands show."""
    rb = summary.get("rank_bands") or {}
    step = rb.get("per_expansion")
    if not step:
        return None
    exps = list(summary.get("expansions") or [])
    now = (f"with {', '.join(exps)} in play they are {step * len(exps)} above the base game's" if exps
           else "these are the base game's")
    return f"Rank-band bounds rise by {step} points per expansion in play (rulebook p. 8); {now}."


def _bands(summary: dict) -> list[tuple[str, int, int | None]]:
    rb = summary["rank_bands"]
    return plots.band_ranges(rb["names"], rb["lower_bounds"])


def _rank_probabilities(summary: dict, scores: np.ndarray, n_games: int) -> dict:
    rp = summary.get("rank_probabilities")
    names = [b[0] for b in _bands(summary)]
    if rp and all(name in rp for name in names):
        return rp
    lbs = np.asarray(summary["rank_bands"]["lower_bounds"], dtype=np.float64)
    codes = np.clip(np.searchsorted(lbs, scores, side="right") - 1, 0, len(names) - 1)
    return stats.category_probabilities(codes, names)


def _score_stats(summary: dict, scores: np.ndarray) -> dict:
    """Summary statistics, preferring the runner's numbers and filling gaps from the scores."""
    out: dict[str, Any] = {}
    computed = stats.mean_ci(scores) if scores.size else {}
    out["games"] = summary.get("games", computed.get("n"))
    for key in ("mean", "std", "sem", "ci95"):
        out[key] = summary.get(key, computed.get(key))
    pct = summary.get("percentiles") or (stats.percentiles(scores) if scores.size else {})
    out["percentiles"] = pct
    return out


def headline(summary: dict, score_stats: dict, rank_probs: dict) -> str:
    bands = _bands(summary)
    names = [b[0] for b in bands]
    n = score_stats["games"]
    mean = score_stats["mean"]
    bot = (summary.get("bot") or {}).get("label")
    text = (f"Mean score {num(mean, 1)} ({ci_phrase(score_stats['ci95'], n, 1)}) over {integer(n)} "
            f"game{'s' if n != 1 else ''}" + (f" played by the {bot} bot" if bot else ""))
    # "x% reach <band> or better", for the band that holds the mean (the next one if that is the lowest).
    if mean is not None and len(bands) > 1:
        idx = max(1, max(i for i, b in enumerate(bands) if i == 0 or mean >= b[1]))
        total = sum(int(rank_probs[nm]["count"]) for nm in names)
        reach = sum(int(rank_probs[nm]["count"]) for nm in names[idx:]) / total if total else float("nan")
        reach_txt = f"{100 * reach:.0f}%" if 0.01 <= reach <= 0.99 else pct(reach)
        better = " or better" if idx < len(bands) - 1 else ""
        text += f"; {reach_txt} of games reach {names[idx]}{better}"
    return text + "."


def _numeric_columns(games) -> list[str]:
    cols = []
    for name, dtype in games.schema.items():
        if name in ("game", "score"):
            continue
        if dtype.is_numeric():
            cols.append(name)
    return cols


def _column_averages(summary: dict, games) -> dict[str, dict]:
    """{column: {mean, std, min, max}}: from the per-game table, else the runner's aggregates (the
    score, which has a section of its own, left out either way)."""
    if games is None:
        return {c: a for c, a in (summary.get("columns") or {}).items() if c != "score"}
    out = {}
    for c in _numeric_columns(games):
        s = games[c].cast(float)
        out[c] = {"mean": s.mean(), "std": s.std(), "min": s.min(), "max": s.max()}
    return out


def _build_blocks(summary: dict, games, image_files: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    scores = (games["score"].cast(float).to_numpy() if games is not None and "score" in games.columns
              else np.asarray([], dtype=np.float64))
    scores = scores[np.isfinite(scores)]
    ss = _score_stats(summary, scores)
    rank_probs = _rank_probabilities(summary, scores, int(ss["games"] or 0))
    bands = _bands(summary)
    title = report_title(summary)
    blocks: list[tuple] = [("h1", title), ("p", headline(summary, ss, rank_probs))]
    if bot_sentence(summary):
        blocks.append(("p", bot_sentence(summary)))

    tile_set = summary.get("tile_set") or {}
    if tile_set.get("reconstruction"):
        blocks.append(("warn", "These results use a reconstructed tile set; see “Data and assumptions”."))

    # Summary statistics.
    ci = ss["ci95"] or [None, None]
    # the t interval's half-width: the side not cut at 0 (stats.mean_ci's support)
    half = max(ci[1] - ss["mean"], ss["mean"] - ci[0]) if None not in ci else None
    rows = [["games", integer(ss["games"])],
            ["mean score (points)", num(ss["mean"])],
            ["standard deviation (points)", num(ss["std"])],
            ["standard error of the mean (points)", num(ss["sem"], 3)],
            ["95% CI of the mean (points, Student t)",
             f"{ci_range(ci)} (± {num(half, 3)})" if half is not None else ci_phrase(ci, ss["games"])]]
    low, high = (scores.min(), scores.max()) if scores.size else (summary.get("min"), summary.get("max"))
    if low is not None:
        rows.append(["minimum / maximum (points)", f"{num(low, 0)} / {num(high, 0)}"])
    for key, val in (ss["percentiles"] or {}).items():
        label = {"p50": "median (p50, points)"}.get(key, f"{key[1:]}th percentile ({key}, points)")
        rows.append([label, num(val, 1)])
    best = summary.get("best_game")
    if best:
        rows.append(["best game", f"#{best.get('game')} with score {num(best.get('score'), 0)} points"])
    blocks += [("h2", "Score summary"), ("table", ["statistic", "value"], rows, ["l", "r"])]

    # Rank bands.
    names = [b[0] for b in bands]
    total = sum(int(rank_probs[nm]["count"]) for nm in names) or 1
    rrows = []
    for i, (name, lo, hi) in enumerate(bands):
        rp = rank_probs[name]
        lo_ci, hi_ci = rp["ci95"]
        rng = f"≥ {lo}" if hi is None else (f"≤ {hi}" if i == 0 else f"{lo}–{hi}")
        reach = sum(int(rank_probs[nm]["count"]) for nm in names[i:]) / total
        rrows.append([name, rng, integer(rp["count"]), f"{pct(rp['p'])} ({pct(lo_ci)} – {pct(hi_ci)})",
                      pct(reach)])
    blocks += [("h2", "Rank bands"),
               ("p", "Probability of finishing in each rank band, with a 95% Wilson score interval; "
                     "the last column is the share of games reaching that band or better."
                     + (" " + band_shift_sentence(summary) if band_shift_sentence(summary) else "")),
               ("table", ["band", "score range (points)", "games", "probability, % of games (95% CI)",
                          "this band or better (% of games)"],
                rrows, ["l", "l", "r", "r", "r"])]

    # Per-game averages of the other numeric columns.
    averages = _column_averages(summary, games)
    if averages:
        arows = [[_COLUMN_LABELS.get(c, c), c, num(a["mean"]), num(a["std"]), num(a["min"], 0), num(a["max"], 0)]
                 for c, a in averages.items()]
        blocks += [("h2", "Per-game averages"),
                   ("table", ["quantity (per game, in its unit)", "column", "mean", "std", "min", "max"], arows,
                    ["l", "l", "r", "r", "r", "r"])]
    if games is None:
        blocks.append(("p", "This run kept streaming aggregates only (--no-per-game): there is no games.parquet, "
                            "and every figure comes from exact per-column histograms of all games."))

    # Plots.
    if image_files:
        blocks.append(("h2", "Plots"))
        for alt, fname in image_files:
            blocks.append(("img", alt, fname))

    # Data and assumptions.
    blocks.append(("h2", "Data and assumptions"))
    if tile_set:
        sha = str(tile_set.get("sha256") or "")
        parts = [f"Tile set: {tile_set.get('name', 'unnamed')}"]
        if sha:
            parts.append(f"sha256 {sha[:12]}")
        if tile_set.get("n_active") is not None:
            parts.append(f"{int(tile_set['n_active'])} tiles in play")
        blocks.append(("p", ", ".join(parts) + "."))
        if tile_set.get("reconstruction"):
            blocks.append(("warn", _reconstruction_warning(tile_set)))
    else:
        blocks.append(("p", "Tile set: not recorded."))
    assumptions = [str(a) for a in (summary.get("assumptions") or [])]
    if assumptions:
        blocks += [("p", "Assumptions made where the rules are silent or the data is uncertain:"),
                   ("ul", assumptions)]
    else:
        blocks.append(("p", "No assumptions were recorded."))

    # Reproduce.
    blocks.append(("h2", "Reproduce"))
    if summary.get("command"):
        blocks.append(("code", str(summary["command"])))
    items = [f"seed: {summary.get('seed', 'not recorded')}"]
    versions = summary.get("versions") or {}
    if versions:
        items.append("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    run = summary.get("run") or {}
    if run.get("backend"):
        items.append(f"backend: {run['backend']}, {run.get('workers')} worker thread(s), "
                     f"{plural(run.get('chunks', 0), 'chunk')}")
    elif summary.get("threads") is not None:
        items.append(f"threads: {summary['threads']}")
    if run.get("precision"):
        p = run["precision"]
        reached = "reached" if run.get("stopped") == "precision" else "not reached (stopped at --max-games)"
        items.append(f"run to precision: ±{p['target_half_width']:g} on the {p['statistic']} {reached}; "
                     f"achieved ±{num(p['half_width'], 4)} with min/max games "
                     f"{integer(p['min_games'])}/{integer(p['max_games'])}")
    if (run.get("checkpoint") or {}).get("resumed_games"):
        items.append(f"resumed {integer(run['checkpoint']['resumed_games'])} games from checkpoint "
                     f"{run['checkpoint']['dir']}")
    if summary.get("wall_seconds") is not None:
        per_second = summary.get("games_per_second")
        items.append(f"wall time: {num(summary['wall_seconds'], 1)} s"
                     + (f" ({rate(per_second)} games/s)" if per_second else ""))
    blocks.append(("ul", items))
    return title, blocks


def _reconstruction_warning(tile_set: dict) -> str:
    name = tile_set.get("name", "this tile set")
    return (f"The tile set is a reconstruction: {name} was rebuilt from public photos and inferences, "
            "not from the printed tiles. Scores and rank probabilities depend on the tile mix and "
            "may be biased; treat absolute numbers with care and prefer comparisons between policies.")


# --------------------------------------------------------------------------- entry point

def write_simulate_report(out_dir: Path, summary: dict, games, best_layout: dict | None, tiles) -> list[Path]:
    """Write plots, ``report.md`` and a self-contained ``report.html`` into ``out_dir``.

    ``games`` is the runner's per-game ``polars.DataFrame`` (needs a ``score`` column), or None
    after a streaming run: then the summary's ``score_histogram`` and ``columns`` aggregates are
    used. ``best_layout`` (``{"row", "col", "tile"}`` arrays) adds ``best_board.png``. Returns the
    written paths (PNGs first, then the Markdown and HTML). Every write is atomic.
    """
    out_dir = Path(out_dir)
    rb = summary["rank_bands"]
    if games is None:
        distribution = (summary["score_histogram"]["values"], summary["score_histogram"]["counts"])
    else:
        distribution = (games["score"].cast(float).to_numpy(), None)
    written: list[Path] = []
    image_files: list[tuple[str, str]] = []

    written.append(plots.score_histogram(distribution[0], rb["names"], rb["lower_bounds"],
                                         out_dir / "score_histogram.png", counts=distribution[1]))
    image_files.append(("Histogram of final scores with rank bands", "score_histogram.png"))
    written.append(plots.score_ecdf(distribution[0], rb["names"], rb["lower_bounds"], out_dir / "score_ecdf.png",
                                    counts=distribution[1]))
    image_files.append(("Share of games reaching each score, with the rank bands", "score_ecdf.png"))
    if best_layout is not None:
        best = summary.get("best_game") or {}
        board_title = "Best game"
        if best:
            board_title = f"Best game (#{best.get('game')}, score {num(best.get('score'), 0)})"
        written.append(plots.beacon_board(out_dir / "best_board.png", best_layout, tiles, board_title))
        image_files.append(("Board of the best game", "best_board.png"))

    title, blocks = _build_blocks(summary, games, image_files)
    images = {fname: (out_dir / fname).read_bytes() for _alt, fname in image_files}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, images)))
    return written
