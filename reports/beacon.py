"""The Beacon Patrol ``simulate`` report: plots, Markdown and a self-contained HTML page.

The document is assembled once as a list of simple blocks and rendered twice (Markdown and HTML),
so both files always carry the same content.
"""

from __future__ import annotations

import base64
import html
import math
from pathlib import Path
from typing import Any

import numpy as np

from analyzer import stats
from . import plots
from .io import atomic_write_text

__all__ = ["write_simulate_report", "report_title", "headline"]

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

def _f(x: Any, digits: int = 2) -> str:
    if x is None:
        return "—"
    x = float(x)
    if not math.isfinite(x):
        return "—"
    return f"{x:,.{digits}f}"


def _pct(p: Any, digits: int = 1) -> str:
    """Percent with ``digits`` decimals, more when needed so that 0 < p < 1 never shows as 0% or 100%."""
    if p is None or not math.isfinite(float(p)):
        return "—"
    v = 100.0 * float(p)
    if v <= 0.0 or v >= 100.0:
        return f"{v:.0f}%"
    d = digits
    while d < 6 and (round(v, d) == 0.0 or round(v, d) == 100.0):
        d += 1
    return f"{v:.{d}f}%"


def _int(x: Any) -> str:
    return "—" if x is None else f"{int(x):,}"


# --------------------------------------------------------------------------- document model
# Blocks: ("h1"|"h2"|"p"|"warn", text) ; ("table", headers, rows, align) ; ("ul", items) ;
# ("img", alt, filename) ; ("code", text)


def _render_md(blocks: list[tuple]) -> str:
    out: list[str] = []
    for b in blocks:
        kind = b[0]
        if kind == "h1":
            out.append(f"# {b[1]}")
        elif kind == "h2":
            out.append(f"## {b[1]}")
        elif kind == "p":
            out.append(b[1])
        elif kind == "warn":
            out.append(f"> **Warning.** {b[1]}")
        elif kind == "table":
            headers, rows, align = b[1], b[2], b[3]
            cell = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
            out.append("| " + " | ".join(cell(h) for h in headers) + " |")
            out.append("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
            for row in rows:
                out.append("| " + " | ".join(cell(c) for c in row) + " |")
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in b[1]))
        elif kind == "img":
            out.append(f"![{b[1]}]({b[2]})")
        elif kind == "code":
            out.append("```\n" + b[1] + "\n```")
        else:  # pragma: no cover - programming error
            raise ValueError(kind)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:980px;margin:2em auto;
