"""`tabletop seafarers tournament`: bots compared by winning full games, every game once per seating
(analyzer/seafarers/tournament.py, reports/seafarers/tournament.py)."""

import json
from collections import Counter

import numpy as np
import polars as pl
import pytest

from analyzer.arms import MAX_ARMS
from analyzer.seafarers.tournament import play_tournament, seatings, williams_square
from tests.support import one_line_error, run_cli

OPENINGS = ["value:opening=pips", "value:opening=diverse", "value:opening=port"]


@pytest.mark.parametrize("args, fragment", [
    (["--scenario", "atlantis", "--entrants", "value,random"], "unknown scenario 'atlantis'"),
    (["--scenario", "new-shores", "--players", "5", "--entrants", "value,random"], "is for 3, 4 players, not 5"),
    (["--scenario", "new-shores", "--entrants", "value"], "--entrants names 1 bot: a tournament needs at least 2"),
    (["--scenario", "new-shores", "--entrants", "value,value:opening=diverse"],
     "'value' and 'value:opening=diverse' are the same bot (value)"),
    (["--scenario", "new-shores", "--entrants", "random,random"], "'random' is the same bot"),
    (["--scenario", "new-shores", "--entrants", "value,mcts"], "unknown bot 'mcts'"),
    (["--scenario", "new-shores", "--entrants", "value,value:opening=9"], "opening must be from 0 to 2"),
    (["--scenario", "new-shores", "--entrants", "value,,random"], "--entrants: empty bot name"),
    (["--scenario", "new-shores", "--entrants", ",".join(["random", "weighted", "planner", "rollout"]
                                                         + [f"value:vp={v}" for v in range(5)])],
     "--entrants names 9 bots, more than the 8 one tournament plays"),
    (["--scenario", "new-shores", "--entrants", "value,random", "--games", "0"], "--games must be at least 1"),
    (["--scenario", "new-shores", "--entrants", "value,random", "--games", "1000000000"],
     "--games must be from 1 to 100,000,000"),
    (["--scenario", "fog-islands", "--entrants", "value,random", "--boards", "fixed"], "no printed fog"),
])
def test_bad_tournament_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "tournament", *args, "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("n", range(2, 9))
def test_the_williams_square_is_a_balanced_latin_square(n):
    rows = williams_square(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    assert all(sorted(row) == list(range(n)) for row in rows)
    for column in zip(*rows):  # each entrant equally often in each seat
        assert set(Counter(column).values()) == {len(rows) // n}
    neighbours = Counter((row[i], row[i + 1]) for row in rows for i in range(n - 1))
    assert len(neighbours) == n * (n - 1) and set(neighbours.values()) == {1 if n % 2 == 0 else 2}


@pytest.mark.parametrize("entrants, players, count, latin", [
    (2, 3, 2, False), (2, 4, 2, False), (3, 3, 6, False), (3, 4, 6, False), (4, 3, 4, True), (4, 4, 4, True),
    (5, 4, 10, True), (8, 4, 8, True), (7, 3, 14, True)])
def test_every_entrant_sits_in_every_seat_equally_often(entrants, players, count, latin):
    plan, how = seatings(entrants, players)
    assert len(plan) == count <= MAX_ARMS and ("Latin square" in how) == latin
    assert all(len(s) == players for s in plan)
    for seat in range(players):
        assert len(set(Counter(s[seat] for s in plan).values())) == 1, seat
    if entrants <= players:  # everyone plays every seating, seats filled round the table
        assert all(set(s) == set(range(entrants)) and s[entrants:] == s[:players - entrants] for s in plan)
        assert ("repeated round the table" in how) == (entrants < players)


def test_two_entrants_at_four_seats_alternate_round_the_table():
    assert seatings(2, 4)[0] == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_a_small_tournament_is_consistent_with_its_games():
    """Every figure of the summary recomputed from games.parquet; every seating of game g is dealt the same luck
    (board, dice, deck: common random numbers)."""
    from analyzer.seafarers.bots import parse_bot
    from analyzer.seafarers.full_rules import rules_text
    from analyzer.seafarers.game import trace
    from analyzer.seafarers.tournament import tournament_jobs
    from analyzer.stats import bradley_terry, clustered_mean_ci, clustered_wilson_ci, paired_difference

    r = play_tournament("four-islands", 3, OPENINGS, 8, 5, threads=1, progress=False)
    g, s = r.games, r.summary
    assert g.height == 8 * 6 * 3 and s["games"] == 8 and s["games_played"] == 48 and len(s["seatings"]) == 6
    per_game = g.filter(pl.col("seat") == 1)
    assert (g.group_by(["game", "seating"]).agg(pl.col("won").sum())["won"] <= 1).all()
    assert sum(e["wins"] for e in s["by_entrant"].values()) == int((per_game["winner"] > 0).sum())
    for label, e in s["by_entrant"].items():
        rows = g.filter(pl.col("entrant") == label)
        assert e["seat_games"] == rows.height == 8 * 6 and e["wins"] == rows["won"].sum()
        assert e["ci95"] == pytest.approx(list(clustered_wilson_ci(rows["won"], rows["game"])))
        assert e["vp"]["mean"] == pytest.approx(rows["vp"].mean())
        won = rows.filter(pl.col("won"))
        assert e["rolls_to_win"]["mean"] == pytest.approx(won["rolls"].mean())
        assert e["rolls_to_win"]["ci95"] == pytest.approx(clustered_mean_ci(won["rolls"], won["game"],
                                                                            support=(0, None))["ci95"])
        assert [x["seat_games"] for x in e["by_seat"]] == [16, 16, 16]
    a, b = OPENINGS[0], OPENINGS[2]
    rate = lambda label: (g.filter(pl.col("entrant") == label).group_by("game").agg(pl.col("won").mean())  # noqa: E731
                          .sort("game")["won"].to_numpy())
    pair = s["pairs"][f"{a} vs {b}"]
    assert pair["mean_diff"] == pytest.approx(paired_difference(rate(a), rate(b))["mean_diff"])
    assert pair["sentence"].startswith("`") and "on The Four Islands with 3 players" in pair["sentence"]
    decided = per_game.filter(pl.col("winner") > 0)
    seated = {tuple(x) for x in s["seatings"]}
    assert len(seated) == 6
    winners = [OPENINGS.index(s["seatings"][j - 1][w - 1]) for j, w in zip(decided["seating"], decided["winner"])]
    fit = bradley_terry(np.array(winners), np.ones((len(winners), 3), np.int64), decided["game"].to_numpy())
    assert [s["bradley_terry"]["entrants"][x]["strength"] for x in OPENINGS] == pytest.approx(fit["strength"])
    assert s["strongest"]["label"] == max(s["by_entrant"], key=lambda k: s["by_entrant"][k]["p_win"])
    _, _, jobs = tournament_jobs("four-islands", 3, [parse_bot(e) for e in OPENINGS], 5, "random", rules_text()[0])
    for game in (0, 1):
        lucks = [trace(job, game)["luck"] for _, job in jobs]
        assert all(luck == lucks[0] for luck in lucks[1:])
    assert trace(jobs[0][1], 0)["luck"] != trace(jobs[0][1], 1)["luck"]


def test_the_command_writes_its_report_with_the_answer_first(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "tournament", "--scenario", "new-shores", "--players", "4",
                                 "--entrants", "value,random", "--games", "6", "--seed", "2", "--no-progress",
                                 "--out", str(out)], capsys)
    assert code == 0, err
    assert stdout.startswith("`value` wins most: ") and "95% CI" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["experiment"] == "seafarers tournament" and summary["seatings"] == [
        ["value", "random", "value", "random"], ["random", "value", "random", "value"]]
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 6 * 2 * 4 and summary["by_entrant"]["value"]["wins"] == games.filter(
        pl.col("entrant") == "value")["won"].sum()
    assert any("repeated round the table" in a for a in summary["assumptions"])
    report = (out / "report.md").read_text().splitlines()
    assert report[0].startswith("# Catan: Seafarers — Heading for New Shores, 4 players: a tournament of 2 bots")
    assert report[2].startswith("`value` wins most") and "95% CI" in report[2]
    for png in ("win_rates", "pairs"):
        assert f"{png}.png" in "\n".join(report) and (out / f"{png}.png").stat().st_size > 10_000, png


def test_the_python_api_takes_the_entrants_as_text_or_a_list(tmp_path):
    from analyzer import seafarers

    one = seafarers.run_tournament("new-shores", 3, "random,weighted", games=3, seed=1, threads=1)
    two = seafarers.run_tournament("new-shores", 3, ["random", "weighted"], games=3, seed=1, threads=1)
    assert one.games.equals(two.games)
    with pytest.raises(Exception, match="run_tournament: entrants must be text, a list of texts"):
        seafarers.run_tournament("new-shores", 3, ["random", 3], games=3)


def test_an_entrant_that_never_wins_has_strength_0_and_the_others_are_fitted_among_themselves():
    """The likelihood grows as a never-winning entrant's strength goes to 0; at the limit the others' contests are
    fitted without it: with entrants 0 and 1 always both present, their strengths are their wins' shares."""
    from analyzer.seafarers.tournament import strengths

    plan, _ = seatings(3, 3)
    rows = []
    for game in range(10):
        for j, seating in enumerate(plan):
            winner_entrant = 0 if (game + j) % 3 else 1  # entrant 0 wins 2 of 3, entrant 2 never
            rows.append({"game": game, "seating": j + 1, "seat": 1, "winner": seating.index(winner_entrant) + 1})
    rows[0]["winner"] = 0  # one game without a winner: left out
    labels = ["a", "b", "c"]
    fit = strengths(pl.DataFrame(rows), labels, plan)
    assert fit["estimable"] and fit["never_won"] == ["c"] and fit["contests"] == 59
    wins_a = sum(1 for r in rows[1:] if plan[r["seating"] - 1][r["winner"] - 1] == 0)
    assert fit["entrants"]["a"]["strength"] / fit["entrants"]["b"]["strength"] == pytest.approx(wins_a / (59 - wins_a))
    assert fit["entrants"]["c"] == {"log_strength": None, "strength": 0.0, "se": None, "ci95": [0.0, None]}
    assert list(fit["entrants"]) == labels
