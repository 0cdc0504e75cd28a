"""A dealt board's per-deal arrays of the full game's Board (kernels/catan/game.py), filled in place in numba.

    static = DealStatic(...)                 a scenario's deal-independent facts (analyzer/seafarers/play.py)
    work = new_deal_work(n_hex, n_corner, n_edge)
    fill_board(static, work, terrain, number, harbour, board)   board's per-deal arrays for this deal

The game loop (kernels/catan/play.py) refills the board before each game on a dealt board.

`fill_board` is the slow reference analyzer/seafarers/full_reference.py `game_table` followed by
analyzer/seafarers/play.py `kernel_board`, array for array: Board.terrain, number, setup_allowed, no_settle,
corner_harbour, corner_pips, scarcity, corner_territory, foreign_only, robber_hexes, pirate_hexes,
params[P_ROBBER_START] and the dealt harbour gifts' types (Board.gifts' item row). Every other field of Board
(topology, fog, frame, draft order, costs, supply, deck, the other params) is the same for every deal of a scenario
and rules. foreign_only is sized for the most territories any deal can have (DealStatic.max_territories + 1); the
entries past this deal's territories are False and no corner names them, so the game never reads them.

Nothing here allocates but new_deal_work.
"""

from collections import namedtuple

import numpy as np

from kernels.catan import game as kg
from kernels.catan import gifts
from kernels.catan.codes import DESERT, FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, SEA
from kernels.catan.flags import fill_board_flags
from kernels.jit import allocating, internal, kernel

ROBBER_OFF, ROBBER_DESERT, ROBBER_NUMBER = range(3)  # DealStatic.robber_rule: how the robber's start is found
UNKNOWN = -1  # a fog hex as the table shows it (analyzer/seafarers/board.py)
_PIPS = np.array(PIPS, np.float64)

DealStatic = namedtuple("DealStatic", [
    "hex_neighbours",  # int32 [n_hex, 6] (Topology), for the islands
    "start_hex",  # bool [n_hex]: in an area of the set-up's start role (setup_policies._allowed_sites)
    "closed_corner",  # bool [n_corner]: a wasteland, strait or "!" corner: never an initial settlement
    "no_settle_hex",  # bool [n_hex]: in a no-settlement area
    "robber_forbidden",  # bool [n_hex]: in a zone the robber may never enter
    "area_hexes",  # int32: the bonus areas' hexes (roles bonus and start_or_bonus), area after area
    "area_offsets",  # int32 [n_areas + 1]: segments of area_hexes
    "area_per_island",  # bool [n_areas]: each island of the area is its own territory
    "area_foreign_only",  # bool [n_areas]: role start_or_bonus (the bonus only off the seat's home islands)
    "harbour_corners",  # int32 [n_sites, 2]: the docks of each harbour site
    "shuffle_harbours",  # bool: the harbour types are dealt (else the view shows no harbour)
    "robber_rule",  # ROBBER_*
    "robber_hex",  # ROBBER_DESERT: the printed desert
    "robber_number",  # ROBBER_NUMBER: the token ...
    "robber_terrain",  # ... preferably on this terrain
    "robber_returns",  # bool: the robber may come back to its start hex
    "max_territories",  # the most territories a deal can make (Board.foreign_only has one more entry)
    "gift_harbours",  # bool: the harbour types are dealt onto the last gifts (the Forgotten Tribe's islet harbours)
])

DealWork = namedtuple("DealWork", [
    "terrain", "number",  # int8 [n_hex]: the board as the table shows it at set-up (fog UNKNOWN, no number)
    "stack",  # int32 [n_hex]
    "hex_land", "hex_island",  # bool, int32 [n_hex] (BoardFlags of the shown board)
    "corner_island", "corner_land", "corner_coastal",  # int32, bool, bool [n_corner]
    "edge_land", "edge_coastal", "edge_sea",  # bool [n_edge]
    "hex_territory",  # int32 [n_hex]
    "island_territory",  # int32 [n_hex]: a per-island area's territory of each island, -1 none
    "board_pips",  # float64 [N_RESOURCES]
])


@allocating
def new_deal_work(n_hex, n_corner, n_edge):
    return DealWork(np.zeros(n_hex, np.int8), np.zeros(n_hex, np.int8), np.zeros(n_hex, np.int32),
                    np.zeros(n_hex, np.bool_), np.zeros(n_hex, np.int32), np.zeros(n_corner, np.int32),
                    np.zeros(n_corner, np.bool_), np.zeros(n_corner, np.bool_), np.zeros(n_edge, np.bool_),
                    np.zeros(n_edge, np.bool_), np.zeros(n_edge, np.bool_), np.zeros(n_hex, np.int32),
                    np.zeros(n_hex, np.int32), np.zeros(N_RESOURCES, np.float64))


@internal
def _pips(board, work):
    """Board.corner_pips and scarcity from the shown board (setup_policies.board_view)."""
    for r in range(N_RESOURCES):
        work.board_pips[r] = 0.0
    for h in range(work.terrain.shape[0]):
        t = work.terrain[h]
        if GOLD < t <= ORE:
            work.board_pips[t - FIRST_RESOURCE_TERRAIN] += _PIPS[work.number[h]]
    for c in range(board.corner_hexes.shape[0]):
        for k in range(N_RESOURCES + 1):
            board.corner_pips[c, k] = 0.0
        for j in range(3):
            h = board.corner_hexes[c, j]
            if h < 0:
                continue
            t = work.terrain[h]
            if GOLD <= t <= ORE:
                column = N_RESOURCES if t == GOLD else t - FIRST_RESOURCE_TERRAIN
                board.corner_pips[c, column] += _PIPS[work.number[h]]
    present = 0
    total = 0.0
    for r in range(N_RESOURCES):
        if work.board_pips[r] > 0:
            present += 1
            total += work.board_pips[r]
    mean = total / present if present else 0.0
    for r in range(N_RESOURCES):
        p = work.board_pips[r]
        board.scarcity[r] = max(0.0, mean / max(p, 1e-12) - 1) if p > 0 else 0.0


