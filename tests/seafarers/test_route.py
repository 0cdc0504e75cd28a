"""The longest trade route (kernels/catan/route.py) on hand-built positions and against a brute force.

Seed 002, "C) Barcos e estradas, 1. Maior estrada comercial": "O jogador que construa a maior rota de
estradas e barcos consecutiva que não esteja interrompida por uma aldeia ou cidade de outro jogador
obterá esta carta especial. Atenção: os barcos só se ligam às estradas se entre eles existe uma aldeia
ou cidade." (The longest consecutive route of roads and ships not interrupted by another player's
settlement or city; ships join roads only where a settlement or city stands between them.)
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.seafarers.scenarios import load_scenario
from kernels.catan.route import longest_route, longest_route_among, route_work

TOPO = load_scenario("new-shores", 4).topology


def brute_force(edge_owner, edge_ship, corner_owner, seat) -> int:
    """Every trail of the seat's pieces, tried one piece at a time: the slow, obvious definition."""
    own = [e for e in range(TOPO.n_edge) if edge_owner[e] == seat]

    def walk(corner, kind, used) -> int:
        best = len(used)
        for e in own:
            if e in used or corner not in TOPO.edge_corners[e]:
                continue
            piece = "ship" if edge_ship[e] else "road"
            if used:  # passing through `corner`
                if corner_owner[corner] not in (-1, seat):
                    continue
                if piece != kind and corner_owner[corner] != seat:
                    continue
            a, b = (int(x) for x in TOPO.edge_corners[e])
            best = max(best, walk(b if a == corner else a, piece, used | {e}))
        return best

    corners = {int(c) for e in own for c in TOPO.edge_corners[e]}
    return max((walk(c, None, frozenset()) for c in corners), default=0)


def kernel_route(edge_owner, edge_ship, corner_owner, seat) -> int:
    """The kernel's longest route, from every corner; and the game's search, from the corners the seat's pieces
    reach (plus a stale one, as a moved ship leaves), which skips the corners routes pass straight through: the
    two agree (a closed loop of such corners alone included: test_a_cycle_counts_every_piece_once), and with a
    limit the search stops at the first trail that long."""
    work = route_work(TOPO.n_edge)
    args = (TOPO.edge_corners, TOPO.corner_edges, np.asarray(edge_owner, np.int64), np.asarray(edge_ship, np.bool_),
            np.asarray(corner_owner, np.int64), seat, work)
    n = longest_route(*args)
    reached = sorted({int(c) for e in np.flatnonzero(np.asarray(edge_owner) == seat) for c in TOPO.edge_corners[e]}
                     | {int(c) for c in np.flatnonzero(np.asarray(corner_owner) == seat)} | {0})
    for limit in (1 << 30, *range(1, n + 2)):  # stopped at the first trail of `limit` pieces: min(limit, n)
        assert longest_route_among(*args, np.array(reached, np.int64), len(reached), limit) == min(limit, n)
        assert not work.used.any() and not work.seen.any()  # the work arrays come back clean
    return n


def path(start_corner: int, steps: list[int]) -> tuple[list[int], list[int]]:
    """A walk from a corner: at each step the j-th unused edge of the corner reached (it stops where
    none is left). (edges, corners)."""
    edges, corners = [], [start_corner]
    for j in steps:
        c = corners[-1]
        options = [e for e in TOPO.corner_edges[c] if e >= 0 and e not in edges]
        if not options:
            break
        e = int(options[j % len(options)])
        a, b = (int(x) for x in TOPO.edge_corners[e])
        edges.append(e)
        corners.append(b if a == c else a)
    return edges, corners


def empty():
    return np.full(TOPO.n_edge, -1), np.zeros(TOPO.n_edge, bool), np.full(TOPO.n_corner, -1)


