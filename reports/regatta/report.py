"""The Regatta simulate/compare report: report.md and report.html (figures inlined), first line the answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.document import render_html, render_md
from reports.plots import new_figure, save_png


def race_length_figure(turns: np.ndarray, capped: np.ndarray, path: Path) -> Path:
    """Races that ended with a winner, one bar per turn count; the capped ones are counted in the title (at
    the cap they would squash every other bar)."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    won = turns[capped == 0]
    if won.size:
        ax.hist(won, bins=np.arange(won.min(), won.max() + 2) - 0.5, color="#4878a8", label="races with a winner")
    ax.set_xlabel("race length (turns, all players' turns counted)")
    ax.set_ylabel("races")
    ax.set_title(f"Race length distribution ({int((capped == 1).sum()):,} capped races not shown)")
    ax.legend()
    return save_png(fig, path)


def write(stage: Path, headline: str, sections: list[tuple], turns: np.ndarray, capped: np.ndarray,
          assumptions: list[str]) -> None:
    png = race_length_figure(turns, capped, stage / "race_length.png")
    blocks = [("h1", headline), *sections, ("img", "Race length distribution", png.name),
              ("h2", "Assumptions (defaults where seed 003 is silent)"), ("ul", assumptions)]
    (stage / "report.md").write_text(render_md(blocks), "utf-8")
    (stage / "report.html").write_text(render_html(blocks, "Regatta", {png.name: png.read_bytes()}), "utf-8")
