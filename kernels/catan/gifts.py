"""The Forgotten Tribe's gifts (seed 002, CENÁRIO 5: O POVO PERDIDO) in the full game's kernel
(kernels/catan/game.py calls these; analyzer/seafarers/full_reference.py is their reference, rule for rule).

Gifts lie on islet coasts (Board.gifts[GIFT_EDGE]): Catan chits (1 VP each, rules data [gifts] chit_vp), development
cards dealt face down from the top of the shuffled deck, and harbours. The first ship built on a gift's coast
takes it (option gift_by_moved_ship: a moved ship too); a later ship gets nothing. A card goes to the taker's
new cards (playable from its next turn, as a bought one); a chit is VP; a harbour must be placed at once on a coast
edge at a building of its taker (GIFT_HARBOUR phase, action PLACE_GIFT), else it is kept and placed the moment its
holder has such an edge (checked after each settlement it builds).

Board.gifts int64 [3, gifts]: rows GIFT_EDGE (its coast), GIFT_KIND (GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR), GIFT_ITEM
(a card's deck position; a harbour's corner_harbour code, dealt with the board; a chit 0). Game.gift_state int64
[2, gifts]: rows GIFT_OWNER (the seat whose ship took it, -1 lying), GIFT_LAID (a harbour's edge, -1 none).
st[ST_GIFT_RESUME]: the phase a harbour placement returns to. (Two arrays, not seven: every array of Board and Game
is passed as 7-9 scalars to every kernel call that takes them, which cost other scenarios' games a few percent.)

Nothing here allocates.
"""

from kernels.catan import game as kg
from kernels.catan.codes import CITY, SETTLEMENT
from kernels.jit import internal, kernel

GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR = range(3)  # kinds (the reference's numbers)
GIFT_EDGE, GIFT_KIND, GIFT_ITEM = range(3)  # rows of Board.gifts
GIFT_OWNER, GIFT_LAID = range(2)  # rows of Game.gift_state


@internal
def deal_cards(board, game):
    """The first deck cards lie face down on the card coasts (card gift i holds deck[gifts[GIFT_ITEM, i]]):
    the deck's draws start after them. Every gift lies unclaimed."""
    n = 0
    for i in range(board.gifts.shape[1]):
        game.gift_state[GIFT_OWNER, i] = -1
        game.gift_state[GIFT_LAID, i] = -1
        if board.gifts[GIFT_KIND, i] == GIFT_CARD:
            n += 1
    game.st[kg.ST_DECK_POS] = n


@kernel
def chits(board, game, seat):
    """The Catan chits `seat` has taken."""
    n = 0
    for i in range(board.gifts.shape[1]):
        if board.gifts[GIFT_KIND, i] == GIFT_CHIT and game.gift_state[GIFT_OWNER, i] == seat:
            n += 1
    return n


@internal
def take(board, game, seat, e):
    """A ship of `seat` arrives on edge e: it takes every gift still lying there; then any harbour it holds is
    placed if it can be."""
    found = False
    for i in range(board.gifts.shape[1]):
        if board.gifts[GIFT_EDGE, i] != e or game.gift_state[GIFT_OWNER, i] >= 0:
            continue
        found = True
        game.gift_state[GIFT_OWNER, i] = seat
        game.st[kg.ST_MAP_VERSION] += 1  # the bots' gift field changes (once a gift: see bots._site_version)
        if board.gifts[GIFT_KIND, i] == GIFT_CARD:
            game.new_cards[seat, game.deck[board.gifts[GIFT_ITEM, i]]] += 1
    if found:
        start_placing(board, game, seat)


@internal
def kept(board, game, seat, i):
    """Is gift i a harbour `seat` holds, not yet placed?"""
    return (board.gifts[GIFT_KIND, i] == GIFT_HARBOUR and game.gift_state[GIFT_OWNER, i] == seat
            and game.gift_state[GIFT_LAID, i] < 0)


@internal
def any_kept(board, game, seat):
    for i in range(board.gifts.shape[1]):
        if kept(board, game, seat, i):
            return True
    return False


@internal
def site_ok(board, game, seat, e):
    """May `seat` place a won harbour on edge e? A laid harbour's site (kg._harbour_ok: a coast edge, a sea hex of
    its own, no dock shared) with a dock at the seat's settlement (or city, option gift_harbour_at_cities)."""
    docked = False
    for side in range(2):
        c = board.edge_corners[e, side]
        if game.corner_owner[c] == seat and (game.corner_building[c] == SETTLEMENT or (
                game.corner_building[c] == CITY and board.params[kg.P_GIFT_AT_CITIES] != 0)):
            docked = True
    return docked and kg._harbour_ok(board, game, e)


@internal
def placements(board, game, actions, n, listing):
    """The actor's (edge, harbour) placements, edges ascending then gifts, as actions (listing) or counted."""
    seat = game.st[kg.ST_ACTOR]
    for e in range(board.edge_corners.shape[0]):
        if not site_ok(board, game, seat, e):
            continue
        for i in range(board.gifts.shape[1]):
            if kept(board, game, seat, i):
                if listing:
                    n = kg._add(actions, n, kg.PLACE_GIFT, e, i)
                else:
                    n += 1
    return n


@internal
def _can_place(board, game, seat):
    if not any_kept(board, game, seat):
        return False
    for e in range(board.edge_corners.shape[0]):
        if site_ok(board, game, seat, e):
            return True
    return False


@internal
def start_placing(board, game, seat):
    """'o porto deverá ser colocado nesse local, se possível': with a harbour kept and a site for it, `seat` places
    it now (GIFT_HARBOUR), then play returns to the phase it left."""
    st = game.st
    if st[kg.ST_PHASE] == kg.GIFT_HARBOUR or not _can_place(board, game, seat):
        return
    st[kg.ST_GIFT_RESUME] = st[kg.ST_PHASE]
    st[kg.ST_PHASE] = kg.GIFT_HARBOUR
    st[kg.ST_ACTOR] = seat


@internal
def place(board, game, e, i):
    """Harbour gift i on edge e: its docks show it, their owner's rates change at once; the next kept harbour, or
    back to the phase left."""
    st = game.st
    seat = st[kg.ST_ACTOR]
    k = board.gifts[GIFT_ITEM, i]
    game.gift_state[GIFT_LAID, i] = e
    for side in range(2):
        c = board.edge_corners[e, side]
        game.corner_harbour[c] = k
        if game.corner_owner[c] >= 0:
            kg._harbour_rates(board, game, game.corner_owner[c], k)
    st[kg.ST_MAP_VERSION] += 1
    if not _can_place(board, game, seat):
        st[kg.ST_PHASE] = st[kg.ST_GIFT_RESUME]
        st[kg.ST_ACTOR] = st[kg.ST_CURRENT]
