"""The Seafarers rules and data files read strictly (analyzer/seafarers/full_rules.py, pirates.py, scenarios.py):
an unknown key, a number the kernel cannot hold, rules no game can be played under and a `--rule` the scenario does
not read are each one line naming the file and the key, exit 2, before any game. Before, `target = 13` in [turn]
ran and winners had 14-16 VP, `[pirates] victory_point_cards = 88` overran the kernel's 100-card deck (glibc's
'free(): invalid pointer', exit -6), a supply of 1 settlement left -1 pieces after the draft."""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.rules_file import known_keys
from analyzer.seafarers.full_rules import MAX_DECK, check_rules_for, load_rules, rules_text
from analyzer.seafarers.pirates import load_race_rules, rules_path
from analyzer.seafarers.scenarios import list_scenarios, load_scenario
from kernels.catan import game as kg
from tests.support import one_line_error, run_cli

TEXT = rules_text()[0]


def _changed(text: str = TEXT, **replace) -> str:
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def test_the_packaged_files_load_and_every_scenario_plays_under_them():
    """The packaged files are the test that the allowed keys are complete: each key they hold is read."""
    rules = load_rules()
    for s in list_scenarios():
        check_rules_for(rules, [s])
    load_race_rules()
    assert rules.data_file()["file"] == "packaged" and len(rules.data_file()["sha256"]) == 64


def test_known_keys_names_the_file_the_key_and_the_nearest():
    with pytest.raises(UserError, match=r"^r\.toml: unknown key 'citty' in \[supply\]; did you mean 'city'\?$"):
        known_keys("r.toml", {"citty": 3}, ("city", "roads"), "[supply]")
    with pytest.raises(UserError, match=r"^r\.toml: unknown key 'zzz' in \[supply\]; known: city, roads$"):
        known_keys("r.toml", {"zzz": 3}, ("city", "roads"), "[supply]")
    known_keys("r.toml", {"city": 3, "city_note": "why"}, ("city",), "[supply]", prose=True)
    with pytest.raises(UserError, match="city_note in \\[supply\\] is prose .* must be text"):
        known_keys("r.toml", {"city_note": 3}, ("city",), "[supply]", prose=True)


PLAY = ["seafarers", "play", "--games", "1"]


