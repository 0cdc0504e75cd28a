"""The `value` bot of the full Seafarers game (numba): one ply over the legal actions, each scored by what it adds to
a hand-weighted value of the seat's position (docs/seafarers/full_game.md, "Bots").

Fair: it reads the board (pieces, robber, pirate, harbours, revealed terrain), its own hand and cards, and the
other players' card counts (public at the table), never their hands, the deck order or the dice to come.

Params (float64 [N_VALUE_PARAMS], analyzer/seafarers/bots.py BOTS):
    opening: the draft's heuristic, 0 pips, 1 diverse, 2 port (the formulas of analyzer/seafarers/setup_policies.py)
    gold, variety, scarce, generic, special, match: that heuristic's weights
    vp: value of a VP; pips: of one pip (a 36th of a card per roll) of income; new: of a resource not produced
    yet; reach: share of a site's value a road or ship that leads towards it is worth; card: a development card;
    goals: weight of the scenario's own goals (chits, gifts, cloth, fortresses, wonders; 0 = a scenario-blind bot)
Ties go to the first action in canonical order (ending the turn before building a useless road).

Cloth for Catan (the goals weight): a trade route to a village is worth its cloth (`village_value`): one at once and
what its number brings over CLOTH_HORIZON rolls, shared with the other route holders, at most what the village holds,
half a VP a cloth; the site field (what roads and ships lead towards) counts it at the village's corner, the ship that
opens the route earns it in full, a draft site next to a village its number's pips; the pirate's steal takes a cloth
when that wins the seat a VP or costs the victim one. With goals = 0 none of this is counted (a scenario-blind bot).

The Wonders of Catan (the goals weight, kernels/catan/wonders.py): a stage is worth goals x STAGE_VALUE (more than
a settlement or a city, 100-125: four stages win outright), a stage that wins the game WIN_NOW; the seat saves and
trades for its wonder's next stage before anything else; of the cards it may claim, the one its income affords
soonest; a free site on a corner a free wonder card needs (the strait, the wasteland) gains goals x 2 VP. The
scenario-blind bot (goals = 0) claims a card and builds a stage as any other build (score 1, over ending the turn),
never saving or trading for one.

Harbour tokens the players lay (New World): every bot but `random` lays the token it drew where `harbour_score`
finds best (the reference's best_harbour, analyzer/seafarers/full_reference.py); it reads the token drawn, never
the rest of the face-down stack.
"""

import numpy as np

from kernels.catan import fleet as kfl
from kernels.catan import game as kg
from kernels.catan import gifts as kgi
from kernels.catan import wonders as kw
from kernels.catan.codes import CITY, GOLD, N_RESOURCES, ORE, PIPS
from kernels.jit import internal, kernel, merged

(V_OPENING, V_GOLD, V_VARIETY, V_SCARCE, V_GENERIC, V_SPECIAL, V_MATCH, V_VP, V_PIPS, V_NEW, V_REACH,
 V_CARD, V_GOALS, V_PLAYOUTS, V_CANDIDATES, V_HORIZON, N_VALUE_PARAMS) = range(17)
OPENING_PIPS, OPENING_DIVERSE, OPENING_PORT = range(3)
NEVER = -1e18
_PIPS = np.array(PIPS, np.float64)
CLOTH_HORIZON = 30.0  # rolls over which a new trade route's cloth is counted (about a third of a game)
STAGE_VALUE = 150.0  # the Wonders: a stage of the seat's wonder, times goals (a settlement or city scores 100-125)
WIN_NOW = 1e9  # an action that wins the game


@kernel
def seat_pips(board, game, seat, out):
    """out[:6]: the seat's pips per resource and gold (a city counts twice), the robber's hex included."""
    for k in range(6):
        out[k] = 0.0
    for i in range(game.n_net[seat, 0]):  # every building of the seat is in its network
        c = game.net_corners[seat, i]
        if game.corner_owner[c] != seat:
            continue
        mult = 2.0 if game.corner_building[c] == CITY else 1.0
        for k in range(6):
            out[k] += mult * game.corner_pips[c, k]


@internal
def _opening_score(board, game, params, c, own):
    """The draft heuristic's score of corner c for a seat that produces `own` [6] (setup_policies.Heuristic)."""
    pips = game.corner_pips
    score = params[V_GOLD] * pips[c, 5]
    for r in range(N_RESOURCES):
        score += pips[c, r]
    kind = game.corner_harbour[c]
    opening = int(params[V_OPENING])
    if opening == OPENING_DIVERSE:
        for r in range(N_RESOURCES):
            score += params[V_SCARCE] * pips[c, r] * board.scarcity[r]
            if pips[c, r] > 0 and own[r] == 0:
                score += params[V_VARIETY]
    elif opening == OPENING_PORT:
        if kind == 0:
            score += params[V_GENERIC]
        elif kind > 0:
            score += params[V_SPECIAL] + params[V_MATCH] * (own[kind - 1] + pips[c, kind - 1])
    return score


