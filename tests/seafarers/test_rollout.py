"""The rollout bot (kernels/catan/rollout.py): its copy of the game is the game, its fresh deal keeps everything the
seat can see and nothing it cannot, its choice never depends on what its seat cannot see, and its games are legal
games of the reference engine."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.play import play_on_board
from kernels.catan import game as kg
from kernels.catan import policies as kp
from kernels.catan import rollout as kr
from kernels.rng import PURPOSE_POLICY, stream_init
from tests.seafarers.test_full_kernel import _value_game, tables

SCRATCH = {"actions", "targets", "work", "owed", "vp_track", "pending",  # what copy_state leaves: no state in it
           "field_cache", "field_version"}
QUICK = "rollout:playouts=2,candidates=2,horizon=4"


def midgame(slug="new-shores", players=4, seed=11, g=5, decisions=600, bots=("value",) * 4):
    """A board and a game some decisions in, played by value bots, with the bots' scratch and streams."""
    _, board = tables(slug, players, seed, g)
    policies, params = bot_vectors([parse_bot(b) for b in bots[:players]])
    game, work = kg.new_game(board), kp.bot_work(board)
    kg.init(board, game, seed, g)
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    for p in range(players):
        stream_init(streams[p], seed, kg.MAX_SEATS * g + p, PURPOSE_POLICY)
    for _ in range(decisions):
        if game.st[kg.ST_PHASE] == kg.OVER:
            break
        play_one(board, game, work, policies, params, streams)
    return board, game, work, policies, params, streams


def play_one(board, game, work, policies, params, streams):
    """One decision of the seat to act, played."""
    n = kg.legal(board, game)
    seat = game.st[kg.ST_ACTOR]
    kg.step(board, game, *game.actions[kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work)])


def state_fields(game):
    return {name: getattr(game, name) for name in kg.Game._fields if name not in SCRATCH}


def test_every_game_array_is_copied_or_is_scratch():
    """A field added to Game must be copied by copy_state (or named scratch here): a copy equals the game."""
    board, game, work, *_ = midgame()
    kr.copy_state(game, work.sim)
    for name, a in state_fields(game).items():
        assert np.array_equal(a, getattr(work.sim, name)), name


def test_a_copy_plays_on_as_the_game_does():
    board, game, work, policies, params, streams = midgame(decisions=300)
    sim = kg.new_game(board)
    kr.copy_state(game, sim)
    own, scores = np.zeros(6), np.zeros(kg.MAX_ACTIONS)
    for g in (game, sim):
        kr.playout(board, g, params[0], 0, own, scores)
    for name, a in state_fields(game).items():
        assert np.array_equal(a, getattr(sim, name)), name
    assert game.st[kg.ST_PHASE] == kg.OVER


def deal(board, game, work, seat, key=7, j=0):
    kr.copy_state(game, work.sim)
    kr.determinize(board, game, work.sim, work.sim_board, seat, np.uint64(key), j, work.counts, work.stream)
    return work.sim, work.sim_board


@pytest.mark.parametrize("slug", ["new-shores", "fog-islands"])
def test_the_fresh_deal_keeps_what_the_seat_sees(slug):
    """The seat's own hand and cards, every count the table shows (cards in each hand, development cards held and
    bought this turn), the pools by type, the pieces and the explored map are kept; what is dealt is a
    redistribution of the same cards and hexes."""
    board, game, work, *_ = midgame(slug, decisions=500)
    seat = int(game.st[kg.ST_ACTOR])
    players = int(board.params[kg.P_PLAYERS])
    sim, sim_board = deal(board, game, work, seat)
    others = [o for o in range(players) if o != seat]
    assert np.array_equal(sim.hands[seat], game.hands[seat])
    assert np.array_equal(sim.cards[seat], game.cards[seat]) and np.array_equal(sim.new_cards[seat],
                                                                                 game.new_cards[seat])
    for o in others:
        assert sim.hands[o].sum() == game.hands[o].sum()
        assert sim.cards[o].sum() == game.cards[o].sum() and sim.new_cards[o].sum() == game.new_cards[o].sum()
    assert np.array_equal(sim.hands[others].sum(axis=0), game.hands[others].sum(axis=0))
    pos, end = int(game.st[kg.ST_DECK_POS]), int(board.params[kg.P_DECK_LEN])

    def pool(g):
        held = (g.cards[others] + g.new_cards[others]).sum(axis=0)
        return held + np.bincount(g.deck[pos:end], minlength=5)
    assert np.array_equal(pool(sim), pool(game))
    assert np.array_equal(sim.deck[:pos], game.deck[:pos])
    for name in ("st", "bank", "corner_owner", "corner_building", "edge_owner", "edge_ship", "terrain", "number",
                 "knights", "pieces_left"):
        assert np.array_equal(getattr(sim, name), getattr(game, name)), name
    hidden = board.fog & (game.terrain == kg.UNKNOWN)
    assert np.array_equal(sim_board.terrain[~hidden], board.terrain[~hidden])
    assert sorted(sim_board.terrain[hidden]) == sorted(board.terrain[hidden])
    assert sorted(sim_board.number[hidden]) == sorted(board.number[hidden])
    if slug == "fog-islands":
        assert hidden.any() and not np.array_equal(sim_board.terrain, board.terrain)  # the fog is dealt afresh


