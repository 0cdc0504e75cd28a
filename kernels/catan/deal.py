"""Random Seafarers boards: the variable set-up ("montagem variável") as a numba kernel.

A board is dealt from one stream (seed, board, PURPOSE_BOARD), in this order:

1. Terrains. For each dealt zone in scenario order, the zone's tile pool (sorted by terrain code) is
   shuffled (Fisher-Yates, i from the last down to 1, j = uniform_int(i + 1)) and laid on the zone's
   dealt cells in cell-index order. With a clump limit (`max_clump` > 0), a deal with a connected
   group of more than `max_clump` hexes of one producing terrain is dealt again.
2. Numbers. For each dealt zone, its token pool (sorted) is shuffled the same way and laid on the
   zone's dealt cells that got a producing terrain (gold or a resource), in cell-index order. If the
   board then breaks a set-up rule (a banned number on a hex, two red 6/8 next to each other where
   the scenario does not allow it), the numbers are dealt again from the sorted pool: rejection, so
   every legal numbering of the dealt terrain is equally likely. After MAX_NUMBER_TRIES failures the
   terrain is dealt again (step 1); after MAX_TERRAIN_TRIES terrain deals the board fails (-1).
3. Harbours. With `shuffle_harbours`, the harbour types are shuffled over the sites the same way.

Set-up rules arrive as bit masks of number tokens (bit n = token n is banned):
    hex_ban[h]       banned on hex h whatever its terrain
    terrain_ban[t]   banned on hexes of terrain t (the gold rule is terrain_ban[GOLD])
    adjacent_ban[t]  banned on hexes next to a hex of terrain t
A pure-Python reference of the same deal on the same stream is analyzer/seafarers/boards_reference.py.
"""

from collections import namedtuple

import numpy as np

from kernels.catan.codes import GOLD, ORE
from kernels.jit import allocating, internal
from kernels.rng import PURPOSE_BOARD, stream_init, uniform_int

MAX_NUMBER_TRIES = 1000  # number deals per terrain deal before the terrain is dealt again
MAX_TERRAIN_TRIES = 1000  # terrain deals per board before the board is declared impossible

# A scenario's variable set-up, packed by analyzer/seafarers/boards.py (deal_plan).
DealPlan = namedtuple("DealPlan", [
    "base_terrain",  # int8 [n_hex] printed terrain of fixed cells (dealt cells are overwritten)
    "base_number",  # int8 [n_hex] printed number of fixed cells, 0 on dealt cells
    "hex_neighbours",  # int32 [n_hex, 6] the scenario topology's neighbours, -1 padded
    "cells",  # int32: dealt cells, zone after zone, by cell index
    "tiles",  # int8: each zone's terrain pool, sorted, in the same segments
    "zone_cells",  # int32 [n_zones + 1] segment offsets into cells / tiles
    "tokens",  # int8: each zone's number pool, sorted
    "zone_tokens",  # int32 [n_zones + 1]
    "hex_ban",  # int32 [n_hex] bit masks of banned numbers
    "terrain_ban",  # int32 [8]
    "adjacent_ban",  # int32 [8]
    "red_adjacent_allowed",  # bool: red 6/8 may stand next to each other
    "max_clump",  # largest connected group of one producing terrain, 0 no limit
    "harbour_pool",  # int8 [n_sites] printed harbour type per site
    "shuffle_harbours",  # bool: the harbour types are shuffled over the sites
])


@internal
def _producing(t):
    return t >= GOLD and t <= ORE


@internal
def _red(n):
    return n == 6 or n == 8


