"""Invariants of a full Seafarers game (numba), checked from scratch after every step of many games
(scripts/check_invariants.py; tests/seafarers/test_full_invariants.py).

    code = check(board, game, work, full)    0, or the first broken invariant (INVARIANTS[code - 1])

`work` is a RouteWork (kernels/catan/route.py) of the caller's. The game loop (kernels/catan/play.py) checks after
every step when asked to.

Besides the rules (resources conserved, pieces within supply, the distance rule, pieces only where the table allows
them, VP and routes recomputed from scratch, what exploring turned up is what was dealt; Cloth for Catan: the cloth
conserved, the trade routes, the villages' end), it checks the kernel's own
bookkeeping against the board: maritime rates, each seat's network lists, VP counted from the supply.
"""

from kernels.catan import fleet as kf
from kernels.catan import game as kg
from kernels.catan import gifts as kgi
from kernels.catan import wonders as kw
from kernels.catan.codes import CITY, DESERT, N_RESOURCES, SEA, SETTLEMENT
from kernels.catan.route import longest_route
from kernels.jit import internal, kernel

INVARIANTS = (
    "resources conserved: bank + hands = the bank's size, none negative",
    "pieces: on the board + left = the supply, none negative",
    "the distance rule: no two buildings on neighbouring corners",
    "roads on a land side, ships on a sea side (as the table shows it)",
    "VP recomputed from the buildings = VP counted from the supply",
    "longest route recomputed by brute force = the kernel's",
    "the longest-route card: held by the one longest route of at least the minimum",
    "maritime rates recomputed from the harbours = the kernel's",
    "network lists: ascending, holding every corner a seat's pieces reach",
    "explored hexes show what was dealt there",
    "development cards: in hand or played no more than drawn",
    "robber on a shown land hex, pirate on a sea hex",
    "the winner has the target VP",
    "laid harbours: each on a coast edge, its docks showing its token, one per sea hex, no corner shared",
    # Cloth for Catan
    "cloth conserved: villages + reserve + players' cloth = the scenario's cloth, none negative",
    "trade routes: a seat has a route to exactly the villages its ships touch",
    "the villages' end: play goes on only while more than end_villages villages hold cloth; a game ended so is won "
    "by the most VP (ties: the most cloth)",
    "gifts (the Forgotten Tribe): taken by a seat in play; a won harbour at its taker's building, kept only while its "
    "holder has no site for it",
    # the Pirate Islands (kernels/catan/fleet.py)
    "routes (the Pirate Islands): a seat's ships are exactly its route, a chain from its settlement over its own "
    "lanes, each ship one nearer its goal (the marked corner, then the fortress), none beyond; warships only on it",
    "fortresses (the Pirate Islands): 0 to the strength's chits; a fortress corner is its seat's building exactly when "
    "conquered; its settlement kept from the seat's supply until then; the fleet on its path while one stands, gone "
    "once all fell",
    "the Pirate Islands' sites and winner: no building on the pirate islands but at a seat's own marked corner or "
    "conquered fortress; the winner conquered its own fortress",
    # The Wonders of Catan
    "islet chits (the Wonders): a seat's bonus VP = the island bonus times its buildings on islet corners",
    "the Wonders' end: a winner finished its wonder, or has the target VP and more stages than every opponent; while "
    "play goes on, the player on turn has done neither",
    "wonder cards: each held by at most one seat in play, stages from 0 to the last, none without a card",
)


