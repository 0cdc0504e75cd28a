"""The pirate and the Pirate Islands fleet: the 6-side ship block and steals on hand-built positions, the
fleet's exact chain against simulation, raids and the whole race kernel against the pure-Python reference,
race invariants, common random numbers across plans, the report and the CLI."""

import dataclasses
import hashlib
import json
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import stats
from analyzer.errors import UserError
from analyzer.rng_reference import Stream
from analyzer.seafarers import pirates_reference as ref
from analyzer.seafarers.board import board_flags, build_topology
from analyzer.seafarers.pirates import (
    RAID_RULES,
    fleet_landing_expectation,
    fleet_stationary,
    fleet_transition,
    game_column,
    load_race_rules,
    parse_plan,
    play_pirates,
    play_plan,
    race_setup,
    raid_risk,
    rules_path,
    seat_column,
)
from analyzer.seafarers.production import expected_income
from analyzer.seafarers.reference import rolls
from analyzer.seafarers.scenarios import load_scenario
from kernels.catan import pirates as kpi
from kernels.catan.codes import N_RESOURCES
from kernels.rng import PURPOSE_STEAL, stream_init
from tests.support import run_cli

PATH_LEN = 14


@pytest.fixture(scope="module")
def setup4():
    return race_setup(4)


@pytest.fixture(scope="module")
def setup3():
    return race_setup(3)


def race(setup, plan, n, seed=11, rule="each", max_rounds=200, fleet_blocks=False, start=0):
    out = np.zeros((kpi.n_out(setup.path_len), n), np.int32)
    play_plan(setup, parse_plan(plan), seed, RAID_RULES.index(rule), max_rounds, fleet_blocks, start, out)
    return out


# --------------------------------------------------------------------------- the pirate

