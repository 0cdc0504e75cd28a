"""The full Catan: Seafarers game (numba): the step contract over arrays, draw for draw the reference
analyzer/seafarers/full_reference.py (rules, phases, the action encoding and the streams: docs/seafarers/full_game.md).

    board = Board(...)                       static: topology, dealt terrain, flags, harbours, territories, rules
    game = new_game(board)                   the state's arrays, allocated once per chunk (allocating)
    init(board, game, seed, g)               game g of seed: the draft begins
    n = legal(board, game)                   game.actions[:n] = (kind, a, b), in canonical order
    step(board, game, kind, a, b)
    terminal(board, game)                    the game is over
    result(board, game, out)                 the result columns (R_*, then per seat) into out[:N_RESULT_COLS]

the step contract (analyzer/step_contract.py) with the state and set-up as (board, game) = (setup, state), the
actions in game.actions.

The bots and the game loop are in kernels/catan/bots.py.

Nothing here allocates; every loop runs over the caller's arrays.
"""

from collections import namedtuple

import numpy as np

from kernels.catan.codes import CITY, DESERT, FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, SEA, SETTLEMENT
from kernels.catan.dice import roll_pair_index
from kernels.catan.route import UNBOUNDED, longest_route_among, longest_route_from, route_work
from kernels.jit import allocating, internal, kernel, merged
from kernels.rng import PURPOSE_DECK, PURPOSE_DICE, PURPOSE_HARBOURS, PURPOSE_STEAL, stream_init, uniform_int

MAX_SEATS = 4
UNKNOWN = -1  # Game.terrain of a fog hex not yet explored (analyzer/seafarers/board.py)
MAX_DECK = 100
MAX_ACTIONS = 4096
MAX_TRACK = 400  # rolls whose VP Game.vp_track keeps
_PIPS = np.array(PIPS, np.float64)

# Phases and action kinds: the reference's numbers.
(SETUP_SETTLEMENT, SETUP_EDGE, PRE_ROLL, DISCARD, MOVE_THIEF, STEAL, GOLD_PICK, MAIN, FREE_ROADS, OVER,
 RESPOND, LAY_HARBOUR) = range(12)
(END_TURN, ROLL, ROAD, SHIP, SETTLE, CITY_UP, BUY_CARD, PLAY_KNIGHT, PLAY_ROAD_BUILDING, PLAY_YEAR_OF_PLENTY,
 PLAY_MONOPOLY, TRADE, MOVE_SHIP, MOVE_ROBBER, MOVE_PIRATE, STEAL_FROM, DISCARD_CARD, PICK_GOLD,
 STOP_BUILDING, OFFER, DECLINE, ACCEPT, PLACE_HARBOUR) = range(23)
STEAL_CLOTH = 23  # Cloth for Catan: the pirate's steal of one cloth from seat a
# The Forgotten Tribe (issue 29, kernels/catan/gifts.py): placing a harbour won on an islet coast.
GIFT_HARBOUR = 12  # phase
PLACE_GIFT = 24  # kind: (PLACE_GIFT, edge, gift)
# The Pirate Islands (issue 29, kernels/catan/fleet.py)
FLEET_ROLL = 13  # never a phase: the resume of a raid's card picks (then the 7 or the production)
ATTACK = 25  # kind: attack the seat's fortress; the turn ends
THIEF_ANY = END_TURN  # st[ST_THIEF] of the Pirate Islands' 7: no piece, the roller robs any player
# The Wonders of Catan (issue 29, kernels/catan/wonders.py): claiming a wonder card, building its next stage.
CLAIM_WONDER = 26  # kind: (CLAIM_WONDER, wonder, 0)
BUILD_STAGE = 27  # kind: (BUILD_STAGE, 0, 0)
NO_STEAL = 28  # kind: the Pirate Islands' 7, the roller steals nothing (option pirate_seven_steal_optional)
KNIGHT, VP_CARD, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
ITEM_ROAD, ITEM_SHIP, ITEM_SETTLEMENT, ITEM_CITY, ITEM_CARD = range(5)  # rows of Board.costs
ITEM_WONDER = 5  # row ITEM_WONDER + w of Board.costs: a stage of wonder card w (the Wonders of Catan)
PIECE_ROAD, PIECE_SHIP, PIECE_SETTLEMENT, PIECE_CITY = range(4)  # columns of pieces_left

# Board.params
(P_PLAYERS, P_ROBBER_START, P_PIRATE_START, P_HAS_ROBBER, P_HAS_PIRATE, P_SETUP_SHIPS, P_ISLAND_BONUS, P_TARGET,
 P_BANK, P_BANK_RATE, P_GENERIC_RATE, P_SPECIAL_RATE, P_ROUTE_MIN, P_ARMY_MIN, P_DISCARD_ABOVE, P_TURN_CAP,
 P_VP_SETTLEMENT, P_VP_CITY, P_VP_ROUTE, P_VP_ARMY, P_VP_CARD, P_DECK_LEN, P_SETUP_LEN, P_OFFERS,
 P_HARBOURS_AFTER_DRAFT, P_HARBOUR_HEXES_APART,
 # Cloth for Catan (0 elsewhere: every other scenario plays as before)
 P_CLOTH_PER_VP, P_CLOTH_PER_VILLAGE, P_CLOTH_RESERVE, P_CLOTH_END_VILLAGES, P_CLOTH_FROM_RESERVE, P_NO_ROUTE_CARD,
 # The Forgotten Tribe's gifts (kernels/catan/gifts.py): a chit's VP, options gift_by_moved_ship, gift_harbour_at_cities
 P_CHIT_VP, P_GIFT_MOVED_SHIP, P_GIFT_AT_CITIES,
 # The Pirate Islands (kernels/catan/fleet.py): the fleet path's length, a fortress's chits, options raid_sole_owner,
 # knight_without_ship
 P_FLEET_LEN, P_FORT_CHITS, P_RAID_SOLE, P_KNIGHT_NO_SHIP,
 # The Wonders of Catan (kernels/catan/wonders.py; 0 elsewhere): the wonder cards, their stages, the islet chit on
 # every settlement (island_bonus_scope each_settlement), option wonder_site_city
 P_WONDERS, P_WONDER_STAGES, P_BONUS_EACH, P_WONDER_SITE_CITY,
 # options draft_ship_facing_frame (a draft ship on a coast facing the frame), fleet_blocks_ships (the Pirate
 # Islands' fleet blocks a new ship on its hex's sides)
 P_DRAFT_FRAME_SHIP, P_FLEET_BLOCKS,
 # options progress_before_roll (road building, year of plenty, monopoly before the roll), fog_explore_next_corner
 # (a new piece explores only the corner it leads to), pirate_seven_steal_optional (the Pirate Islands' 7 may steal
 # nothing)
 P_PROGRESS_BEFORE_ROLL, P_FOG_NEXT_CORNER, P_SEVEN_STEAL_OPTIONAL,
 N_PARAMS) = range(49)

# Game.st
(ST_PHASE, ST_ACTOR, ST_CURRENT, ST_TURN, ST_ROLLS, ST_SEVENS, ST_LAST_ROLL, ST_SETUP_POS, ST_SETUP_CORNER,
 ST_DECK_POS, ST_DEV_PLAYED, ST_SHIP_MOVED, ST_FREE_ROADS, ST_RESUME, ST_THIEF, ST_ROUTE_HOLDER, ST_ARMY_HOLDER,
 ST_WINNER, ST_CAPPED, ST_ROBBER, ST_PIRATE, ST_OFFERS, ST_OFFER_GIVE, ST_OFFER_GET, ST_HARBOUR_POS,
 ST_MAP_VERSION,
 ST_CLOTH_RESERVE, ST_CLOTH_END,  # Cloth for Catan: the common reserve; 1 once the game ended by the villages
 ST_GIFT_RESUME,  # the Forgotten Tribe: the phase a gift harbour's placement returns to
 ST_FLEET,  # the Pirate Islands: the fleet's index on its path, -1 none (or gone)
 # The Wonders of Catan (kernels/catan/wonders.py): st[ST_WONDER + seat] the seat's wonder card + 1 (0 none),
 # st[ST_STAGE + seat] its stages built
 ST_WONDER) = range(31)
ST_STAGE = ST_WONDER + 4
ST_FREE_RESUME = ST_STAGE + 4  # the phase road building's free pieces return to (PRE_ROLL: played before the roll)
ST_SIZE = ST_FREE_RESUME + 1
# ST_MAP_VERSION counts changes to the buildings, the harbours and the shown map: bots keep what depends only on
# them (Game.field_cache) until it moves

# Result columns: the game's, then N_SEAT_COLS per seat slot (4 slots; empty seats 0).
R_WINNER, R_TURNS, R_ROLLS, R_SEVENS, R_CAPPED, R_CLOTH_END = range(6)
N_GAME_COLS = 6
SEAT_COLS = ("vp", "vp_settlements", "vp_cities", "vp_island_bonus", "vp_longest_route", "vp_largest_army",
             "vp_vp_cards", "roads", "ships", "settlements", "cities", "route", "knights", "trades", "cards",
             "domestic", "vp_cloth", "cloth", "vp_chits", "warships", "fortress", "wonder", "wonder_stage")
VP_COLS = ("vp_settlements", "vp_cities", "vp_island_bonus", "vp_longest_route", "vp_largest_army", "vp_vp_cards",
           "vp_cloth", "vp_chits")  # vp_sources' order
