"""The longest trade route of Catan: Seafarers (numba): roads and ships together.

Seed 002, "C) Barcos e estradas, 1. Maior estrada comercial": "O jogador que construa a maior rota de
estradas e barcos consecutiva que não esteja interrompida por uma aldeia ou cidade de outro jogador
obterá esta carta especial. Atenção: os barcos só se ligam às estradas se entre eles existe uma aldeia
ou cidade." So a route is a trail (each piece once, corners may repeat) of the player's roads and ships
where
  * it never passes through a corner holding another player's settlement or city (it may end there);
  * it passes from a road to a ship, or back, only at a corner holding the player's own building.
Its length counts pieces; with no rival or mixed corners this is the base game's longest road.

Arrays (analyzer/seafarers/board.py Topology): edge_corners int32 [n_edge, 2]; corner_edges int32
[n_corner, 3] (-1 padded); edge_owner int [n_edge] (seat, -1 none); edge_ship bool [n_edge] (a ship, else
a road); corner_owner int [n_corner] (seat of the settlement or city there, -1 none). Work arrays the
caller owns (RouteWork): used and seen bool [n_edge] (all False on entry and on return), and three int64 stacks
of at least (pieces + 1) entries.
"""

from collections import namedtuple

import numpy as np

from kernels.jit import internal, kernel

RouteWork = namedtuple("RouteWork", "used corner kind edge next seen")
UNBOUNDED = 1 << 30  # a limit no route reaches


def route_work(n_edge: int, max_pieces: int | None = None) -> RouteWork:
    """Work arrays for longest_route on a board of `n_edge` edges and up to `max_pieces` pieces per seat (default
    n_edge: a trail takes each edge once, so no supply a rules file sets can outgrow the stacks)."""
    depth = (n_edge if max_pieces is None else max_pieces) + 1
    return RouteWork(np.zeros(n_edge, np.bool_), np.zeros(depth, np.int64), np.zeros(depth, np.int64),
                     np.zeros(depth, np.int64), np.zeros(depth, np.int64), np.zeros(n_edge, np.bool_))


@kernel
def longest_route(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work):
    """Pieces in `seat`'s longest trade route (0 without pieces): the longest trail from any corner."""
    best = 0
    for start in range(corner_edges.shape[0]):
        n = _longest_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, start, False,
                          UNBOUNDED)
        if n > best:
            best = n
    return best


@internal
def longest_route_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, start):
    """Pieces in the seat's longest trail that starts at corner `start`."""
    return _longest_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, start, False,
                         UNBOUNDED)


@kernel
def longest_route_among(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, starts, count,
                        limit):
    """longest_route, trying only the corners starts[:count] (which must include every corner at a piece of the
    seat's: the game passes the corners its pieces have reached), and of those not the ones a route passes
    straight through: with exactly two of the seat's pieces there and the way through open, a trail starting
    there either grows by the other piece or is closed, and a closed trail can start anywhere on it. Only a closed
    trail of such corners alone is missed: its pieces are never seen, so it is searched last. It stops at the
    first trail of `limit` pieces (UNBOUNDED: never), where the caller knows that none is longer."""
    best = 0
    for i in range(count):
        c = starts[i]
        if best < limit and not _passes_through(corner_edges, edge_owner, edge_ship, corner_owner, seat, c):
            n = _longest_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, c, True,
                              limit)
            if n > best:
                best = n
    seen = work.seen
    for i in range(count):
        c = starts[i]
        for j in range(3):
            e = corner_edges[c, j]
            if best < limit and e >= 0 and edge_owner[e] == seat and not seen[e]:
                n = _longest_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, c, True,
                                  limit)
                if n > best:
                    best = n
    for i in range(count):
        for j in range(3):
            e = corner_edges[starts[i], j]
            if e >= 0:
                seen[e] = False
    return best


@internal
def _passes_through(corner_edges, edge_owner, edge_ship, corner_owner, seat, c):
    """Exactly two of the seat's pieces at c, and a route may go on from one to the other there."""
    first = -1
    second = -1
    for j in range(3):
        e = corner_edges[c, j]
        if e >= 0 and edge_owner[e] == seat:
            if first < 0:
                first = e
            elif second < 0:
                second = e
            else:
                return False
    if second < 0:
        return False
    owner = corner_owner[c]
    if owner >= 0 and owner != seat:
        return False
    return edge_ship[first] == edge_ship[second] or owner == seat


@internal
def _longest_from(edge_corners, corner_edges, edge_owner, edge_ship, corner_owner, seat, work, start, mark, limit):
    """The longest trail starting at corner `start`, or the first of `limit` pieces: a depth-first search on explicit
    stacks (st_*[d]: the corner reached at depth d, the kind and edge that led there, the next of its 3 edges to
    try); `mark`: note every piece it walks in work.seen."""
    used, st_corner, st_kind, st_edge, st_next, seen = work
    touches = False
    for j in range(3):
        e = corner_edges[start, j]
        if e >= 0 and edge_owner[e] == seat:
            touches = True
    if not touches:
        return 0
    best = 0
    depth = 0
    st_corner[0] = start
    st_kind[0] = -1
    st_next[0] = 0
    while depth >= 0:
        c = st_corner[depth]
        j = st_next[depth]
        if j == 3:  # every way on from c tried: step back, freeing the piece that led here
            if depth > 0:
                used[st_edge[depth]] = False
            depth -= 1
            continue
        st_next[depth] = j + 1
        e = corner_edges[c, j]
        if e < 0 or used[e] or edge_owner[e] != seat:
            continue
        kind = 1 if edge_ship[e] else 0
        if depth > 0:  # going on through c
            owner = corner_owner[c]
            if owner >= 0 and owner != seat:
                continue  # a rival's building interrupts the route
            if kind != st_kind[depth] and owner != seat:
                continue  # roads and ships join only at one's own building
        used[e] = True
        if mark:
            seen[e] = True
        depth += 1
        st_corner[depth] = edge_corners[e, 1] if edge_corners[e, 0] == c else edge_corners[e, 0]
        st_kind[depth] = kind
        st_edge[depth] = e
        st_next[depth] = 0
        if depth > best:
            best = depth
            if best >= limit:  # (its pieces freed: `used` is all False again on return)
                for d in range(1, depth + 1):
                    used[st_edge[d]] = False
                return best
    return best
