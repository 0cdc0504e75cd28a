"""The plain Catan base map (analyzer/seafarers/data/base.toml): the base game's board, its random boards, plain
Catan's no-ship rule in both engines, and `tabletop seafarers play --scenario base`.

The base game's rulebook is not among docs/rulebooks; its words are quoted from the public almanac the data file
names (catanboard.com/en/rules/almanacST) and issue 28 ("the plain base map (plain Catan, for checks against other
engines)")."""

import json
from collections import Counter
from dataclasses import replace

import pytest

from analyzer.errors import UserError
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import RED, data_dir, load_scenario, parse_scenario_file, setup_violations
from analyzer.seafarers.table import printed_board
from kernels.catan import game as kg
from kernels.catan.codes import RESOURCE_NAMES, TERRAIN_NAMES
from tests.support import run_cli

RULES = load_rules()
BASE_HEXES = {"lumber": 4, "wool": 4, "grain": 4, "brick": 3, "ore": 3, "desert": 1}
BASE_NUMBERS = Counter([2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12])


def _land(s, terrain):
    return [h for h, k in enumerate(s.kind) if k != "frame" and TERRAIN_NAMES[terrain[h]] != "sea"]


def test_the_base_board_holds_the_base_game_s_pieces():
    """'19 terrain hexes (4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains, 1 desert)', 18 number tokens,
    9 harbours (4 generic 3:1, one 2:1 per resource) on the sea frame, the robber on the desert, 10 VP."""
    for players in (3, 4):
        s = load_scenario("base", players)
        land = _land(s, s.terrain)
        assert len(land) == 19 and sum(k != "frame" for k in s.kind) == 19  # no sea hex inside the frame
        assert Counter(TERRAIN_NAMES[s.terrain[h]] for h in land) == BASE_HEXES
        assert Counter(int(s.number_token[h]) for h in land if s.number_token[h]) == BASE_NUMBERS
        assert s.harbours.pool == {"3:1": 4, **{r: 1 for r in RESOURCE_NAMES}}
        assert all(s.kind[site.sea] == "frame" for site in s.harbours.sites)  # harbours on the frame
        assert TERRAIN_NAMES[s.terrain[s.robber.hex]] == "desert" and s.robber.rule == "desert"
        assert s.pirate.rule == "none" and not s.ships and not s.setup.ships
        assert s.victory.target == 10 and s.victory.island_bonus == 0
        assert setup_violations(s, s.terrain, s.number_token) == []
        assert s.status == "reconstructed" and s.notes  # the beginners' board is rebuilt from public sources


def test_random_base_boards_shuffle_everything_and_keep_the_red_numbers_apart(tmp_path):
    """Almanac, 'Set-Up, Variable': 'randomly place one on top of each harbor on the frame'; a fully random
    set-up: 'the tokens with the red numbers must not be next to each other' (a default: switchable)."""
    s = load_scenario("base", 4)
    boards = generate_boards(deal_plan(s), 300, 7)
    topo = s.topology

    def red_neighbours(number):
        return sum(number[h] in RED and number[g] in RED for h in range(topo.n_hex) for g in topo.hex_neighbours[h]
                   if g > h)

    layouts = set()
    for j in range(300):
        terrain, number = boards.terrain[j], boards.number[j]
        land = _land(s, terrain)
        assert Counter(TERRAIN_NAMES[terrain[h]] for h in land) == BASE_HEXES
        assert Counter(int(number[h]) for h in land if number[h]) == BASE_NUMBERS
        assert red_neighbours(number) == 0
        assert Counter(boards.harbour[j].tolist()) == Counter({0: 4, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1})
        layouts.add((terrain.tobytes(), number.tobytes(), boards.harbour[j].tobytes()))
    assert len(layouts) == 300
    assert len({boards.harbour[j].tobytes() for j in range(300)}) > 100  # the harbours are shuffled too
    text = (data_dir() / "base.toml").read_text().replace("red_adjacent_allowed = false", "red_adjacent_allowed = true")
    (tmp_path / "base.toml").write_text(text)
    lifted = parse_scenario_file(tmp_path / "base.toml")[1]
    free = generate_boards(deal_plan(lifted), 300, 7)
    assert sum(red_neighbours(free.number[j]) > 0 for j in range(300)) > 30  # the switch lifts the rule