N_VP_SOURCES = len(VP_COLS)
_VP_COL = np.array([SEAT_COLS.index(name) for name in VP_COLS], np.int64)
_CLOTH_COL = SEAT_COLS.index("cloth")
_WARSHIPS_COL = SEAT_COLS.index("warships")  # the Pirate Islands: warships on the route, chits taken (0 elsewhere)
_FORTRESS_COL = SEAT_COLS.index("fortress")
_WONDER_COL = SEAT_COLS.index("wonder")  # the Wonders of Catan: the seat's card + 1 (0 none), then its stages
N_SEAT_COLS = len(SEAT_COLS)
N_RESULT_COLS = N_GAME_COLS + MAX_SEATS * N_SEAT_COLS

Board = namedtuple("Board", [
    "corner_hexes", "corner_neighbours", "corner_edges",  # int32 [n_corner, 3], -1 padded (Topology)
    "edge_corners", "edge_hexes",  # int32 [n_edge, 2]
    "hex_corners", "hex_edges",  # int32 [n_hex, 6]
    "corner_in_play", "edge_in_play",  # bool
    "terrain", "number",  # int8 [n_hex] as dealt, fog hexes included (what exploring one turns up)
    "fog",  # bool [n_hex]: dealt face down (Game.terrain shows UNKNOWN until a road or ship explores it)
    "hex_frame",  # bool [n_hex]: the sea frame (no set-up ship on a coast facing it)
    "setup_allowed", "no_settle",  # bool [n_corner]
    "corner_harbour",  # int8 [n_corner]: -1 none, 0 a 3:1 harbour, 1 + r a 2:1 harbour of resource r
    "corner_pips",  # float64 [n_corner, 6]: pips per resource, then gold, as the table shows them at the start
    "scarcity",  # float64 [5]: how much rarer than average each resource is on the board (BoardView)
    "corner_territory",  # int32 [n_corner]: bonus territory, -1 none
    "foreign_only",  # bool [n_territory + 1]: the bonus only off the seat's home islands
    "robber_hexes", "pirate_hexes",  # bool [n_hex]
    "setup_order",  # int64 [setup length]: seats in draft order
    "costs",  # int64 [5 items + wonder cards, 5 resources] (ITEM_*; ITEM_WONDER + w: a stage of wonder card w)
    "supply",  # int64 [4]: roads, ships, settlements, cities
    "deck",  # int64 [deck length]: the unshuffled deck (card types)
    "params",  # int64 [N_PARAMS]
    "harbour_pool",  # int64 [tokens]: the harbour tokens the players lay (New World), corner_harbour codes; else empty
    # Cloth for Catan (empty elsewhere)
    "village_corner", "village_number",  # int64 [n_village]: each village's corner and number token
    "corner_village",  # int64 [n_corner]: the village at the corner, -1 none
    "gifts",  # int64 [3, gifts]: the Forgotten Tribe's gifts, rows edge, kind, item (kernels/catan/gifts.py); else
    # empty
    "fortress",  # int64 [FB_ROWS, W]: the Pirate Islands' seats, lanes and fleet path (kernels/catan/fleet.py); else
    # [0, 0]
    "wonders",  # int64 [n_wonders, W_SITES + sites]: the Wonders of Catan's cards' requirements
    # (kernels/catan/wonders.py); else no row
])

Game = namedtuple("Game", [
    "st",  # int64 [ST_SIZE]
    "terrain", "number",  # int8 [n_hex]: as the table shows them (UNKNOWN, 0 for a fog hex not yet explored)
    "corner_pips",  # float64 [n_corner, 6]: Board.corner_pips with the explored hexes counted
    "hands", "cards", "new_cards",  # int64 [MAX_SEATS, 5]
    "pieces_left",  # int64 [MAX_SEATS, 4]
    "rates",  # int64 [MAX_SEATS, 5]: each seat's best maritime rate per resource (its harbours), kept by _settle
    "bank",  # int64 [5]
    "deck",  # int64 [MAX_DECK] in draw order
    "corner_owner", "corner_building",  # int64 [n_corner]
    "edge_owner", "edge_ship", "edge_built",  # int64 [n_edge]
    "knights", "bonus_vp", "route", "discard", "gold", "trades", "first_settlement_turn", "domestic",  # [MAX_SEATS]
    "claimed", "home",  # bool [MAX_SEATS, n_territory + 1]
    "owed",  # int64 [MAX_SEATS, 5] production scratch
    "dice", "steal",  # uint64 [2] streams
    "actions",  # int64 [MAX_ACTIONS, 3]
    "targets",  # int64 [n_edge]: legal() scratch, the edges a new ship may take
    "net_corners", "net_edges",  # int64 [MAX_SEATS, n_corner | n_edge]: ascending, the corners a seat has reached
    # (a building or a piece there) and their edges: where its next piece may go (they never shrink: a moved ship
    # leaves stale entries, which the legality tests skip)
    "n_net",  # int64 [MAX_SEATS, 2]: lengths of net_corners, net_edges
    "in_net_corner", "in_net_edge",  # bool [MAX_SEATS, n_corner | n_edge]
    "work",  # RouteWork
    "vp_track",  # int64 [MAX_SEATS, MAX_TRACK]: each seat's VP at roll r + 1 (the first MAX_TRACK rolls; reports)
    "corner_harbour",  # int64 [n_corner]: Board.corner_harbour with the harbours laid so far (-1, 0 3:1, 1 + r 2:1)
    "harbour_stack",  # int64 [tokens]: Board.harbour_pool shuffled face down, in draw order (bots read only the
    # token drawn, harbour_stack[st[ST_HARBOUR_POS]])
    "harbour_edges",  # int64 [tokens]: the edge each token was laid on, -1 not (yet) laid
    "field_cache",  # float64 [2 * MAX_SEATS, n_corner]: each seat's last site field (kernels/catan/bots.py), then
    # (the Forgotten Tribe) its gift field
    "field_version",  # int64 [2 * MAX_SEATS]: the st[ST_MAP_VERSION] each field_cache row was computed at, -1 none
    "pending",  # bool [n_corner]: the bots' field relaxation's scratch (kernels/catan/bots.py _relax)
    # Cloth for Catan
    "cloth",  # int64 [MAX_SEATS]: cloth held
    "village_cloth",  # int64 [n_village]: cloth left at each village
    "cloth_route",  # bool [MAX_SEATS, n_village]: the seat has a trade route to the village
    "gift_state",  # int64 [2, gifts]: the Forgotten Tribe's gifts, rows owner (-1 lying), laid harbour's edge (-1)
    "fort",  # int64 [MAX_SEATS, F_COLS]: the Pirate Islands' routes, warships, fortress chits (kernels/catan/fleet.py)
])


@allocating
def _zeros_game(n_corner, n_edge, n_territory):
    return (np.zeros(ST_SIZE, np.int64), np.zeros((MAX_SEATS, 5), np.int64), np.zeros((MAX_SEATS, 5), np.int64),
            np.zeros((MAX_SEATS, 5), np.int64), np.zeros((MAX_SEATS, 4), np.int64),
            np.zeros((MAX_SEATS, 5), np.int64), np.zeros(5, np.int64),
            np.zeros(MAX_DECK, np.int64), np.zeros(n_corner, np.int64), np.zeros(n_corner, np.int64),
            np.zeros(n_edge, np.int64), np.zeros(n_edge, np.int64), np.zeros(n_edge, np.int64))


def new_game(board: Board) -> Game:
    """The arrays of one game on `board`'s map (reused by every game of a chunk)."""
    n_corner, n_edge = len(board.corner_hexes), len(board.edge_corners)
    n_t = len(board.foreign_only)
    seats = [np.zeros(MAX_SEATS, np.int64) for _ in range(8)]
    st, *rest = _zeros_game(n_corner, n_edge, n_t)
    shown = (np.zeros(len(board.terrain), np.int8), np.zeros(len(board.terrain), np.int8),
             np.zeros((n_corner, 6), np.float64))
    return Game(st, *shown, *rest, *seats, np.zeros((MAX_SEATS, n_t), np.bool_),
                np.zeros((MAX_SEATS, n_t), np.bool_), np.zeros((MAX_SEATS, 5), np.int64), np.zeros(2, np.uint64),
                np.zeros(2, np.uint64), np.zeros((MAX_ACTIONS, 3), np.int64), np.zeros(n_edge, np.int64),
                np.zeros((MAX_SEATS, n_corner), np.int64), np.zeros((MAX_SEATS, n_edge), np.int64),
                np.zeros((MAX_SEATS, 2), np.int64), np.zeros((MAX_SEATS, n_corner), np.bool_),
                np.zeros((MAX_SEATS, n_edge), np.bool_), route_work(n_edge),
                np.zeros((MAX_SEATS, MAX_TRACK), np.int64),
                np.zeros(n_corner, np.int64), np.zeros(len(board.harbour_pool), np.int64),
                np.zeros(len(board.harbour_pool), np.int64), np.zeros((2 * MAX_SEATS, n_corner), np.float64),
                np.zeros(2 * MAX_SEATS, np.int64), np.zeros(n_corner, np.bool_), np.zeros(MAX_SEATS, np.int64),
                np.zeros(len(board.village_corner), np.int64),
                np.zeros((MAX_SEATS, len(board.village_corner)), np.bool_),
                np.zeros((2, board.gifts.shape[1]), np.int64),
                np.zeros((MAX_SEATS, fleet.F_COLS if board.fortress.shape[0] > 0 else 0), np.int64))


