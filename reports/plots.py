"""What every game's figures share: a figure on an Agg canvas, its PNG written atomically, error bars.

Figures are built with the object API (no pyplot state, never shown), rendered to PNG in memory
and written atomically (analyzer.io). The games' own figures are in reports/<game>/.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.io import atomic_write_bytes

__all__ = ["new_figure", "save_png", "ci_errors", "DPI", "BAR", "MEAN", "BOUNDARY"]

DPI = 110

# The colours of data marks: bars and lines, means and intervals, reference lines.
BAR = "#24507a"
MEAN = "#c0392b"
BOUNDARY = "#555555"


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


def ci_errors(means: Sequence[float], cis: Sequence) -> np.ndarray:
    """Error-bar lengths below and above each mean (2 x n) from its 95% CI; 0 where there is none."""
    return np.array([[0.0, 0.0] if lo is None else [m - lo, hi - m] for m, (lo, hi) in zip(means, cis)],
                    np.float64).reshape(-1, 2).T
