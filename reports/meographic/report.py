"""The Meographic simulate/compare reports: report.md and report.html (figures inlined), first line the answer
with its 95% CI, and the figures: score histograms per seat and per bot, points by source, mission cards
completed, seat win rates, the best game's area."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.document import render_html, render_md
from reports.plots import BOUNDARY, MEAN, new_figure, save_png

COLOURS = ("#24507a", "#c0392b", "#2e8b57", "#b8860b", "#6a5acd", "#708090")
TYPE_COLOURS = ("#2e7d32", "#8d6e63", "#1e88e5", "#fbc02d", "#ffe0b2", "#8e24aa", "#00897b", "#e53935", "#546e7a")
SOURCE_NAMES = ("tile", "adjacency", "missions", "cover bonus")


def score_histograms(groups: dict[str, np.ndarray], title: str, path: Path) -> Path:
    """One outlined histogram per group (a seat or a bot) on shared bins, its mean as a dashed line."""
    fig = new_figure(7, 3.4)
    ax = fig.add_subplot(1, 1, 1)
    values = np.concatenate(list(groups.values()))
    bins = np.arange(values.min(), values.max() + 3, max(1, int(np.ceil((values.max() - values.min() + 1) / 40))))
    for k, (label, scores) in enumerate(groups.items()):
        colour = COLOURS[k % len(COLOURS)]
        ax.hist(scores, bins=bins - 0.5, histtype="step", linewidth=1.6, color=colour,
                weights=np.full(scores.size, 100 / scores.size), label=f"{label} (mean {scores.mean():.1f})")
        ax.axvline(scores.mean(), color=colour, linestyle="--", linewidth=1)
    ax.plot([], [], color="grey", linestyle="--", linewidth=1, label="dashed: the mean, in its colour")
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("share of games (%)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)  # below: never on a line
    return save_png(fig, path)


def sources_figure(labels: list[str], means: np.ndarray, path: Path) -> Path:
    """Mean points per game by source (tile, adjacency, missions, cover bonus), one stacked bar per label."""
    fig = new_figure(7, 0.9 + 0.55 * len(labels))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(labels))
    left = np.zeros(len(labels))
    for k, name in enumerate(SOURCE_NAMES):
        ax.barh(y, means[:, k], left=left, color=COLOURS[k], label=name)
        for i in range(len(labels)):
            if means[i, k] >= 4:
                ax.text(left[i] + means[i, k] / 2, y[i], f"{means[i, k]:.1f}", ha="center", va="center",
                        color="white", fontsize=8)
        left += means[:, k]
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("mean points per game")
    ax.set_title("Points by source")
    ax.legend(fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.22 - 0.1 / len(labels)))
    return save_png(fig, path)


def missions_figure(rates: list[dict], path: Path) -> Path:
    """Per mission card: the share of the games it was turned up in where some seat completed it (95% CI)."""
    shown = [r for r in rates if r["revealed"]]
    fig = new_figure(7, 1.0 + 0.3 * max(len(shown), 1))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(shown))
    share = np.array([100 * r["completed"] for r in shown])
    err = np.array([[100 * (r["completed"] - r["ci95"][0]) for r in shown],
                    [100 * (r["ci95"][1] - r["completed"]) for r in shown]]).reshape(2, -1)
    ax.barh(y, share, xerr=err, capsize=3, color=COLOURS[0], label="completed at least once (95% CI)")
    ax.set_yticks(y, [f"{r['id']}  {r['shape']}  ({r['points']} pts)" for r in shown], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("games in which the card was turned up and completed by some seat (%)")
    ax.set_title("How often each mission card is completed")
    ax.legend(fontsize=8, loc="lower right")
    return save_png(fig, path)


def seat_figure(seat: list[dict], path: Path, title: str = "Win share per seat, in playing order") -> Path:
    """Win share per seat (ties split) with its 95% CI, and the fair share."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(seat))
    win = np.array([s["win"] for s in seat])
    err = np.array([[s["win"] - s["ci95"][0] for s in seat], [s["ci95"][1] - s["win"] for s in seat]])
    ax.bar(x, 100 * win, yerr=100 * err, capsize=4, color=COLOURS[0], label="win share, ties split (95% CI)")
    ax.axhline(100 / len(seat), color=MEAN, linestyle="--", label="fair share")
    ax.set_xticks(x, [s["name"].replace(" (", "\n(") for s in seat])
    ax.set_ylabel("games won (%)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2)  # below: never on a bar
    return save_png(fig, path)


def area_figure(btype: np.ndarray, bpts: np.ndarray, type_names: list[str], title: str, path: Path) -> Path:
    """A seat's area as a picture: each tile coloured by its landscape type, its points written on it."""
    rows, cols = np.nonzero(btype >= 0)
    r0, r1, c0, c1 = rows.min(), rows.max(), cols.min(), cols.max()
    h, w = r1 - r0 + 1, c1 - c0 + 1
    fig = new_figure(min(1.0 + 0.55 * w, 9), min(1.2 + 0.55 * h, 9))
    ax = fig.add_subplot(1, 1, 1)
    for r, c in zip(rows, cols):
        t = int(btype[r, c])
        ax.add_patch(_square(c - c0, r - r0, TYPE_COLOURS[t % len(TYPE_COLOURS)]))
        ax.text(c - c0 + 0.5, r - r0 + 0.5, str(int(bpts[r, c])), ha="center", va="center", fontsize=11,
                color="black", weight="bold")
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    used = sorted({int(t) for t in btype[btype >= 0]})
    handles = [_square(0, 0, TYPE_COLOURS[t % len(TYPE_COLOURS)]) for t in used]
    ax.legend(handles, [type_names[t] for t in used], fontsize=8, loc="upper center", ncol=len(used),
              bbox_to_anchor=(0.5, -0.02), title="landscape type (number: the tile's points)", title_fontsize=8)
    ax.set_title(title, fontsize=10)
    return save_png(fig, path)


def _square(x, y, colour):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), 1, 1, facecolor=colour, edgecolor=BOUNDARY, linewidth=1)


