"""Regatta jobs through the runner: options checked before any game, results independent of threads and
chunks, bots compared on common random numbers."""

import pickle

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.regatta.simulation import compare_bots, play, regatta_job
from analyzer.runner import RunOptions, run_job


@pytest.mark.parametrize("players, bots, team, message", [
    (5, ["greedy"], False, "--players 5"),
    (3, ["greedy"], True, "--team"),
    (3, ["greedy", "random"], False, "--bots: 2 bots for 3 seats"),
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
    """greedy against itself: every rotation plays the same race, so "a" wins it in exactly one of the two
    seatings: its share is exactly 1/2 of the races that have a winner."""
    result = compare_bots("greedy", "greedy", 2, 40, seed=3)
    won = (play(2, ["greedy"], 40, 3)[0] >= 0).mean()
    assert result["fair"] == 0.5 and result["share"] == pytest.approx(0.5 * won)
    assert result["edge"]["n"] == 40


def test_compare_rules_pairs_games():
    """The same rules on both sides: every race identical, a difference of exactly 0 turns."""
    from analyzer.regatta import rules as rules_module
    from analyzer.regatta.simulation import compare_rules

    data = rules_module.load().source
    same = compare_rules(data, data, 2, "greedy", 30, seed=1)
    assert same["diff"]["mean_diff"] == 0 and same["turns_a"] == same["turns_b"]
    fewer = {**data, "action": [dict(c, count=2) if c["name"] == "negate" else c for c in data["action"]]}
    other = compare_rules(data, fewer, 2, "blocker", 30, seed=1)
    assert other["diff"]["n"] == 30 and other["turns_a"] != other["turns_b"]
