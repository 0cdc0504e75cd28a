"""Full Seafarers games on the numba kernel (kernels/catan/game.py): the board's arrays and the game loop.

    table = game_table(scenario, rules, terrain, number, harbour)     # analyzer/seafarers/table.py
    board = kernel_board(table)          # the kernel's Board for that dealt board
    out = play_on_board(board, seed, first, count, ("weighted",) * 4)   # int64 [N_RESULT_COLS, count]

Random boards without Python per game (kernels/catan/table.py; kernel_board(game_table(...)) is its reference):
    static = deal_static(scenario)       # the deal-independent facts, once per job
    template = deal_board(scenario, rules, static)
    play_dealt_chunk(fresh_board(template), static, seed, first, boards, policies, params, out)
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.seafarers.full_rules import DEV_CARDS, ITEMS
from analyzer.seafarers.table import Table, deck_counts
from kernels.catan import game as kg
from kernels.catan import play as kl
from kernels.catan import policies as kp
from kernels.catan import table as kt
from kernels.catan.route import route_work

__all__ = ["DEAL_FIELDS", "deal_board", "deal_static", "fresh_board", "invariant_checks", "kernel_board",
           "play_chunk", "play_dealt_chunk", "play_on_board"]

def kernel_board(table: Table) -> kg.Board:
    s, topo, rules = table.scenario, table.scenario.topology, table.rules
    order = [seat for seat in _setup_order(table)]
    counts = deck_counts(table)
    deck = [card for card, name in enumerate(DEV_CARDS) for _ in range(counts[name])]
    params = np.zeros(kg.N_PARAMS, np.int64)
    values = {
        kg.P_PLAYERS: s.players, kg.P_ROBBER_START: table.robber_start, kg.P_PIRATE_START: table.pirate_start,
        kg.P_HAS_ROBBER: table.has_robber, kg.P_HAS_PIRATE: table.has_pirate, kg.P_SETUP_SHIPS: s.setup.ships,
        kg.P_ISLAND_BONUS: s.victory.island_bonus, kg.P_TARGET: s.victory.target, kg.P_BANK: rules.bank,
        kg.P_BANK_RATE: rules.bank_rate, kg.P_GENERIC_RATE: rules.generic_rate,
        kg.P_SPECIAL_RATE: rules.special_rate, kg.P_ROUTE_MIN: rules.longest_route_minimum,
        kg.P_ARMY_MIN: rules.largest_army_minimum, kg.P_DISCARD_ABOVE: rules.discard_above,
        kg.P_TURN_CAP: rules.turn_cap, kg.P_VP_SETTLEMENT: rules.vp["settlement"], kg.P_VP_CITY: rules.vp["city"],
        kg.P_VP_ROUTE: rules.vp["longest_route"], kg.P_VP_ARMY: rules.vp["largest_army"],
        kg.P_VP_CARD: rules.vp["victory_point_card"], kg.P_DECK_LEN: len(deck), kg.P_SETUP_LEN: len(order),
        kg.P_OFFERS: rules.domestic_offers, kg.P_HARBOURS_AFTER_DRAFT: rules.chosen["harbours_after_draft"],
        kg.P_HARBOUR_HEXES_APART: rules.chosen["harbour_hexes_apart"],
        kg.P_NO_ROUTE_CARD: not s.longest_route,
        kg.P_CHIT_VP: rules.chit_vp, kg.P_GIFT_MOVED_SHIP: rules.chosen["gift_by_moved_ship"],
        kg.P_GIFT_AT_CITIES: rules.chosen["gift_harbour_at_cities"],
        kg.P_WONDERS: len(table.wonders), kg.P_WONDER_STAGES: rules.wonder_stages,
        kg.P_BONUS_EACH: s.victory.island_bonus_scope == "each_settlement",
        kg.P_WONDER_SITE_CITY: rules.chosen["wonder_site_city"],
        kg.P_FLEET_LEN: len(table.fleet_path), kg.P_FORT_CHITS: s.markers.fortress_strength,
        kg.P_RAID_SOLE: rules.chosen["raid_sole_owner"], kg.P_KNIGHT_NO_SHIP: rules.chosen["knight_without_ship"],
        kg.P_DRAFT_FRAME_SHIP: rules.chosen["draft_ship_facing_frame"],
        kg.P_FLEET_BLOCKS: rules.chosen["fleet_blocks_ships"],
        kg.P_PROGRESS_BEFORE_ROLL: rules.chosen["progress_before_roll"],
        kg.P_FOG_NEXT_CORNER: rules.chosen["fog_explore_next_corner"],
        kg.P_SEVEN_STEAL_OPTIONAL: rules.chosen["pirate_seven_steal_optional"],
    }
    if table.villages:  # Cloth for Catan
        values.update({kg.P_CLOTH_PER_VP: s.victory.cloth_per_vp, kg.P_CLOTH_PER_VILLAGE: s.markers.cloth_per_village,
                       kg.P_CLOTH_RESERVE: s.markers.cloth_supply, kg.P_CLOTH_END_VILLAGES: s.victory.end_villages,
                       kg.P_CLOTH_FROM_RESERVE: rules.chosen["cloth_route_from_reserve"]})
    corner_village = np.full(topo.n_corner, -1, np.int64)
    for k, (c, _) in enumerate(table.villages):
        corner_village[c] = k
    for k, v in values.items():
        params[k] = int(v)
    n_t = len(table.territory_foreign_only)
    foreign = np.zeros(n_t + 1, np.bool_)
    foreign[:n_t] = table.territory_foreign_only
    return kg.Board(
        topo.corner_hexes, topo.corner_neighbours, topo.corner_edges, topo.edge_corners, topo.edge_hexes,
        topo.hex_corners, topo.hex_edges, topo.corner_in_play, topo.edge_in_play,
        table.terrain.astype(np.int8), table.number.astype(np.int8), np.asarray(table.fog, np.bool_),
        np.asarray(topo.hex_frame, np.bool_), np.asarray(table.view.allowed, np.bool_),
        np.asarray(table.no_settle, np.bool_), np.asarray(table.view.corner_harbour, np.int8),
        np.asarray(table.view.corner_pips, np.float64), np.asarray(table.view.scarcity, np.float64),
        np.asarray(table.corner_territory, np.int32), foreign, np.asarray(table.robber_hexes, np.bool_),
        np.asarray(table.pirate_hexes, np.bool_), np.array(order, np.int64),
        np.array([rules.costs[item] for item in ITEMS] + [w.cost for w in table.wonders], np.int64),
        np.array([rules.supply[k] for k in ("roads", "ships", "settlements", "cities")], np.int64),
        np.array(deck, np.int64), params, np.array(table.harbour_pool, np.int64),
        np.array([c for c, _ in table.villages], np.int64), np.array([n for _, n in table.villages], np.int64),
        corner_village, np.array([table.gift_edges, table.gift_kinds, table.gift_items], np.int64).reshape(3, -1),
        fortress_array(table), wonder_rows(table))


def wonder_rows(table: Table) -> np.ndarray:
    """Board.wonders: per wonder card its requirement (kernels/catan/wonders.py W_*), then its site corners, -1
    padded; no row where there are no wonders."""
    from kernels.catan import wonders as kw

    width = kw.W_SITES + max([len(s) for s in table.wonder_sites] + [1])
    out = np.full((len(table.wonders), width), -1, np.int64)
    for w, (card, sites) in enumerate(zip(table.wonders, table.wonder_sites)):
        out[w, :kw.W_SITES] = (card.cities, card.vp, card.harbour_city, card.route)
        out[w, kw.W_SITES:kw.W_SITES + len(sites)] = sites
    return out


def fortress_array(table: Table) -> np.ndarray:
    """Board.fortress (kernels/catan/fleet.py): each seat's corners and pre-placed ship, its lane distances and
    lanes, the fleet's path; [0, 0] without a pirate fleet."""
    from kernels.catan import fleet as kf

    if not table.forts:
        return np.zeros((0, 0), np.int64)
    topo = table.scenario.topology
    if max(dc[f.settlement] + df[f.colour_corner] for f, (dc, df) in zip(table.forts, table.fort_dist)) > kf.MAX_ROUTE:
        raise UserError(f"{table.scenario.slug}: a route longer than {kf.MAX_ROUTE} ships")
    out = np.full((kf.FB_ROWS, max(topo.n_corner, topo.n_edge, 4, len(table.fleet_path))), -1, np.int64)
    out[kf.FB_LANE:kf.FB_LANE + kg.MAX_SEATS] = 0
    for s, (f, (to_colour, to_fort)) in enumerate(zip(table.forts, table.fort_dist)):
        out[kf.FB_SEAT + s, :4] = f.settlement, f.colour_corner, f.fortress, f.ship
        for c, d in to_colour.items():
            out[kf.FB_TO_COLOUR + s, c] = d
        for c, d in to_fort.items():
            out[kf.FB_TO_FORT + s, c] = d
        out[kf.FB_LANE + s, list(set(f.lanes) | {f.ship})] = 1
    out[kf.FB_PATH, :len(table.fleet_path)] = table.fleet_path
    return out