@internal
def _site_value(board, game, params, seat, c, own):
    """What a settlement at c adds: a VP (and any island bonus), its income and the resources it adds."""
    v = params[V_VP]
    t = board.corner_territory[c]
    if t >= 0 and not game.claimed[seat, t] and not (board.foreign_only[t] and game.home[seat, t]):
        v += params[V_VP] * board.params[kg.P_ISLAND_BONUS]
    for r in range(N_RESOURCES):
        v += params[V_PIPS] * game.corner_pips[c, r]
        if game.corner_pips[c, r] > 0 and own[r] == 0:
            v += params[V_NEW]
    v += params[V_PIPS] * game.corner_pips[c, 5]
    kind = game.corner_harbour[c]
    if kind == 0:
        v += params[V_GENERIC]
    elif kind > 0:
        v += params[V_SPECIAL]
    if board.params[kg.P_WONDERS] > 0 and params[V_GOALS] > 0:
        v += wonder_site_value(board, game, params, seat, c)
    return v


@internal
def _free_site(board, game, c):
    return (board.corner_in_play[c] and not board.no_settle[c] and kg._distance_ok(board, game, c)
            and kg.corner_land(board, game, c))


@kernel
def _site_field(board, game, params, seat, own):
    """game.field_cache[seat, c]: the best free site's value, halved for every edge between it and c (through
    corners no rival building holds), a few relaxation sweeps: what a road or ship that reaches c leads towards. It
    depends only on the seat, its weights and what _site_version counts, so it is kept until that moves."""
    field = game.field_cache[seat]
    version = _site_version(board, game)
    if game.field_version[seat] == version:
        return
    for c in range(field.shape[0]):
        field[c] = _site_value(board, game, params, seat, c, own) if _free_site(board, game, c) else 0.0
    if kg.p_cloth(board) and params[V_GOALS] > 0:  # Cloth for Catan: the villages the seat has no route to
        for k in range(board.village_corner.shape[0]):
            c = board.village_corner[k]
            field[c] = max(field[c], village_value(board, game, params, seat, k))
    _relax(board, game, field, seat, 0.5, 6, False)
    game.field_version[seat] = version


@kernel
def _site_version(board, game):
    """What the site field depends on: st[ST_MAP_VERSION] less the cities built (the new-resource bonus asks only
    whether the seat produces a resource at all) and the Forgotten Tribe's gifts taken and harbours laid (a won
    harbour docks at its owner's building: neither dock is a free site). Not in the Wonders, where a wonder claim
    moves no version and the city after it is what brings the free wonders' corners up to date."""
    if board.params[kg.P_WONDERS] > 0:
        return game.st[kg.ST_MAP_VERSION]
    return _version_less(board, game, -1, True)


@kernel
def _gift_version(board, game, seat):
    """What the seat's gift field depends on: st[ST_MAP_VERSION] less the rivals' cities (its own change what a
    harbour is worth to it) and the harbours laid."""
    return _version_less(board, game, seat, False)


@internal
def _version_less(board, game, kept, taken):
    """st[ST_MAP_VERSION] less the cities of every seat but `kept` (-1: none kept), the harbours laid and (with
    `taken`) the gifts taken: each of those moved it by exactly one."""
    v = game.st[kg.ST_MAP_VERSION]
    for seat in range(board.params[kg.P_PLAYERS]):
        if seat != kept:
            v -= board.supply[kg.PIECE_CITY] - game.pieces_left[seat, kg.PIECE_CITY]
    for i in range(board.gifts.shape[1]):
        if game.gift_state[kgi.GIFT_LAID, i] >= 0:
            v -= 1
        if taken and game.gift_state[kgi.GIFT_OWNER, i] >= 0:
            v -= 1
    return v


@internal
def _relax(board, game, field, seat, decay, sweeps, ships):
    """Spread `field` from each corner to its neighbours, `decay` times less per edge (only along edges a ship may
    take, with `ships`), never through a corner a rival building holds: at most `sweeps` sweeps, corners in index
    order. A corner is visited again only once `decay` times a neighbour's new value exceeds its own (game.pending
    marks those): values only rise, so any other visit would change nothing."""
    pending, owner, neighbours = game.pending, game.corner_owner, board.corner_neighbours
    for c in range(field.shape[0]):
        pending[c] = True
    for _ in range(sweeps):
        changed = False
        for c in range(field.shape[0]):
            if not pending[c]:
                continue
            pending[c] = False
            if owner[c] >= 0 and owner[c] != seat:
                continue
            best = field[c]
            if ships:  # the far end of corner_edges[c, j] if a ship may take that edge (asked only when it counts)
                for j in range(3):
                    m = neighbours[c, j]
                    if m >= 0:
                        v = decay * field[m]
                        if v > best and kg._may_ship(board, game, board.corner_edges[c, j]):
                            best = v
            else:  # without branches on the values: the same maximum, faster
                m0, m1, m2 = neighbours[c, 0], neighbours[c, 1], neighbours[c, 2]
                v0 = decay * field[m0] if m0 >= 0 else best
                v1 = decay * field[m1] if m1 >= 0 else best
                v2 = decay * field[m2] if m2 >= 0 else best
                best = max(max(best, v0), max(v1, v2))
            if best != field[c]:
                field[c] = best
                changed = True
                reach = decay * best  # (what a neighbour's visit would compare with its value)
                for j in range(3):
                    m = neighbours[c, j]
                    if m >= 0 and reach > field[m]:
                        pending[m] = True
        if not changed:  # settled: further sweeps would change nothing
            break