@kernel
def check(board, game, work, full):
    """0, or the first broken invariant's number; `full`: also the pieces, VP, routes, rates and networks (what only
    a piece, a building or exploring changes)."""
    p = board.params
    players = p[kg.P_PLAYERS]
    n_corner = game.corner_owner.shape[0]
    n_edge = game.edge_owner.shape[0]
    for r in range(N_RESOURCES):
        total = game.bank[r]
        for s in range(players):
            total += game.hands[s, r]
            if game.hands[s, r] < 0:
                return 1
        if total != p[kg.P_BANK] or game.bank[r] < 0:
            return 1
    for s in range(players):
        if not full:
            break
        roads = 0
        ships = 0
        for e in range(n_edge):
            if game.edge_owner[e] == s:
                if game.edge_ship[e] == 1:
                    ships += 1
                else:
                    roads += 1
        settlements = 0
        cities = 0
        for c in range(n_corner):
            if game.corner_owner[c] == s:
                if game.corner_building[c] == CITY:
                    cities += 1
                elif game.corner_building[c] == SETTLEMENT:
                    settlements += 1
        left = game.pieces_left
        if kw.wonder_of(game, s) >= 0:
            ships += 1  # the Wonders: the ship on its card
        if (roads + left[s, kg.PIECE_ROAD] != board.supply[kg.PIECE_ROAD]
                or ships + left[s, kg.PIECE_SHIP] != board.supply[kg.PIECE_SHIP]
                or cities + left[s, kg.PIECE_CITY] != board.supply[kg.PIECE_CITY]
                or settlements + left[s, kg.PIECE_SETTLEMENT] != board.supply[kg.PIECE_SETTLEMENT]):  # a city returns
            # its settlement
            return 2
        for k in range(4):
            if left[s, k] < 0:
                return 2
        vp = game.bonus_vp[s] + p[kg.P_VP_SETTLEMENT] * settlements + p[kg.P_VP_CITY] * cities
        vp += p[kg.P_VP_ROUTE] if game.st[kg.ST_ROUTE_HOLDER] == s else 0
        vp += p[kg.P_VP_ARMY] if game.st[kg.ST_ARMY_HOLDER] == s else 0
        vp += p[kg.P_VP_CARD] * (game.cards[s, kg.VP_CARD] + game.new_cards[s, kg.VP_CARD])
        if p[kg.P_CLOTH_PER_VP] > 0:
            vp += game.cloth[s] // p[kg.P_CLOTH_PER_VP]  # '1 ficha não equivale a meio ponto'
        chits = 0
        for i in range(board.gifts.shape[1]):
            if board.gifts[kgi.GIFT_KIND, i] == kgi.GIFT_CHIT and game.gift_state[kgi.GIFT_OWNER, i] == s:
                chits += 1
        vp += p[kg.P_CHIT_VP] * chits
        if vp != kg.total_vp(board, game, s):
            return 5
        if kg.final_route(board, game, s) != longest_route(board.edge_corners, board.corner_edges, game.edge_owner,
                                                           game.edge_ship, game.corner_owner, s, work):
            return 6
        for r in range(N_RESOURCES):
            rate = p[kg.P_BANK_RATE]
            for c in range(n_corner):
                if game.corner_owner[c] == s:
                    h = game.corner_harbour[c]
                    if h == 0:
                        rate = min(rate, p[kg.P_GENERIC_RATE])
                    elif h == r + 1:
                        rate = min(rate, p[kg.P_SPECIAL_RATE])
            if game.rates[s, r] != rate:
                return 8
        if not _network_ok(board, game, s):
            return 9
    if full and not _harbours_ok(board, game):
        return 14
    if full and not _gifts_ok(board, game):
        return 18
    for c in range(n_corner):
        if full and game.corner_owner[c] >= 0:
            for j in range(3):
                m = board.corner_neighbours[c, j]
                if m >= 0 and game.corner_owner[m] >= 0:
                    return 3
    for e in range(n_edge):
        if full and game.edge_owner[e] >= 0:
            if not (kg._may_ship(board, game, e) if game.edge_ship[e] == 1 else kg._may_road(board, game, e)):
                return 4
    holder = game.st[kg.ST_ROUTE_HOLDER]
    if holder >= 0 and p[kg.P_NO_ROUTE_CARD]:
        return 7
    if holder >= 0:
        if game.route[holder] < p[kg.P_ROUTE_MIN]:
            return 7
        for s in range(players):
            if s != holder and game.route[s] > game.route[holder]:
                return 7
    for h in range(game.terrain.shape[0] if full else 0):
        shown = game.terrain[h]
        if shown == kg.UNKNOWN:
            if not board.fog[h] or game.number[h] != 0:
                return 10
        elif shown != board.terrain[h] or game.number[h] != board.number[h]:
            return 10
    dealt = 0
    for i in range(board.gifts.shape[1]):  # a card still face down on an islet was drawn from the deck
        if board.gifts[kgi.GIFT_KIND, i] == kgi.GIFT_CARD and game.gift_state[kgi.GIFT_OWNER, i] < 0:
            dealt += 1
    for s in range(players):
        dealt += game.knights[s]
        for k in range(5):
            dealt += game.cards[s, k] + game.new_cards[s, k]
            if game.cards[s, k] < 0:
                return 11
    if dealt > game.st[kg.ST_DECK_POS] or game.st[kg.ST_DECK_POS] > p[kg.P_DECK_LEN]:
        return 11
    robber, pirate = game.st[kg.ST_ROBBER], game.st[kg.ST_PIRATE]
    if robber >= 0 and game.terrain[robber] < DESERT:
        return 12
    if pirate >= 0 and game.terrain[pirate] != SEA:
        return 12
    winner = game.st[kg.ST_WINNER]
    if winner >= 0 and game.st[kg.ST_CLOTH_END] == 0 and p[kg.P_WONDERS] == 0 and \
            kg.total_vp(board, game, winner) < p[kg.P_TARGET]:
        return 13
    if p[kg.P_WONDERS] > 0:
        code = _wonders_ok(board, game, full)
        if code:
            return code
    if kg.p_cloth(board):
        code = _cloth_ok(board, game, full)
        if code:
            return code
    if kf.p_fleet(board):
        return _fleet_ok(board, game, full)
    return 0