@internal
def copy_into(source, target):
    """target[:] = source, without the temporary copy numba makes for possibly overlapping arrays."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@internal
def shuffle_into(pool, lo, hi, deck, stream):
    """deck[:hi - lo] = a uniformly shuffled copy of pool[lo:hi] (Fisher-Yates, last index first)."""
    n = hi - lo
    for i in range(n):
        deck[i] = pool[lo + i]
    for i in range(n - 1, 0, -1):
        j = uniform_int(stream, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@internal
def largest_clump(terrain, hex_neighbours, label, stack):
    """Size of the largest connected group of hexes of one producing terrain (label, stack: int32 scratch)."""
    n_hex = terrain.shape[0]
    for h in range(n_hex):
        label[h] = 0
    best = 0
    for first in range(n_hex):
        if label[first] or not _producing(terrain[first]):
            continue
        label[first] = 1
        stack[0] = first
        top = 0
        size = 0
        while top >= 0:
            h = stack[top]
            top -= 1
            size += 1
            for d in range(6):
                g = hex_neighbours[h, d]
                if g >= 0 and not label[g] and terrain[g] == terrain[first]:
                    label[g] = 1
                    top += 1
                    stack[top] = g
        best = max(best, size)
    return best


@internal
def fill_bans(terrain, hex_neighbours, hex_ban, terrain_ban, adjacent_ban, ban):
    """ban[h] = the numbers the set-up rules forbid on hex h of this terrain deal (0 off producing hexes)."""
    for h in range(terrain.shape[0]):
        mask = 0
        if _producing(terrain[h]):
            mask = hex_ban[h] | terrain_ban[terrain[h]]
            for d in range(6):
                g = hex_neighbours[h, d]
                if g >= 0 and terrain[g] >= 0:
                    mask |= adjacent_ban[terrain[g]]
        ban[h] = mask


@internal
def numbers_legal(number, hex_neighbours, ban, red_adjacent_allowed):
    """Does the numbering keep every set-up rule (bans in `ban`, red 6/8 apart unless allowed)?"""
    for h in range(number.shape[0]):
        n = number[h]
        if n == 0:
            continue
        if (ban[h] >> n) & 1:
            return False
        if not red_adjacent_allowed and _red(n):
            for d in range(6):
                g = hex_neighbours[h, d]
                if g >= 0 and _red(number[g]):
                    return False
    return True


@internal
def deal_board(stream, plan, terrain, number, harbour, deck, ban, label, stack):
    """Deal one board of `plan` (a DealPlan) into terrain, number (int8[n_hex]) and harbour (int8[n_sites])
    from `stream`. Returns the number deals it took (>= 1), or -1 if no legal board was found (module
    docstring). deck: int8 scratch as long as the longest pool; ban, label, stack: int32[n_hex] scratch."""
    (base_terrain, base_number, hex_neighbours, cells, tiles, zone_cells, tokens, zone_tokens, hex_ban, terrain_ban,
     adjacent_ban, red_adjacent_allowed, max_clump, harbour_pool, shuffle_harbours) = plan
    n_zones = zone_cells.shape[0] - 1
    tries = 0
    for _t in range(MAX_TERRAIN_TRIES):
        copy_into(base_terrain, terrain)
        for z in range(n_zones):
            lo = zone_cells[z]
            shuffle_into(tiles, lo, zone_cells[z + 1], deck, stream)
            for i in range(lo, zone_cells[z + 1]):
                terrain[cells[i]] = deck[i - lo]
        if max_clump > 0 and largest_clump(terrain, hex_neighbours, label, stack) > max_clump:
            continue
        fill_bans(terrain, hex_neighbours, hex_ban, terrain_ban, adjacent_ban, ban)
        for _n in range(MAX_NUMBER_TRIES):
            tries += 1
            copy_into(base_number, number)
            for z in range(n_zones):
                shuffle_into(tokens, zone_tokens[z], zone_tokens[z + 1], deck, stream)
                k = 0
                for i in range(zone_cells[z], zone_cells[z + 1]):
                    h = cells[i]
                    if _producing(terrain[h]):
                        number[h] = deck[k]
                        k += 1
            if numbers_legal(number, hex_neighbours, ban, red_adjacent_allowed):
                n_sites = harbour_pool.shape[0]
                if shuffle_harbours:
                    shuffle_into(harbour_pool, 0, n_sites, deck, stream)
                    for i in range(n_sites):
                        harbour[i] = deck[i]
                else:
                    copy_into(harbour_pool, harbour)
                return tries
    return -1


@allocating
def deal_boards(seed, start, plan, terrain_out, number_out, harbour_out, tries_out):
    """Boards start .. start + n - 1 (n = terrain_out.shape[0]) of a DealPlan; board b is dealt from the
    stream (seed, b, PURPOSE_BOARD) into row b - start of the outputs; tries_out gets deal_board's result."""
    n_hex = plan.base_terrain.shape[0]
    deck = np.zeros(max(plan.tiles.shape[0], plan.tokens.shape[0], plan.harbour_pool.shape[0], 1), np.int8)
    ban = np.zeros(n_hex, np.int32)
    label = np.zeros(n_hex, np.int32)
    stack = np.zeros(n_hex, np.int32)
    stream = np.zeros(2, np.uint64)
    for j in range(terrain_out.shape[0]):
        stream_init(stream, seed, start + j, PURPOSE_BOARD)
        tries_out[j] = deal_board(stream, plan, terrain_out[j], number_out[j], harbour_out[j], deck, ban, label,
                                  stack)