@pytest.mark.parametrize("scenario, replace, rule, fragment", [
    # unknown keys (the two)
    ("base", {"[turn]\n": "[turn]\ntarget = 13\n"}, [], "rules.toml: unknown key 'target' in [turn]; known: "
                                                        "discard_above, turn_cap"),
    ("base", {"cities = 4": "citty = 3"}, [], "rules.toml: unknown key 'citty' in [supply]; did you mean 'cities'?"),
    ("base", {"[supply]": "[suply]"}, [], "unknown key 'suply' in the top level; did you mean 'supply'?"),
    ("base", {"[options.domestic_trade]": "[options.domestic_trades]\ndefault = true\ntrue = 'a'\nfalse = 'b'\n"
                                          "[options.domestic_trade]"}, [],
     "unknown key 'domestic_trades' in [options]; did you mean 'domestic_trade'?"),
    ("base", {"default = true\ntrue = \"Domestic": "default = true\ndefualt = 1\ntrue = \"Domestic"}, [],
     "unknown key 'defualt' in [options.domestic_trade]; did you mean 'default'?"),
    ("wonders-of-catan", {'id = "cathedral"': 'id = "cathedral"\nvictory = 3'}, [],
     "unknown key 'victory' in [[wonders.card]] 2"),
    ("base", {"ship_quote = ": "ship_quote = 3\nold_quote = "}, [], "ship_quote in [costs] is prose"),
    # sizes the kernel holds
    ("pirate-islands", {"victory_point_cards = 4": "victory_point_cards = 88"}, [],
     "the Pirate Islands' 4-player deck with --rule pirate_four_vp_cards=true (development_deck less its "
     "victory_point cards, plus pirates.victory_point_cards as knights) holds 108 cards; the game holds at most 100"),
    ("base", {"knight = 14": "knight = 90"}, [], "development_deck holds 101 cards; the game holds at most 100"),
    # rules no game can be played under
    ("base", {"settlements = 5": "settlements = 1"}, [], "supply.settlements = 1, but the draft places 2"),
    ("base", {"roads = 15": "roads = 1", "ships = 15": "ships = 1"}, [], "supply.roads = 1, but the draft"),
    ("cloth-for-catan", {"settlements = 5": "settlements = 2"}, [],
     "supply.settlements = 2, but the draft of Cloth for Catan needs 3 settlements"),
    ("pirate-islands", {"settlements = 5": "settlements = 3"}, [],
     "the draft of The Pirate Islands needs 4 settlements a seat"),
    ("pirate-islands", {"ships = 15": "ships = 8"}, [], "supply.ships = 8, but a route to a fortress"),
    ("base", {"per_resource = 19": "per_resource = 2"}, [], "costs.city asks 3 ore, but the bank holds only 2"),
    ("base", {"settlement = 1\ncity = 2": "settlement = 0\ncity = 0"}, [],
     "a seat scores at most 9 VP in Catan base game, which needs 10"),
    ("forgotten-tribe", {f"{k} = {n}": f"{k} = 0" for k, n in (("knight", 14), ("victory_point", 5),
                                                               ("road_building", 2), ("year_of_plenty", 2))}, [],
     "development cards lie on the islets, but the rules' deck has only 2"),
    # a switch the scenario does not read
    ("new-shores", {}, ["harbours_after_draft=true"],
     "--rule harbours_after_draft: new-shores does not read it (it would change nothing); it applies only to "
     "new-world"),
    ("base", {}, ["raid_sole_owner=true"], "it applies only to pirate-islands"),
])
def test_each_refusal_is_one_line_naming_the_file_and_the_key(tmp_path, capsys, scenario, replace, rule, fragment):
    rules = tmp_path / "rules.toml"
    rules.write_text(_changed(**replace), encoding="utf-8")
    args = [*PLAY, "--scenario", scenario, "--rules", str(rules), "--out", str(tmp_path / "o")]
    code, _, err = run_cli(args + [a for r in rule for a in ("--rule", r)], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()  # refused before any game


@pytest.mark.parametrize("command", [
    ["seafarers", "tournament", "--scenario", "new-shores", "--entrants", "random,value"],
    ["seafarers", "seats", "--scenarios", "new-shores", "--players", "4"],
    ["seafarers", "balance", "--scenario", "new-shores", "--by", "wins"],
])
def test_every_full_game_command_checks_the_rules_for_its_scenarios(tmp_path, capsys, command):
    code, _, err = run_cli([*command, "--rule", "harbours_after_draft=true", "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "--rule harbours_after_draft: "), err
    assert "new-shores" in err and "read it (it would change nothing); it applies only to new-world" in err
    rules = tmp_path / "rules.toml"
    rules.write_text(_changed(**{"[turn]\n": "[turn]\ntarget = 13\n"}), encoding="utf-8")
    code, _, err = run_cli([*command, "--rules", str(rules), "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "rules.toml: unknown key 'target' in [turn]"), err
    assert not (tmp_path / "o").exists()


def test_a_switch_read_by_one_of_several_scenarios_is_taken(tmp_path):
    check_rules_for(load_rules(rule=["harbours_after_draft=true"]),
                    [load_scenario("new-shores", 4), load_scenario("new-world", 4)], ["harbours_after_draft=true"])


def test_the_pirate_race_rules_are_read_strictly_too(tmp_path, capsys):
    rules = tmp_path / "race.toml"
    rules.write_text(rules_path().read_text("utf-8").replace("cities = 4", "citty = 4"), encoding="utf-8")
    code, _, err = run_cli(["seafarers", "pirates", "--games", "3", "--rules", str(rules), "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "race.toml: unknown key 'citty' in [supply]; did you mean 'cities'?"), err


# ------------------------------------------------------------------------------------------------ capacity
def test_the_kernels_arrays_hold_the_largest_accepted_rules():
    """Every size a rules file can set against the array that holds it: the deck (Game.deck, kg.MAX_DECK places)
    at the largest accepted deck, the route's search stacks (RouteWork, one place per piece of a trail) at the
    largest supply of roads and ships (30 + 30: the stacks held 31 before)."""
    from analyzer.seafarers.play import kernel_board
    from analyzer.seafarers.table import game_table, printed_board

    big = _changed(**{"roads = 15": "roads = 30", "ships = 15": "ships = 30", "knight = 14": "knight = 89",
                      "victory_point_cards = 4": "victory_point_cards = 5"})
    rules = load_rules("big.toml", big)
    assert MAX_DECK == kg.MAX_DECK
    for slug in ("new-shores", "pirate-islands"):
        s = load_scenario(slug, 4)
        board = kernel_board(game_table(s, rules, *printed_board(s)))
        game = kg.new_game(board)
        assert len(board.deck) == MAX_DECK <= len(game.deck)
        assert len(game.work.corner) > rules.supply["roads"] + rules.supply["ships"]


# Each number at the ends of its documented range (or its default); the ones accepted must play without a crash.
EDGES = {
    "roads = 15": ("roads", 2, 30), "ships = 15": ("ships", 1, 30), "settlements = 5": ("settlements", 2, 30),
    "cities = 4": ("cities", 1, 30), "per_resource = 19": ("per_resource", 3, 100),
    "bank_rate = 4": ("bank_rate", 1, 10), "generic_rate = 3": ("generic_rate", 1, 10),
    "special_rate = 2": ("special_rate", 1, 10), "knight = 14": ("knight", 0, 60), "monopoly = 2": ("monopoly", 0, 20),
    "road_building = 2": ("road_building", 0, 20), "victory_point = 5": ("victory_point", 0, 20),
    "discard_above = 7": ("discard_above", 0, 95), "victory_point_cards = 4": ("victory_point_cards", 0, 100),
    "longest_route_minimum = 5": ("longest_route_minimum", 1, 60),
    "domestic_offers_per_turn = 2": ("domestic_offers_per_turn", 0, 10), "stages = 4": ("stages", 1, 20),
}
PLAYER = textwrap.dedent("""
    import json, sys
    from analyzer.errors import UserError
    from analyzer.seafarers.table import printed_board
    from analyzer.seafarers.table import game_table
    from analyzer.seafarers.full_rules import check_rules_for, load_rules
    from analyzer.seafarers.play import kernel_board, play_on_board
    from analyzer.seafarers.scenarios import load_scenario

    played = []
    for text in json.load(sys.stdin):
        rules = load_rules("edge.toml", text)  # (within the documented ranges: only the checks may refuse)
        for slug in ("pirate-islands", "new-shores", "wonders-of-catan"):
            s = load_scenario(slug, 4)
            try:
                check_rules_for(rules, [s])
            except UserError:
                continue
            out, _ = play_on_board(kernel_board(game_table(s, rules, *printed_board(s))), 1, 0, 2, ("weighted",) * 4)
            played.append(int(out[0].max()))
    print(len(played))
""")


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.fixed_dictionaries({old: st.sampled_from(["low", "high", "default"]) for old in EDGES}),
                min_size=4, max_size=4))
def test_rules_at_the_documented_edges_play_without_crashing(edges):
    """Rules files at the ends of the ranges full_rules.py documents, played in a child process, so that a
    segfault or glibc's abort fails the test instead of killing pytest (one child per example: loading the full
    game's compiled kernels is most of its time). Refused rule sets are skipped (each refusal has its own test
    above); the rest play 2 games by weighted bots on three scenarios each."""
    texts = []
    for choice in edges:
        text = _changed(**{"turn_cap = 1000": "turn_cap = 150"})
        for old, pick in choice.items():
            key, low, high = EDGES[old]
            if pick != "default":
                text = text.replace(old, f"{key} = {low if pick == 'low' else high}", 1)
        try:
            load_rules("edge.toml", text)
        except UserError:
            continue  # e.g. a deck over 100 cards, costs over a tiny bank: refused in one line
        texts.append(text)
    done = subprocess.run([sys.executable, "-c", PLAYER], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=1800, env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    assert done.returncode == 0, done.stderr[-2000:]


# ------------------------------------------------------------------------------------------------ reports
def test_the_play_report_describes_the_rules_in_force_and_names_their_file():
    """With a 3-card bank and no development cards the assumptions say so (they said '19-card bank, 25-card deck'
    whatever the file held); summary.json's rules_data names the file and its sha256."""
    import hashlib

    from analyzer.seafarers.full_game import assumptions, check_play

    text = _changed(**{"per_resource = 19": "per_resource = 3",
                       **{f"{k} = {n}": f"{k} = 0" for k, n in (("knight", 14), ("victory_point", 5),
                                                                ("road_building", 2), ("year_of_plenty", 2),
                                                                ("monopoly", 2))}})
    rules = load_rules("mine.toml", text)
    s = load_scenario("new-shores", 4)
    lines = assumptions(s, check_play("new-shores", 4, ["value"], 1, 0, "random"), "random", rules, rules.source)
    assert lines[0].startswith("Rules data: mine.toml, given with --rules.")
    assert "Bank: 3 cards of each resource. Development deck: 0 cards (no development cards can be bought)." in lines[0]
    assert rules.data_file() == {"file": "mine.toml", "sha256": hashlib.sha256(text.encode()).hexdigest()}
    packaged = assumptions(s, check_play("new-shores", 4, ["value"], 1, 0, "random"), "random", load_rules(),
                           "default")[0]
    assert "Bank: 19 cards of each resource. Development deck: 25 cards (14 knight, 5 victory point" in packaged
    seven = _changed(**{"victory_point_cards = 4": "victory_point_cards = 7"})
    pirates = load_scenario("pirate-islands", 4)
    # the deck's own 5 VP cards as knights ('são mantidas no baralho'); the switch plays [pirates]' count instead
    assert "Development deck: 25 cards (19 knight, 2 road building" in load_rules("mine.toml", seven).describe(pirates)
    assert "Development deck: 27 cards (21 knight, 2 road building" in load_rules(
        "mine.toml", seven, rule=["pirate_four_vp_cards=true"]).describe(pirates)
