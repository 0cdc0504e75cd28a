"""The Regatta bots: the kernel's bots play the pure-Python twins' games (analyzer/regatta/reference_bots.py),
path_score's two searches agree with a textbook Dijkstra, the planner sees only what its seat sees, and it
negates the leader's winning card on a hand-built position."""

import random

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
from kernels.regatta import score as S

RULES = rules_module.load()


def kernel_game(players, team, seed, game, codes, params):
    setup = E.make_setup(RULES, players, team)
    trace, state = trace_game(setup, np.array(codes + [0] * (4 - len(codes))),
                              np.array(params + [[0.0] * 4] * (4 - len(params))), seed, game)
    return [tuple(int(v) for v in row[1:]) for row in trace], state


def arm(label):
    a = BOTS.parse(label)
    return a.spec.code, list(a.vector(B.N_PARAMS))


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), team=st.booleans(), seed=st.integers(0, 2**40), game=st.integers(0, 10**6),
       labels=st.lists(st.sampled_from(["planner:beam=2,depth=2", "planner:beam=1,depth=3,spite=0",
                                        "greedy", "blocker", "random"]), min_size=4, max_size=4))
def test_kernel_bots_play_the_reference_games(players, team, seed, game, labels):
    players = 4 if team else players
    chosen = [arm(label) for label in labels[:players]]
    codes, params = [c for c, _ in chosen], [p for _, p in chosen]
    k_actions, state = kernel_game(players, team, seed, game, codes, params)
    r_actions, s = RB.play(RULES, players, seed, game, codes, params, team)
    assert k_actions == r_actions
    assert state.sc[E.S_WINNER] == s.winner and state.sc[E.S_TURN] == s.turn


def test_planner_with_its_defaults_plays_the_reference_game():
    code, params = arm("planner")
    g_code, g_params = arm("greedy")
    for game in (0, 1):
        k_actions, _ = kernel_game(2, False, 9, game, [code, g_code], [params, g_params])
        r_actions, _ = RB.play(RULES, 2, 9, game, [code, g_code], [params, g_params])
        assert k_actions == r_actions


def positions(count, seed):
    """(kernel state, setup, reference state) pairs in the middle of random games, then scrambled: random
    tiles turned face up or down, rotated, boats anywhere on the map or off it."""
    rnd = random.Random(seed)
    for i in range(count):
        players = rnd.choice((2, 3, 4))
        s = R.init(RULES, players, seed, i)
        policy = R.Stream(seed, i, R.PURPOSE_POLICY)
        for _ in range(rnd.randrange(0, 400)):
            if R.terminal(s):
                break
            moves = R.legal(RULES, s)
            R.step(RULES, s, *moves[policy.below(len(moves))])
        cells = RULES.rows * RULES.cols
        for x in range(cells):
            if rnd.random() < 0.3:
                s.cell_up[x] = not s.cell_up[x]
            if rnd.random() < 0.3:
                s.cell_rot[x] = rnd.randrange(4)
        s.boat = [rnd.randrange(cells + RULES.cols) for _ in s.boat]
        setup = E.make_setup(RULES, players, False)
        k = E.make_state(setup)
        k.cell_tile[:] = s.cell_tile
        k.cell_rot[:] = s.cell_rot
        k.cell_up[:] = [int(u) for u in s.cell_up]
        k.boat[:len(s.boat)] = s.boat
        yield k, setup, s


def test_path_score_searches_agree():
    """The mask search, the kernel's Dijkstra and the reference's Dijkstra: one number on every position."""
    checked = 0
    for k, setup, s in positions(300, 4):
        for b in range(len(s.boat)):
            want = RB.path_score(RULES, s, s.boat[b])
            assert S.path_score(k, setup, k.boat[b]) == want
            assert S.path_score_dijkstra(k, setup, k.boat[b]) == want
            checked += want >= S.STUCK
    assert checked > 0  # some positions have no way to the sea


def _card_effects(k, setup):
    """Every swap, turn and move a card could make on the position, legal or not for a hand."""
    cells = RULES.rows * RULES.cols
    up = [x for x in range(cells) if k.cell_up[x]]
    kind = [int(setup.tile_kind[k.cell_tile[x]]) for x in range(cells)]
    for x in up:
        if kind[x] in (E.RIVER, E.START):
            yield E.ROTATE, x, 1
            yield E.ROTATE, x, 3
        if kind[x] != E.ROCK:
            yield E.ADV1, x, 0
        for y in up:
            if x < y and kind[x] == kind[y] and kind[x] in (E.RIVER, E.GOAL):
                yield E.SWAP_ANY, x, y