# ------------------------------------------------------------------------------------------------ set-up
@kernel
def init(board, game, seed, g):
    """Game g of `seed` before the draft's first placement."""
    p = board.params
    st = game.st
    st[:] = 0
    game.field_version[:] = -1
    for h in range(board.terrain.shape[0]):
        game.terrain[h] = UNKNOWN if board.fog[h] else board.terrain[h]
        game.number[h] = 0 if board.fog[h] else board.number[h]
    for c in range(board.corner_pips.shape[0]):
        for k in range(6):
            game.corner_pips[c, k] = board.corner_pips[c, k]
    n_deck = p[P_DECK_LEN]
    for i in range(n_deck):
        game.deck[i] = board.deck[i]
    shuffle = game.dice  # the deck's stream, used once here; then the dice take the array
    stream_init(shuffle, seed, g, PURPOSE_DECK)
    for i in range(n_deck - 1, 0, -1):
        j = uniform_int(shuffle, i + 1)
        t = game.deck[i]
        game.deck[i] = game.deck[j]
        game.deck[j] = t
    gifts.deal_cards(board, game)
    for c in range(board.corner_harbour.shape[0]):
        game.corner_harbour[c] = board.corner_harbour[c]
    n_tokens = board.harbour_pool.shape[0]
    if n_tokens > 0:  # the face-down stack of the tokens the players lay, shuffled as the deck
        stream_init(shuffle, seed, g, PURPOSE_HARBOURS)
        for i in range(n_tokens):
            game.harbour_stack[i] = board.harbour_pool[i]
            game.harbour_edges[i] = -1
        for i in range(n_tokens - 1, 0, -1):
            j = uniform_int(shuffle, i + 1)
            t = game.harbour_stack[i]
            game.harbour_stack[i] = game.harbour_stack[j]
            game.harbour_stack[j] = t
    stream_init(game.dice, seed, g, PURPOSE_DICE)
    stream_init(game.steal, seed, g, PURPOSE_STEAL)
    game.hands[:] = 0
    game.cards[:] = 0
    game.new_cards[:] = 0
    for seat in range(MAX_SEATS):
        for k in range(4):
            game.pieces_left[seat, k] = board.supply[k]
    game.rates[:] = p[P_BANK_RATE]
    game.bank[:] = p[P_BANK]
    game.corner_owner[:] = -1
    game.corner_building[:] = 0
    game.edge_owner[:] = -1
    game.edge_ship[:] = 0
    game.edge_built[:] = -1
    game.knights[:] = 0
    game.bonus_vp[:] = 0
    game.route[:] = 0
    game.discard[:] = 0
    game.gold[:] = 0
    game.trades[:] = 0
    game.domestic[:] = 0
    game.first_settlement_turn[:] = -1
    game.claimed[:] = False
    game.home[:] = False
    game.n_net[:] = 0
    game.in_net_corner[:] = False
    game.in_net_edge[:] = False
    st[ST_PHASE] = SETUP_SETTLEMENT
    st[ST_ACTOR] = board.setup_order[0]
    st[ST_SETUP_CORNER] = -1
    st[ST_RESUME] = MAIN
    st[ST_FREE_RESUME] = MAIN
    st[ST_THIEF] = MOVE_ROBBER
    st[ST_ROUTE_HOLDER] = -1
    st[ST_ARMY_HOLDER] = -1
    st[ST_WINNER] = -1
    st[ST_ROBBER] = p[P_ROBBER_START]
    st[ST_PIRATE] = p[P_PIRATE_START]
    game.cloth[:] = 0
    game.village_cloth[:] = p[P_CLOTH_PER_VILLAGE]
    game.cloth_route[:] = False
    st[ST_CLOTH_RESERVE] = p[P_CLOTH_RESERVE]
    fleet.preplace(board, game)
    if n_tokens > 0 and p[P_HARBOURS_AFTER_DRAFT] == 0:
        _lay_next(board, game, 0)


@kernel
def _lay_next(board, game, pos):
    """Token pos is drawn: seat pos mod P lays it (a token with no site left is set aside); once the stack is empty,
    the draft begins (or, laid after it, the first turn). The reference's _lay_next."""
    st = game.st
    st[ST_PHASE] = LAY_HARBOUR
    while pos < board.harbour_pool.shape[0]:
        st[ST_HARBOUR_POS] = pos
        st[ST_ACTOR] = pos % board.params[P_PLAYERS]
        if _harbour_sites(board, game, game.actions, 0, False) > 0:
            return
        pos += 1
    st[ST_HARBOUR_POS] = pos
    if board.params[P_HARBOURS_AFTER_DRAFT] != 0:
        st[ST_PHASE] = PRE_ROLL
        st[ST_CURRENT] = 0
        st[ST_ACTOR] = 0
    else:
        st[ST_PHASE] = SETUP_SETTLEMENT
        st[ST_ACTOR] = board.setup_order[0]


@internal
def _last_placement(board, game):
    pos = game.st[ST_SETUP_POS]
    seat = board.setup_order[pos]
    for k in range(pos + 1, board.params[P_SETUP_LEN]):
        if board.setup_order[k] == seat:
            return False
    return True


@internal
def _next_setup(board, game):
    st = game.st
    st[ST_SETUP_POS] += 1
    if st[ST_SETUP_POS] < board.params[P_SETUP_LEN]:
        st[ST_PHASE] = SETUP_SETTLEMENT
        st[ST_ACTOR] = board.setup_order[st[ST_SETUP_POS]]
    elif board.harbour_pool.shape[0] > 0 and board.params[P_HARBOURS_AFTER_DRAFT] != 0:
        _lay_next(board, game, 0)
    else:
        st[ST_PHASE] = PRE_ROLL
        st[ST_CURRENT] = 0
        st[ST_ACTOR] = 0


# ------------------------------------------------------------------------------------------------ geometry
@internal
def _other_end(board, e, c):
    a = board.edge_corners[e, 0]
    return board.edge_corners[e, 1] if a == c else a


@internal
def _side(game, h):
    """1 land, 0 sea (off the map included), -1 a fog hex not yet explored."""
    if h < 0:
        return 0
    t = game.terrain[h]
    if t == SEA:
        return 0
    return 1 if t >= DESERT else -1


@internal
def corner_land(board, game, c):
    for j in range(3):
        if _side(game, board.corner_hexes[c, j]) == 1:
            return True
    return False


@internal
def _corner_coastal(board, game, c):
    land = False
    sea = False
    for j in range(3):
        s = _side(game, board.corner_hexes[c, j])
        land = land or s == 1
        sea = sea or s == 0
    return land and sea


@internal
def _may_road(board, game, e):
    """Land on a side (land or sea on the other, or a fog hex the road explores)."""
    return board.edge_in_play[e] and (_side(game, board.edge_hexes[e, 0]) == 1
                                      or _side(game, board.edge_hexes[e, 1]) == 1)


@internal
def _may_ship(board, game, e):
    """Sea on a side (sea or land on the other, or a fog hex the ship explores)."""
    return board.edge_in_play[e] and (_side(game, board.edge_hexes[e, 0]) == 0
                                      or _side(game, board.edge_hexes[e, 1]) == 0)


@internal
def _faces_frame(board, game, e):
    """A coast facing the frame (no set-up ship there)."""
    a, b = board.edge_hexes[e, 0], board.edge_hexes[e, 1]
    frame = (a >= 0 and board.hex_frame[a]) or (b >= 0 and board.hex_frame[b])
    return frame and (_side(game, a) == 1 or _side(game, b) == 1)


@internal
def _insert(lists, counts, seat, k, x):
    """x into lists[seat, :counts[seat, k]], kept ascending."""
    i = counts[seat, k]
    while i > 0 and lists[seat, i - 1] > x:
        lists[seat, i] = lists[seat, i - 1]
        i -= 1
    lists[seat, i] = x
    counts[seat, k] += 1


@internal
def _join(board, game, seat, c):
    """Corner c and its edges enter the seat's network lists."""
    if game.in_net_corner[seat, c]:
        return
    game.in_net_corner[seat, c] = True
    _insert(game.net_corners, game.n_net, seat, 0, c)
    for j in range(3):
        e = board.corner_edges[c, j]
        if e >= 0 and not game.in_net_edge[seat, e]:
            game.in_net_edge[seat, e] = True
            _insert(game.net_edges, game.n_net, seat, 1, e)


@kernel
def _join_edge(board, game, seat, e):
    _join(board, game, seat, board.edge_corners[e, 0])
    _join(board, game, seat, board.edge_corners[e, 1])


@kernel
def harbour_sea(board, game, e):
    """The sea hex of a coast edge in play (land as the table shows it on the other side), else -1."""
    a, b = board.edge_hexes[e, 0], board.edge_hexes[e, 1]
    if a < 0 or b < 0 or not board.edge_in_play[e]:
        return -1
    if _side(game, a) == 1 and game.terrain[b] == SEA:
        return b
    if _side(game, b) == 1 and game.terrain[a] == SEA:
        return a
    return -1


@internal
def _hexes_touch(board, a, b):
    for k in range(6):
        e = board.hex_edges[a, k]
        if e >= 0 and (board.edge_hexes[e, 0] == b or board.edge_hexes[e, 1] == b):
            return True
    return False


@internal
def _harbour_ok(board, game, e):
    """May a harbour (the drawn token, or a won one) go on edge e? (the reference's harbour_sites, one edge)"""
    sea = harbour_sea(board, game, e)
    if sea < 0 or game.corner_harbour[board.edge_corners[e, 0]] >= 0 or \
            game.corner_harbour[board.edge_corners[e, 1]] >= 0:
        return False
    return _spaced(board, game, sea, game.harbour_edges, game.st[ST_HARBOUR_POS]) and \
        _spaced(board, game, sea, game.gift_state[gifts.GIFT_LAID], game.gift_state.shape[1])  # (the Forgotten
    # Tribe's won harbours)