@internal
def _fleet_ok(board, game, full):
    """Invariants 19-21 (the Pirate Islands)."""
    players = board.params[kg.P_PLAYERS]
    standing = 0
    for s in range(players):
        chits = game.fort[s, kf.F_CHITS]
        if chits < 0 or chits > board.params[kg.P_FORT_CHITS]:
            return 20
        standing += 1 if chits > 0 else 0
        fort = board.fortress[kf.FB_SEAT + s, kf.FB_FORT]
        if (game.corner_owner[fort] == s) != (chits == 0):
            return 20
        if chits > 0 and game.pieces_left[s, kg.PIECE_SETTLEMENT] < 1:
            return 20
        if not full:
            continue
        n = game.fort[s, kf.F_LEN]
        c = board.fortress[kf.FB_SEAT + s, kf.FB_START]
        passed = False
        ships = 0
        for e in range(game.edge_owner.shape[0]):
            if game.edge_owner[e] == s and game.edge_ship[e] == 1:
                ships += 1
        if ships != n:
            return 19
        for i in range(n):
            e = game.fort[s, kf.F_EDGE + i]
            if game.edge_owner[e] != s or game.edge_ship[e] != 1 or board.fortress[kf.FB_LANE + s, e] == 0:
                return 19
            if c == board.fortress[kf.FB_SEAT + s, kf.FB_FORT]:
                return 19  # beyond the fortress
            row = kf.FB_TO_FORT + s if passed else kf.FB_TO_COLOUR + s
            d = kg._other_end(board, e, c)
            if board.edge_corners[e, 0] != c and board.edge_corners[e, 1] != c:
                return 19
            if board.fortress[row, d] != board.fortress[row, c] - 1:
                return 19
            c = d
            if c == board.fortress[kf.FB_SEAT + s, kf.FB_COLOUR]:
                passed = True
            if game.fort[s, kf.F_WAR + i] != 0 and game.fort[s, kf.F_WAR + i] != 1:
                return 19
    fleet = game.st[kg.ST_FLEET]
    if (standing > 0) != (fleet >= 0) or fleet >= board.params[kg.P_FLEET_LEN]:
        return 20
    for c in range(game.corner_owner.shape[0] if full else 0):
        s = game.corner_owner[c]
        if s >= 0 and board.no_settle[c] and c != board.fortress[kf.FB_SEAT + s, kf.FB_COLOUR] and \
                c != board.fortress[kf.FB_SEAT + s, kf.FB_FORT]:
            return 21
    winner = game.st[kg.ST_WINNER]
    if winner >= 0 and game.fort[winner, kf.F_CHITS] != 0:
        return 21
    return 0


