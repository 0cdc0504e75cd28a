"""The strategy-lab policies: legal play, the oracle bound, the lookahead's search scratch.

Legality is checked against the pure-Python reference: every action a kernel game took is
replayed there, and must be one of the reference's legal actions at that moment.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import stats
from analyzer.beacon import reference as ref
from analyzer.beacon.policies import parse_policy
from analyzer.beacon.simulation import make_setup, play_range_fn, replay
from analyzer.errors import UserError
from kernels import beacon as kb
from kernels.beacon import greedy as greedy_kernels
from kernels.beacon import lookahead as lookahead_kernels
from kernels.beacon import rollout as rollout_kernels
from kernels.jit import from_python
from tests.beacon.positions import reset_workspace

SEARCH = "rollout:samples=2,options=2"  # small, so the suite stays fast
ORACLE = "oracle:options=2,replay_samples=2,replay_options=2"  # replays exactly SEARCH


def replay_in_reference(setup, seed: int, game: int, trace) -> dict:
    """Replay a kernel trace in the reference engine, asserting every action is legal there."""
    g = ref.setup(setup.tiles, setup.players, frozenset(setup.expansions), seed, game, dict(setup.rules))
    turn_start = True
    for p, *action in trace:
        if turn_start:
            g.tokens, g.traded = g.tokens_per_turn, False
            turn_start = False
        assert p == g.player
        assert tuple(action) in ref.legal_actions(g), (game, tuple(action))
        if ref.apply(g, tuple(action)):
            g.player = (g.player + 1) % setup.players
            turn_start = True
    assert ref.game_over(g)
    return ref.score_tl(g.tl, g.board, g.pts)


@pytest.mark.parametrize("policy", ["lookahead", SEARCH, ORACLE])
@pytest.mark.parametrize("players,expansions", [(1, ""), (1, "windmills,piers"), (3, "windmills,piers"),
                                                (2, ""), (4, "piers")])
def test_policies_take_only_legal_actions(policy, players, expansions):
    setup = make_setup(players, policy, expansions, None)
    n_games = 4 if policy == "lookahead" else 1
    for game in range(n_games):
        _, trace = replay(setup, 11, game, trace_len=4000)
        assert 0 < len(trace) < 4000
        score = replay_in_reference(setup, 11, game, trace)
        row = np.zeros((kb.N_COLS, 1), np.int16)
        play_range_fn(setup, 11)(game, row)
        assert score["score"] == row[kb.COL_SCORE, 0]


@pytest.mark.parametrize("policy", ["lookahead", SEARCH])
def test_policies_take_only_legal_actions_with_the_keep_on_an_empty_pile(policy):
    """--rule solo_keep_on_empty_pile=true: the planners' own keep choice follows the switched rule."""
    setup = make_setup(1, policy, "", None, {"solo_keep_on_empty_pile": True})
    for game in range(3 if policy == "lookahead" else 1):
        _, trace = replay(setup, 12, game, trace_len=4000)
        replay_in_reference(setup, 12, game, trace)


@pytest.mark.parametrize("players,expansions", [(1, ""), (3, "windmills,piers"), (4, "")])
def test_action_lists_are_the_references_and_greedy_gets_the_placements_alone(players, expansions):
    """Along random games: legal_actions lists exactly the reference's actions in its order, and
    actions_for gives greedy only the placements (the list's first run) whenever there are any."""
    setup = make_setup(players, "random", expansions, None)
    tt, cfg, active, hq = setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq
    n, g = setup.tiles.n, kb.grid_size(setup.tiles.n)
    game = kb.new_workspace(n, g, kb.POLICY_GREEDY)
    st, board, pos, placed, piers, hands, ships, deck = game[:8]
    actions, spare = game[9], np.zeros((kb.MAX_ACTIONS, 4), np.int64)
    legal_actions, actions_for, take_action = map(from_python, (kb.legal_actions, kb.actions_for, kb.take_action))
    greedy_short = 0
    for index in range(3):
        reset_workspace(game, tt, cfg, g, active, hq, 3, index)
        r = ref.setup(setup.tiles, players, frozenset(setup.expansions), 3, index)
        r.tokens, r.traded = r.tokens_per_turn, False
        _, trace = replay(setup, 3, index, trace_len=4000)
        for p, *action in trace:
            k = legal_actions(tt, cfg, g, st, board, hands, ships, actions)
            listed = [tuple(int(x) for x in row) for row in actions[:k]]
            assert listed == ref.legal_actions(r), (index, p)
            m = actions_for(kb.POLICY_GREEDY, tt, cfg, g, st, board, hands, ships, spare)
            places = sum(a[0] == kb.ACT_PLACE for a in listed)
            assert (m, [tuple(row) for row in spare[:m]]) == ((places, listed[:places]) if places else (k, listed))
            greedy_short += places > 0 and places < k
            assert actions_for(kb.POLICY_LOOKAHEAD, tt, cfg, g, st, board, hands, ships, spare) == k
            take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, *action)
            if ref.apply(r, tuple(action)):
                r.player = (r.player + 1) % players
                r.tokens, r.traded = r.tokens_per_turn, False
    assert greedy_short > 50


