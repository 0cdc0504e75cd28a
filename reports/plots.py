"""What every game's figures share: a figure on an Agg canvas, its PNG written atomically, error bars.

Figures are built with the object API (no pyplot state, never shown), rendered to PNG in memory
and written atomically (analyzer.io). The games' own figures are in reports/<game>/.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.io import atomic_write_bytes

__all__ = ["new_figure", "save_png", "ci_errors", "forest_plot", "legend", "seat_colour", "DPI", "BAR", "MEAN",
           "BOUNDARY", "SEAT_COLOURS"]

DPI = 110

# The colours of data marks: bars and lines, means and intervals, reference lines.
BAR = "#24507a"
MEAN = "#c0392b"
BOUNDARY = "#555555"

# One colour per seat in every game's plots, each dark enough to show on a white page as a bar, a line or a
# dot (no white seat: Catan's white pieces are drawn purple), and apart from BOUNDARY's grey reference lines.
SEAT_COLOURS = ("#d62728", "#1f5fbf", "#ff8c1a", "#6a3d9a", "#2e8b57", "#8c564b", "#e377c2", "#17becf")


def seat_colour(index: int) -> str:
    """Seat index+1's colour (0-based index), the same in every plot of every game."""
    return SEAT_COLOURS[index % len(SEAT_COLOURS)]


def new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def save_png(fig: Figure, path: str | os.PathLike, tight: bool = True) -> Path:
    """PNG of fig; tight=False keeps the figure's own margins (a tight box costs a second drawing)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight" if tight else None, pad_inches=0.12,
                facecolor="white", metadata={"Software": None})
    return atomic_write_bytes(path, buf.getvalue())


def legend(ax, **kwargs):
    """ax.legend(**kwargs) when the axes hold a labelled artist; None (and no matplotlib warning on stderr) when
    they hold none, as a plot of an empty run does."""
    handles, labels = ax.get_legend_handles_labels()
    return ax.legend(handles, labels, **kwargs) if handles else None


def ci_errors(means: Sequence[float], cis: Sequence) -> np.ndarray:
    """Error-bar lengths below and above each mean (2 x n) from its 95% CI; 0 where there is none."""
    return np.array([[0.0, 0.0] if lo is None else [m - lo, hi - m] for m, (lo, hi) in zip(means, cis)],
                    np.float64).reshape(-1, 2).T


def forest_plot(pairs: Sequence[dict], path: str | os.PathLike, xlabel: str, title: str,
                note: Callable[[dict], str]) -> Path:
    """Each pair's mean difference (a − b) with its 95% CI, a row per pair labelled `a − b`, zero marked and
    `note(pair)` written right of the interval ({"a", "b", "mean_diff", "ci95"} per pair, in the plotted units)."""
    fig = new_figure(9.0, 1.3 + 0.5 * len(pairs))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(pairs))[::-1]
    d = np.array([p["mean_diff"] for p in pairs])
    err = ci_errors(d, [p["ci95"] for p in pairs])  # no bar where one game gives no interval
    lo, hi = d - err[0], d + err[1]
    ax.axvline(0.0, color=BOUNDARY, lw=1.0, ls=":")
    ax.errorbar(d, y, xerr=err, fmt="o", color=BAR, ecolor=MEAN, elinewidth=2.2, capsize=4, ms=5)
    for yi, p, right in zip(y, pairs, hi):
        ax.annotate(note(p), (max(right, 0.0), yi), xytext=(8, 0), textcoords="offset points", va="center",
                    fontsize=8)
    ax.set_yticks(y, [f"{p['a']} − {p['b']}" for p in pairs])
    ax.set_ylim(-0.7, len(pairs) - 0.3)
    span = max(hi.max(), 0.0) - min(lo.min(), 0.0) or 1.0
    ax.set_xlim(min(lo.min(), 0.0) - 0.05 * span, max(hi.max(), 0.0) + 0.6 * span)  # room for the notes
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return save_png(fig, path)
