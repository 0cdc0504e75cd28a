"""A Meographic rules file (--rules, --variant) and the packaged data are read strictly: an unknown key, a wrong
type, a tile set or a mission that cannot be played is one line naming the file, the entry and what is allowed
(exit 2 from the command line); a UTF-8 byte-order mark is accepted as the other games accept it."""

import hashlib

import pytest

from analyzer.errors import UserError
from analyzer.meographic.rules import default_rules, load_rules
from analyzer.meographic.simulation import meographic_job
from tests.support import one_line_error, run_cli

TYPES = '[[types]]\ncode = "F"\n[[types]]\ncode = "M"\n[[types]]\ncode = "L"\n'
MISSION = '[[missions]]\nid = "x"\nshape = ["FM"]\npoints = 3\n'


@pytest.mark.parametrize("text,needle", [
    # unknown or misspelt keys: the nearest known key
    ('colour = 1\n' + MISSION, "unknown key 'colour' in the top level;"),
    ('[[mission]]\nid = "x"\nshape = ["FM"]\npoints = 3\n', "unknown key 'mission' in the top level; did you mean "
                                                             "'missions'?"),
    ('[[missions]]\nid = "x"\nshape = ["FM"]\npoint = 3\n', "unknown key 'point' in [[missions]] 1; did you mean "
                                                             "'points'?"),
    (TYPES + '[[tiles]]\ntype = "F"\npoints = 1\ncuont = 4\n', "unknown key 'cuont' in [[tiles]] 1; did you mean "
                                                               "'count'?"),
    ('[[types]]\ncode = "F"\nnmae = "x"\n[[types]]\ncode = "M"\n[[types]]\ncode = "L"\n[[tiles]]\ntype = "F"\n'
     'points = 1\n', "unknown key 'nmae' in [[types]] 1; did you mean 'name'?"),
    # wrong types
    ('missions = "FFF"\n', "missions: expected one or more [[missions]] tables, got a text"),
    ('[missions]\nid = "x"\n', "missions: expected one or more [[missions]] tables, got one table"),
    ('types = ["F", "M", "L"]\n[[tiles]]\ntype = "F"\npoints = 1\n', "got a list of values"),
    ('[[missions]]\nid = "x"\nshape = "FM"\npoints = 3\n', "shape must be a list of rows (texts), got 'FM'"),
    ('[[missions]]\nid = "x"\nshapes = ["FM", "MF"]\npoints = 3\n', "shapes must be a list of shapes"),
    ('[[missions]]\nid = "x"\nshape = [["FM"]]\npoints = 3\n', "a shape must be a list of rows (texts), got [['FM']]"),
    ('[[missions]]\nid = ["x"]\nshape = ["FM"]\npoints = 3\n', "id must be a text"),
    ('[options]\ncard_scores_once = false\n' + MISSION, "unknown key 'options' in the top level"),
    ('[[missions]]\nid = "x"\nshape = ["FM"]\nshapes = [["FM"]]\npoints = 3\n', "not both"),
    ('[[missions]]\nid = "x"\npoints = 3\n', "not neither"),
    ('[[missions]]\nid = "x"\nshapes = [["FM"], ["FM"]]\npoints = 3\n', "a shape is given twice"),
    ('[[missions]]\nid = "x"\nshape = ["FM"]\npoints = "3"\n', "points must be a whole number"),
    ('name = 3\n' + MISSION, "name must be a text, got 3"),
    ('source = ["a"]\n' + MISSION, "source must be a text"),
    (TYPES.replace('"M"', '"ñ"') + '[[tiles]]\ntype = "F"\npoints = 1\n', "code must be one letter A-Z"),
    # a tile set that cannot form its piles, a card that can never be completed
    (TYPES + '[[tiles]]\ntype = "F"\npoints = 1\ncount = 3\n', "tiles: the supply needs tiles of 3 distinct types to "
                                                                "stand its 3 piles; the tiles have 1 (F)"),
    (TYPES + '[[tiles]]\ntype = "F"\npoints = 1\n[[tiles]]\ntype = "M"\npoints = 1\n[[tiles]]\ntype = "L"\n'
     'points = 1\n' + '[[missions]]\nid = "x"\nshape = ["FF"]\npoints = 3\n',
     "missions[0] (id x): needs 2 tiles of type F, the tile set has 1: it could never be completed"),
    ('[[missions]]\nid = "x"\nshape = ["F"]\npoints = 3\n', "a shape has 2 to 8 cells, got 1"),
])
def test_a_bad_rules_file_is_one_line_naming_file_key_and_what_is_allowed(tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(UserError) as err:
        load_rules(path)
    message = str(err.value)
    assert "\n" not in message and "bad.toml" in message and needle in message, message


def test_every_shape_of_a_several_shape_card_must_be_completable(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(TYPES + '[[tiles]]\ntype = "F"\npoints = 1\ncount = 2\n[[tiles]]\ntype = "M"\npoints = 1\n'
                    '[[tiles]]\ntype = "L"\npoints = 1\n[[missions]]\nid = "x"\nshapes = [["FF"], ["FFF"]]\n'
                    'points = 3\n', "utf-8")
    with pytest.raises(UserError, match=r"missions\[0\] \(id x\) shape 2: needs 3 tiles of type F"):
        load_rules(path)


def test_a_set_too_small_for_the_set_up_is_refused_for_that_many_players(tmp_path):
    """"Continue comprando até haver 3 pilhas" and "Cada jogador compra aleatoriamente uma peça ... como sua mão
    inicial": 3 pile tiles and a hand each, so 4 players need 7 tiles."""
    path = tmp_path / "six.toml"
    path.write_text(TYPES + '[[tiles]]\ntype = "F"\npoints = 1\ncount = 2\n[[tiles]]\ntype = "M"\npoints = 1\n'
                    'count = 2\n[[tiles]]\ntype = "L"\npoints = 1\ncount = 2\n[[missions]]\nid = "x"\n'
                    'shape = ["FM"]\npoints = 3\n', "utf-8")
    rules = load_rules(path)
    meographic_job(3, "greedy", 1, rules)  # 6 tiles: 3 players fit
    with pytest.raises(UserError, match="4 players need at least 7 tiles .* the tile set has 6"):
        meographic_job(4, "greedy", 1, rules)


def test_a_byte_order_mark_is_accepted_and_the_file_named_with_its_sha256(tmp_path):
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(MISSION, "utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + MISSION.encode("utf-8"))
    a, b = load_rules(plain), load_rules(marked)
    assert a.data == b.data and [m.id for m in b.missions] == ["x"]
    assert b.rules_data == {"file": "marked.toml", "sha256": a.rules_data["sha256"]}
    assert a.rules_data == {"file": "plain.toml", "sha256": hashlib.sha256(plain.read_bytes()).hexdigest()}
    assert default_rules().rules_data["file"] == "packaged"


def test_the_packaged_files_are_read_strictly_too():
    """The packaged data go through the same reader (an unknown key there would be a bug of ours)."""
    rules = default_rules()
    assert len(rules.missions) == 15 and rules.n_tiles == 100 and rules.values == {"card_scores_once": True}


@pytest.mark.parametrize("rule,needle", [
    (["card_scores_onse=false"], "unknown rule option 'card_scores_onse'"),
    (["card_scores_once=maybe"], "--rule card_scores_once: expected true or false"),
    (["card_scores_once"], "expected NAME=VALUE"),
])
def test_a_bad_rule_switch_is_one_line(rule, needle):
    with pytest.raises(UserError, match=needle):
        load_rules(rule=rule)


@pytest.mark.parametrize("option", ["--rules", "--variant"])
def test_file_errors_name_the_option_that_gave_the_file(tmp_path, capsys, option):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    command = "simulate" if option == "--rules" else "compare"
    for path, needle in ((tmp_path / "missing.toml", f"{option} file not found"), (bad, "not UTF-8")):
        code, _, err = run_cli(["meographic", command, option, str(path), "--out", str(tmp_path / "o"),
                                "--no-progress"], capsys)
        assert one_line_error(code, err, needle), err
        assert "--rules" not in err or option == "--rules", err


def test_the_cli_switches_a_rule_and_refuses_an_unknown_one(tmp_path, capsys):
    code, _, err = run_cli(["meographic", "simulate", "--rule", "card_scores_onse=false", "--out",
                            str(tmp_path / "o"), "--no-progress"], capsys)
    assert one_line_error(code, err, "unknown rule option 'card_scores_onse'"), err