padding:0 1em;color:#1d2733;line-height:1.45}
h1{font-size:1.55em;border-bottom:2px solid #24507a;padding-bottom:.25em}
h2{font-size:1.2em;margin-top:1.8em;color:#24507a}
p.headline{font-size:1.12em;background:#eef4fa;border-left:4px solid #24507a;padding:.6em .9em}
table{border-collapse:collapse;margin:.6em 0;font-size:.93em}
th,td{border:1px solid #d3dbe3;padding:.28em .7em}
th{background:#eef2f6;text-align:left}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;height:auto;display:block;margin:.8em 0}
.warn{background:#fff4e0;border-left:4px solid #e69500;padding:.6em .9em}
pre{background:#f4f6f8;padding:.7em;overflow-x:auto;white-space:pre-wrap}
""".strip()


def _render_html(blocks: list[tuple], title: str, images: dict[str, bytes]) -> str:
    e = html.escape
    body: list[str] = []
    first_p = True
    for b in blocks:
        kind = b[0]
        if kind == "h1":
            body.append(f"<h1>{e(b[1])}</h1>")
        elif kind == "h2":
            body.append(f"<h2>{e(b[1])}</h2>")
        elif kind == "p":
            cls = ' class="headline"' if first_p else ""
            first_p = False
            body.append(f"<p{cls}>{e(b[1])}</p>")
        elif kind == "warn":
            body.append(f'<p class="warn"><strong>Warning.</strong> {e(b[1])}</p>')
        elif kind == "table":
            headers, rows, align = b[1], b[2], b[3]
            cls = lambda a: ' class="r"' if a == "r" else ""  # noqa: E731
            head = "".join(f"<th{cls(a)}>{e(str(h))}</th>" for h, a in zip(headers, align))
            trs = "".join("<tr>" + "".join(f"<td{cls(a)}>{e(str(c))}</td>" for c, a in zip(row, align)) + "</tr>"
                          for row in rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{trs}</tbody></table>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{e(item)}</li>" for item in b[1]) + "</ul>")
        elif kind == "img":
            data = base64.b64encode(images[b[2]]).decode("ascii")
            body.append(f'<img alt="{e(b[1])}" src="data:image/png;base64,{data}">')
        elif kind == "code":
            body.append(f"<pre><code>{e(b[1])}</code></pre>")
        else:  # pragma: no cover
            raise ValueError(kind)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{e(title)}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


# --------------------------------------------------------------------------- content

def report_title(summary: dict) -> str:
    policy = summary.get("policy", "unknown policy")
    players = summary.get("players")
    if players is None:
        who = "unknown players"
    else:
        who = f"{int(players)} player" + ("" if int(players) == 1 else "s")
    exps = list(summary.get("expansions") or [])
    return f"Beacon Patrol — {policy}, {who}, {', '.join(map(str, exps)) if exps else 'base game'}"


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
    ci = score_stats["ci95"] or [None, None]
    text = (f"Mean score {_f(mean, 1)} (95% CI {_f(ci[0], 1)}–{_f(ci[1], 1)}) over {_int(n)} "
            f"game{'s' if n != 1 else ''}")
    # "x% reach <band> or better", for the band that holds the mean (the next one if that is the lowest).
    if mean is not None and len(bands) > 1:
        idx = max(1, max(i for i, b in enumerate(bands) if i == 0 or mean >= b[1]))
        total = sum(int(rank_probs[nm]["count"]) for nm in names)
        reach = sum(int(rank_probs[nm]["count"]) for nm in names[idx:]) / total if total else float("nan")
        reach_txt = f"{100 * reach:.0f}%" if 0.01 <= reach <= 0.99 else _pct(reach)
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
    """{column: {mean, std, min, max}}: from the per-game table, else the runner's aggregates."""
    if games is None:
        return dict(summary.get("columns") or {})
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

    tile_set = summary.get("tile_set") or {}
    if tile_set.get("reconstruction"):
        blocks.append(("warn", "These results use a reconstructed tile set; see “Data and assumptions”."))

    # Summary statistics.
    ci = ss["ci95"] or [None, None]
    half = (ci[1] - ci[0]) / 2 if None not in ci else None
    rows = [["games", _int(ss["games"])],
            ["mean score", _f(ss["mean"])],
            ["standard deviation", _f(ss["std"])],
            ["standard error of the mean", _f(ss["sem"], 3)],
            ["95% CI of the mean (Student t)", f"{_f(ci[0])} – {_f(ci[1])} (± {_f(half, 3)})"]]
    low, high = (scores.min(), scores.max()) if scores.size else (summary.get("min"), summary.get("max"))
    if low is not None:
        rows.append(["minimum / maximum", f"{_f(low, 0)} / {_f(high, 0)}"])
    for key, val in (ss["percentiles"] or {}).items():
        label = {"p50": "median (p50)"}.get(key, f"{key[1:]}th percentile ({key})")
        rows.append([label, _f(val, 1)])
    best = summary.get("best_game")
    if best:
        rows.append(["best game", f"#{best.get('game')} with score {_f(best.get('score'), 0)}"])
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
        rrows.append([name, rng, _int(rp["count"]), f"{_pct(rp['p'])} ({_pct(lo_ci)} – {_pct(hi_ci)})",
                      _pct(reach)])
    blocks += [("h2", "Rank bands"),
               ("p", "Probability of finishing in each rank band, with a 95% Wilson score interval; "
                     "the last column is the share of games reaching that band or better."),
               ("table", ["band", "score range", "games", "probability (95% CI)", "this band or better"],
                rrows, ["l", "l", "r", "r", "r"])]

    # Per-game averages of the other numeric columns.
    averages = _column_averages(summary, games)
    if averages:
        arows = [[_COLUMN_LABELS.get(c, c), c, _f(a["mean"]), _f(a["std"]), _f(a["min"], 0), _f(a["max"], 0)]
                 for c, a in averages.items()]
        blocks += [("h2", "Per-game averages"),
                   ("table", ["quantity", "column", "mean", "std", "min", "max"], arows,
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
        items.append(f"backend: {run['backend']}, {run.get('workers')} worker thread(s), {run.get('chunks')} chunks")
    elif summary.get("threads") is not None:
        items.append(f"threads: {summary['threads']}")
    if run.get("precision"):
        p = run["precision"]
        reached = "reached" if run.get("stopped") == "precision" else "not reached (stopped at --max-games)"
        items.append(f"run to precision: ±{p['target_half_width']:g} on the {p['statistic']} {reached}; "
                     f"achieved ±{_f(p['half_width'], 4)} with min/max games {_int(p['min_games'])}/{_int(p['max_games'])}")
    if (run.get("checkpoint") or {}).get("resumed_games"):
        items.append(f"resumed {_int(run['checkpoint']['resumed_games'])} games from checkpoint "
                     f"{run['checkpoint']['dir']}")
    if summary.get("wall_seconds") is not None:
        rate = summary.get("games_per_second")
        items.append(f"wall time: {_f(summary['wall_seconds'], 1)} s"
                     + (f" ({_f(rate, 0)} games/s)" if rate is not None else ""))
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
    image_files.append(("Cumulative distribution of final scores", "score_ecdf.png"))
    if best_layout is not None:
        best = summary.get("best_game") or {}
        board_title = "Best game"
        if best:
            board_title = f"Best game (#{best.get('game')}, score {_f(best.get('score'), 0)})"
        written.append(plots.beacon_board(out_dir / "best_board.png", best_layout, tiles, board_title))
        image_files.append(("Board of the best game", "best_board.png"))

    title, blocks = _build_blocks(summary, games, image_files)
    images = {fname: (out_dir / fname).read_bytes() for _alt, fname in image_files}
    written.append(atomic_write_text(out_dir / "report.md", _render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", _render_html(blocks, title, images)))
    return written


def run_items(summary: dict, count: str, rate_key: str, unit: str) -> list[str]:
    """Seed, size of the run, versions and wall time: the facts that reproduce a report."""
    items = [f"seed: {summary['seed']}", count,
             "versions: " + ", ".join(f"{k} {v}" for k, v in summary.get("versions", {}).items())]
    if summary.get("wall_seconds") is not None:
        items.append(f"wall time: {_f(summary['wall_seconds'], 1)} s ({_f(summary.get(rate_key), 0)} {unit}/s)")
    return items


def reproduce_blocks(summary: dict, items: list[str]) -> list:
    """The closing "Reproduce" section: the command line, then the run's facts."""
    blocks = [("h2", "Reproduce")]
    if summary.get("command"):
        blocks.append(("code", str(summary["command"])))
    return blocks + [("ul", items)]