def hide_differently(board, game, seat, rng):
    """The same table, other hidden cards: the other players' hands at the same counts, their development cards
    swapped with the deck's, the deck's order, the harbour tokens face down and the unexplored fog shuffled (the
    fog on a copy of the board)."""
    players = int(board.params[kg.P_PLAYERS])
    others = [o for o in range(players) if o != seat]
    pool = np.repeat(np.arange(5), game.hands[others].sum(axis=0))
    rng.shuffle(pool)
    k = 0
    for o in others:
        n = int(game.hands[o].sum())
        game.hands[o] = np.bincount(pool[k:k + n], minlength=5)
        k += n
    pos, end = int(game.st[kg.ST_DECK_POS]), int(board.params[kg.P_DECK_LEN])
    cards = np.concatenate([np.repeat(np.arange(5), game.cards[o] + game.new_cards[o]) for o in others]
                           + [game.deck[pos:end]])
    rng.shuffle(cards)
    k = 0
    for o in others:
        old, new = int(game.cards[o].sum()), int(game.new_cards[o].sum())
        game.cards[o] = np.bincount(cards[k:k + old], minlength=5)
        game.new_cards[o] = np.bincount(cards[k + old:k + old + new], minlength=5)
        k += old + new
    game.deck[pos:end] = cards[k:]
    face_down = game.harbour_stack[game.st[kg.ST_HARBOUR_POS]:]
    rng.shuffle(face_down)
    hidden = np.flatnonzero(board.fog & (game.terrain == kg.UNKNOWN))
    terrain, number = board.terrain.copy(), board.number.copy()
    order = rng.permutation(hidden)
    terrain[hidden], number[hidden] = board.terrain[order], board.number[order]
    return board._replace(terrain=terrain, number=number)


@pytest.mark.parametrize("slug", ["new-shores", "fog-islands"])
def test_the_fresh_deal_depends_on_nothing_the_seat_cannot_see(slug):
    board, game, work, *_ = midgame(slug, decisions=500)
    seat = int(game.st[kg.ST_ACTOR])
    sim, sim_board = deal(board, game, work, seat)
    first = {name: a.copy() for name, a in state_fields(sim).items()}
    first_fog = sim_board.terrain.copy(), sim_board.number.copy()
    other = hide_differently(board, game, seat, np.random.default_rng(3))
    work2 = kp.bot_work(other)
    sim, sim_board = deal(other, game, work2, seat)
    for name, a in state_fields(sim).items():
        assert np.array_equal(a, first[name]), name
    assert np.array_equal(sim_board.terrain, first_fog[0]) and np.array_equal(sim_board.number, first_fog[1])


def test_the_rollout_bots_choice_never_depends_on_what_its_seat_cannot_see():
    """Fair: on its turn, the same choice when the other hands (at the same counts), the development cards others
    hold, the deck's order and the unexplored fog are dealt otherwise."""
    board, game, work, policies, params, streams = midgame("fog-islands", decisions=200,
                                                           bots=(QUICK,) * 4)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(400):
        if game.st[kg.ST_PHASE] == kg.OVER or checked == 12:
            break
        n = kg.legal(board, game)
        seat = game.st[kg.ST_ACTOR]
        saved = streams[seat].copy()
        i = kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work)
        if game.st[kg.ST_PHASE] == kg.MAIN and n > 2:
            after = streams[seat].copy()
            kept = {name: a.copy() for name, a in state_fields(game).items()}
            other = hide_differently(board, game, seat, rng)
            streams[seat] = saved
            assert kp.decide(other, game, n, policies[seat], params[seat], streams[seat], kp.bot_work(other)) == i
            assert np.array_equal(streams[seat], after)
            for name, a in kept.items():
                getattr(game, name)[...] = a
            checked += 1
        kg.step(board, game, *game.actions[i])
    assert checked >= 5