def _draft_coastal(table, board):
    """Both engines after the draft in which every seat takes the first coastal site and its first edge; then
    seat 0's main phase with 5 of every card and a road-building card."""
    state, game = R.init(table, 1, 0), kg.new_game(board)
    kg.init(board, game, 1, 0)
    while state.phase in (R.SETUP_SETTLEMENT, R.SETUP_EDGE, R.GOLD_PICK):
        actions = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in actions]
        coastal = [a for a in actions if a[0] != R.SETTLE or table.view.flags.corner_coastal[a[1]]]
        action = (coastal or actions)[0]
        R.step(table, state, action)
        kg.step(board, game, *action)
    state.phase, game.st[kg.ST_PHASE] = R.MAIN, kg.MAIN
    for r in range(5):
        state.hands[0][r], game.hands[0, r] = 5, 5
    state.cards[0][R.ROAD_BUILDING], game.cards[0, kg.ROAD_BUILDING] = 1, 1
    return state, game


def test_plain_catan_has_no_ships_in_either_engine():
    """Issue 28: 'the plain base map (plain Catan, for checks against other engines)': with lumber and wool in
    hand and a coastal settlement, neither engine offers a ship, a ship move or a road-building ship; the same
    position with ships in the supply offers them (so the rule, not the board, takes them away)."""
    s = load_scenario("base", 4)
    for ships in (False, True):
        scenario = s if not ships else replace(s, ships=True)
        table = R.game_table(scenario, RULES, *printed_board(scenario))
        board = kernel_board(table)
        state, game = _draft_coastal(table, board)
        assert any(table.view.flags.corner_coastal[c] and o == 0 for c, o in enumerate(state.corner_owner))
        assert state.pieces_left[0][1] == game.pieces_left[0, kg.PIECE_SHIP] == (15 if ships else 0)
        actions = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in actions]
        kinds = {a[0] for a in actions}
        assert (R.SHIP in kinds) == ships and R.MOVE_SHIP not in kinds and R.ROAD in kinds
        R.step(table, state, (R.PLAY_ROAD_BUILDING, 0, 0))
        kg.step(board, game, R.PLAY_ROAD_BUILDING, 0, 0)
        free = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in free]
        assert ({a[0] for a in free} >= {R.ROAD, R.STOP_BUILDING}) and (R.SHIP in {a[0] for a in free}) == ships
    plain = R.game_table(s, RULES, *printed_board(s))
    assert not plain.has_pirate and plain.pirate_start == -1 and plain.has_robber
    assert int(kernel_board(plain).params[kg.P_SETUP_SHIPS]) == 0


def test_the_no_ship_flag_needs_no_pirate_and_no_drafted_ship(tmp_path):
    text = (data_dir() / "base.toml").read_text()
    assert "\nships = false\n\n[rules]" in text
    (tmp_path / "base.toml").write_text(text.replace("\nships = false\n\n[rules]", "\nships = true\n\n[rules]"))
    with pytest.raises(UserError, match=r"base.toml: rules.ships = false .* needs setup.ships = false"):
        parse_scenario_file(tmp_path / "base.toml")


def test_play_base_random_bots_50_games(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "play", "--scenario", "base", "--players", "4", "--bots",
                                 "random,random,random,random", "--games", "50", "--no-progress", "--out", str(out)],
                                capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 50 and summary["scenario"]["vp_target"] == 10
    assert all(seat["pieces"]["ships"] == 0 for seat in summary["seats"])
    assert any("Plain Catan" in a for a in summary["assumptions"])
    assert any(a.startswith("Red 6/8") for a in summary["assumptions"])
    assert (out / "report.md").read_text().startswith("# Catan: Seafarers — Catan base game, 4 players")
