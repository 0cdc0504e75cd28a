"""Hex-board topology for Catan: Seafarers, as flat int32/bool numpy arrays for the numba kernels.

Coordinates: axial (q, r) of pointy-top hexes (a corner at the top, vertical west and east sides); r is the
row and grows southward, q grows eastward along a row. Pixel centre: x = q + r/2, y = r * sqrt(3)/2.

Directions d (the column of `hex_neighbours`, and the hex side that faces that neighbour):

    0 NE (q+1, r-1)   1 E (q+1, r)   2 SE (q, r+1)   3 SW (q-1, r+1)   4 W (q-1, r)   5 NW (q, r-1)

Corners k of a hex, clockwise from the top: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. Side d joins corners d and
(d+1) % 6 (side NE joins N and NE). Corner k is shared with the neighbours in directions (k-1) % 6 and k, where it
is their corners (k+2) % 6 and (k+4) % 6. Every corner is the N or the S corner of exactly one (q, r) position,
which is its canonical key; every side is the NE, E or SE side of exactly one position.

Global numbering: corners and edges are numbered in order of first appearance, scanning hexes in index order and
each hex's corners / sides k = 0..5. `corner_hexes` and `corner_neighbours` rows are ascending and padded with -1;
`corner_edges[c, j]` is the edge between c and `corner_neighbours[c, j]`; `edge_corners` rows are ascending;
`edge_hexes` rows hold the hex(es) on the map, ascending, -1 (off the map) last.

Only positions in the hex list are on the map; everything off the map counts as sea. Frame cells (the sea border
of a Seafarers board) are hexes on the map; a corner or edge is `in_play` when it touches a non-frame hex.

The static geometry (`Topology`, from the hex coordinates) is built once per scenario. What depends on the dealt
terrain (coasts, islands) is computed per board by `board_flags` / the kernel `fill_board_flags`
(kernels/catan/flags.py), which a kernel can call directly on its own arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import UserError
from kernels.catan.flags import fill_board_flags

__all__ = [
    "CORNER_NAMES",
    "DIRECTIONS",
    "SIDE_NAMES",
    "UNKNOWN",
    "BoardFlags",
    "Topology",
    "board_flags",
    "build_topology",
    "fill_board_flags",
]

DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
SIDE_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
CORNER_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
UNKNOWN = -1  # terrain of a hex not yet revealed (fog): neither land nor sea

# Corner k of (q, r) as (dq, dr, 0 = N corner | 1 = S corner) of its canonical position.
_CORNER_KEY = ((0, 0, 0), (1, -1, 1), (0, 1, 0), (0, 0, 1), (-1, 1, 0), (0, -1, 1))
# Side d of (q, r) as (dq, dr, canonical side 0 NE | 1 E | 2 SE) of its canonical position.
_SIDE_KEY = ((0, 0, 0), (0, 0, 1), (0, 0, 2), (-1, 1, 0), (-1, 0, 1), (0, -1, 2))


def corner_key(q: int, r: int, k: int) -> tuple[int, int, int]:
    dq, dr, ns = _CORNER_KEY[k]
    return q + dq, r + dr, ns


def side_key(q: int, r: int, d: int) -> tuple[int, int, int]:
    dq, dr, s = _SIDE_KEY[d]
    return q + dq, r + dr, s


@dataclass(frozen=True, eq=False)
class Topology:
    """Static geometry of a hex map: hexes, corners, edges and their adjacency (see the module docstring)."""

    coords: np.ndarray  # int32 [n_hex, 2]: (q, r)
    hex_frame: np.ndarray  # bool [n_hex]
    hex_neighbours: np.ndarray  # int32 [n_hex, 6] by direction, -1 off the map
    hex_corners: np.ndarray  # int32 [n_hex, 6] by corner N, NE, SE, S, SW, NW
    hex_edges: np.ndarray  # int32 [n_hex, 6] by side NE, E, SE, SW, W, NW
    corner_hexes: np.ndarray  # int32 [n_corner, 3]
    corner_neighbours: np.ndarray  # int32 [n_corner, 3]
    corner_edges: np.ndarray  # int32 [n_corner, 3]
    edge_corners: np.ndarray  # int32 [n_edge, 2]
    edge_hexes: np.ndarray  # int32 [n_edge, 2]
    corner_in_play: np.ndarray  # bool [n_corner]: touches a non-frame hex
    edge_in_play: np.ndarray  # bool [n_edge]: touches a non-frame hex
    index: dict[tuple[int, int], int] = field(repr=False)
    _corner_ids: dict[tuple[int, int, int], int] = field(repr=False)
    _edge_ids: dict[tuple[int, int, int], int] = field(repr=False)

    @property
    def n_hex(self) -> int:
        return len(self.coords)

    @property
    def n_corner(self) -> int:
        return len(self.corner_hexes)

    @property
    def n_edge(self) -> int:
        return len(self.edge_corners)

    def hex_at(self, q: int, r: int) -> int:
        """Index of the hex at (q, r); UserError if it is not on the map."""
        try:
            return self.index[(q, r)]
        except KeyError:
            raise UserError(f"hex [{q}, {r}] is not on the map") from None

    def corner_at(self, q: int, r: int, name: str) -> int:
        """Corner `name` (N, NE, SE, S, SW, NW) of position (q, r), which may itself lie off the map."""
        return _named(self._corner_ids, corner_key, CORNER_NAMES, "corner", q, r, name)

    def edge_at(self, q: int, r: int, name: str) -> int:
        """Side `name` (NE, E, SE, SW, W, NW) of position (q, r), which may itself lie off the map."""
        return _named(self._edge_ids, side_key, SIDE_NAMES, "edge", q, r, name)

    def edge_between(self, a: int, b: int) -> int:
        """The edge between adjacent hexes a and b."""
        for d in range(6):
            if self.hex_neighbours[a, d] == b:
                return int(self.hex_edges[a, d])
        raise UserError(f"hexes {self.coords[a].tolist()} and {self.coords[b].tolist()} are not adjacent")


def _named(ids: dict, key, names: tuple[str, ...], what: str, q: int, r: int, name: str) -> int:
    if name not in names:
        raise UserError(f"unknown {what} name '{name}' (choose from {', '.join(names)})")
    found = ids.get(key(q, r, names.index(name)))
    if found is None:
        raise UserError(f"{what} {q},{r},{name} is not on the map")
    return found


def build_topology(coords, frame=None) -> Topology:
    """Geometry of the map made of the hexes at `coords` ((q, r) pairs); `frame` marks the sea-border cells."""
    coords = np.array(coords, dtype=np.int32).reshape(-1, 2)
    n = len(coords)
    index = {(int(q), int(r)): h for h, (q, r) in enumerate(coords)}
    if len(index) != n:
        raise UserError("duplicate hex in the map")
    hex_frame = np.zeros(n, bool) if frame is None else np.asarray(frame, bool).copy()
    neighbours = np.full((n, 6), -1, np.int32)
    hex_corners = np.empty((n, 6), np.int32)
    hex_edges = np.empty((n, 6), np.int32)
    corner_ids: dict[tuple[int, int, int], int] = {}
    edge_ids: dict[tuple[int, int, int], int] = {}
    corner_hex_sets: list[list[int]] = []
    edge_hex_sets: list[list[int]] = []
    edge_ends: list[tuple[int, int]] = []
    for h, (q, r) in enumerate(coords.tolist()):
        for d, (dq, dr) in enumerate(DIRECTIONS):
            neighbours[h, d] = index.get((q + dq, r + dr), -1)
        for k in range(6):
            c = corner_ids.setdefault(corner_key(q, r, k), len(corner_ids))
            if c == len(corner_hex_sets):
                corner_hex_sets.append([])
            corner_hex_sets[c].append(h)
            hex_corners[h, k] = c
        for d in range(6):
            e = edge_ids.setdefault(side_key(q, r, d), len(edge_ids))
            if e == len(edge_hex_sets):
                edge_hex_sets.append([])
                a, b = sorted((hex_corners[h, d], hex_corners[h, (d + 1) % 6]))
                edge_ends.append((int(a), int(b)))
            edge_hex_sets[e].append(h)
            hex_edges[h, d] = e
    n_corner, n_edge = len(corner_ids), len(edge_ids)
    corner_hexes = _padded(corner_hex_sets, 3)
    edge_hexes = _padded(edge_hex_sets, 2)
    edge_corners = np.array(edge_ends, np.int32).reshape(n_edge, 2)
    links: list[list[tuple[int, int]]] = [[] for _ in range(n_corner)]
    for e, (a, b) in enumerate(edge_ends):
        links[a].append((b, e))
        links[b].append((a, e))
    corner_neighbours = np.full((n_corner, 3), -1, np.int32)
    corner_edges = np.full((n_corner, 3), -1, np.int32)
    for c, pairs in enumerate(links):
        for j, (other, e) in enumerate(sorted(pairs)):
            corner_neighbours[c, j] = other
            corner_edges[c, j] = e
    inner = ~hex_frame
    corner_in_play = np.array([any(inner[h] for h in hs) for hs in corner_hex_sets], bool).reshape(n_corner)
    edge_in_play = np.array([any(inner[h] for h in hs) for hs in edge_hex_sets], bool).reshape(n_edge)
    arrays = (coords, hex_frame, neighbours, hex_corners, hex_edges, corner_hexes, corner_neighbours, corner_edges,
              edge_corners, edge_hexes, corner_in_play, edge_in_play)
    for a in arrays:
        a.flags.writeable = False  # shared by every board of a scenario
    return Topology(*arrays, index, corner_ids, edge_ids)


def _padded(rows: list[list[int]], width: int) -> np.ndarray:
    out = np.full((len(rows), width), -1, np.int32)
    for i, row in enumerate(rows):
        out[i, :len(row)] = sorted(row)
    return out


@dataclass(frozen=True, eq=False)
class BoardFlags:
    """What a dealt terrain vector makes of a Topology. Off-map positions count as sea."""

    hex_land: np.ndarray  # bool [n_hex]: desert, gold or a resource terrain
    hex_island: np.ndarray  # int32 [n_hex]: island id (connected land), -1 for non-land
    corner_island: np.ndarray  # int32 [n_corner]: island of the land hexes at the corner, -1 if none
    corner_land: np.ndarray  # bool [n_corner]: touches land (a settlement site)
    corner_coastal: np.ndarray  # bool [n_corner]: touches land and sea
    edge_land: np.ndarray  # bool [n_edge]: land on both sides (roads only)
    edge_coastal: np.ndarray  # bool [n_edge]: land on one side, sea on the other (a road or a ship)
    edge_sea: np.ndarray  # bool [n_edge]: sea on both sides (ships only)
    n_islands: int


def board_flags(topo: Topology, terrain) -> BoardFlags:
    """Coasts and islands of one board. `terrain`: int [n_hex] of catan_codes (SEA, DESERT..ORE; UNKNOWN = fog)."""
    terrain = np.asarray(terrain)
    if terrain.shape != (topo.n_hex,):
        raise UserError(f"terrain vector has shape {terrain.shape}, the map has {topo.n_hex} hexes")
    out = BoardFlags(np.empty(topo.n_hex, np.bool_), np.empty(topo.n_hex, np.int32),
                     np.empty(topo.n_corner, np.int32), np.empty(topo.n_corner, np.bool_),
                     np.empty(topo.n_corner, np.bool_), np.empty(topo.n_edge, np.bool_),
                     np.empty(topo.n_edge, np.bool_), np.empty(topo.n_edge, np.bool_), 0)
    n_islands = fill_board_flags(terrain.astype(np.int8), topo.hex_neighbours, topo.corner_hexes, topo.edge_hexes,
                                 np.empty(topo.n_hex, np.int32), out.hex_land, out.hex_island, out.corner_island,
                                 out.corner_land, out.corner_coastal, out.edge_land, out.edge_coastal, out.edge_sea)
    object.__setattr__(out, "n_islands", int(n_islands))
    return out