@internal
def _spaced(board, game, sea, edges, n):
    """No harbour among edges[:n] (-1: none) on sea hex `sea` (option harbour_hexes_apart: nor on a neighbour)."""
    apart = board.params[P_HARBOUR_HEXES_APART] != 0
    for i in range(n):
        f = edges[i]
        if f < 0:
            continue
        t = harbour_sea(board, game, f)
        if t == sea or (apart and _hexes_touch(board, sea, t)):
            return False
    return True


@internal
def _harbour_sites(board, game, actions, n, listing):
    """The edges the drawn token may go on, ascending, as actions (listing) or only counted."""
    for e in range(board.edge_corners.shape[0]):
        if _harbour_ok(board, game, e):
            if listing:
                n = _add(actions, n, PLACE_HARBOUR, e, 0)
            else:
                n += 1
    return n


@internal
def _pirate_blocks(board, game, e):
    h = game.st[ST_PIRATE]
    return h >= 0 and (board.edge_hexes[e, 0] == h or board.edge_hexes[e, 1] == h)


@internal
def _connects(board, game, seat, e, ship, skip):
    for side in range(2):
        c = board.edge_corners[e, side]
        owner = game.corner_owner[c]
        if owner == seat:
            return True
        if owner >= 0:
            continue
        for j in range(3):
            f = board.corner_edges[c, j]
            if f >= 0 and f != e and f != skip and game.edge_owner[f] == seat and game.edge_ship[f] == ship:
                return True
    return False


@internal
def _road_ok(board, game, seat, e):
    return game.edge_owner[e] < 0 and _may_road(board, game, e) and _connects(board, game, seat, e, 0, -1)


@internal
def _ship_ok(board, game, seat, e, skip):
    return (game.edge_owner[e] < 0 and e != skip and _may_ship(board, game, e)
            and not _pirate_blocks(board, game, e) and _connects(board, game, seat, e, 1, skip))


@internal
def _ship_targets(board, game, seat):
    """The edges a new ship of `seat` may take, ascending, into game.targets; returns how many."""
    if fleet.p_fleet(board):  # the Pirate Islands: only at its route's end
        return fleet.route_sites(board, game, seat)
    k = 0
    for i in range(game.n_net[seat, 1]):
        e = game.net_edges[seat, i]
        if _ship_ok(board, game, seat, e, -1):
            game.targets[k] = e
            k += 1
    return k


@internal
def _any_road(board, game, seat):
    if game.pieces_left[seat, PIECE_ROAD] == 0:
        return False
    for i in range(game.n_net[seat, 1]):
        if _road_ok(board, game, seat, game.net_edges[seat, i]):
            return True
    return False


@internal
def _any_ship(board, game, seat):
    if game.pieces_left[seat, PIECE_SHIP] == 0:
        return False
    if fleet.p_fleet(board):
        return fleet.route_sites(board, game, seat) > 0
    for i in range(game.n_net[seat, 1]):
        if _ship_ok(board, game, seat, game.net_edges[seat, i], -1):
            return True
    return False


@internal
def _distance_ok(board, game, c):
    if game.corner_owner[c] >= 0:
        return False
    for j in range(3):
        n = board.corner_neighbours[c, j]
        if n >= 0 and game.corner_owner[n] >= 0:
            return False
    return True


@internal
def _settlement_ok(board, game, seat, c):
    if not (corner_land(board, game, c) and board.corner_in_play[c]) or (
            board.no_settle[c] and not fleet.own_colour(board, seat, c)):  # (the Pirate Islands' marked corner)
        return False
    if not _distance_ok(board, game, c):
        return False
    for j in range(3):
        e = board.corner_edges[c, j]
        if e >= 0 and game.edge_owner[e] == seat:
            return True
    return False


@internal
def _movable(board, game, seat, e):
    """The reference's movable_ships test for one edge."""
    if game.edge_owner[e] != seat or game.edge_ship[e] == 0 or game.edge_built[e] == game.st[ST_TURN]:
        return False
    if _pirate_blocks(board, game, e):
        return False
    for side in range(2):
        c = board.edge_corners[e, side]
        if game.corner_owner[c] == seat or _route_village(board, game, seat, c):
            continue
        other = False
        for j in range(3):
            f = board.corner_edges[c, j]
            if f >= 0 and f != e and game.edge_owner[f] == seat and game.edge_ship[f] == 1:
                other = True
        if not other:
            return True
    return False


# ------------------------------------------------------------------------------------------------ scoring
@kernel
def _update_routes(board, game):
    """Recount every seat's longest trade route, then who holds the card. Without the card (and no wonder asking for
    a route) nothing reads it during the game: final_route gives it at the end."""
    if not routes_kept(board):
        return
    for seat in range(board.params[P_PLAYERS]):
        _recount_route(board, game, seat, UNBOUNDED)
    _award_route(board, game)


@internal
def _route_after_piece(board, game, seat, e, moved):
    """The seat's route and the card after its new piece on e (`moved`: a ship moved there from an open end, where
    nothing went on: the trails through it lost their last piece, so the route lost at most one). Where no other
    piece of the seat meets e at one end, a trail through e stops there: the trails e adds are those that start
    there, one search from that corner; if none is as long as the route was and a ship moved, the count of the
    rest stops at the first trail of the old length. Else (e may join two trails) all is counted again."""
    if not routes_kept(board):
        return
    lone = -1
    for side in range(2):
        c = board.edge_corners[e, side]
        if _pieces_at(board, game, seat, c, e) == 0:
            lone = c
    if lone < 0:
        _recount_route(board, game, seat, UNBOUNDED)
    else:
        old = game.route[seat]
        through = longest_route_from(board.edge_corners, board.corner_edges, game.edge_owner, game.edge_ship,
                                     game.corner_owner, seat, game.work, lone)
        if through >= old or not moved:
            game.route[seat] = max(old, through)
        else:  # a trail of the old length without the new piece, if any (else the count itself)
            _recount_route(board, game, seat, old)
    _award_route(board, game)


@internal
def _route_after_settlement(board, game, c):
    """The routes and the card after a settlement at c: only a seat with two pieces at c has a trail through c,
    which a rival's settlement cuts and its own may join (a road and a ship meet only at a building)."""
    if not routes_kept(board):
        return
    for seat in range(board.params[P_PLAYERS]):
        if _pieces_at(board, game, seat, c, -1) >= 2:  # a rival's settlement only cuts; one's own may join two
            _recount_route(board, game, seat, game.route[seat] if game.corner_owner[c] != seat else UNBOUNDED)
    _award_route(board, game)


@internal
def _pieces_at(board, game, seat, c, skip):
    """The seat's roads and ships at corner c, the one on edge `skip` left out."""
    n = 0
    for j in range(3):
        f = board.corner_edges[c, j]
        if f >= 0 and f != skip and game.edge_owner[f] == seat:
            n += 1
    return n


@internal
def _recount_route(board, game, seat, limit):
    """game.route[seat] counted again; `limit`: no route can be longer (the count stops at the first that long)."""
    game.route[seat] = longest_route_among(board.edge_corners, board.corner_edges, game.edge_owner, game.edge_ship,
                                           game.corner_owner, seat, game.work, game.net_corners[seat],
                                           game.n_net[seat, 0], limit)


@internal
def _award_route(board, game):
    """The "Maior estrada comercial" card to the only seat with the longest route of at least P_ROUTE_MIN; the
    holder keeps it on a tie."""
    p = board.params
    if p[P_NO_ROUTE_CARD]:  # a wonder's requirement reads the route, but there is no card
        return
    players = p[P_PLAYERS]
    best = 0
    for seat in range(players):
        if game.route[seat] > best:
            best = game.route[seat]
    h = game.st[ST_ROUTE_HOLDER]
    if h >= 0 and game.route[h] >= p[P_ROUTE_MIN] and game.route[h] == best:
        return
    leaders = 0
    leader = -1
    for seat in range(players):
        if game.route[seat] == best:
            leaders += 1
            if leader < 0:
                leader = seat
    game.st[ST_ROUTE_HOLDER] = leader if best >= p[P_ROUTE_MIN] and leaders == 1 else -1


@internal
def routes_kept(board):
    """Does anything read game.route while the game goes on: the "Maior estrada comercial" card (not in Cloth for
    Catan or the Pirate Islands) or a wonder's route requirement?"""
    return not board.params[P_NO_ROUTE_CARD] or board.params[P_WONDERS] > 0


@kernel
def final_route(board, game, seat):
    """The seat's longest trade route now: game.route where it is kept up to date (routes_kept), else counted."""
    if routes_kept(board):
        return game.route[seat]
    return longest_route_among(board.edge_corners, board.corner_edges, game.edge_owner, game.edge_ship,
                               game.corner_owner, seat, game.work, game.net_corners[seat], game.n_net[seat, 0],
                               UNBOUNDED)


@internal
def vp_source(board, game, seat, k):
    """The seat's VP from source k of VP_COLS: settlements, cities, island bonus, longest route, largest army, VP
    cards, cloth, Catan chits."""
    p = board.params
    if k == 0 or k == 1:
        building = SETTLEMENT if k == 0 else CITY
        count = 0
        for c in range(game.corner_owner.shape[0]):
            if game.corner_owner[c] == seat and game.corner_building[c] == building:
                count += 1
        return p[P_VP_SETTLEMENT if k == 0 else P_VP_CITY] * count
    if k == 2:
        return game.bonus_vp[seat]
    if k == 3:
        return p[P_VP_ROUTE] if game.st[ST_ROUTE_HOLDER] == seat else 0
    if k == 4:
        return p[P_VP_ARMY] if game.st[ST_ARMY_HOLDER] == seat else 0
    if k == 5:
        return p[P_VP_CARD] * (game.cards[seat, VP_CARD] + game.new_cards[seat, VP_CARD])
    if k == 6:
        return cloth_vp(board, game, seat)
    return p[P_CHIT_VP] * gifts.chits(board, game, seat)