def scores(policy: str, players: int, expansions: str, games: int, seed: int = 5) -> np.ndarray:
    out = np.zeros((kb.N_COLS, games), np.int16)
    play_range_fn(make_setup(players, policy, expansions, None), seed)(0, out)
    return out[kb.COL_SCORE].astype(np.int64)


def test_oracle_never_below_a_fair_policy_on_the_same_game():
    games = 12
    oracle = scores(ORACLE, 1, "", games)
    for fair in ("random", "greedy", "lookahead", SEARCH):
        assert (oracle >= scores(fair, 1, "", games)).all(), fair


def test_lookahead_beats_greedy_on_paired_games():
    diff = stats.paired_difference(scores("lookahead", 1, "", 300), scores("greedy", 1, "", 300))
    assert diff["ci95"][0] > 0, diff


def test_lookahead_search_leaves_the_board_as_it_found_it():
    setup = make_setup(1, "lookahead", "", None)
    n, g = setup.tiles.n, kb.grid_size(setup.tiles.n)
    game = kb.new_workspace(n, g, kb.POLICY_LOOKAHEAD)
    greedy_seats = kb.Setup(setup.kernel_tiles, setup.cfg, setup.active, setup.tiles.hq,
                            np.full(4, kb.POLICY_GREEDY), setup.policy_params)
    kb.simulate_range_of(kb.POLICY_LOOKAHEAD)(game, greedy_seats, 3, 0, np.zeros((kb.N_COLS, 1), np.int16),
                                              np.zeros((0, 5), np.int64), np.zeros((0, 3), np.int64))
    # a mid-game position: take the greedy end position back to a few placed tiles
    st, board, pos = game[0], game[1], game[2]
    before = (board.copy(), pos.copy())
    st[kb.ST_PLAYER] = 0
    st[kb.ST_TURNS] += 1  # no stored plan for this turn
    k = from_python(kb.root_options)(setup.kernel_tiles, setup.cfg, g, st, board, pos, game[4], game[5],
                                     game[6], game[7], game[8], setup.policy_params[0], game.planner)
    assert k >= 1
    assert (board == before[0]).all() and (pos == before[1]).all()