@internal
def _territories(static, board, work, n_islands):
    """Board.corner_territory, foreign_only and no_settle (full_reference.game_table): territories numbered area
    after area, a per-island area's islands in order of their lowest hex; a corner's is that of its lowest-index
    land hex that has one."""
    hex_territory = work.hex_territory
    for h in range(hex_territory.shape[0]):
        hex_territory[h] = -1
    t = 0
    for a in range(static.area_offsets.shape[0] - 1):
        lo, hi = static.area_offsets[a], static.area_offsets[a + 1]
        if static.area_per_island[a]:
            for i in range(n_islands):
                work.island_territory[i] = -1
            for k in range(lo, hi):
                h = static.area_hexes[k]
                if work.hex_land[h]:
                    work.island_territory[work.hex_island[h]] = 0  # present; numbered below
            for i in range(n_islands):
                if work.island_territory[i] == 0:
                    work.island_territory[i] = t
                    board.foreign_only[t] = static.area_foreign_only[a]
                    t += 1
            for k in range(lo, hi):
                h = static.area_hexes[k]
                if work.hex_land[h]:
                    hex_territory[h] = work.island_territory[work.hex_island[h]]
        else:
            board.foreign_only[t] = static.area_foreign_only[a]
            for k in range(lo, hi):
                h = static.area_hexes[k]
                if work.hex_land[h]:
                    hex_territory[h] = t
            t += 1
    for k in range(t, board.foreign_only.shape[0]):
        board.foreign_only[k] = False
    for c in range(board.corner_hexes.shape[0]):
        owned = -1
        any_land = False
        all_no_settle = True
        for j in range(3):
            h = board.corner_hexes[c, j]
            if h < 0 or not work.hex_land[h]:
                continue
            any_land = True
            all_no_settle = all_no_settle and static.no_settle_hex[h]
            if owned < 0 and hex_territory[h] >= 0:
                owned = hex_territory[h]
        board.corner_territory[c] = owned
        board.no_settle[c] = any_land and all_no_settle


@internal
def _robber_start(static, work):
    """boards.robber_start on the shown board: -1 for none or off the board."""
    terrain, number = work.terrain, work.number
    if static.robber_rule == ROBBER_DESERT:
        if terrain[static.robber_hex] == DESERT:
            return static.robber_hex
        for h in range(terrain.shape[0]):
            if terrain[h] == DESERT:
                return h
        return -1
    if static.robber_rule == ROBBER_NUMBER:
        first = -1
        for h in range(number.shape[0]):
            if number[h] == static.robber_number:
                if terrain[h] == static.robber_terrain:
                    return h
                if first < 0:
                    first = h
        return first
    return -1


@kernel
def fill_board(static, work, terrain, number, harbour, board):
    """Write the per-deal arrays of `board` (module docstring) for the dealt terrain, number [n_hex] and
    harbour [n_sites] (a type per site, HARBOUR_TYPES index)."""
    n_hex = terrain.shape[0]
    for h in range(n_hex):
        board.terrain[h] = terrain[h]
        board.number[h] = number[h]
        work.terrain[h] = UNKNOWN if board.fog[h] else terrain[h]
        work.number[h] = 0 if board.fog[h] else number[h]
    n_islands = fill_board_flags(work.terrain, static.hex_neighbours, board.corner_hexes, board.edge_hexes, work.stack,
                                 work.hex_land, work.hex_island, work.corner_island, work.corner_land,
                                 work.corner_coastal, work.edge_land, work.edge_coastal, work.edge_sea)
    _pips(board, work)
    for c in range(board.corner_harbour.shape[0]):
        board.corner_harbour[c] = -1
    if static.shuffle_harbours:
        for i in range(static.harbour_corners.shape[0]):
            board.corner_harbour[static.harbour_corners[i, 0]] = harbour[i]
            board.corner_harbour[static.harbour_corners[i, 1]] = harbour[i]
    for c in range(board.corner_hexes.shape[0]):
        touches_start = False
        for j in range(3):
            h = board.corner_hexes[c, j]
            if h >= 0 and static.start_hex[h] and work.hex_land[h]:
                touches_start = True
        board.setup_allowed[c] = (work.corner_land[c] and board.corner_in_play[c] and touches_start
                                  and not static.closed_corner[c])
    _territories(static, board, work, n_islands)
    for h in range(n_hex):
        board.robber_hexes[h] = not board.hex_frame[h] and terrain[h] >= DESERT and not static.robber_forbidden[h]
        board.pirate_hexes[h] = not board.hex_frame[h] and terrain[h] == SEA
    start = _robber_start(static, work)
    if not static.robber_returns and start >= 0:
        board.robber_hexes[start] = False
    board.params[kg.P_ROBBER_START] = start
    if static.gift_harbours:  # full_reference.gifts: the harbour gifts come last, one per site
        first = board.gifts.shape[1] - static.harbour_corners.shape[0]
        for i in range(static.harbour_corners.shape[0]):
            board.gifts[gifts.GIFT_ITEM, first + i] = harbour[i]
