"""Beacon Patrol's rules data and tile sets read strictly (analyzer/beacon/rules.py, tiles.py): an unknown key, a
number the kernel cannot hold (a hand of more than kb.MAX_HAND tiles, other than N_RANKS rank bands) and a tile
set that cannot form the set-up's piles are each one line naming the file and the key or row, exit 2."""

from importlib import resources

import pytest

from analyzer.beacon.rules import N_RANKS, OPTION_CFG, load_rules, parse_rules
from analyzer.beacon.tiles import COLUMNS, check_piles, load_tiles, parse_tiles
from analyzer.errors import UserError
from kernels import beacon as kb
from tests.support import one_line_error, run_cli

TEXT = resources.files("analyzer.beacon").joinpath("data/rules.toml").read_text("utf-8")
HEADER = ",".join(COLUMNS)


def test_the_packaged_rules_and_tiles_load():
    """The packaged files are the test that the allowed keys are complete."""
    rules = load_rules()
    assert set(rules.options) == set(OPTION_CFG) and len(rules.rank_names) == len(rules.rank_names_pt) == N_RANKS
    assert max(rules.hand_size.values()) <= kb.MAX_HAND
    tiles = load_tiles()
    for players in range(1, kb.MAX_PLAYERS + 1):
        check_piles(tiles, players, (), rules.hand_size[players])


@pytest.mark.parametrize("old, new, fragment", [
    ("[points]\n", "[points]\nlighthouses = 4\n", "rules.toml: unknown key 'lighthouses' in [points]; did you mean "
                                                 "'lighthouse'?"),
    ("[ranks]", "[rank]", "rules.toml: unknown key 'rank' in the top level; did you mean 'ranks'?"),
    ("default = false\nfalse", "default = false\ndefualt = true\nfalse",
     "unknown key 'defualt' in [options.solo_keep_on_empty_pile]; did you mean 'default'?"),
    ("[options.solo_keep_on_empty_pile]", "[options.solo_keep]\ndefault = true\ntrue = 'a'\nfalse = 'b'\n"
                                          "[options.solo_keep_on_empty_pile]",
     "unknown key 'solo_keep' in [options]; did you mean 'solo_keep_on_empty_pile'?"),
    ("hand_size = { 1 = 3,", "hand_size = { 1 = 4,", "players.hand_size.1 must be a whole number from 1 to 3 (the "
                                                     "kernel holds 3 tiles a hand), got 4"),
    ("move_tokens = { 1 = 4, 2 = 3, 3 = 3, 4 = 2 }", "move_tokens = { 1 = 4, 2 = 3, 3 = 3 }",
     "players.move_tokens must give a value for each player count (1, 2, 3, 4)"),
    ('names = ["Novices", ', 'names = [', "ranks.names must list 5 names"),
    ("lower_bounds = [0, 26, 36, 46, 56]", "lower_bounds = [0, 36, 26, 46, 56]", "must start at 0 and rise"),
    ("buoy = 2", "buoy = 2.5", "points.buoy must be a whole number from 0 to 10"),
])
def test_a_bad_rules_file_is_one_line_naming_the_key(old, new, fragment):
    assert old in TEXT
    with pytest.raises(UserError) as caught:
        parse_rules(TEXT.replace(old, new, 1))
    message = str(caught.value)
    assert fragment in message and "\n" not in message, message


def _tiles(tmp_path, rows: list[str]):
    path = tmp_path / "tiles.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("rows, args, fragment", [
    (["h,~,~,~,~,hq,,,"], [], "tiles.csv: the draw pile without expansions holds 0 tile(s); 1 player(s) draw 3 each "
                              "at the start, 3 in all"),
    (["h,~,~,~,~,hq,,,"] + [f"t{i},~,~,~,~,buoy,,," for i in range(7)], ["--players", "4"],
     "the draw pile without expansions holds 7 tile(s); 4 player(s) draw 2 each at the start, 8 in all"),
    (["h,~,~,~,~,hq,,,", "a,~,~,~,~,none,,,"] + [f"w{i},~,~,~,~,windmill,,," for i in range(5)],
     ["--expansions", "windmills", "--players", "3"], "the draw pile with windmills holds 6 tile(s); 3 player(s)"),
    (["h,A,A,A,A,hq,,,"] + [f"t{i},~,~,~,~,buoy,,," for i in range(9)], [],
     "tiles.csv: row 2 (id h): the hq tile has land on all four edges"),
    (["h,~,~,~,~,hq,,,"], ["--players", "2"], "2 player(s) draw 3 each"),
])
def test_a_tile_set_that_cannot_form_its_piles_is_refused(tmp_path, capsys, rows, args, fragment):
    code, _, err = run_cli(["beacon", "simulate", "--games", "5", "--tiles", str(_tiles(tmp_path, rows)),
                            "--no-progress", "--out", str(tmp_path / "o"), *args], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


def test_the_smallest_tile_set_that_forms_its_piles_plays(tmp_path, capsys):
    rows = ["h,~,~,~,~,hq,,,"] + [f"t{i},~,~,~,~,buoy,,," for i in range(8)]
    code, _, err = run_cli(["beacon", "simulate", "--games", "5", "--players", "4", "--tiles",
                            str(_tiles(tmp_path, rows)), "--no-progress", "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err


def test_a_misspelt_column_names_the_column_meant():
    with pytest.raises(UserError, match=r"row 1 \(header\): unknown column 'feature_'; did you mean 'feature'\?"):
        parse_tiles(HEADER.replace("feature", "feature_") + "\nh,~,~,~,~,hq,,,\n", "t.csv")