@internal
def _reach_value(board, game, params, seat, e):
    """A road or ship on e is worth `reach` times the site field at its far end (the end it reaches)."""
    a, b = board.edge_corners[e, 0], board.edge_corners[e, 1]
    best = 0.0
    for c in (a, b):
        if _new_ground(board, game, seat, e, c) and game.field_cache[seat, c] > best:
            best = game.field_cache[seat, c]
    return params[V_REACH] * best


@internal
def _new_ground(board, game, seat, e, c):
    """Does a piece of `seat` on e reach its end c anew? Not where a rival building stands, nor where the seat has
    a building or another piece already (the end the seat already touches is not new ground)."""
    return game.corner_owner[c] < 0 and not kg._reached(board, game, seat, c, e)


@kernel
def _target(board, game, params, seat, own):
    """The item the seat saves for: (the Wonders, with goals) its wonder's next stage; (the Pirate Islands, with
    goals) its fortress_target; else a city if it has a settlement to upgrade, else a settlement if its roads and
    ships lead towards a free site (its site field, brought up to date here), else a development card."""
    w = next_stage(board, game, params, seat)
    if w >= 0:
        return kg.ITEM_WONDER + w
    if kfl.p_fleet(board) and params[V_GOALS] > 0:
        goal = fortress_target(board, game, seat)
        if goal >= 0:
            _site_field(board, game, params, seat, own)
            return goal
    if game.pieces_left[seat, kg.PIECE_CITY] > 0 and \
            game.pieces_left[seat, kg.PIECE_SETTLEMENT] < board.supply[kg.PIECE_SETTLEMENT]:  # (a city returns its
        return kg.ITEM_CITY  # settlement to the supply: one is on the board)
    _site_field(board, game, params, seat, own)
    if game.pieces_left[seat, kg.PIECE_SETTLEMENT] > 0:
        for i in range(game.n_net[seat, 1]):
            e = game.net_edges[seat, i]
            if game.edge_owner[e] == seat:
                for side in range(2):
                    if game.field_cache[seat, board.edge_corners[e, side]] > 0:
                        return kg.ITEM_SETTLEMENT
    return kg.ITEM_CARD


@internal
def _missing(board, game, seat, item, give, take, rate):
    """Cards the seat lacks for `item` after trading `rate` of resource give for one take (give < 0: no trade)."""
    m = 0
    for r in range(N_RESOURCES):
        h = game.hands[seat, r]
        if r == give:
            h -= rate
        if r == take:
            h += 1
        if h < 0:
            return 99
        need = board.costs[item, r]
        if h < need:
            m += need - h
    return m


@internal
def _thief_value(board, game, seat, kind, h):
    """Income the piece takes from rivals at hex h (its own loss counts three times), for the robber; the rivals'
    ships on h's sides for the pirate."""
    v = 0.0
    if kind == kg.MOVE_ROBBER:
        t = game.terrain[h]
        if game.number[h] == 0 or t < GOLD or t > ORE:
            return 0.0
        p = _PIPS[game.number[h]]
        for k in range(6):
            c = board.hex_corners[h, k]
            o = game.corner_owner[c]
            if o < 0:
                continue
            mult = 2.0 if game.corner_building[c] == CITY else 1.0
            v += -3.0 * p * mult if o == seat else p * mult
        return v
    for k in range(6):
        e = board.hex_edges[h, k]
        if game.edge_ship[e] == 1 and game.edge_owner[e] >= 0:
            v += -3.0 if game.edge_owner[e] == seat else 1.0
    return v


@internal
def _rolls_to_afford(board, game, seat, item, own):
    """Expected rolls until the seat holds `item`'s cost: its cards short after trading what it holds beyond the
    cost at its rates, each collected at its income of that resource (own: pips per resource and gold) plus what
    a quarter of its other income brings by trade; 99 where nothing comes in."""
    short = 0
    spare = 0
    for r in range(N_RESOURCES):
        need = board.costs[item, r] - game.hands[seat, r]
        if need > 0:
            short += need
        else:
            spare += (-need) // game.rates[seat, r]
    short -= spare
    if short <= 0:
        return 0.0
    total = own[5]
    for r in range(N_RESOURCES):
        total += own[r]
    worst = 0.0
    for r in range(N_RESOURCES):
        need = board.costs[item, r] - game.hands[seat, r]
        if need > 0:
            per_roll = (own[r] + 0.25 * (total - own[r])) / 36.0
            rolls = need / per_roll if per_roll > 0 else 99.0
            worst = max(worst, rolls)
    return min(worst, 99.0)


