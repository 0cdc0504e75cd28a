"""The full game's invariants (kernels/catan/invariants.py), checked after every step of random games of every
playable scenario; and the checker itself catches each broken bookkeeping it names (a check that cannot fail
proves nothing)."""

import numpy as np
import pytest

from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.full_game import PLAY_SCENARIOS, bot_vectors, parse_bot
from analyzer.seafarers.full_reference import game_table
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.invariants import check_games
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import load_scenario
from kernels.catan import game as kg
from kernels.catan import invariants as ki
from kernels.catan import policies as kp
from kernels.catan.route import route_work


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("scenario", PLAY_SCENARIOS)
def test_every_invariant_holds_after_every_step(scenario, players):
    bots = ["random", "planner", "weighted", "value:opening=port"][:players]
    result = check_games(scenario, players, bots, 12, seed=3)
    assert result["broken"] == {name: 0 for name in ki.INVARIANTS}, result["first_broken_game"]
    assert result["won"] + result["capped"] == 12 and result["won"] > 0


def finished_game(slug="new-shores"):
    """Game 0 of seed 5 on its board, four value bots, every invariant checked after every step."""
    s = load_scenario(slug, 4)
    dealt = generate_boards(deal_plan(s), 1, 5)
    board = kernel_board(game_table(s, load_rules(), dealt.terrain[0], dealt.number[0], dealt.harbour[0]))
    game, work = kg.new_game(board), route_work(len(board.edge_corners))
    policies, params = bot_vectors([parse_bot("value")] * 4)
    out = np.zeros((ki.N_COLS, 1), np.int64)
    ki.play_checked(board, game, 5, 0, policies, params, np.zeros((4, 2), np.uint64), kp.bot_work(board),
                    work, out)
    assert out[0, 0] == 0 and game.st[kg.ST_WINNER] >= 0
    return board, game, work


def broken(name):
    return ki.INVARIANTS.index(name) + 1


@pytest.mark.parametrize("corrupt, name", [
    (lambda g: g.bank.__setitem__(0, g.bank[0] + 1),
     "resources conserved: bank + hands = the bank's size, none negative"),
    (lambda g: g.pieces_left.__setitem__((1, kg.PIECE_ROAD), g.pieces_left[1, kg.PIECE_ROAD] - 1),
     "pieces: on the board + left = the supply, none negative"),
    (lambda g: g.route.__setitem__(2, g.route[2] + 1), "longest route recomputed by brute force = the kernel's"),
    (lambda g: g.rates.__setitem__((0, 3), 1), "maritime rates recomputed from the harbours = the kernel's"),
    (lambda g: g.in_net_corner.__setitem__((0, int(np.flatnonzero(g.corner_owner == 0)[0])), False),
     "network lists: ascending, holding every corner a seat's pieces reach"),
    (lambda g: g.bonus_vp.__setitem__(g.st[kg.ST_WINNER], -20), "the winner has the target VP"),
])
def test_the_checker_catches_each_broken_bookkeeping(corrupt, name):
    board, game, work = finished_game()
    assert ki.check(board, game, work, True) == 0
    corrupt(game)
    assert ki.check(board, game, work, True) == broken(name)


def test_the_checker_catches_a_broken_laid_harbour():
    """New World: a dock showing another type than its token, or a second token on the same sea hex, is caught."""
    board, game, work = finished_game("new-world")
    assert (game.harbour_edges >= 0).all()
    name = "laid harbours: each on a coast edge, its docks showing its token, one per sea hex, no corner shared"
    dock = next(c for e in game.harbour_edges for c in board.edge_corners[e] if game.corner_owner[c] < 0)  # (a
    # built dock would break the seat's rates first)
    saved = game.corner_harbour.copy()
    game.corner_harbour[dock] = (game.corner_harbour[dock] + 1) % 6
    assert ki.check(board, game, work, True) == broken(name)
    game.corner_harbour[:] = saved
    game.harbour_edges[1] = game.harbour_edges[0]  # two tokens on one sea hex
    assert ki.check(board, game, work, True) == broken(name)


def test_the_checker_catches_broken_cloth_bookkeeping():
    """Cloth for Catan: a cloth made from nothing, a route without a ship at its village, a game going on with only 3
    villages holding cloth, a villages' end won by fewer VP: each caught by its own invariant."""
    board, game, work = finished_game("cloth-for-catan")
    assert ki.check(board, game, work, True) == 0
    saved = game.cloth.copy(), game.cloth_route.copy(), game.village_cloth.copy(), game.st.copy()
    game.cloth[1] += 1
    assert ki.check(board, game, work, True) == broken(
        "cloth conserved: villages + reserve + players' cloth = the scenario's cloth, none negative")
    game.cloth[:] = saved[0]
    free = next((s, k) for s in range(4) for k in range(8) if not game.cloth_route[s, k])
    game.cloth_route[free] = True
    assert ki.check(board, game, work, True) == broken(
        "trade routes: a seat has a route to exactly the villages its ships touch")
    game.cloth_route[:] = saved[1]
    villages = "the villages' end: play goes on only while more than end_villages villages hold cloth; a game " \
               "ended so is won by the most VP (ties: the most cloth)"
    moved = 0
    for k in range(8):  # empty every village but 3 into the reserve: the game should have ended
        if game.village_cloth[k] > 0 and (game.village_cloth > 0).sum() > 3:
            moved += game.village_cloth[k]
            game.village_cloth[k] = 0
    game.st[kg.ST_CLOTH_RESERVE] += moved
    game.st[kg.ST_PHASE] = kg.MAIN
    assert ki.check(board, game, work, True) == broken(villages)
    game.st[kg.ST_PHASE] = kg.OVER
    game.st[kg.ST_CLOTH_END] = 1
    loser = min(range(4), key=lambda s: kg.total_vp(board, game, s))
    game.st[kg.ST_WINNER] = loser
    assert ki.check(board, game, work, True) == broken(villages)
