"""New World's harbour tokens, laid by the players (seed 002, CENÁRIO 9: UM NOVO MUNDO, "2. PREPARAÇÃO"): every rule
on a hand-built position of the printed board in both engines, the seed's words quoted; the rules data's defaults
where the seed is silent (analyzer/seafarers/data/rules/full_game.toml [harbours]) and their two switches."""

import numpy as np
import pytest

from analyzer.rng_reference import Stream
from analyzer.seafarers import full_reference as R
from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import HARBOUR_TYPES, load_scenario
from analyzer.seafarers.table import printed_board
from kernels.catan import game as kg
from kernels.catan import policies as kp
from kernels.catan.codes import DESERT, FIRST_RESOURCE_TERRAIN, GOLD, PIPS, SEA
from kernels.rng import PURPOSE_POLICY, stream_init

RULES = load_rules()
PREPARATION = ("Embaralhe as fichas de porto de face para baixo e empilhe-os. A começar pelo jogador mais velho e em "
               "sentido horário, cada um retira um porto e coloca-o onde ache mais conveniente.")
FORGOTTEN_TRIBE = ("apenas se pode colocar um porto por hexágono de mar e não podem existir dois portos adjacentes")


def engines(players=4, rules=RULES, seed=1, g=0):
    """New World's printed board in both engines, at the start of game g (the first token drawn)."""
    s = load_scenario("new-world", players)
    table = R.game_table(s, rules, *printed_board(s))
    board = kernel_board(table)
    state, game = R.init(table, seed, g), kg.new_game(board)
    kg.init(board, game, seed, g)
    return table, state, board, game


def both_step(table, state, board, game, action):
    R.step(table, state, action)
    kg.step(board, game, *action)


def kernel_legal(board, game):
    return [tuple(a) for a in game.actions[:kg.legal(board, game)].tolist()]


def coast_edges(table):
    """Edges in play with land on one side and sea on the other, from the dealt terrain alone."""
    topo, t = table.scenario.topology, table.terrain
    out = []
    for e in range(topo.n_edge):
        a, b = (int(h) for h in topo.edge_hexes[e])
        if a >= 0 and b >= 0 and topo.edge_in_play[e] and ((t[a] >= DESERT and t[b] == SEA)
                                                            or (t[b] >= DESERT and t[a] == SEA)):
            out.append(e)
    return out


def test_the_tokens_are_shuffled_face_down_and_laid_before_the_draft_from_the_oldest_player_clockwise():
    """'Embaralhe as fichas de porto de face para baixo e empilhe-os. A começar pelo jogador mais velho e em sentido
    horário, cada um retira um porto ...' (2. PREPARAÇÃO, before '3. ... Fase de construção'): seat 1 (the oldest,
    who also begins the draft) lays the first token, then each seat in turn until the stack is empty; then the
    draft."""
    assert PREPARATION in RULES_TEXT()
    for players in (3, 4):
        table, state, board, game = engines(players)
        pool = sorted([HARBOUR_TYPES.index(k) for k, n in table.scenario.harbours.pool.items() for _ in range(n)])
        assert sorted(state.harbour_stack) == pool and len(pool) == 10  # 5 generic, one of each resource
        assert game.harbour_stack.tolist() == state.harbour_stack
        layers = []
        while state.phase == R.LAY_HARBOUR:
            assert game.st[kg.ST_PHASE] == kg.LAY_HARBOUR and game.st[kg.ST_ACTOR] == state.actor
            layers.append(state.actor)
            actions = R.legal(table, state)
            assert kernel_legal(board, game) == actions
            both_step(table, state, board, game, actions[0])
        assert layers == [k % players for k in range(10)]
        assert state.phase == R.SETUP_SETTLEMENT and state.actor == state.setup_order[0] == 0
        assert game.st[kg.ST_PHASE] == kg.SETUP_SETTLEMENT and game.st[kg.ST_ACTOR] == 0
        assert all(e >= 0 for e in state.harbour_edges) and game.harbour_edges.tolist() == state.harbour_edges
    stacks = {tuple(engines(4, g=g)[1].harbour_stack) for g in range(6)}
    assert len(stacks) > 1 and engines(4, g=3)[1].harbour_stack == engines(4, g=3)[1].harbour_stack  # per game


def RULES_TEXT():
    from analyzer.seafarers.full_rules import rules_text

    return rules_text()[0]


def test_a_token_goes_only_on_a_coast_edge():
    """Default (the printed maps put their harbours there): a coast edge in play, land on one side and sea (the
    frame's included) on the other; the first token may take any of them."""
    table, state, board, game = engines()
    edges = [a for _, a, _ in R.legal(table, state)]
    assert edges == coast_edges(table) and len(edges) > 40
    assert kernel_legal(board, game) == [(R.PLACE_HARBOUR, e, 0) for e in edges]