def _setup_order(table: Table) -> list[int]:
    from analyzer.seafarers.setup_policies import placement_order

    return placement_order(table.scenario, table.players)


def play_on_board(board: kg.Board, seed: int, first: int, count: int, bots) -> tuple[np.ndarray, int]:
    """Games first .. first + count - 1 of `seed`, all on `board` (bots: a name or `name:key=value,...` per
    seat): the result columns int64 [N_RESULT_COLS, count] and the number of decisions taken."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot

    policies, params = bot_vectors([parse_bot(b) for b in bots])
    out = np.zeros((kg.N_RESULT_COLS, count), np.int64)
    decisions = play_chunk(board, seed, first, policies, params, out)
    return out, int(decisions)


def play_chunk(board: kg.Board, seed: int, first: int, policies, params, out, game: kg.Game | None = None,
               deals: kl.Deals | None = None, checks: kl.Checks | None = None) -> int:
    """Games first .. first + out.shape[1] - 1 of `seed` through the one game loop (kernels/catan/play.py), with
    fresh scratch (each call owns it: threads play chunks of one job at once): on `board` as it is, or refilled for
    each of `deals`' boards (dealt); `checks` (invariant_checks) asks for every invariant checked after every step.
    Returns the decisions taken."""
    game = kg.new_game(board) if game is None else game
    seats = kl.Seats(policies, params, np.zeros((kg.MAX_SEATS, 2), np.uint64), kp.bot_work(board))
    return kl.play_games(board, game, kl.no_deals() if deals is None else deals, seats, seed, first, out,
                         kl.no_checks() if checks is None else checks)


def invariant_checks(board: kg.Board, games: int) -> kl.Checks:
    """Checks for `games` games on `board`: per game the first broken invariant (0: none) and the decisions."""
    return kl.Checks(route_work(len(board.edge_corners)), np.zeros((kl.N_CHECK_COLS, games), np.int64))


# The Board fields kernels/catan/table.py fill_board writes for each deal (params: P_ROBBER_START).
DEAL_FIELDS = ("terrain", "number", "setup_allowed", "no_settle", "corner_harbour", "corner_pips", "scarcity",
               "corner_territory", "foreign_only", "robber_hexes", "pirate_hexes", "params", "gifts")


def deal_static(scenario) -> kt.DealStatic:
    """What fill_board needs of a scenario besides the Board: the facts game_table takes from the Scenario."""
    topo = scenario.topology
    roles = {a.role for a in scenario.areas}
    start_role = "start" if "start" in roles else "start_or_bonus"  # setup_policies._allowed_sites
    start_hex = np.zeros(topo.n_hex, np.bool_)
    no_settle_hex = np.zeros(topo.n_hex, np.bool_)
    hexes, offsets, per_island, foreign_only = [], [0], [], []
    most = 0
    for area in scenario.areas:
        if area.role == start_role:
            start_hex[list(area.hexes)] = True
        if area.role == "no_settle":
            no_settle_hex[list(area.hexes)] = True
        if area.role in ("bonus", "start_or_bonus"):
            hexes += area.hexes
            offsets.append(len(hexes))
            per_island.append(area.per_island)
            foreign_only.append(area.role == "start_or_bonus")
            most += len(area.hexes) if area.per_island else 1  # an island has at least one of the area's hexes
    m = scenario.markers
    closed = np.zeros(topo.n_corner, np.bool_)
    closed[list(m.wasteland_corners + m.strait_corners + m.no_setup_corners)] = True
    robber = scenario.robber
    forbidden = np.zeros(topo.n_hex, np.bool_)
    for z in robber.forbidden_zones:
        forbidden[list(scenario.zones[z].hexes)] = True
    docks = np.array([topo.edge_corners[site.edge] for site in scenario.harbours.sites], np.int32).reshape(-1, 2)
    rule = {"desert": kt.ROBBER_DESERT, "number": kt.ROBBER_NUMBER}.get(robber.rule, kt.ROBBER_OFF)
    return kt.DealStatic(
        topo.hex_neighbours, start_hex, closed, no_settle_hex, forbidden, np.array(hexes, np.int32),
        np.array(offsets, np.int32), np.array(per_island, np.bool_), np.array(foreign_only, np.bool_), docks,
        scenario.harbours.placement == "shuffle", rule, int(robber.hex), int(robber.number), int(robber.terrain),
        bool(robber.return_to_start), most, scenario.harbours.placement == "gifts")


def deal_board(scenario, rules, static: kt.DealStatic) -> kg.Board:
    """A Board of the scenario and rules whose per-deal arrays fill_board overwrites (here: the printed board's),
    foreign_only sized for any deal."""
    from analyzer.seafarers.table import game_table, printed_board

    board = kernel_board(game_table(scenario, rules, *printed_board(scenario)))
    foreign = np.zeros(static.max_territories + 1, np.bool_)
    foreign[:len(board.foreign_only)] = board.foreign_only
    return board._replace(foreign_only=foreign)


def fresh_board(template: kg.Board) -> kg.Board:
    """The template with its own per-deal arrays (a chunk fills them in place; threads play chunks at once)."""
    return template._replace(**{name: getattr(template, name).copy() for name in DEAL_FIELDS})


def play_dealt_chunk(board: kg.Board, static: kt.DealStatic, seed: int, first: int, boards, policies, params,
                     out, game: kg.Game | None = None, checks: kl.Checks | None = None) -> int:
    """Game first + j on dealt board j of `boards` (a boards.Boards), for every column j of out (int64
    [N_RESULT_COLS, n]), `board` (a fresh_board, owned by the caller) refilled before each; `game` (if given)
    holds the last game's end."""
    work = kt.new_deal_work(len(board.terrain), len(board.corner_hexes), len(board.edge_corners))
    deals = kl.Deals(static, work, boards.terrain, boards.number, boards.harbour)
    return play_chunk(board, seed, first, policies, params, out, game, deals, checks)
