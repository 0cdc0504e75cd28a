"""The Python API (analyzer.regatta.simulate, compare) checks every argument before any race: one UserError
naming the argument, never a traceback from deep inside; and its summary says which rules it played."""

from pathlib import Path

import pytest

from analyzer import regatta
from analyzer.errors import UserError

BAD = [
    ({"players": "3"}, "--players must be a whole number"),
    ({"players": True}, "--players must be a whole number"),
    ({"players": 9}, "--players 9"),
    ({"bots": None}, "--bots must be a text"),
    ({"bots": 3}, "--bots must be a text"),
    ({"bots": []}, "--bots: give at least one bot"),
    ({"bots": ["greedy", 2]}, "--bots must be a text"),
    ({"bots": "clever"}, "clever"),
    ({"games": "10"}, "--games must be a whole number"),
    ({"games": 2.5}, "--games must be a whole number"),
    ({"games": 0}, "--games must be at least 1"),
    ({"seed": -1}, "--seed must be between 0"),
    ({"seed": "1"}, "--seed must be a whole number"),
    ({"out": 5}, "--out must be a path"),
    ({"out": ""}, "--out must be a path"),
    ({"command": 5}, "command must be the command line as text"),
    ({"rule": 5}, "--rule must be 'NAME=VALUE'"),
    ({"rule": ["nope=true"]}, "unknown rule option 'nope'"),
    ({"threads": 0}, "--threads must be"),
    ({"treads": 2}, "unknown option 'treads'"),
]


@pytest.mark.parametrize("kwargs, fragment", BAD + [
    ({"team": "yes"}, "--team must be True or False"),
    ({"team": True, "players": 3}, "--team"),
    ({"rules": 5}, "--rules must be a path"),
    ({"rules": ["a.toml"]}, "--rules must be a path"),
    ({"rules": "no-such-file.toml"}, "--rules no-such-file.toml: cannot read it"),
])
def test_simulate_names_the_bad_argument(kwargs, fragment, tmp_path):
    with pytest.raises(UserError, match=fragment.replace("(", r"\(").replace("[", r"\[")):
        regatta.simulate(**{"games": 3, "out": tmp_path / "o", **kwargs})
    assert not list(tmp_path.iterdir())  # refused before the results folder is made


@pytest.mark.parametrize("kwargs, fragment", BAD + [
    ({"variant": 5}, "--variant must be a path"),
    ({"variant": Path("no-such-file.toml")}, "--variant no-such-file.toml: cannot read it"),
    ({"bots": "greedy"}, "give two bots"),
])
def test_compare_names_the_bad_argument(kwargs, fragment):
    with pytest.raises(UserError, match=fragment.replace("(", r"\(").replace("[", r"\[")):
        regatta.compare(**{"games": 3, **kwargs})


def test_summary_records_the_rules_and_their_hash(tmp_path):
    """summary.json names the rules file and its sha256 as rules_data ("packaged" and the packaged files' sha256
    without one), the switches as rule_options, and the assumptions follow the rules in force: a 5x3 grid is
    reported as 5x3."""
    import hashlib

    data = Path(regatta.__file__).parent / "data"
    packaged = b"".join((data / name).read_bytes() for name in ("rules.toml", "tiles.toml", "cards.toml"))
    r = regatta.simulate(games=4, threads=1, progress=False)
    assert r.summary["rules_data"] == {"file": "packaged", "sha256": hashlib.sha256(packaged).hexdigest()}
    assert r.summary["rule_options"] == {"reshuffle_at_once": True, "team_deal_at_limit": False}
    assert "rules" not in r.summary
    assert r.summary["assumptions"][0].startswith("grid 6x4")
    small = tmp_path / "small.toml"
    small.write_text('tile = [{ pile = "river", open = "NS", count = 6, mark = "event" }, '
                     '{ pile = "river", open = "NESW", count = 3, mark = "effect" }, '
                     '{ pile = "goal", open = "ESW", count = 2 }, '
                     '{ pile = "goal", open = "ESW", count = 1, sea = true }, '
                     '{ pile = "start", open = "NS", count = 3 }]\n[grid]\nrows = 5\ncols = 3\n')
    r = regatta.simulate(games=4, threads=1, progress=False, rules=small, rule=["reshuffle_at_once=false"])
    assert r.summary["rules_data"] == {"file": "small.toml", "sha256": hashlib.sha256(small.read_bytes()).hexdigest()}
    assert r.summary["rule_options"]["reshuffle_at_once"] is False
    text = " ".join(r.summary["assumptions"])
    assert "grid 5x3" in text and "6x4" not in text and "9 of the 15 tiles draw a card" in text
    assert "--rules" in r.summary["command"] and "--rule reshuffle_at_once=false" in r.summary["command"]
    variant = data / "variants" / "marked_tiles.toml"
    c = regatta.compare(games=4, threads=1, progress=False, variant=variant, out=tmp_path / "c")
    assert c.summary["rules_data"]["file"] == "packaged" and c.summary["rule_options"]["reshuffle_at_once"] is True
    assert c.summary["variant_rules_data"] == {"file": "marked_tiles.toml",
                                               "sha256": hashlib.sha256(variant.read_bytes()).hexdigest()}
    assert set(c.summary["variant_rule_options"]) == set(c.summary["rule_options"])
    reproduce = (tmp_path / "c" / "report.md").read_text("utf-8").split("## Reproduce")[1]
    assert f"variant: marked_tiles.toml (sha256 {c.summary['variant_rules_data']['sha256'][:12]})" in reproduce


def test_the_report_opens_with_the_answer_and_ends_with_reproduce(tmp_path):
    """The first line answers which bot (or seat) wins, with its share, CI and the bots; the report closes with
    the exact command, and calls the rulebook by name (never "seed 003" beside --seed)."""
    out = tmp_path / "o"
    r = regatta.simulate(players=2, bots="greedy,random", games=40, seed=2, threads=1, progress=False, out=out)
    md = (out / "report.md").read_text("utf-8")
    first = md.splitlines()[0]
    assert first == f"# {r.headline}" and first.startswith("# greedy wins most: ") and "95% CI" in first
    assert "fair share 50.0%" in first and "against random" in first
    reproduce = md.split("## Reproduce")[1]
    assert "tabletop regatta simulate --players 2 --bots greedy,random --games 40 --seed 2 --out" in reproduce
    assert f"rules: the packaged rules data (analyzer/regatta/data, sha256 {r.summary['rules_data']['sha256'][:12]})" \
        in reproduce and "seed 003" not in md
    assert "races won (%)" in md and "95% CI (%)" in md
    one = regatta.simulate(players=3, bots="greedy", games=20, seed=2, threads=1, progress=False)
    assert one.headline.startswith("Seat ") and "greedy in every seat" in one.headline
