"""Beacon Patrol runs: a game is the same inside any range of games, seeds matter, every policy is dealt
the same deck on a seed, bad options are one-line errors, the summary agrees with the table."""

import numpy as np
import pytest

from analyzer.beacon.simulation import make_setup, play_range_fn, simulate
from analyzer.errors import UserError
from kernels import beacon as kb
from tests.beacon.positions import dealt_deck


def test_a_chunk_equals_the_same_games_inside_a_bigger_run():
    play = play_range_fn(make_setup(2, "random", "", None), seed=3)
    whole = np.zeros((kb.N_COLS, 50), np.int16)
    play(0, whole)
    part = np.zeros((kb.N_COLS, 10), np.int16)
    play(30, part)
    np.testing.assert_array_equal(whole[:, 30:40], part)


def test_seed_changes_results():
    a = simulate(players=1, policy="random", games=200, seed=1, threads=1).games["score"].to_numpy()
    b = simulate(players=1, policy="random", games=200, seed=2, threads=1).games["score"].to_numpy()
    assert not np.array_equal(a, b)


def test_policies_see_the_same_deck_on_the_same_seed():
    """Common random numbers: the deck stream does not depend on the policy."""
    decks = []
    for policy in ("random", "greedy"):
        s = make_setup(1, policy, "", None)
        decks.append(dealt_deck(s.kernel_tiles, s.cfg, s.active, s.tiles.hq, 5, 9))
    np.testing.assert_array_equal(decks[0], decks[1])
    assert sorted(decks[0].tolist()) == [t for t in range(s.tiles.n) if s.active[t] and t != s.tiles.hq]


@pytest.mark.parametrize("kwargs", [dict(games=0), dict(threads=0), dict(seed=-1), dict(players=5),
                                    dict(policy="nope"), dict(expansions="boats")])
def test_bad_options_raise_user_errors(kwargs):
    args = dict(players=1, policy="random", games=10, seed=0, threads=1) | kwargs
    with pytest.raises(UserError):
        simulate(**args)


def test_summary_matches_the_games_table():
    r = simulate(players=2, policy="greedy", games=300, seed=4, threads=2)
    scores = r.games["score"].to_numpy()
    assert r.summary["games"] == 300
    assert r.summary["mean"] == pytest.approx(scores.mean())
    assert r.summary["best_game"]["score"] == scores.max()
    counts = [v["count"] for v in r.summary["rank_probabilities"].values()]
    assert sum(counts) == 300
    # placed + discarded covers every tile but the HQ in every game
    total = r.games["tiles_placed"] + r.games["tiles_discarded"]
    assert (total == r.summary["tile_set"]["n_active"] - 1).all()
    # the best board replays to the best score
    assert len(r.best_layout["tile"]) == r.games["tiles_placed"][r.summary["best_game"]["game"]] + 1