@internal
def _wonders_ok(board, game, full):
    """The Wonders of Catan's invariants 22-24 (22, the islet chits, where every settlement takes one)."""
    p = board.params
    players = p[kg.P_PLAYERS]
    for s in range(players if full and p[kg.P_BONUS_EACH] != 0 else 0):
        on_islets = 0
        for c in range(game.corner_owner.shape[0]):
            if game.corner_owner[c] == s and board.corner_territory[c] >= 0:
                on_islets += 1
        if game.bonus_vp[s] != p[kg.P_ISLAND_BONUS] * on_islets:
            return 22
    for s in range(players):
        w = kw.wonder_of(game, s)
        stage = kw.stage_of(game, s)
        if w < -1 or w >= p[kg.P_WONDERS] or stage < 0 or stage > p[kg.P_WONDER_STAGES] or (w < 0 and stage > 0):
            return 24
        for q in range(s + 1, players):
            if w >= 0 and kw.wonder_of(game, q) == w:
                return 24
    for s in range(players, kg.MAX_SEATS):
        if game.st[kg.ST_WONDER + s] != 0 or game.st[kg.ST_STAGE + s] != 0:
            return 24
    st = game.st
    winner = st[kg.ST_WINNER]
    if winner >= 0 and not kw.won(board, game, winner):
        return 23
    if winner < 0 and st[kg.ST_PHASE] != kg.OVER and st[kg.ST_PHASE] >= kg.PRE_ROLL and \
            st[kg.ST_PHASE] != kg.LAY_HARBOUR and kw.won(board, game, st[kg.ST_CURRENT]):
        return 23
    return 0


@internal
def _cloth_ok(board, game, full):
    """Cloth for Catan's invariants (15-17, counted from scratch); `full`: the routes too."""
    p = board.params
    players = p[kg.P_PLAYERS]
    n_village = board.village_corner.shape[0]
    total = game.st[kg.ST_CLOTH_RESERVE]
    if total < 0:
        return 15
    for k in range(n_village):
        total += game.village_cloth[k]
        if game.village_cloth[k] < 0 or game.village_cloth[k] > p[kg.P_CLOTH_PER_VILLAGE]:
            return 15
    for s in range(players):
        total += game.cloth[s]
        if game.cloth[s] < 0:
            return 15
    if total != n_village * p[kg.P_CLOTH_PER_VILLAGE] + p[kg.P_CLOTH_RESERVE]:
        return 15
    for s in range(players if full else 0):
        for k in range(n_village):
            c = board.village_corner[k]
            touches = False
            for j in range(3):
                e = board.corner_edges[c, j]
                if e >= 0 and game.edge_owner[e] == s and game.edge_ship[e] == 1:
                    touches = True
            if touches != game.cloth_route[s, k]:
                return 16
    holding = 0
    for k in range(n_village):
        if game.village_cloth[k] > 0:
            holding += 1
    over = game.st[kg.ST_PHASE] == kg.OVER
    if not over and holding <= p[kg.P_CLOTH_END_VILLAGES]:
        return 17
    if game.st[kg.ST_CLOTH_END] == 1:
        w = game.st[kg.ST_WINNER]
        if not over or w < 0 or holding > p[kg.P_CLOTH_END_VILLAGES]:
            return 17
        best = kg.total_vp(board, game, w)
        for s in range(players):
            v = kg.total_vp(board, game, s)
            if v > best or (v == best and game.cloth[s] > game.cloth[w]):
                return 17
    return 0


@internal
def _sea_taken(board, game, sea, i, j):
    """Does a laid token before i, or a placed harbour gift before j, stand on sea hex `sea`?"""
    for k in range(i):
        f = game.harbour_edges[k]
        if f >= 0 and kg.harbour_sea(board, game, f) == sea:
            return True
    for k in range(j):
        f = game.gift_state[kgi.GIFT_LAID, k]
        if f >= 0 and kg.harbour_sea(board, game, f) == sea:
            return True
    return False


