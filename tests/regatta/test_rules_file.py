"""--rules and --variant files read strictly: an unknown key names the file, the key and the nearest known key;
a wrong type, a rule switch that is not yes/no and rules no race can be played under are one line each (exit 2),
never a traceback and never silently ignored."""

import pytest

from analyzer.errors import UserError
from analyzer.regatta import rules as rules_module
from tests.support import one_line_error, run_cli


def refused(tmp_path, text, flag="--rules"):
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(UserError) as err:
        rules_module.load(path, flag)
    return str(err.value)


@pytest.mark.parametrize("text, key, place, near", [
    ("[limits]\nturn_capp = 50\n", "turn_capp", "[limits]", "turn_cap"),
    ("[grid]\nrow = 7\n", "row", "[grid]", "rows"),
    ("[hands]\ndeal = 4\n", "hands", "the top level", "hand"),
    ('tile = [{ pile = "goal", open = "ESW", count = 4, se = true }]\n', "se", "[[tile]] 1", "sea"),
    ('action = [{ name = "a", action = ["advance_one"], count = 40 }]\n', "action", "[[action]] 1", "actions"),
    ("[options.reshuffle_at_onse]\ndefault = false\n", "reshuffle_at_onse", "[options]", "reshuffle_at_once"),
    ("[options.reshuffle_at_once]\ndefualt = false\n", "defualt", "[options.reshuffle_at_once]", "default"),
])
def test_an_unknown_key_names_the_file_the_key_and_the_nearest(tmp_path, text, key, place, near):
    message = refused(tmp_path, text)
    assert message == f"--rules {tmp_path / 'r.toml'}: unknown key {key!r} in {place}; did you mean {near!r}?"


@pytest.mark.parametrize("text, fragment", [
    ('grid = "6x4"\n', "[grid] must be a table"),
    ("hand = [1, 2]\n", "[hand] must be a table"),
    ("[tile]\npile = 'river'\n", "tile must be a list of tables"),
    ('action = ["advance_one"]\n', "action must be a list of tables"),
    ("options = 3\n", "[options] must be a table"),
    ("[options]\nreshuffle_at_once = false\n", "[options.reshuffle_at_once] must be a table"),
    ("[options.reshuffle_at_once]\ndefault = 'no'\n", "options.reshuffle_at_once.default = 'no' must be true or false"),
    ("[grid]\nrows = '6'\n", "rows = '6' must be a whole number"),
    ('action = [{ name = 3, actions = ["advance_one"], count = 40 }]\n', "name = 3 must be text"),
])
def test_a_wrong_type_is_one_line(tmp_path, text, fragment):
    assert fragment in refused(tmp_path, text)


@pytest.mark.parametrize("text, fragment", [
    ('tile = [{ pile = "river", open = "rock", count = 16 }, { pile = "goal", open = "ESW", count = 3 }, '
     '{ pile = "goal", open = "ESW", count = 1, sea = true }, { pile = "start", open = "NS", count = 4 }]\n',
     "no boat can cross the river"),
    ('tile = [{ pile = "river", open = "NS", count = 16 }, { pile = "goal", open = "ESW", count = 3 }, '
     '{ pile = "goal", open = "N", count = 1, sea = true }, { pile = "start", open = "NS", count = 4 }]\n',
     "no boat can enter it"),
    ('tile = [{ pile = "river", open = "NS", count = 16 }, { pile = "goal", open = "EW", count = 3 }, '
     '{ pile = "goal", open = "EW", count = 1, sea = true }, { pile = "start", open = "NS", count = 4 }]\n',
     "no goal tile opens S"),
    ('tile = [{ pile = "river", open = "NS", count = 16 }, { pile = "goal", open = "ESW", count = 3 }, '
     '{ pile = "goal", open = "ESW", count = 1, sea = true }, { pile = "start", open = "S", count = 4 }]\n',
     "no boat can leave the start row"),
    ('action = [{ name = "turn", actions = ["rotate"], count = 40 }]\n', "no card advances a boat"),
    ("event = []\n", "the event deck has no cards"),
    ("[hand]\ndraw_to = 6\n", "draw_to = 6 is more than limit = 5"),
    ("[hand]\nplays = 0\n", "plays = 0 must be a whole number from 1"),
    ('action = [{ name = "a", actions = ["advance_one"], count = 20 }, { name = "s", actions = ["swap_any"], '
     'count = 10 }, { name = "s2", actions = ["swap_any", "rotate"], count = 10 }]\n[grid]\nrows = 12\ncols = 8\n'
     '[[tile]]\npile = "river"\nopen = "NESW"\ncount = 80\nmark = "event"\n[[tile]]\npile = "goal"\n'
     'open = "ESW"\ncount = 8\nsea = true\n[[tile]]\npile = "start"\nopen = "NS"\ncount = 8\n',
     "the engine holds 4,096"),
])
def test_rules_no_race_can_be_played_under_are_refused(tmp_path, text, fragment):
    assert fragment in refused(tmp_path, text)


def test_the_deck_must_deal_every_hand(tmp_path, capsys):
    """"Reparte 5 cartas de acción ... a cada jugador": 12 cards cannot deal 5 to each of 3 players."""
    path = tmp_path / "small.toml"
    path.write_text('action = [{ name = "advance one", actions = ["advance_one"], count = 12 }]\n')
    code, _, err = run_cli(["regatta", "simulate", "--players", "3", "--rules", str(path), "--games", "3", "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "12 action cards cannot deal 5 to each of 3 players"), err
    code, _, err = run_cli(["regatta", "simulate", "--players", "2", "--rules", str(path), "--games", "3",
                            "--no-progress", "--threads", "1", "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err


def test_cli_errors_name_the_option_of_the_file(tmp_path, capsys):
    """An unknown key is exit 2 and one line; a --variant file's errors name --variant, not --rules."""
    path = tmp_path / "v.toml"
    path.write_text("[limits]\nturn_capp = 50\n")
    code, _, err = run_cli(["regatta", "simulate", "--rules", str(path), "--games", "3", "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "--rules"), err
    assert "'turn_capp' in [limits]; did you mean 'turn_cap'?" in err
    code, _, err = run_cli(["regatta", "compare", "--variant", str(path), "--games", "3", "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, f"--variant {path}: unknown key 'turn_capp'"), err
    code, _, err = run_cli(["regatta", "compare", "--variant", str(tmp_path / "none.toml"), "--games", "3", "--out",
                            str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "--variant"), err and "--rules" not in err


@pytest.mark.parametrize("rule, fragment", [
    (["reshuffle_at_once=maybe"], "expected true or false"),
    (["reshufle_at_once=true"], "unknown rule option 'reshufle_at_once'"),
    (["reshuffle_at_once"], "expected NAME=VALUE"),
])
def test_a_bad_rule_switch_is_one_line(rule, fragment):
    with pytest.raises(UserError, match=fragment):
        rules_module.load(rule=rule)


def test_a_rules_file_sets_a_switch(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text("[options.reshuffle_at_once]\ndefault = false\n")
    assert rules_module.load(path).chosen == {"reshuffle_at_once": False, "team_deal_at_limit": False}
    assert rules_module.load(path, rule=["reshuffle_at_once=true"]).chosen["reshuffle_at_once"] is True