@kernel
def _plan_target(board, game, params, seat, own):
    """The planner's next build: of a city, a settlement on a site it can take now, a road or ship towards the
    best site its pieces lead to, and a development card, the one with the most value per expected roll to
    afford it (value / (1 + rolls))."""
    _site_field(board, game, params, seat, own)
    best_item, best = kg.ITEM_CARD, -1.0
    if game.st[kg.ST_DECK_POS] < board.params[kg.P_DECK_LEN]:
        best = params[V_CARD] / (1.0 + _rolls_to_afford(board, game, seat, kg.ITEM_CARD, own))
    city = 0.0
    site = 0.0
    for i in range(game.n_net[seat, 0]):
        c = game.net_corners[seat, i]
        if game.corner_owner[c] == seat and game.corner_building[c] == 1 and game.pieces_left[seat, kg.PIECE_CITY]:
            v = params[V_VP]
            for r in range(6):
                v += params[V_PIPS] * game.corner_pips[c, r]
            city = max(city, v)
        if game.pieces_left[seat, kg.PIECE_SETTLEMENT] > 0 and kg._settlement_ok(board, game, seat, c):
            site = max(site, _site_value(board, game, params, seat, c, own))
    road = 0.0  # the best a road could reach now, and a ship
    ship = 0.0
    for i in range(game.n_net[seat, 1]):
        e = game.net_edges[seat, i]
        if game.pieces_left[seat, kg.PIECE_ROAD] > 0 and kg._road_ok(board, game, seat, e):
            road = max(road, _reach_value(board, game, params, seat, e))
        if game.pieces_left[seat, kg.PIECE_SHIP] > 0 and kg._ship_ok(board, game, seat, e, -1) and \
                not kfl.p_fleet(board):
            ship = max(ship, ship_value(board, game, params, seat, e, own) + ship_cloth(board, game, params, seat, e))
    if kfl.p_fleet(board) and params[V_GOALS] > 0:  # the Pirate Islands: warships first, then the route
        goal = fortress_target(board, game, seat)
        if goal >= 0:
            return goal
    w = next_stage(board, game, params, seat)  # the Wonders: its wonder's next stage
    stage = params[V_GOALS] * STAGE_VALUE if w >= 0 else 0.0
    for item, v in ((kg.ITEM_CITY, city), (kg.ITEM_SETTLEMENT, site), (kg.ITEM_ROAD, road), (kg.ITEM_SHIP, ship),
                    (kg.ITEM_WONDER + max(w, 0), stage)):
        if v <= 0:
            continue
        score = v / (1.0 + _rolls_to_afford(board, game, seat, item, own))
        if score > best:
            best_item, best = item, score
    return best_item


