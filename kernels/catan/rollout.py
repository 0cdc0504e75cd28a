"""The `rollout` bot of the full Seafarers game (numba): the value bot's best few actions, each tried in k playouts
on a copy of the game, and the one with the best mean outcome played (docs/seafarers/full_game.md, "Bots").

A playout deals afresh what the seat cannot see, then plays the candidate and value bots in every seat (with the
rollout bot's own weights) until the horizon's rolls have passed or the game ends. Its outcome is a win or a loss,
else the seat's standing (VP, income, cards) less the best rival's.

Fair: the fresh deal is made only of what the table shows.
    * Resources: the cards the other players hold together, by resource, are the bank's size less the bank's
      stacks and the seat's own hand (all public); they are dealt back to the other players by their card counts.
    * Development cards: the deck's remaining cards and the ones the other players hold form one pool, which is
      the deck's composition less the cards played (face up) and the seat's own; its cards are counted by type
      and dealt back, each player keeping its count of cards (and of cards bought this turn), the rest reshuffled
      into the deck. The Forgotten Tribe's cards still face down on the islets are in that pool and dealt back
      onto their coasts.
    * Fog: the unexplored fog hexes' terrains and number tokens are counted and dealt again among them.
    * Harbours (New World): the tokens still face down in the stack are shuffled again.
    * Dice and steals come from new streams.
Every pool is counted by type before it is dealt, so the deal depends on what the seat knows, never on the hidden
order. Common random numbers: playout j of every candidate starts from the same deal and dice (streams keyed by a
draw from the seat's policy stream and j).

`work` is a BotWork (kernels/catan/policies.py): own, scores, order and totals scratch, the copy `sim` (a Game)
and `sim_board` (the Board sharing every array but terrain and number), counts and a stream.
"""

from kernels.catan import bots as kb
from kernels.catan import game as kg
from kernels.catan.codes import GOLD, N_RESOURCES, ORE
from kernels.catan.gifts import GIFT_CARD, GIFT_ITEM, GIFT_KIND, GIFT_OWNER
from kernels.jit import internal, kernel
from kernels.rng import PURPOSE_DICE, PURPOSE_POLICY, PURPOSE_STEAL, next_u64, stream_init, uniform_int

WIN = 1000.0  # a won playout outweighs any standing
N_CARD_TYPES = 5
N_TERRAINS = 8
N_NUMBERS = 13
N_HARBOUR_KINDS = 6  # 3:1, then 2:1 of each resource (Board.corner_harbour codes)


