"""Determinism: per-game results never depend on threads or chunking; CRN across policies."""

import numpy as np
import pytest

from analyzer.beacon.simulation import make_setup, play_range_fn, simulate
from analyzer.errors import UserError
from analyzer.runner import plan_chunks
from kernels import beacon as kb
from tests.beacon_positions import dealt_deck
from kernels.rng import PURPOSE_DECK, next_u64, stream_init, uniform_int


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


def test_streams_are_counter_based_and_distinct():
    a = np.zeros(2, np.uint64)
    b = np.zeros(2, np.uint64)
    stream_init(a, 1, 0, PURPOSE_DECK)
    stream_init(b, 1, 1, PURPOSE_DECK)
    xs = [next_u64(a) for _ in range(5)]
    ys = [next_u64(b) for _ in range(5)]
    assert len(set(xs) | set(ys)) == 10
    stream_init(a, 1, 0, PURPOSE_DECK)
    assert [next_u64(a) for _ in range(5)] == xs  # same key, same counter -> same numbers


def test_uniform_int_is_uniform():
    s = np.zeros(2, np.uint64)
    stream_init(s, 123, 0, 0)
    counts = np.bincount([uniform_int(s, 6) for _ in range(60_000)], minlength=6)
    from scipy.stats import chisquare
    assert chisquare(counts).pvalue > 1e-4


def test_plan_chunks_covers_every_game_once():
    chunks = plan_chunks(1001, 2, 100)
    covered = np.concatenate([np.arange(s, e) for s, e in chunks])
    np.testing.assert_array_equal(covered, np.arange(1001))


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