@internal
def _gifts_ok(board, game):
    """The Forgotten Tribe's gifts against the rules: each taken by a seat in play; each placed harbour on a coast
    edge with its type at both docks, a dock at its taker's building, on a sea hex of its own, placed only once
    taken; outside the placing phase, no seat keeps a harbour it has a site for (once the game goes on)."""
    for j in range(board.gifts.shape[1]):
        owner = game.gift_state[kgi.GIFT_OWNER, j]
        if owner < -1 or owner >= board.params[kg.P_PLAYERS]:
            return False
        e = game.gift_state[kgi.GIFT_LAID, j]
        if e < 0:
            continue
        owner = game.gift_state[kgi.GIFT_OWNER, j]
        if board.gifts[kgi.GIFT_KIND, j] != kgi.GIFT_HARBOUR or owner < 0:
            return False
        sea = kg.harbour_sea(board, game, e)
        if sea < 0 or _sea_taken(board, game, sea, game.harbour_edges.shape[0], j):
            return False
        docked = False
        for side in range(2):
            c = board.edge_corners[e, side]
            if game.corner_harbour[c] != board.gifts[kgi.GIFT_ITEM, j]:
                return False
            docked = docked or game.corner_owner[c] == owner
        if not docked:
            return False
    if game.st[kg.ST_PHASE] != kg.GIFT_HARBOUR and game.st[kg.ST_PHASE] != kg.OVER:  # (a win may end the game
        # before a harbour kept is placed at the settlement that won it)
        for s in range(board.params[kg.P_PLAYERS]):
            if kgi._can_place(board, game, s):
                return False
    return True


@internal
def _harbours_ok(board, game):
    """The laid tokens (kg.LAY_HARBOUR) and placed harbour gifts against the board: each laid token on a coast edge
    with its type at both docks, on a sea hex of its own; no token past the one drawn laid; every other corner's
    harbour the dealt one (a placed gift's docks: _gifts_ok)."""
    laid = 0
    pos = game.st[kg.ST_HARBOUR_POS]
    for i in range(game.harbour_edges.shape[0]):
        e = game.harbour_edges[i]
        if e < 0:
            continue
        if i >= pos:
            return False
        sea = kg.harbour_sea(board, game, e)
        if sea < 0:
            return False
        for side in range(2):
            if game.corner_harbour[board.edge_corners[e, side]] != game.harbour_stack[i]:
                return False
        if _sea_taken(board, game, sea, i, 0):
            return False
        laid += 1
    for j in range(game.gift_state.shape[1]):
        if game.gift_state[kgi.GIFT_LAID, j] >= 0:
            laid += 1
    changed = 0
    for c in range(game.corner_harbour.shape[0]):
        if game.corner_harbour[c] != board.corner_harbour[c]:
            if board.corner_harbour[c] >= 0:
                return False
            changed += 1
    return changed == 2 * laid


@internal
def _network_ok(board, game, s):
    for k in range(2):
        for i in range(1, game.n_net[s, k]):
            lists = game.net_corners if k == 0 else game.net_edges
            if lists[s, i - 1] >= lists[s, i]:
                return False
    for c in range(game.corner_owner.shape[0]):
        if game.corner_owner[c] == s and not game.in_net_corner[s, c]:
            return False
    for e in range(game.edge_owner.shape[0]):
        if game.edge_owner[e] == s:
            for side in range(2):
                c = board.edge_corners[e, side]
                if not game.in_net_corner[s, c]:
                    return False
                for j in range(3):
                    f = board.corner_edges[c, j]
                    if f >= 0 and not game.in_net_edge[s, f]:
                        return False
    return True


@internal
def changes_pieces(game, kind):
    """The step of `kind` may have changed what check's `full` part checks (a piece, a building, exploring)."""
    return (kind == kg.ROAD or kind == kg.SHIP or kind == kg.SETTLE or kind == kg.CITY_UP or kind == kg.MOVE_SHIP
            or kind == kg.PLAY_KNIGHT or kind == kg.PLACE_HARBOUR or kind == kg.PLACE_GIFT or kind == kg.CLAIM_WONDER
            or kind == kg.ATTACK or game.st[kg.ST_PHASE] == kg.OVER)
