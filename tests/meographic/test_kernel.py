"""The numba kernel (kernels/meographic/) plays the pure-Python reference's games action for action and point
for point: random and greedy bots, 1-4 players, any seed (hypothesis), under both readings of "apenas uma vez por
carta" (card_scores_once), on a small set whose bag runs out and with a card of several shapes; invariants over
many kernel games."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.meographic import reference as ref
from analyzer.meographic.rules import column_names, default_rules, load_rules
from analyzer.meographic.simulation import game_spec, job_of, play_range_for_spec, replay

RULES = default_rules()
REPEAT = load_rules(rule=["card_scores_once=false"])
# 14 tiles of 3 types (the bag runs out) and a card of two shapes
SMALL = ('[[types]]\ncode = "F"\n[[types]]\ncode = "M"\n[[types]]\ncode = "L"\n'
         '[[tiles]]\ntype = "F"\npoints = 1\ncount = 5\n[[tiles]]\ntype = "M"\npoints = 2\ncount = 5\n'
         '[[tiles]]\ntype = "L"\npoints = 3\ncount = 4\n'
         '[[missions]]\nid = "a"\nshapes = [["FF"], ["M*"]]\npoints = 5\n[[missions]]\nid = "b"\nshape = ["FML"]\n'
         'points = 7\n')


def _both(players: int, bot: str, seed: int, game: int, rules=RULES):
    spec = game_spec(rules, players, bot, seed)
    row, trace, _ = replay(spec, game)
    choose = ref.random_chooser(seed, game) if bot == "random" else ref.greedy_choice(rules)
    state, played = ref.play(rules, players, seed, game, choose)
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


@settings(max_examples=10, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**40), game=st.integers(0, 10**6),
       bot=st.sampled_from(["random", "greedy"]))
def test_kernel_and_reference_agree_when_a_card_scores_again(players, seed, game, bot):
    row, trace, state, played = _both(players, bot, seed, game, REPEAT)
    assert [tuple(int(x) for x in t[1:]) for t in trace] == played
    assert row.tolist() == ref.result(state, REPEAT)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**40), game=st.integers(0, 10**6),
       bot=st.sampled_from(["random", "greedy"]), once=st.booleans())
def test_kernel_and_reference_agree_on_an_empty_bag_and_several_shapes(tmp_path_factory, players, seed, game, bot,
                                                                        once):
    path = tmp_path_factory.mktemp("small") / "small.toml"
    path.write_text(SMALL, "utf-8")
    rules = load_rules(path, {"card_scores_once": once})
    row, trace, state, played = _both(players, bot, seed, game, rules)
    assert [tuple(int(x) for x in t[1:]) for t in trace] == played
    assert row.tolist() == ref.result(state, rules)
    assert state.bag_out >= 1  # 14 tiles for 21 or more takes: the bag runs out, and the game plays on


def test_invariants_over_many_games():
    names = column_names(len(RULES.missions))
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
            assert (revealed.sum(0) == 6).all()  # the first card and updates 1, 3, 6, 10, 15 (21: no photo after)
            completed = out[col["completed_1"]:col["completed_1"] + 15]
            assert (completed[revealed == 0] == 0).all()  # only a card open to a photo is completed
            assert (completed <= players).all()  # card_scores_once: a seat scores a card once a game
            bag_out = out[col["bag_out"]]
            assert ((bag_out == 0) | ((bag_out >= 1) & (bag_out <= 21))).all()
            assert (out[col["discarded"]] == (21 if players == 1 else 0)).all()
