"""The numba kernel (kernels/meographic/) plays the pure-Python reference's games action for action and point
for point: random and greedy bots, 1-4 players, any seed (hypothesis); invariants over many kernel games."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.meographic import reference as ref
from analyzer.meographic.rules import default_rules
from analyzer.meographic.simulation import game_spec, job_of, play_range_for_spec, replay

RULES = default_rules()


def _both(players: int, bot: str, seed: int, game: int):
    spec = game_spec(RULES, players, bot, seed)
    row, trace, _ = replay(spec, game)
    choose = ref.random_chooser(seed, game) if bot == "random" else ref.greedy_choice(RULES)
    state, played = ref.play(RULES, players, seed, game, choose)
    return row, trace, state, played


@settings(max_examples=40, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**40), game=st.integers(0, 10**6))
def test_kernel_and_reference_play_identical_random_games(players, seed, game):
    row, trace, state, played = _both(players, "random", seed, game)
    assert [tuple(int(x) for x in t[1:]) for t in trace] == played
    assert row.tolist() == ref.result(state, RULES)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(1, 3), seed=st.integers(0, 2**40), game=st.integers(0, 10**6))
def test_kernel_and_reference_play_identical_greedy_games(players, seed, game):
    row, trace, state, played = _both(players, "greedy", seed, game)
    assert [tuple(int(x) for x in t[1:]) for t in trace] == played
    assert row.tolist() == ref.result(state, RULES)


def test_invariants_over_many_games():
    names = ref.column_names(len(RULES.missions))
    col = {n: k for k, n in enumerate(names)}
    for players in (1, 2, 4):
        for bot in ("random", "greedy", "planner"):
            spec = game_spec(RULES, players, bot, 11)
            out = np.zeros((job_of(spec).n_cols, 300), np.int16)
            play_range_for_spec(spec)(0, out)
            for s in range(players):
                parts = sum(out[col[f"{w}_{s + 1}"]].astype(int) for w in ("tile", "adjacency", "mission", "bonus"))
                assert (parts == out[col[f"score_{s + 1}"]]).all()
                assert (out[col[f"tile_{s + 1}"]] >= 21).all()  # 21 tiles of at least 1 point
            for s in range(players, 4):
                assert (out[col[f"score_{s + 1}"]] == 0).all()
            wins = sum(out[col[f"win_{s + 1}"]].astype(int) for s in range(players))
            assert (wins == out[col["top_seats"]]).all() and (wins >= 1).all()
            revealed = out[col["revealed_1"]:col["revealed_1"] + 15]
            assert (revealed.sum(0) == 7).all()  # the first card and updates 1, 3, 6, 10, 15, 21
            assert (out[col["discarded"]] == (21 if players == 1 else 0)).all()