def seven_hexes():
    """A centre hex [0, 0] and its ring, all sea (index 0 is the centre)."""
    coords = [(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    return build_topology(coords)


def test_the_pirates_six_sides_block_ships():
    topo = seven_hexes()
    sides = set(topo.hex_edges[0].tolist())
    assert len(sides) == 6
    for pirate in range(topo.n_hex):
        around = set(topo.hex_edges[pirate].tolist())
        for e in range(topo.n_edge):
            blocked = kpi.ship_edge_blocked(e, pirate, topo.edge_hexes)
            assert blocked == (e in around) == ref.ship_edge_blocked(e, pirate, topo.edge_hexes), (pirate, e)
    assert not any(kpi.ship_edge_blocked(e, -1, topo.edge_hexes) for e in range(topo.n_edge))  # no pirate
    # placing: a free sea edge is legal unless it is a side of the pirate's hex or taken
    sea = np.ones(topo.n_edge, np.bool_)
    taken = np.zeros(topo.n_edge, np.bool_)
    outer = next(e for e in range(topo.n_edge) if e not in sides)
    taken[outer] = True
    for e in range(topo.n_edge):
        assert kpi.can_place_ship(e, 0, sea, taken, topo.edge_hexes) == (e not in sides and e != outer)
    # the pirate moves off: its old sides are free again, the new hex's sides blocked
    first_ring = 1
    assert kpi.can_place_ship(int(topo.hex_edges[0, 3]), first_ring, sea, taken, topo.edge_hexes) == (
        int(topo.hex_edges[0, 3]) not in topo.hex_edges[first_ring])
    assert not kpi.can_place_ship(int(topo.hex_edges[0, 0]), first_ring, sea, taken, topo.edge_hexes)  # shared side


def test_pirate_steals_from_a_ship_owner_on_its_sides():
    topo = seven_hexes()
    owner = np.full(topo.n_edge, -1, np.int64)
    owner[topo.hex_edges[0, 0]] = 1  # seat 1's ship on a side of the centre
    owner[topo.hex_edges[0, 3]] = 2
    owner[topo.hex_edges[1, 1]] = 3  # seat 3 only next to a ring hex
    hands = np.array([[0, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 3, 0, 0, 0], [5, 5, 5, 0, 0]], np.int32)
    assert kpi.pirate_victim(0, 0, topo.hex_edges, owner, hands) == 2  # most cards among ships on the sides
    assert kpi.pirate_victim(2, 0, topo.hex_edges, owner, hands) == 1  # never the roller
    assert kpi.pirate_victim(0, 4, topo.hex_edges, owner, hands) == 2  # hex 4 shares the centre's SW side
    assert kpi.pirate_victim(0, 5, topo.hex_edges, owner, hands) == -1  # no ship around
    stream = np.zeros(2, np.uint64)
    stream_init(stream, 5, 0, PURPOSE_STEAL)
    assert kpi.pirate_steal(0, 0, topo.hex_edges, owner, hands, stream) == 2
    assert hands.tolist()[0] == [0, 1, 0, 0, 0] and hands[2].sum() == 2  # seat 2 held only brick
    # the mover's choice: seat 3's big hand is reachable from the ring hex next to its ship
    assert kpi.choose_pirate_hex(0, 0, np.ones(topo.n_hex, np.bool_), topo.hex_edges, owner, hands) == 1
    touch = np.zeros((topo.n_hex, 4), np.int32)
    touch[4, 1] = 1  # the robber's best hex would rob seat 1 (2 cards)
    assert kpi.pirate_or_robber(0, 4, 1, touch, topo.hex_edges, owner, hands) == kpi.PIECE_PIRATE
    assert kpi.pirate_or_robber(0, 4, 5, touch, topo.hex_edges, owner, hands) == kpi.PIECE_ROBBER  # nobody there


@settings(max_examples=60, deadline=None)
@given(data=st.data(), players=st.integers(2, 4), seed=st.integers(0, 2**40))
def test_pirate_kernels_are_the_reference(data, players, seed):
    topo = seven_hexes()
    owner = np.array(data.draw(st.lists(st.integers(-1, players - 1), min_size=topo.n_edge, max_size=topo.n_edge)),
                     np.int64)
    hands = np.array(data.draw(st.lists(st.lists(st.integers(0, 4), min_size=5, max_size=5), min_size=players,
                                        max_size=players)), np.int32)
    roller = data.draw(st.integers(0, players - 1))
    hex_sea = np.array(data.draw(st.lists(st.booleans(), min_size=topo.n_hex, max_size=topo.n_hex)), np.bool_)
    current = data.draw(st.integers(-1, topo.n_hex - 1))
    touch = np.array(data.draw(st.lists(st.lists(st.integers(0, 2), min_size=players, max_size=players),
                                        min_size=topo.n_hex, max_size=topo.n_hex)), np.int32)
    h = data.draw(st.integers(0, topo.n_hex - 1))
    assert kpi.choose_pirate_hex(roller, current, hex_sea, topo.hex_edges, owner, hands) == ref.choose_pirate_hex(
        roller, current, hex_sea, topo.hex_edges, owner, hands.tolist())
    robber = data.draw(st.integers(-1, topo.n_hex - 1))
    assert kpi.pirate_or_robber(roller, robber, h, touch, topo.hex_edges, owner, hands) == ref.pirate_or_robber(
        roller, robber, h, touch.tolist(), topo.hex_edges, owner, hands.tolist())
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, 0, PURPOSE_STEAL)
    expected = hands.tolist()
    victim = ref.pirate_steal(roller, h, topo.hex_edges, owner, expected, Stream(seed, 0, PURPOSE_STEAL))
    assert kpi.pirate_steal(roller, h, topo.hex_edges, owner, hands, stream) == victim
    assert hands.tolist() == expected


# --------------------------------------------------------------------------- the fleet

def test_fleet_chain_is_doubly_stochastic_with_a_uniform_stationary_law():
    t = fleet_transition(PATH_LEN)
    assert np.allclose(t.sum(axis=1), 1) and np.allclose(t.sum(axis=0), 1)
    assert np.allclose(t[0, 1:7], [11 / 36, 9 / 36, 7 / 36, 5 / 36, 3 / 36, 1 / 36]) and t[0, 0] == 0
    assert np.allclose(fleet_stationary(PATH_LEN), 1 / PATH_LEN, atol=1e-14)
    assert np.allclose(fleet_landing_expectation(PATH_LEN, 400) / 400, 1 / PATH_LEN, atol=2e-3)  # mixing


def test_fleet_landing_expectation_is_the_exact_fraction_chain():
    for n in (1, 2, 7, 20):
        exact = ref.landing_law(PATH_LEN, n)
        assert sum(exact) == n
        assert np.allclose(fleet_landing_expectation(PATH_LEN, n), [float(x) for x in exact], rtol=0, atol=1e-12)
    first = ref.landing_law(PATH_LEN, 1)
    assert first[1:7] == [Fraction(13 - 2 * k, 36) for k in range(1, 7)]


def test_fleet_landings_match_the_exact_chain():
    n_rolls, sequences = 12, 150_000
    out = np.zeros((PATH_LEN, sequences), np.int64)
    kpi.fleet_landings(3, n_rolls, PATH_LEN, 0, out)
    assert (out.sum(axis=0) == n_rolls).all()
    exact = fleet_landing_expectation(PATH_LEN, n_rolls)
    mean = out.mean(axis=1)
    sem = out.std(axis=1, ddof=1) / math.sqrt(sequences)
    z = (mean - exact) / sem
    assert np.abs(z).max() < 4.5, z
    assert np.abs(mean - exact).max() < 0.01  # tight: per-sequence expected stops near 0.86 each
    # the first move alone follows the lower-die law
    one = np.zeros((PATH_LEN, sequences), np.int64)
    kpi.fleet_landings(4, 1, PATH_LEN, 0, one)
    counts = one.sum(axis=1)
    for k in range(1, 7):
        p = (13 - 2 * k) / 36
        assert abs(counts[k] - sequences * p) < 5 * math.sqrt(sequences * p * (1 - p))
    assert counts[0] == 0 and counts[7:].sum() == 0


# --------------------------------------------------------------------------- raids

def test_raid_on_hand_built_positions():
    path_sites = np.array([[0, 1, -1], [2, -1, -1]], np.int64)  # hex 0: sites 0 and 1; hex 1: site 2
    site_owner = np.array([0, 1, 1], np.int8)
    building = np.array([1, 2, 1], np.int64)
    hands = np.array([[3, 0, 0, 0, 0], [1, 1, 1, 0, 0]], np.int32)
    stats = np.zeros((2, kpi.N_RAID), np.int64)
    stream = np.zeros(2, np.uint64)
    stream_init(stream, 1, 0, PURPOSE_STEAL)
    choice = np.array([4, 3], np.int64)
    # strength 3: seat 0 (2 warships) loses 1 card; seat 1 (3 warships) ties
    assert kpi.raid(0, 3, path_sites, site_owner, building, np.array([2, 3]), np.array([0, 2]), kpi.RAID_EACH,
                    choice, hands, stats, stream) == 2
    assert hands[0].tolist() == [2, 0, 0, 0, 0] and hands[1].tolist() == [1, 1, 1, 0, 0]
    assert stats[:, kpi.R_RAIDED].tolist() == [1, 1] and stats[:, kpi.R_LOST].tolist() == [1, 0]
    # strength 1 on hex 1: seat 1 with 2 cities and no warship loses 1 + 2 cards
    kpi.raid(1, 1, path_sites, site_owner, building, np.array([0, 0]), np.array([0, 2]), kpi.RAID_EACH, choice,
             hands, stats, stream)
    assert hands[1].sum() == 0 and stats[1, kpi.R_CARDS_LOST] == 3
    # an empty hand loses nothing more; a stronger seat takes its chosen card
    kpi.raid(1, 1, path_sites, site_owner, building, np.array([0, 2]), np.array([0, 2]), kpi.RAID_EACH, choice,
             hands, stats, stream)
    assert hands[1].tolist() == [0, 0, 0, 1, 0] and stats[1, kpi.R_WON] == 1
    # sole: two players at hex 0 -> nobody is raided
    before = stats.copy()
    assert kpi.raid(0, 6, path_sites, site_owner, building, np.array([0, 0]), np.array([0, 0]), kpi.RAID_SOLE,
                    choice, hands, stats, stream) == 0
    assert (stats == before).all()
    assert kpi.raid(1, 6, path_sites, site_owner, building, np.array([0, 0]), np.array([0, 0]), kpi.RAID_SOLE,
                    choice, hands, stats, stream) == 1  # a lone player is
    # a player with two buildings at the hex is raided once (the seed speaks of one building; docs)
    two = np.array([[0, 1, -1]], np.int64)
    mine = np.array([0, 0], np.int8)
    hands[0] = [5, 0, 0, 0, 0]
    before = stats.copy()
    assert kpi.raid(0, 4, two, mine, np.array([1, 1], np.int64), np.array([0, 0]), np.array([0, 0]), kpi.RAID_EACH,
                    choice, hands, stats, stream) == 1
    assert hands[0].sum() == 4 and (stats - before)[0, kpi.R_RAIDED] == 1 and (stats - before)[0, kpi.R_LOST] == 1


@settings(max_examples=80, deadline=None)
@given(data=st.data(), players=st.integers(1, 4), seed=st.integers(0, 2**40), rule=st.sampled_from(RAID_RULES))
def test_raid_kernel_is_the_reference(data, players, seed, rule):
    n_sites = data.draw(st.integers(1, 8))
    path_sites = np.array(data.draw(st.lists(st.lists(st.integers(-1, n_sites - 1), min_size=3, max_size=3),
                                             min_size=3, max_size=3)), np.int64)
    site_owner = np.array(data.draw(st.lists(st.integers(0, players - 1), min_size=n_sites, max_size=n_sites)),
                          np.int8)
    building = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n_sites, max_size=n_sites)), np.int64)
    ints = lambda lo, hi: np.array(data.draw(st.lists(st.integers(lo, hi), min_size=players,  # noqa: E731
                                                      max_size=players)), np.int64)
    warships, cities, choice = ints(0, 7), ints(0, 4), ints(0, 4)
    hands = np.array(data.draw(st.lists(st.lists(st.integers(0, 3), min_size=5, max_size=5), min_size=players,
                                        max_size=players)), np.int32)
    position, strength = data.draw(st.integers(0, 2)), data.draw(st.integers(1, 6))
    expected_hands = hands.tolist()
    expected = ref.raid(position, strength, path_sites, site_owner, building, warships, cities, rule, choice,
                        expected_hands, Stream(seed, 0, PURPOSE_STEAL))
    stats = np.zeros((players, kpi.N_RAID), np.int64)
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, 0, PURPOSE_STEAL)
    kpi.raid(position, strength, path_sites, site_owner, building, warships, cities, RAID_RULES.index(rule), choice,
             hands, stats, stream)
    assert hands.tolist() == expected_hands and stats.tolist() == expected
    assert (hands >= 0).all()


