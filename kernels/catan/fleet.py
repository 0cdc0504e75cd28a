"""The Pirate Islands (seed 002, CENÁRIO 7: AS ILHAS DOS PIRATAS) in the full game's kernel (kernels/catan/game.py
calls these; analyzer/seafarers/full_reference.py's block "the Pirate Islands" is their reference, rule for rule).

Each seat builds one ship route from its pre-placed settlement, through the corner of its colour, to its fortress,
by the shortest way over its own lanes; a knight turns the route's foremost normal ship into a warship. The pirate
fleet moves round the central islands by the lower die before the production and raids every building at its hex;
an attack on the seat's fortress (its route complete) rolls one die against its warships (kernels/catan/fortress.py
battle_outcome); at the last chit the fortress becomes the seat's settlement. To win: the target VP and one's own
fortress. No robber: on a 7, after the discards, the roller robs any player.

Board.fortress int64 [FB_ROWS, W] (empty elsewhere): rows FB_SEAT + s (cols FB_START, FB_COLOUR, FB_FORT,
FB_SHIP: seat s's settlement, marked corner and fortress corners, its pre-placed ship's edge), FB_TO_COLOUR + s
and FB_TO_FORT + s (per corner: ships from it to the marked corner, to the fortress, over the seat's lanes; -1 off
them), FB_LANE + s (per edge: 1 a lane of seat s), FB_PATH (the fleet's hexes, params P_FLEET_LEN of them).
Game.fort int64 [MAX_SEATS, F_COLS]: per seat F_CHITS (chits left under its fortress), F_LEN (ships on its route),
then the route's edges from its settlement (F_EDGE + i) and whether each is a warship (F_WAR + i). st[ST_FLEET]:
the fleet's index on its path, -1 none or gone.

Nothing here allocates.
"""

from kernels.catan import game as kg
from kernels.catan.dice import roll_die
from kernels.catan.fortress import LOSS, TIE, WIN, battle_outcome
from kernels.jit import internal, kernel

FB_SEAT, FB_TO_COLOUR, FB_TO_FORT, FB_LANE, FB_PATH = 0, 4, 8, 12, 16  # rows of Board.fortress
FB_ROWS = 17
FB_START, FB_COLOUR, FB_FORT, FB_SHIP = range(4)  # columns of its FB_SEAT rows
MAX_ROUTE = 32  # ships a route may hold (Game.fort's columns)
F_CHITS, F_LEN, F_EDGE = 0, 1, 2
F_WAR = F_EDGE + MAX_ROUTE
F_COLS = F_WAR + MAX_ROUTE


@internal
def p_fleet(board):
    """Is there a pirate fleet (the Pirate Islands)?"""
    return board.fortress.shape[0] > 0


@internal
def preplace(board, game):
    """'Na linha costeira da ilha oriental são colocados uma aldeia e um barco por jogador': each seat's settlement
    and first route ship before the draft ; the fortresses' chits; the
    fleet on its start hex (the reference's _preplace)."""
    game.st[kg.ST_FLEET] = -1
    if not p_fleet(board):
        return
    for s in range(board.params[kg.P_PLAYERS]):
        kg._settle(board, game, s, board.fortress[FB_SEAT + s, FB_START], True)
        e = board.fortress[FB_SEAT + s, FB_SHIP]
        kg._place_edge(board, game, s, e, 1)
        game.fort[s, F_EDGE] = e
        game.fort[s, F_WAR] = 0
        game.fort[s, F_LEN] = 1
        game.fort[s, F_CHITS] = board.params[kg.P_FORT_CHITS]
    game.st[kg.ST_FLEET] = 0
    kg._update_routes(board, game)


@internal
def reserved(board, game, seat):
    """Settlement pieces the seat may not build with: its fortress's, until the conquest (the reference's
    _reserved)."""
    if p_fleet(board) and game.fort[seat, F_CHITS] > 0:
        return 1
    return 0


@internal
def own_colour(board, seat, c):
    """Is c the corner of the seat's colour (the only western corner it may settle)?"""
    return p_fleet(board) and seat < board.params[kg.P_PLAYERS] and board.fortress[FB_SEAT + seat, FB_COLOUR] == c


@internal
def route_end(board, game, seat):
    """The corner the seat's route has reached, and whether it has passed its marked corner."""
    c = board.fortress[FB_SEAT + seat, FB_START]
    passed = False
    for i in range(game.fort[seat, F_LEN]):
        c = kg._other_end(board, game.fort[seat, F_EDGE + i], c)
        if c == board.fortress[FB_SEAT + seat, FB_COLOUR]:
            passed = True
    return c, passed