def test_greedy_bounds_never_hide_a_better_play():
    """The greedy's shortcut (score.path_after_below): a play whose bound says it cannot beat the best value
    so far is never better, and every other play gets its exact value; target_levels holds each cell's
    path_score."""
    checked = pruned = 0
    for k, setup, _s in positions(120, 6):
        sea = S.sea_column(k, setup)
        bd = S.board(k, setup, sea)
        cells = RULES.rows * RULES.cols
        back = np.zeros(len(k.dist), np.int64)
        S.target_levels(bd, setup, sea, back, len(back))
        for x in range(cells):
            score = S.path_score(k, setup, x)
            assert [bool(back[d] >> x & 1) for d in range(len(back))] == [score <= d for d in range(len(back))]
        for me in range(int(setup.cfg[E.C_BOATS])):
            now = S.path_score(k, setup, k.boat[me])
            if now >= S.STUCK:
                continue
            reach = np.zeros(len(k.dist), np.int64)
            for best in {now, max(now - 2, 0)}:
                limit = min(len(back), best)
                S.reach_levels(bd, setup, sea, k.boat[me], reach, limit)
                for kind, b, c in _card_effects(k, setup):
                    exact = S.value_with(bd, setup, sea, k, me, 0.0, S.FAR, kind, b, c)
                    fast = S.path_after_below(bd, setup, sea, k, me, kind, b, c, reach, back, limit, float(best))
                    if exact < best:
                        assert fast == exact
                    else:
                        assert fast >= best
                        pruned += fast == best and exact != best
                    checked += 1
    assert checked > 10_000 and pruned > checked // 3  # the bound prunes: about half on these positions


@pytest.mark.parametrize("label", ["planner", "rollout:k=3,top=2,rounds=1"])
def test_bots_never_read_what_their_seat_cannot_see(label):
    """The same choice after the face-down tiles are dealt again within their piles, the action deck is
    reshuffled and the other seats' hands are redealt: the bot sees none of them (the rollout deals its
    copies from what is hidden, never from where it lies)."""
    code, params = arm(label)
    setup = E.make_setup(RULES, 3, False)
    work = B.make_work(setup)
    actions = np.zeros((E.MAX_ACTIONS, 4), np.int64)
    rnd = random.Random(2)
    compared = 0
    for game in range(40):  # (about half the positions reached are a turn to choose in)
        st_ = E.make_state(setup)
        E.init(st_, setup, 3, game)
        for _ in range(rnd.randrange(3, 120)):
            if E.terminal(st_, setup):
                break
            n = E.legal(st_, setup, actions)
            i = B.choose(st_, setup, actions, n, 1, np.zeros(4), np.zeros(2, np.uint64), work)
            E.step(st_, setup, *actions[i])
        if E.terminal(st_, setup) or st_.sc[E.S_PHASE] != E.TURN:
            continue
        n = E.legal(st_, setup, actions)
        before = B.choose(st_, setup, actions, n, code, np.array(params), np.zeros(2, np.uint64), work)
        down = [x for x in range(len(st_.cell_up)) if st_.cell_up[x] == 0]
        for pile in (range(0, 4), range(4, 20), range(20, 24)):
            cells = [x for x in down if x in pile]
            tiles = [int(st_.cell_tile[x]) for x in cells]
            rnd.shuffle(tiles)
            st_.cell_tile[cells] = tiles
        deck = st_.deck[:st_.sc[E.S_DECK_N]].copy()
        me = st_.sc[E.S_TO_MOVE]
        pool = list(deck) + [k for p in range(3) if p != me for k in range(7) for _ in range(st_.hand[p, k])]
        rnd.shuffle(pool)
        for p in range(3):
            if p != me:
                held = int(st_.hand[p].sum())
                st_.hand[p] = np.bincount(pool[:held], minlength=7)
                pool = pool[held:]
        st_.deck[:len(deck)] = pool
        assert E.legal(st_, setup, actions) == n
        assert B.choose(st_, setup, actions, n, code, np.array(params), np.zeros(2, np.uint64), work) == before
        compared += 1
    assert compared >= 15