def test_no_playouts_or_one_candidate_is_the_value_bot():
    _, board = tables("four-islands", 4, 3, 2)
    value, _ = play_on_board(board, 3, 0, 3, ["value"] * 4)
    for bot in ("rollout:playouts=0", "rollout:candidates=1"):
        out, _ = play_on_board(board, 3, 0, 3, [bot] * 4)
        assert np.array_equal(out, value), bot


def test_rollout_results_are_reproducible_and_differ_from_the_value_bots():
    _, board = tables("new-shores", 4, 3, 2)
    bots = [QUICK, "value", "value", "value"]
    one, _ = play_on_board(board, 3, 0, 2, bots)
    two, _ = play_on_board(board, 3, 0, 2, bots)
    value, _ = play_on_board(board, 3, 0, 2, ["value"] * 4)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, value)  # the playouts change some choice


@settings(max_examples=2, deadline=None)
@given(st.sampled_from(("new-shores", "fog-islands", "base")), st.sampled_from((3, 4)), st.integers(0, 2**32),
       st.integers(0, 10**6))
def test_rollout_games_are_the_references_games(slug, players, seed, g):
    """Every action the rollout bot takes is one the reference engine allows, and both engines agree."""
    table, state = _value_game(slug, players, seed, g, [QUICK, "value", QUICK, "weighted"][:players])
    assert state.winner >= 0 or state.capped


def test_harbour_tokens_still_face_down_are_dealt_afresh():
    """New World with the tokens laid after the draft: during the draft the whole stack is face down, so a
    playout lays a reshuffled stack, the same whatever the real order."""
    from analyzer.seafarers import full_reference as R
    from analyzer.seafarers.boards import deal_plan, generate_boards
    from analyzer.seafarers.full_rules import load_rules
    from analyzer.seafarers.play import kernel_board
    from analyzer.seafarers.scenarios import load_scenario

    s = load_scenario("new-world", 4)
    b = generate_boards(deal_plan(s), 1, 4, first=0)
    board = kernel_board(R.game_table(s, load_rules(rule=["harbours_after_draft=true"]), b.terrain[0], b.number[0],
                                      b.harbour[0]))
    game, work = kg.new_game(board), kp.bot_work(board)
    kg.init(board, game, 4, 0)
    assert game.st[kg.ST_PHASE] == kg.SETUP_SETTLEMENT and game.st[kg.ST_HARBOUR_POS] == 0
    stacks = {tuple(deal(board, game, work, 0, key=7, j=j)[0].harbour_stack) for j in range(6)}
    assert all(sorted(t) == sorted(game.harbour_stack) for t in stacks) and len(stacks) > 1
    first = deal(board, game, work, 0)[0].harbour_stack.copy()
    np.random.default_rng(2).shuffle(game.harbour_stack)
    assert np.array_equal(deal(board, game, work, 0)[0].harbour_stack, first)


@pytest.mark.parametrize("slug", ["fog-islands", "new-world", "forgotten-tribe", "cloth-for-catan", "pirate-islands"])
def test_a_kept_site_field_is_the_field_computed_afresh(slug):
    """The value bot keeps each seat's site field until a building, a harbour, an explored hex or cloth taken changes
    the map (bots._site_version: cities and gifts taken do not count), and the Forgotten Tribe's gift field until
    bots._gift_version moves (rivals' cities and harbours laid do not count): wherever one is kept, it is what
    computing it again gives."""
    from kernels.catan import bots as kb

    board, game, work, policies, params, streams = midgame(slug, decisions=0)
    own = np.zeros(6)
    checked = 0
    for step in range(3000):
        if game.st[kg.ST_PHASE] == kg.OVER:
            break
        play_one(board, game, work, policies, params, streams)
        for s in range(4):
            gift = kg.MAX_SEATS + s
            if step % 7 == 0 and game.field_version[s] == kb._site_version(board, game):
                kept = game.field_cache[s].copy()
                game.field_version[s] = -1
                kb.seat_pips(board, game, s, own)
                kb._site_field(board, game, params[s], s, own)
                assert np.array_equal(game.field_cache[s], kept), (step, s)
                checked += 1
            if step % 7 == 0 and game.field_version[gift] == kb._gift_version(board, game, s):
                kept = game.field_cache[gift].copy()
                game.field_version[gift] = -1
                kb.seat_pips(board, game, s, own)
                kb._gift_field(board, game, params[s], s, own)
                assert np.array_equal(game.field_cache[gift], kept), (step, s, "gift")
                checked += 1
    assert checked > 50
