"""`seafarers pirates --rules FILE`: every problem of a rules file is one line naming the file, the key and the
allowed range, exit 2, before any game (analyzer/rules_file.py). Before, these ended in OverflowError (2**63 and
more), ZeroDivisionError (an empty deck), or ran for hours (millions of knights), or were accepted (2**63 - 1)."""

import pytest

from analyzer.seafarers.pirates import rules_path
from tests.support import run_cli

SEED = rules_path().read_text(encoding="utf-8")
EMPTY_DECK = {"knight = 14": "knight = 0", "victory_point = 4": "victory_point = 0", "road_building = 2":
              "road_building = 0", "year_of_plenty = 2": "year_of_plenty = 0", "monopoly = 2": "monopoly = 0"}


def _changed(**replace) -> str:
    text = SEED
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("text, fragment", [
    (_changed(**{"ship = [1, 0, 1, 0, 0]": f"ship = [{2**63}, 0, 1, 0, 0]"}),
     "costs.ship[0] must be a whole number from 0 to 19 (the bank holds 19 of each resource), got about 10**18"),
    (_changed(**{"ship = [1, 0, 1, 0, 0]": f"ship = [{2**63 - 1}, 0, 1, 0, 0]"}), "costs.ship[0] must be"),
    (_changed(**{"city = [0, 0, 0, 2, 3]": "city = [0, 0, 0, 2, 20]"}), "costs.city[4] must be"),
    (_changed(**{"ship = [1, 0, 1, 0, 0]": "ship = [1, 0, 1]"}), "costs.ship must list 5 card counts"),
    (_changed(**{"ships = 15": f"ships = {10**20}"}), "supply.ships must be a whole number from 1 to 60"),
    (_changed(**{"settlements = 5": f"settlements = {10**20}"}), "supply.settlements must be a whole number from 1 "
                                                                 "to 20"),
    (_changed(**{"cities = 4": f"cities = {10**20}"}), "supply.cities must be a whole number from 0 to 16"),
    (_changed(**{"rate = 4": f"rate = {10**20}"}), "bank.rate must be a whole number from 2 to 19"),
    (_changed(**{"rate = 4": 'rate = "4"'}), "bank.rate must be a whole number from 2 to 19"),
    (_changed(**{"knight = 14": f"knight = {10**20}"}), "development_deck.knight must be a whole number from 0 to 50"),
    (_changed(**{"knight = 14": "knight = 3000000"}), "got 3000000"),  # ran past 5 minutes
    (_changed(**{"knight = 14": "knight = 1.5"}), "development_deck.knight must be a whole number"),
    (_changed(**{"knight = 14": "knight = true"}), "development_deck.knight must be a whole number"),
    (_changed(**{"knight = 14": "knight = 50", "monopoly = 2": "monopoly = 50"}), "holds 108 cards; it must hold "
                                                                                  "from 1 to 100"),
    (_changed(**EMPTY_DECK), "the development_deck must hold at least 1 card besides the victory_point cards"),
    (_changed(**{k: v for k, v in EMPTY_DECK.items() if k != "victory_point = 4"}), "besides the victory_point"),
    (_changed(**{"[bank]": "[banks]"}), "unknown key 'banks' in the top level; did you mean 'bank'?"),
    ("[costs\n", "rules.toml: invalid TOML"),
])
def test_bad_rules_files_give_one_line_naming_file_key_and_range(tmp_path, capsys, text, fragment):
    rules = tmp_path / "rules.toml"
    rules.write_text(text, encoding="utf-8")
    code, _, err = run_cli(["seafarers", "pirates", "--games", "3", "--rules", str(rules),
                            "--out", str(tmp_path / "o")], capsys)
    assert (code, err.count("\n")) == (2, 1) and err.startswith("error: rules.toml: "), err
    assert fragment in err
    assert not (tmp_path / "o").exists()  # refused before any game


@pytest.mark.parametrize("data, fragment", [
    (b"\xff\xfe" + SEED.encode("utf-8"), "rules.toml: not UTF-8 text (bad byte at offset 0)"),
    (SEED.encode("utf-16"), "rules.toml: not UTF-8 text"),
    (SEED.encode("latin-1"), "rules.toml: not UTF-8 text"),  # the quotes' accents
])
def test_a_rules_file_that_is_not_utf8_is_one_line(tmp_path, capsys, data, fragment):
    rules = tmp_path / "rules.toml"
    rules.write_bytes(data)
    code, _, err = run_cli(["seafarers", "pirates", "--games", "3", "--rules", str(rules),
                            "--out", str(tmp_path / "o")], capsys)
    assert (code, err.count("\n")) == (2, 1) and fragment in err, err


def test_the_largest_allowed_numbers_play(tmp_path, capsys):
    """The bounds are what the pieces allow, not tighter: the dearest items and the largest supply play to the end."""
    text = _changed(**{"ship = [1, 0, 1, 0, 0]": "ship = [19, 19, 19, 19, 19]", "ships = 15": "ships = 60",
                       "settlements = 5": "settlements = 20", "cities = 4": "cities = 16", "rate = 4": "rate = 19",
                       "knight = 14": "knight = 50", "monopoly = 2": "monopoly = 42"})
    rules = tmp_path / "rules.toml"
    rules.write_text(text, encoding="utf-8")
    code, _, err = run_cli(["seafarers", "pirates", "--games", "3", "--max-rounds", "50", "--rules", str(rules),
                            "--out", str(tmp_path / "o"), "--no-progress"], capsys)
    assert code == 0, err
