"""`tabletop seafarers balance --by wins`: full games on every board of the income model
(analyzer/seafarers/balance_wins.py, reports/seafarers/balance_wins.py)."""

import json

import numpy as np
import pytest

from analyzer.seafarers.balance_wins import corner_distance, default_bot, play_balance_wins, wins_job, wins_play_range
from analyzer.seafarers.boards import generate_boards
from analyzer.seafarers.bots import parse_bot
from analyzer.seafarers.full_game import play_job, play_range
from analyzer.seafarers.full_rules import load_rules, rules_text
from analyzer.seafarers.play import kernel_board, play_on_board
from analyzer.seafarers.scenarios import load_scenario
from analyzer.seafarers.table import game_table
from kernels.catan import game as kg
from tests.support import one_line_error, run_cli

SEED = 3


@pytest.fixture(scope="module")
def small():
    return play_balance_wins("four-islands", 3, 6, 20, "pips", SEED, games_per_board=8, sequences=5, threads=1)


def _play(job, first: int, count: int) -> np.ndarray:
    out = np.zeros((job.n_cols, count), job.dtype)
    builder = wins_play_range if job.spec["experiment"] == "balance-wins" else play_range
    builder(job.spec)(first, out)
    return out


def test_game_m_of_board_b_is_played_on_the_income_models_board_b(small):
    """Game b * M + m is played on board b of the seed, with the dice and draws of game b * M + m: the same
    result as the slow path (the reference's game table of board b made into a kernel board)."""
    exp, m = small.experiment, 4
    job = wins_job(exp, default_bot(exp.heuristic.label), m, rules_text()[0])
    got = _play(job, 2 * m + 1, 3)  # games 9, 10, 11: boards 2, 2 and 2
    s = load_scenario("four-islands", 3)
    dealt = generate_boards(exp.plan, 1, SEED, first=2)
    board = kernel_board(game_table(s, load_rules(), dealt.terrain[0], dealt.number[0], dealt.harbour[0]))
    want, _ = play_on_board(board, SEED, 2 * m + 1, 3, [job.spec["bot"]] * 3)
    assert np.array_equal(got, want)


def test_with_one_game_a_board_the_games_are_plays(small):
    """With M = 1, game g is on board g: exactly the games `tabletop seafarers play` plays."""
    exp = small.experiment
    bot = default_bot(exp.heuristic.label)
    got = _play(wins_job(exp, bot, 1, rules_text()[0]), 0, 5)
    want = _play(play_job("four-islands", 3, [parse_bot(bot)] * 3, SEED, "random", rules_text()[0]), 0, 5)
    assert np.array_equal(got, want)


def test_the_summary_is_the_table_s(small):
    s, seats = small.summary["by_wins"], small.seats
    assert seats.height == 6 * 3 and (seats["games"] == 8).all()
    assert [x["wins"] for x in s["seats"]] == [int(seats.filter(seats["seat"] == k)["wins"].sum()) for k in (1, 2, 3)]
    assert sum(x["wins"] for x in s["seats"]) == round(s["decided_share"] * 48)
    rate = seats["win_rate"].to_numpy().reshape(6, 3)
    income = seats["expected_total"].to_numpy().reshape(6, 3)
    r = np.corrcoef((income - income.mean(1, keepdims=True)).ravel(), (rate - rate.mean(1, keepdims=True)).ravel())
    assert s["expected_vs_wins"]["r"] == pytest.approx(r[0, 1])
    assert s["model"]["rows"] == 18 and [t["name"] for t in s["model"]["terms"]][-2:] == ["seat_2", "seat_3"]
    b = s["least_fair_board"]
    assert b["win_rates"] == (seats.filter(seats["board"] == b["board"])["wins"] / 8).to_list()
    assert any("By wins:" in a for a in small.summary["assumptions"])
    assert s["rules_data"]["file"] == "packaged" and s["rule_options"] == dict(load_rules().chosen)


def test_the_same_seed_gives_the_same_result_on_any_number_of_threads(small):
    again = play_balance_wins("four-islands", 3, 6, 20, "pips", SEED, games_per_board=8, sequences=5, threads=2,
                              chunk_size=5)
    assert again.seats.equals(small.seats)


def test_edges_to_the_nearest_bonus_site_count_the_corners_between():
    topo = load_scenario("four-islands", 3).topology
    c = next(c for c in range(topo.n_corner) if topo.corner_in_play[c])
    n = int(next(x for x in topo.corner_neighbours[c] if x >= 0 and topo.corner_in_play[x]))
    further = int(next(x for x in topo.corner_neighbours[n] if x >= 0 and x != c and topo.corner_in_play[x]
                       and x not in topo.corner_neighbours[c]))
    assert corner_distance(topo, [c], {c}) == 0
    assert corner_distance(topo, [c], {n}) == 1
    assert corner_distance(topo, [c], {further}) == 2


