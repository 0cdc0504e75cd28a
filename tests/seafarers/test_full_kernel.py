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
from kernels.rng import PURPOSE_POLICY, stream_init

RULES = load_rules()
SCENARIOS = ("base", "new-shores", "four-islands", "through-the-desert", "fog-islands", "new-world", "forgotten-tribe",
             "cloth-for-catan")


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
    same_game(slug, players, seed, g, bot)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6), st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games_of_cloth_for_catan(players, seed, g, bot):
    """Cloth for Catan's villages, routes, cloth, the pirate's cloth steal and the villages' end: every decision the
    same in both engines, at 3 and 4 players."""
    same_game("cloth-for-catan", players, seed, g, bot)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(("cloth-for-catan", "pirate-islands")), st.sampled_from((3, 4)), st.integers(0, 2**32),
       st.integers(0, 10**6))
def test_value_bots_games_of_the_goal_scenarios_are_the_references_games(slug, players, seed, g):
    """The value and planner bots go for the villages, or the fortresses (the goals weight): the engines still
    agree."""
    table, state = _value_game(slug, players, seed, g,
                               ["value", "planner", "weighted", "value:goals=0"][:players])
    assert state.winner >= 0 or state.capped


@settings(max_examples=6, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6), st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games_on_the_base_map(players, seed, g, bot):
    """Plain Catan (no ships, no pirate) on random base boards: every decision the same in both engines."""
    same_game("base", players, seed, g, bot)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6), st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games_in_the_forgotten_tribe(players, seed, g, bot):
    """The islet gifts (chits, cards, harbours placed or kept) on random boards: every decision the same."""
    same_game("forgotten-tribe", players, seed, g, bot)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6), st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games_in_the_pirate_islands(players, seed, g, bot):
    """The fleet and its raids, the routes and warships, the 7's steal and the fortress battles: every decision the
    same in both engines, at 3 and 4 players."""
    same_game("pirate-islands", players, seed, g, bot)


def same_game(slug, players, seed, g, bot):
    """Kernel and reference play game g of `seed` on its board with `bot` in every seat: the same legal actions in
    the same order at every decision, the same hands, routes and result."""
    table, board = tables(slug, players, seed, g)
    decide = R.decide_weighted if bot == "weighted" else R.decide_random
    state = R.init(table, seed, g)
    game = kg.new_game(board)
    kg.init(board, game, seed, g)
    assert game.deck[:len(state.deck)].tolist() == state.deck
    streams = [Stream(seed, 4 * g + p, PURPOSE_POLICY) for p in range(players)]
    while not R.terminal(state):
        actions = R.legal(table, state)
        n = kg.legal(board, game)
        assert game.actions[:n].tolist() == [list(a) for a in actions], R.PHASES[state.phase]
        assert game.st[kg.ST_ACTOR] == state.actor and game.st[kg.ST_PHASE] == state.phase
        action = actions[decide(actions, streams[state.actor], table, state) if bot == "weighted" else
                         decide(actions, streams[state.actor])]
        R.step(table, state, action)
        kg.step(board, game, *action)
    assert kg.legal(board, game) == 0
    assert game.hands[:players].tolist() == state.hands and game.route[:players].tolist() == state.route
    assert game.terrain.tolist() == state.terrain and game.number.tolist() == state.number  # the same fog explored
    out, _ = play_on_board(board, seed, g, 1, [bot] * players)  # the kernel's own loop plays the same game
    ref = R.result(table, state)
    assert out[[kg.R_WINNER, kg.R_TURNS, kg.R_ROLLS, kg.R_SEVENS, kg.R_CAPPED, kg.R_CLOTH_END], 0].tolist() == [
        ref["winner"], ref["turns"], ref["rolls"], ref["sevens"], int(ref["capped"]), int(ref.get("cloth_end", 0))]
    # the reference names cloth and chits only where the scenario has them; the kernel's columns are 0 elsewhere
    assert seat_columns(out, 0, players) == [[seat.get(k, 0) for k in kg.SEAT_COLS] for seat in ref["seats"]]


