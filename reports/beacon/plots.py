"""Beacon Patrol figures: score histogram and ECDF over the rank bands, the board of a game.

Built on reports/plots.py (figure, PNG, colours)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Rectangle
from matplotlib.transforms import blended_transform_factory

from reports.plots import BAR, BOUNDARY, MEAN, new_figure, save_png

__all__ = ["score_histogram", "score_ecdf", "beacon_board", "band_ranges", "shade_bands", "x_limits"]

# Pale band shades (low -> high rank) under the data marks.
_BAND_COLOURS = ("#eeeeee", "#e3eef8", "#cfe3f3", "#b5d3ec", "#93bfe3", "#6fa8d8", "#4f90c8")


def band_ranges(rank_names: Sequence[str], rank_lower_bounds: Sequence[int]) -> list[tuple[str, int, int | None]]:
    """``[(name, lo, hi_inclusive_or_None), ...]``: band i is [lb[i], lb[i+1]-1]; the last is open-ended."""
    names = list(rank_names)
    lbs = [int(v) for v in rank_lower_bounds]
    if len(names) != len(lbs) or not names:
        raise ValueError("rank_names and rank_lower_bounds must be non-empty and of equal length")
    if any(b <= a for a, b in zip(lbs, lbs[1:])):
        raise ValueError(f"rank_lower_bounds must be strictly increasing, got {lbs}")
    return [(n, lo, (lbs[i + 1] - 1) if i + 1 < len(lbs) else None) for i, (n, lo) in enumerate(zip(names, lbs))]


def _distribution(scores, counts=None) -> tuple[np.ndarray, np.ndarray]:
    """(distinct finite values, increasing; games with each): from per-game scores, or from a
    histogram when ``counts`` is given (then ``scores`` are the values, ``counts`` their games)."""
    if counts is None:
        arr = np.asarray(scores, dtype=np.float64).ravel()
        vals, cnts = np.unique(arr[np.isfinite(arr)], return_counts=True)
    else:
        vals = np.asarray(scores, dtype=np.float64).ravel()
        cnts = np.asarray(counts, dtype=np.int64).ravel()
        if vals.shape != cnts.shape:
            raise ValueError("score values and counts differ in length")
        keep = np.isfinite(vals) & (cnts > 0)
        order = np.argsort(vals[keep], kind="stable")
        vals, cnts = vals[keep][order], cnts[keep][order]
    if cnts.sum() == 0:
        raise ValueError("no finite scores to plot")
    return vals, cnts


def _band_label_range(lo: int, hi: int | None) -> str:
    return f"{lo}+" if hi is None else f"{lo}–{hi}"


def shade_bands(ax, bands, vals: np.ndarray, cnts: np.ndarray, x0: float, x1: float, with_share: bool) -> None:
    """Shade each rank band over the visible x range [x0, x1] and label it at the top."""
    n = cnts.sum()
    trans = blended_transform_factory(ax.transData, ax.transAxes)
    for i, (name, lo, hi) in enumerate(bands):
        left = lo - 0.5 if i > 0 else x0
        right = (hi + 0.5) if hi is not None else x1
        left_v, right_v = max(left, x0), min(right, x1)
        if right_v <= left_v:
            continue
        ax.axvspan(left_v, right_v, color=_BAND_COLOURS[min(i, len(_BAND_COLOURS) - 1)], zorder=0, lw=0)
        if i > 0 and x0 < lo - 0.5 < x1:
            ax.axvline(lo - 0.5, color=BOUNDARY, lw=0.8, ls=":", zorder=1)
        in_band = (vals >= (lo if i > 0 else -np.inf)) & (vals <= (hi if hi is not None else np.inf))
        text = f"{name}\n{_band_label_range(lo, hi)}"
        if with_share:
            text += f"\n{100.0 * cnts[in_band].sum() / n:.1f}%"
        # the label's font shrinks to its band's width (about 0.6 em a character) down to 6.5 pt; a band narrower
        # than that is labelled up its side, never over its neighbour's label
        band_points = (right_v - left_v) / (x1 - x0) * ax.get_position().width * ax.figure.get_figwidth() * 72
        size = min(8.0, band_points / (0.6 * max(len(line) for line in text.split("\n")) + 2))
        if size >= 6.5:
            ax.text((left_v + right_v) / 2, 0.985, text, transform=trans, ha="center", va="top",
                    fontsize=size, color="#333333", zorder=5, linespacing=1.15)
        elif band_points >= 10:
            ax.text((left_v + right_v) / 2, 0.985, text.replace("\n", " "), transform=trans, ha="center",
                    va="top", rotation=90, fontsize=7, color="#333333", zorder=5)


_SCORE_PLOT_MARGINS = dict(left=0.09, right=0.985, bottom=0.115, top=0.925)  # of a 9 x 4.6 in figure


def x_limits(vals: np.ndarray) -> tuple[float, float]:
    lo, hi = float(vals.min()), float(vals.max())
    pad = max(1.5, 0.04 * (hi - lo))
    return lo - pad, hi + pad


def score_histogram(scores, rank_names, rank_lower_bounds, path, counts=None) -> Path:
    """Integer-bin histogram (share of games per score) over shaded rank bands, with the mean.

    ``scores`` are per-game scores, or with ``counts`` the distinct scores of a histogram."""
    vals, cnts = _distribution(scores, counts)
    n = int(cnts.sum())
    bands = band_ranges(rank_names, rank_lower_bounds)
    bins, where = np.unique(np.rint(vals).astype(np.int64), return_inverse=True)
    share = 100.0 * np.bincount(where, weights=cnts) / n
    x0, x1 = x_limits(vals)

    fig = new_figure(9.0, 4.6)
    fig.subplots_adjust(**_SCORE_PLOT_MARGINS)
    ax = fig.add_subplot(1, 1, 1)
    shade_bands(ax, bands, vals, cnts, x0, x1, with_share=True)
    ax.bar(bins, share, width=0.88, color=BAR, zorder=3, lw=0)
    mean = float(np.dot(vals, cnts) / n)
    ax.axvline(mean, ymax=0.8, color=MEAN, lw=1.8, ls="--", zorder=4)  # stops below the band labels
    ax.set_xlim(x0, x1)
    ax.set_ylim(0, share.max() * 1.32)  # headroom for the band labels
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games (%)")
    ax.set_title(f"Score distribution ({n:,} games)", fontsize=11)
    ax.legend(handles=[Patch(color=BAR, label="games with this score"),
                       Line2D([], [], color=MEAN, lw=1.8, ls="--", label=f"mean {mean:.1f}")],
              loc="center right", fontsize=8, framealpha=0.9)
    ax.grid(axis="y", color="white", lw=0.8, zorder=2)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return save_png(fig, path, tight=False)


def score_ecdf(scores, rank_names, rank_lower_bounds, path, counts=None) -> Path:
    """The share of games scoring x or more (1 - the empirical CDF just below x), with rank-band
    boundaries: at each band's lower bound the curve's height is the share reaching that band or better,
    which is what the label beside it says.

    ``scores`` are per-game scores, or with ``counts`` the distinct scores of a histogram."""
    vals, cnts = _distribution(scores, counts)
    n = int(cnts.sum())
    bands = band_ranges(rank_names, rank_lower_bounds)
    at_least = cnts[::-1].cumsum()[::-1] / n  # share of games scoring vals[i] or more
    x0, x1 = x_limits(vals)

    fig = new_figure(9.0, 4.6)
    fig.subplots_adjust(**_SCORE_PLOT_MARGINS)
    ax = fig.add_subplot(1, 1, 1)
    shade_bands(ax, bands, vals, cnts, x0, x1, with_share=False)
    # a step down after each score: the height over [v, next v) is the share scoring more than v
    ax.step(np.r_[x0, vals, x1], np.r_[1.0, at_least, 0.0], where="pre", color=BAR, lw=2.0, zorder=3)
    for name, lo, _hi in bands[1:]:
        b = lo - 0.5
        if not x0 < b < x1:
            continue
        reach = cnts[vals >= lo].sum() / n
        ax.plot([b], [reach], marker="o", ms=4, color=MEAN, zorder=4)
        ax.annotate(f"{100 * reach:.1f}% reach {name}+", (b, reach), xytext=(5, 3), textcoords="offset points",
                    fontsize=8, color=MEAN, ha="left", va="bottom", zorder=5)
    ax.set_xlim(x0, x1)
    ax.set_ylim(0, 1.22)
    _wrap_past_right_edge(fig, ax)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_yticklabels([f"{int(v * 100)}%" for v in np.linspace(0, 1, 6)])
    ax.set_xlabel("final score x")
    ax.set_ylabel("share of games scoring x or more")
    ax.set_title(f"Share of games reaching each score ({n:,} games)", fontsize=11)
    ax.grid(axis="y", color="white", lw=0.8, zorder=2)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return save_png(fig, path, tight=False)


# --------------------------------------------------------------------------- Beacon Patrol board

_WATER = "#4f8fc6"
_WATER_EDGE = "#f4f4f4"
_LAND = "#8fbf6a"
_SAND = "#e9d9a6"
_EXPLORED = "#ffc21a"
# feature code -> (label, face colour, text colour, legend name)
_FEATURES = {
    1: ("L", "#d7263d", "white", "lighthouse"),
    2: ("B", "#f28c28", "white", "buoy"),
    3: ("HQ", "#222222", "white", "HQ"),
    4: ("W", "#7b4fa0", "white", "windmill"),
    5: ("P", "#8a5a2b", "white", "pier"),
}


def _wrap_past_right_edge(fig, ax) -> None:
    """A reach label that would run past the plot's right edge goes on two lines, then, if still too wide,
    to the left of its mark."""
    renderer = fig.canvas.get_renderer()
    right = ax.get_window_extent(renderer).x1
    for t in ax.texts:
        if t.get_window_extent(renderer).x1 <= right or " reach " not in t.get_text():
            continue
        t.set_text(t.get_text().replace(" reach ", " reach\n", 1))
        if t.get_window_extent(renderer).x1 > right:
            t.set_ha("right")
            t.set_position((-5, 3))


def _explored_mask(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    occupied = set(zip(rows.tolist(), cols.tolist()))
    return np.array([all((r + dr, c + dc) in occupied for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)))
                     for r, c in zip(rows.tolist(), cols.tolist())], dtype=bool)


def beacon_board(path, layout: dict, tiles, title: str, show_ids: bool = True) -> Path:
    """Draw a finished Beacon Patrol board and save it as PNG.

    ``layout``: ``{"row": int[], "col": int[], "tile": int[]}`` (row grows south, col east; ``tile``
    indexes ``tiles``). Water is blue, each land edge (N, E, S, W in ``tiles.edge_land[t]``) a green
    band with a sandy coast, an interior land mass a small island, the feature a lettered disc
    (L lighthouse, B buoy, HQ, W windmill, P pier), buildings small dark dots; explored tiles (all
    four neighbours occupied) get a gold outline.
    """
    rows = np.asarray(layout["row"], dtype=np.int64).ravel()
    cols = np.asarray(layout["col"], dtype=np.int64).ravel()
    tids = np.asarray(layout["tile"], dtype=np.int64).ravel()
    if not (rows.size == cols.size == tids.size):
        raise ValueError("layout arrays row, col and tile must have the same length")
    edge_land = np.asarray(tiles.edge_land)
    feature = np.asarray(tiles.feature)
    buildings = np.asarray(tiles.mass_buildings).reshape(len(edge_land), -1).sum(axis=1)
    interior = np.asarray(getattr(tiles, "interior_mask", np.zeros(len(edge_land), dtype=np.int32)))
    ids = tuple(getattr(tiles, "ids", ()))

    if rows.size:
        r0, c0 = int(rows.min()), int(cols.min())
        nr, nc = int(rows.max()) - r0 + 1, int(cols.max()) - c0 + 1
    else:
        r0 = c0 = 0
        nr = nc = 1
    cell_in = min(0.62, 12.0 / max(nr, nc))  # inches per tile
    scale = cell_in / 0.62  # font/line scale relative to the nominal cell size
    fig = new_figure(max(nc * cell_in, 4.0) + 0.3, max(nr * cell_in, 2.5) + 1.1)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_aspect("equal")
    ax.set_xlim(-0.15, max(nc, 1) + 0.15)
    ax.set_ylim(max(nr, 1) + 0.15, -0.15)  # row grows downwards (south)
    ax.axis("off")

    explored = _explored_mask(rows, cols)
    band = 0.24
    coast = 0.06
    # one collection per layer: drawing a thousand single patches took most of a report's time
    layers = {z: [] for z in range(1, 10)}
    dots_x, dots_y = [], []
    for r, c, t, is_exp in zip(rows.tolist(), cols.tolist(), tids.tolist(), explored.tolist()):
        x, y = c - c0, r - r0  # top-left corner of the cell (y grows south)
        layers[1].append(Rectangle((x, y), 1, 1, facecolor=_WATER, edgecolor=_WATER_EDGE, lw=1.2 * scale))
        land_sides = [k for k in range(4) if edge_land[t][k]]
        for k in land_sides:
            # Sandy coast strip first, then green land nearer the edge.
            for depth, colour, z in ((band, _SAND, 2), (band - coast, _LAND, 3)):
                if k == 0:
                    rect = (x, y), 1, depth
                elif k == 1:
                    rect = (x + 1 - depth, y), depth, 1
                elif k == 2:
                    rect = (x, y + 1 - depth), 1, depth
                else:
                    rect = (x, y), depth, 1
                layers[z].append(Rectangle(*rect, facecolor=colour, lw=0))
        if interior[t]:
            layers[3].append(Circle((x + 0.5, y + 0.5), 0.2, facecolor=_LAND, edgecolor=_SAND, lw=2.2 * scale))
        nb = int(buildings[t])
        if nb:
            # Dots on the first land band (or the island), spaced along it.
            if land_sides:
                k = land_sides[0]
                mid = (band - coast) / 2
                offs = np.linspace(0.5 - 0.09 * (nb - 1), 0.5 + 0.09 * (nb - 1), nb) if nb > 1 else np.array([0.5])
                if k == 0:
                    pts = [(x + o, y + mid) for o in offs]
                elif k == 1:
                    pts = [(x + 1 - mid, y + o) for o in offs]
                elif k == 2:
                    pts = [(x + o, y + 1 - mid) for o in offs]
                else:
                    pts = [(x + mid, y + o) for o in offs]
            else:
                pts = [(x + 0.5 + 0.08 * (i - (nb - 1) / 2), y + 0.5) for i in range(nb)]
            dots_x.extend(px for px, _ in pts)
            dots_y.extend(py for _, py in pts)
        f = int(feature[t])
        if f in _FEATURES:
            label, face, fg, _name = _FEATURES[f]
            layers[7].append(Circle((x + 0.5, y + 0.5), 0.19, facecolor=face, edgecolor="white", lw=1.0 * scale))
            ax.text(x + 0.5, y + 0.5, label, ha="center", va="center", color=fg, fontweight="bold",
                    fontsize=(6.5 if len(label) > 1 else 8) * scale, zorder=8)
        if is_exp:
            layers[9].append(Rectangle((x + 0.035, y + 0.035), 0.93, 0.93, fill=False, edgecolor=_EXPLORED,
                                       lw=2.2 * scale))
        if show_ids and 0 <= t < len(ids):
            ax.text(x + 0.93, y + 0.93, str(ids[t]), ha="right", va="bottom", fontsize=5.5 * scale,
                    color="#0b2545", alpha=0.85, zorder=10)

    for z, patches in layers.items():
        if patches:
            ax.add_collection(PatchCollection(patches, match_original=True, zorder=z))
    if dots_x:
        ax.scatter(dots_x, dots_y, s=9 * scale ** 2, color="#3b2a1a", zorder=6, lw=0)
    if rows.size == 0:
        ax.text(0.5, 0.5, "no tiles placed", ha="center", va="center")
    n_exp = int(explored.sum())
    ax.set_title(f"{title}\n{rows.size} tiles placed, {n_exp} explored", fontsize=10)
    handles = [Patch(facecolor=_WATER, label="water"),
               Patch(facecolor=_LAND, edgecolor=_SAND, label="land"),
               Patch(facecolor="none", edgecolor=_EXPLORED, lw=2, label="explored"),
               Line2D([], [], ls="", marker="o", color="#3b2a1a", ms=3, label="building")]
    present = {int(feature[t]) for t in tids.tolist()} if tids.size else set()
    for code, (label, face, _fg, name) in _FEATURES.items():
        if code in present:
            handles.append(Line2D([], [], ls="", marker="o", ms=8, markerfacecolor=face,
                                  markeredgecolor="white", label=name if name == label else f"{label} {name}"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 5),
              fontsize=7.5, frameon=False, handlelength=1.4, columnspacing=1.0)
    return save_png(fig, path)
