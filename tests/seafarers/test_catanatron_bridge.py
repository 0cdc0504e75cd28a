"""The catanatron bridge (analyzer/seafarers/catanatron_bridge.py): our board of catanatron's map, the seat's view,
every action kind both ways, and our bots in catanatron's own games."""

import json
import os
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import polars as pl
import pytest

pytest.importorskip("catanatron", reason="the optional extra .[catanatron] (catanatron 3.2.1) is not installed")

from catanatron import Color, Game, RandomPlayer  # noqa: E402
from catanatron.models.enums import ActionType  # noqa: E402
from catanatron.models.map import BASE_MAP_TEMPLATE, TOURNAMENT_MAP, CatanMap  # noqa: E402
from catanatron.players.weighted_random import WeightedRandomPlayer  # noqa: E402

from analyzer.seafarers import catanatron_bridge as cb  # noqa: E402
from analyzer.seafarers import versus_catanatron as cvs  # noqa: E402
from kernels.catan import codes  # noqa: E402
from kernels.catan import game as kg  # noqa: E402
from tests.support import one_line_error, run_cli  # noqa: E402

COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)
# What one engine offers and the other lacks on the base map (docs/seafarers/catanatron.md): our road building
# card where catanatron asks for a road's price to play it; stopping road building after one free road.
OURS_ONLY = {"play_road_building", "stop_building"}
THEIRS_ONLY = {"play_year_of_plenty"}  # a year of plenty of one card (the bank holds too few for two)