def test_one_harbour_per_sea_hex_and_no_two_touching_a_corner():
    """'apenas se pode colocar um porto por hexágono de mar e não podem existir dois portos adjacentes' (the
    Forgotten Tribe's harbour tokens; the default for New World, whose text names no constraint): after a token on
    edge e, no edge of its sea hex and no edge touching its docks is legal; the option harbour_hexes_apart also
    keeps the next token off the neighbouring sea hexes."""
    assert FORGOTTEN_TRIBE in RULES_TEXT()
    topo = load_scenario("new-world", 4).topology
    table, state, board, game = engines()
    e = R.legal(table, state)[0][1]
    sea = R._harbour_sea(table, state, e)
    both_step(table, state, board, game, (R.PLACE_HARBOUR, e, 0))
    k = state.harbour_stack[0]
    assert [state.corner_harbour[c] for c in topo.edge_corners[e]] == [k, k]
    assert [game.corner_harbour[c] for c in topo.edge_corners[e]] == [k, k]
    left = [a for _, a, _ in R.legal(table, state)]
    assert kernel_legal(board, game) == [(R.PLACE_HARBOUR, f, 0) for f in left]
    docks = set(topo.edge_corners[e].tolist())
    for f in coast_edges(table):
        blocked = R._harbour_sea(table, state, f) == sea or bool(docks & set(topo.edge_corners[f].tolist()))
        assert (f in left) == (not blocked), f
    neighbours = [f for f in left if R._harbour_sea(table, state, f) in topo.hex_neighbours[sea]]
    assert neighbours  # the default allows a neighbouring sea hex ...
    apart = load_rules(rule=["harbour_hexes_apart=true"])
    table, state, board, game = engines(rules=apart)
    both_step(table, state, board, game, (R.PLACE_HARBOUR, e, 0))
    strict = [a for _, a, _ in R.legal(table, state)]
    assert kernel_legal(board, game) == [(R.PLACE_HARBOUR, f, 0) for f in strict]
    assert set(strict) == set(left) - set(neighbours)  # ... the option does not


def test_a_settlement_at_a_laid_harbour_trades_at_its_rate():
    """The docks of a laid 2:1 token trade its resource 2:1, of a 3:1 token everything 3:1 (as a printed harbour):
    a draft settlement there has the rate in both engines (the kernel caches it per seat)."""
    table, state, board, game = engines()
    while state.phase == R.LAY_HARBOUR:
        both_step(table, state, board, game, R.legal(table, state)[-1])
    for k in (0, 3):  # a 3:1 and the wool 2:1
        pos = state.harbour_stack.index(k)
        dock = int(table.scenario.topology.edge_corners[state.harbour_edges[pos]][0])
        if (R.SETTLE, dock, 0) not in R.legal(table, state):
            dock = int(table.scenario.topology.edge_corners[state.harbour_edges[pos]][1])
        seat = state.actor
        both_step(table, state, board, game, (R.SETTLE, dock, 0))
        both_step(table, state, board, game, R.legal(table, state)[0])  # its road or ship
        want = [3] * 5 if k == 0 else [4, 4, 2, 4, 4]
        assert [R._rate(table, state, seat, r) for r in range(5)] == want
        assert game.rates[seat].tolist() == want


def test_laid_after_the_draft_a_harbour_beside_a_settlement_gives_its_rate_at_once():
    """The other reading (option harbours_after_draft): the draft first, then the tokens, seat 1 first; a token laid
    at a settlement changes its owner's rate the moment it is laid; then the first turn."""
    rules = load_rules(rule=["harbours_after_draft=true"])
    table, state, board, game = engines(rules=rules)
    assert state.phase == R.SETUP_SETTLEMENT and game.st[kg.ST_PHASE] == kg.SETUP_SETTLEMENT
    while state.phase != R.LAY_HARBOUR:
        actions = R.legal(table, state)
        assert kernel_legal(board, game) == actions
        both_step(table, state, board, game, actions[0])
    assert state.actor == 0 and all(p < 0 for p in state.harbour_edges)
    layers = []
    while state.phase == R.LAY_HARBOUR:
        layers.append(state.actor)
        actions = R.legal(table, state)
        assert kernel_legal(board, game) == actions
        topo = table.scenario.topology
        at_home = [a for a in actions if state.corner_owner[topo.edge_corners[a[1]][0]] == state.actor
                   or state.corner_owner[topo.edge_corners[a[1]][1]] == state.actor]
        both_step(table, state, board, game, (at_home or actions)[0])
        for seat in range(4):
            assert game.rates[seat].tolist() == [R._rate(table, state, seat, r) for r in range(5)]
    assert layers == [k % 4 for k in range(10)]
    assert state.phase == R.PRE_ROLL and game.st[kg.ST_PHASE] == kg.PRE_ROLL and state.actor == 0
    assert any(min(game.rates[seat]) < 4 for seat in range(4))  # some seat took a harbour at home