@kernel
def vp_sources(board, game, seat, out):
    """out[:N_VP_SOURCES] = the seat's VP by source (VP_COLS, vp_source)."""
    for k in range(N_VP_SOURCES):
        out[k] = vp_source(board, game, seat, k)


@kernel
def total_vp(board, game, seat):
    """The seat's VP; its buildings counted as the pieces gone from its supply (a city returns its settlement)."""
    p = board.params
    v = game.bonus_vp[seat]
    v += p[P_VP_SETTLEMENT] * (board.supply[PIECE_SETTLEMENT] - game.pieces_left[seat, PIECE_SETTLEMENT])
    v += p[P_VP_CITY] * (board.supply[PIECE_CITY] - game.pieces_left[seat, PIECE_CITY])
    if game.st[ST_ROUTE_HOLDER] == seat:
        v += p[P_VP_ROUTE]
    if game.st[ST_ARMY_HOLDER] == seat:
        v += p[P_VP_ARMY]
    v += p[P_VP_CARD] * (game.cards[seat, VP_CARD] + game.new_cards[seat, VP_CARD])
    return v + cloth_vp(board, game, seat) + p[P_CHIT_VP] * gifts.chits(board, game, seat)


# ------------------------------------------------------------------------------------------------ legal actions
@internal
def _rate(board, game, seat, r):
    return game.rates[seat, r]


@internal
def _afford(board, game, seat, item):
    for r in range(N_RESOURCES):
        if game.hands[seat, r] < board.costs[item, r]:
            return False
    return True


@internal
def _add(actions, n, kind, a, b):
    actions[n, 0] = kind
    actions[n, 1] = a
    actions[n, 2] = b
    return n + 1


@internal
def _victims_any(board, game):
    """Is there a player to rob at the piece moved last? (the reference's _victims, non-empty)"""
    for v in range(board.params[P_PLAYERS]):
        if _is_victim(board, game, v):
            return True
    return False


@internal
def _is_victim(board, game, v):
    st = game.st
    if v == st[ST_CURRENT]:
        return False
    cards = 0
    for r in range(N_RESOURCES):
        cards += game.hands[v, r]
    if st[ST_THIEF] == MOVE_PIRATE and p_cloth(board):
        cards += game.cloth[v]  # Cloth for Catan: the pirate's mover may take a cloth instead
    if cards == 0:
        return False
    if st[ST_THIEF] == THIEF_ANY:  # the Pirate Islands' 7: any player
        return True
    if st[ST_THIEF] == MOVE_ROBBER and st[ST_ROBBER] >= 0:
        for k in range(6):
            if game.corner_owner[board.hex_corners[st[ST_ROBBER], k]] == v:
                return True
    elif st[ST_THIEF] == MOVE_PIRATE and st[ST_PIRATE] >= 0:
        for k in range(6):
            e = board.hex_edges[st[ST_PIRATE], k]
            if game.edge_ship[e] == 1 and game.edge_owner[e] == v:
                return True
    return False


@internal
def _thief_moves(board, game, actions, n):
    st = game.st
    if board.params[P_HAS_ROBBER]:
        for h in range(board.robber_hexes.shape[0]):
            if board.robber_hexes[h] and h != st[ST_ROBBER] and _side(game, h) == 1:
                n = _add(actions, n, MOVE_ROBBER, h, 0)
    if board.params[P_HAS_PIRATE] and (not p_cloth(board) or _has_route(board, game, st[ST_CURRENT])):
        for h in range(board.pirate_hexes.shape[0]):
            if board.pirate_hexes[h] and h != st[ST_PIRATE] and _side(game, h) == 0:
                n = _add(actions, n, MOVE_PIRATE, h, 0)
    return n


@internal
def _setup_edge_kind(board, game, e, ship):
    """May the set-up piece beside the new settlement go on edge e (as a ship if ship)? (The reference's
    _setup_edges: a ship never beside the pirate; on a coast facing the frame only with draft_ship_facing_frame.)"""
    if e < 0 or game.edge_owner[e] >= 0:
        return False
    if ship:
        return _may_ship(board, game, e) and not _pirate_blocks(board, game, e) and (
            board.params[P_DRAFT_FRAME_SHIP] != 0 or not _faces_frame(board, game, e))
    return _may_road(board, game, e)


@internal
def _setup_edges(board, game, actions, n):
    c = game.st[ST_SETUP_CORNER]
    ships = board.params[P_SETUP_SHIPS] != 0 and _corner_coastal(board, game, c)
    e0, e1, e2 = board.corner_edges[c, 0], board.corner_edges[c, 1], board.corner_edges[c, 2]
    if e0 > e1:  # the row is ordered by the far corner; actions go by edge
        e0, e1 = e1, e0
    if e1 > e2:
        e1, e2 = e2, e1
    if e0 > e1:
        e0, e1 = e1, e0
    for ship in range(2 if ships else 1):
        for e in (e0, e1, e2):
            if _setup_edge_kind(board, game, e, ship == 1):
                n = _add(actions, n, SHIP if ship == 1 else ROAD, e, 0)
    return n


@internal
def _roads(board, game, seat, actions, n):
    for i in range(game.n_net[seat, 1]):
        e = game.net_edges[seat, i]
        if _road_ok(board, game, seat, e):
            n = _add(actions, n, ROAD, e, 0)
    return n


@internal
def _progress_cards(board, game, seat, actions, n):
    """The progress cards the seat may play now (the reference's _progress_cards): road building, year of plenty,
    monopoly."""
    if game.st[ST_DEV_PLAYED] != 0:
        return n
    if game.cards[seat, ROAD_BUILDING] > 0 and (_any_road(board, game, seat) or _any_ship(board, game, seat)):
        n = _add(actions, n, PLAY_ROAD_BUILDING, 0, 0)
    if game.cards[seat, YEAR_OF_PLENTY] > 0:
        for a in range(N_RESOURCES):
            for b in range(a, N_RESOURCES):
                need = 2 if a == b else 1
                if game.bank[a] >= need and game.bank[b] >= 1:
                    n = _add(actions, n, PLAY_YEAR_OF_PLENTY, a, b)
    if game.cards[seat, MONOPOLY] > 0:
        for r in range(N_RESOURCES):
            n = _add(actions, n, PLAY_MONOPOLY, r, 0)
    return n


