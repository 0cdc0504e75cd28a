"""`tabletop seafarers seats`: the seat-advantage study (analyzer/seafarers/seats.py, reports/seafarers/seats.py)."""

import json

import polars as pl
import pytest

from analyzer.seafarers.seats import check_seats, play_seats
from analyzer.stats import wilson_ci
from tests.support import one_line_error, run_cli


@pytest.mark.parametrize("args, fragment", [
    (["--scenarios", "atlantis"], "unknown scenario 'atlantis'"),
    (["--scenarios", "new-shores,new-shores"], "--scenarios names 'new-shores' twice"),
    (["--scenarios", "new-shores,"], "--scenarios: an empty name"),
    (["--players", "5"], "is for 3, 4 players, not 5"),
    (["--players", "3,3"], "--players names 3 twice"),
    (["--players", "three"], "--players takes player counts separated by commas (3,4), not 'three'"),
    (["--bot", "value,random"], "--bot takes one bot, which plays every seat, not 2"),
    (["--bot", "mcts"], "unknown bot 'mcts'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--precision", "0"], "--precision must be a positive half-width"),
    (["--games", "10", "--precision", "0.01"], "--games and --precision are alternatives"),
])
def test_bad_seats_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "seats", *args, "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


def test_all_plays_every_scenario_and_the_base_map_first():
    from analyzer.seafarers.scenarios import scenario_slugs

    cells, arm = check_seats("all", "3,4", "value", 10, 1)
    assert cells[:2] == [("base", 3), ("base", 4)]  # the reference first
    assert {s for s, _ in cells} == set(scenario_slugs()) and len(cells) == 2 * len(scenario_slugs())
    assert arm.spec.name == "value"
    assert check_seats("new-world,base", "4", "random", 10, 1, base=False)[0] == [("base", 4), ("new-world", 4)]
    assert check_seats("new-world", [3], "random", 10, 1, base=False)[0] == [("new-world", 3)]


def test_the_summary_is_the_games_and_streaming_gives_the_same_figures():
    """Every seat's wins recomputed from games.parquet (one row per scenario, player count and game); a
    --no-per-game run gives the same cells from its streaming aggregates; the base map is the reference."""
    kept = play_seats("four-islands", "3,4", "value", 12, 4, threads=1, progress=False)
    streamed = play_seats("four-islands", "3,4", "value", 12, 4, threads=2, chunk_size=5, progress=False,
                          per_game=False)
    assert streamed.games is None
    strip = lambda cells: [{k: v for k, v in c.items() if k not in ("wall_seconds", "games_per_second")}  # noqa: E731
                           for c in cells]
    assert strip(streamed.summary["cells"]) == strip(kept.summary["cells"])
    g, s = kept.games, kept.summary
    assert [(c["scenario"], c["players"]) for c in s["cells"]] == [("base", 3), ("base", 4), ("four-islands", 3),
                                                                   ("four-islands", 4)]
    assert g.height == 4 * 12 and s["games_played"] == 48
    for c in s["cells"]:
        rows = g.filter((pl.col("scenario") == c["scenario"]) & (pl.col("players") == c["players"]))
        for seat in c["seats"]:
            wins = int((rows["winner"] == seat["seat"]).sum())
            assert seat["wins"] == wins and seat["ci95"] == pytest.approx(list(wilson_ci(wins, 12)))
            assert seat["advantage"] == pytest.approx(wins / 12 - 1 / c["players"])
            if c["scenario"] != "base":
                assert "vs_base" in seat
        assert c["rolls"]["mean"] == pytest.approx(rows["rolls"].mean())
        assert c["capped"]["games"] == rows["capped"].sum()


def test_precision_plays_each_cell_until_its_worst_seat_is_known_to_the_half_width():
    r = play_seats("new-shores", "3", "value", None, 2, base=False, threads=1, progress=False, precision=0.1,
                   min_games=50)
    cell = r.summary["cells"][0]
    wins = [int((r.games["winner"] == k).sum()) for k in (1, 2, 3)]
    n = r.games.height
    widest = lambda n, wins: max((wilson_ci(w, n)[1] - wilson_ci(w, n)[0]) / 2 for w in wins)  # noqa: E731
    last = r.games["winner"][-1]
    before = [w - (k + 1 == last) for k, w in enumerate(wins)]
    assert widest(n, wins) <= 0.1 < widest(n - 1, before)
    assert cell["games"] == n and cell["stopped"] == "precision" and cell["half_width"] == pytest.approx(
        widest(n, wins))