# --------------------------------------------------------------------------- the map and the rule data

def test_routes_sites_and_start_hands(setup4, setup3):
    s = setup4
    topo = s.scenario.topology
    used = set()
    for p, (route, f) in enumerate(zip(s.routes, s.fortresses)):
        assert route[0] == f.ship and len(route) == 9
        corner, visited = f.settlement, [f.settlement]
        for e in route:  # one unbranched chain of edges
            a, b = topo.edge_corners[e]
            assert corner in (a, b)
            corner = int(b if a == corner else a)
            visited.append(corner)
        assert corner == f.fortress and visited.index(f.colour_corner) == s.colour_index[p] == 6
        assert set(route) <= set(f.lanes) | {f.ship} and not used & set(route)
        used |= set(route)
    corners = [int(c) for c, k in zip(s.site_corner, s.site_kind) if k in ("start", "expansion")]
    for i, a in enumerate(corners):  # the distance rule between every settlement site of the eastern island
        assert a not in corners[i + 1:] and not set(topo.corner_neighbours[a].tolist()) & set(corners)
    assert setup3.players == 3 and [f.slot for f in setup3.fortresses] == [0, 1, 2]
    # the sites' production tables agree with the production module's pip arithmetic
    building = np.zeros(topo.n_corner, np.int8)
    owner = np.full(topo.n_corner, -1, np.int8)
    for c, o, k in zip(s.site_corner, s.site_owner, s.site_kind):
        if k == "start":
            building[c], owner[c] = 1, o
    income = expected_income(s.scenario.terrain, s.scenario.number_token, topo.corner_hexes, building, owner, 4)
    p_sum = np.array([(6 - abs(x - 7)) / 36 if 2 <= x <= 12 else 0 for x in range(13)])
    for p in range(4):
        starts = [i for i in s.seat_site[p, :3]]
        mine = sum(s.site_yield[i] for i in starts)  # [13, 6]
        assert np.allclose(p_sum @ mine, income[p])
        second = s.site_yield[s.seat_site[p, 2]].sum(axis=0)
        assert s.start_hands[p].tolist() == second[:N_RESOURCES].tolist()  # no gold on the eastern island