@merged
def decide_value(board, game, n, params, own, plan, scores):
    """Index of the best-scored action among game.actions[:n], each action's score into scores[:n] (own: float64
    [6] scratch; n == 1: no score); `plan`: the planner, which saves for _plan_target's build and spends on nothing
    else."""
    if n == 1:  # rolling, say: nothing to weigh
        return 0
    st = game.st
    seat = st[kg.ST_ACTOR]
    seat_pips(board, game, seat, own)
    best, best_i = NEVER, 0
    main = st[kg.ST_PHASE] == kg.MAIN
    pre_roll = st[kg.ST_PHASE] == kg.PRE_ROLL
    if main or st[kg.ST_PHASE] == kg.RESPOND:
        target = _plan_target(board, game, params, seat, own) if plan else _target(board, game, params, seat, own)
    else:
        target = kg.ITEM_SETTLEMENT
    field = main and (plan or target != kg.ITEM_CITY)  # the site field is fresh (only roads and ships read it)
    route = target == kg.ITEM_ROAD or target == kg.ITEM_SHIP
    cards = 0
    for r in range(N_RESOURCES):
        cards += game.hands[seat, r]
    short = _missing(board, game, seat, target, -1, -1, 0)  # cards it lacks for the target now
    for i in range(n):
        kind, a, b = game.actions[i, 0], game.actions[i, 1], game.actions[i, 2]
        s = 0.0
        if kind == kg.SETTLE:
            if st[kg.ST_PHASE] == kg.SETUP_SETTLEMENT:
                s = _opening_score(board, game, params, a, own) + _opening_cloth(board, game, params, seat, a)
            else:
                s = 100.0 + _site_value(board, game, params, seat, a, own)
            s -= raid_risk(board, game, params, seat, a)  # the Pirate Islands
        elif kind == kg.CITY_UP:
            s = 90.0 + params[V_VP]
            for r in range(6):
                s += params[V_PIPS] * game.corner_pips[a, r]
        elif kind == kg.ROAD or kind == kg.SHIP:
            if not field:
                _site_field(board, game, params, seat, own)
                field = True
            s = _reach_value(board, game, params, seat, a)
            gift = 0.0
            if kind == kg.SHIP and board.gifts.shape[1] > 0:  # the Forgotten Tribe
                gift = ship_value(board, game, params, seat, a, own) - s
            if kind == kg.SHIP:
                s += ship_cloth(board, game, params, seat, a)
                gift += route_ship_value(board, game, params)  # the Pirate Islands
            if plan and main and not route:
                s = -1.0  # the planner saves for its build
            elif st[kg.ST_PHASE] == kg.MAIN and target != kg.ITEM_CARD and not route and short <= 1 and gift <= 0:
                s -= params[V_REACH] * 10.0  # a road now would spend what the planned build needs (a gift is worth
                # it)
            s += gift
            if st[kg.ST_PHASE] == kg.SETUP_EDGE or st[kg.ST_PHASE] == kg.FREE_ROADS:
                s += 1.0  # free pieces: always worth placing
        elif kind == kg.BUY_CARD:
            s = params[V_CARD] if target == kg.ITEM_CARD or cards > board.params[kg.P_DISCARD_ABOVE] or \
                (short > 2 and not plan) else -1.0
        elif kind == kg.PLAY_KNIGHT and kfl.p_fleet(board) and params[V_GOALS] > 0:  # a warship
            s = params[V_GOALS] * params[V_VP]
        elif kind == kg.ATTACK:
            s = attack_value(board, game, params, seat)
        elif kind == kg.PLAY_KNIGHT:
            s = 2.0 + _thief_value(board, game, seat, kg.MOVE_ROBBER, st[kg.ST_ROBBER]) * -0.5 \
                if st[kg.ST_ROBBER] >= 0 else 2.0
            h = st[kg.ST_ARMY_HOLDER]
            if game.knights[seat] + 1 >= board.params[kg.P_ARMY_MIN] and (h < 0 or game.knights[seat] + 1 >
                                                                            game.knights[h]) and h != seat:
                s += 2.0 * params[V_VP]
        elif kind == kg.PLAY_ROAD_BUILDING:
            s = 3.0
        elif kind == kg.PLAY_YEAR_OF_PLENTY:
            s = 20.0 - _missing(board, game, seat, target, -1, a, 0) - _missing(board, game, seat, target, -1, b, 0)
        elif kind == kg.PLAY_MONOPOLY:
            s = 1.0
            for c in range(game.corner_owner.shape[0]):
                o = game.corner_owner[c]
                if o >= 0 and o != seat:
                    s += game.corner_pips[c, a] * (2.0 if game.corner_building[c] == CITY else 1.0) * 0.2
        elif kind == kg.TRADE:
            after = _missing(board, game, seat, target, a, b, kg._rate(board, game, seat, a))
            s = 5.0 * (short - after) - 0.1 if after < short else NEVER / 2
        elif kind == kg.OFFER:  # only the card that completes its planned build, and not what was just refused
            refused = st[kg.ST_OFFERS] > 0 and a == st[kg.ST_OFFER_GIVE] and b == st[kg.ST_OFFER_GET]
            s = NEVER / 2
            if short == 1 and not refused and _missing(board, game, seat, target, a, b, 1) == 0:
                s = 5.0 - 0.2
        elif kind == kg.ACCEPT:  # only if it brings its own build nearer, and never to a player near the target
            pays, receives = st[kg.ST_OFFER_GET], st[kg.ST_OFFER_GIVE]
            offerer = st[kg.ST_CURRENT]
            shown = kg.total_vp(board, game, offerer) - board.params[kg.P_VP_CARD] * (
                game.cards[offerer, kg.VP_CARD] + game.new_cards[offerer, kg.VP_CARD])  # VP cards are hidden
            helps = _missing(board, game, seat, target, pays, receives, 1) < short
            s = 1.0 if helps and shown <= board.params[kg.P_TARGET] - 3 else -1.0
        elif kind == kg.MOVE_SHIP:
            s = NEVER / 2
        elif kind == kg.MOVE_ROBBER or kind == kg.MOVE_PIRATE:
            s = _thief_value(board, game, seat, kind, a)
        elif kind == kg.STEAL_FROM:
            s = 0.0
            for r in range(N_RESOURCES):
                s += game.hands[a, r]  # card counts are public
        elif kind == kg.STEAL_CLOTH:
            s = steal_cloth_value(board, game, params, seat, a)
        elif kind == kg.DISCARD_CARD:
            s = game.hands[seat, a] - 2.0 * board.costs[target, a]
        elif kind == kg.PICK_GOLD:
            s = 10.0 * (short - _missing(board, game, seat, target, -1, a, 0)) - own[a] * 0.01
        elif kind == kg.PLACE_GIFT:
            s = gift_placement(board, game, params, seat, a, b, own)
        elif kind == kg.CLAIM_WONDER:
            s = 1.0 + params[V_GOALS] * params[V_VP] * 3.0 / (
                1.0 + _rolls_to_afford(board, game, seat, kg.ITEM_WONDER + a, own))
        elif kind == kg.BUILD_STAGE:
            s = stage_value(board, game, params, seat)
        elif kind == kg.NO_STEAL:
            s = NEVER / 2  # a steal never costs the thief
        if pre_roll and kind != kg.ROLL and kind != kg.PLAY_KNIGHT:
            s = NEVER / 2  # a progress card waits for the roll (docs/seafarers/full_game.md, "Bots")
        scores[i] = s
        if s > best:
            best, best_i = s, i
    return best_i


