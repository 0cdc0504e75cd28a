"""`tabletop meographic simulate|compare`: every option checked before any game (one line, exit 2, no folder
written); the files each command promises; the seat-rotated comparison and the rules variant exact where the
answer is known (a bot against itself, a rule set against itself)."""

import hashlib
import json

import numpy as np
import polars as pl
import pytest

from analyzer.meographic.analysis import compare_rules
from analyzer.meographic.api import compare
from analyzer.meographic.rules import default_rules, load_rules
from tests.support import one_line_error, run_cli

BROKEN = '[[missions]]\nid = "x"\nshape = ["FQ"]\npoints = 3\n'
FEWER = '[[missions]]\nid = "only"\nshape = ["FF"]\npoints = 20\n'


@pytest.mark.parametrize("args, fragment", [
    (["simulate", "--players", "5"], "--players must be 1 to 4"),
    (["simulate", "--players", "0"], "--players must be 1 to 4"),
    (["simulate", "--bots", "clever"], "clever"),
    (["simulate", "--players", "2", "--bots", "greedy,planner,random"], "one per seat"),
    (["simulate", "--bots", "planner:look=0"], "look"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--rules", "no-such-file.toml"], "no-such-file.toml"),
    (["simulate", "--rules", "{broken}"], "shape cell 'Q'"),
    (["compare", "--bots", "greedy"], "give two bots"),
    (["compare", "--bots", "greedy,planner,random"], "give two bots"),
    (["compare", "--players", "7"], "--players"),
    (["compare", "--variant", "{broken}"], "shape cell 'Q'"),
])
def test_a_bad_option_is_one_line_and_exit_2_before_any_game(args, fragment, tmp_path, capsys):
    broken = tmp_path / "broken.toml"
    broken.write_text(BROKEN, "utf-8")
    out = tmp_path / "out"
    argv = ["meographic", *[a.replace("{broken}", str(broken)) for a in args], "--out", str(out), "--no-progress"]
    code, _, err = run_cli(argv, capsys)
    assert one_line_error(code, err, fragment), err
    assert not out.exists()


def test_simulate_writes_the_table_summary_report_and_figures(tmp_path, capsys):
    out = tmp_path / "sim"
    code, stdout, err = run_cli(["meographic", "simulate", "--players", "2", "--bots", "greedy,planner", "--games",
                                 "30", "--seed", "5", "--threads", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    table = pl.read_parquet(out / "games.parquet")
    assert table.height == 30 and (table["score_1"] == table["tile_1"] + table["adjacency_1"] + table["mission_1"]
                                   + table["bonus_1"]).all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["players"] == 2 and len(summary["seat"]) == 2
    assert sum(s["win"] for s in summary["seat"]) == pytest.approx(1.0)  # ties split: the shares sum to 1
    assert any("reconstruction" in a for a in summary["assumptions"])
    first = (out / "report.md").read_text().splitlines()[0]
    assert first.startswith("# Seat 1 (greedy; seat 2: planner) wins") and "95% CI" in first and first[2:] in stdout
    for png in ("scores_by_seat", "sources", "missions", "seat_win", "best_area"):
        assert (out / f"{png}.png").stat().st_size > 5_000, png
    best = summary["best_game"]
    assert best["score"] == table[f"score_{best['seat']}"].max()
    dist = {d["group"]: d for d in summary["distribution"]}
    assert list(dist) == ["seat 1 (greedy)", "seat 2 (planner)", "greedy (its seats)", "planner (its seats)"]
    for s, name in ((1, "seat 1 (greedy)"), (2, "seat 2 (planner)")):
        scores = table[f"score_{s}"].cast(float).to_numpy()
        d = dist[name]
        assert d["mean"] == pytest.approx(scores.mean()) and d["p50"] == pytest.approx(np.median(scores))
        assert d["min"] <= d["p5"] <= d["p25"] <= d["p50"] <= d["p75"] <= d["p95"] <= d["max"] == scores.max()
        assert d["ci95"][0] < d["mean"] < d["ci95"][1]
    assert "## Score distribution" in (out / "report.md").read_text()


def test_solo_simulate_and_compare(tmp_path, capsys):
    code, stdout, err = run_cli(["meographic", "simulate", "--games", "20", "--seed", "2", "--threads", "1",
                                 "--no-progress", "--out", str(tmp_path / "solo")], capsys)
    assert code == 0, err
    assert stdout.startswith("greedy scores") and "per solo game" in stdout
    code, stdout, err = run_cli(["meographic", "compare", "--games", "40", "--seed", "2", "--threads", "1",
                                 "--no-progress", "--out", str(tmp_path / "cmp")], capsys)
    assert code == 0, err
    summary = json.loads((tmp_path / "cmp" / "summary.json").read_text())
    assert stdout.startswith("planner scores") and summary["diff"]["n"] == 40
    assert pl.read_parquet(tmp_path / "cmp" / "games.parquet").height == 80  # a's games then b's


def test_a_bot_against_itself_is_exactly_even_with_seats_rotated():
    """Every seating plays the same games with the same bots (`meographic compare`), so a's edge over b sums to
    exactly 0 and its win share is exactly its fair share."""
    got = compare(players=3, bots="greedy,greedy", games=25, seed=4, threads=1, progress=False).summary
    assert got["diff"]["mean_diff"] == 0 and got["share"] == pytest.approx(1 / 3)
    solo = compare(players=1, bots="planner,planner", games=25, seed=4, threads=1, progress=False).summary
    assert solo["diff"]["mean_diff"] == 0


def test_the_planner_beats_greedy_on_the_same_games():
    got = compare(players=2, bots="planner,greedy", games=200, seed=9, threads=1, progress=False).summary
    assert got["diff"]["ci95"][0] > 0 and got["edge"]["ci95"][0] > 0


def test_a_rules_variant_is_paired_game_by_game(tmp_path, capsys):
    rules = default_rules()
    same = compare_rules(rules, rules, 2, "greedy", 20, seed=1)
    assert same["diff"]["mean_diff"] == 0 and same["diff"]["p_tie"] == 1
    variant = tmp_path / "one_card.toml"
    variant.write_text(FEWER, "utf-8")
    other = compare_rules(rules, load_rules(variant), 2, "greedy", 20, seed=1)
    assert other["diff"]["n"] == 20 and other["diff"]["mean_diff"] != 0
    out = tmp_path / "var"
    code, stdout, err = run_cli(["meographic", "compare", "--players", "2", "--variant", str(variant), "--games",
                                 "20", "--seed", "1", "--threads", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    assert stdout.startswith("With one_card.toml, planner scores") and "95% CI" in stdout
    table = pl.read_parquet(out / "games.parquet")
    assert table.height == 40 and sorted(set(table["variant"].to_list())) == [0, 1]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["variant_rules_data"] == {"file": "one_card.toml",
                                             "sha256": hashlib.sha256(variant.read_bytes()).hexdigest()}
    assert summary["variant_rules"] == "one_card" and summary["rules_data"]["file"] == "packaged"
    assert np.isclose(summary["diff"]["mean_diff"],
                      (table.filter(pl.col("variant") == 1)["score_1"].cast(float).to_numpy()
                       + table.filter(pl.col("variant") == 1)["score_2"].cast(float).to_numpy()).mean() / 2
                      - (table.filter(pl.col("variant") == 0)["score_1"].cast(float).to_numpy()
                         + table.filter(pl.col("variant") == 0)["score_2"].cast(float).to_numpy()).mean() / 2)


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_an_empty_bot_entry_names_the_bots_option(tmp_path, capsys, command):
    """Found by a fuzz run of the new games' commands: the error named --policies, Beacon's option."""
    code, _, err = run_cli(["meographic", command, "--players", "2", "--bots", "greedy,,planner", "--games", "4",
                            "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, "--bots: empty bot name in 'greedy,,planner'"), err