def test_games_in_one_run_are_the_games_alone():
    _, board = tables("new-shores", 4, 3, 0)
    together, _ = play_on_board(board, 3, 10, 4, ["weighted"] * 4)
    alone = np.concatenate([play_on_board(board, 3, 10 + j, 1, ["weighted"] * 4)[0] for j in range(4)], axis=1)
    assert (together == alone).all()
    assert len({tuple(together[:, j]) for j in range(4)}) == 4  # different games


def _value_game(slug, players, seed, g, bots):
    """A game whose seats the kernel's bots play, stepped on kernel and reference alike (every action the
    reference's legal one)."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from kernels.catan import policies as kp

    table, board = tables(slug, players, seed, g)
    policies, params = bot_vectors([parse_bot(b) for b in bots])
    state, game = R.init(table, seed, g), kg.new_game(board)
    kg.init(board, game, seed, g)
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    for p in range(players):
        stream_init(streams[p], seed, kg.MAX_SEATS * g + p, PURPOSE_POLICY)
    work = kp.bot_work(board)
    while not R.terminal(state):
        n = kg.legal(board, game)
        actions = R.legal(table, state)
        assert game.actions[:n].tolist() == [list(a) for a in actions], R.PHASES[state.phase]
        seat = state.actor
        i = kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work)
        R.step(table, state, actions[i])
        kg.step(board, game, *actions[i])
    return table, state


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(SCENARIOS), st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6))
def test_value_bots_games_are_the_references_games(slug, players, seed, g):
    """Value and planner bots build far more than the baselines (cities, long routes, islands): the engines still
    agree."""
    table, state = _value_game(slug, players, seed, g, ["value", "planner", "weighted", "value:opening=port"][:players])
    assert state.winner >= 0 or state.capped


def choices_ignore(board, seed, g, hide, phases=(kg.MAIN,)):
    """Four value bots play game g on `board`; at every decision in `phases`, `hide(game, seat)` changes what the
    deciding seat cannot see (and says whether it did): the choice must not move. Returns how many were checked."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from kernels.catan import policies as kp

    policies, params = bot_vectors([parse_bot("value")] * 4)
    game = kg.new_game(board)
    kg.init(board, game, seed, g)
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    work = kp.bot_work(board)
    checked = 0
    for _ in range(3000):
        if game.st[kg.ST_PHASE] == kg.OVER:
            break
        n = kg.legal(board, game)
        seat = game.st[kg.ST_ACTOR]
        i = kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work)
        if game.st[kg.ST_PHASE] in phases:
            saved = [a.copy() if isinstance(a, np.ndarray) else a for a in game]
            if hide(game, seat):
                game.field_version[:] = -1  # nothing kept from before
                assert kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work) == i
                checked += 1
            for a, b in zip(game, saved):
                if isinstance(a, np.ndarray):
                    a[...] = b
        kg.step(board, game, *game.actions[i])
    return checked


def test_the_value_bot_sees_no_hidden_card():
    """Fair: the bot's choice (on its turn, or answering an offer) never changes when the other players' hands
    change but their card counts do not (counts are public at the table), nor when the deck's order does."""
    _, board = tables("new-shores", 4, 11, 5)
    rng = np.random.default_rng(0)

    def hide(game, seat):
        for p in range(4):
            if p != seat:  # the same number of cards, other resources
                game.hands[p] = np.bincount(rng.integers(0, 5, game.hands[p].sum()), minlength=5)
        rng.shuffle(game.deck[game.st[kg.ST_DECK_POS]:board.params[kg.P_DECK_LEN]])
        return True

    assert choices_ignore(board, 11, 5, hide, (kg.MAIN, kg.RESPOND)) > 50  # its turn, or its answer to an offer


def test_one_value_bot_beats_three_weighted_ones():
    from analyzer.seafarers.full_game import play_games

    r = play_games("new-shores", 4, ["weighted", "weighted", "value", "weighted"], 60, 21, threads=1,
                   progress=False)
    value = r.summary["seats"][2]
    assert value["ci95"][0] > 0.6  # a fair seat wins 25%