@internal
def harbour_score(board, game, seat, e):
    """How much the seat likes the drawn token on edge e: the better dock's pips (every resource and gold), plus
    twice its pips of a 2:1 token's resource (a 2:1 harbour next to the settlement that produces its resource), plus
    50 at the seat's own building; a dock a rival holds, or where no settlement may go, counts nothing."""
    kind = game.harbour_stack[game.st[kg.ST_HARBOUR_POS]]
    best = 0.0
    for side in range(2):
        c = board.edge_corners[e, side]
        o = game.corner_owner[c]
        if o >= 0 and o != seat:
            continue
        if o < 0 and not _free_site(board, game, c):
            continue
        score = 50.0 if o == seat else 0.0
        for k in range(6):
            score += game.corner_pips[c, k]
        if kind > 0:
            score += 2.0 * game.corner_pips[c, kind - 1]
        if score > best:
            best = score
    return best


@internal
def best_harbour(board, game, n):
    """Index of the harbour action among game.actions[:n] the actor scores highest (the first on a tie)."""
    seat = game.st[kg.ST_ACTOR]
    best, best_i = -1.0, 0
    for i in range(n):
        s = harbour_score(board, game, seat, game.actions[i, 1])
        if s > best:
            best, best_i = s, i
    return best_i


# ------------------------------------------------------------------------------------------------ Cloth for Catan
@internal
def village_value(board, game, params, seat, k):
    """What a trade route to village k adds (the goals weight): the cloth taken at once, then its number's pips over
    CLOTH_HORIZON rolls shared with the other route holders, at most what the village holds; a VP per
    P_CLOTH_PER_VP cloth. Nothing once the seat has the route or the village is empty (it pays nothing more)."""
    left = game.village_cloth[k]
    if game.cloth_route[seat, k] or left == 0:
        return 0.0
    holders = 1.0
    for o in range(board.params[kg.P_PLAYERS]):
        if o != seat and game.cloth_route[o, k]:
            holders += 1.0
    later = min(left - 1.0, _PIPS[board.village_number[k]] * CLOTH_HORIZON / 36.0 / holders)
    return params[V_GOALS] * params[V_VP] * (1.0 + later) / board.params[kg.P_CLOTH_PER_VP]


@kernel
def ship_cloth(board, game, params, seat, e):
    """What a ship on edge e earns by opening trade routes (a village at an end the seat has no route to)."""
    if not kg.p_cloth(board) or params[V_GOALS] <= 0:
        return 0.0
    v = 0.0
    for side in range(2):
        k = board.corner_village[board.edge_corners[e, side]]
        if k >= 0:
            v += village_value(board, game, params, seat, k)
    return v


@internal
def _opening_cloth(board, game, params, seat, c):
    """A draft site next to a village (its set-up ship can open the route): the goals weight times the best such
    village's pips, as the draft heuristic counts a hex's."""
    if not kg.p_cloth(board) or params[V_GOALS] <= 0:
        return 0.0
    best = 0.0
    for j in range(3):
        m = board.corner_neighbours[c, j]
        if m >= 0:
            k = board.corner_village[m]
            if k >= 0 and game.village_cloth[k] > 0 and not game.cloth_route[seat, k]:
                best = max(best, _PIPS[board.village_number[k]])
    return params[V_GOALS] * best


@kernel
def steal_cloth_value(board, game, params, seat, victim):
    """The pirate's steal of a cloth: half a VP's worth, a full VP more when the seat's cloth reaches a VP and when
    the victim's drops below one (the goals weight; card steals score the victim's hand size)."""
    per = board.params[kg.P_CLOTH_PER_VP]
    s = 0.5
    if (game.cloth[seat] + 1) % per == 0:
        s += 1.0
    if game.cloth[victim] % per == 0:
        s += 1.0
    return params[V_GOALS] * params[V_VP] * s / 2.0
# ------------------------------------------------------------------------------------------------ gifts (issue 29)
# The Forgotten Tribe (kernels/catan/gifts.py): the value of the gifts on the islet coasts, weighted by `goals`.
GIFT_DECAY = 0.85  # a gift's share left one edge further away (a site's is 0.5: a gift is all that route is for)


