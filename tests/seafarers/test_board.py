"""Hex topology (analyzer.seafarers.board): hand-counted maps, an independent pixel-geometry reference, and the
per-board coasts/islands kernel against a slow pure-Python reference."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.seafarers.board import CORNER_NAMES, DIRECTIONS, SIDE_NAMES, UNKNOWN, board_flags, build_topology
from analyzer.seafarers.scenarios import load_scenario
from kernels.catan.codes import DESERT, GOLD, LUMBER, ORE, SEA

STANDARD_19 = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2]


def vertices(q, r):
    """The 6 corners N, NE, SE, S, SW, NW of (q, r) as exact integer points (x in half hex widths, y in R/2)."""
    x, y = 2 * q + r, 3 * r
    return [(x, y - 2), (x + 1, y - 1), (x + 1, y + 1), (x, y + 2), (x - 1, y + 1), (x - 1, y - 1)]


def positions_around(point):
    """The 3 hex positions whose corner is this point: centres one corner offset away that are on the lattice."""
    x, y = point
    out = []
    for dx, dy in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)):
        cx, cy = x - dx, y - dy
        if cy % 3 == 0 and (cx - cy // 3) % 2 == 0:
            out.append(((cx - cy // 3) // 2, cy // 3))
    assert len(out) == 3
    return out


def pixel_reference(coords):
    """Corners and edges found from geometry alone: point -> hexes, point pair -> hexes."""
    corners, edges = {}, {}
    for h, (q, r) in enumerate(coords):
        vs = vertices(q, r)
        for k in range(6):
            corners.setdefault(vs[k], set()).add(h)
            edges.setdefault(frozenset((vs[k], vs[(k + 1) % 6])), set()).add(h)
    return corners, edges


# ----------------------------------------------------------------------------------------------- hand counts
def test_one_hex_has_6_corners_and_6_edges():
    t = build_topology([(0, 0)])
    assert (t.n_hex, t.n_corner, t.n_edge) == (1, 6, 6)
    assert t.hex_neighbours.tolist() == [[-1] * 6]
    assert (t.corner_hexes[:, 0] == 0).all() and (t.corner_hexes[:, 1:] == -1).all()
    assert ((t.corner_neighbours >= 0).sum(axis=1) == 2).all()  # a ring: every corner has 2 neighbours
    assert t.edge_hexes.tolist() == [[0, -1]] * 6


def test_three_hexes_in_a_triangle_have_13_corners_and_15_edges():
    # 18 corner slots: the centre corner is shared by 3 hexes, each pair shares one more -> 18 - 2 - 3 = 13.
    # 18 edge slots, each pair shares one edge -> 15.
    t = build_topology([(0, 0), (1, 0), (0, 1)])
    assert (t.n_corner, t.n_edge) == (13, 15)
    centre = t.hex_corners[0, CORNER_NAMES.index("SE")]
    assert t.corner_hexes[centre].tolist() == [0, 1, 2]
    assert Counter((t.corner_hexes >= 0).sum(axis=1).tolist()) == {1: 9, 2: 3, 3: 1}
    assert t.n_corner - t.n_edge + t.n_hex == 1  # Euler for a disc


def test_standard_19_hex_island():
    t = build_topology(STANDARD_19)
    assert (t.n_corner, t.n_edge) == (54, 72)
    # 19 * 6 = 114 corner slots = 24 inner corners * 3 + 12 * 2 + 18 * 1 on the rim.
    assert Counter((t.corner_hexes >= 0).sum(axis=1).tolist()) == {3: 24, 2: 12, 1: 18}
    assert Counter((t.edge_hexes >= 0).sum(axis=1).tolist()) == {2: 42, 1: 30}
    flags = board_flags(t, np.full(19, LUMBER))
    assert flags.n_islands == 1 and (flags.hex_island == 0).all()
    assert (flags.corner_coastal.sum(), flags.edge_coastal.sum(), flags.edge_land.sum(), flags.edge_sea.sum()) \
        == (30, 30, 42, 0)


def test_named_corners_and_sides():
    t = build_topology(STANDARD_19)
    # The SE corner of (0, 0) is the N corner of (0, 1) and the SW corner of (1, 0).
    assert t.corner_at(0, 0, "SE") == t.corner_at(0, 1, "N") == t.corner_at(1, 0, "SW")
    assert t.edge_at(0, 0, "E") == t.edge_at(1, 0, "W") == t.edge_between(t.hex_at(0, 0), t.hex_at(1, 0))
    # A position off the map still names the corners it shares with the map.
    assert t.corner_at(3, -3, "SW") == t.corner_at(2, -2, "N")
    with pytest.raises(UserError, match="not on the map"):
        t.corner_at(5, 5, "N")
    with pytest.raises(UserError, match="unknown edge name"):
        t.edge_at(0, 0, "N")
    with pytest.raises(UserError, match="duplicate hex"):
        build_topology([(0, 0), (0, 0)])


# ----------------------------------------------------------------------------------------------- properties
random_maps = st.sets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=30).map(sorted)


def check_topology(coords, t):
    corners, edges = pixel_reference(coords)
    assert (t.n_corner, t.n_edge) == (len(corners), len(edges))
    point_of = {}
    for h, (q, r) in enumerate(coords):
        vs = vertices(q, r)
        for k in range(6):
            assert point_of.setdefault(int(t.hex_corners[h, k]), vs[k]) == vs[k]  # one id = one point
            assert set(t.corner_hexes[t.hex_corners[h, k]]) - {-1} == corners[vs[k]]
    assert len(set(point_of.values())) == t.n_corner
    for h, (q, r) in enumerate(coords):
        vs = vertices(q, r)
        for k in range(6):
            e = int(t.hex_edges[h, k])
            assert {point_of[int(c)] for c in t.edge_corners[e]} == {vs[k], vs[(k + 1) % 6]}
            assert set(t.edge_hexes[e]) - {-1} == edges[frozenset((vs[k], vs[(k + 1) % 6]))]
    for h in range(t.n_hex):
        for d in range(6):
            g = t.hex_neighbours[h, d]
            q, r = coords[h]
            assert g == (coords.index((q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]))
                         if (q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]) in coords else -1)
            if g >= 0:
                assert t.hex_neighbours[g, (d + 3) % 6] == h
                assert t.hex_edges[g, (d + 3) % 6] == t.hex_edges[h, d]
                assert t.hex_corners[g, (d + 3) % 6] == t.hex_corners[h, (d + 1) % 6]
    for c in range(t.n_corner):
        assert (t.corner_hexes[c] >= 0).sum() >= 1
        for j in range(3):
            other, e = t.corner_neighbours[c, j], t.corner_edges[c, j]
            assert (other < 0) == (e < 0)
            if other >= 0:
                assert sorted(t.edge_corners[e]) == sorted((c, other))
                assert c in t.corner_neighbours[other]
    for e, (a, b) in enumerate(t.edge_corners):
        assert a < b and e in t.corner_edges[a] and e in t.corner_edges[b]


@settings(max_examples=40, deadline=None)
@given(random_maps)
def test_topology_matches_pixel_geometry(coords):
    check_topology(coords, build_topology(coords))


def test_scenario_topologies_match_pixel_geometry():
    for slug in ("new-shores", "pirate-islands"):
        s = load_scenario(slug, 4)
        check_topology([tuple(c) for c in s.coords.tolist()], s.topology)


def test_frame_edges_and_corners_are_out_of_play():
    t = build_topology([(0, 0), (1, 0)], frame=[False, True])
    shared = t.edge_between(0, 1)
    outer = t.hex_edges[1, SIDE_NAMES.index("E")]
    assert t.edge_in_play[shared] and not t.edge_in_play[outer]
    assert t.corner_in_play[t.corner_at(0, 0, "NE")] and not t.corner_in_play[t.corner_at(1, 0, "NE")]


# ----------------------------------------------------------------------------------------------- per-board flags
def reference_flags(coords, terrain):
    """Slow obvious version: dictionaries of positions and a flood fill."""
    at = {c: h for h, c in enumerate(coords)}

    def side(pos):
        h = at.get(pos)
        if h is None or terrain[h] == SEA:
            return "sea"
        return "land" if terrain[h] >= DESERT else "unknown"

    island = {}
    for start in range(len(coords)):
        if side(coords[start]) != "land" or start in island:
            continue
        label, todo = len(set(island.values())), [start]
        island[start] = label
        while todo:
            q, r = coords[todo.pop()]
            for dq, dr in DIRECTIONS:
                g = at.get((q + dq, r + dr))
                if g is not None and g not in island and side(coords[g]) == "land":
                    island[g] = label
                    todo.append(g)
    return island, side


@settings(max_examples=40, deadline=None)
@given(random_maps.flatmap(lambda coords: st.tuples(
    st.just(coords), st.lists(st.sampled_from([SEA, SEA, DESERT, GOLD, LUMBER, ORE, UNKNOWN]),
                              min_size=len(coords), max_size=len(coords)))))
def test_board_flags_match_reference(case):
    coords, terrain = case
    t = build_topology(coords)
    f = board_flags(t, np.array(terrain))
    island, side = reference_flags(coords, terrain)
    assert f.n_islands == len(set(island.values()))
    assert [int(x) for x in f.hex_island] == [island.get(h, -1) for h in range(len(coords))]
    for h, (q, r) in enumerate(coords):
        vs = vertices(q, r)
        for k in range(6):
            around = positions_around(vs[k])
            sides = [side(p) for p in around]
            c = t.hex_corners[h, k]
            assert f.corner_land[c] == ("land" in sides)
            assert f.corner_coastal[c] == ("land" in sides and "sea" in sides)
            lands = [island[coords.index(p)] for p in around if p in coords and coords.index(p) in island]
            assert f.corner_island[c] == (lands[0] if lands else -1)
            e = t.hex_edges[h, k]
            pair = sorted([side((q, r)), side((q + DIRECTIONS[k][0], r + DIRECTIONS[k][1]))])
            assert f.edge_land[e] == (pair == ["land", "land"])
            assert f.edge_coastal[e] == (pair == ["land", "sea"])
            assert f.edge_sea[e] == (pair == ["sea", "sea"])


def test_islands_of_a_hand_built_board():
    # Two land hexes with one sea hex between them along a row, and a lone land hex below the sea.
    coords = [(0, 0), (1, 0), (2, 0), (1, 1)]
    t = build_topology(coords)
    f = board_flags(t, np.array([LUMBER, SEA, ORE, SEA]))
    assert f.n_islands == 2 and f.hex_island.tolist() == [0, -1, 1, -1]
    f = board_flags(t, np.array([LUMBER, SEA, ORE, GOLD]))
    # (1, 1) has (2, 0) to its NE and (1, 0) to its NW: gold there joins the ore island, not the lumber one.
    assert f.n_islands == 2 and f.hex_island.tolist() == [0, -1, 1, 1]
    shared = t.edge_between(t.hex_at(0, 0), t.hex_at(1, 0))
    assert f.edge_coastal[shared] and not f.edge_sea[shared] and not f.edge_land[shared]
    with pytest.raises(UserError, match="shape"):
        board_flags(t, np.zeros(3))


def test_printed_layouts_have_the_published_islands():
    # Island sizes of the printed layouts as listed by the research file (islands_in_recommended_layout).
    expected = {("new-shores", 3): [14, 4, 2, 2], ("four-islands", 4): [8, 7, 4, 4],
                ("cloth-for-catan", 4): [10, 10, 1, 1, 1, 1]}
    for (slug, players), sizes in expected.items():
        s = load_scenario(slug, players)
        f = board_flags(s.topology, s.terrain)
        assert sorted(Counter(f.hex_island[f.hex_island >= 0].tolist()).values(), reverse=True) == sizes
