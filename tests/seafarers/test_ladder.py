"""`--ladder` on seats, balance --by wins and tournament (analyzer/ladder.py, analyzer/seafarers/ladder.py,
reports/ladder.py): the verdict over the rungs, bad ladders, and small real ladders through the CLI."""

import json

import pytest

from analyzer.ladder import question_verdict
from analyzer.seafarers.seats import play_seats
from reports.ladder import first_line, verdict_sentence
from tests.support import one_line_error, run_cli


def answer(bot: str, favoured: str, edge: float, lo: float, hi: float) -> dict:
    return {"bot": bot, "favoured": favoured, "edge": edge, "ci95": [lo, hi], "shown": lo > 0}


def test_the_verdict_holds_only_when_every_rung_shows_the_same_seat():
    held = question_verdict("base", "seat", [answer("value", "seat 1", 0.046, 0.02, 0.07),
                                             answer("rollout", "seat 1", 0.03, 0.01, 0.05)])
    assert held["kind"] == "holds" and held["holds"] and held["favoured"] == "seat 1"
    text = verdict_sentence(held)
    assert text.startswith("Seat 1 is favoured at every rung of the ladder (value +4.6 points, 95% CI +2.0 to +7.0;")
    assert "rollout +3.0 points" in text


def test_a_verdict_that_flips_or_is_not_shown_does_not_hold():
    flips = question_verdict("base", "seat", [answer("value", "seat 1", 0.046, 0.02, 0.07),
                                              answer("value:opening=pips", "seat 4", 0.034, 0.02, 0.048),
                                              answer("rollout", "seat 3", 0.01, -0.01, 0.03)])
    assert flips["kind"] == "changes" and not flips["holds"] and flips["favoured"] is None
    assert verdict_sentence(flips) == (
        "The favoured seat changes with the bots: seat 1 under value (+4.6 points, 95% CI +2.0 to +7.0), seat 4 "
        "under value:opening=pips (+3.4 points, 95% CI +2.0 to +4.8), no seat clearly under rollout (seat 3 +1.0 "
        "points, 95% CI -1.0 to +3.0: no edge shown)")
    partial = question_verdict("base", "seat", [answer("value", "seat 1", 0.046, 0.02, 0.07),
                                                answer("rollout", "seat 1", 0.01, -0.01, 0.03)])
    assert partial["kind"] == "partial" and not partial["holds"] and partial["favoured"] == "seat 1"
    assert "not at every rung" in verdict_sentence(partial)
    none = question_verdict("base", "seat", [answer("value", "seat 2", 0.01, -0.01, 0.03),
                                             answer("rollout", "seat 1", 0.01, -0.01, 0.03)])
    assert none["kind"] == "none" and none["favoured"] is None
    assert verdict_sentence(none).startswith("No rung shows a favoured seat: no seat clearly under value")


def test_the_first_line_counts_the_cells_where_the_verdict_holds():
    holds = question_verdict("Four Islands, 4 players", "seat", [answer("value", "seat 1", 0.05, 0.03, 0.07),
                                                                  answer("planner", "seat 1", 0.04, 0.02, 0.06)])
    flips = question_verdict("Base, 4 players", "seat", [answer("value", "seat 1", 0.05, 0.03, 0.07),
                                                          answer("planner", "seat 4", 0.04, 0.02, 0.06)])
    line = first_line({"verdicts": [holds, flips]})
    assert line.startswith("The verdict holds at every rung in 1 of 2 cells: Four Islands, 4 players: seat 1 is "
                           "favoured at every rung")
    assert "Base, 4 players: the favoured seat changes with the bots" in line


@pytest.mark.parametrize("args, fragment", [
    (["--ladder", "value,mcts"], "unknown bot 'mcts'"),
    (["--ladder", "value"], "a ladder needs at least 2 rungs"),
    (["--ladder", "value,value:opening=diverse"], "are the same bot"),
    (["--ladder", "value,planner", "--bot", "value"], "--ladder names the bots: leave --bot out"),
    (["--ladder", "value,planner", "--budget", "0"], "--budget must be a number of seconds above 0"),
    (["--ladder", "value,planner", "--checkpoint", "ck"], "--checkpoint is for one run"),
])
def test_bad_ladders_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "seats", "--scenarios", "base", "--no-base", "--players", "4", "--games", "4",
                            *args, "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


