"""The Beacon Patrol ``compare`` report: overlaid distributions, rank bands, paired differences.

Built from ``summary.json`` (analyzer.beacon.comparison) and the long per-game table, with the same
block model and renderers as the ``simulate`` report, so report.md and report.html match.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.lines import Line2D

from analyzer.io import atomic_write_text
from reports import plots as figures
from reports.beacon import plots
from reports.beacon.simulate import _COLUMN_LABELS, _reconstruction_warning, band_shift_sentence
from reports.document import ci_range, integer, num, pct, plural, render_html, render_md

__all__ = ["write_compare_report", "compare_title", "score_distributions", "rank_band_bars", "paired_differences"]

# One colour per arm (matplotlib's tab10), in arm order.
_ARM_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                "#bcbd22", "#17becf")


def _colour(i: int) -> str:
    return _ARM_COLOURS[i % len(_ARM_COLOURS)]


def _tidy(ax) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


# --------------------------------------------------------------------------- plots

def score_distributions(scores_by_arm: dict[str, np.ndarray], rank_names, rank_lower_bounds, path) -> Path:
    """Share of games per score, one outline per arm over shaded rank bands, with each arm's mean.

    A spike far above the other arms' peaks (random's many games at 0) would flatten every other
    shape, so the axis stops at 1.5x the second-highest arm's peak and a clipped spike is labelled
    with its height."""
    pooled = np.concatenate([np.asarray(s, np.float64) for s in scores_by_arm.values()])
    vals, cnts = np.unique(pooled, return_counts=True)
    x0, x1 = plots.x_limits(vals)
    fig = figures.new_figure(9.0, 4.8)
    ax = fig.add_subplot(1, 1, 1)
    plots.shade_bands(ax, plots.band_ranges(rank_names, rank_lower_bounds), vals, cnts, x0, x1, with_share=False)
    shares = {}
    for label, scores in scores_by_arm.items():
        s = np.asarray(scores, np.int64)
        shares[label] = (s, 100.0 * np.bincount(s - s.min()) / s.size)
    peaks = sorted(share.max() for _s, share in shares.values())
    top = min(peaks[-1], 1.5 * peaks[-2]) if len(peaks) > 1 else peaks[-1]
    handles = []
    for i, (label, (s, share)) in enumerate(shares.items()):
        bins = np.arange(s.min(), s.max() + 2)
        ax.stairs(np.minimum(share, top), bins - 0.5, color=_colour(i), lw=1.8, zorder=3 + i)
        ax.axvline(s.mean(), ymax=0.8, color=_colour(i), lw=1.2, ls="--", zorder=3 + i)
        cut = np.flatnonzero(share > top)
        for run in np.split(cut, np.flatnonzero(np.diff(cut) > 1) + 1) if cut.size else []:
            _label_cut_bars(ax, bins[run], share[run], top, _colour(i))
        handles.append(Line2D([], [], color=_colour(i), lw=1.8, label=f"{label} (mean {s.mean():.1f})"))
    ax.set_xlim(x0, x1)
    ax.set_ylim(0, top * 1.32)  # headroom for the band labels
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games (%)")
    clipped = "; taller bars cut, their height written" if peaks[-1] > top else ""
    ax.set_title(f"Score distributions on the same games (dashed: means{clipped})", fontsize=11)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=min(len(handles), 3),
              fontsize=8, frameon=False)  # below the axes: never over the data
    _tidy(ax)
    return figures.save_png(fig, path)


def _label_cut_bars(ax, scores, heights, top, colour) -> None:
    """Write the height of bars cut at `top`: one label over a lone bar; beside a run of adjacent bars, one label
    listing them (labels over neighbouring bars would overlap)."""
    if len(scores) == 1:
        ax.annotate(f"{heights[0]:.0f}%", (scores[0], top), xytext=(0, 2), textcoords="offset points",
                    fontsize=7, color=colour, ha="center", va="bottom", zorder=10)
        return
    listed = ", ".join(f"{h:.0f}" for h in heights)
    ax.annotate(f"{listed}% at scores {scores[0]:.0f}–{scores[-1]:.0f}", (scores[-1] + 0.5, top), xytext=(3, -1),
                textcoords="offset points", fontsize=7, color=colour, ha="left", va="top", zorder=10)


def rank_band_bars(band_shares: dict[str, list[float]], rank_names, path) -> Path:
    """One 100% stacked bar per arm: the share of games finishing in each rank band."""
    labels = list(band_shares)
    shares = 100.0 * np.asarray([band_shares[a] for a in labels], np.float64)
    colours = matplotlib.colormaps["Blues"](np.linspace(0.18, 0.95, len(rank_names)))
    fig = figures.new_figure(9.0, 1.2 + 0.55 * len(labels))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(labels))[::-1]
    left = np.zeros(len(labels))
    for k, name in enumerate(rank_names):
        ax.barh(y, shares[:, k], left=left, color=colours[k], height=0.62, label=name, lw=0)
        for yi, lo, w in zip(y, left, shares[:, k]):
            if w >= 6.0:
                ax.text(lo + w / 2, yi, f"{w:.0f}%", ha="center", va="center", fontsize=8,
                        color="white" if k >= len(rank_names) / 2 else "#1d2733")
        left += shares[:, k]
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.set_title("Rank bands reached", fontsize=11)
    figures.legend(ax, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    _tidy(ax)
    return figures.save_png(fig, path)


def paired_differences(pairs: list[dict], path) -> Path:
    """Forest plot: each pair's mean score difference (a − b) with its 95% CI; zero marked."""
    return figures.forest_plot(pairs, path, "mean score difference per game, a − b (95% CI)",
                               "Paired differences on the same games",
                               lambda p: f"{p['mean_diff']:+.2f}  (higher in {pct(p['p_better'], 0)} of games)")