@merged
def legal(board, game):
    """The legal actions of st[ST_ACTOR] into game.actions[:n]; returns n (0 once the game is over)."""
    st, actions = game.st, game.actions
    ph, seat = st[ST_PHASE], st[ST_ACTOR]
    n = 0
    n_corner = board.corner_hexes.shape[0]
    if ph == OVER:
        return 0
    if ph == SETUP_SETTLEMENT:
        for c in range(n_corner):
            if board.setup_allowed[c] and _distance_ok(board, game, c):
                n = _add(actions, n, SETTLE, c, 0)
        return n
    if ph == SETUP_EDGE:
        return _setup_edges(board, game, actions, n)
    if ph == DISCARD:
        for r in range(N_RESOURCES):
            if game.hands[seat, r] > 0:
                n = _add(actions, n, DISCARD_CARD, r, 0)
        return n
    if ph == GOLD_PICK:
        for r in range(N_RESOURCES):
            if game.bank[r] > 0:
                n = _add(actions, n, PICK_GOLD, r, 0)
        return n
    if ph == MOVE_THIEF:
        return _thief_moves(board, game, actions, n)
    if ph == STEAL:
        for v in range(board.params[P_PLAYERS]):
            if _is_victim(board, game, v) and _hand(game, v) > 0:
                n = _add(actions, n, STEAL_FROM, v, 0)
        if st[ST_THIEF] == MOVE_PIRATE and p_cloth(board):
            for v in range(board.params[P_PLAYERS]):
                if _is_victim(board, game, v) and game.cloth[v] > 0:
                    n = _add(actions, n, STEAL_CLOTH, v, 0)
        if st[ST_THIEF] == THIEF_ANY and board.params[P_SEVEN_STEAL_OPTIONAL] != 0:  # 'poderá roubar'
            n = _add(actions, n, NO_STEAL, 0, 0)
        return n
    if ph == RESPOND:
        n = _add(actions, n, DECLINE, 0, 0)
        if game.hands[seat, st[ST_OFFER_GET]] > 0:
            n = _add(actions, n, ACCEPT, 0, 0)
        return n
    if ph == LAY_HARBOUR:
        return _harbour_sites(board, game, actions, n, True)
    if ph == GIFT_HARBOUR:
        return gifts.placements(board, game, actions, n, True)
    may_knight = st[ST_DEV_PLAYED] == 0 and game.cards[seat, KNIGHT] > 0 and (
        not fleet.p_fleet(board) or fleet.knight_ok(board, game, seat))
    if ph == PRE_ROLL:  # the base game: one development card at any time of the turn (option progress_before_roll)
        n = _add(actions, n, ROLL, 0, 0)
        if may_knight:
            n = _add(actions, n, PLAY_KNIGHT, 0, 0)
        if board.params[P_PROGRESS_BEFORE_ROLL] != 0:
            n = _progress_cards(board, game, seat, actions, n)
        return n
    # Every new piece touches the seat's network (its lists hold every candidate, ascending).
    if ph == FREE_ROADS:
        if game.pieces_left[seat, PIECE_ROAD] > 0:
            n = _roads(board, game, seat, actions, n)
        if game.pieces_left[seat, PIECE_SHIP] > 0:
            for i in range(_ship_targets(board, game, seat)):
                n = _add(actions, n, SHIP, game.targets[i], 0)
        return _add(actions, n, STOP_BUILDING, 0, 0)
    n = _add(actions, n, END_TURN, 0, 0)
    if _afford(board, game, seat, ITEM_ROAD) and game.pieces_left[seat, PIECE_ROAD] > 0:
        n = _roads(board, game, seat, actions, n)
    targets = -1  # game.targets[:targets] once listed
    if _afford(board, game, seat, ITEM_SHIP) and game.pieces_left[seat, PIECE_SHIP] > 0:
        targets = _ship_targets(board, game, seat)
        for i in range(targets):
            n = _add(actions, n, SHIP, game.targets[i], 0)
    if _afford(board, game, seat, ITEM_SETTLEMENT) and \
            game.pieces_left[seat, PIECE_SETTLEMENT] > fleet.reserved(board, game, seat):
        for i in range(game.n_net[seat, 0]):
            c = game.net_corners[seat, i]
            if _settlement_ok(board, game, seat, c):
                n = _add(actions, n, SETTLE, c, 0)
    if _afford(board, game, seat, ITEM_CITY) and game.pieces_left[seat, PIECE_CITY] > 0:
        for i in range(game.n_net[seat, 0]):
            c = game.net_corners[seat, i]
            if game.corner_owner[c] == seat and game.corner_building[c] == SETTLEMENT:
                n = _add(actions, n, CITY_UP, c, 0)
    if _afford(board, game, seat, ITEM_CARD) and st[ST_DECK_POS] < board.params[P_DECK_LEN]:
        n = _add(actions, n, BUY_CARD, 0, 0)
    if may_knight:
        n = _add(actions, n, PLAY_KNIGHT, 0, 0)
    n = _progress_cards(board, game, seat, actions, n)
    for a in range(N_RESOURCES):
        if game.hands[seat, a] >= _rate(board, game, seat, a):
            for b in range(N_RESOURCES):
                if b != a and game.bank[b] > 0:
                    n = _add(actions, n, TRADE, a, b)
    if st[ST_SHIP_MOVED] == 0 and not fleet.p_fleet(board):  # (the Pirate Islands: a route ship never moves)
        for j in range(game.n_net[seat, 1]):
            e = game.net_edges[seat, j]
            if _movable(board, game, seat, e):
                if targets < 0:
                    targets = _ship_targets(board, game, seat)
                for i in range(targets):  # a target of the moved ship is one of a new ship's, not leaning on e
                    f = game.targets[i]
                    if f != e and _connects(board, game, seat, f, 1, e) and n < MAX_ACTIONS:
                        n = _add(actions, n, MOVE_SHIP, e, f)
    if st[ST_OFFERS] < board.params[P_OFFERS]:
        for a in range(N_RESOURCES):
            if game.hands[seat, a] > 0:
                for b in range(N_RESOURCES):
                    if b != a and n < MAX_ACTIONS:
                        n = _add(actions, n, OFFER, a, b)
    if board.params[P_WONDERS] > 0:
        n = wonders.actions(board, game, seat, actions, n)
    if fleet.p_fleet(board) and fleet.may_attack(board, game, seat) and n < MAX_ACTIONS:
        n = _add(actions, n, ATTACK, 0, 0)
    return n


# ------------------------------------------------------------------------------------------------ Cloth for Catan
# Seed 002, CENÁRIO 6: MERCADORIAS PARA CATAN: the reference's block of the same name (full_reference.py).
@internal
def p_cloth(board):
    """Are cloth rules in play (villages on the board)?"""
    return board.village_corner.shape[0] > 0


@internal
def _hand(game, seat):
    cards = 0
    for r in range(N_RESOURCES):
        cards += game.hands[seat, r]
    return cards


@internal
def _has_route(board, game, seat):
    for k in range(board.village_corner.shape[0]):
        if game.cloth_route[seat, k]:
            return True
    return False


@internal
def _route_village(board, game, seat, c):
    """Is corner c a village the seat has a trade route to (its end of a ship closed, as at the seat's building)?"""
    k = board.corner_village[c]
    return k >= 0 and game.cloth_route[seat, k]


@internal
def _take_cloth(board, game, seat, k, reserve):
    """One cloth to the seat from village k's stock, else (reserve) from the common reserve, else nothing."""
    if game.village_cloth[k] > 0:
        game.village_cloth[k] -= 1
        game.cloth[seat] += 1
        game.st[ST_MAP_VERSION] += 1  # the bots' site field weighs the cloth left
    elif reserve and game.st[ST_CLOTH_RESERVE] > 0:
        game.st[ST_CLOTH_RESERVE] -= 1
        game.cloth[seat] += 1


@internal
def open_routes(board, game, seat, e):
    """A ship of the seat on edge e opens a trade route to the village at either end it has none to yet, and takes
    one cloth there (the reference's open_routes)."""
    if not p_cloth(board):
        return
    for side in range(2):
        k = board.corner_village[board.edge_corners[e, side]]
        if k >= 0 and not game.cloth_route[seat, k]:
            game.cloth_route[seat, k] = True
            game.st[ST_MAP_VERSION] += 1
            _take_cloth(board, game, seat, k, board.params[P_CLOTH_FROM_RESERVE] != 0)


@kernel
def pay_cloth(board, game, total):
    """A roll of a village's number: each route holder, in turn order from the roller, one cloth from the village,
    then the reserve; nothing from a village with none left (the reference's pay_cloth)."""
    players = board.params[P_PLAYERS]
    for k in range(board.village_corner.shape[0]):
        if board.village_number[k] != total or game.village_cloth[k] == 0:
            continue
        for i in range(players):
            p = (game.st[ST_CURRENT] + i) % players
            if game.cloth_route[p, k]:
                _take_cloth(board, game, p, k, True)


@internal
def cloth_vp(board, game, seat):
    per = board.params[P_CLOTH_PER_VP]
    return game.cloth[seat] // per if per > 0 else 0


@internal
def villages_holding(game):
    n = 0
    for k in range(game.village_cloth.shape[0]):
        if game.village_cloth[k] > 0:
            n += 1
    return n


@internal
def _villages_end(board, game):
    """Only end_villages villages hold cloth: the most VP wins, ties to the most cloth, still tied the first in turn
    order from the player on turn (the reference's _villages_end)."""
    st = game.st
    players = board.params[P_PLAYERS]
    best = -1
    best_vp = -1
    best_cloth = -1
    for i in range(players):
        p = (st[ST_CURRENT] + i) % players
        v = total_vp(board, game, p)
        if v > best_vp or (v == best_vp and game.cloth[p] > best_cloth):
            best, best_vp, best_cloth = p, v, game.cloth[p]
    st[ST_WINNER] = best
    st[ST_PHASE] = OVER
    st[ST_CLOTH_END] = 1


# ------------------------------------------------------------------------------------------------ step
@internal
def _pay(board, game, seat, item):
    for r in range(N_RESOURCES):
        game.hands[seat, r] -= board.costs[item, r]
        game.bank[r] += board.costs[item, r]


@internal
def _take(game, seat, r, k):
    game.hands[seat, r] += k
    game.bank[r] -= k


@kernel
def _place_edge(board, game, seat, e, ship):
    game.edge_owner[e] = seat
    game.edge_ship[e] = ship
    game.edge_built[e] = game.st[ST_TURN]
    game.pieces_left[seat, PIECE_SHIP if ship else PIECE_ROAD] -= 1
    _join_edge(board, game, seat, e)
    if ship:
        open_routes(board, game, seat, e)
    for side in range(2):  # exploring: the reference's _explore
        c = board.edge_corners[e, side]
        if board.params[P_FOG_NEXT_CORNER] != 0 and _reached(board, game, seat, c, e):
            continue
        for j in range(3):
            h = board.corner_hexes[c, j]
            if h >= 0 and board.fog[h] and game.terrain[h] == UNKNOWN:
                _reveal(board, game, seat, h)


@internal
def _reached(board, game, seat, c, e):
    """Had the seat reached corner c before its piece on edge e: its building there, or another piece of its own?"""
    if game.corner_owner[c] == seat:
        return True
    for j in range(3):
        f = board.corner_edges[c, j]
        if f >= 0 and f != e and game.edge_owner[f] == seat:
            return True
    return False


@internal
def _reveal(board, game, seat, h):
    """Turn up fog hex h for `seat`: its terrain and number, the corners' pips, the finder's card."""
    t = board.terrain[h]
    game.terrain[h] = t
    game.number[h] = board.number[h]
    game.st[ST_MAP_VERSION] += 1
    if GOLD <= t <= ORE:
        column = 5 if t == GOLD else t - FIRST_RESOURCE_TERRAIN
        for k in range(6):
            game.corner_pips[board.hex_corners[h, k], column] += _PIPS[board.number[h]]
    if t == GOLD:
        game.gold[seat] += 1
    elif FIRST_RESOURCE_TERRAIN <= t <= ORE and game.bank[t - FIRST_RESOURCE_TERRAIN] > 0:
        _take(game, seat, t - FIRST_RESOURCE_TERRAIN, 1)


@kernel
def _harbour_rates(board, game, seat, h):
    """The seat's maritime rates with harbour h (-1 none, 0 3:1, 1 + r 2:1 of resource r) at one of its buildings."""
    for r in range(N_RESOURCES):
        if h == 0:
            game.rates[seat, r] = min(game.rates[seat, r], board.params[P_GENERIC_RATE])
        elif h == r + 1:
            game.rates[seat, r] = min(game.rates[seat, r], board.params[P_SPECIAL_RATE])


