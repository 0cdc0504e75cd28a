"""Beacon Patrol rules, one test (or a few) per rule, on hand-built positions.

Authority: the official rulebook (seed 000, pages 3-8; page numbers below refer to it) and the
English summary (seed 001); where both are silent, analyzer/beacon/data/rules.toml [assumptions] and [options].
The positions are built with tests/beacon/positions.py: custom tile sets from CSV rows, boards
from ASCII (`.` empty, `@` marks the origin and the active player's ship), hands, tokens, pile.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.beacon.rules import load_rules
from analyzer.beacon.simulation import make_setup
from kernels import beacon as kb
from kernels.jit import from_python
from tests.beacon.positions import OFFSET, E, N, Position, Tiles, W, play, reset_workspace, score_ascii

# --------------------------------------------------------------------------- tile sets

# Movement and placement: open sea tiles and tiles with one land edge (or two).
MOVES = Tiles("""
    HQ,~,~,~,~,hq
    S1,~,~,~,~,none
    S2,~,~,~,~,none
    S3,~,~,~,~,none
    S4,~,~,~,~,none
    S5,~,~,~,~,none
    S6,~,~,~,~,none
    LN,A,~,~,~,none
    LE,~,A,~,~,none
    LS,~,~,A,~,none
    LW,~,~,~,A,none
    NW,A,~,~,A,none
""")

# Scoring: explored-tile points, windmills, piers.
SCORING = Tiles("""
    HQ,~,~,~,~,hq
    O1,~,~,~,~,none
    O2,~,~,~,~,none
    O3,~,~,~,~,none
    O4,~,~,~,~,none
    O5,~,~,~,~,none
    O6,~,~,~,~,none
    O7,~,~,~,~,none
    O8,~,~,~,~,none
    O9,~,~,~,~,none
    O10,~,~,~,~,none
    O11,~,~,~,~,none
    # islets: water on every edge but land inside, so not open sea
    I1,~,~,~,~,none,,A
    I2,~,~,~,~,none,,A
    I3,~,~,~,~,none,,A
    I4,~,~,~,~,none,,A
    I5,~,~,~,~,none,,A
    L1,~,~,~,~,lighthouse,,A
    L2,~,~,~,~,lighthouse,,A
    L3,~,~,~,~,lighthouse,,A
    L4,~,~,~,~,lighthouse,,A
    B1,~,~,~,~,buoy
    B2,~,~,~,~,buoy
    BI,~,~,~,~,buoy,,A
    M1,~,~,~,~,windmill
    M2,~,~,~,~,windmill
    ML,~,~,~,A,windmill
    LE,~,A,~,~,none
    # pier example: pier P on the north coast (A1), the land going on north (PN1 A2) and east
    # (PN2 A1); PN1's islet B (3 buildings) is not connected to the pier
    P,A,~,~,~,pier,A1,,A
    PN1,~,A,A,~,none,A2 B3,B
    PN2,~,~,~,A,none,A1
    # a pier with a second land mass B on its own tile that the pier is not attached to
    PX,A,~,B,~,pier,A1 B5,,A
    LS,~,~,A,~,none,A1
    LN,A,~,~,~,none,A4
    # a pier bridging two masses (A north, B south) that join again east of it, in a ring
    PR,A,~,B,~,pier,A1 B1,,AB
    RA,~,A,A,~,none,A1
    RB,~,~,A,A,none,A1
    RC,A,~,A,~,none,A1
    RD,A,~,~,A,none,A1
    RE,A,A,~,~,none,A1
    # an islet pier with buildings on its islet
    PI,~,~,~,~,pier,A2,A,A