# --------------------------------------------------------------------------- content

def compare_title(summary: dict) -> str:
    players = int(summary["players"])
    exps = list(summary.get("expansions") or [])
    arms = " vs ".join(a["label"] for a in summary["arms"])
    return (f"Beacon Patrol — compare {arms}, {players} player{'' if players == 1 else 's'}, "
            f"{', '.join(exps) if exps else 'base game'}")


def _headline(summary: dict) -> str:
    pairs = summary["pairs"]
    if len(pairs) == 1:
        return pairs[0]["sentence"]
    ranked = sorted(summary["policies"].items(), key=lambda kv: -kv[1]["mean"])
    return ("By mean score: " + " > ".join(f"{_arm_name(summary, label)} {num(s['mean'], 1)}" for label, s in ranked)
            + f" ({integer(summary['games'])} games each; sentences per pair below).")


def _arm_name(summary: dict, label: str) -> str:
    return label + (" †" if not summary["policies"][label]["fair"] else "")


def _score_rows(summary: dict) -> list[list[str]]:
    rows = []
    for label, s in summary["policies"].items():
        pct = s["percentiles"]
        rows.append([_arm_name(summary, label), integer(s["games"]),
                     f"{num(s['mean'])} ({ci_range(s['ci95'])})", num(s["std"]),
                     num(pct.get("p5"), 0), num(pct.get("p50"), 0), num(pct.get("p95"), 0),
                     f"{s['min']} – {s['max']}"])
    return rows


def _band_rows(summary: dict, names: list[str]) -> list[list[str]]:
    rows = []
    for label, s in summary["policies"].items():
        cells = []
        for name in names:
            rp = s["rank_probabilities"][name]
            cells.append(f"{pct(rp['p'])} ({pct(rp['ci95'][0])} – {pct(rp['ci95'][1])})")
        rows.append([_arm_name(summary, label), *cells])
    return rows


def _pair_rows(summary: dict) -> list[list[str]]:
    """One row per pair: the paired score difference and how the games split."""
    rows = []
    for p in summary["pairs"]:
        p_value = "—" if p["p_value"] is None else (f"{p['p_value']:.2g}" if p["p_value"] >= 1e-4 else "< 0.0001")
        rows.append([f"{p['a']} − {p['b']}", f"{num(p['mean_diff'])} ({ci_range(p['ci95'])})",
                     f"{pct(p['p_better'])} / {pct(p['p_tie'])} / {pct(p['p_worse'])}", p_value])
    return rows


