"""The full game's invariants (kernels/catan/invariants.py), checked after every step of random games of every
playable scenario; and the checker itself catches each broken bookkeeping it names (a check that cannot fail
proves nothing)."""

import numpy as np
import pytest

from analyzer.seafarers.boards import deal_plan, generate_boards
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_game import PLAY_SCENARIOS
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.invariants import check_games
from analyzer.seafarers.play import invariant_checks, kernel_board, play_chunk
from analyzer.seafarers.scenarios import load_scenario
from analyzer.seafarers.table import game_table
from kernels.catan import game as kg
from kernels.catan import invariants as ki
from kernels.catan import play as kl
from tests.support import sample


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("scenario", PLAY_SCENARIOS)
def test_every_invariant_holds_after_every_step(scenario, players):
    bots = ["random", "planner", "weighted", "value:opening=port"][:players]
    games = sample(12, 6)
    result = check_games(scenario, players, bots, games, seed=3)
    assert result["broken"] == {name: 0 for name in ki.INVARIANTS}, result["first_broken_game"]
    assert result["won"] + result["capped"] == games and result["won"] > 0


def finished_game(slug="new-shores", g=0):
    """Game g of seed 5 on its board, four value bots, every invariant checked after every step."""
    s = load_scenario(slug, 4)
    dealt = generate_boards(deal_plan(s), 1, 5, first=g)
    board = kernel_board(game_table(s, load_rules(), dealt.terrain[0], dealt.number[0], dealt.harbour[0]))
    game, checks = kg.new_game(board), invariant_checks(board, 1)
    policies, params = bot_vectors([parse_bot("value")] * 4)
    play_chunk(board, 5, g, policies, params, np.zeros((kg.N_RESULT_COLS, 1), np.int64), game, checks=checks)
    assert checks.out[kl.CHECK_CODE, 0] == 0 and game.st[kg.ST_WINNER] >= 0
    return board, game, checks.route


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


def test_the_checker_catches_broken_gifts():
    """The Forgotten Tribe: a chit taken by no seat in play, a won harbour's dock showing another type, and a harbour
    kept by a seat that has a site for it (the seed's 'deverá ser colocado nesse local, se possível') are caught."""
    from kernels.catan.gifts import GIFT_CHIT, GIFT_HARBOUR, GIFT_KIND, GIFT_LAID, GIFT_OWNER

    for g in range(20):  # the first game of value bots with a chit taken and a harbour placed
        board, game, work = finished_game("forgotten-tribe", g)
        kinds, owner, laid = board.gifts[GIFT_KIND], game.gift_state[GIFT_OWNER], game.gift_state[GIFT_LAID]
        chits = [i for i in range(len(kinds)) if kinds[i] == GIFT_CHIT and owner[i] >= 0]
        placed = [i for i in range(len(kinds)) if kinds[i] == GIFT_HARBOUR and laid[i] >= 0]
        if chits and placed:
            break
    assert chits and placed and ki.check(board, game, work, True) == 0
    name = ("gifts (the Forgotten Tribe): taken by a seat in play; a won harbour at its taker's building, kept only "
            "while its holder has no site for it")
    taker = owner[chits[0]]
    owner[chits[0]] = 4  # no seat of a 4-player game
    assert ki.check(board, game, work, True) == broken(name)
    owner[chits[0]] = taker
    j = placed[0]
    e = laid[j]
    dock = next(c for c in board.edge_corners[e] if game.corner_owner[c] < 0)
    saved = game.corner_harbour.copy()
    game.corner_harbour[dock] = (game.corner_harbour[dock] + 1) % 6
    assert ki.check(board, game, work, True) == broken(name)
    game.corner_harbour[:] = saved
    laid[j] = -1  # as if never placed, its site free again: kept while it could go down
    for c in board.edge_corners[e]:
        game.corner_harbour[c] = -1
    game.st[kg.ST_PHASE] = kg.MAIN
    code = ki.check(board, game, work, True)
    assert code in (broken(name), broken("maritime rates recomputed from the harbours = the kernel's"))
    game.rates[:] = board.params[kg.P_BANK_RATE]  # (its rate was the harbour's: with the rates set right, the kept
    # harbour alone is left)
    for s in range(4):
        for c in np.flatnonzero(game.corner_owner == s):
            if game.corner_harbour[c] >= 0:
                kg._harbour_rates(board, game, s, game.corner_harbour[c])
    assert ki.check(board, game, work, True) == broken(name)


def test_the_checker_catches_broken_wonders():
    """The Wonders of Catan: an islet chit without its settlement, a winner who neither finished its wonder nor is
    ahead in stages, a game going on with the player on turn's wonder finished, one card held by two seats, a stage
    without a card: each caught by its own invariant."""
    board, game, work = finished_game("wonders-of-catan")
    st = game.st
    winner = st[kg.ST_WINNER]
    assert ki.check(board, game, work, True) == 0
    saved = game.bonus_vp.copy(), st.copy()
    game.bonus_vp[0] += 1
    assert ki.check(board, game, work, True) == broken(
        "islet chits (the Wonders): a seat's bonus VP = the island bonus times its buildings on islet corners")
    game.bonus_vp[:] = saved[0]
    end = ("the Wonders' end: a winner finished its wonder, or has the target VP and more stages than every "
           "opponent; while play goes on, the player on turn has done neither")
    loser = (winner + 1) % 4
    st[kg.ST_WINNER] = loser
    st[kg.ST_STAGE + loser] = 0
    assert ki.check(board, game, work, True) == broken(end)
    st[:] = saved[1]
    st[kg.ST_WINNER] = -1
    st[kg.ST_PHASE] = kg.MAIN
    st[kg.ST_CURRENT] = loser
    free = next(k for k in range(5) if all(st[kg.ST_WONDER + s] != k + 1 for s in range(4) if s != loser))
    st[kg.ST_WONDER + loser], st[kg.ST_STAGE + loser] = free + 1, board.params[kg.P_WONDER_STAGES]
    assert ki.check(board, game, work, False) == broken(end)
    st[:] = saved[1]
    cards = "wonder cards: each held by at most one seat in play, stages from 0 to the last, none without a card"
    other = (winner + 2) % 4
    st[kg.ST_WONDER + other], st[kg.ST_WONDER + winner] = 1, 1
    assert ki.check(board, game, work, False) == broken(cards)
    st[:] = saved[1]
    st[kg.ST_WONDER + other], st[kg.ST_STAGE + other] = 0, 1
    assert ki.check(board, game, work, False) == broken(cards)