def test_rule_data_and_the_development_deck(tmp_path):
    rules = load_race_rules()
    assert rules.costs[kpi.ITEM_SHIP].tolist() == [1, 0, 1, 0, 0]  # lumber + wool
    assert rules.costs[kpi.ITEM_CARD].tolist() == [0, 0, 1, 1, 1]  # wool + grain + ore
    four, three = rules.deck_cards(4), rules.deck_cards(3)
    # the seed's 4 VP cards ("as 4 cartas de pontos de vitória") count as knights with 4 players
    assert len(four) == 24 and (four == kpi.DEV_KNIGHT).sum() == 18
    assert len(three) == 20 and (three == kpi.DEV_KNIGHT).sum() == 14  # VP cards leave the deck
    bad = tmp_path / "rules.toml"
    bad.write_text("[costs]\nship = [1, 0]\n")
    with pytest.raises(UserError, match="rules.toml: costs.ship must list 5"):
        load_race_rules(bad)
    bad.write_text("[costs\n")
    with pytest.raises(UserError, match="invalid TOML"):
        load_race_rules(bad)


def test_other_rule_data_from_a_file(tmp_path):
    """--rules: the base game's 5 VP cards instead of the seed's 4 reach the race's deck and its report."""
    base = tmp_path / "base_deck.toml"
    base.write_text(rules_path().read_text(encoding="utf-8").replace("victory_point = 4", "victory_point = 5"),
                    encoding="utf-8")
    seed_run = play_pirates(4, 30, 3, ["cards-first"])
    base_run = play_pirates(4, 30, 3, ["cards-first"], rules_file=base)
    assert len(seed_run.setup.deck) == 24 and len(base_run.setup.deck) == 25
    assert (base_run.setup.deck == kpi.DEV_KNIGHT).sum() == 19
    assert base_run.summary["rules_data"] == {"file": "base_deck.toml",
                                              "sha256": hashlib.sha256(base.read_bytes()).hexdigest()}
    assert seed_run.summary["rules_data"] == {"file": "packaged",
                                              "sha256": hashlib.sha256(rules_path().read_bytes()).hexdigest()}
    assert "rules_file" not in base_run.summary
    deck_line = next(a for a in base_run.summary["assumptions"] if a.startswith("Development deck"))
    assert "25 cards, 19 of them knights" in deck_line
    assert any(str(base) in a for a in base_run.summary["assumptions"])
    assert not np.array_equal(seed_run.columns[0], base_run.columns[0])  # another deck, other games


