"""One dealt board of a Seafarers scenario under the rules, set up for play: the Table (everything that never
changes during a game) from which analyzer/seafarers/play.py builds the kernel's Board, and on which the pure-Python
reference (analyzer/seafarers/full_reference.py, tests only) plays.

    table = game_table(scenario, rules, *printed_board(scenario))   # or a dealt board's (terrain, number, harbour)
    deck_counts(table)                                              # the development deck by card
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from analyzer.seafarers.boards import robber_start
from analyzer.seafarers.full_rules import Rules, WonderCard, gifts, wonder_cards
from analyzer.seafarers.scenarios import HARBOUR_TYPES, Scenario
from analyzer.seafarers.setup_policies import BoardView, _preplaced, board_view, lane_distances
from kernels.catan.codes import DESERT, SEA

__all__ = ["Table", "deck_counts", "game_table", "harbour_tokens", "printed_board"]


@dataclass(frozen=True, eq=False)
class Table:
    """One dealt board of a scenario and the rules: everything that never changes during a game."""

    scenario: Scenario
    rules: Rules
    view: BoardView  # the board as the table shows it at the start (fog face down): flags, harbours, set-up sites
    terrain: np.ndarray  # int8 [n_hex] as dealt, fog hexes included (what exploring one turns up)
    number: np.ndarray  # int8 [n_hex]
    fog: np.ndarray  # bool [n_hex]: dealt face down, turned up by the road or ship that reaches it
    corner_territory: np.ndarray  # int [n_corner]: bonus territory of the corner, -1 none
    territory_foreign_only: np.ndarray  # bool [n_territory]: bonus only for a seat whose home it is not
    no_settle: np.ndarray  # bool [n_corner]: every land hex there is in a no-settlement area
    robber_hexes: np.ndarray  # bool [n_hex]: where the robber may be moved
    pirate_hexes: np.ndarray  # bool [n_hex]: where the pirate may be moved (sea inside the frame)
    robber_start: int  # -1: off the board until the first move; no robber at all if not has_robber
    pirate_start: int
    has_robber: bool
    has_pirate: bool
    harbour_pool: tuple[int, ...] = ()  # the tokens the players lay (HARBOUR_TYPES indices, sorted); () if dealt
    villages: tuple[tuple[int, int], ...] = ()  # Cloth for Catan: (corner, number) of each village; () no cloth
    gift_edges: tuple[int, ...] = ()  # the Forgotten Tribe's gifts: cards, then chits, then harbours
    gift_kinds: tuple[int, ...] = ()  # GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR
    gift_items: tuple[int, ...] = ()  # a card's deck position, a harbour's type (HARBOUR_TYPES index), a chit 0
    wonders: tuple[WonderCard, ...] = ()  # the Wonders of Catan: the scenario's wonder cards, in its order; () none
    wonder_sites: tuple[tuple[int, ...], ...] = ()  # per wonder: the corners its settlement requirement names
    forts: tuple = ()  # the Pirate Islands: each seat's Fortress (scenario markers; 3 players: slots_3_players)
    fort_dist: tuple = ()  # per seat (to the marked corner, to the fortress): {corner: ships away} over its lanes
    fleet_path: tuple[int, ...] = ()  # the fleet's hexes, clockwise from its start

    @property
    def players(self) -> int:
        return self.scenario.players


def game_table(scenario: Scenario, rules: Rules, terrain, number, harbour) -> Table:
    """The Table of one dealt board (terrain, number [n_hex]; harbour: type per harbour site)."""
    topo = scenario.topology
    if not scenario.ships:  # plain Catan (the base map): no ship in any supply, so none is built, moved or drafted
        rules = replace(rules, supply={**rules.supply, "ships": 0})
    terrain = np.asarray(terrain, np.int8)
    number = np.asarray(number, np.int8)
    view = board_view(scenario, terrain, number, harbour)
    land = view.flags.hex_land
    hex_territory = np.full(topo.n_hex, -1)
    foreign_only: list[bool] = []
    no_settle_hex = np.zeros(topo.n_hex, bool)
    for area in scenario.areas:
        hexes = [h for h in area.hexes if land[h]]
        if area.role == "no_settle":
            no_settle_hex[hexes] = True
        if area.role not in ("bonus", "start_or_bonus"):
            continue
        keys = sorted({int(view.flags.hex_island[h]) for h in hexes}) if area.per_island else [0]
        for key in keys:
            t = len(foreign_only)
            foreign_only.append(area.role == "start_or_bonus")
            for h in hexes:
                if not area.per_island or view.flags.hex_island[h] == key:
                    hex_territory[h] = t
    corner_territory = np.full(topo.n_corner, -1)
    no_settle = np.zeros(topo.n_corner, bool)
    for c in range(topo.n_corner):
        hexes = [h for h in topo.corner_hexes[c] if h >= 0 and land[h]]
        owned = [hex_territory[h] for h in hexes if hex_territory[h] >= 0]
        corner_territory[c] = owned[0] if owned else -1  # lowest hex index first
        no_settle[c] = bool(hexes) and all(no_settle_hex[h] for h in hexes)
    inside = ~topo.hex_frame
    forbidden = {h for z in scenario.robber.forbidden_zones for h in scenario.zones[z].hexes}
    robber_hexes = np.array([inside[h] and terrain[h] >= DESERT and h not in forbidden for h in range(topo.n_hex)])
    start = robber_start(scenario, view.terrain, view.number)  # on a hex the table shows
    if not scenario.robber.return_to_start and start >= 0:
        robber_hexes[start] = False
    pirate_hexes = inside & (terrain == SEA)
    fog = np.array([k == "fog" for k in scenario.kind])
    forts = tuple(_preplaced(scenario))
    has_pirate = scenario.pirate.rule != "none" and not forts  # the Pirate Islands' fleet is no pirate ship
    pirate_start = scenario.pirate.hex if scenario.pirate.rule == "hex" and has_pirate else -1
    return Table(scenario, rules, view, terrain, number, fog, corner_territory, np.array(foreign_only, bool), no_settle,
                 robber_hexes, pirate_hexes, start, pirate_start,
                 scenario.robber.rule != "none", has_pirate, harbour_tokens(scenario),
                 scenario.markers.villages if scenario.victory.cloth_per_vp else (), *gifts(scenario, rules, harbour),
                 *wonder_cards(scenario, rules), forts, tuple(lane_distances(scenario, f) for f in forts),
                 scenario.pirate.fleet_path if forts else ())


def harbour_tokens(scenario: Scenario) -> tuple[int, ...]:
    """The harbour tokens the players lay (HARBOUR_TYPES indices, in that order), or () where they come with the
    board."""
    if scenario.harbours.placement != "players":
        return ()
    return tuple(k for k, name in enumerate(HARBOUR_TYPES) for _ in range(scenario.harbours.pool.get(name, 0)))


def deck_counts(table: Table) -> dict[str, int]:
    """The development deck by card: the rules' [development_deck]; the Pirate Islands: its [pirates]
    victory_point_cards counted as knights with 4 players, removed with 3 ('contam como cartas de cavaleiro')."""
    return table.rules.deck_for(table.scenario)


def printed_board(scenario: Scenario) -> tuple:
    """(terrain, number, harbour) of the printed layout."""
    return (scenario.terrain, scenario.number_token,
            np.array([HARBOUR_TYPES.index(s.type) for s in scenario.harbours.sites], np.int8))