def test_the_command_writes_the_by_wins_report(tmp_path, capsys):
    out = tmp_path / "bw"
    code, stdout, _ = run_cli(["seafarers", "balance", "--scenario", "new-shores", "--players", "3", "--boards", "5",
                               "--sequences", "4", "--rolls", "20", "--by", "wins", "--games-per-board", "6",
                               "--seed", "2", "--threads", "1", "--out", str(out)], capsys)
    assert code == 0 and "By wins: over 5 random boards × 6 full games" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["by_wins"]["games"] == 30 and summary["experiment"] == "seafarers balance --by wins"
    for name in ("wins_vs_income.png", "board_spread.png", "win_model.png", "least_fair_board.png", "report.html"):
        assert (out / name).stat().st_size > 0
    md = (out / "report.md").read_text()
    assert md.splitlines()[2].startswith("By wins:") and "## Seats by wins" in md
    assert "## What predicts a seat's win" in md and "## Which boards are unfair" in md


@pytest.mark.parametrize("args, fragment", [
    (["--games-per-board", "5"], "--games-per-board: only with --by wins"),
    (["--by", "luck"], "--by must be income or wins, not 'luck'"),
    (["--by", "wins", "--games-per-board", "1"], "--games-per-board must be from 2"),
    # a fuzz run (issue 33): 0 and an empty bot were read as "not given" and the defaults played (exit 0)
    (["--by", "wins", "--games-per-board", "0"], "--games-per-board must be from 2 to 1,000,000, got 0"),
    (["--by", "wins", "--bot", ""], "--bot: empty bot name in ''"),
    (["--by", "wins", "--bot", "mcts"], "unknown bot 'mcts'"),
    (["--by", "wins", "--games-per-board", "1000000", "--boards", "1000"], "full games"),
])
def test_bad_by_wins_options_give_one_line_and_exit_2(tmp_path, capsys, args, fragment):
    scenario = [] if "--scenario" in args else ["--scenario", "new-shores"]
    code, _, err = run_cli(["seafarers", "balance", *scenario, *args, "--out", str(tmp_path / "o")], capsys)
    assert one_line_error(code, err, fragment), err
    assert not (tmp_path / "o").exists()


def test_a_game_at_the_turn_cap_is_nobody_s_win():
    from analyzer.seafarers.balance_wins import win_counts

    winner = np.array([[0, 1, -1, 1], [2, 2, 2, -1]])
    assert win_counts(winner, 3).tolist() == [[1, 2, 0], [0, 0, 3]]
    assert kg.R_WINNER == 0


def _by_wins(boards: int, spread: dict, model) -> dict:
    seat = lambda s, k: {"seat": s, "wins": k, "games": 40 * boards, "win_rate": k / (40 * boards),  # noqa: E731
                         "ci95": [0.1, 0.4], "board_spread": spread, "income": 0.5, "expected": 0.55}
    return {"by_wins": {"boards": boards, "games_per_board": 40, "games": 40 * boards, "decided_share": 1.0,
                        "fair_share": 0.25, "seats": [seat(s, k) for s, k in ((1, 12), (2, 10), (3, 9), (4, 9))],
                        "bot": "value", "bot_spec": "value:opening=1,gold=1", "income_vs_wins": None,
                        "expected_vs_wins": None, "model": model, "board_model": None,
                        "fairest_board": {"board": 0, "win_rates": [0.3, 0.25, 0.225, 0.225],
                                          "ci95": [[0.18, 0.45]] * 4},
                        "least_fair_board": {"board": 0, "win_rates": [0.3, 0.25, 0.225, 0.225],
                                             "ci95": [[0.18, 0.45]] * 4}}}


def test_the_report_of_one_board_and_of_a_model_that_cannot_be_fitted():
    """`--boards 1`: no spread over boards to measure ("—", no TypeError); a singular feature model (LinAlgError
    in statsmodels, `--heuristic port --bot value:opening=pips`) says it is not estimable and why; a spread no
    larger than the dice's is said in words, never as a 0.0–0.0 interval; the bot is named with its opening."""
    from reports.document import render_md
    from reports.seafarers.balance_wins import wins_blocks, wins_headline

    one = _by_wins(1, {"sd": None, "ci95": [None, None], "observed_sd": None, "noise_sd": 0.07}, None)
    lines = wins_headline(one)
    assert "(value (opening diverse, the default) in every seat)" in lines[0]
    assert lines[1] == "How much boards matter beyond the dice needs at least 2 boards."
    table = render_md(wins_blocks(one, []))
    assert "| 1 | 12 | 30.0% (10.0%–40.0%) | — | — | 7.0 | 0.500 | 0.550 |" in table
    flat = _by_wins(5, {"sd": 0.0, "ci95": [0.0, 0.0], "observed_sd": 0.05, "noise_sd": 0.07},
                    {"rows": 20, "clustered": True, "estimable": False, "reason": "the fit has no unique answer "
                     "(Singular matrix): features that vary together, or an outcome they separate exactly",
                     "left_out": ["to_bonus"]})
    lines = wins_headline(flat)
    assert lines[1].startswith("No seat's chance of winning is shown to move from board to board beyond the dice")
    assert lines[2].startswith("Which seat wins: the logistic model of a seat's wins is not estimable here: the fit")
    text = render_md(wins_blocks(flat, []))
    assert "0.0 (none beyond the dice)" in text and "0.0–0.0" not in text
    assert "Not estimable: the fit has no unique answer" in text and "Left out (no spread in this scenario): to_bonus" \
        in text
