"""Regatta jobs through the runner: options checked before any game, results independent of threads and
chunks, bots compared on common random numbers."""

import pickle

import numpy as np
import polars as pl
import pytest

from analyzer.errors import UserError
from analyzer.regatta.simulation import regatta_job
from analyzer.runner import RunOptions, run_job


@pytest.mark.parametrize("players, bots, team, message", [
    (5, ["greedy"], False, "--players 5"),
    (3, ["greedy"], True, "--team"),
    (3, ["greedy", "random"], False, "--bots names 2 bots for 3 players"),
    (2, ["clever"], False, "clever"),
])
def test_bad_options_are_one_line(players, bots, team, message):
    with pytest.raises(UserError, match=message):
        regatta_job(players, bots, seed=1, team=team)


def test_games_never_depend_on_threads_or_chunks():
    job = pickle.loads(pickle.dumps(regatta_job(3, ["greedy", "random", "blocker"], seed=4)))
    one = run_job(job, RunOptions(games=12, threads=1, chunk_size=12)).columns
    two = run_job(job, RunOptions(games=12, threads=2, chunk_size=5)).columns
    np.testing.assert_array_equal(one, two)
    assert ((one[0] >= 0) | (one[2] == 1)).all()


def test_team_variant_has_two_boats():
    cols = run_job(regatta_job(4, ["greedy"], seed=2, team=True), RunOptions(games=20, threads=1)).columns
    assert set(cols[0]) <= {-1, 0, 1}
    assert (cols[-2:] == -1).all()  # no third or fourth boat


def test_compare_rotates_seats():
    """greedy against itself (`regatta compare`): every seating plays the same races, so "a" wins a race in exactly
    one of the two seatings: its share is exactly 1/2 of the races that have a winner, its edge that less 1/2."""
    from analyzer.regatta import compare, simulate

    result = compare(players=2, bots="greedy,greedy", games=40, seed=3, threads=1, progress=False)
    won = (simulate(players=2, bots="greedy", games=40, seed=3, threads=1, progress=False).columns[0] >= 0).mean()
    summary = result.summary
    assert summary["share"] == pytest.approx(0.5 * won)
    assert summary["edge"]["n"] == 40 and summary["edge"]["mean"] == pytest.approx(summary["share"] - 0.5)
    seatings = [result.games.filter(pl.col("seat_of_a") == s).drop("seat_of_a") for s in (1, 2)]
    assert seatings[0].height == 40 and seatings[0].equals(seatings[1])  # the same races in both seatings


def test_compare_rules_pairs_games(tmp_path):
    """`regatta compare --variant`: the same rules on both sides give every race identical, a difference of exactly
    0 turns; fewer negate cards give other races, paired race by race."""
    from importlib import resources

    from analyzer.regatta import compare

    cards = resources.files("analyzer.regatta") / "data" / "cards.toml"
    same = compare(players=2, bots="greedy", games=30, seed=1, variant=str(cards), threads=1, progress=False)
    assert same.summary["diff"]["mean_diff"] == 0
    sides = [same.games.filter(pl.col("variant") == k).drop("variant") for k in (0, 1)]
    assert sides[0].height == 30 and sides[0].equals(sides[1])
    text = cards.read_text("utf-8")
    negate = '{ name = "negate", actions = ["negate"], count = 4 }'
    assert negate in text
    fewer = tmp_path / "fewer_negate.toml"
    fewer.write_text(text.replace(negate, negate.replace("count = 4", "count = 2")), "utf-8")
    other = compare(players=2, bots="blocker", games=30, seed=1, variant=str(fewer), threads=1, progress=False)
    turns = [other.games.filter(pl.col("variant") == k)["turns"].mean() for k in (0, 1)]
    assert other.summary["diff"]["n"] == 30 and turns[0] != turns[1]


def test_path_tracks_replay_the_same_races():
    """A path is recorded when the boats are placed and after every turn that does not end the race: as
    many as the race's turns (+1 when it was won, not capped), so the replayed races are the ones played."""
    from analyzer.regatta.simulation import path_tracks

    job = regatta_job(2, ["greedy", "planner:beam=2,depth=2"], seed=6)
    cols = run_job(job, RunOptions(games=30, threads=1)).columns
    tracks = path_tracks(job.spec, 30, 400)
    recorded = (tracks[:, :, 0] >= 0).sum(axis=1)
    np.testing.assert_array_equal(recorded, cols[1] + 1 - cols[2])
    assert tracks.shape[2] == 2 and (tracks[:, 0, :] > 0).all()


def test_simulate_reports_bots_and_paths(tmp_path):
    import json

    from typer.testing import CliRunner

    from analyzer.cli import app

    out = tmp_path / "sim"
    res = CliRunner().invoke(app, ["regatta", "simulate", "--players", "3", "--bots", "greedy,random,greedy",
                                   "--games", "60", "--seed", "2", "--threads", "1", "--no-progress", "--out",
                                   str(out)])
    assert res.exit_code == 0, res.output
    summary = json.loads((out / "summary.json").read_text())
    bots = {b["bot"]: b for b in summary["bot_win"]}
    assert bots["greedy"]["seats"] == 2 and bots["random"]["seats"] == 1
    won = sum(b["win"] * b["seats"] for b in bots.values()) * 60
    assert round(won) == sum(s["win"] * 60 for s in summary["seat_win"])
    assert bots["greedy"]["ci95"][0] > bots["random"]["ci95"][1]
    for png in ("bot_win.png", "path_over_turns.png"):
        assert (out / png).stat().st_size > 0 and png in (out / "report.md").read_text()


def test_report_numbers_boats_from_one(tmp_path, capsys):
    """The table, the summary and games.parquet all call the first boat 1 (winner 0: a capped race)."""
    import json

    import polars as pl

    from tests.support import run_cli

    out = tmp_path / "r"
    code, _, err = run_cli(["regatta", "simulate", "--players", "3", "--bots", "greedy", "--games", "30", "--seed",
                            "2", "--threads", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    table = pl.read_parquet(out / "games.parquet")
    summary = json.loads((out / "summary.json").read_text())
    assert [s["seat"] for s in summary["seat_win"]] == [1, 2, 3]
    assert set(table["winner"].to_list()) <= {0, 1, 2, 3} and "score_boat_3" in table.columns
    for s in summary["seat_win"]:
        assert s["win"] == pytest.approx((table["winner"] == s["seat"]).mean())
    assert "| 1 |" in (out / "report.md").read_text()