@pytest.mark.parametrize("players,expansions", [(1, ""), (2, "piers")])
def test_lookahead_following_its_line_plays_what_a_new_search_would(players, expansions):
    """After a placement the lookahead follows the rest of the line its turn search found
    instead of searching again. A search node's value depends only on what lies below it, so
    a fresh search from the position after the placement must choose the line's next step."""
    setup = make_setup(players, "lookahead", expansions, None)
    tt, cfg, params = setup.kernel_tiles, setup.cfg, setup.policy_params[0]
    n, g = setup.tiles.n, kb.grid_size(setup.tiles.n)
    game = kb.new_workspace(n, g, kb.POLICY_LOOKAHEAD)
    st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
    planner, fresh = game.planner, kb.new_planner(n)
    plan, step = planner.plan, slice(kb.PLAN_KIND, kb.PLAN_TILE + 1)
    legal_actions, lookahead, take_action, root_options, best_option = map(
        from_python, (kb.legal_actions, lookahead_kernels._lookahead, kb.take_action, kb.root_options,
                       lookahead_kernels._best_option))
    checked = 0
    for index in range(2):
        reset_workspace(game, tt, cfg, g, setup.active, setup.tiles.hq, 4, index)
        while st[kb.ST_DECK_POS] < st[kb.ST_DECK_LEN] or (hands >= 0).any():
            k = legal_actions(tt, cfg, g, st, board, hands, ships, actions)
            i = lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, k, params, planner)
            kind = actions[i, 0]
            take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, *map(int, actions[i]))
            if kind == kb.ACT_PLACE and plan[kb.PLAN_TURN] == st[kb.ST_TURNS] and plan[kb.PLAN_LINE_POS] > 0:
                m = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, fresh)
                best = fresh[5][best_option(fresh[6], m)]
                same = best[step] if plan[kb.PLAN_KIND] == kb.PLAN_PLACE else best[kb.PLAN_KIND:kb.PLAN_CELL + 1]
                assert list(plan[step][:len(same)]) == list(same), (index, st[kb.ST_TURNS])
                checked += 1
    assert checked > 20


def _stop_value_by_definition(tt, cfg, st, board, hands, g, fill, params, ship, tokens, used):
    """docs/beacon/policies.md's end of turn, plainly: the best cell within `tokens` sails of ship by
    ship x the fill chances of the open sides of it and of the cells one sail from it, less 0.001
    per sail; plus (solo, while a keep is allowed) keep x the points of the best tile left. Also
    the cells within tokens + 1 sails, with their sails."""
    step = {kb.NORTH: -g, kb.EAST: 1, kb.SOUTH: g, kb.WEST: -1}

    def land(cell):
        return int(tt[board[cell, kb.B_TILE], kb.TT_LAND_MASK])

    def sails(cell):  # the placed neighbours a ship on cell reaches over water
        return [cell + step[d] for d in range(4) if not (land(cell) >> d) & 1 and board[cell + step[d], kb.B_TILE] >= 0]

    def open_fill(cell):
        return sum(fill[board[cell + step[d], kb.B_SIDES]] for d in range(4)
                   if not (land(cell) >> d) & 1 and board[cell + step[d], kb.B_TILE] < 0)

    steps, frontier = {ship: 0}, [ship]  # the cells within tokens + 1 sails: fewest sails
    for k in range(1, tokens + 2):
        frontier = [nxt for cell in frontier for nxt in sails(cell) if steps.setdefault(nxt, k) == k]
    best = max(params[kb.LA_SHIP] * sum(open_fill(c) for c in [cell] + sails(cell)) - 0.001 * k
               for cell, k in steps.items() if k <= tokens)
    free = [hands[s] for s in range(cfg[kb.CFG_HAND]) if hands[s] >= 0 and not (used >> s) & 1]
    if cfg[kb.CFG_PLAYERS] == 1 and st[kb.ST_DECK_POS] < st[kb.ST_DECK_LEN] and free:
        best += params[kb.LA_KEEP] * max(kb.BASE_POINTS[tt[t, kb.TT_FEATURE]] for t in free)
    return best, steps