def test_the_kernel_explores_the_fog_as_the_reference_and_its_bots_see_only_what_is_explored():
    for g in range(3):
        table, board = tables("fog-islands", 4, 11, g)
        state = R.init(table, 11, g)
        game = kg.new_game(board)
        kg.init(board, game, 11, g)
        streams = [Stream(11, 4 * g + p, PURPOSE_POLICY) for p in range(4)]
        while not R.terminal(state):
            actions = R.legal(table, state)
            n = kg.legal(board, game)
            assert game.actions[:n].tolist() == [list(a) for a in actions], R.PHASES[state.phase]
            action = actions[R.decide_weighted(actions, streams[state.actor])]
            R.step(table, state, action)
            kg.step(board, game, *action)
        explored = [h for h in range(len(state.terrain)) if table.fog[h] and state.terrain[h] != R.UNKNOWN]
        assert explored  # games reach the fog
        # the value bot's pips are the table's: what the explored hexes show, nothing of the hidden ones
        pips = np.zeros_like(game.corner_pips)
        topo = table.scenario.topology
        for c in range(topo.n_corner):
            for h in topo.corner_hexes[c]:
                t = state.terrain[h] if h >= 0 else 0
                if h >= 0 and 2 <= t <= 7:
                    pips[c, 5 if t == 2 else t - 3] += kg._PIPS[state.number[h]]
        assert np.array_equal(game.corner_pips, pips)


def test_one_planner_beats_three_weighted_bots():
    from analyzer.seafarers.full_game import play_games

    r = play_games("new-shores", 4, ["weighted", "weighted", "planner", "weighted"], 60, 21, threads=1,
                   progress=False)
    assert r.summary["seats"][2]["ci95"][0] > 0.6  # a fair seat wins 25%


def test_the_planner_saves_for_the_build_with_the_most_value_per_roll():
    """A city one ore short (with ore income) beats a development card two cards short; once the city is in hand,
    the planner builds it and buys nothing else."""
    from analyzer.seafarers.bots import bot_vectors, parse_bot
    from kernels.catan import bots as kb
    from kernels.catan import policies as kp

    table, board = tables("new-shores", 4, 11, 5)
    policies, params = bot_vectors([parse_bot("planner")] * 4)
    game = kg.new_game(board)
    kg.init(board, game, 11, 5)
    streams, work = np.zeros((kg.MAX_SEATS, 2), np.uint64), kp.bot_work(board)
    own = work.own
    while game.st[kg.ST_PHASE] != kg.PRE_ROLL:  # the draft, by the planners
        n = kg.legal(board, game)
        kg.step(board, game, *game.actions[kp.decide(board, game, n, policies[0], params[0], streams[0], work)])
    game.st[kg.ST_PHASE] = kg.MAIN
    seat = game.st[kg.ST_ACTOR]
    game.bank[:] += game.hands[seat]
    game.hands[seat] = [0, 0, 0, 2, 2]  # grain 2, ore 2: a city lacks one ore
    kb.seat_pips(board, game, seat, own)
    if own[4] == 0:
        own[4] = 1.0
    assert kb._plan_target(board, game, params[seat], seat, own) == kg.ITEM_CITY
    game.hands[seat] = [0, 0, 1, 2, 3]
    n = kg.legal(board, game)
    chosen = game.actions[kp.decide(board, game, n, policies[seat], params[seat], streams[seat], work)]
    assert chosen[0] == kg.CITY_UP


@settings(max_examples=4, deadline=None)  # (random bots' games are long in the reference: about 4 s a game)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6), st.sampled_from(("weighted", "random")))
def test_the_kernel_plays_the_references_games_of_the_wonders_of_catan(players, seed, g, bot):
    """The Wonders of Catan's claims, stages and both ways to win, the islet chits: every decision the same in both
    engines, at 3 and 4 players."""
    same_game("wonders-of-catan", players, seed, g, bot)


@settings(max_examples=4, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32), st.integers(0, 10**6))
def test_value_bots_games_of_the_wonders_of_catan_are_the_references_games(players, seed, g):
    """The value and planner bots go for their wonders (the goals weight): the engines still agree."""
    table, state = _value_game("wonders-of-catan", players, seed, g,
                               ["value", "planner", "rollout", "value:goals=0"][:players])
    assert state.winner >= 0 or state.capped