@kernel
def _settle(board, game, seat, c, in_setup):
    game.corner_owner[c] = seat
    game.st[ST_MAP_VERSION] += 1
    game.corner_building[c] = SETTLEMENT
    game.pieces_left[seat, PIECE_SETTLEMENT] -= 1
    _join(board, game, seat, c)
    _harbour_rates(board, game, seat, game.corner_harbour[c])
    t = board.corner_territory[c]
    if in_setup:
        if t >= 0:
            game.home[seat, t] = True
        return
    if game.first_settlement_turn[seat] < 0:
        game.first_settlement_turn[seat] = game.st[ST_TURN]
    if t >= 0 and board.params[P_BONUS_EACH] != 0:  # the Wonders: a chit under every settlement on an islet
        game.bonus_vp[seat] += board.params[P_ISLAND_BONUS]
    elif t >= 0 and not game.claimed[seat, t] and not (board.foreign_only[t] and game.home[seat, t]):
        game.claimed[seat, t] = True
        game.bonus_vp[seat] += board.params[P_ISLAND_BONUS]


@kernel
def _produce(board, game, total):
    players = board.params[P_PLAYERS]
    owed = game.owed
    owed[:] = 0
    robber = game.st[ST_ROBBER]
    for h in range(game.terrain.shape[0]):
        t = game.terrain[h]
        if game.number[h] != total or h == robber or t < GOLD or t > ORE:
            continue
        for k in range(6):
            c = board.hex_corners[h, k]
            seat = game.corner_owner[c]
            if seat < 0:
                continue
            amount = 2 if game.corner_building[c] == CITY else 1
            if t == GOLD:
                game.gold[seat] += amount
            else:
                owed[seat, t - FIRST_RESOURCE_TERRAIN] += amount
    for r in range(N_RESOURCES):
        want = 0
        owed_by = 0
        only = -1
        for p in range(players):
            want += owed[p, r]
            if owed[p, r] > 0:
                owed_by += 1
                only = p
        if want <= game.bank[r]:
            for p in range(players):
                _take(game, p, r, owed[p, r])
        elif owed_by == 1:
            _take(game, only, r, game.bank[r])


@internal
def _after_gold(board, game):
    st = game.st
    players = board.params[P_PLAYERS]
    bank = 0
    for r in range(N_RESOURCES):
        bank += game.bank[r]
    if bank == 0:
        game.gold[:] = 0
    first = board.setup_order[st[ST_SETUP_POS]] if st[ST_RESUME] == SETUP_SETTLEMENT else st[ST_CURRENT]
    for k in range(players):
        p = (first + k) % players
        if game.gold[p] > 0:
            st[ST_PHASE] = GOLD_PICK
            st[ST_ACTOR] = p
            return
    if st[ST_RESUME] == SETUP_SETTLEMENT:
        _next_setup(board, game)
    else:  # (FLEET_ROLL: step goes on with the roll's effects, _roll_effects)
        st[ST_PHASE] = st[ST_RESUME]
        st[ST_ACTOR] = st[ST_CURRENT]


@internal
def _after_discards(board, game):
    st = game.st
    players = board.params[P_PLAYERS]
    for k in range(players):
        p = (st[ST_CURRENT] + k) % players
        if game.discard[p] > 0:
            st[ST_PHASE] = DISCARD
            st[ST_ACTOR] = p
            return
    st[ST_PHASE] = MOVE_THIEF
    st[ST_ACTOR] = st[ST_CURRENT]


@kernel
def _start_thief(board, game, resume):
    st = game.st
    if fleet.p_fleet(board):
        fleet.seven_steal(board, game, resume)
        return
    st[ST_RESUME] = resume
    if _thief_moves(board, game, game.actions, 0) == 0:
        st[ST_PHASE] = resume
        return
    st[ST_PHASE] = MOVE_THIEF
    st[ST_ACTOR] = st[ST_CURRENT]


@internal
def _end_setup_step(board, game):
    game.st[ST_RESUME] = SETUP_SETTLEMENT
    _after_gold(board, game)


@internal
def _check_win(board, game):
    st = game.st
    if st[ST_PHASE] == OVER or st[ST_PHASE] < PRE_ROLL or st[ST_PHASE] == LAY_HARBOUR:
        return
    if board.params[P_WONDERS] > 0:
        wonders.check_win(board, game)
    elif total_vp(board, game, st[ST_CURRENT]) >= board.params[P_TARGET] and (
            not fleet.p_fleet(board) or game.fort[st[ST_CURRENT], fleet.F_CHITS] == 0):  # and its fortress taken
        st[ST_WINNER] = st[ST_CURRENT]
        st[ST_PHASE] = OVER
    elif p_cloth(board) and villages_holding(game) <= board.params[P_CLOTH_END_VILLAGES]:
        _villages_end(board, game)


@internal
def random_card(game, seat):
    """The resource of a uniformly random card of the seat's hand (one draw of the steal stream, cards in resource
    order; the hand is not empty)."""
    i = uniform_int(game.steal, _hand(game, seat))
    r = 0
    while i >= game.hands[seat, r]:
        i -= game.hands[seat, r]
        r += 1
    return r


@internal
def _roll_effects(board, game, total):
    """A 7 (discards, then the robber, the pirate or, the Pirate Islands, a steal), else the production."""
    st = game.st
    p = board.params
    if total == 7:
        st[ST_SEVENS] += 1
        for q in range(p[P_PLAYERS]):
            cards = 0
            for r in range(N_RESOURCES):
                cards += game.hands[q, r]
            game.discard[q] = cards // 2 if cards > p[P_DISCARD_ABOVE] else 0
        st[ST_RESUME] = MAIN
        _after_discards(board, game)
        if st[ST_PHASE] == MOVE_THIEF:
            _start_thief(board, game, MAIN)
    else:
        _produce(board, game, total)
        pay_cloth(board, game, total)
        st[ST_RESUME] = MAIN
        _after_gold(board, game)


@internal
def _end_turn(board, game):
    st = game.st
    players = board.params[P_PLAYERS]
    for q in range(players):
        for k in range(5):
            game.cards[q, k] += game.new_cards[q, k]
            game.new_cards[q, k] = 0
    st[ST_DEV_PLAYED] = 0
    st[ST_SHIP_MOVED] = 0
    st[ST_OFFERS] = 0
    st[ST_TURN] += 1
    st[ST_CURRENT] = (st[ST_CURRENT] + 1) % players
    st[ST_ACTOR] = st[ST_CURRENT]
    st[ST_PHASE] = PRE_ROLL
    if st[ST_TURN] >= board.params[P_TURN_CAP]:
        st[ST_CAPPED] = 1
        st[ST_PHASE] = OVER


@internal
def _free_left(board, game, seat):
    return _any_road(board, game, seat) or _any_ship(board, game, seat)