""")

# Hands, trades, end of turn: open sea tiles only.
TURNS = Tiles("\n".join(["HQ,~,~,~,~,hq", "LE,~,A,~,~,none"]
                        + [f"T{i},~,~,~,~,none" for i in range(1, 13)]))

HAND = {1: 3, 2: 3, 3: 3, 4: 2}  # page 3 table
TOKENS = {1: 4, 2: 3, 3: 3, 4: 2}


def cfg(players=1, n_expansions=0):
    return load_rules().cfg(players, n_expansions)


# --------------------------------------------------------------------------- setup (page 3)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_hand_size_and_tokens_per_player_count(players):
    c = cfg(players)
    assert c[kb.CFG_PLAYERS] == players
    assert c[kb.CFG_HAND] == HAND[players]
    assert c[kb.CFG_TOKENS] == TOKENS[players]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_opening_deals_hands_hq_at_centre_ships_on_hq(players):
    setup = make_setup(players, "random", "windmills,piers", None)
    tt, n = setup.kernel_tiles, setup.tiles.n
    g = kb.grid_size(n)
    game = kb.new_workspace(n, g)
    reset_workspace(game, tt, setup.cfg, g, setup.active, setup.tiles.hq, 7, 3)
    st, hands, ships, deck = game[0], game[5], game[6], game[7]
    board = game[1][:, kb.B_TILE]
    centre = (g // 2) * g + g // 2
    assert board[centre] == setup.tiles.hq
    assert (board >= 0).sum() == 1 and st[kb.ST_N_PLACED] == 1
    assert list(ships[:players]) == [centre] * players
    dealt = []
    for p in range(kb.MAX_PLAYERS):
        row = hands[p * kb.MAX_HAND:(p + 1) * kb.MAX_HAND]
        want = HAND[players] if p < players else 0
        assert (row >= 0).sum() == want, f"player {p}"
        assert (row[:want] >= 0).all()
        dealt += [int(t) for t in row if t >= 0]
    assert len(set(dealt)) == len(dealt) and setup.tiles.hq not in dealt
    assert dealt == list(deck[:len(dealt)])  # dealt from the top of the shuffled pile
    assert st[kb.ST_DECK_POS] == players * HAND[players]
    assert st[kb.ST_DECK_LEN] == setup.active.sum() - 1  # every active tile but the HQ


# --------------------------------------------------------------------------- placement (pages 4-5)


def test_place_only_orthogonally_next_to_the_ship():
    pos = Position(MOVES, "HQ", hands={0: ["S1"]})
    assert pos.placements() == {("S1", (-1, 0)), ("S1", (0, 1)), ("S1", (1, 0)), ("S1", (0, -1))}


def test_place_never_diagonal_elsewhere_or_on_an_occupied_cell():
    pos = Position(MOVES, "HQ S2", hands={0: ["S1"]})
    assert pos.ship() == (0, 0)
    cells = {cell for _, cell in pos.placements()}
    assert cells == {(-1, 0), (1, 0), (0, -1)}
    # the tile would fit on these cells (next to S2, diagonal to the ship or further), yet the
    # ship is not next to them
    for cell in [(-1, 1), (1, 1), (0, 2)]:
        assert pos.fits("S1", *cell) and cell not in cells
    assert not pos.fits("S1", 0, 1)  # occupied


def test_every_edge_must_match_every_placed_neighbour():
    # LW's west edge is land and faces the cell north of the ship
    pos = Position(MOVES, """
        .   LW
        HQ@ .
    """, hands={0: ["S1", "LE"]})
    offered = pos.placements()
    assert ("S1", (-1, 0)) not in offered and not pos.fits("S1", -1, 0)  # water meets LW's land
    assert ("LE", (-1, 0)) in offered  # land meets land, water meets the ship's water
    assert {("S1", (0, 1)), ("S1", (1, 0)), ("S1", (0, -1))} <= offered


def test_placed_tile_must_join_the_ship_tile_by_water_p5_example():
    # Page 5: even though the tile matches all its neighbours (land to the ship's land below,
    # water to both sides), it cannot go there: no water edge to the current tile.
    pos = Position(MOVES, """
        S1  .   S2
        .   LN@ .
    """, hands={0: ["LS", "S3"]})
    assert pos.fits("LS", -1, 0)
    assert not from_python(kb.can_place_from)(pos.tt, pos.board, pos.g, pos.cell(0, 0), MOVES["LS"], N)
    offered = pos.placements()
    assert all(cell != (-1, 0) for _, cell in offered)
    assert ("LS", (0, 1)) in offered and ("S3", (0, -1)) in offered


def test_placing_moves_the_ship_onto_the_tile_for_free():
    pos = Position(MOVES, "HQ", hands={0: ["S1", "S2", "LE"]}, tokens=4)
    assert pos.place("S1", N) is False
    assert pos.ship() == (-1, 0) and pos.at(-1, 0) == "S1"
    assert pos.tokens == 4 and pos.st[kb.ST_MOVES] == 0
    assert pos.hand() == [None, "S2", "LE"] and pos.st[kb.ST_N_PLACED] == 2
    # the next placement is next to the new current tile
    assert {cell for _, cell in pos.placements()} == {(-2, 0), (-1, 1), (-1, -1)}
    pos.place("S2", N)
    assert pos.ship() == (-2, 0) and pos.tokens == 4


def test_at_most_hand_size_tiles_placed_per_turn_in_played_games():
    for players in (1, 4):
        setup = make_setup(players, "greedy", "", None)
        for index in range(3):
            _, trace, _, _ = play(setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq,
                                  kb.POLICY_GREEDY, 5, index)
            for turn in _turns(trace):
                assert sum(k == kb.ACT_PLACE for _, k, *_ in turn) <= HAND[players]


# --------------------------------------------------------------------------- movement (pages 5-6)


def test_move_only_over_water_into_placed_tiles():
    # ship on NW (land north and west); north and west neighbours join it land to land
    pos = Position(MOVES, """
        .   LS  .
        LE  NW@ S1
        .   .   .
    """, hands={0: ["S2"]}, tokens=3)
    assert pos.moves() == {(0, 1)}  # not over land (N, W), not into the empty south cell
    assert pos.discard_moves() == {("S2", (0, 1))}


def test_three_moves_around_the_land_p5_example():
    # Page 5: the ship cannot cross the land to the tile above, but 3 tokens take it around.
    pos = Position(MOVES, """
        LS  S2
        LN@ S1
    """, tokens=3)
    assert pos.moves() == {(0, 1)}
    pos.move(E)
    assert pos.ship() == (0, 1) and pos.tokens == 2
    pos.move(N)
    pos.move(W)
    assert pos.ship() == (-1, 0) and pos.tokens == 0 and pos.st[kb.ST_MOVES] == 3
    assert pos.moves() == set()


def test_tokens_run_out():
    pos = Position(MOVES, "HQ@ S1", hands={0: ["S2"]}, tokens=2)
    pos.move(E)
    pos.move(W)
    assert pos.tokens == 0 and pos.moves() == set()
    assert pos.of_kind(kb.ACT_MOVE) == []
    assert pos.discard_moves() == {("S2", (0, 1))}  # a discard still moves the ship


def test_discard_moves_one_step_without_a_token_and_counts_as_discarded():
    pos = Position(MOVES, "HQ@ S1", hands={0: ["S2", "LE", "S3"]}, tokens=3)
    # only towards placed tiles over water
    assert pos.discard_moves() == {("S2", (0, 1)), ("LE", (0, 1)), ("S3", (0, 1))}
    assert pos.discard_move("LE", E) is False
    assert pos.ship() == (0, 1) and pos.tokens == 3 and pos.st[kb.ST_MOVES] == 0
    assert pos.discarded == 1 and pos.hand() == ["S2", None, "S3"]
    assert pos.st[kb.ST_N_PLACED] == 2  # nothing placed
    empty = Position(MOVES, "HQ@ S1", hands={0: []})
    assert empty.discard_moves() == set()


def test_ships_share_tiles():
    # assumption ships_share_tiles: ships never block each other
    pos = Position(MOVES, "HQ@ S1", players=2, ships={1: (0, 1)}, tokens=3)
    assert pos.moves() == {(0, 1)}
    pos.move(E)
    assert pos.ship(0) == pos.ship(1) == (0, 1)


# --------------------------------------------------------------------------- trading (page 6)


def test_no_trading_in_solo():
    pos = Position(TURNS, "HQ", hands={0: ["T1", "T2", "T3"]})
    assert pos.of_kind(kb.ACT_TRADE) == []


def test_trade_swaps_one_tile_each_way_once_per_turn():
    pos = Position(TURNS, "HQ", players=2, hands={0: ["T1", "T2", None], 1: ["T4", "LE", "T6"]})
    assert pos.trades() == {(a, 1, b) for a in ("T1", "T2") for b in ("T4", "LE", "T6")}
    assert pos.trade("T1", 1, "LE") is False
    assert pos.hand(0) == ["LE", "T2", None] and pos.hand(1) == ["T4", "T1", "T6"]
    assert pos.of_kind(kb.ACT_TRADE) == []  # once per turn
    # the received tile may be placed at once (not west of the HQ: LE's east edge is land)
    assert {cell for t, cell in pos.placements() if t == "LE"} == {(-1, 0), (0, 1), (1, 0)}
    # assumption trade_partner_keeps: the partner keeps the tile received
    pos.end_turn()
    assert "T1" in pos.hand(1)


@pytest.mark.parametrize("players", [3, 4])
def test_trade_with_any_other_player(players):
    hands = {p: [f"T{3 * p + s + 1}" for s in range(HAND[players])] for p in range(players)}
    pos = Position(TURNS, "HQ", players=players, player=1, hands=hands)
    offered = pos.trades()
    assert {partner for _, partner, _ in offered} == set(range(players)) - {1}
    assert len(offered) == HAND[players] * (players - 1) * HAND[players]


def test_trades_in_played_games_once_per_turn_never_in_solo():
    traded = 0
    for players in (1, 2, 3, 4):
        setup = make_setup(players, "random", "", None)
        for index in range(4):
            _, trace, _, _ = play(setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq,
                                  kb.POLICY_RANDOM, 11, index)
            for turn in _turns(trace):
                n = sum(k == kb.ACT_TRADE for _, k, *_ in turn)
                assert n <= (1 if players > 1 else 0)
                traded += n
    assert traded > 0  # the check above was not vacuous


# --------------------------------------------------------------------------- end of turn (page 6)


def test_end_of_turn_discards_unplaced_tiles_and_draws_up():
    pos = Position(TURNS, "HQ", players=2, hands={0: ["T1", None, "T2"]},
                   deck=["T5", "T6", "T7", "T8"])
    assert pos.end_options() == [None]  # no keeping with 2+ players
    assert pos.end_turn() is True
    assert pos.hand(0) == ["T5", "T6", "T7"]
    assert pos.discarded == 2 and pos.st[kb.ST_DECK_POS] == 3 and pos.st[kb.ST_TURNS] == 1


def test_end_of_turn_four_players_draw_two():
    pos = Position(TURNS, "HQ", players=4, hands={0: ["T1", "T2"]}, deck=["T5", "T6", "T7"])
    pos.end_turn()
    assert pos.hand(0) == ["T5", "T6"] and pos.discarded == 2
    assert pos.hands[2] == -1  # the third slot is never used with 4 players


def test_solo_may_keep_one_tile_and_draws_two():
    pos = Position(TURNS, "HQ", hands={0: ["T1", "T2", "T3"]}, deck=["T5", "T6", "T7", "T8"])
    assert pos.end_options() == [None, "T1", "T2", "T3"]
    pos.end_turn(keep="T2")
    assert pos.hand() == ["T5", "T2", "T6"]
    assert pos.discarded == 2 and pos.st[kb.ST_DECK_POS] == 2


def test_solo_keep_only_while_the_pile_is_not_empty():
    # rules.toml [options] solo_keep_on_empty_pile = false, the default
    pos = Position(TURNS, "HQ", hands={0: ["T1", "T2", None]}, deck=[])
    assert pos.cfg[kb.CFG_KEEP_ON_EMPTY_PILE] == 0
    assert pos.end_options() == [None]
    pos.end_turn()
    assert pos.hand() == [None, None, None] and pos.discarded == 2


def test_solo_keep_on_an_empty_pile_when_switched_on_while_two_tiles_are_left():
    # --rule solo_keep_on_empty_pile=true: the keep without an exception, yet a tile goes every turn
    pos = Position(TURNS, "HQ", hands={0: ["T1", "T2", None]}, deck=[])
    pos.cfg[:] = load_rules().cfg(1, 0, {"solo_keep_on_empty_pile": True})
    assert pos.end_options() == [None, "T1", "T2"]
    assert pos.end_turn(keep="T2") is True
    assert pos.hand() == [None, "T2", None] and pos.discarded == 1
    assert pos.end_options() == [None]  # the last tile cannot be carried from turn to turn
    pos.end_turn()
    assert pos.hand() == [None, None, None] and pos.discarded == 2


def test_tokens_flip_back_each_turn_in_played_games():
    for players in (1, 2, 3, 4):
        setup = make_setup(players, "random", "", None)
        most, again = 0, False
        for index in range(6):
            _, trace, _, _ = play(setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq,
                                  kb.POLICY_RANDOM, 3, index)
            spent_all = set()
            for turn in _turns(trace):
                p = turn[0][0]
                moves = sum(k == kb.ACT_MOVE for _, k, *_ in turn)
                assert moves <= TOKENS[players]
                most = max(most, moves)
                again |= p in spent_all and moves > 0
                if moves == TOKENS[players]:
                    spent_all.add(p)
        # the full set of tokens is available on every turn, again after being spent
        assert most == TOKENS[players] and again, players


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("policy", [kb.POLICY_RANDOM, kb.POLICY_GREEDY])
@pytest.mark.parametrize("expansions", ["", "windmills,piers"])
def test_game_ends_when_every_tile_is_placed_or_discarded(players, policy, expansions):
    setup = make_setup(players, "random", expansions, None)
    tt = setup.kernel_tiles
    for index in range(2):
        out, trace, game, g = play(tt, setup.cfg, setup.active, setup.tiles.hq, policy, 1, index)
        st, board, hands = game[0], game[1][:, kb.B_TILE], game[5]
        pile = int(setup.active.sum()) - 1
        assert out[kb.COL_TILES_PLACED] + out[kb.COL_TILES_DISCARDED] == pile
        assert st[kb.ST_DECK_POS] == st[kb.ST_DECK_LEN] == pile and (hands < 0).all()
        assert (board >= 0).sum() == out[kb.COL_TILES_PLACED] + 1
        assert out[kb.COL_TURNS] == sum(k == kb.ACT_END for _, k, *_ in trace)
        # the last action ended a turn, and the game did not go on after the last tile left play
        assert trace[-1, 1] == kb.ACT_END
        _assert_edges_match(tt, board, g)
        _assert_sides_consistent(tt, game[1], g)


# --------------------------------------------------------------------------- scoring (pages 3, 6)


def test_explored_needs_tiles_on_all_four_sides_p3_example():
    # Page 3: the centre tile is explored, none of the others.
    board = """
        .   L1  .
        L2  B1@ L3
        .   L4  .
    """
    score, out = score_ascii(SCORING, board)
    assert score == 2 and out[kb.COL_EXPLORED] == 1 and out[kb.COL_EXPLORED_BUOY] == 1
    pos = Position(SCORING, board)
    explored = [(r, c) for r in range(-2, 3) for c in range(-2, 3) if pos.explored(r, c)]
    assert explored == [(0, 0)]


@pytest.mark.parametrize("centre, points", [
    ("L1", 3), ("HQ", 3), ("B1", 2), ("O1", 1), ("I1", 1),
    # expansion tiles with nothing to add still score their base point
    ("M1", 1), ("PI", 3),
])
def test_points_of_an_explored_tile(centre, points):
    # neighbours are islets: not open sea, no buildings
    score, out = score_ascii(SCORING, f"""
        .   I2  .
        I3  {centre}  I4
        .   I5  .
    """)
    assert score == points and out[kb.COL_EXPLORED] == 1


def test_hq_counts_as_a_lighthouse():
    _, out = score_ascii(SCORING, """
        .   O1  .   O4  .
        O2  HQ  O3  L1  O5
        .   O6  .   O7  .
    """)
    assert out[kb.COL_SCORE] == 6 and out[kb.COL_EXPLORED_LIGHTHOUSE] == 2


def test_unexplored_tiles_score_nothing():
    score, out = score_ascii(SCORING, """
        .   O1  .   O4  B1
        O2  L1  O3  M1  .
        .   .   .   O7  .
    """)
    assert score == 0 and out[kb.COL_EXPLORED] == 0


def test_eleven_point_board_p6_example():
    # Page 6: 6 points for 2 explored lighthouses (the HQ one of them), 2 for 1 explored buoy,
    # 3 for 3 other explored tiles = 11. The border (a lighthouse and a buoy among it) is unexplored.
    score, out = score_ascii(SCORING, """
        .   O1  O2  L2  .
        O3  HQ  L1  B1  O4
        O5  O6  O7  O8  B2
        .   O9  O10 O11 .
    """)
    assert score == 11
    assert out[kb.COL_EXPLORED] == 6
    assert out[kb.COL_EXPLORED_LIGHTHOUSE] == 2
    assert out[kb.COL_EXPLORED_BUOY] == 1
    assert out[kb.COL_EXPLORED_OTHER] == 3


# --------------------------------------------------------------------------- windmills (page 7)


def test_windmill_worth_four_p7_example():
    # 1 for being explored + 3 adjacent open-sea tiles; the fourth neighbour shows land; the
    # diagonal open-sea tiles do not count.
    score, out = score_ascii(SCORING, """
        O2  O1  O3
        I1  M1  HQ
        O4  B1  O5
    """)
    assert score == 4
    assert out[kb.COL_WINDMILL_POINTS] == 4 and out[kb.COL_EXPLORED_WINDMILL] == 1


def test_windmill_counts_open_sea_buoys_hq_and_windmills():
    score, out = score_ascii(SCORING, """
        .   O1  .
        B1  M1  HQ
        .   M2  .
    """)
    assert score == 5 and out[kb.COL_WINDMILL_POINTS] == 5  # M2 is unexplored: 0


def test_windmill_ignores_tiles_that_show_land():
    # a buoy on an islet, an islet, a lighthouse and a tile with a land edge are not open sea
    score, out = score_ascii(SCORING, """
        .   BI  .
        LE  ML  I1
        .   L1  .
    """)
    assert score == 1 and out[kb.COL_WINDMILL_POINTS] == 1


# --------------------------------------------------------------------------- piers (page 8)


def test_pier_worth_five_p8_example():
    # 1 for being explored + 4 buildings on the land connected to it, over three tiles (one on the
    # pier's own tile); that land is not explored; PN1's islet (3 buildings) is not connected.
    score, out = score_ascii(SCORING, """
        .   PN1 PN2
        O1  P   O2
        .   O3  .
    """)
    assert score == 5
    assert out[kb.COL_PIER_POINTS] == 5 and out[kb.COL_EXPLORED_PIER] == 1


def test_pier_ignores_land_it_is_not_attached_to():
    # PX is attached to its north mass A (A1 + LS's A1); its south mass B (5 buildings) and the
    # land below it (LN's A4) are not connected to the pier
    score, _ = score_ascii(SCORING, """
        .   LS  .
        O1  PX  O2
        .   LN  .
    """)
    assert score == 1 + 1 + 1  # base + PX's A1 + LS's A1; not B5, not LN's A4


def test_pier_counts_each_building_once_when_its_masses_join():
    # PR is attached to A (north) and B (south); both run east and meet in a ring:
    # buildings PR A1 + B1, RA, RB, RC, RD, RE 1 each = 7, each counted once
    board = """
        .   RA  RB
        O1  PR  RC
        .   RE  RD
    """
    score, out = score_ascii(SCORING, board)
    assert score == 1 + 7 and out[kb.COL_PIER_POINTS] == 8
    assert Position(SCORING, board).pier_buildings("PR") == 7


def test_unexplored_pier_scores_nothing():
    score, _ = score_ascii(SCORING, """
        .   PN1 PN2
        .   P   O2
        .   O3  .
    """)
    assert score == 0


# --------------------------------------------------------------------------- ranks (pages 7-8)


@pytest.mark.parametrize("n_expansions, score, rank", [
    (0, 0, 0), (0, 25, 0), (0, 26, 1), (0, 35, 1), (0, 36, 2), (0, 45, 2), (0, 46, 3),
    (0, 55, 3), (0, 56, 4), (0, 200, 4),
    (1, 35, 0), (1, 36, 1), (1, 45, 1), (1, 46, 2), (1, 55, 2), (1, 56, 3), (1, 65, 3), (1, 66, 4),
    (2, 45, 0), (2, 46, 1), (2, 55, 1), (2, 56, 2), (2, 65, 2), (2, 66, 3), (2, 75, 3), (2, 76, 4),
])
def test_rank_bands(n_expansions, score, rank):
    assert from_python(kb.rank_of)(cfg(1, n_expansions), score) == rank


def test_rank_names():
    assert load_rules().rank_names == ("Novices", "Sailors", "Captains", "Navigators", "Cartographers")


def test_score_layout_reports_the_rank():
    _, out = score_ascii(SCORING, """
        .   O1  .   O4  .
        O2  HQ  O3  L1  O5
        .   O6  .   O7  .
    """)
    assert out[kb.COL_RANK] == 0


# --------------------------------------------------------------------------- placement_gain


def _gain_check(board, tile, cell, expected):
    pos = Position(SCORING, board)
    gain = pos.gain(tile, *cell)
    before = pos.score()
    pos.put(tile, *cell)
    after = pos.score()
    assert gain == after - before == expected


def test_gain_completing_a_lighthouse():
    _gain_check("""
        .   O1  .
        O2  L1@ O3
        .   .   .
    """, "O4", (1, 0), 3)


def test_gain_exploring_the_new_tile_and_a_neighbour():
    _gain_check("""
        .   O1  O5  .
        O2  .   B1@ O6
        .   O4  O7  .
    """, "L1", (0, -1), 3 + 2)


def test_gain_filling_a_hole_explores_only_the_new_tile():
    _gain_check("""
        .   O1  .
        O2  .   O3
        .   O4@ .
    """, "L1", (-1, 0), 3)


def test_gain_nothing_explored():
    _gain_check("HQ", "L1", (-1, 0), 0)


@pytest.mark.parametrize("tile, expected", [("O4", 1 + 3), ("I4", 1 + 2)])
def test_gain_completing_a_windmill(tile, expected):
    _gain_check("""
        .   O1  .
        O2  M1@ I1
        .   .   .
    """, tile, (1, 0), expected)


def test_gain_pier_land_grows():
    # the pier is explored already; PN2 (1 building) joins its land, PN2 itself is unexplored
    _gain_check("""
        .   PN1 .
        O1  P@  O2
        .   O3  .
    """, "PN2", (-1, 1), 1)


def test_gain_pier_masses_join_each_building_once():
    # before: PR's A reaches RA, RB, RC (3 + A1), B reaches RE (1 + B1): 1 + 6 = 7;
    # RD joins both into one land: 1 + 7 = 8
    _gain_check("""
        .   RA  RB
        O1  PR@ RC
        .   RE  .
    """, "RD", (1, 1), 1)


def test_gain_placing_an_explored_pier():
    _gain_check("""
        .   PN1 PN2
        O1@ .   O2
        .   O3  .
    """, "P", (0, 1), 5)


def test_gain_exploring_a_pier_without_joining_land():
    # O4 meets no placed land, so no explored pier can gain buildings and none is re-counted;
    # the islet pier PI it explores counts like any other tile it explores
    _gain_check("""
        .   O1  .
        O2  PI@ O3
        .   .   .
    """, "O4", (1, 0), 1 + 2)


def test_gain_placing_an_islet_pier_explored_at_once():
    # the first pier on the board, its land meeting no placed land, explored as it is placed
    _gain_check("""
        .   O1@ .
        O2  .   O3
        .   O4  .
    """, "PI", (1, 0), 1 + 2)


def test_gain_of_every_offered_placement():
    # all hand tiles at every offered cell of a busy position
    board = """
        .   O1  .   .
        O2  L1  .   B1
        .   O4  HQ@ .
        .   .   O6  .
    """
    hand = ["O7", "M1", "O8"]
    pos = Position(SCORING, board, hands={0: hand})
    offered = pos.placements()
    assert {cell for _, cell in offered} == {(-1, 0), (0, 1)}  # south and west are placed
    assert len(offered) == 3 * 2
    for tile, cell in offered:
        fresh = Position(SCORING, board)
        gain = fresh.gain(tile, *cell)
        before = fresh.score()
        fresh.put(tile, *cell)
        assert gain == fresh.score() - before, (tile, cell)
    # the cell north of the HQ completes the lighthouse
    assert Position(SCORING, board).gain("O7", -1, 0) == 3


# --------------------------------------------------------------------------- helpers


def _turns(trace):
    """Split a play_game trace (player, kind, a, b, c) into turns, each ending with ACT_END."""
    turns, current = [], []
    for row in trace:
        current.append(tuple(int(x) for x in row))
        if row[1] == kb.ACT_END:
            turns.append(current)
            current = []
    assert not current, "trace ends inside a turn"
    for turn in turns:
        assert len({p for p, *_ in turn}) == 1, "a turn holds one player's actions"
    return turns


def _assert_edges_match(tt, board, g):
    for cell in np.flatnonzero(board >= 0):
        t = board[cell]
        for d, (dr, dc) in OFFSET.items():
            u = board[cell + dr * g + dc]
            if u >= 0:
                assert tt[t, kb.TT_LAND + d] == tt[u, kb.TT_LAND + (d + 2) % 4], (cell, d)


def _assert_sides_consistent(tt, board, g):
    """The kernel's per-cell side bits equal what the placed neighbours say, on every cell, and a
    placed cell's own land bits (kb.OWN_LAND) its tile's land edges."""
    tiles = board[:, kb.B_TILE]
    expected = np.zeros(len(tiles), np.int64)
    for cell in np.flatnonzero(tiles >= 0):
        expected[cell] |= int(tt[tiles[cell], kb.TT_LAND_MASK]) << kb.OWN_LAND
        for d, (dr, dc) in OFFSET.items():
            back = (d + 2) % 4
            expected[cell + dr * g + dc] |= (1 << back) | (int(tt[tiles[cell], kb.TT_LAND + d]) << (4 + back))
    assert (board[:, kb.B_SIDES] == expected).all()
