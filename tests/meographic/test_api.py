"""The Python API (analyzer.meographic.api: simulate, compare) checks every argument before anything is read or
played, as the command line does: a wrong type, an unknown keyword or a value out of range is one UserError
naming the argument; the caller's stderr stays open. Tables hold the columns of the seats that play."""

import hashlib
import os
import sys
from pathlib import Path

import pytest

from analyzer.errors import UserError
from analyzer.meographic import api

BAD = [
    ({"rules": 2}, "--rules must be a file or folder path"),  # an int would be read as file descriptor 2
    ({"rules": True}, "--rules must be a file or folder path"),
    ({"rules": ""}, "--rules: an empty path"),
    ({"out": 3}, "out must be a file or folder path"),
    ({"bots": None}, "--bots must be a text"),
    ({"bots": []}, "--bots: give at least one bot"),
    ({"bots": ["greedy", 3]}, "--bots must be a text 'a,b' or a list of texts"),
    ({"players": "2"}, "--players must be a whole number"),
    ({"players": 5}, "--players must be 1 to 4"),
    ({"seed": 1.5}, "--seed must be a whole number"),
    ({"games": "10"}, "--games must be a whole number"),
    ({"games": 0}, "--games must be at least 1"),
    ({"rule": 5}, "--rule must be \"NAME=VALUE\""),
    ({"rule": ["card_scores_once=no", 1]}, "--rule must be \"NAME=VALUE\""),
    ({"rule": ["no_such=true"]}, "unknown rule option 'no_such'"),
    ({"command": 7}, "command must be a text"),
    ({"threads": "2"}, "--threads must be a whole number"),
    ({"scheduler": 5}, "--scheduler must be a text"),
    ({"checkpoint": 5}, "--checkpoint must be a file or folder path"),
    ({"colour": "red"}, "unknown option 'colour'"),
]


@pytest.mark.parametrize("function", [api.simulate, api.compare])
@pytest.mark.parametrize("kwargs,needle", BAD)
def test_a_bad_argument_is_one_user_error_naming_it(function, kwargs, needle, tmp_path):
    if "bots" not in kwargs and function is api.compare:
        kwargs = {"bots": "planner,greedy", **kwargs}
    out = tmp_path / "never"
    with pytest.raises(UserError) as err:
        function(**{"out": out, **kwargs})
    assert needle in str(err.value) and "\n" not in str(err.value), str(err.value)
    assert not out.exists()


def test_compare_checks_its_variant_too(tmp_path):
    with pytest.raises(UserError, match="--variant must be a file or folder path"):
        api.compare(variant=2)
    with pytest.raises(UserError, match="--variant file not found"):
        api.compare(variant=tmp_path / "missing.toml")


def test_an_int_for_a_path_leaves_the_callers_stderr_open():
    """simulate(rules=2) once read file descriptor 2 as the rules file and closed it."""
    with pytest.raises(UserError):
        api.simulate(rules=2)
    os.fstat(2)  # raises OSError if fd 2 was closed
    print("still open", file=sys.stderr)


def test_solo_tables_hold_one_seat_and_the_rules_and_a_switch_reach_the_summary():
    got = api.simulate(players=1, bots="greedy", games=8, seed=3, threads=1, progress=False,
                       rule=["card_scores_once=false"])
    cols = got.games.columns
    assert "score_1" in cols and not any(c.endswith(("_2", "_3", "_4")) for c in cols if not c.startswith(
        ("completed_", "revealed_")))
    assert "bag_out" in cols and got.summary["rule_options"] == {"card_scores_once": False}
    data = Path(api.__file__).parent / "data"
    packaged = (data / "tiles.toml").read_bytes() + (data / "missions.toml").read_bytes()
    assert got.summary["rules_data"] == {"file": "packaged", "sha256": hashlib.sha256(packaged).hexdigest()}
    assert any("card_scores_once=false" in a for a in got.summary["assumptions"])
    assert not any(a.startswith("ties") for a in got.summary["assumptions"])  # solo: no ties to split
    two = api.simulate(players=2, bots="greedy", games=4, seed=3, threads=1, progress=False)
    assert {"score_1", "score_2", "win_2"} <= set(two.games.columns) and "score_3" not in two.games.columns
    assert two.headline.startswith("With greedy in every seat, seat 1 wins") and "95% CI" in two.headline