@merged
def step(board, game, kind, a, b):
    """Carry out one legal action (kind, a, b) of st[ST_ACTOR] (the reference's step)."""
    st = game.st
    p = board.params
    seat = st[ST_ACTOR]
    ph = st[ST_PHASE]
    players = p[P_PLAYERS]
    if ph == LAY_HARBOUR:
        pos = st[ST_HARBOUR_POS]
        k = game.harbour_stack[pos]
        game.harbour_edges[pos] = a
        for side in range(2):
            c = board.edge_corners[a, side]
            game.corner_harbour[c] = k
            if game.corner_owner[c] >= 0:  # laid at a building (after the draft): its rates at once
                _harbour_rates(board, game, game.corner_owner[c], k)
        st[ST_MAP_VERSION] += 1
        _lay_next(board, game, pos + 1)
        return
    if ph == GIFT_HARBOUR:
        gifts.place(board, game, a, b)
        return
    if ph == SETUP_SETTLEMENT:
        _settle(board, game, seat, a, True)
        st[ST_SETUP_CORNER] = a
        if _last_placement(board, game):
            for k in range(3):
                h = board.corner_hexes[a, k]
                if h < 0:
                    continue
                t = game.terrain[h]
                if t == GOLD:
                    game.gold[seat] += 1
                elif FIRST_RESOURCE_TERRAIN <= t <= ORE and game.bank[t - FIRST_RESOURCE_TERRAIN] > 0:
                    _take(game, seat, t - FIRST_RESOURCE_TERRAIN, 1)
        st[ST_PHASE] = SETUP_EDGE
        if _setup_edges(board, game, game.actions, 0) == 0:
            _end_setup_step(board, game)
        return
    if ph == SETUP_EDGE:
        _place_edge(board, game, seat, a, 1 if kind == SHIP else 0)
        game.edge_built[a] = -1  # built before turn 0 (seat 1's first turn): it may move then
        _route_after_piece(board, game, seat, a, False)
        _end_setup_step(board, game)
        return
    if kind == ROLL:
        pair = roll_pair_index(game.dice)
        total = pair // 6 + pair % 6 + 2
        st[ST_ROLLS] += 1
        st[ST_LAST_ROLL] = total
        if st[ST_ROLLS] <= MAX_TRACK:
            for q in range(players):
                game.vp_track[q, st[ST_ROLLS] - 1] = total_vp(board, game, q)
        if st[ST_FLEET] >= 0 and fleet.moves(board, game, min(pair // 6, pair % 6) + 1):
            st[ST_RESUME] = FLEET_ROLL  # a raid won: its card is picked before the 7 or the production
            _after_gold(board, game)
        else:
            _roll_effects(board, game, total)
    elif kind == DISCARD_CARD:
        game.hands[seat, a] -= 1
        game.bank[a] += 1
        game.discard[seat] -= 1
        _after_discards(board, game)
        if st[ST_PHASE] == MOVE_THIEF:
            _start_thief(board, game, MAIN)
    elif kind == PICK_GOLD:
        _take(game, seat, a, 1)
        game.gold[seat] -= 1
        _after_gold(board, game)
    elif kind == MOVE_ROBBER or kind == MOVE_PIRATE:
        st[ST_THIEF] = kind
        if kind == MOVE_ROBBER:
            st[ST_ROBBER] = a
        else:
            st[ST_PIRATE] = a
        st[ST_PHASE] = STEAL if _victims_any(board, game) else st[ST_RESUME]
    elif kind == STEAL_FROM:
        r = random_card(game, a)
        game.hands[a, r] -= 1
        game.hands[st[ST_CURRENT], r] += 1
        st[ST_PHASE] = st[ST_RESUME]
    elif kind == NO_STEAL:
        st[ST_PHASE] = st[ST_RESUME]
    elif kind == STEAL_CLOTH:
        game.cloth[a] -= 1
        game.cloth[st[ST_CURRENT]] += 1
        st[ST_PHASE] = st[ST_RESUME]
    elif kind == END_TURN:
        _end_turn(board, game)
    elif kind == ATTACK:
        fleet.attack(board, game, seat)
    elif kind == ROAD or kind == SHIP:
        if ph == FREE_ROADS:
            st[ST_FREE_ROADS] -= 1
        else:
            _pay(board, game, seat, ITEM_ROAD if kind == ROAD else ITEM_SHIP)
        _place_edge(board, game, seat, a, 1 if kind == SHIP else 0)
        if kind == SHIP and fleet.p_fleet(board):
            fleet.extend(board, game, seat, a)
        _route_after_piece(board, game, seat, a, False)
        if ph == FREE_ROADS and (st[ST_FREE_ROADS] == 0 or not _free_left(board, game, seat)):
            st[ST_PHASE] = st[ST_FREE_RESUME]
        if kind == SHIP:  # the Forgotten Tribe: a gift on this coast
            gifts.take(board, game, seat, a)
        if game.gold[seat] > 0:  # gold turned up in the fog: the finder picks its card now
            st[ST_RESUME] = st[ST_PHASE]
            _after_gold(board, game)
    elif kind == STOP_BUILDING:
        st[ST_FREE_ROADS] = 0
        st[ST_PHASE] = st[ST_FREE_RESUME]
    elif kind == SETTLE:
        _pay(board, game, seat, ITEM_SETTLEMENT)
        _settle(board, game, seat, a, False)
        _route_after_settlement(board, game, a)
        gifts.start_placing(board, game, seat)  # the Forgotten Tribe: a kept harbour may go here
    elif kind == CITY_UP:
        _pay(board, game, seat, ITEM_CITY)
        game.corner_building[a] = CITY
        st[ST_MAP_VERSION] += 1
        game.pieces_left[seat, PIECE_CITY] -= 1
        game.pieces_left[seat, PIECE_SETTLEMENT] += 1
    elif kind == BUY_CARD:
        _pay(board, game, seat, ITEM_CARD)
        game.new_cards[seat, game.deck[st[ST_DECK_POS]]] += 1
        st[ST_DECK_POS] += 1
    elif kind == PLAY_KNIGHT and fleet.p_fleet(board):  # the Pirate Islands: a warship
        game.cards[seat, KNIGHT] -= 1
        st[ST_DEV_PLAYED] = 1
        game.knights[seat] += 1
        fleet.warship(game, seat)
    elif kind == PLAY_KNIGHT:
        game.cards[seat, KNIGHT] -= 1
        st[ST_DEV_PLAYED] = 1
        game.knights[seat] += 1
        h = st[ST_ARMY_HOLDER]
        if game.knights[seat] >= p[P_ARMY_MIN] and (h < 0 or game.knights[seat] > game.knights[h]):
            st[ST_ARMY_HOLDER] = seat
        _start_thief(board, game, ph)
    elif kind == PLAY_ROAD_BUILDING:
        game.cards[seat, ROAD_BUILDING] -= 1
        st[ST_DEV_PLAYED] = 1
        st[ST_FREE_ROADS] = 2
        st[ST_FREE_RESUME] = ph  # (PRE_ROLL: back to the roll)
        st[ST_PHASE] = FREE_ROADS
    elif kind == PLAY_YEAR_OF_PLENTY:
        game.cards[seat, YEAR_OF_PLENTY] -= 1
        st[ST_DEV_PLAYED] = 1
        _take(game, seat, a, 1)
        _take(game, seat, b, 1)
    elif kind == PLAY_MONOPOLY:
        game.cards[seat, MONOPOLY] -= 1
        st[ST_DEV_PLAYED] = 1
        for q in range(players):
            if q != seat:
                game.hands[seat, a] += game.hands[q, a]
                game.hands[q, a] = 0
    elif kind == TRADE:
        k = _rate(board, game, seat, a)
        game.hands[seat, a] -= k
        game.bank[a] += k
        _take(game, seat, b, 1)
        game.trades[seat] += 1
    elif kind == MOVE_SHIP:
        game.edge_owner[a] = -1
        game.edge_ship[a] = 0
        game.edge_built[a] = -1
        game.edge_owner[b] = seat
        game.edge_ship[b] = 1
        game.edge_built[b] = st[ST_TURN]
        _join_edge(board, game, seat, b)
        st[ST_SHIP_MOVED] = 1
        open_routes(board, game, seat, b)
        _route_after_piece(board, game, seat, b, True)
        if p[P_GIFT_MOVED_SHIP] != 0:
            gifts.take(board, game, seat, b)
    elif kind == OFFER:
        st[ST_OFFERS] += 1
        st[ST_OFFER_GIVE] = a
        st[ST_OFFER_GET] = b
        st[ST_PHASE] = RESPOND
        st[ST_ACTOR] = (st[ST_CURRENT] + 1) % players
    elif kind == DECLINE:
        st[ST_ACTOR] = (seat + 1) % players
        if st[ST_ACTOR] == st[ST_CURRENT]:  # nobody took it
            st[ST_PHASE] = MAIN
    elif kind == ACCEPT:
        give, get, offerer = st[ST_OFFER_GIVE], st[ST_OFFER_GET], st[ST_CURRENT]
        game.hands[offerer, give] -= 1
        game.hands[seat, give] += 1
        game.hands[seat, get] -= 1
        game.hands[offerer, get] += 1
        game.domestic[offerer] += 1
        game.domestic[seat] += 1
        st[ST_PHASE] = MAIN
        st[ST_ACTOR] = offerer
    elif kind == CLAIM_WONDER or kind == BUILD_STAGE:
        wonders.step(board, game, seat, kind, a)
    if st[ST_PHASE] == FLEET_ROLL:  # the Pirate Islands: the raid's picks done, the 7 or the production
        _roll_effects(board, game, st[ST_LAST_ROLL])
    _check_win(board, game)


# ------------------------------------------------------------------------------------------------ result
@kernel
def terminal(board, game):
    """The game is over (won, the villages' end, or capped)."""
    return game.st[ST_PHASE] == OVER


@kernel
def result(board, game, out):
    """The result columns of the finished game into out[:N_RESULT_COLS]: R_*, then SEAT_COLS per seat slot (an
    empty seat's 0)."""
    st = game.st
    out[R_WINNER] = st[ST_WINNER]
    out[R_TURNS] = st[ST_TURN]
    out[R_ROLLS] = st[ST_ROLLS]
    out[R_SEVENS] = st[ST_SEVENS]
    out[R_CAPPED] = st[ST_CAPPED]
    out[R_CLOTH_END] = st[ST_CLOTH_END]
    supply = board.supply
    for seat in range(MAX_SEATS):
        base = N_GAME_COLS + seat * N_SEAT_COLS
        for k in range(N_SEAT_COLS):
            out[base + k] = 0
        if seat >= board.params[P_PLAYERS]:
            continue
        total = 0
        for k in range(N_VP_SOURCES):
            v = vp_source(board, game, seat, k)
            out[base + _VP_COL[k]] = v
            total += v
        out[base] = total
        out[base + _CLOTH_COL] = game.cloth[seat]
        out[base + 7] = supply[PIECE_ROAD] - game.pieces_left[seat, PIECE_ROAD]
        w = wonders.wonder_of(game, seat)
        out[base + 8] = supply[PIECE_SHIP] - game.pieces_left[seat, PIECE_SHIP] - (1 if w >= 0 else 0)  # (a
        # claimed wonder holds one)
        out[base + _WONDER_COL] = w + 1
        out[base + _WONDER_COL + 1] = wonders.stage_of(game, seat)
        out[base + 9] = supply[PIECE_SETTLEMENT] - game.pieces_left[seat, PIECE_SETTLEMENT]  # a city returns its own
        out[base + 10] = supply[PIECE_CITY] - game.pieces_left[seat, PIECE_CITY]
        out[base + 11] = final_route(board, game, seat)
        out[base + 12] = game.knights[seat]
        out[base + 13] = game.trades[seat]
        cards = 0
        for r in range(N_RESOURCES):
            cards += game.hands[seat, r]
        out[base + 14] = cards
        out[base + 15] = game.domestic[seat]
        if fleet.p_fleet(board):
            out[base + _WARSHIPS_COL] = fleet.warships(game, seat)
            out[base + _FORTRESS_COL] = board.params[P_FORT_CHITS] - game.fort[seat, fleet.F_CHITS]


@kernel
def write_result(board, game, out, j, vp):
    """result into out[:, j], the form the game loops call (vp: unused)."""
    result(board, game, out[:, j])


from kernels.catan import fleet, gifts, wonders  # noqa: E402  (the scenarios' rules call back into this module)