def test_parse_plan():
    assert parse_plan("attack-at:3").values == {"attack": 3, "outpost": 0}
    assert parse_plan("cards-first:attack=6,outpost=1").label == "cards-first:attack=6,outpost=1"
    assert parse_plan("ships-first").values["attack"] == 4
    for text, fragment in [("greedy", "unknown plan"), ("attack-at:1", "from 2 to 9"), ("attack-at:x", "whole"),
                           ("ships-first:speed=2", "bad parameter"), ("cards-first:outpost=2", "from 0 to 1"),
                           ("attack-at:3,4", "bad parameter")]:
        with pytest.raises(UserError, match=fragment):
            parse_plan(text)


def test_raid_risk_is_the_stationary_arithmetic(setup4):
    risk = {r["name"]: r for r in raid_risk(setup4, "each")}
    one, two = risk["2,7,N"], risk["2,6,S"]  # a start settlement next to one path hex; a corner between two
    assert len(one["path_indices"]) == 1 and len(two["path_indices"]) == 2
    assert one["loss_per_100"]["0"] == pytest.approx(100 / 14)
    assert one["loss_per_100"]["3"] == pytest.approx(100 / 14 * 9 / 36)  # P(min > 3) = (5 + 3 + 1)/36
    assert one["gain_per_100"]["3"] == pytest.approx(100 / 14 * 20 / 36)  # P(min < 3) = (11 + 9)/36
    assert two["loss_per_100"]["1"] == pytest.approx(2 * 100 / 14 * 25 / 36)
    flags = board_flags(setup4.scenario.topology, setup4.scenario.terrain)
    assert len(risk) == int((flags.corner_coastal & setup4.scenario.topology.corner_in_play).sum())
    sole = {r["name"]: r for r in raid_risk(setup4, "sole")}
    assert sole["2,7,N"]["loss_per_100"]["0"] == pytest.approx(100 / 14)  # alone at its hex
    # 2,6,S lies on path hexes 0 and 13; hex 13 holds the start settlement 2,7,N, hex 0 none
    assert sole["2,6,S"]["loss_per_100"]["0"] == pytest.approx(100 / 14)


# --------------------------------------------------------------------------- the race

@pytest.mark.parametrize("players, plan, rule, blocks", [
    (4, "attack-at:3", "each", False),
    (4, "cards-first:5,outpost=1", "sole", True),
    (3, "ships-first:4,outpost=1", "each", True),
    (3, "attack-at:6", "sole", False),
])
def test_race_kernel_is_the_reference(players, plan, rule, blocks, setup3, setup4):
    setup = setup4 if players == 4 else setup3
    out = race(setup, plan, 3, seed=21, rule=rule, max_rounds=120, fleet_blocks=blocks, start=40)
    for j in range(3):
        expected = ref.RaceGame(setup, parse_plan(plan), 21, 40 + j, rule, 120, blocks).play()
        for p in range(players):
            got = {name: int(seat_column(out[:, j:j + 1], p, name)[0]) for name in kpi.SEAT_OUT_NAMES}
            assert got == expected["seats"][p], (j, p)
        assert {name: int(game_column(out[:, j:j + 1], name)[0]) for name in kpi.GAME_OUT_NAMES} == {
            name: expected[name] for name in kpi.GAME_OUT_NAMES}
        assert out[kpi.LANDINGS:, j].tolist() == expected["landings"]


# --------------------------------------------------------------------------- the pieces of a colour

ITEM_NAMES = {kpi.ITEM_SHIP: "ship", kpi.ITEM_CARD: "card", kpi.ITEM_SETTLEMENT: "settlement",
              kpi.ITEM_CITY: "city", kpi.ITEM_OUTPOST: "outpost"}
START, COLOUR, FORTRESS, EXPANSION = kpi.SITE_START, kpi.SITE_COLOUR, kpi.SITE_FORTRESS, kpi.SITE_EXPANSION


def with_supply(setup, **pieces):
    """The set-up with other piece counts per colour (settlements, cities, ships)."""
    return dataclasses.replace(setup, rules=dataclasses.replace(setup.rules, **pieces))


