"""The numba kernel and the pure-Python reference play identical games (every action, every result)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.regatta import reference as R
from analyzer.regatta import rules as rules_module
from analyzer.regatta.simulation import play_games, trace_game
from kernels.regatta import engine as E

RULES = rules_module.load()


def kernel_game(players, team, seed, game):
    setup = E.make_setup(RULES, players, team)
    trace, state = trace_game(setup, np.zeros(4, np.int64), np.zeros((4, 4)), seed, game)
    return [tuple(int(v) for v in row[1:]) for row in trace], state


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), team=st.booleans(), seed=st.integers(0, 2**40), game=st.integers(0, 10**6))
def test_kernel_plays_the_reference_game(players, team, seed, game):
    players = 4 if team else players
    k_actions, state = kernel_game(players, team, seed, game)
    r_actions, res = R.play_random(RULES, players, seed, game, team)
    assert k_actions == r_actions
    assert state.sc[E.S_WINNER] == res["winner"] and state.sc[E.S_TURN] == res["turns"]
    assert state.sc[E.S_NEGATED] == res["negated"] and list(state.used) == [res[f"used_{n}"] for n in R.KIND_NAMES]


def test_invariants_on_many_games():
    """Cards are conserved, rocks never move, a race ends by a win or by the flagged cap."""
    setup = E.make_setup(RULES, 3, False)
    state = E.make_state(setup)
    out = np.zeros((E.N_COLS, 300), np.int32)
    play_games(setup, np.array([1, 0, 2, 0]), np.full((4, 4), 0.5), 5, 0, out, st=state)
    winner, turns, capped = out[0], out[1], out[2]
    assert ((winner >= 0) ^ (capped == 1)).all()
    assert (turns[capped == 1] == RULES.turn_cap).all() and (turns[capped == 0] < RULES.turn_cap).all()
    held = state.hand.sum() + state.sc[E.S_DECK_N] + state.disc.sum()
    assert held == RULES.card_count.sum()
    fresh = E.make_state(setup)
    E.init(fresh, setup, 5, 299)  # the last game played: its rocks lie where set-up laid them
    rocks = RULES.tile_kind[fresh.cell_tile] == R.ROCK
    assert rocks.any() and (state.cell_tile[rocks] == fresh.cell_tile[rocks]).all()
