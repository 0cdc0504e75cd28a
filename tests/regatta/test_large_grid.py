"""Grids of more than 64 cells (the rules allow up to 12 x 8): the kernel's legal actions and bots play the
pure-Python twins' games, every action alike (no 64-bit cell mask may cut a move or a swap)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.regatta import reference as R
from analyzer.regatta import reference_bots as RB
from analyzer.regatta import rules as rules_module
from analyzer.regatta.arms import BOTS
from analyzer.regatta.simulation import trace_game
from kernels.regatta import bots as B
from kernels.regatta import engine as E


def grid_rules(rows: int, cols: int, turn_cap: int = 60):
    """The default tiles scaled to a rows x cols grid: the river pile repeated (rows - 2) * cols / 16 times, a
    goal and a start tile per column (one sea tile)."""
    data = rules_module.load().source
    river = [t for t in data["tile"] if t["pile"] == "river"]
    times = (rows - 2) * cols // sum(t["count"] for t in river)
    tiles = [dict(t, count=t["count"] * times) for t in river]
    tiles += [{"pile": "goal", "open": "ESW", "count": cols - 1}, {"pile": "goal", "open": "ESW", "count": 1,
                                                                    "sea": True},
              {"pile": "start", "open": "NS", "count": cols - 2}, {"pile": "start", "open": "NES", "count": 1},
              {"pile": "start", "open": "NSW", "count": 1}]
    return rules_module.from_data(data | {"grid": {"rows": rows, "cols": cols}, "tile": tiles,
                                          "limits": {"turn_cap": turn_cap}}, "test")


BIG = {(10, 8): grid_rules(10, 8), (12, 8): grid_rules(12, 8)}


def kernel_game(rules, players, team, seed, game, codes, params):
    setup = E.make_setup(rules, players, team)
    trace, state = trace_game(setup, np.array(codes + [0] * (4 - len(codes))),
                              np.array(params + [[0.0] * B.N_PARAMS] * (4 - len(params))), seed, game)
    return [tuple(int(v) for v in row[1:]) for row in trace], state


def test_the_grids_are_larger_than_a_64_bit_mask():
    for (rows, cols), rules in BIG.items():
        assert rules.rows * rules.cols > 64 and len(rules.tile_kind) == rows * cols


@settings(max_examples=10, deadline=None)
@given(size=st.sampled_from(sorted(BIG)), players=st.integers(2, 4), team=st.booleans(),
       seed=st.integers(0, 2**40), game=st.integers(0, 10**6))
def test_random_bots_play_the_reference_game_on_large_grids(size, players, team, seed, game):
    players = 4 if team else players
    rules = BIG[size]
    k_actions, state = kernel_game(rules, players, team, seed, game, [0] * players, [[0.0] * B.N_PARAMS] * players)
    r_actions, res = R.play_random(rules, players, seed, game, team)
    assert k_actions == r_actions
    assert state.sc[E.S_WINNER] == res["winner"] and state.sc[E.S_TURN] == res["turns"]
    moved_far = [a for a in k_actions if a[0] in (E.ADV1, E.ADV2, E.SWAP_ANY, E.SWAP_ADJ) and max(a[2], a[3]) >= 64]
    assert moved_far or res["turns"] < 10  # the cells past bit 63 are played, not only allowed


@pytest.mark.parametrize("labels, games", [(["greedy", "blocker"], 2),
                                          (["planner:beam=2,depth=2", "greedy", "random"], 1)])
def test_bots_play_the_reference_games_on_large_grids(labels, games):
    rules = BIG[(10, 8)]
    arms = [BOTS.parse(label) for label in labels]
    codes, params = [a.spec.code for a in arms], [list(a.vector(B.N_PARAMS)) for a in arms]
    for game in range(games):
        k_actions, state = kernel_game(rules, len(labels), False, 5, game, codes, params)
        r_actions, s = RB.play(rules, len(labels), 5, game, codes, params, False)
        assert k_actions == r_actions
        assert state.sc[E.S_WINNER] == s.winner and state.sc[E.S_TURN] == s.turn
