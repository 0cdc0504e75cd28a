"""The Python API of every game: one documented function per command, returning tables, and with
`out=DIR` writing what the command's --out writes (issue 33)."""

import json

import polars as pl
import pytest

from analyzer import beacon, seafarers
from analyzer.errors import UserError


def _written(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_beacon_simulate_and_compare_write_what_the_cli_writes(tmp_path, capsys):
    from tests.support import run_cli

    result = beacon.simulate(players=2, games=60, seed=4, out=tmp_path / "api")
    code, _, err = run_cli(["beacon", "simulate", "--players", "2", "--games", "60", "--seed", "4", "--no-progress",
                            "--out", str(tmp_path / "cli")], capsys)
    assert code == 0, err
    assert _written(tmp_path / "api") == _written(tmp_path / "cli")
    assert isinstance(result.games, pl.DataFrame) and result.summary["bot"]["label"] == "lookahead"
    api_games, cli_games = (pl.read_parquet(tmp_path / d / "games.parquet") for d in ("api", "cli"))
    assert api_games.equals(cli_games)

    result = beacon.compare(["random", "greedy"], games=30, seed=4, out=tmp_path / "cmp")
    assert {"games.parquet", "summary.json", "report.md", "report.html", "paired_differences.png"} <= set(
        _written(tmp_path / "cmp"))
    assert json.loads((tmp_path / "cmp" / "summary.json").read_text())["pairs"] == result.summary["pairs"]


def test_seafarers_functions_mirror_the_commands(tmp_path):
    assert {s["slug"] for s in seafarers.catalog()} >= {"new-shores", "four-islands"}
    dealt = seafarers.run_boards("new-shores", players=4, count=3, seed=1, out=tmp_path / "boards")
    assert dealt.boards["board"].n_unique() == 3
    assert _written(tmp_path / "boards") == ["board.png", "boards.parquet", "harbours.parquet", "summary.json"]
    bal = seafarers.run_balance("new-shores", players=3, boards=3, rolls=10, sequences=4, seed=1,
                                out=tmp_path / "bal")
    assert bal.seats.height == 9 and (tmp_path / "bal" / "report.html").exists()
    assert seafarers.run_dice(70_000, seed=1)["rolls"] == 70_000
    assert seafarers.run_fortress(3, battles=1000, seed=1)["warships"] == 3
    race = seafarers.run_pirates(players=3, games=20, seed=1, plans=["ships-first"], out=tmp_path / "race")
    assert race.games.height > 0 and (tmp_path / "race" / "report.md").exists()


def test_a_bad_out_is_refused_before_any_game(tmp_path):
    (tmp_path / "taken").mkdir()
    beacon.simulate(games=5, out=tmp_path / "taken")
    with pytest.raises(UserError, match="holds the results of `tabletop beacon simulate`"):
        seafarers.run_balance("new-shores", boards=2, rolls=5, out=tmp_path / "taken")
    with pytest.raises(UserError, match=r"beacon.compare: out must be a path \(text or a Path, not empty\)"):
        beacon.compare(["random", "greedy"], games=5, out="")