def _pair_band_rows(summary: dict) -> list[list[str]]:
    """One row per pair: the share of games reaching the pair's band or better, a vs b."""
    rows = []
    for p in summary["pairs"]:
        band = p.get("band")
        if band:
            rows.append([f"{p['a']} − {p['b']}", f"{band['name']}{'' if band.get('top') else ' or better'}",
                         pct(band["reach_a"]), pct(band["reach_b"]),
                         f"{num(100 * band['diff'], 1)} ({ci_range([100 * v for v in band['ci95']], 1)})"])
    return rows


def _pairing_note(summary: dict) -> str:
    kinds = {p["same_deals"] for p in summary["pairs"]}
    if kinds == {True}:
        return "Every pair played the same deals."
    if kinds == {False}:
        return "The pairs share seeds only (different tile sets deal different games)."
    return ("Pairs on one tile set played the same deals; pairs across tile sets share seeds only: "
            + ", ".join(f"{p['a']} − {p['b']}" for p in summary["pairs"] if not p["same_deals"]) + ".")


def _oracle_blocks(summary: dict) -> list[tuple]:
    oracle = summary.get("oracle")
    if not oracle:
        return []
    rows = []
    for g in oracle["gaps"]:
        closed = "—" if g["share_closed"] is None else pct(g["share_closed"], 0)
        rows.append([g["policy"], g["oracle"], f"{num(g['mean_gap'])} ({ci_range(g['ci95'])})",
                     g["worst"], closed])
    return [("h2", "Gap to the oracle"), ("warn", oracle["note"]), ("ul", [g["sentence"] for g in oracle["gaps"]]),
            ("table", ["policy", "oracle", "mean gap per game (points, 95% CI, paired)", "weakest policy",
                       "share of gap closed (%)"],
             rows, ["l", "l", "r", "l", "r"]),
            ("p", "Share of the gap closed = (policy mean − weakest mean) / (oracle mean − weakest mean), within "
                  "one tile set: 0% for the weakest policy, 100% would match the oracle. It is a ratio of two "
                  "estimates, shown without an interval; the paired gap has one.")]


def _average_rows(summary: dict) -> list[list[str]]:
    arms = list(summary["policies"])
    columns = summary["policies"][arms[0]]["columns"]
    return [[_COLUMN_LABELS.get(c, c), *(num(summary["policies"][a]["columns"][c]["mean"]) for a in arms)]
            for c in columns]