def test_a_token_with_no_site_left_is_set_aside():
    """Default (never seen on this map): a token that can go nowhere is set aside and the next is drawn."""
    table, state, board, game = engines()
    for c in range(len(state.corner_harbour)):  # every corner a dock already: no site at all
        state.corner_harbour[c] = 0
        game.corner_harbour[c] = 0
    R._lay_next(table, state, 3)
    kg._lay_next(board, game, 3)
    assert state.phase == R.SETUP_SETTLEMENT and state.harbour_pos == 10 and state.harbour_edges == [-1] * 10
    assert game.st[kg.ST_PHASE] == kg.SETUP_SETTLEMENT and game.st[kg.ST_HARBOUR_POS] == 10


def _decide(board, game, bot, stream=0):
    policies, params = bot_vectors([parse_bot(bot)] * 4)
    streams = np.zeros((kg.MAX_SEATS, 2), np.uint64)
    stream_init(streams[0], 9, stream, PURPOSE_POLICY)
    n = kg.legal(board, game)
    seat = game.st[kg.ST_ACTOR]
    return game.actions[kp.decide(board, game, n, policies[seat], params[seat], streams[seat], kp.bot_work(board))]


def _dock_score(table, c, kind):
    """The documented heuristic, from the dealt board alone: the dock's pips, its 2:1 resource's three times."""
    topo, t, num = table.scenario.topology, table.terrain, table.number
    score = 0
    for h in topo.corner_hexes[c]:
        if h >= 0 and t[h] >= GOLD:
            score += PIPS[num[h]] * (3 if kind > 0 and t[h] == FIRST_RESOURCE_TERRAIN + kind - 1 else 1)
    return score


@pytest.mark.parametrize("bot", ["value", "planner", "weighted"])
def test_the_bots_lay_their_token_where_they_find_best_and_random_anywhere(bot):
    """'cada um ... coloca-o onde ache mais conveniente': every bot but random lays its token on the coast edge
    whose better dock has the most pips, a 2:1 token's own resource counted three times (rules data [harbours],
    kernels/catan/bots.py harbour_score), the first such edge on a tie; the reference's best_harbour agrees.
    random picks uniformly."""
    table, state, board, game = engines()
    for _ in range(4):  # a few tokens down, so both kinds and blocked sites are met
        kind = state.harbour_stack[state.harbour_pos]
        actions = R.legal(table, state)
        scores = [max(_dock_score(table, c, kind) for c in table.scenario.topology.edge_corners[a]) for _, a, _ in
                  actions]
        best = actions[scores.index(max(scores))]
        assert tuple(_decide(board, game, bot)) == best
        assert actions[R.best_harbour(table, state, actions)] == best
        both_step(table, state, board, game, best)
    picks = {tuple(_decide(board, game, "random", s)) for s in range(40)}
    assert len(picks) > 20  # spread over the sites, not the best one


def test_a_bot_sees_the_token_it_drew_not_the_rest_of_the_stack():
    """Fair: the choice never changes when the face-down tokens below the drawn one change order."""
    table, state, board, game = engines()
    rng = np.random.default_rng(0)
    for _ in range(9):
        choice = tuple(_decide(board, game, "value"))
        pos = game.st[kg.ST_HARBOUR_POS]
        saved = game.harbour_stack.copy()
        rng.shuffle(game.harbour_stack[pos + 1:])
        assert tuple(_decide(board, game, "value")) == choice
        game.harbour_stack[:] = saved
        kg.step(board, game, *choice)


@pytest.mark.parametrize("option", ["harbours_after_draft=true", "harbour_hexes_apart=true"])
def test_the_kernel_plays_the_references_games_under_each_switch(option):
    """Both engines, whole games of weighted bots on random boards, with each reading switched."""
    from analyzer.seafarers.boards import deal_plan, generate_boards

    rules = load_rules(rule=[option])
    s = load_scenario("new-world", 4)
    for g in range(2):
        b = generate_boards(deal_plan(s), 1, 4, first=g)
        table = R.game_table(s, rules, b.terrain[0], b.number[0], b.harbour[0])
        board = kernel_board(table)
        state, game = R.init(table, 4, g), kg.new_game(board)
        kg.init(board, game, 4, g)
        streams = [Stream(4, 4 * g + p, PURPOSE_POLICY) for p in range(4)]
        while not R.terminal(state):
            actions = R.legal(table, state)
            assert kernel_legal(board, game) == actions, R.PHASES[state.phase]
            both_step(table, state, board, game, actions[R.decide_weighted(actions, streams[state.actor], table,
                                                                           state)])
        assert game.harbour_edges.tolist() == state.harbour_edges and min(state.harbour_edges) >= 0
        assert game.hands[:4].tolist() == state.hands and (state.winner >= 0 or state.capped)
