"""The rollout bot (kernels/meographic/rollout.py) plays the pure-Python reference's rollout
(analyzer.meographic.reference.rollout_choice) move for move from random mid-game positions, and it is fair: it
never reads the bag's order (a game whose unseen tiles are reordered gets the same decision)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.meographic import reference as ref
from analyzer.meographic.rules import column_names, default_rules
from analyzer.meographic.simulation import game_spec, n_cols, setup_of
from kernels import meographic as km

RULES = default_rules()


def _kernel_at(spec, game, prefix):
    """The kernel's state after the actions of prefix."""
    _, setup = setup_of(spec)
    state = km.new_state(RULES.n_tiles, len(RULES.missions), n_cols(RULES))
    sim = km.new_state(RULES.n_tiles, len(RULES.missions), n_cols(RULES))
    km.init(state, setup, spec["seed"], game)
    for action in prefix:
        km.step(state, setup, *action)
    return state, setup, sim


def _kernel_rest(spec, game, prefix):
    """The actions the kernel's bots play from there to the end, and the result row."""
    state, setup, sim = _kernel_at(spec, game, prefix)
    played = []
    while not km.terminal(state, setup):
        n = km.legal(state, setup, state.actions)
        action = tuple(int(x) for x in state.actions[km.decide(state, setup, state.actions, n, sim)])
        played.append(action)
        km.step(state, setup, *action)
    km.result(state, setup, state.row)
    return played, state.row.tolist()


def _random_prefix(players, seed, game, rounds):
    state = ref.init(RULES, players, seed, game)
    choose = ref.random_chooser(seed, game)
    prefix = []
    while state.round < rounds:
        acts = ref.legal(state, RULES)
        prefix.append(acts[choose(state, acts)])
        ref.step(state, RULES, prefix[-1])
    return state, prefix


@settings(max_examples=6, deadline=None)
@given(players=st.integers(1, 3), seed=st.integers(0, 2**40), game=st.integers(0, 10**6),
       rounds=st.integers(18, 20), k=st.integers(1, 2), width=st.integers(1, 3))
def test_kernel_and_reference_rollouts_play_the_same_end_of_game(players, seed, game, rounds, k, width):
    state, prefix = _random_prefix(players, seed, game, rounds)
    spec = game_spec(RULES, players, f"rollout:k={k},width={width}", seed)
    choose = ref.rollout_choice(RULES, seed, game, k=k, width=width)
    played = []
    while not ref.terminal(state):
        acts = ref.legal(state, RULES)
        played.append(acts[choose(state, acts)])
        ref.step(state, RULES, played[-1])
    kernel_played, row = _kernel_rest(spec, game, prefix)
    assert kernel_played == played
    assert row == ref.result(state, RULES)


def test_the_rollout_never_reads_the_bag_order():
    """"Comprar uma peça do saco ... às cegas": reorder the tiles the seat has not seen (the bag and the other
    seat's hand) and the rollout's decision is the same, at each of many positions."""
    spec = game_spec(RULES, 2, "rollout:k=2,width=3", 5)
    for game in range(8):
        _, prefix = _random_prefix(2, 5, game, 10 + game)
        state, setup, sim = _kernel_at(spec, game, prefix)
        n = km.legal(state, setup, state.actions)
        first = km.decide(state, setup, state.actions, n, sim)
        pos, other = state.st[3], 1 - state.st[1]  # ST_BAG_POS, the seat not to move
        hidden = np.concatenate([state.bag[pos:], state.hands[other, :1]])
        np.random.default_rng(game).shuffle(hidden)
        state.bag[pos:] = hidden[:-1]
        state.hands[other, 0] = hidden[-1]
        assert km.decide(state, setup, state.actions, n, sim) == first


def test_the_rollout_plays_whole_games_by_the_rules():
    """Kernel rollout games keep the invariants: the points by source sum to the score, every seat placed 21
    tiles of at least 1 point, a winner on the top score."""
    from analyzer.meographic.simulation import job_of, play_range_for_spec

    names = column_names(len(RULES.missions))
    col = {n: k for k, n in enumerate(names)}
    for players in (1, 2):
        spec = game_spec(RULES, players, "rollout:k=1,width=2", 3)
        out = np.zeros((job_of(spec).n_cols, 20), np.int16)
        play_range_for_spec(spec)(0, out)
        for s in range(players):
            parts = sum(out[col[f"{w}_{s + 1}"]].astype(int) for w in ("tile", "adjacency", "mission", "bonus"))
            assert (parts == out[col[f"score_{s + 1}"]]).all()
            assert (out[col[f"tile_{s + 1}"]] >= 21).all()
        assert (out[col["top_seats"]] >= 1).all()