def test_planner_negates_the_leaders_winning_move():
    """Seed: "Negar acción: Cancela la última carta de acción jugada." Boat 1 plays advance one onto the sea
    tile; the planner (seat 0, holding a negate) negates it, the greedy (which never negates) lets it win."""
    setup = E.make_setup(RULES, 2, False)
    st_ = E.make_state(setup)
    E.init(st_, setup, 1, 0)
    sea_tile = int(np.flatnonzero(RULES.tile_sea)[0])
    x = int(np.flatnonzero(st_.cell_tile[:4] == sea_tile)[0])  # the goal row's sea tile, laid face up
    st_.cell_up[:] = 1
    st_.cell_rot[:] = 0
    st_.boat[0], st_.boat[1] = 20, x + 4
    negate = RULES.card_names.index("negate")
    advance = RULES.card_names.index("advance one")
    st_.hand[:, :] = 0
    st_.hand[0, negate] = 1
    st_.hand[1, advance] = 1
    st_.sc[E.S_PHASE], st_.sc[E.S_ACTIVE], st_.sc[E.S_TO_MOVE] = E.TURN, 1, 1
    st_.sc[E.S_PLAYS], st_.sc[E.S_ALLOWED] = 0, 3
    E.step(st_, setup, E.ADV1, advance, x, 0)
    assert st_.sc[E.S_PHASE] == E.WINDOW and st_.sc[E.S_TO_MOVE] == 0
    actions = np.zeros((E.MAX_ACTIONS, 4), np.int64)
    n = E.legal(st_, setup, actions)
    work, rng = B.make_work(setup), np.zeros(2, np.uint64)
    for label, want in (("planner", E.NEGATE), ("greedy", E.PASS)):
        code, params = arm(label)
        assert actions[B.choose(st_, setup, actions, n, code, np.array(params), rng, work), 0] == want


def test_rollout_plays_the_reference_games():
    """A few games (the reference's continuations are slow): every action, the continuations' deals too."""
    code, params = arm("rollout:k=2,top=1,rounds=1")
    g_code, g_params = arm("planner:beam=1,depth=1")
    for players, game in ((2, 3), (3, 4)):
        codes, ps = [code] + [g_code] * (players - 1), [params] + [g_params] * (players - 1)
        k_actions, state = kernel_game(players, False, 21, game, codes, ps)
        r_actions, s = RB.play(RULES, players, 21, game, codes, ps)
        assert k_actions == r_actions
        assert state.sc[E.S_WINNER] == s.winner


def test_rollout_deals_only_what_its_seat_cannot_see():
    """A determinized copy keeps what seat 0 sees (its hand, the face-up tiles, the discards, the boats) and
    the sizes of everything else, and its face-down tiles and other hands differ from the real ones."""
    from kernels.regatta import rollout

    setup = E.make_setup(RULES, 3, False)
    real = E.make_state(setup)
    E.init(real, setup, 8, 0)
    real.cell_up[4:12] = 1
    work = B.make_work(setup)
    moved = 0
    n = real.sc[E.S_DECK_N]
    hidden = np.bincount(real.deck[:n], minlength=7) + real.hand[1:].sum(axis=0)  # the deck and seats 1, 2
    up = real.cell_up == 1
    for j in range(20):
        sim = work.sim
        rollout.dealt_copy(sim, real, setup, work.pool, work.seen, 0, np.uint64(12345), j)
        assert (sim.cell_tile[up] == real.cell_tile[up]).all() and (sim.hand[0] == real.hand[0]).all()
        assert (sim.disc == real.disc).all() and (sim.boat == real.boat).all()
        assert (sim.hand.sum(axis=1) == real.hand.sum(axis=1)).all() and sim.sc[E.S_DECK_N] == n
        assert (np.bincount(sim.deck[:n], minlength=7) + sim.hand[1:].sum(axis=0) == hidden).all()
        for lo, hi in ((0, 4), (4, 20), (20, 24)):  # each row group keeps its own tiles
            assert sorted(sim.cell_tile[lo:hi]) == sorted(real.cell_tile[lo:hi])
        moved += (sim.cell_tile != real.cell_tile).any() and (sim.hand[1:] != real.hand[1:]).any()
    assert moved >= 15
