"""Slow, obvious, pure-Python deal of a random Seafarers board: the oracle of kernels/catan/deal.py.

Written from the Scenario object alone (zones, pools, the printed map) and checked with the catalog's
own `setup_violations`, without the kernel's packed arrays or bit masks. It draws from the same
counter-based stream in the same order, so a test can demand identical boards:

  repeat: deal every dealt zone's terrain pool (sorted, shuffled) over its dealt cells;
          if a clump limit is set and broken, deal the terrains again;
          repeat up to MAX_NUMBER_TRIES: deal every dealt zone's number pool (sorted, shuffled) over its
          producing cells; if `setup_violations` finds nothing, shuffle the harbours and stop.
"""

from __future__ import annotations

from analyzer.rng_reference import Stream
from analyzer.seafarers.scenarios import HARBOUR_TYPES, SHUFFLED, Scenario, setup_violations
from kernels.catan.codes import GOLD, ORE
from kernels.catan.deal import MAX_NUMBER_TRIES, MAX_TERRAIN_TRIES
from kernels.rng import PURPOSE_BOARD


def shuffled(items: list, stream: Stream) -> list:
    """Fisher-Yates from the last position down, j uniform on 0..i."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def producing(terrain: int) -> bool:
    return GOLD <= terrain <= ORE


def largest_clump(scenario: Scenario, terrain: list[int]) -> int:
    """Largest connected group of hexes of one producing terrain."""
    seen: set[int] = set()
    best = 0
    for first in range(len(terrain)):
        if first in seen or not producing(terrain[first]):
            continue
        group, todo = {first}, [first]
        while todo:
            h = todo.pop()
            for g in scenario.topology.hex_neighbours[h]:
                if g >= 0 and g not in group and terrain[g] == terrain[first]:
                    group.add(int(g))
                    todo.append(int(g))
        seen |= group
        best = max(best, len(group))
    return best


def reference_deal(scenario: Scenario, seed: int, board: int, max_clump: int = 0):
    """(terrain, number, harbour types) of board `board` of `seed`, as lists; None if no legal board."""
    stream = Stream(seed, board, PURPOSE_BOARD)
    dealt = [z for z in scenario.zones.values() if z.deal != "fixed"]
    for _ in range(MAX_TERRAIN_TRIES):
        terrain = [int(t) for t in scenario.terrain]
        for zone in dealt:
            cells = [h for h in zone.hexes if scenario.dealt[h]]
            pool = sorted(t for t, k in zone.terrains.items() for _ in range(k))
            for h, t in zip(cells, shuffled(pool, stream)):
                terrain[h] = t
        if max_clump and largest_clump(scenario, terrain) > max_clump:
            continue
        for _ in range(MAX_NUMBER_TRIES):
            number = [0 if scenario.dealt[h] else int(n) for h, n in enumerate(scenario.number_token)]
            for zone in dealt:
                cells = [h for h in zone.hexes if scenario.dealt[h] and producing(terrain[h])]
                pool = sorted(n for n, k in zone.numbers.items() for _ in range(k))
                for h, n in zip(cells, shuffled(pool, stream)):
                    number[h] = n
            if not setup_violations(scenario, terrain, number):
                harbours = [HARBOUR_TYPES.index(s.type) for s in scenario.harbours.sites]
                if scenario.harbours.placement in SHUFFLED:  # "Coloca os 6 portos, aleatoriamente" too
                    harbours = shuffled(harbours, stream)
                return terrain, number, harbours
    return None
