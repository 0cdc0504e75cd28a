"""One dealt board of a Seafarers scenario under the rules, set up for play: the Table (everything that never
changes during a game) from which analyzer/seafarers/play.py builds the kernel's Board, and on which the pure-Python
reference (analyzer/seafarers/full_reference.py, tests only) plays.

    table = game_table(scenario, rules, *printed_board(scenario))   # or a dealt board's (terrain, number, harbour)
    deck_counts(table)                                              # the development deck by card
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from analyzer.errors import UserError
from analyzer.seafarers.boards import robber_start
from analyzer.seafarers.full_rules import Rules, WonderCard
from analyzer.seafarers.scenarios import HARBOUR_TYPES, Scenario
from analyzer.seafarers.setup_policies import BoardView, _preplaced, board_view
from kernels.catan.codes import DESERT, SEA
from kernels.catan.gifts import GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR

__all__ = ["Table", "deck_counts", "game_table", "gifts", "harbour_tokens", "lane_distances", "printed_board",
           "wonder_cards"]


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


def wonder_cards(scenario: Scenario, rules: Rules) -> tuple[tuple, tuple]:
    """(cards, sites) of the scenario's wonders: each [layouts.markers] wonder's card in the rules data [wonders]
    (its requirement and stage cost), and the corners its settlement requirement names; both empty where there are
    none."""
    m = scenario.markers
    by_id = {c.id: c for c in rules.wonder_cards}
    missing = [w["id"] for w in m.wonders if w["id"] not in by_id]
    if missing:
        raise UserError(f"{scenario.slug}: the rules data [wonders] has no card for {', '.join(missing)}")
    cards = tuple(by_id[w["id"]] for w in m.wonders)
    corners = {"": (), "strait": m.strait_corners, "wasteland": m.wasteland_corners}
    return cards, tuple(tuple(corners[c.site]) for c in cards)


def gifts(scenario: Scenario, rules: Rules, harbour) -> tuple[tuple[int, ...], ...]:
    """(edges, kinds, items) of the scenario's gifts: the development cards (deck positions 0, 1, ... in the order of
    the card coasts), the Catan chits, the harbours (their dealt types); all empty where there are none."""
    m = scenario.markers
    cards, chits = list(m.dev_card_edges), list(m.vp_chit_edges)
    sites = list(scenario.harbours.sites) if scenario.harbours.placement == "gifts" else []
    if len(cards) > rules.deck_size:
        raise UserError(f"{scenario.slug}: {len(cards)} development cards lie on the islets, but the rules' deck has "
                        f"only {rules.deck_size}")
    edges = tuple(cards + chits + [site.edge for site in sites])
    kinds = tuple([GIFT_CARD] * len(cards) + [GIFT_CHIT] * len(chits) + [GIFT_HARBOUR] * len(sites))
    items = tuple(list(range(len(cards))) + [0] * len(chits) + [int(k) for k in harbour][:len(sites)])
    return edges, kinds, items


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


def lane_distances(scenario: Scenario, f) -> tuple[dict[int, int], dict[int, int]]:
    """({corner: ships to the marked corner}, {corner: ships to the fortress}) over the seat's lanes (and its
    pre-placed ship): a route 'chegue ao seu objectivo pelo caminho mais curto' takes one edge nearer each time."""
    topo = scenario.topology
    adj: dict[int, list[int]] = {}
    for e in set(f.lanes) | {f.ship}:
        a, b = (int(x) for x in topo.edge_corners[e])
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)

    def bfs(goal: int) -> dict[int, int]:
        dist, queue = {goal: 0}, [goal]
        for c in queue:
            for d in adj.get(c, []):
                if d not in dist:
                    dist[d] = dist[c] + 1
                    queue.append(d)
        return dist

    to_colour, to_fort = bfs(f.colour_corner), bfs(f.fortress)
    if f.settlement not in to_colour or f.colour_corner not in to_fort:
        raise UserError(f"{scenario.slug}: slot {f.slot}: its lanes do not join its settlement, marked corner and "
                        "fortress")
    return to_colour, to_fort


def printed_board(scenario: Scenario) -> tuple:
    """(terrain, number, harbour) of the printed layout."""
    return (scenario.terrain, scenario.number_token,
            np.array([HARBOUR_TYPES.index(s.type) for s in scenario.harbours.sites], np.int8))