def _maps():
    random.seed(7)
    return [TOURNAMENT_MAP] + [CatanMap.from_template(BASE_MAP_TEMPLATE) for _ in range(4)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_of_catanatrons_map_is_its_tiles_numbers_and_ports(players):
    for catan_map in _maps():
        bmap = cb.bridge_map(catan_map, players)
        board = bmap.board
        assert board.params[kg.P_PLAYERS] == players
        for cube, tile in catan_map.land_tiles.items():
            h = bmap.hex_of_coordinate[cube]
            assert board.terrain[h] == cb.TERRAIN_OF_RESOURCE[tile.resource]
            assert board.number[h] == (tile.number or 0)
            assert sorted(int(bmap.corner_of_node[n]) for n in tile.nodes.values()) == sorted(board.hex_corners[h])
        land = {int(bmap.corner_of_node[n]) for n in catan_map.land_nodes}
        assert len(land) == len(catan_map.land_nodes) == 54
        assert land == {c for c in range(len(board.corner_hexes))
                        if any(h >= 0 and board.terrain[h] >= codes.DESERT for h in board.corner_hexes[c])}
        expected = np.full(len(board.corner_hexes), -1)
        for resource, nodes in catan_map.port_nodes.items():
            for n in nodes:
                expected[bmap.corner_of_node[n]] = 0 if resource is None else 1 + cb.RESOURCE_INDEX[resource]
        assert (board.corner_harbour == expected).all()
        for (a, b), e in ((pair, bmap.edge_of_pair[frozenset(pair)]) for pair in bmap.pair_of_edge.values()):
            assert {int(bmap.corner_of_node[a]), int(bmap.corner_of_node[b])} == set(board.edge_corners[e])


def _recorded_games(seeds, players=4, ours=("value",)):
    """Games of our bots (seats in `ours`) with catanatron's weighted and random players; every decision's
    (state copy, playable actions) of every player, and our players."""
    decisions, ours_players = [], []
    for seed in seeds:
        lineup = [cb.OursPlayer(COLORS[k], bot, seed=seed, stream_key=k) for k, bot in enumerate(ours)]
        lineup += [(WeightedRandomPlayer if k % 2 else RandomPlayer)(COLORS[k]) for k in range(len(ours), players)]
        game = Game(lineup, seed=seed)

        def record(player, game, actions):
            decisions.append((game.state.copy(), list(actions)))
            return player.decide(game, actions)

        game.play(decide_fn=record)
        ours_players += lineup[:len(ours)]
    return decisions, ours_players


@pytest.fixture(scope="module")
def recorded():
    return _recorded_games(range(6), 4, ("value", "planner"))


def test_every_catanatron_action_kind_maps_to_ours_and_back(recorded):
    decisions, _ = recorded
    seen = Counter()
    for state, actions in decisions:
        bmap = cb.bridge_map(state.board.map, len(state.colors))
        for action in actions:
            ours = cb.to_ours(bmap, state, action)
            seen[action.action_type] += 1
            if ours is None:
                assert action.action_type == ActionType.PLAY_YEAR_OF_PLENTY and len(action.value) == 1
                continue
            assert cb.to_catanatron(bmap, state, action.color, *ours) == action
    assert set(seen) == set(cb.OFFERED), set(cb.OFFERED) - set(seen)


def test_every_kind_of_ours_on_the_base_map_maps_or_is_documented():
    random.seed(3)
    bmap = cb.bridge_map(CatanMap.from_template(BASE_MAP_TEMPLATE), 4)
    game = Game([RandomPlayer(c) for c in COLORS], seed=3, catan_map=None)
    state = game.state
    color = state.colors[0]
    land = next(iter(state.board.map.land_tiles))
    unmapped = {kg.SHIP, kg.MOVE_SHIP, kg.MOVE_PIRATE, kg.PICK_GOLD, kg.STOP_BUILDING, kg.OFFER, kg.DECLINE,
                kg.ACCEPT, kg.STEAL_FROM}  # STEAL_FROM: part of catanatron's MOVE_ROBBER
    for kind, name in cb.KIND_NAMES.items():
        a, b = {kg.SETTLE: (0, 0), kg.CITY_UP: (0, 0), kg.ROAD: (next(iter(bmap.pair_of_edge)), 0),
                kg.TRADE: (0, 1), kg.PLAY_YEAR_OF_PLENTY: (1, 3), kg.PLAY_MONOPOLY: (4, 0),
                kg.MOVE_ROBBER: (bmap.hex_of_coordinate[land], 1), kg.DISCARD_CARD: (-1, 0)}.get(kind, (0, 0))
        if kind in (kg.SETTLE, kg.CITY_UP):
            a = int(bmap.corner_of_node[0])
        action = cb.to_catanatron(bmap, state, color, kind, a, b)
        if kind in unmapped:
            assert action is None, name
            continue
        assert action is not None and cb.OFFERED[action.action_type] == kind, name
        assert cb.to_ours(bmap, state, action) == (kind, a, b), name
    assert cb.to_catanatron(bmap, state, color, kg.DISCARD_CARD, 2, 0) is None  # a chosen card: catanatron draws


def test_our_bots_choose_only_what_catanatron_offers(recorded):
    decisions, players = recorded
    counts = sum((p.counts for p in players), Counter())
    assert counts["decisions"] - counts["forced"] >= 300, counts
    assert counts["unmapped"] == 0
    assert counts["first_choice"] > 0.95 * (counts["decisions"] - counts["forced"]), counts
    for key in counts:
        if key.startswith(("ours only ", "fallback ")):
            assert key.split(" ", 2)[-1] in OURS_ONLY, counts
        if key.startswith("theirs only "):
            assert key.removeprefix("theirs only ") in THEIRS_ONLY, counts


def test_the_seats_view_holds_nothing_hidden(recorded):
    """Two states that differ only in what the seat cannot see (the others' hands by resource, their development
    cards by type, the deck's order) give the same view."""
    decisions, _ = recorded
    checked = 0
    for state, _ in decisions[::7]:
        bmap = cb.bridge_map(state.board.map, len(state.colors))
        me = state.current_player_index
        other = state.copy()
        rng = random.Random(checked)
        rng.shuffle(other.development_listdeck)
        for seat, color in enumerate(other.colors):
            if seat == me:
                continue
            key = f"P{seat}"
            for group in (("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE"),
                          ("KNIGHT", "YEAR_OF_PLENTY", "MONOPOLY", "ROAD_BUILDING", "VICTORY_POINT")):
                n = sum(other.player_state[f"{key}_{g}_IN_HAND"] for g in group)
                cut = sorted(rng.randint(0, n) for _ in range(len(group) - 1))
                for g, lo, hi in zip(group, [0] + cut, cut + [n]):
                    other.player_state[f"{key}_{g}_IN_HAND"] = hi - lo
        a, b = cb.seat_view(bmap, state), cb.seat_view(bmap, other)
        for field in ("st", "hands", "cards", "new_cards", "deck", "pieces_left", "rates", "bank", "corner_owner",
                      "corner_building", "edge_owner", "knights", "route", "discard", "net_corners", "net_edges"):
            assert (getattr(a, field) == getattr(b, field)).all(), field
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("bot", ["value", "planner", "value:opening=pips", "rollout"])
def test_a_full_game_against_catanatrons_random_player_completes(bot):
    ours = cb.OursPlayer(Color.RED, bot, seed=1)
    game = Game([ours, RandomPlayer(Color.BLUE)], seed=11)
    assert game.play() is not None
    assert game.state.num_turns < 1000 and ours.counts["unmapped"] == 0


# ------------------------------------------------------------------------------------------------ the command
@pytest.mark.parametrize("args, fragment", [
    (["--theirs", "XX"], "--theirs: unknown catanatron player 'XX'; known: R, W, VP, AB, F"),
    (["--ours", "mcts"], "unknown bot 'mcts'"),
    (["--players", "5"], "--players must be 2, 3 or 4 (catanatron's base map), not 5"),
    (["--games", "0"], "--games must be from 1 to 100,000"),
    (["--seed", "-1"], "--seed must be between 0 and 2**63-1, got -1"),
])
def test_bad_versus_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "versus-catanatron", *args, "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


def test_catanatrons_experimental_players_are_refused_in_one_line_where_missing(tmp_path, capsys):
    try:
        import catanatron_experimental  # noqa: F401
        pytest.skip("catanatron_experimental is installed here")
    except ImportError:
        pass
    code, _, err = run_cli(["seafarers", "versus-catanatron", "--theirs", "R,AB", "--out", str(tmp_path / "o")],
                           capsys)
    assert one_line_error(code, err, "--theirs AB: catanatron's AlphaBetaPlayer is in catanatron_experimental"), err
    assert not (tmp_path / "o").exists()


def test_versus_writes_a_results_folder_with_one_sentence_per_pairing(tmp_path, capsys):
    out = tmp_path / "vs"
    code, printed, err = run_cli(["seafarers", "versus-catanatron", "--ours", "value", "--theirs", "R,W",
                                  "--games", "4", "--players", "4", "--seed", "5", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["experiment"] == "seafarers versus-catanatron"
    assert summary["seed"] == 5 and summary["command"].startswith("tabletop ")
    assert summary["versions"] and summary["assumptions"]
    pairings = summary["pairings"]
    assert [(p["ours"], p["theirs"]) for p in pairings] == [("value", "R"), ("value", "W")]
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 8
    for p in pairings:
        rows = games.filter((pl.col("ours") == p["ours"]) & (pl.col("theirs") == p["theirs"]))
        assert sorted(rows["our_seat"].to_list()) == [1, 2, 3, 4]  # seats rotated
        assert p["wins"] == rows["won"].sum() and p["ci95"][0] <= p["p_win"] <= p["ci95"][1]
        assert p["turns"]["mean"] == pytest.approx(rows["turns"].mean())
        assert p["bridge"]["unmapped"] == 0
        assert p["sentence"] in printed and p["sentence"] in (out / "report.md").read_text()
    again = cvs.play_versus(["value"], ["R", "W"], 4, 5, 4)  # the same seed, the same games
    assert again.games.drop("ours", "theirs").equals(games.drop("ours", "theirs"))


def test_a_seed_gives_the_same_games_in_every_process():
    """catanatron lists some actions in an order that follows Python's string hashing; the command hands them to
    every player in canonical order, so two processes with different hash seeds play the same games."""
    code = ("from analyzer.seafarers.versus_catanatron import play_versus\n"
            "print(play_versus(['value'], ['R'], 4, 3, 2).games.drop('ours', 'theirs').rows())")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] and runs[0].count("(") >= 4