def _build_blocks(summary: dict, image_files: list[tuple[str, str]]) -> tuple[str, list[tuple]]:
    title = compare_title(summary)
    names = list(summary["rank_bands"]["names"])
    arms = list(summary["policies"])
    blocks: list[tuple] = [("h1", title), ("p", _headline(summary))]
    tile_sets = {s["tile_set"]["label"]: s["tile_set"] for s in summary["policies"].values()}
    if any(ts.get("reconstruction") for ts in tile_sets.values()):
        blocks.append(("warn", "These results use a reconstructed tile set; see “Data and assumptions”. "
                               "Differences between policies are more trustworthy than absolute scores."))
    for label, s in summary["policies"].items():
        if not s["fair"]:
            blocks.append(("warn", f"† {label} is {s.get('note', 'not a fair policy')}."))
    images = dict((fname, alt) for alt, fname in image_files)

    blocks += [("h2", "What was compared"),
               ("p", f"{len(arms)} arms ({summary['compares']}), {plural(summary['games'], 'game')} each, seed "
                     f"{summary['seed']}. {summary['pairing']}")]

    blocks += [("h2", "Scores"),
               ("table", ["arm", "games", "mean score (points, 95% CI)", "std (points)", "p5 (points)",
                          "median (points)", "p95 (points)", "min – max (points)"],
                _score_rows(summary), ["l", "r", "r", "r", "r", "r", "r", "r"])]
    if "score_distributions.png" in images:
        blocks.append(("img", images["score_distributions.png"], "score_distributions.png"))

    blocks += [("h2", "Rank bands"),
               ("p", "Probability of finishing in each band, with a 95% Wilson score interval."
                     + (" " + band_shift_sentence(summary) if band_shift_sentence(summary) else "")),
               ("table", ["arm", *[f"{name}, % of games (95% CI)" for name in names]], _band_rows(summary, names),
                ["l"] + ["r"] * len(names))]
    if "rank_bands.png" in images:
        blocks.append(("img", images["rank_bands.png"], "rank_bands.png"))

    blocks += [("h2", "Paired differences"),
               ("ul", [p["sentence"] for p in summary["pairs"]]),
               ("p", "Each pair is a − b on the same games (a: the arm with the higher mean). The interval is a "
                     "Student-t interval of the per-game differences (a paired t interval); the split gives the "
                     f"shares of games where a scores more, the same, or less. {_pairing_note(summary)}"),
               ("table", ["pair (a − b)", "mean difference (points, 95% CI)",
                          "a higher / tie / b higher (% of games)", "p-value (paired t)"], _pair_rows(summary),
                ["l", "r", "r", "r"])]
    band_rows = _pair_band_rows(summary)
    if band_rows:
        blocks += [("p", f"How the rank band is chosen. {summary['band_rule']} The columns give the share of games "
                         "reaching that band or better, and the difference of those shares in percentage points "
                         "with Newcombe's interval for shares measured on the same games."),
                   ("table", ["pair (a − b)", "rank band", "a reaches (% of games)", "b reaches (% of games)",
                              "difference in percentage points (95% CI)"], band_rows, ["l", "l", "r", "r", "r"])]
    if "paired_differences.png" in images:
        blocks.append(("img", images["paired_differences.png"], "paired_differences.png"))

    blocks += _oracle_blocks(summary)
    blocks += [("h2", "Per-game averages"),
               ("table", ["quantity (mean per game)", *arms], _average_rows(summary), ["l"] + ["r"] * len(arms))]

    blocks.append(("h2", "Data and assumptions"))
    for label, ts in tile_sets.items():
        name = label if label == ts.get("name") else f"{label} ({ts.get('name')})"
        blocks.append(("p", f"Tile set {name}: sha256 {str(ts.get('sha256'))[:12]}, "
                            f"{integer(ts.get('n_active'))} tiles in play."))
        if ts.get("reconstruction"):
            blocks.append(("warn", _reconstruction_warning(ts)))
    blocks += [("p", "Assumptions made where the rules are silent or the data is uncertain:"),
               ("ul", [str(a) for a in summary.get("assumptions") or []] or ["none recorded"])]

    blocks.append(("h2", "Reproduce"))
    if summary.get("command"):
        blocks.append(("code", str(summary["command"])))
    run = summary.get("run") or {}
    items = [f"seed: {summary['seed']}",
             "versions: " + ", ".join(f"{k} {v}" for k, v in (summary.get("versions") or {}).items())]
    if run.get("backend"):
        items.append(f"backend: {run['backend']}, {run.get('workers')} worker(s); arms played one after another, "
                     f"{num(run.get('wall_seconds'), 1)} s in all")
    blocks.append(("ul", items))
    return title, blocks


# --------------------------------------------------------------------------- entry point

def write_compare_report(out_dir: Path, summary: dict, games) -> list[Path]:
    """Write the three plots, ``report.md`` and a self-contained ``report.html`` into ``out_dir``.

    ``games`` is the long per-game table (columns ``arm``, ``score``, ``rank``). Every write is atomic.
    """
    out_dir = Path(out_dir)
    rb = summary["rank_bands"]
    arms = list(summary["policies"])
    scores = {a: games.filter(games["arm"] == a)["score"].to_numpy() for a in arms}
    shares = {a: [summary["policies"][a]["rank_probabilities"][n]["p"] for n in rb["names"]] for a in arms}
    image_files = [("Overlaid score distributions of every arm", "score_distributions.png"),
                   ("Share of games in each rank band, per arm", "rank_bands.png"),
                   ("Paired score differences with 95% intervals", "paired_differences.png")]
    written = [score_distributions(scores, rb["names"], rb["lower_bounds"], out_dir / "score_distributions.png"),
               rank_band_bars(shares, rb["names"], out_dir / "rank_bands.png"),
               paired_differences(summary["pairs"], out_dir / "paired_differences.png")]
    title, blocks = _build_blocks(summary, image_files)
    images = {fname: (out_dir / fname).read_bytes() for _alt, fname in image_files}
    written.append(atomic_write_text(out_dir / "report.md", render_md(blocks)))
    written.append(atomic_write_text(out_dir / "report.html", render_html(blocks, title, images)))
    return written