def difference_figure(diff: np.ndarray, a: str, b: str, path: Path) -> Path:
    """The per-game paired difference (a less b), its mean dashed."""
    fig = new_figure(7, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    lo, hi = np.floor(diff.min()), np.ceil(diff.max())
    bins = np.linspace(lo - 0.5, hi + 0.5, int(min(hi - lo + 2, 60)))
    ax.hist(diff, bins=bins, color=COLOURS[0], weights=np.full(diff.size, 100 / diff.size),
            label="games (same luck for both)")
    ax.axvline(diff.mean(), color=MEAN, linestyle="--", label=f"mean {diff.mean():+.1f}")
    ax.axvline(0, color=BOUNDARY, linewidth=1)
    ax.set_xlabel(f"points per game: {a} less {b}")
    ax.set_ylabel("share of games (%)")
    ax.set_title("Paired difference, game by game")
    ax.legend(fontsize=8)
    return save_png(fig, path)


def write(stage: Path, headline: str, sections: list[tuple], figures: list[tuple[str, str]],
          assumptions: list[str], reproduce: list[tuple]) -> None:
    """report.md and report.html: the headline, the sections, each figure (title, PNG name in stage), the
    assumptions the figures rest on, how to reproduce them."""
    images = {name: (stage / name).read_bytes() for _, name in figures}
    blocks = [("h1", headline), *sections, *[("img", title, name) for title, name in figures],
              ("h2", "Assumptions (reconstructions where the Cational Meographic rulebook is silent)"),
              ("ul", assumptions), *reproduce]
    (stage / "report.md").write_text(render_md(blocks), "utf-8")
    (stage / "report.html").write_text(render_html(blocks, "Cational Meographic", images), "utf-8")