def test_a_streaming_precision_run_says_how_many_cells_reached_it(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "seats", "--scenarios", "new-shores", "--players", "3,4", "--precision",
                                 "0.2", "--min-games", "10", "--no-per-game", "--seed", "1", "--no-progress", "--out",
                                 str(out)], capsys)
    assert code == 0, err
    cells = json.loads((out / "summary.json").read_text())["cells"]
    assert len(cells) == 4 and all(c["stopped"] == "precision" and c["half_width"] <= 0.2 for c in cells)
    sizes = sorted({c["games"] for c in cells})
    assert (f"precision ±0.2 on the worst seat's win rate reached in 4 of 4 cells; games per cell: {sizes[0]:,}"
            in stdout) and not (out / "games.parquet").exists()


def test_the_command_writes_the_table_heat_map_and_paragraph(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "seats", "--scenarios", "all", "--players", "4", "--games", "3",
                                 "--seed", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["experiment"] == "seafarers seats" and summary["cells"][0]["scenario"] == "base"
    assert stdout.startswith("Seat ") and "95% CI" in stdout.splitlines()[0]
    assert len(summary["cells"]) == 10  # the base map and all nine scenarios
    report = (out / "report.md").read_text()
    lines = report.splitlines()
    assert lines[0] == "# Catan: Seafarers — seat advantage by scenario" and "95% CI" in lines[2]
    assert lines[4].startswith("These figures are for value (opening diverse, the default) in every seat; the seat "
                               "order moves with the bots' opening draft. With 4 players, seat 1 ")
    assert "On the base map seat 1 has" in lines[4]
    assert "seats.png" in report and (out / "seats.png").stat().st_size > 10_000
    assert pl.read_parquet(out / "games.parquet").height == 3 * len(summary["cells"])


def test_tables_too_big_for_memory_are_refused_before_any_game(tmp_path, capsys, monkeypatch):
    """Every cell's (and every seating's) columns are held until the last is played: the memory check counts
    them all, before any game."""
    import analyzer.runner

    monkeypatch.setattr(analyzer.runner, "available_memory", lambda: 2**30)

    def run_job(*args, **kwargs):  # (one cell or seating alone fits: were the check gone, it would start here)
        raise AssertionError("a game was about to be played")

    monkeypatch.setattr(analyzer.runner, "run_job", run_job)
    code, _, err = run_cli(["seafarers", "seats", "--scenarios", "new-shores", "--players", "3,4", "--games",
                            "1000000", "--no-progress", "--out", str(tmp_path / "s")], capsys)
    assert one_line_error(code, err, "the per-game tables would need about") and "--no-per-game" in err, err
    code, _, err = run_cli(["seafarers", "tournament", "--scenario", "new-shores", "--entrants", "value,planner,random",
                            "--games", "300000", "--no-progress", "--out", str(tmp_path / "t")], capsys)
    assert one_line_error(code, err, "ask for fewer games (every seating keeps every game's result"), err
    assert not (tmp_path / "s").exists() and not (tmp_path / "t").exists()


def test_the_headline_and_paragraph_name_the_bot_and_its_opening():
    """The seat order moves with the bots' opening (value drafting by pips puts seat 1 last on the Four Islands), so
    the generated sentences name the bot and its opening, the default too."""
    from reports.seafarers.seats import headline, paragraph

    def seat(k, p, ci):
        return {"seat": k, "p_win": p, "ci95": ci, "advantage": p - 0.25,
                "advantage_ci95": [ci[0] - 0.25, ci[1] - 0.25]}

    cell = {"scenario": "four-islands", "name": "The Four Islands", "players": 4, "games": 4000, "fair_share": 0.25,
            "seats": [seat(1, 0.296, [0.282, 0.310]), seat(2, 0.25, [0.237, 0.264]), seat(3, 0.235, [0.222, 0.248]),
                      seat(4, 0.219, [0.206, 0.232])]}
    summary = {"cells": [cell], "bot": {"label": "value", "spec": "value:opening=1,gold=1"}}
    assert headline(summary).endswith("(value (opening diverse, the default) in every seat).")
    text = paragraph(summary)
    assert text.startswith("These figures are for value (opening diverse, the default) in every seat; the seat order "
                           "moves with the bots' opening draft. With 4 players, seat 1 wins measurably more than a "
                           "fair 25.0% in every scenario: +4.6 points (95% CI +3.2 to +6.0); seat 4 wins measurably "
                           "less than a fair 25.0% in every scenario: -3.1 points (95% CI -4.4 to -1.8).")
    summary["bot"] = {"label": "value:opening=pips", "spec": "value:opening=0,gold=1"}
    assert headline(summary).endswith("(value:opening=pips in every seat).")