def wanted_items(setup, plan, built, conquered=False, ships=None, knights=4):
    """Seat 0's shopping list on a hand-built position, from the kernel and from the reference (asserted
    equal): its 3 start settlements, `built` {SITE_* column: 1 settlement, 2 city} on top (the expansion
    sites in column order), `ships` ships on its route (default: complete) and `knights` knights in hand,
    so that with the default 4 no card is wanted. conquered: the fortress fell (its settlement is then
    the seat's; put FORTRESS in `built`)."""
    p = 0
    ships = len(setup.routes[p]) if ships is None else ships
    board = setup.board(parse_plan(plan))
    st_ = kpi.new_state(board)
    kpi.start_game(board, st_, 1, 0, np.zeros(kpi.n_out(setup.path_len), np.int64))
    game = ref.RaceGame(setup, parse_plan(plan), 1, 0)
    seat = game.seats[p]
    for col, level in built.items():
        site = int(board.seat_site[p, col])
        kpi.add_building(board, st_, site, level - int(st_.building[site]))
        game.building[site] = level
    expansions = sum(col >= EXPANSION for col in built)
    st_.seat[p, kpi.S_NEXT_EXPANSION] = seat.expansions = expansions
    st_.seat[p, kpi.S_SHIPS] = ships
    seat.route = ["n"] * ships
    st_.held[p, kpi.DEV_KNIGHT] = seat.cards["knight"] = knights
    if conquered:
        st_.seat[p, kpi.S_CONQUERED], st_.seat[p, kpi.S_CHITS] = 1, 0
        seat.conquered, seat.chits = True, 0
    n, _strict = kpi.shopping_list(board, st_, p)
    got = [ITEM_NAMES[int(i)] for i in st_.items[:n]]
    assert got == [item for item, _cost in game.wanted(p)[0]], (built, conquered)
    assert kpi.settlements_in_use(board, st_, p) == game.settlement_pieces(p)
    return got, int(kpi.settlements_in_use(board, st_, p))


def test_the_fortress_settlement_is_a_piece_of_the_supply(setup4, setup3):
    """Seed: "Cada fortaleza pirata é composta por 3 fichas Catan ... e de uma aldeia (da cor indicada)":
    the fortress holds one of the seat's 5 settlements until the conquest, when it becomes the seat's
    settlement on the board; only a city gives a settlement piece back."""
    # 4 on the board + the fortress's piece = 5: neither the colour corner nor an expansion site
    assert wanted_items(setup4, "cards-first:outpost=1", {EXPANSION: 1}) == (["city"], 5)
    assert wanted_items(setup4, "cards-first", {COLOUR: 1}) == (["city"], 5)
    # 3 start settlements + the piece on the fortress: a 5th may be built (the colour corner)
    assert wanted_items(setup4, "cards-first:outpost=1", {}) == (["outpost"], 4)
    # the conquest frees nothing: the piece stays on the board as the seat's settlement
    assert wanted_items(setup4, "cards-first", {COLOUR: 1, FORTRESS: 1}, conquered=True) == (["city"], 5)
    # a city returns its settlement to the supply: one settlement may be built again, before or after
    assert wanted_items(setup4, "cards-first", {START: 2, COLOUR: 1}) == (["city", "settlement"], 4)
    assert wanted_items(setup4, "cards-first", {START: 2, COLOUR: 1, FORTRESS: 1}, conquered=True) == (
        ["city", "settlement"], 4)
    # with 3 players every seat in play has its fortress (only white's pieces leave the game)
    for p in range(3):
        assert setup3.seat_site[p, FORTRESS] >= 0
    assert wanted_items(setup3, "attack-at:3,outpost=1", {EXPANSION: 1}, knights=3) == (["city"], 5)


def test_the_supply_of_pieces_limits_building(setup4):
    """5 settlements, 4 cities, 15 ships a colour (rule data): the last piece is built, then no more,
    whatever the plan wants; a larger supply would allow the next one."""
    rules = setup4.rules
    assert (rules.settlements, rules.cities, rules.ships) == (5, 4, 15)
    five = {COLOUR: 1, FORTRESS: 1}  # 3 start settlements + colour corner + reconquered fortress
    assert wanted_items(setup4, "attack-at", five, conquered=True)[0] == ["city"]
    assert wanted_items(with_supply(setup4, settlements=6), "attack-at", five, conquered=True)[0] == [
        "city", "settlement"]
    cities = {START: 2, START + 1: 2, START + 2: 2, COLOUR: 2, FORTRESS: 1}
    assert wanted_items(setup4, "attack-at", cities, conquered=True) == (["settlement"], 1)
    assert wanted_items(with_supply(setup4, cities=5), "attack-at", cities, conquered=True)[0] == [
        "city", "settlement"]
    # 4 cities and every site settled: nothing left to want
    full = {START: 2, START + 1: 2, START + 2: 2, COLOUR: 2, FORTRESS: 1, EXPANSION: 1, EXPANSION + 1: 1}
    assert wanted_items(setup4, "attack-at", full, conquered=True) == ([], 3)
    # ships: a route of 9 stops at the 6th when a colour has 6
    assert wanted_items(setup4, "ships-first", {}, ships=6, knights=0)[0] == ["ship", "card"]
    assert wanted_items(with_supply(setup4, ships=6), "ships-first", {}, ships=6, knights=0)[0] == ["card"]


