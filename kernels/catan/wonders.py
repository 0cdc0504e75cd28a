"""The Wonders of Catan (seed 002, CENÁRIO 8: AS MARAVILHAS DE CATAN) in the full game's kernel
(kernels/catan/game.py calls these; analyzer/seafarers/full_reference.py's block "Wonders of Catan" is their
reference, rule for rule).

A player whose position meets a free wonder card's requirement may claim it (CLAIM_WONDER: a ship of its supply goes
on the card), then builds its stages (BUILD_STAGE: the card's 5 resources each, several a turn). Finishing the last
stage wins; the target VP win only with more stages than every opponent.

Board.wonders int64 [n_wonders, W_SITES + sites]: per card its requirement, columns W_CITIES (cities), W_VP (VP),
W_HARBOUR (1: a city at a harbour), W_ROUTE (a longest trade route of at least this), then the corners a settlement
must stand on (-1 padded; none: no such requirement). A card's stage cost is row kg.ITEM_WONDER + w of Board.costs
(so the bots' planning reads it as any item's). Game.st[ST_WONDER + seat]: the seat's card + 1 (0 none),
st[ST_STAGE + seat]: its stages built. Params: P_WONDERS (cards; 0 elsewhere), P_WONDER_STAGES, P_WONDER_SITE_CITY.

Nothing here allocates.
"""

from kernels.catan import game as kg
from kernels.catan.codes import CITY, N_RESOURCES, SETTLEMENT
from kernels.jit import internal, kernel

W_CITIES, W_VP, W_HARBOUR, W_ROUTE, W_SITES = range(5)  # columns of Board.wonders


@kernel
def wonder_of(game, seat):
    """The seat's wonder card, -1 none."""
    return game.st[kg.ST_WONDER + seat] - 1


@kernel
def stage_of(game, seat):
    return game.st[kg.ST_STAGE + seat]


@internal
def taken(board, game, w):
    for seat in range(board.params[kg.P_PLAYERS]):
        if wonder_of(game, seat) == w:
            return True
    return False


@internal
def met(board, game, seat, w):
    """Does the seat meet card w's requirement? Its cities, VP (hidden VP cards included), a city at a harbour, its
    longest trade route, a settlement (or a city, option wonder_site_city) on one of the card's corners."""
    req = board.wonders
    cities = 0
    harbour_city = False
    for i in range(game.n_net[seat, 0]):  # every building of the seat is in its network
        c = game.net_corners[seat, i]
        if game.corner_owner[c] == seat and game.corner_building[c] == CITY:
            cities += 1
            harbour_city = harbour_city or game.corner_harbour[c] >= 0
    if cities < req[w, W_CITIES] or game.route[seat] < req[w, W_ROUTE]:
        return False
    if req[w, W_HARBOUR] != 0 and not harbour_city:
        return False
    if req[w, W_VP] > 0 and kg.total_vp(board, game, seat) < req[w, W_VP]:
        return False
    sites = False
    for k in range(W_SITES, req.shape[1]):
        c = req[w, k]
        if c < 0:
            continue
        sites = True
        b = game.corner_building[c]
        if game.corner_owner[c] == seat and (b == SETTLEMENT or (
                b == CITY and board.params[kg.P_WONDER_SITE_CITY] != 0)):
            return True
    return not sites


@internal
def affordable(board, game, seat, w):
    for r in range(N_RESOURCES):
        if game.hands[seat, r] < board.costs[kg.ITEM_WONDER + w, r]:
            return False
    return True


@internal
def actions(board, game, seat, out, n):
    """The seat's wonder actions, appended to out[:n] (their kinds come last in canonical order): the next stage of
    its wonder, while it has the card's resources; else, with a ship in its supply, every free card it meets."""
    w = wonder_of(game, seat)
    if w >= 0:
        if stage_of(game, seat) < board.params[kg.P_WONDER_STAGES] and affordable(board, game, seat, w):
            n = kg._add(out, n, kg.BUILD_STAGE, 0, 0)
        return n
    if game.pieces_left[seat, kg.PIECE_SHIP] == 0:
        return n
    for k in range(board.params[kg.P_WONDERS]):
        if not taken(board, game, k) and met(board, game, seat, k):
            n = kg._add(out, n, kg.CLAIM_WONDER, k, 0)
    return n


@internal
def step(board, game, seat, kind, a):
    """CLAIM_WONDER a: the card is the seat's, a ship leaves its supply for it. BUILD_STAGE: the card's cost paid,
    one stage more."""
    if kind == kg.CLAIM_WONDER:
        game.st[kg.ST_WONDER + seat] = a + 1
        game.pieces_left[seat, kg.PIECE_SHIP] -= 1
        game.st[kg.ST_MAP_VERSION] += 1  # the bots' site field weighs the free cards' corners
        return
    w = wonder_of(game, seat)
    for r in range(N_RESOURCES):
        c = board.costs[kg.ITEM_WONDER + w, r]
        game.hands[seat, r] -= c
        game.bank[r] += c
    game.st[kg.ST_STAGE + seat] += 1


@internal
def ahead(board, game, seat):
    """More stages than every opponent ('superior à dos seus oponentes': a tie is not)."""
    for q in range(board.params[kg.P_PLAYERS]):
        if q != seat and stage_of(game, q) >= stage_of(game, seat):
            return False
    return True


@internal
def won(board, game, seat):
    """Has the seat its wonder finished, or the target VP and more stages than every opponent?"""
    return stage_of(game, seat) >= board.params[kg.P_WONDER_STAGES] or (
        ahead(board, game, seat) and kg.total_vp(board, game, seat) >= board.params[kg.P_TARGET])


@internal
def check_win(board, game):
    """The player on turn wins when it has won (`won`)."""
    st = game.st
    p = st[kg.ST_CURRENT]
    if won(board, game, p):
        st[kg.ST_WINNER] = p
        st[kg.ST_PHASE] = kg.OVER
