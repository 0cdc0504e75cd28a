"""What a dealt terrain vector makes of a board's topology: land, islands, coasts (analyzer/seafarers/board.py
BoardFlags, whose arrays these fill). Off-map positions count as sea; UNKNOWN (fog) terrain is neither land nor sea."""

from kernels.catan.codes import DESERT, SEA
from kernels.jit import internal, kernel


@internal
def _side(terrain, h):
    """1 land, 0 sea (off the map included), -1 unknown."""
    if h < 0:
        return 0
    t = terrain[h]
    if t == SEA:
        return 0
    if t >= DESERT:
        return 1
    return -1


@kernel
def fill_board_flags(terrain, hex_neighbours, corner_hexes, edge_hexes, stack, hex_land, hex_island,
                     corner_island, corner_land, corner_coastal, edge_land, edge_coastal, edge_sea):
    """Fill every per-board array of BoardFlags in place; returns the number of islands.

    Islands are numbered in order of their lowest hex index. `stack` is int32 scratch of length n_hex.
    """
    n_hex = terrain.shape[0]
    for h in range(n_hex):
        hex_land[h] = _side(terrain, h) == 1
        hex_island[h] = -1
    n_islands = 0
    for start in range(n_hex):
        if not hex_land[start] or hex_island[start] >= 0:
            continue
        hex_island[start] = n_islands
        top = 0
        stack[0] = start
        while top >= 0:
            h = stack[top]
            top -= 1
            for d in range(6):
                g = hex_neighbours[h, d]
                if g >= 0 and hex_land[g] and hex_island[g] < 0:
                    hex_island[g] = n_islands
                    top += 1
                    stack[top] = g
        n_islands += 1
    for c in range(corner_hexes.shape[0]):
        land = False
        sea = False
        island = -1
        for j in range(3):
            s = _side(terrain, corner_hexes[c, j])  # -1 padding reads as off-map sea
            if s == 1:
                land = True
                island = hex_island[corner_hexes[c, j]]
            elif s == 0:
                sea = True
        corner_land[c] = land
        corner_coastal[c] = land and sea
        corner_island[c] = island
    for e in range(edge_hexes.shape[0]):
        a = _side(terrain, edge_hexes[e, 0])
        b = _side(terrain, edge_hexes[e, 1])
        edge_land[e] = a == 1 and b == 1
        edge_coastal[e] = (a == 1 and b == 0) or (a == 0 and b == 1)
        edge_sea[e] = a == 0 and b == 0
    return n_islands