def test_race_never_uses_more_pieces_than_the_supply(setup4):
    """Whole reference games (which the kernel plays identically, test above): after every turn each seat
    uses at most 5 settlement pieces (on the board, plus the fortress's until the conquest) and 4 cities,
    and the limit is reached before a conquest. Counted here from the board, not by the code under test."""
    at_limit = 0

    class Checked(ref.RaceGame):
        def turn(self, p, rnd):
            nonlocal at_limit
            super().turn(p, rnd)
            for q in range(self.players):
                levels = [self.building.get(x, 0) for x in self.sites(q)]
                pieces = levels.count(1) + (not self.seats[q].conquered)
                assert pieces <= self.s.rules.settlements and levels.count(2) <= self.s.rules.cities, (rnd, q)
                at_limit += pieces == self.s.rules.settlements and not self.seats[q].conquered

    for g, plan in enumerate(["attack-at:4,outpost=1", "ships-first:3,outpost=1", "cards-first"]):
        Checked(setup4, parse_plan(plan), 8, g, max_rounds=120).play()
    assert at_limit > 0


@pytest.mark.parametrize("plan", ["ships-first:3", "cards-first", "attack-at:5,outpost=1"])
def test_race_invariants(plan, setup4):
    n, max_rounds = 400, 150
    out = race(setup4, plan, n, seed=5, max_rounds=max_rounds).astype(np.int64)
    col = lambda p, name: seat_column(out, p, name)  # noqa: E731
    winner, win_round, rounds = (game_column(out, k) for k in ("winner", "win_round", "rounds"))
    for p in range(4):
        assert (col(p, "min_cards") >= 0).all()  # cards never negative
        conquered, finish = col(p, "conquer_round"), col(p, "finish_round")
        assert ((finish == 0) | ((conquered > 0) & (conquered <= finish) & (col(p, "vp") >= 10))).all()
        assert ((conquered > 0) == (col(p, "battles_won") == 3)).all()
        assert (col(p, "battles_won") <= col(p, "battles")).all()
        assert ((col(p, "first_attack_round") > 0) == (col(p, "battles") > 0)).all()
        assert (col(p, "raids_lost") + col(p, "raids_won") <= col(p, "raided")).all()
        won = winner == p
        assert (finish[won] == win_round[won]).all() and (conquered[won] > 0).all() and (col(p, "vp")[won] >= 10).all()
    finishes = np.array([col(p, "finish_round") for p in range(4)])
    has = winner >= 0
    assert (finishes[:, has].min(axis=0, where=finishes[:, has] > 0, initial=10**9) == win_round[has]).all()
    assert ((finishes > 0).any(axis=0) == has).all()
    cards = sum(col(p, "cards_bought") for p in range(4))
    assert (cards <= len(setup4.deck)).all()  # 24: the seed's deck
    fleet = out[kpi.LANDINGS:kpi.LANDINGS + PATH_LEN]
    assert (fleet.sum(axis=0) == game_column(out, "fleet_rolls")).all()
    assert (game_column(out, "rolls") <= 4 * rounds).all() and (rounds <= max_rounds).all()
    all_conquered = np.array([col(p, "conquer_round") > 0 for p in range(4)]).all(axis=0)
    assert (game_column(out, "fleet_rolls")[~all_conquered] == game_column(out, "rolls")[~all_conquered]).all()


def test_common_random_numbers_across_plans(setup4):
    """Game g rolls the same dice whatever the plan (and as the dice reference says)."""
    n = 60
    traces = {}
    for plan in ("ships-first", "cards-first:6", "attack-at:3"):
        trace = np.zeros(n, np.int64)
        out = np.zeros((kpi.n_out(PATH_LEN), 1), np.int32)
        play_plan(setup4, parse_plan(plan), 9, 0, 200, False, 17, out, trace)
        traces[plan] = trace.tolist()
    expected = [6 * (a - 1) + (b - 1) for a, b in rolls(9, 17, n)]
    assert all(t == expected for t in traces.values())
    # ... and the paired experiment compares plans on those games
    result = play_pirates(4, 40, 9, ["ships-first", "cards-first"], max_rounds=60, threads=1)
    d = result.summary["paired_differences"]["cards-first:attack=4,outpost=0 - ships-first:attack=4,outpost=0"]
    assert d["all seats"]["n"] == 40
    a, b = result.columns
    assert (game_column(a, "rolls") >= 0).all() and a.shape == b.shape