def line(n: int):
    """n pieces in a row without a repeated corner: (edges, corners)."""
    for start in range(TOPO.n_corner):
        edges, corners = path(start, [0, 1] * (n // 2 + 1))
        edges, corners = edges[:n], corners[:n + 1]
        if len(set(corners)) == n + 1:
            return edges, corners
    raise AssertionError("no straight line")


def test_example_h_four_ships_and_two_roads_count_six_not_eight():
    """Seed 002, example H: "O jogador vermelho tem a 'Maior estrada comercial' com 4 barcos e 2 estradas.
    Para que a rota comercial tivesse 8 elementos ... o jogador vermelho teria de construir uma aldeia entre
    a estrada e os barcos." Two roads, red's settlement, four ships, then two roads with no settlement
    between the ships and them: the route is 6; a settlement there makes it 8."""
    owner, ship, at = empty()
    edges, corners = line(8)
    owner[edges] = 0
    ship[edges[2:6]] = True
    at[corners[2]] = 0  # red's settlement between the first roads and the ships
    assert kernel_route(owner, ship, at, 0) == 6 == brute_force(owner, ship, at, 0)
    at[corners[6]] = 0  # "construir uma aldeia entre a estrada e os barcos"
    assert kernel_route(owner, ship, at, 0) == 8 == brute_force(owner, ship, at, 0)


def test_a_rival_settlement_interrupts_the_route_but_may_end_it():
    """"...que não esteja interrompida por uma aldeia ou cidade de outro jogador": six roads with a rival's
    settlement on the corner after the second are routes of 2 and 4."""
    owner, ship, at = empty()
    edges, corners = line(6)
    owner[edges] = 0
    assert kernel_route(owner, ship, at, 0) == 6
    at[corners[2]] = 1
    assert kernel_route(owner, ship, at, 0) == 4 == brute_force(owner, ship, at, 0)
    at[corners[2]], at[corners[0]] = -1, 1  # at its end it interrupts nothing
    assert kernel_route(owner, ship, at, 0) == 6


def test_ships_continue_ships_and_a_road_needs_a_building_to_meet_a_ship():
    """"os barcos só se ligam às estradas se entre eles existe uma aldeia ou cidade": 3 roads then 3 ships
    are two routes of 3 without a building where they meet, one of 6 with the player's own, and still two
    of 3 with a rival's."""
    owner, ship, at = empty()
    edges, corners = line(6)
    owner[edges] = 0
    ship[edges[3:]] = True
    assert kernel_route(owner, ship, at, 0) == 3
    at[corners[3]] = 0
    assert kernel_route(owner, ship, at, 0) == 6
    at[corners[3]] = 1
    assert kernel_route(owner, ship, at, 0) == 3
    assert kernel_route(owner, ship, at, 1) == 0  # the rival has no pieces


def test_a_cycle_counts_every_piece_once():
    owner, ship, at = empty()
    hexagon = TOPO.hex_edges[TOPO.hex_at(2, 3)]
    owner[hexagon] = 0
    assert kernel_route(owner, ship, at, 0) == 6 == brute_force(owner, ship, at, 0)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), walks=st.integers(1, 4), length=st.integers(1, 9))
def test_kernel_equals_the_brute_force(seed, walks, length):
    """Random walks of roads and ships for two seats, random buildings of three: the kernel finds the
    brute force's longest route for each seat."""
    rng = np.random.default_rng(seed)
    owner, ship, at = empty()
    for _ in range(walks):
        edges, corners = path(int(rng.integers(TOPO.n_corner)), rng.integers(0, 3, length).tolist())
        seat = int(rng.integers(2))
        free = [e for e in edges if owner[e] < 0]
        owner[free] = seat
        ship[free] = rng.random(len(free)) < 0.5
        for c in corners:
            if rng.random() < 0.3:
                at[c] = int(rng.integers(3))
    for seat in (0, 1):
        assert kernel_route(owner, ship, at, seat) == brute_force(owner, ship, at, seat)


@pytest.mark.parametrize("n", [15, 30])
def test_a_full_supply_in_a_row(n):
    """15 roads + 15 ships, the supply (work stacks sized for 30 pieces)."""
    owner, ship, at = empty()
    edges, corners = line(n)
    owner[edges] = 0
    assert kernel_route(owner, ship, at, 0) == n