@internal
def route_sites(board, game, seat):
    """The seat's next ship sites into game.targets, ascending; returns how many (the reference's route_sites)."""
    c, passed = route_end(board, game, seat)
    if c == board.fortress[FB_SEAT + seat, FB_FORT]:
        return 0
    row = FB_TO_FORT + seat if passed else FB_TO_COLOUR + seat
    fleet = -1  # option fleet_blocks_ships: the fleet's hex, whose sides take no new ship
    if board.params[kg.P_FLEET_BLOCKS] != 0 and game.st[kg.ST_FLEET] >= 0:
        fleet = board.fortress[FB_PATH, game.st[kg.ST_FLEET]]
    k = 0
    for j in range(3):
        e = board.corner_edges[c, j]
        if e < 0 or board.fortress[FB_LANE + seat, e] == 0 or game.edge_owner[e] >= 0:
            continue
        if fleet >= 0 and (board.edge_hexes[e, 0] == fleet or board.edge_hexes[e, 1] == fleet):
            continue
        if board.fortress[row, kg._other_end(board, e, c)] == board.fortress[row, c] - 1:
            i = k
            while i > 0 and game.targets[i - 1] > e:
                game.targets[i] = game.targets[i - 1]
                i -= 1
            game.targets[i] = e
            k += 1
    return k


@kernel
def extend(board, game, seat, e):
    """A ship built on the route's next edge."""
    n = game.fort[seat, F_LEN]
    game.fort[seat, F_EDGE + n] = e
    game.fort[seat, F_WAR + n] = 0
    game.fort[seat, F_LEN] = n + 1


@internal
def warships(game, seat):
    n = 0
    for i in range(game.fort[seat, F_LEN]):
        n += game.fort[seat, F_WAR + i]
    return n


@internal
def knight_ok(board, game, seat):
    """May the seat play a knight: a normal ship on its route to turn (or option knight_without_ship)?"""
    return board.params[kg.P_KNIGHT_NO_SHIP] != 0 or warships(game, seat) < game.fort[seat, F_LEN]


@kernel
def warship(game, seat):
    """The foremost normal ship becomes a warship."""
    for i in range(game.fort[seat, F_LEN] - 1, -1, -1):
        if game.fort[seat, F_WAR + i] == 0:
            game.fort[seat, F_WAR + i] = 1
            return


@internal
def may_attack(board, game, seat):
    if game.fort[seat, F_CHITS] == 0:
        return False
    c, _ = route_end(board, game, seat)
    return c == board.fortress[FB_SEAT + seat, FB_FORT]


@internal
def moves(board, game, low):
    """The fleet moves `low` hexes and raids every building's owner at its hex (option raid_sole_owner: a lone one):
    the lower die above the owner's warships, 1 + its cities random cards back to the bank; below, a card of its
    choice (game.gold); equal, nothing. Returns whether a card is to be picked (the reference's fleet_moves)."""
    st = game.st
    players = board.params[kg.P_PLAYERS]
    st[kg.ST_FLEET] = (st[kg.ST_FLEET] + low) % board.params[kg.P_FLEET_LEN]
    h = board.fortress[FB_PATH, st[kg.ST_FLEET]]
    owners = 0
    for k in range(6):
        c = board.hex_corners[h, k]
        if c >= 0 and game.corner_owner[c] >= 0:
            owners |= 1 << game.corner_owner[c]
    if board.params[kg.P_RAID_SOLE] != 0 and owners & (owners - 1) != 0:
        return False
    picks = False
    for p in range(players):
        if owners & (1 << p) == 0:
            continue
        w = warships(game, p)
        if low > w:
            lose = 1 + board.supply[kg.PIECE_CITY] - game.pieces_left[p, kg.PIECE_CITY]
            for _ in range(lose):
                if kg._hand(game, p) == 0:
                    break
                r = kg.random_card(game, p)
                game.hands[p, r] -= 1
                game.bank[r] += 1
        elif w > low:
            game.gold[p] += 1
            picks = True
    return picks


@internal
def seven_steal(board, game, resume):
    """After a 7's discards the roller robs a player of its choice (no robber)."""
    st = game.st
    st[kg.ST_RESUME] = resume
    st[kg.ST_THIEF] = kg.THIEF_ANY
    st[kg.ST_PHASE] = kg.STEAL if kg._victims_any(board, game) else resume
    st[kg.ST_ACTOR] = st[kg.ST_CURRENT]


@internal
def attack(board, game, seat):
    """One battle at the seat's fortress (the reference's attack): a chit falls, or the foremost one or two ships
    sink; at the last chit the fortress is the seat's settlement (every fortress fallen: the fleet leaves); then the
    win is checked and the turn ends."""
    outcome = battle_outcome(warships(game, seat), roll_die(game.dice))
    lost = 0
    if outcome == WIN:
        game.fort[seat, F_CHITS] -= 1
        if game.fort[seat, F_CHITS] == 0:
            kg._settle(board, game, seat, board.fortress[FB_SEAT + seat, FB_FORT], False)
            left = 0
            for s in range(board.params[kg.P_PLAYERS]):
                left += game.fort[s, F_CHITS]
            if left == 0:
                game.st[kg.ST_FLEET] = -1
    elif outcome == TIE:
        lost = 1
    elif outcome == LOSS:
        lost = 2
    for _ in range(lost):
        n = game.fort[seat, F_LEN]
        if n == 0:
            break
        e = game.fort[seat, F_EDGE + n - 1]
        game.fort[seat, F_LEN] = n - 1
        game.edge_owner[e] = -1
        game.edge_ship[e] = 0
        game.edge_built[e] = -1
        game.pieces_left[seat, kg.PIECE_SHIP] += 1
    kg._update_routes(board, game)
    kg._check_win(board, game)
    if game.st[kg.ST_PHASE] != kg.OVER:
        kg._end_turn(board, game)