@pytest.mark.parametrize("players,expansions", [(1, ""), (3, "windmills,piers")])
def test_the_end_of_turn_value_is_its_definition(players, expansions):
    """_stop_value sums each cell's open-side chances once for all the cells next to it; on the
    positions of whole games it gives the plain definition's value, a best cell, and the cells
    within the tokens and within one sail more."""
    setup = make_setup(players, "greedy", expansions, None)
    tt, cfg, params = setup.kernel_tiles, setup.cfg, parse_policy("lookahead").vector(kb.N_PARAMS)
    n, g = setup.tiles.n, kb.grid_size(setup.tiles.n)
    game = kb.new_workspace(n, g, kb.POLICY_LOOKAHEAD)
    st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
    fill, where = kb.new_planner(n).fill, np.zeros(1, np.int64)
    legal_actions, greedy, take_action, unseen_fill, stop_value = map(
        from_python, (kb.legal_actions, greedy_kernels._greedy, kb.take_action, kb.unseen_fill,
                       lookahead_kernels._stop_value))
    checked = 0
    for index in range(3):
        reset_workspace(game, tt, cfg, g, setup.active, setup.tiles.hq, 8, index)
        while st[kb.ST_DECK_POS] < st[kb.ST_DECK_LEN] or (hands >= 0).any():
            p, ship = st[kb.ST_PLAYER], ships[st[kb.ST_PLAYER]]
            unseen_fill(tt, cfg, st, hands, deck, p, fill)
            for tokens, used in ((st[kb.ST_TOKENS], 0), (cfg[kb.CFG_TOKENS] + 1, 1)):
                value, reached, reached_more = stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, used, flood,
                                                          fill, params, where)
                expected, steps = _stop_value_by_definition(tt, cfg, st, board, hands[p * kb.MAX_HAND:], g, fill,
                                                            params, ship, tokens, used)
                assert value == pytest.approx(expected, abs=1e-12)
                cells = list(flood[1 + 2 * n:reached_more:3])
                assert sorted(cells) == sorted(steps)
                assert sorted(cells[:(reached - 1 - 2 * n) // 3]) == sorted(c for c, k in steps.items() if k <= tokens)
                assert steps[where[0]] <= tokens
                checked += 1
            k = legal_actions(tt, cfg, g, st, board, hands, ships, actions)
            i = greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, k, game[11], game[12])
            take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, *map(int, actions[i]))
    assert checked > 300


def test_unseen_fill_counts_the_pile_and_other_hands():
    setup = make_setup(2, "lookahead", "", None)
    tt, cfg = setup.kernel_tiles, setup.cfg
    st = np.zeros(kb.ST_SIZE, np.int64)
    deck = np.arange(1, 11, dtype=np.int64)
    st[kb.ST_DECK_POS], st[kb.ST_DECK_LEN] = 4, 10  # tiles 5..10 unseen in the pile
    hands = np.full(kb.MAX_PLAYERS * kb.MAX_HAND, -1, np.int64)
    hands[0:3] = [11, 12, 13]  # player 0's own hand: seen
    hands[3:5] = [14, 15]  # the partner's hand: unseen to player 0
    fill = np.zeros(kb.FILL_SIZE)
    total = from_python(kb.unseen_fill)(tt, cfg, st, hands, deck, 0, fill)
    unseen = [5, 6, 7, 8, 9, 10, 14, 15]
    assert total == len(unseen)
    masks = tt[unseen, kb.TT_LAND_MASK]
    for sides in range(256):
        known, land = sides & 15, sides >> 4
        if land & ~known:
            continue  # no board holds it: land is only shown by placed neighbours
        fitting = sum(1 for m in masks if m & known == land)
        reachable = known & ~land != 0
        expected = 1 - (1 - fitting / len(unseen)) ** kb.FILL_DRAWS if reachable else 0.0
        assert fill[sides] == pytest.approx(expected), sides


def test_policy_parameters_parse_and_reject_bad_values():
    assert parse_policy("lookahead:hole=2.5,width=3").vector(kb.N_PARAMS)[kb.LA_HOLE] == 2.5
    assert parse_policy("rollout:samples=4").vector(kb.N_PARAMS)[kb.R_SAMPLES] == 4
    assert "NOT A FAIR POLICY" in parse_policy("oracle").spec.description
    for bad in ("lookahead:width=0", "rollout:samples=0", "rollout:inner=3", "lookahead:nope=1"):
        with pytest.raises(UserError):
            parse_policy(bad)


@pytest.mark.parametrize("policy, tier", [("random", kb.POLICY_GREEDY), ("greedy", kb.POLICY_GREEDY),
                                          ("lookahead:width=2", kb.POLICY_LOOKAHEAD),
                                          ("rollout", kb.POLICY_ROLLOUT), ("oracle", kb.POLICY_ORACLE)])
def test_policy_tier_is_the_costliest_policy_at_the_table(policy, tier):
    assert kb.policy_tier(make_setup(3, policy, "", None).policy_ids) == tier