def test_pooled_seats_are_clustered_by_game():
    """The four seats of one game are one sample for an interval, not four: one game has none."""
    one = play_pirates(4, 1, 3, ["cards-first"], max_rounds=200, threads=1).summary["turns_to_conquer"]
    pooled = one["cards-first:attack=4,outpost=0"]["all seats"]
    assert pooled["conquered"] >= 2 and pooled["mean"]["clusters"] == 1 and pooled["mean"]["ci95"] == [None, None]
    result = play_pirates(4, 60, 3, ["cards-first"], max_rounds=200, threads=1)
    cols = result.columns[0]
    rounds = np.stack([seat_column(cols, p, "conquer_round") for p in range(4)])  # seat x game
    pooled = result.summary["turns_to_conquer"]["cards-first:attack=4,outpost=0"]["all seats"]
    won = rounds > 0
    by_game = np.repeat(np.arange(60)[None, :], 4, axis=0)
    assert pooled["mean"] == stats.clustered_mean_ci(rounds[won], by_game[won])
    assert pooled["mean"]["clusters"] == int(won.any(axis=0).sum())
    assert pooled["p_conquered_ci95"] == list(stats.clustered_wilson_ci(won.ravel(), by_game.ravel()))


def test_the_experiment_plays_the_kernels_games(setup4):
    """Game g of play_pirates is game g of the race kernel (threads, chunks and Dask: tests/test_conformance.py)."""
    one = play_pirates(4, 90, 2, ["attack-at:5"], max_rounds=80, threads=2).columns[0]
    assert (race(setup4, "attack-at:5", 30, seed=2, max_rounds=80, start=60) == one[:, 60:]).all()


# --------------------------------------------------------------------------- the command

def test_cli_pirates_writes_every_output(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, err = run_cli(["seafarers", "pirates", "--players", "3", "--games", "80", "--seed", "4",
                                 "--plan", "cards-first:5", "--plan", "attack-at:3", "--raid-rule", "sole",
                                 "--max-rounds", "100", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    for name in ("summary.json", "games.parquet", "report.md", "report.html", "fleet_heat.png", "raid_risk.png",
                 "conquest_curves.png", "routes.png"):
        assert (out / name).stat().st_size > 0, name
    s = json.loads((out / "summary.json").read_text())
    assert s["raid_rule"] == "sole" and "sole" in s["raid_rule_text"]
    assert len(s["fleet_position_frequency"]) == PATH_LEN
    plans = ["cards-first:attack=5,outpost=0", "attack-at:attack=3,outpost=0"]
    assert list(s["turns_to_conquer"]) == plans
    for p in plans:
        t = s["turns_to_conquer"][p]
        assert set(t) == {"seat 1", "seat 2", "seat 3", "all seats"}
        assert set(t["seat 1"]["p_by_round"]) == {"20", "30", "40"}
        assert set(s["raids"][p]["seat 2"]) >= {"suffered", "won", "cards_lost_per_100_rolls"}
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 2 * 80 * 3
    fleet = games.filter(pl.col("seat") == 1)["fleet_rolls"].sum()
    assert sum(s["fleet_position_frequency"]) == fleet
    assert all("loss_per_100" in r for r in s["raid_risk"])
    report = (out / "report.md").read_text()
    assert "Raid rule: sole" in report and "Paired differences" in report and "cards-first:attack=5" in report
    assert "data:image/png;base64," in (out / "report.html").read_text()


@pytest.mark.parametrize("args, fragment", [
    (["--players", "5"], "--players must be 3 or 4"),
    (["--games", "0"], "--games must be from 1 to 333,333, got 0"),
    (["--seed", "-1"], "--seed must be between"),
    (["--plan", "greedy"], "unknown plan 'greedy'"),
    (["--plan", "attack-at:1"], "attack must be from 2 to 9"),
    (["--plan", "ships-first", "--plan", "ships-first:attack=4"], "the same plan is given twice"),
    (["--raid-rule", "both"], "unknown raid rule 'both'"),
    (["--max-rounds", "0"], "--max-rounds must be from 1 to 10,000, got 0"),
    (["--heuristic", "greedy"], "unknown heuristic"),
    (["--draft-seed", "-2"], "--draft-seed must be between"),
    (["--threads", "0"], "--threads must be from 1 to 1,024, got 0"),
    (["--rules", "/nonexistent/rules.toml"], "rules file not found: /nonexistent/rules.toml"),
    # upper bounds: before them, numpy allocation errors, OverflowError, or hours of play
    (["--games", str(10**30)], "--games must be from 1 to 333,333"),
    (["--games", "500001", "--plan", "ships-first", "--plan", "cards-first"], "--games must be from 1 to 500,000"),
    (["--max-rounds", str(10**30), "--games", "3"], "--max-rounds must be from 1 to 10,000"),
    (["--games", "3", "--max-rounds", str(2**31)], "--max-rounds must be from 1 to 10,000"),
    (["--games", "3", "--threads", str(10**30)], "--threads must be from 1 to 1,024"),
])
def test_bad_pirates_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "pirates", *args, "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_scenario_has_the_data_the_race_needs():
    s = load_scenario("pirate-islands", 4)
    assert len(s.pirate.fleet_path) == PATH_LEN and s.robber.rule == "none"
    assert len(s.markers.fortresses) == 4 and s.markers.fortress_strength == 3
