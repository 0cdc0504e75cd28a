"""`tabletop seafarers play`: full games by bots (analyzer/seafarers/full_game.py, reports/seafarers/play.py)."""

import json

import numpy as np
import polars as pl
import pytest

from analyzer.seafarers.full_game import play_games
from analyzer.seafarers.full_rules import rules_text
from kernels.catan import game as kg
from reports.seafarers.play import headline
from tests.support import run_cli


@pytest.mark.parametrize("args, fragment", [
    (["--scenario", "atlantis"], "unknown scenario 'atlantis'"),
    (["--scenario", "new-shores", "--players", "5"], "is for 3, 4 players, not 5"),
    (["--scenario", "fog-islands", "--boards", "fixed"], "the Fog Islands have no printed fog"),
    (["--scenario", "new-shores", "--bots", "mcts"], "unknown bot 'mcts'"),
    (["--scenario", "new-shores", "--bots", "value:opening=9"], "opening must be from 0 to 2"),
    (["--scenario", "new-shores", "--bots", "random,weighted"], "--bots names 2 bots for 4 players"),
    # a trailing comma is an empty name, not a fifth bot; a misspelt opening is named as written
    (["--scenario", "new-shores", "--bots", "value,value,value,value,"],
     "--bots: empty bot name in 'value,value,value,value,' (a comma with no name on one side)"),
    (["--scenario", "new-shores", "--bots", "value:opening=portx"],
     "bot value: opening must be pips, diverse or port, got 'portx'"),
    (["--scenario", "new-shores", "--boards", "printed"], "--boards must be random or fixed"),
    (["--scenario", "new-shores", "--games", "0"], "--games must be at least 1"),
    (["--scenario", "new-shores", "--games", "1000000000"], "--games must be from 1 to 100,000,000"),
    (["--scenario", "new-shores", "--rules", "/nonexistent/rules.toml"],
     "rules file not found: /nonexistent/rules.toml"),
])
def test_bad_play_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    code, _, err = run_cli(["seafarers", "play", *args, "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1, err
    assert not (tmp_path / "o").exists()


def test_play_help_names_every_scenario_and_cuts_no_word(capsys, monkeypatch):
    """`play --help` lists the ten scenarios `play` plays (it once said the Pirate Islands come later) and, at 80
    columns, folds a long word rather than cutting it with an ellipsis; piped with no COLUMNS it is 120 wide."""
    import re

    from analyzer.seafarers.full_game import PLAY_SCENARIOS

    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run_cli(["seafarers", "play", "--help"], capsys)
    assert code == 0 and err == "" and "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    flat = re.sub(r"[\s│]+", "", out)  # the folded words joined again
    assert all(slug in flat for slug in PLAY_SCENARIOS) and "later" not in flat
    assert "value[:opening=pips|diverse|port,key=value...]" in flat
    monkeypatch.delenv("COLUMNS")
    code, out, _ = run_cli(["seafarers", "play", "--help"], capsys)
    assert code == 0 and max(len(line) for line in out.splitlines()) == 120


def test_a_broken_rules_file_stops_before_any_game(tmp_path, capsys):
    rules = tmp_path / "mine.toml"
    rules.write_text(rules_text()[0].replace("settlements = 5", "settlements = 500"))
    code, _, err = run_cli(["seafarers", "play", "--scenario", "new-shores", "--rules", str(rules), "--out",
                            str(tmp_path / "o")], capsys)
    assert code == 2 and "mine.toml: supply.settlements must be a whole number from 1 to 30, got 500" in err


def test_the_summary_counts_every_game_once():
    r = play_games("four-islands", 3, ["random", "weighted", "weighted"], 24, 5, threads=1, progress=False)
    s = r.summary
    assert r.games.height == 24 * 3 and r.games["game"].n_unique() == 24
    assert sum(seat["wins"] for seat in s["seats"]) == s["decided"] == 24 - s["capped"]["games"]
    assert set(s["by_bot"]) == {"random", "weighted"}
    assert s["by_bot"]["random"]["seat_games"] == 24 and s["by_bot"]["weighted"]["seat_games"] == 48
    won = r.games.filter(pl.col("won"))
    assert (won["seat"] == won["winner"]).all() and (won["vp"] >= 13).all()  # Four Islands: 13 VP
    per_seat = r.games.group_by("seat").agg(pl.col("vp").mean()).sort("seat")["vp"].to_list()
    assert per_seat == pytest.approx([seat["vp"]["mean"] for seat in s["seats"]])
    assert any("not under human play" in a for a in s["assumptions"])
    assert any("confounded" in a for a in s["assumptions"]) and s["bot_differences"] == {}


def test_fixed_boards_play_the_printed_layout_and_threads_change_nothing():
    one = play_games("new-shores", 4, ["weighted"], 8, 2, boards="fixed", threads=1, chunk_size=3, progress=False)
    two = play_games("new-shores", 4, ["weighted"], 8, 2, boards="fixed", threads=2, chunk_size=1, progress=False)
    assert one.games.equals(two.games)
    random = play_games("new-shores", 4, ["weighted"], 8, 2, threads=1, progress=False)
    assert not random.games.equals(one.games)


def test_the_headline_names_the_favoured_seat_and_a_fair_seats_share():
    seat = lambda k, p, ci: {"seat": k, "p_win": p, "ci95": ci}  # noqa: E731
    s = {"seats": [seat(1, 0.31, [0.29, 0.33]), seat(2, 0.24, [0.22, 0.26]), seat(3, 0.23, [0.21, 0.25]),
                   seat(4, 0.22, [0.20, 0.24])], "fair_share": 0.25, "games": 2000, "by_bot": {"weighted": {}},
         "bots": [{"label": "weighted", "spec": "weighted"}] * 4}
    text = headline(s)
    assert text.startswith("With weighted in every seat, seat 1 wins most often: 31.0% of 2,000 games (95% CI "
                           "29.0%–33.0%) against the 25.0%")
    assert "seat 4 least" in text and "no seat's share differs" not in text
    # the seat order moves with the value bot's opening: the first line names it, the default too
    s["by_bot"], s["bots"] = {"value": {}}, [{"label": "value", "spec": "value:opening=1,gold=1"}] * 4
    assert headline(s).startswith("With value (opening diverse, the default) in every seat, seat 1 wins most often")
    s["bots"] = [{"label": "value:opening=pips", "spec": "value:opening=0,gold=1"}] * 4
    assert headline(s).startswith("With value:opening=pips in every seat, seat 1")
    s["seats"] = [seat(1, 0.26, [0.24, 0.28]), seat(2, 0.24, [0.22, 0.26])]
    s["fair_share"] = 0.25
    assert "no seat's share differs measurably" in headline(s)


def test_the_command_writes_its_report(tmp_path, capsys):
    out = tmp_path / "o"
    code, stdout, err = run_cli(["seafarers", "play", "--scenario", "through-the-desert", "--players", "3",
                                 "--games", "5", "--seed", "1", "--no-progress", "--out", str(out)], capsys)
    assert code == 0, err
    assert "wins most often" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["experiment"] == "seafarers play" and summary["games"] == 5
    report = (out / "report.md").read_text()
    assert report.startswith("# Catan: Seafarers — Through the Desert, 3 players: who wins full games")
    assert "These are bots" in report and "human" in report
    for png in ("win_rates", "game_length", "vp_over_rolls", "vp_sources", "board_longest", "board_shortest"):
        assert f"{png}.png" in report and (out / f"{png}.png").stat().st_size > 10_000, png


def test_replayed_games_are_the_games_played_and_give_each_seats_vp_at_every_roll():
    from analyzer.seafarers.full_game import REPLAYED, play_games, replay

    r = play_games("four-islands", 4, ["value", "weighted", "random", "value"], 30, 3, threads=1, progress=False)
    first = r.games.filter(pl.col("seat") == 1).sort("game")
    longest = r.boards["longest"]
    assert longest["rolls"] == first["rolls"].max() and r.boards["shortest"]["rolls"] == first["rolls"].min()
    from analyzer.seafarers.bots import parse_bot
    from analyzer.seafarers.full_game import play_job
    from analyzer.seafarers.full_rules import rules_text

    spec = play_job("four-islands", 4, [parse_bot(b) for b in ["value", "weighted", "random", "value"]], 3, "random",
                    rules_text(None)[0]).spec
    for again in replay(spec, [0, 7]):
        row = first.filter(pl.col("game") == again["game"])
        assert again["result"][kg.R_ROLLS] == row["rolls"][0] and again["result"][kg.R_WINNER] + 1 == row["winner"][0]
        vp = again["vp"]
        assert vp.shape == (4, row["rolls"][0]) and (np.diff(vp, axis=1) >= -4).all()  # (a lost route, army: -2 each)
        assert vp[:, 0].tolist() == [2, 2, 2, 2]  # two draft settlements at the first roll
    curves = r.summary["vp_over_rolls"]
    assert curves["games"] == min(30, REPLAYED) and len(curves["seats"]) == 4
    assert all(lo <= mid <= hi for s in curves["seats"] for lo, mid, hi in zip(s["q25"], s["median"], s["q75"]))


def test_rotation_seats_every_bot_everywhere_on_the_same_luck():
    r = play_games("new-shores", 4, ["value", "weighted", "weighted", "weighted"], 6, 4, rotate=True, threads=1,
                   progress=False)
    g, s = r.games, r.summary
    assert g.height == 6 * 4 * 4 and s["games"] == 6 and s["games_played"] == 24
    # every bot sat in every seat: value once per rotation, in seat 1 - r mod 4
    value = g.filter(pl.col("bot") == "value")
    assert sorted(value.group_by("seat").len()["len"].to_list()) == [6, 6, 6, 6]
    assert (value["seat"] == ((-value["rotation"].cast(pl.Int64)) % 4 + 1)).all()
    # every rotation meets the same luck (board, dice, deck of game g): rotation 0 is the unrotated run
    alone = play_games("new-shores", 4, ["value", "weighted", "weighted", "weighted"], 6, 4, threads=1,
                       progress=False).games
    assert g.filter(pl.col("rotation") == 0).drop("rotation").equals(alone.drop("rotation"))
    d = s["bot_differences"]["value vs weighted"]
    assert d["n"] == 6 and d["mean_diff"] > 0
    assert s["by_bot"]["value"]["seat_games"] == 24 and s["by_bot"]["weighted"]["seat_games"] == 72
    text = headline(s)
    assert text.startswith("value wins") and "points per game" in text and "every bot in every seat" in text


def test_precision_plays_until_seat_ones_win_rate_is_known_to_the_half_width(tmp_path, capsys):
    from analyzer.stats import wilson_ci

    r = play_games("new-shores", 4, ["value"], None, 2, threads=1, progress=False, precision=0.03, min_games=100)
    seat1 = r.games.filter(pl.col("seat") == 1)
    n, wins = seat1.height, int(seat1["won"].sum())
    lo, hi = wilson_ci(wins, n)
    assert (hi - lo) / 2 <= 0.03 < (lambda a, b: (b - a) / 2)(*wilson_ci(int(seat1["won"][:-1].sum()), n - 1))
    assert r.summary["run"]["precision"]["half_width"] <= 0.03 and r.summary["games"] == n
    code, _, err = run_cli(["seafarers", "play", "--scenario", "new-shores", "--bots", "value,random,value,random",
                            "--rotate", "--precision", "0.05", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and "every rotation must play the same games" in err


def test_a_streaming_run_gives_the_figures_of_every_game_without_the_per_game_table(tmp_path, capsys):
    """--no-per-game keeps only aggregates (flat memory): its summary is the per-game run's, and both match the
    figures recomputed from the per-game table; no games.parquet is written; with --rotate it is refused (the
    paired comparison needs every game)."""
    from analyzer.stats import clustered_wilson_ci, mean_ci, percentiles

    bots = ["value", "weighted", "value", "random"]
    kept = play_games("four-islands", 4, bots, 40, 3, threads=1, progress=False)
    streamed = play_games("four-islands", 4, bots, 40, 3, threads=2, chunk_size=7, progress=False, per_game=False)
    assert streamed.games is None
    for key in ("seats", "by_bot", "rolls", "turns", "capped", "decided", "extreme_games", "vp_over_rolls"):
        assert streamed.summary[key] == kept.summary[key], key
    g, s = kept.games, kept.summary
    for seat in s["seats"]:
        rows = g.filter(pl.col("seat") == seat["seat"])
        assert seat["wins"] == rows["won"].sum() and seat["vp"]["mean"] == pytest.approx(rows["vp"].mean())
        assert seat["vp"]["ci95"] == pytest.approx(mean_ci(rows["vp"].to_numpy())["ci95"])
        assert seat["pieces"]["ships"] == pytest.approx(rows["ships"].mean())
    value = g.filter(pl.col("bot") == "value")
    assert s["by_bot"]["value"]["ci95"] == pytest.approx(clustered_wilson_ci(value["won"], value["game"]))
    rolls = g.filter(pl.col("seat") == 1)["rolls"]
    assert s["rolls"]["percentiles"] == pytest.approx(percentiles(rolls.to_numpy()))
    assert s["extreme_games"]["shortest"]["rolls"] == rolls.min()
    code, _, err = run_cli(["seafarers", "play", "--scenario", "new-shores", "--games", "6", "--no-per-game",
                            "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert not (tmp_path / "o" / "games.parquet").exists() and (tmp_path / "o" / "report.html").exists()
    code, _, err = run_cli(["seafarers", "play", "--scenario", "new-shores", "--games", "6", "--no-per-game",
                            "--rotate", "--out", str(tmp_path / "p")], capsys)
    assert code == 2 and "--no-per-game with --rotate" in err and len(err.strip().splitlines()) == 1


def test_new_world_plays_with_its_harbours_laid_and_says_how():
    """New World is played in full: the players' harbour tokens are on the boards drawn, and the report names the
    readings in force (only where the players lay harbours)."""
    r = play_games("new-world", 3, ["value", "weighted", "random"], 20, 5, threads=1, progress=False)
    s = r.summary
    assert s["decided"] + s["capped"]["games"] == 20 and s["decided"] > 0
    assert s["rule_options"]["harbours_after_draft"] is False and s["rule_options"]["harbour_hexes_apart"] is False
    assert any(a.startswith("Harbours laid by the players") for a in s["assumptions"])
    assert any(a.startswith("New World's harbour tokens are laid before the draft") for a in s["assumptions"])
    assert len(r.boards["longest"]["drawing"]["harbours"]) == 10  # all laid, none dealt
    other = play_games("new-shores", 3, ["random"] * 3, 4, 5, threads=1, progress=False).summary["assumptions"]
    assert not any("harbour tokens" in a or "Laid harbours" in a for a in other)


@pytest.mark.parametrize("scenario, hidden", [
    ("base", {"vp_island_bonus", "vp_cloth", "vp_chits"}),
    ("new-shores", {"vp_cloth", "vp_chits"}),
    ("cloth-for-catan", {"vp_longest_route", "vp_island_bonus", "vp_chits"}),
    ("pirate-islands", {"vp_longest_route", "vp_largest_army", "vp_vp_cards", "vp_island_bonus", "vp_cloth",
                        "vp_chits"}),
])
def test_the_vp_sources_shown_are_those_the_scenario_can_give(scenario, hidden):
    """The report's VP-source bars and columns list only what the scenario pays. Seed 002 on Cloth for Catan: "Este
    cenário não se joga com a carta \\"Maior estrada comercial\\""; on the Pirate Islands: "Neste cenário não são
    usadas as cartas especiais \\"Maior estrada comercial\\" e \\"Maior exército de cavalaria\\"", and its VP cards
    count as knights (4 players) or are set aside (3). A hidden source is zero in every game played."""
    played = play_games(scenario, 4, ["value"] * 4, 6, 3, threads=1, progress=False)
    shown = set(played.summary["seats"][0]["vp_sources"])
    assert shown == set(kg.VP_COLS) - hidden
    for column in hidden:
        assert (played.games[column] == 0).all(), column