def test_a_ladder_over_budget_and_an_income_balance_are_refused(tmp_path, capsys):
    code, _, err = run_cli(["seafarers", "seats", "--scenarios", "base", "--no-base", "--players", "4", "--games",
                            "400", "--ladder", "value,planner", "--budget", "1e-9", "--out", str(tmp_path / "o")],
                           capsys)
    assert one_line_error(code, err, "over --budget"), err
    code, _, err = run_cli(["seafarers", "balance", "--scenario", "base", "--boards", "2", "--ladder", "value,planner",
                            "--out", str(tmp_path / "b")], capsys)
    assert one_line_error(code, err, "only with --by wins"), err
    code, _, err = run_cli(["seafarers", "tournament", "--scenario", "base", "--entrants",
                            "value:opening=pips,value:opening=diverse", "--ladder", "value,random", "--games", "2",
                            "--out", str(tmp_path / "t")], capsys)
    assert one_line_error(code, err, "opening"), err


def test_a_seats_ladder_plays_each_rung_on_the_same_games_and_says_the_verdict_first(tmp_path, capsys):
    out = tmp_path / "ladder"
    code, stdout, err = run_cli(["seafarers", "seats", "--scenarios", "base", "--no-base", "--players", "4",
                                 "--games", "24", "--seed", "3", "--ladder", "value,value:opening=pips",
                                 "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    assert "for 2 rungs (value " in err  # the estimate, before the run
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ladder"] == ["value", "value:opening=pips"] and len(summary["rungs"]) == 2
    for rung in summary["rungs"]:  # each rung is the experiment's own run on the seed's games
        alone = play_seats("base", "4", rung["bot"], 24, 3, base=False, threads=1, progress=False).summary
        wins = [s["wins"] for s in rung["summary"]["cells"][0]["seats"]]
        assert wins == [s["wins"] for s in alone["cells"][0]["seats"]]
    (verdict,) = summary["verdicts"]
    for a, rung in zip(verdict["rungs"], summary["rungs"]):
        seats = rung["summary"]["cells"][0]["seats"]
        best = max(seats, key=lambda s: s["p_win"])
        assert a["favoured"] == f"seat {best['seat']}" and a["shown"] == (best["advantage_ci95"][0] > 0)
    assert summary["holds"] == verdict["holds"]
    line = first_line(summary)
    assert stdout.splitlines()[0] == line
    report = (out / "report.md").read_text()
    assert line in report and "| `value:opening=pips` |" in report and "edge shown" in report
    assert "Domestic trade on" in report and "Bots:" not in report  # the rules every rung shares, no rung's bot
    code, again, err = run_cli(["seafarers", "seats", "--scenarios", "base", "--no-base", "--players", "4", "--games",
                                "24", "--seed", "3", "--ladder", "value,value:opening=pips", "--no-progress", "--out",
                                str(out)], capsys)
    assert code == 0 and again.splitlines()[0] == line, err  # the same games again, into its own folder


def test_tournament_and_balance_ladders_put_the_rung_in_place_of_the_bot(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, err = run_cli(["seafarers", "tournament", "--scenario", "base", "--entrants",
                                 "value:opening=pips,value:opening=diverse", "--ladder", "value,planner", "--games",
                                 "3", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    labels = [[e["label"] for e in r["summary"]["entrants"]] for r in summary["rungs"]]
    assert labels == [["value:opening=pips", "value:opening=diverse"], ["planner:opening=pips",
                                                                        "planner:opening=diverse"]]
    assert {a["favoured"] for a in summary["verdicts"][0]["rungs"]} <= {"opening=pips", "opening=diverse"}
    assert stdout.splitlines()[0] == first_line(summary)
    out = tmp_path / "b"
    code, stdout, err = run_cli(["seafarers", "balance", "--scenario", "base", "--boards", "2", "--sequences", "2",
                                 "--by", "wins", "--games-per-board", "3", "--ladder", "value,planner",
                                 "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert [r["summary"]["by_wins"]["bot"] for r in summary["rungs"]] == ["value", "planner"]
    assert stdout.splitlines()[0] == first_line(summary)
