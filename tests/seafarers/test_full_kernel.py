"""The full Seafarers game's numba kernel (kernels/catan/game.py) plays the reference's games: the same legal actions
in the same order at every decision, the same result, for every scenario of issue 28 and player count."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.rng_reference import Stream
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.play import kernel_board, play_on_board
from analyzer.seafarers.scenarios import load_scenario
from kernels.catan import game as kg
from kernels.rng import PURPOSE_POLICY

RULES = load_rules()
SCENARIOS = ("new-shores", "four-islands", "through-the-desert")


def tables(slug, players, seed, g):
    s = load_scenario(slug, players)
    b = generate_boards(deal_plan(s), 1, seed, first=g)
    table = R.game_table(s, RULES, b.terrain[0], b.number[0], b.harbour[0])
    return table, kernel_board(table)


def seat_columns(out, j, players):
    return [out[kg.N_GAME_COLS + p * kg.N_SEAT_COLS: kg.N_GAME_COLS + (p + 1) * kg.N_SEAT_COLS, j].tolist()
            for p in range(players)]


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(SCENARIOS), st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6),
       st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games(slug, players, seed, g, bot):
    table, board = tables(slug, players, seed, g)
    decide = R.decide_weighted if bot == "weighted" else R.decide_random
    state = R.init(table, seed, g)
    game = kg.new_game(board)
    kg.init(board, game, seed, g)
    assert game.deck[:RULES.deck_size].tolist() == state.deck
    streams = [Stream(seed, 4 * g + p, PURPOSE_POLICY) for p in range(players)]
    while not R.terminal(state):
        actions = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in actions], R.PHASES[state.phase]
        assert game.st[kg.ST_ACTOR] == state.actor and game.st[kg.ST_PHASE] == state.phase
        action = actions[decide(actions, streams[state.actor])]
        R.step(table, state, action)
        kg.step(board, game, *action)
    assert kg.legal(board, game) == 0
    assert game.hands[:players].tolist() == state.hands and game.route[:players].tolist() == state.route
    out, _ = play_on_board(board, seed, g, 1, [bot] * players)  # the kernel's own loop plays the same game
    ref = R.result(table, state)
    assert out[[kg.R_WINNER, kg.R_TURNS, kg.R_ROLLS, kg.R_SEVENS, kg.R_CAPPED], 0].tolist() == [
        ref["winner"], ref["turns"], ref["rolls"], ref["sevens"], int(ref["capped"])]
    assert seat_columns(out, 0, players) == [[seat[k] for k in kg.SEAT_COLS] for seat in ref["seats"]]


def test_games_in_one_run_are_the_games_alone():
    _, board = tables("new-shores", 4, 3, 0)
    together, _ = play_on_board(board, 3, 10, 4, ["weighted"] * 4)
    alone = np.concatenate([play_on_board(board, 3, 10 + j, 1, ["weighted"] * 4)[0] for j in range(4)], axis=1)
    assert (together == alone).all()
    assert len({tuple(together[:, j]) for j in range(4)}) == 4  # different games