@internal
def ship_value(board, game, params, seat, e, own):
    """A ship on e: what _reach_value gives a road, or (the Forgotten Tribe) the gift field at its far end, whichever
    is more, plus the gifts it takes there (gift_on_edge). The gift field counts in full, where a site's counts
    `reach` times: tuned on the Forgotten Tribe (docs/seafarers/full_game.md, "Bots")."""
    v = _reach_value(board, game, params, seat, e)
    if board.gifts.shape[1] == 0:
        return v
    _gift_field(board, game, params, seat, own)
    best = 0.0
    for side in range(2):
        c = board.edge_corners[e, side]
        if _new_ground(board, game, seat, e, c) and game.field_cache[kg.MAX_SEATS + seat, c] > best:
            best = game.field_cache[kg.MAX_SEATS + seat, c]
    return max(v, best) + gift_on_edge(board, game, params, seat, e, own)


@kernel
def harbour_value(params, kind, own):
    """What a harbour of corner_harbour code `kind` is worth to a seat that produces `own` [6]: a 3:1 `generic`; a
    2:1 `special` plus `match` per pip of its resource."""
    if kind == 0:
        return params[V_GENERIC]
    return params[V_SPECIAL] + params[V_MATCH] * own[kind - 1]


@internal
def gift_value(board, game, params, seat, i, own):
    """Gift i to `seat`, before `goals`: a chit its VP, a card what a development card is worth (the bot never
    sees which card: a card is a card), a harbour harbour_value of its type (shown on the islet)."""
    kind = board.gifts[kgi.GIFT_KIND, i]
    if kind == kgi.GIFT_CHIT:
        return params[V_VP] * board.params[kg.P_CHIT_VP]
    if kind == kgi.GIFT_CARD:
        return params[V_CARD]
    return harbour_value(params, board.gifts[kgi.GIFT_ITEM, i], own)


@internal
def gift_on_edge(board, game, params, seat, e, own):
    """`goals` times the gifts still lying on edge e (what a ship built there takes)."""
    v = 0.0
    if params[V_GOALS] == 0.0:
        return v
    for i in range(board.gifts.shape[1]):
        if board.gifts[kgi.GIFT_EDGE, i] == e and game.gift_state[kgi.GIFT_OWNER, i] < 0:
            v += gift_value(board, game, params, seat, i, own)
    return params[V_GOALS] * v


@kernel
def _gift_field(board, game, params, seat, own):
    """game.field_cache[MAX_SEATS + seat, c]: `goals` times the best gift still lying on a coast that has c at an end,
    GIFT_DECAY times less for every edge a ship may take between (through corners no rival building holds): what a
    ship that reaches c leads towards (the site field's relaxation, kept until _gift_version moves: a rival's
    ship in the way does not move it, and is not counted). Brought up to date only when a ship is weighed: most
    map changes come and go with no ship of the seat's weighed between."""
    version = _gift_version(board, game, seat)
    if game.field_version[kg.MAX_SEATS + seat] == version:
        return
    game.field_version[kg.MAX_SEATS + seat] = version
    field = game.field_cache[kg.MAX_SEATS + seat]
    for c in range(field.shape[0]):
        field[c] = 0.0
    if params[V_GOALS] == 0.0:
        return
    lying = False
    for i in range(board.gifts.shape[1]):
        if game.gift_state[kgi.GIFT_OWNER, i] >= 0:
            continue
        lying = True
        v = params[V_GOALS] * gift_value(board, game, params, seat, i, own)
        for side in range(2):
            c = board.edge_corners[board.gifts[kgi.GIFT_EDGE, i], side]
            field[c] = max(field[c], v)
    if lying:  # (else every corner stays 0)
        _relax(board, game, field, seat, GIFT_DECAY, 12, True)


@internal
def gift_placement(board, game, params, seat, e, i, own):
    """A won harbour i placed on edge e: `goals` times its value (with a site for one harbour only, the better goes
    there), less a little for each other site of the seat the placement takes away (the spacing rule), so that
    the harbours still kept find a place."""
    if params[V_GOALS] == 0.0:
        return 0.0
    lost = 0
    sea = kg.harbour_sea(board, game, e)
    for f in range(board.edge_corners.shape[0]):
        if f == e or not kgi.site_ok(board, game, seat, f):
            continue
        t = kg.harbour_sea(board, game, f)
        shared = False
        for side in range(2):
            c = board.edge_corners[f, side]
            shared = shared or c == board.edge_corners[e, 0] or c == board.edge_corners[e, 1]
        if t == sea or shared or (board.params[kg.P_HARBOUR_HEXES_APART] != 0 and kg._hexes_touch(board, sea, t)):
            lost += 1
    return params[V_GOALS] * (harbour_value(params, board.gifts[kgi.GIFT_ITEM, i], own) - 0.1 * lost)


# ------------------------------------------------------------------------------------------------ wonders (issue 29)
# The Wonders of Catan (kernels/catan/wonders.py): the stages and the marked corners, weighted by `goals`.
@internal
def next_stage(board, game, params, seat):
    """The seat's wonder card while it has stages left to build and goals count, else -1."""
    if board.params[kg.P_WONDERS] == 0 or params[V_GOALS] <= 0:
        return -1
    w = kw.wonder_of(game, seat)
    if w >= 0 and kw.stage_of(game, seat) < board.params[kg.P_WONDER_STAGES]:
        return w
    return -1