@internal
def _copy1(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@internal
def _copy2(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@kernel
def copy_state(src, dst):
    """Every array of the game's state from src into dst (both Games of one board); scratch is not copied."""
    _copy1(src.st, dst.st)
    _copy1(src.terrain, dst.terrain)
    _copy1(src.number, dst.number)
    _copy2(src.corner_pips, dst.corner_pips)
    _copy2(src.hands, dst.hands)
    _copy2(src.cards, dst.cards)
    _copy2(src.new_cards, dst.new_cards)
    _copy2(src.pieces_left, dst.pieces_left)
    _copy2(src.rates, dst.rates)
    _copy1(src.bank, dst.bank)
    _copy1(src.deck, dst.deck)
    _copy1(src.corner_owner, dst.corner_owner)
    _copy1(src.corner_building, dst.corner_building)
    _copy1(src.edge_owner, dst.edge_owner)
    _copy1(src.edge_ship, dst.edge_ship)
    _copy1(src.edge_built, dst.edge_built)
    _copy1(src.knights, dst.knights)
    _copy1(src.bonus_vp, dst.bonus_vp)
    _copy1(src.route, dst.route)
    _copy1(src.discard, dst.discard)
    _copy1(src.gold, dst.gold)
    _copy1(src.trades, dst.trades)
    _copy1(src.first_settlement_turn, dst.first_settlement_turn)
    _copy1(src.domestic, dst.domestic)
    _copy2(src.claimed, dst.claimed)
    _copy2(src.home, dst.home)
    _copy1(src.dice, dst.dice)
    _copy1(src.steal, dst.steal)
    _copy2(src.net_corners, dst.net_corners)
    _copy2(src.net_edges, dst.net_edges)
    _copy2(src.n_net, dst.n_net)
    _copy2(src.in_net_corner, dst.in_net_corner)
    _copy2(src.in_net_edge, dst.in_net_edge)
    _copy1(src.corner_harbour, dst.corner_harbour)
    _copy1(src.harbour_stack, dst.harbour_stack)
    _copy1(src.harbour_edges, dst.harbour_edges)
    _copy1(src.cloth, dst.cloth)  # Cloth for Catan: cloth is public, nothing to deal
    _copy1(src.village_cloth, dst.village_cloth)
    _copy2(src.cloth_route, dst.cloth_route)
    _copy2(src.gift_state, dst.gift_state)
    _copy2(src.fort, dst.fort)  # the Pirate Islands: routes, warships and chits are public
    dst.field_version[:] = -1  # the copy's bots may weigh with other weights


@internal
def _draw(counts, lo, hi, stream):
    """A type t - lo drawn from the pool counts[lo:hi] (taken out of it); -1 when the pool is empty."""
    total = 0
    for t in range(lo, hi):
        total += counts[t]
    if total == 0:
        return -1
    i = uniform_int(stream, total)
    t = lo
    while i >= counts[t]:
        i -= counts[t]
        t += 1
    counts[t] -= 1
    return t - lo


@kernel
def determinize(board, game, sim, sim_board, seat, key, j, counts, stream):
    """Deal afresh into sim (a copy of game) and sim_board what `seat` cannot see (the module docstring): deal j of
    `key` (counts: int64 [N_TERRAINS + N_NUMBERS], stream: uint64 [2] scratch)."""
    p = board.params
    stream_init(stream, key, j, PURPOSE_POLICY)
    players = p[kg.P_PLAYERS]
    for r in range(N_RESOURCES):
        counts[r] = p[kg.P_BANK] - game.bank[r] - game.hands[seat, r]
    for o in range(players):
        if o == seat:
            continue
        held = 0
        for r in range(N_RESOURCES):
            held += game.hands[o, r]
            sim.hands[o, r] = 0
        for _ in range(held):
            sim.hands[o, _draw(counts, 0, N_RESOURCES, stream)] += 1
    for t in range(N_CARD_TYPES):
        counts[t] = 0
    for i in range(game.st[kg.ST_DECK_POS], p[kg.P_DECK_LEN]):
        counts[game.deck[i]] += 1
    for i in range(board.gifts.shape[1]):  # the Forgotten Tribe's cards still face down on the islets
        if board.gifts[GIFT_KIND, i] == GIFT_CARD and game.gift_state[GIFT_OWNER, i] < 0:
            counts[game.deck[board.gifts[GIFT_ITEM, i]]] += 1
    for o in range(players):
        if o != seat:
            for t in range(N_CARD_TYPES):
                counts[t] += game.cards[o, t] + game.new_cards[o, t]
    for o in range(players):
        if o == seat:
            continue
        old = 0
        new = 0
        for t in range(N_CARD_TYPES):
            old += game.cards[o, t]
            new += game.new_cards[o, t]
            sim.cards[o, t] = 0
            sim.new_cards[o, t] = 0
        for _ in range(old):
            sim.cards[o, _draw(counts, 0, N_CARD_TYPES, stream)] += 1
        for _ in range(new):
            sim.new_cards[o, _draw(counts, 0, N_CARD_TYPES, stream)] += 1
    for i in range(game.st[kg.ST_DECK_POS], p[kg.P_DECK_LEN]):
        sim.deck[i] = _draw(counts, 0, N_CARD_TYPES, stream)
    for i in range(board.gifts.shape[1]):
        if board.gifts[GIFT_KIND, i] == GIFT_CARD and game.gift_state[GIFT_OWNER, i] < 0:
            sim.deck[board.gifts[GIFT_ITEM, i]] = _draw(counts, 0, N_CARD_TYPES, stream)
    _deal_fog(board, game, sim_board, counts, stream)
    _deal_harbours(game, sim, counts, stream)
    stream_init(sim.dice, key, j, PURPOSE_DICE)
    stream_init(sim.steal, key, j, PURPOSE_STEAL)


@internal
def _deal_fog(board, game, sim_board, counts, stream):
    """sim_board's unexplored fog hexes: their terrains dealt again among them, then their number tokens among the
    producing ones (hexes in ascending order)."""
    for h in range(board.terrain.shape[0]):
        sim_board.terrain[h] = board.terrain[h]
        sim_board.number[h] = board.number[h]
    for t in range(N_TERRAINS + N_NUMBERS):
        counts[t] = 0
    hidden = 0
    for h in range(board.terrain.shape[0]):
        if board.fog[h] and game.terrain[h] == kg.UNKNOWN:
            hidden += 1
            counts[board.terrain[h]] += 1
            if board.number[h] > 0:
                counts[N_TERRAINS + board.number[h]] += 1
    if hidden == 0:
        return
    for h in range(board.terrain.shape[0]):
        if board.fog[h] and game.terrain[h] == kg.UNKNOWN:
            sim_board.terrain[h] = _draw(counts, 0, N_TERRAINS, stream)
    for h in range(board.terrain.shape[0]):
        if board.fog[h] and game.terrain[h] == kg.UNKNOWN:
            t = sim_board.terrain[h]
            sim_board.number[h] = 0
            if GOLD <= t <= ORE:
                sim_board.number[h] = max(_draw(counts, N_TERRAINS, N_TERRAINS + N_NUMBERS, stream), 0)


@internal
def _deal_harbours(game, sim, counts, stream):
    """The harbour tokens still face down in the stack (New World: all of them while the players lay them after
    the draft; the drawer's own token is seen) shuffled again."""
    first = game.st[kg.ST_HARBOUR_POS] + (1 if game.st[kg.ST_PHASE] == kg.LAY_HARBOUR else 0)
    for k in range(N_HARBOUR_KINDS):
        counts[k] = 0
    for i in range(first, game.harbour_stack.shape[0]):
        counts[game.harbour_stack[i]] += 1
    for i in range(first, game.harbour_stack.shape[0]):
        sim.harbour_stack[i] = _draw(counts, 0, N_HARBOUR_KINDS, stream)


@internal
def standing(board, game, params, seat, own):
    """A seat's position as the rollout scores it: VP, income (pips of resources and gold), cards in hand,
    development cards held (VP cards are in its VP), and (the Wonders) goals x STAGE_VALUE per stage built."""
    kb.seat_pips(board, game, seat, own)
    v = params[kb.V_VP] * kg.total_vp(board, game, seat)
    for k in range(6):
        v += params[kb.V_PIPS] * own[k]
    for r in range(N_RESOURCES):
        v += game.hands[seat, r]
    for t in range(N_CARD_TYPES):
        if t != kg.VP_CARD:
            v += params[kb.V_CARD] * (game.cards[seat, t] + game.new_cards[seat, t])
    return v + params[kb.V_GOALS] * kb.STAGE_VALUE * game.st[kg.ST_STAGE + seat]  # the Wonders' stages (0 elsewhere)


@internal
def outcome(board, game, params, seat, own):
    """WIN, -WIN, or the seat's standing less the best rival's."""
    w = game.st[kg.ST_WINNER]
    if w == seat:
        return WIN
    if w >= 0:
        return -WIN
    mine = standing(board, game, params, seat, own)
    rival = kb.NEVER
    for o in range(board.params[kg.P_PLAYERS]):
        if o != seat:
            rival = max(rival, standing(board, game, params, o, own))
    return mine - rival


@kernel
def playout(board, game, params, horizon, own, scores):
    """Value bots in every seat until `horizon` more rolls (0: the game's end); harbour tokens laid as
    policies.decide lays them."""
    limit = game.st[kg.ST_ROLLS] + horizon
    while game.st[kg.ST_PHASE] != kg.OVER and (horizon == 0 or game.st[kg.ST_ROLLS] < limit):
        n = kg.legal(board, game)
        if game.st[kg.ST_PHASE] == kg.LAY_HARBOUR:
            i = kb.best_harbour(board, game, n)
        else:
            i = kb.decide_value(board, game, n, params, own, False, scores)
        kg.step(board, game, game.actions[i, 0], game.actions[i, 1], game.actions[i, 2])


@internal
def _candidates(scores, n, m, order):
    """The indices of the m best scores (ties to the lower index), best first, into order; how many (never-chosen
    actions left out)."""
    k = 0
    while k < m:
        best, best_i = kb.NEVER / 4, -1
        for i in range(n):
            if scores[i] > best:
                taken = False
                for c in range(k):
                    taken = taken or order[c] == i
                if not taken:
                    best, best_i = scores[i], i
        if best_i < 0:
            break
        order[k] = best_i
        k += 1
    return k


@internal
def decide_rollout(board, game, n, params, stream, work):
    """Index of the chosen action among game.actions[:n]: of the value bot's `candidates` best, the one with the
    best mean outcome over `playouts` playouts of `horizon` rolls (the value bot's pick when there is one
    candidate or no playout)."""
    if n == 1:
        return 0
    seat = game.st[kg.ST_ACTOR]
    first = kb.decide_value(board, game, n, params, work.own, False, work.scores)
    k = int(params[kb.V_PLAYOUTS])
    m = _candidates(work.scores, n, int(params[kb.V_CANDIDATES]), work.order)
    if k == 0 or m < 2:
        return first
    horizon = int(params[kb.V_HORIZON])
    key = next_u64(stream)
    sim, sim_board = work.sim, work.sim_board
    for c in range(m):
        work.totals[c] = 0.0
    for j in range(k):
        for c in range(m):
            copy_state(game, sim)
            determinize(board, game, sim, sim_board, seat, key, j, work.counts, work.stream)
            i = work.order[c]
            kg.step(sim_board, sim, game.actions[i, 0], game.actions[i, 1], game.actions[i, 2])
            playout(sim_board, sim, params, horizon, work.own, work.scores)
            work.totals[c] += outcome(sim_board, sim, params, seat, work.own)
    best = 0
    for c in range(1, m):
        if work.totals[c] > work.totals[best]:
            best = c
    return work.order[best]
