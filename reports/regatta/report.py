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


def seat_figure(seat: list[dict], path: Path) -> Path:
    """Win rate per boat (seat order) with its 95% Wilson interval, and the fair share."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(seat))
    win = np.array([s["win"] for s in seat])
    err = np.array([[s["win"] - s["ci95"][0] for s in seat], [s["ci95"][1] - s["win"] for s in seat]])
    ax.bar(x, 100 * win, yerr=100 * err, capsize=4, color="#4878a8", label="wins (95% CI)")
    ax.axhline(100 / len(seat), color="#c44e52", linestyle="--", label="fair share")
    ax.set_xticks(x, [f"boat {s['seat']}" for s in seat])
    ax.set_ylabel("races won (%)")
    ax.set_title("Win rate per boat, in playing order")
    ax.legend()
    return save_png(fig, path)


def card_use_figure(names: list[str], per_race: np.ndarray, path: Path) -> Path:
    """Mean uses per race of each action kind (cards played, reveals, negates, trades)."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    ax.barh(np.arange(len(names)), per_race, color="#4878a8", label="mean per race")
    ax.set_yticks(np.arange(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("uses per race (all players)")
    ax.set_title("Card and action use")
    ax.legend()
    return save_png(fig, path)


def write(stage: Path, headline: str, sections: list[tuple], turns: np.ndarray, capped: np.ndarray,
          assumptions: list[str], seat: list[dict] | None = None, use: tuple | None = None) -> None:
    png = race_length_figure(turns, capped, stage / "race_length.png")
    images = {png.name: png.read_bytes()}
    if seat:
        seat_png = seat_figure(seat, stage / "seat_win.png")
        images[seat_png.name] = seat_png.read_bytes()
        sections = [*sections, ("img", "Win rate per boat", seat_png.name)]
    if use:
        use_png = card_use_figure(*use, stage / "card_use.png")
        images[use_png.name] = use_png.read_bytes()
        sections = [*sections, ("img", "Card and action use", use_png.name)]
    blocks = [("h1", headline), *sections, ("img", "Race length distribution", png.name),
              ("h2", "Assumptions (defaults where seed 003 is silent)"), ("ul", assumptions)]
    (stage / "report.md").write_text(render_md(blocks), "utf-8")
    (stage / "report.html").write_text(render_html(blocks, "Regatta", images), "utf-8")
