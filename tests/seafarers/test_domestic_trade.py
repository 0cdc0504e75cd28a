"""Domestic trade (trade between players) on hand-built positions, in the reference and the kernel alike.

Seed 002 plays "seguindo as regras da caixa básica", whose turn lets the player on turn trade with the others; the
seed states no protocol, so the bots follow this project's default, a rules [options] switch named in every report
(analyzer/seafarers/data/rules/full_game.toml, [trade] domestic_note and [options.domestic_trade]): the player on
turn offers one card of a resource for one of another to all at once, the others answer in turn order from its
left, the first to accept trades, at most trade.domestic_offers_per_turn offers a turn."""

import numpy as np

from analyzer.seafarers import full_reference as R
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import HARBOUR_TYPES, load_scenario
from kernels.catan import game as kg
from kernels.catan import policies as kp

LUMBER, BRICK, WOOL, GRAIN, ORE = range(5)


def position(rule=None):
    """The printed New Shores board (4 players), the draft skipped, seat 1 on turn (after its roll)."""
    s = load_scenario("new-shores", 4)
    rules = load_rules(rule=rule)
    table = R.game_table(s, rules, s.terrain, s.number_token, [HARBOUR_TYPES.index(x.type) for x in s.harbours.sites])
    state = R.init(table, 1, 0)
    state.setup_pos = len(state.setup_order)
    state.phase, state.actor, state.current = R.MAIN, 1, 1
    return table, state


def give(state, seat, *cards):
    for r in cards:
        state.hands[seat][r] += 1
        state.bank[r] -= 1


def offers(table, state):
    return [a for a in R.legal(table, state) if a[0] == R.OFFER]


def test_an_offer_goes_round_from_the_left_and_the_first_to_accept_trades():
    table, state = position()
    give(state, 1, ORE)
    give(state, 3, WOOL)
    give(state, 0, WOOL)
    assert offers(table, state) == [(R.OFFER, ORE, b) for b in (LUMBER, BRICK, WOOL, GRAIN)]  # one card of a held one
    R.step(table, state, (R.OFFER, ORE, WOOL))
    assert state.phase == R.RESPOND and state.actor == 2  # the offerer's left answers first
    assert R.legal(table, state) == [(R.DECLINE, 0, 0)]  # seat 2 has no wool: it can only decline
    R.step(table, state, (R.DECLINE, 0, 0))
    assert state.actor == 3 and R.legal(table, state) == [(R.DECLINE, 0, 0), (R.ACCEPT, 0, 0)]
    R.step(table, state, (R.ACCEPT, 0, 0))
    assert state.hands[1][WOOL] == 1 and state.hands[1][ORE] == 0
    assert state.hands[3][ORE] == 1 and state.hands[3][WOOL] == 0
    assert state.hands[0][WOOL] == 1  # seat 0, later in the round, is never asked
    assert (state.phase, state.actor, state.domestic) == (R.MAIN, 1, [0, 1, 0, 1])


def test_an_offer_nobody_takes_changes_nothing_and_offers_are_limited_per_turn():
    table, state = position()
    give(state, 1, ORE, ORE, ORE)
    hands = [list(h) for h in state.hands]
    for _ in range(table.rules.domestic_offers):
        R.step(table, state, (R.OFFER, ORE, GRAIN))
        for _ in range(3):
            R.step(table, state, (R.DECLINE, 0, 0))
        assert (state.phase, state.actor) == (R.MAIN, 1) and state.hands == hands
    assert table.rules.domestic_offers == 2 and offers(table, state) == []  # the third offer of a turn is not legal
    R.step(table, state, (R.END_TURN, 0, 0))
    state.phase = R.MAIN  # (the roll skipped)
    give(state, 2, BRICK)
    assert offers(table, state)  # a new turn, new offers


def test_domestic_trade_can_be_switched_off():
    table, state = position(rule=["domestic_trade=false"])
    give(state, 1, ORE)
    assert table.rules.domestic_offers == 0 and offers(table, state) == []


def test_the_kernel_lists_and_plays_the_same_offers():
    table, state = position()
    give(state, 1, ORE, GRAIN)
    give(state, 2, WOOL)
    board = kernel_board(table)
    game = kg.new_game(board)
    kg.init(board, game, 1, 0)
    game.st[kg.ST_SETUP_POS] = len(state.setup_order)
    game.st[kg.ST_PHASE], game.st[kg.ST_ACTOR], game.st[kg.ST_CURRENT] = kg.MAIN, 1, 1
    game.hands[:] = 0
    for seat in range(4):
        game.hands[seat, :] = state.hands[seat]
    game.bank[:] = state.bank
    for action in [(R.OFFER, ORE, WOOL), (R.ACCEPT, 0, 0), (R.OFFER, GRAIN, BRICK), (R.DECLINE, 0, 0),
                   (R.DECLINE, 0, 0), (R.DECLINE, 0, 0)]:
        acts = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in acts] and action in acts
        R.step(table, state, action)
        kg.step(board, game, *action)
        assert game.hands[:4].tolist() == state.hands and game.st[kg.ST_ACTOR] == state.actor
    assert game.domestic[:4].tolist() == state.domestic == [0, 1, 1, 0]


def test_the_value_bot_accepts_only_what_brings_its_own_build_nearer():
    """Seat 2 (value, nothing built, so it saves for a development card: wool, grain, ore) holds brick, grain and
    ore: wool for its spare brick is taken; brick for its ore is not; nor is the good offer from a player who shows
    two VP short of the target (its VP cards, hidden, do not count)."""
    table, state = position()
    board = kernel_board(table)
    game = kg.new_game(board)
    kg.init(board, game, 1, 0)
    policies, params = bot_vectors([parse_bot("value")] * 4)
    streams, work = np.zeros((4, 2), np.uint64), kp.bot_work(board)
    game.st[kg.ST_SETUP_POS] = len(state.setup_order)
    game.hands[:] = 0
    game.hands[2, :] = [0, 1, 0, 1, 1]
    target = board.params[kg.P_TARGET]
    for offer, bonus, answer in [((WOOL, BRICK), 0, kg.ACCEPT), ((BRICK, ORE), 0, kg.DECLINE),
                                 ((WOOL, BRICK), target - 2, kg.DECLINE)]:
        game.st[kg.ST_PHASE], game.st[kg.ST_CURRENT], game.st[kg.ST_ACTOR] = kg.MAIN, 1, 1
        game.hands[1, offer[0]] = 1
        game.bonus_vp[1] = bonus
        game.cards[1, kg.VP_CARD] = 1  # hidden: never counted
        kg.step(board, game, kg.OFFER, *offer)
        n = kg.legal(board, game)
        assert game.st[kg.ST_ACTOR] == 2 and n == 2, (game.st.tolist(), offer, bonus)
        i = kp.decide(board, game, n, policies[2], params[2], streams[2], work)
        assert game.actions[i, 0] == answer, (offer, bonus)


def test_every_play_report_names_the_trade_protocol_in_force():
    from analyzer.seafarers.full_game import play_games

    on = play_games("new-shores", 4, ["value"], 4, 1, threads=1, progress=False).summary
    off = play_games("new-shores", 4, ["value"], 4, 1, threads=1, progress=False, rule=["domestic_trade=false"]).summary
    assert any(a.startswith("Domestic trade on") for a in on["assumptions"]) and on["rule_options"]["domestic_trade"]
    assert any(a.startswith("No domestic trade") for a in off["assumptions"])
    assert not off["rule_options"]["domestic_trade"]