def test_kernels_compile_only_what_a_run_needs(tmp_path):
    """Checked in a fresh process with an empty numba cache. The point of the tiers: greedy's
    kernel holds no lookahead, rollout or oracle code, so it compiles in a fraction of the time.
    And each helper compiles once: a literal constant passed to a helper (`f(x, 0)`) would compile
    it again for that constant (the game loop has one kernel per tier, `_play_of`)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import numba, numpy as np\n"
            "from analyzer.beacon.simulation import make_setup, play_range_fn\n"
            "from kernels import beacon as kb\n"
            "play_range_fn(make_setup(1, 'greedy', '', None), 1)(0, np.zeros((kb.N_COLS, 2), np.int16))\n"
            "from kernels.beacon import actions, board, greedy, lookahead, play, rollout\n"
            "print([len(f.signatures) for f in\n"
            "       (greedy._greedy, kb.root_options, rollout._rollout, rollout._continue)])\n"
            "play_range_fn(make_setup(3, 'lookahead', 'piers', None), 1)(0, np.zeros((kb.N_COLS, 2), np.int16))\n"
            "print(sorted(name for m in (actions, board, greedy, lookahead, play, rollout)\n"
            "             for name, f in vars(m).items()\n"
            "             if isinstance(f, numba.core.registry.CPUDispatcher)\n"
            "             and (len(f.signatures) > 1 or any(\n"
            "                 isinstance(a, numba.types.Literal) for sig in f.signatures for a in sig))))\n")
    env = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[-3:-1] == ["[1, 0, 0, 0]", "[]"]


def _copied(workspace):
    """A deep copy of a workspace bundle (its named tuples stay named tuples)."""
    if not isinstance(workspace, tuple):
        return workspace.copy()
    items = [_copied(a) for a in workspace]
    return type(workspace)(*items) if hasattr(workspace, "_fields") else tuple(items)


@pytest.mark.parametrize("policy,players,expansions", [("lookahead", 1, ""), ("lookahead", 3, "windmills,piers"),
                                                       (SEARCH, 1, ""), (SEARCH, 3, "piers")])
def test_fair_policies_never_depend_on_the_draw_order(policy, players, expansions):
    """A fair policy knows the pile only as a multiset: shuffling the undrawn tiles never changes its
    choice. (greedy is not given the pile at all; the oracle is the one policy told its order.)"""
    setup = make_setup(players, policy, expansions, None)
    tt, cfg, params = setup.kernel_tiles, setup.cfg, setup.policy_params[0]
    n, g = setup.tiles.n, kb.grid_size(setup.tiles.n)
    tier = kb.policy_tier(setup.policy_ids)
    game = kb.new_workspace(n, g, tier)
    legal_actions, take_action = from_python(kb.legal_actions), from_python(kb.take_action)
    if tier == kb.POLICY_LOOKAHEAD:
        lookahead = from_python(lookahead_kernels._lookahead)

        def decide(w, k):
            st, board, pos, _placed, piers, hands, ships, deck, flood, actions = w[:10]
            return lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, k, params,
                             w.planner)
    else:
        rollout = from_python(rollout_kernels._rollout)

        def decide(w, k):
            return rollout(setup.policy_ids[0], params, tt, cfg, g, w, k)
    shuffle = np.random.default_rng(1)
    decisions = 0
    for index in range(2 if policy == "lookahead" else 1):
        reset_workspace(game, tt, cfg, g, setup.active, setup.tiles.hq, 9, index)
        st, hands = game[0], game[5]
        while st[kb.ST_DECK_POS] < st[kb.ST_DECK_LEN] or (hands >= 0).any():
            k = legal_actions(tt, cfg, g, st, game[1], hands, game[6], game[9])
            lo, hi = st[kb.ST_DECK_POS], st[kb.ST_DECK_LEN]
            if hi - lo > 1:
                other = _copied(game)
                shuffle.shuffle(other[7][lo:hi])
                assert decide(_copied(game), k) == decide(other, k), (index, st[kb.ST_TURNS])
                decisions += 1
            i = decide(game, k)
            take_action(tt, cfg, g, *game[:8], *map(int, game[9][i]))
    assert decisions > 50
