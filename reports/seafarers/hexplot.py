"""Drawing of a Catan: Seafarers hex board: terrain colours, number tokens (6 and 8 red), harbours,
fog hexes dealt face down, and optionally the settlements and roads/ships of an initial placement.

Pointy-top hexes at axial (q, r) (analyzer/seafarers/board.py): centre x = q + r/2, y = -r·√3/2 (north up).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib import patheffects
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch

from analyzer.seafarers.scenarios import TERRAIN_NAMES
from reports.plots import SEAT_COLOURS, new_figure, save_png

__all__ = ["SEAT_COLOURS", "TERRAIN_COLOURS", "draw_board"]

TERRAIN_COLOURS = {"sea": "#6fa8dc", "desert": "#e8d9a8", "gold": "#f2a900", "lumber": "#2e7d32",
                   "brick": "#c0562f", "wool": "#a8d672", "grain": "#f4dc68", "ore": "#8c97a3"}
FRAME_COLOUR = "#3d6e9c"
HARBOUR_COLOURS = {"3:1": "#ffffff", "lumber": TERRAIN_COLOURS["lumber"], "brick": TERRAIN_COLOURS["brick"],
                   "wool": TERRAIN_COLOURS["wool"], "grain": TERRAIN_COLOURS["grain"], "ore": TERRAIN_COLOURS["ore"]}
# Every seat's pieces (reports.plots.SEAT_COLOURS) are outlined in this, so they show on light land and sea.
PIECE_OUTLINE = "#111111"
RADIUS = 1 / math.sqrt(3)  # centre to corner when neighbouring centres are 1 apart
_ANGLES = np.radians([90, 30, -30, -90, -150, 150])  # corners N, NE, SE, S, SW, NW
_CORNER_OFFSETS = RADIUS * np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)


def hex_centres(coords: np.ndarray) -> np.ndarray:
    q, r = coords[:, 0].astype(float), coords[:, 1].astype(float)
    return np.stack([q + r / 2, -r * math.sqrt(3) / 2], axis=1)


def corner_points(topology) -> np.ndarray:
    """float [n_corner, 2]: the drawing position of every corner."""
    centres = hex_centres(topology.coords)
    out = np.zeros((topology.n_corner, 2))
    for h in range(topology.n_hex):
        out[topology.hex_corners[h]] = centres[h] + _CORNER_OFFSETS
    return out


def draw_board(path: str | Path, scenario, terrain, number, *, harbours: Sequence[tuple[int, int, str]] = (),
               settlements: Sequence[tuple[int, int]] = (), pieces: Sequence[tuple[int, int, str]] = (),
               title: str = "", width: float = 7.5) -> Path:
    """Draw one dealt board of `scenario` to a PNG at `path`.

    terrain, number: int arrays [n_hex] (codes of kernels.catan.codes; fog cells hold their face-down deal
    and are drawn hatched); harbours: (land hex, sea hex, type name); settlements: (corner, seat);
    pieces: (edge, seat, "road" | "ship")."""
    topo = scenario.topology
    centres = hex_centres(topo.coords)
    fog = np.array([k == "fog" for k in scenario.kind])
    frame = np.array([k == "frame" for k in scenario.kind])
    span = np.ptp(centres, axis=0) + 2 * RADIUS
    fig = new_figure(width, width * span[1] / span[0] + (0.5 if title else 0.1))
    ax = fig.add_axes((0, 0, 1, 0.94 if title else 1))
    polys = centres[:, None, :] + _CORNER_OFFSETS[None, :, :] * 0.985
    colours = [FRAME_COLOUR if frame[h] else TERRAIN_COLOURS[TERRAIN_NAMES[terrain[h]]] for h in range(topo.n_hex)]
    ax.add_collection(PolyCollection(polys, facecolors=colours, edgecolors="#ffffff", linewidths=0.6))
    if fog.any():
        ax.add_collection(PolyCollection(polys[fog], facecolors="#9aa3ab55", edgecolors="#555555", hatch="///",
                                         linewidths=0.6))
    for h in np.flatnonzero(np.asarray(number) > 0):
        n = int(number[h])
        x, y = centres[h]
        red = n in (6, 8)
        ax.add_patch(_circle((x, y), 0.21, "#fbf3dc", "#5a4a2a"))
        ax.text(x, y + 0.02, str(n), ha="center", va="center", fontsize=9 if n < 10 else 8,
                fontweight="bold" if red else "normal", color="#c0171b" if red else "#222222")
    points = corner_points(topo)
    for land, sea, kind in harbours:
        _harbour(ax, topo, points, centres, land, sea, kind)
    road_lines, ship_lines, road_colours, ship_colours = [], [], [], []
    for edge, seat, piece in pieces:
        a, b = topo.edge_corners[edge]
        segment = [points[a] * 0.85 + points[b] * 0.15, points[b] * 0.85 + points[a] * 0.15]
        (ship_lines if piece == "ship" else road_lines).append(segment)
        (ship_colours if piece == "ship" else road_colours).append(SEAT_COLOURS[seat])
    if road_lines:
        ax.add_collection(LineCollection(road_lines, colors=road_colours, linewidths=4.5, zorder=4,
                                         path_effects=_outlined(4.5)))
    if ship_lines:
        ax.add_collection(LineCollection(ship_lines, colors=ship_colours, linewidths=3.5, linestyles=(0, (2, 1)),
                                         zorder=4, path_effects=_outlined(3.5)))
    marker_handles = _markers(ax, topo, scenario.markers, points)
    for corner, seat in settlements:
        x, y = points[corner]
        ax.plot([x], [y], marker="s", markersize=10, color=SEAT_COLOURS[seat], markeredgecolor="#111111",
                zorder=5)
        ax.text(x, y, str(seat + 1), ha="center", va="center", fontsize=6.5, zorder=6,
                color="#ffffff", fontweight="bold")
    low, high = centres.min(axis=0) - RADIUS, centres.max(axis=0) + RADIUS
    ax.set_xlim(low[0], high[0])
    ax.set_ylim(low[1], high[1])
    ax.set_aspect("equal")
    ax.axis("off")
    used = sorted({TERRAIN_NAMES[t] for t in np.asarray(terrain)[~frame]}, key=TERRAIN_NAMES.index)
    handles = [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor="#666666", label=t) for t in used]
    if fog.any():
        handles.append(Patch(facecolor="#cccccc", hatch="///", edgecolor="#555555", label="fog (face down)"))
    if frame.any():
        handles.append(Patch(facecolor=FRAME_COLOUR, edgecolor="#666666", label="frame (sea border)"))
    if harbours:
        handles.append(Line2D([], [], marker="o", ls="none", markersize=8, markerfacecolor="#ffffff",
                              markeredgecolor="#5a4a2a", label="harbour (3:1, or 2:1 in its colour)"))
    handles += marker_handles + _piece_handles(settlements, pieces)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 5),
              fontsize=7.5, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10, y=0.99)
    return save_png(fig, path)


# The scenario's own pieces, as set out at the start (seed 002): (marker, size, face, edge, legend)
_MARKER_STYLES = {
    "village": ("h", 13, "#b5835a", "#3d2b1a", "village of the forgotten tribe (its number pays cloth)"),
    "card": ("s", 7, "#7a3fb0", "#ffffff", "gift: a development card, face down"),
    "chit": ("*", 11, "#f2c200", "#5a4a2a", "gift: a Catan chit (1 VP)"),
    "fortress": ("p", 12, "#222222", "#ffffff", "pirate fortress"),
    "wasteland": ("s", 8, "none", "#8b5a2b", "wasteland corner (brown square)"),
    "strait": ("s", 8, "none", "#9b59b6", "strait corner (lilac square)"),
    "no_setup": ("X", 7, "#f2c200", "#5a4a2a", "no set-up settlement"),
}


def _markers(ax, topo, markers, points) -> list:
    """Draw the scenario's markers (villages, gift edges, fortresses, the Wonders' marked corners); their legend
    entries."""
    def at_edges(edges):
        return [(points[a] + points[b]) / 2 for a, b in (topo.edge_corners[e] for e in edges)]

    spots = {"village": [points[c] for c, _n in markers.villages], "card": at_edges(markers.dev_card_edges),
             "chit": at_edges(markers.vp_chit_edges), "fortress": [points[f.fortress] for f in markers.fortresses],
             "wasteland": [points[c] for c in markers.wasteland_corners],
             "strait": [points[c] for c in markers.strait_corners],
             "no_setup": [points[c] for c in markers.no_setup_corners]}
    handles = []
    for kind, xy in spots.items():
        if not xy:
            continue
        marker, size, face, edge, label = _MARKER_STYLES[kind]
        xy = np.array(xy)
        ax.plot(xy[:, 0], xy[:, 1], ls="none", marker=marker, markersize=size, markerfacecolor=face,
                markeredgecolor=edge, markeredgewidth=1.2, zorder=5)
        handles.append(Line2D([], [], ls="none", marker=marker, markersize=min(size, 9), markerfacecolor=face,
                              markeredgecolor=edge, markeredgewidth=1.2, label=label))
    for (corner, number), (x, y) in zip(markers.villages, spots["village"]):
        ax.text(x, y, str(number), ha="center", va="center", fontsize=6, color="#ffffff", fontweight="bold",
                zorder=6)
    return handles


def _outlined(width: float) -> list:
    return [patheffects.Stroke(linewidth=width + 2, foreground=PIECE_OUTLINE), patheffects.Normal()]


def _piece_handles(settlements, pieces) -> list:
    """Legend entries for what the placement drew: the seats' colours, settlements, roads and ships."""
    seats = sorted({seat for _c, seat in settlements} | {seat for _e, seat, _p in pieces})
    handles = [Patch(facecolor=SEAT_COLOURS[seat], edgecolor=PIECE_OUTLINE, label=f"seat {seat + 1}")
               for seat in seats]
    if settlements:
        handles.append(Line2D([], [], marker="s", ls="none", markersize=8, markerfacecolor="#ffffff",
                              markeredgecolor=PIECE_OUTLINE, label="settlement (its seat's number)"))
    kinds = {piece for _e, _s, piece in pieces}
    if "road" in kinds:
        handles.append(Line2D([], [], color="#888888", lw=4, path_effects=_outlined(4), label="road"))
    if "ship" in kinds:
        handles.append(Line2D([], [], color="#888888", lw=3, ls=(0, (2, 1)), path_effects=_outlined(3),
                              label="ship"))
    return handles


def _circle(xy, radius, face, edge) -> Circle:
    return Circle(xy, radius, facecolor=face, edgecolor=edge, linewidth=0.6, zorder=3)


def _harbour(ax, topo, points, centres, land: int, sea: int, kind: str) -> None:
    """A harbour: a disc on the sea side of the land/sea edge, joined to its two docks (the edge's corners)."""
    edge = next(int(topo.hex_edges[land, d]) for d in range(6) if topo.hex_neighbours[land, d] == sea)
    a, b = topo.edge_corners[edge]
    mid = (points[a] + points[b]) / 2
    spot = mid + (centres[sea] - mid) * 0.45
    ax.plot([points[a][0], spot[0], points[b][0]], [points[a][1], spot[1], points[b][1]], color="#5a4a2a",
            linewidth=1.2, zorder=3)
    ax.add_patch(_circle(spot, 0.17, HARBOUR_COLOURS[kind], "#5a4a2a"))
    ax.text(spot[0], spot[1], "3:1" if kind == "3:1" else "2:1", ha="center", va="center", fontsize=5.5,
            color="#111111", zorder=4)
