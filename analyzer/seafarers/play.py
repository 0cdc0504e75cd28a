"""Full Seafarers games on the numba kernel (kernels/catan/game.py): the board's arrays and the game loop.

    table = full_reference.game_table(scenario, rules, terrain, number, harbour)
    board = kernel_board(table)          # the kernel's Board for that dealt board
    out = play_on_board(board, seed, first, count, ("weighted",) * 4)   # int64 [N_RESULT_COLS, count]
"""

from __future__ import annotations

import numpy as np

from analyzer.seafarers.full_reference import Table
from analyzer.seafarers.full_rules import DEV_CARDS, ITEMS
from kernels.catan import bots as kb
from kernels.catan import game as kg

__all__ = ["BOTS", "kernel_board", "play_chunk", "play_on_board"]

BOTS = {"random": kb.POLICY_RANDOM, "weighted": kb.POLICY_WEIGHTED}


def kernel_board(table: Table) -> kg.Board:
    s, topo, rules = table.scenario, table.scenario.topology, table.rules
    order = [seat for seat in _setup_order(table)]
    deck = [card for card, name in enumerate(DEV_CARDS) for _ in range(rules.deck[name])]
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
        kg.P_OFFERS: rules.domestic_offers,
    }
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
        np.array([rules.costs[item] for item in ITEMS], np.int64),
        np.array([rules.supply[k] for k in ("roads", "ships", "settlements", "cities")], np.int64),
        np.array(deck, np.int64), params)


def _setup_order(table: Table) -> list[int]:
    from analyzer.seafarers.setup_policies import placement_order

    return placement_order(table.scenario, table.players)


def play_on_board(board: kg.Board, seed: int, first: int, count: int, bots) -> tuple[np.ndarray, int]:
    """Games first .. first + count - 1 of `seed`, all on `board` (bots: a name or `name:key=value,...` per
    seat): the result columns int64 [N_RESULT_COLS, count] and the number of decisions taken."""
    from analyzer.seafarers.full_game import bot_vectors, parse_bot

    policies, params = bot_vectors([parse_bot(b) for b in bots])
    out = np.zeros((kg.N_RESULT_COLS, count), np.int64)
    decisions = play_chunk(board, seed, first, policies, params, out)
    return out, int(decisions)


def play_chunk(board: kg.Board, seed: int, first: int, policies, params, out, game: kg.Game | None = None) -> int:
    """kb.play_games with fresh scratch (each call owns it: threads play chunks of one job at once)."""
    game = kg.new_game(board) if game is None else game
    return kb.play_games(board, game, seed, first, policies, params, np.zeros((kg.MAX_SEATS, 2), np.uint64), out,
                         np.zeros(6, np.int64), np.zeros(6, np.float64))