# ------------------------------------------------------------------------------------------------ the Pirate Islands
# (issue 29, kernels/catan/fleet.py): warships before the attack, the route to the fortress, the fleet's raid risk,
# weighted by `goals` (0: a scenario-blind bot, which neither builds towards its fortress nor attacks it).
ATTACK_WARSHIPS = 4  # warships to attack with while knights may still come (the race model's default plan)
RAID_HORIZON = 30.0  # rolls over which a settlement's raid losses are counted
RAID_CARD = 3.0  # a card's worth in the value's units (a pip is a 36th of a card a roll)


@internal
def _knights_to_come(board, game, seat):
    """Knights the seat holds (playable or bought this turn)."""
    return game.cards[seat, kg.KNIGHT] + game.new_cards[seat, kg.KNIGHT]


@internal
def fortress_target(board, game, seat):
    """The Pirate Islands' saving goal: development cards until its warships and knights in hand reach
    ATTACK_WARSHIPS (while the deck lasts), then ships until its route reaches the fortress; -1 once conquered or
    neither is wanted."""
    if game.fort[seat, kfl.F_CHITS] == 0:
        return -1
    armed = kfl.warships(game, seat) + _knights_to_come(board, game, seat)
    if armed < ATTACK_WARSHIPS and game.st[kg.ST_DECK_POS] < board.params[kg.P_DECK_LEN]:
        return kg.ITEM_CARD
    if game.pieces_left[seat, kg.PIECE_SHIP] > 0 and kfl.route_sites(board, game, seat) > 0:
        return kg.ITEM_SHIP
    return -1


@internal
def stage_value(board, game, params, seat):
    """The next stage of the seat's wonder: WIN_NOW if it wins (the last stage, or the target VP with it one stage
    ahead of every rival), else 1 + goals x STAGE_VALUE."""
    after = kw.stage_of(game, seat) + 1
    if after >= board.params[kg.P_WONDER_STAGES]:
        return WIN_NOW
    ahead = True
    for q in range(board.params[kg.P_PLAYERS]):
        if q != seat and kw.stage_of(game, q) >= after:
            ahead = False
    if ahead and kg.total_vp(board, game, seat) >= board.params[kg.P_TARGET]:
        return WIN_NOW
    return 1.0 + params[V_GOALS] * STAGE_VALUE


@internal
def wonder_site_value(board, game, params, seat, c):
    """A settlement at c meets a free wonder card's corner requirement (the strait, the wasteland) while the seat
    has no wonder: goals x 2 VP."""
    if kw.wonder_of(game, seat) >= 0:
        return 0.0
    for w in range(board.params[kg.P_WONDERS]):
        if kw.taken(board, game, w):
            continue
        for k in range(kw.W_SITES, board.wonders.shape[1]):
            if board.wonders[w, k] == c:
                return params[V_GOALS] * params[V_VP] * 2.0
    return 0.0


@internal
def route_ship_value(board, game, params):
    """A ship on the route to the fortress (the only ship there is): `goals` times a VP."""
    if not kfl.p_fleet(board):
        return 0.0
    return params[V_GOALS] * params[V_VP]


@internal
def attack_value(board, game, params, seat):
    """Attack (it ends the turn: scored just above ending it, below any build) with ATTACK_WARSHIPS warships, or
    with 2 or more once no knight can come; else never (`goals` 0: never chosen over ending the turn)."""
    if params[V_GOALS] <= 0:
        return 0.0
    w = kfl.warships(game, seat)
    more = _knights_to_come(board, game, seat) > 0 or game.st[kg.ST_DECK_POS] < board.params[kg.P_DECK_LEN]
    if w >= ATTACK_WARSHIPS or (w >= 2 and not more):
        return 0.5 * params[V_GOALS]
    return NEVER / 2


@internal
def raid_risk(board, game, params, seat, c):
    """`goals` times the cards a settlement at c is expected to lose to the fleet's raids over RAID_HORIZON rolls:
    per path hex at c, 1/path of the rolls end there (the fleet's law is uniform), lost when the lower die beats the
    seat's warships (P(min > w) = (6 - w)^2 / 36)."""
    if not kfl.p_fleet(board) or params[V_GOALS] <= 0 or game.st[kg.ST_FLEET] < 0:
        return 0.0
    hexes = 0
    for i in range(board.params[kg.P_FLEET_LEN]):
        h = board.fortress[kfl.FB_PATH, i]
        for k in range(6):
            if board.hex_corners[h, k] == c:
                hexes += 1
    w = min(kfl.warships(game, seat), 6)
    return params[V_GOALS] * RAID_CARD * RAID_HORIZON * hexes / board.params[kg.P_FLEET_LEN] * (6 - w) ** 2 / 36.0
