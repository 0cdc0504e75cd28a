"""The pirate (scenarios with a pirate ship) and the pirate fleet of "The Pirate Islands" (numba).

The pirate (seed 002, "E) O pirata"): it stands in a sea hex; the mover steals one resource card
from a player with a ship on one of the hex's 6 sides, and while it is there no ship may be placed
on or removed from those sides (`ship_edge_blocked`). Where a scenario has both pieces, the mover of a
7 or a knight moves one of them (`pirate_or_robber`).

The Pirate Islands (scenario 7), a race model (docs/seafarers/pirates.md): no robber; every roll
first moves the fleet clockwise along its cyclic sea path by the lower die, and the fleet raids the
settlements and cities at the corners of the hex it stops on (`raid`); then a 7 (discards, the
roller steals from anyone: kernels.catan.production.seven without robber) or production. Each seat builds
one ship route from its coastal start settlement to its fortress, buys development cards (knights,
and with 4 players the VP cards, turn the foremost normal ship of the route into a warship) and
attacks its fortress (kernels.catan.fortress.battle_outcome) once the route is complete; after the
conquest it builds cities and settlements towards 10 VP.

Random streams of game g with seed s (common random numbers: the dice and the deck of a game are
the same whatever the plan): dice (s, g, PURPOSE_DICE), the deck's shuffle (s, g, PURPOSE_DECK),
raid and 7 card draws (s, g, PURPOSE_STEAL), the fortress die of seat p (s, 4 g + p, PURPOSE_SIEGE).
"""

from collections import namedtuple

import numpy as np

from kernels.catan import production as kp
from kernels.catan.codes import N_RESOURCES
from kernels.catan.dice import roll_dice, roll_die, roll_pair_index
from kernels.catan.fortress import TIE, WIN, battle_outcome
from kernels.jit import allocating, internal, kernel
from kernels.rng import PURPOSE_DECK, PURPOSE_DICE, PURPOSE_SIEGE, PURPOSE_STEAL, stream_init, uniform_int

MAX_SEATS = 4
# Fortress battles (seed 002 p. 16, as analyzer/seafarers/fortress.SHIPS_LOST): ships lost by a tie and a defeat.
SHIPS_LOST_TIE = 1
SHIPS_LOST_LOSS = 2
GOLD_COL = N_RESOURCES  # site_yield[:, :, GOLD_COL]: gold-field cards to choose

# The pirate and the robber.
PIECE_ROBBER = 0
PIECE_PIRATE = 1

# Raids: who is raided when several players have a building at the fleet's hex.
RAID_EACH = 0  # every one of them (default; the seed's text names one settlement or city)
RAID_SOLE = 1  # nobody unless exactly one player is there (JSettlers2's getPossibleVictims)
RAID_RULES = ("each", "sole")

# Per-seat raid tallies (raid_stats[seat, R_*]).
R_RAIDED = 0  # raids on the seat (pirates stronger, weaker or equal)
R_LOST = 1  # raids the pirates won
R_WON = 2  # raids the seat won
R_CARDS_LOST = 3
R_CARDS_GAINED = 4
N_RAID = 5

# Items a seat buys (rows of `costs`).
ITEM_SHIP = 0
ITEM_CARD = 1
ITEM_SETTLEMENT = 2
ITEM_ROAD = 3
ITEM_CITY = 4
N_ITEMS = 5
ITEM_OUTPOST = 5  # a settlement on the corner of the seat's colour (cost of ITEM_SETTLEMENT)
ITEM_NONE = -1

# Development cards.
DEV_KNIGHT = 0  # with 4 players the VP cards are dealt as knights
DEV_ROADS = 1  # road building: 2 free ships or roads
DEV_PLENTY = 2  # year of plenty: 2 resources of choice
DEV_MONOPOLY = 3  # every opponent's cards of one resource
N_DEV = 4

# Plans (the order of purchases before the conquest; after it every plan builds cities and settlements).
PLAN_SHIPS_FIRST = 0  # save for the route's ships, then development cards
PLAN_CARDS_FIRST = 1  # save for development cards until there are knights enough, then ships
PLAN_ATTACK_AT = 2  # buy whatever is affordable without a trade (ships first), else trade for the nearest
# Parameter vector of a plan.
P_KIND = 0
P_ATTACK = 1  # warships needed to attack
P_OUTPOST = 2  # 1: build the settlement on the colour corner before the conquest
N_PLAN = 3

# Per-seat sites (columns of seat_site): start settlements, colour corner, fortress, expansion sites.
SITE_START = 0  # 3 columns
SITE_COLOUR = 3
SITE_FORTRESS = 4
SITE_EXPANSION = 5
N_SITE_COLS = 7

# Game configuration (cfg[C_*]).
C_PLAYERS = 0
C_PATH = 1  # fleet path length
C_RAID_RULE = 2
C_MAX_ROUNDS = 3
C_FLEET_BLOCKS = 4  # 1: no ship may be built on a side of the fleet's hex
C_VP_TARGET = 5
C_BANK_RATE = 6
C_CHITS = 7
C_MAX_SETTLEMENTS = 8
C_MAX_CITIES = 9
C_MAX_SHIPS = 10
C_DECK = 11  # cards in the deck
N_CFG = 12

# Per-seat columns of a game's result (out[seat * N_SEAT_OUT + O_*]).
O_CONQUER = 0  # round in which the fortress fell (0: never)
O_FINISH = 1  # round in which the seat had its fortress and the VP target (0: never)
O_FIRST_ATTACK = 2  # round of the first attack (0: never)
O_WARSHIPS_AT_ATTACK = 3  # warships at the first attack
O_BATTLES = 4
O_BATTLES_WON = 5
O_RAIDED = 6
O_RAIDS_LOST = 7
O_RAIDS_WON = 8
O_RAID_CARDS_LOST = 9
O_RAID_CARDS_GAINED = 10
O_SHIPS_BUILT = 11
O_SHIPS_LOST = 12
O_CARDS_BOUGHT = 13
O_KNIGHTS = 14  # knights played (warships made)
O_VP = 15  # VP at the end
O_RECEIVED = 16  # production cards (gold picks included)
O_DISCARDED = 17
O_ROBBED = 18  # cards the 7's roller stole from the seat
O_STOLE = 19
O_TRADES = 20  # 4:1 bank trades
O_MIN_CARDS = 21  # fewest cards of one resource ever held (an invariant: never below 0)
N_SEAT_OUT = 22
SEAT_OUT_NAMES = ("conquer_round", "finish_round", "first_attack_round", "warships_at_attack", "battles",
                  "battles_won", "raided", "raids_lost", "raids_won", "raid_cards_lost", "raid_cards_gained",
                  "ships_built", "ships_lost", "cards_bought", "knights_played", "vp", "cards_received",
                  "discarded", "robbed", "stole", "trades", "min_cards")
# Game columns after the seats: out[MAX_SEATS * N_SEAT_OUT + G_*]; then the fleet's landings per path index.
G_WINNER = 0  # first seat to finish, -1 none
G_WIN_ROUND = 1
G_ROUNDS = 2  # rounds played
G_ROLLS = 3
G_FLEET_ROLLS = 4  # rolls that moved the fleet (it leaves when every fortress has fallen)
N_GAME_OUT = 5
GAME_OUT_NAMES = ("winner", "win_round", "rounds", "rolls", "fleet_rolls")
GAME_BASE = MAX_SEATS * N_SEAT_OUT
LANDINGS = GAME_BASE + N_GAME_OUT

# Per-seat state (seat[p, S_*]).
S_SHIPS = 0  # ships on the route, from the start settlement forward
S_WARSHIPS = 1
S_CHITS = 2  # chits left under the fortress
S_CONQUERED = 3
S_FINISHED = 4
S_ROADS = 5  # roads built towards the next expansion site
S_NEXT_EXPANSION = 6  # expansion sites settled so far
N_STATE = 7


# --------------------------------------------------------------------------- the pirate

@kernel
def ship_edge_blocked(edge, pirate_hex, edge_hexes):
    """True when `edge` is one of the 6 sides of the pirate's hex: no ship may be placed there or
    removed from there. pirate_hex -1: no pirate on the board."""
    return pirate_hex >= 0 and (edge_hexes[edge, 0] == pirate_hex or edge_hexes[edge, 1] == pirate_hex)


@kernel
def can_place_ship(edge, pirate_hex, edge_sea_or_coast, edge_occupied, edge_hexes):
    """A ship may go on a free sea or coastal edge that is not a side of the pirate's hex (the
    connection to the player's network is the caller's business)."""
    return edge_sea_or_coast[edge] and not edge_occupied[edge] and not ship_edge_blocked(edge, pirate_hex,
                                                                                          edge_hexes)


@internal
def hand_total(hands, p):
    return kp.hand_size(hands, p)


@internal
def take_random_card(hands, p, stream):
    """Remove one uniformly random card from seat p's non-empty hand; returns its resource."""
    k = uniform_int(stream, hand_total(hands, p))
    r = 0
    while k >= hands[p, r]:
        k -= hands[p, r]
        r += 1
    hands[p, r] -= 1
    return r


@kernel
def pirate_victim(roller, pirate_hex, hex_edges, edge_ship_owner, hands):
    """The opponent the pirate robs: among those with a ship on a side of its hex and a card, the
    one with most cards (ties: lowest seat), as the robber in kernels.catan.production.seven; -1 none."""
    victim = -1
    most = 0
    for d in range(6):
        e = hex_edges[pirate_hex, d]
        q = edge_ship_owner[e] if e >= 0 else -1
        if q >= 0 and q != roller:
            n = hand_total(hands, q)
            if n > most or (n == most and n > 0 and q < victim):
                most = n
                victim = q
    return victim


@kernel
def pirate_steal(roller, pirate_hex, hex_edges, edge_ship_owner, hands, stream):
    """The pirate arrives: the roller takes one random card from pirate_victim; returns the victim (-1)."""
    victim = pirate_victim(roller, pirate_hex, hex_edges, edge_ship_owner, hands)
    if victim >= 0:
        hands[roller, take_random_card(hands, victim, stream)] += 1
    return victim


@kernel
def choose_pirate_hex(roller, current, hex_sea, hex_edges, edge_ship_owner, hands):
    """Where the roller puts the pirate: a sea hex other than its current one, ranked by the largest
    hand it can rob, then the opponents' ships it blocks, then the fewest own ships blocked, then the
    lowest index; -1 if there is no other sea hex."""
    best = -1
    k0 = k1 = k2 = 0
    for h in range(hex_sea.shape[0]):
        if not hex_sea[h] or h == current:
            continue
        victim = pirate_victim(roller, h, hex_edges, edge_ship_owner, hands)
        robbed = hand_total(hands, victim) if victim >= 0 else 0
        theirs = 0
        own = 0
        for d in range(6):
            e = hex_edges[h, d]
            q = edge_ship_owner[e] if e >= 0 else -1
            if q == roller:
                own += 1
            elif q >= 0:
                theirs += 1
        if best < 0 or robbed > k0 or (robbed == k0 and (theirs > k1 or (theirs == k1 and -own > k2))):
            best = h
            k0 = robbed
            k1 = theirs
            k2 = -own
    return best


@internal
def robber_victim_hand(roller, robber_hex, touch, hands):
    """Cards of the opponent the robber on robber_hex would rob (the largest hand there), 0 none."""
    most = 0
    for q in range(hands.shape[0]):
        if q != roller and touch[robber_hex, q] > 0:
            most = max(most, hand_total(hands, q))
    return most


@kernel
def pirate_or_robber(roller, robber_hex, pirate_hex, touch, hex_edges, edge_ship_owner, hands):
    """Which piece the mover of a 7 or a knight moves where the scenario has both: the pirate when its
    best hex (choose_pirate_hex) robs a larger hand than the robber's planned hex (robber_hex, e.g.
    kernels.catan.production.robber_plan) would, else the robber (ties: robber, the base-game piece)."""
    on_robber = robber_victim_hand(roller, robber_hex, touch, hands) if robber_hex >= 0 else -1
    v = pirate_victim(roller, pirate_hex, hex_edges, edge_ship_owner, hands) if pirate_hex >= 0 else -1
    on_pirate = hand_total(hands, v) if v >= 0 else (0 if pirate_hex >= 0 else -1)
    return PIECE_PIRATE if on_pirate > on_robber else PIECE_ROBBER


# --------------------------------------------------------------------------- the fleet and its raids

@internal
def fleet_step(position, low, path_len):
    """The fleet moves clockwise by the lower die (either die on doubles)."""
    return (position + low) % path_len


@kernel
def raid(position, strength, path_sites, site_owner, building, warships, cities, rule, choice, hands, raid_stats,
         stream):
    """The fleet stops on path hex `position` and attacks with `strength` (the lower die) each player
    with a settlement or city at that hex's corners (RAID_SOLE: only a lone player), in seat order:
    pirates stronger than the player's warships: the player loses 1 + cities[p] cards (as many as
    held), drawn blind, back to the bank; weaker: the player takes 1 card of choice[p]; equal:
    nothing. path_sites[position]: site ids at the hex, -1 padded. Returns the number of players raided."""
    victims = 0
    mask = 0
    for k in range(path_sites.shape[1]):
        s = path_sites[position, k]
        if s >= 0 and building[s] > 0 and (mask >> site_owner[s]) & 1 == 0:
            mask |= 1 << site_owner[s]
            victims += 1
    if victims == 0 or (rule == RAID_SOLE and victims > 1):
        return 0
    for p in range(hands.shape[0]):
        if (mask >> p) & 1 == 0:
            continue
        raid_stats[p, R_RAIDED] += 1
        if strength > warships[p]:
            raid_stats[p, R_LOST] += 1
            for _ in range(min(1 + cities[p], hand_total(hands, p))):
                take_random_card(hands, p, stream)
                raid_stats[p, R_CARDS_LOST] += 1
        elif warships[p] > strength:
            raid_stats[p, R_WON] += 1
            hands[p, choice[p]] += 1
            raid_stats[p, R_CARDS_GAINED] += 1
    return victims


@allocating
def fleet_landings(seed, n_rolls, path_len, start, out):
    """Sequences start .. start + out.shape[1] - 1 of n_rolls fleet moves from path index 0:
    out[i, j] counts the stops on index i (dice stream (seed, sequence, PURPOSE_DICE))."""
    stream = np.zeros(2, np.uint64)
    for j in range(out.shape[1]):
        stream_init(stream, seed, start + j, PURPOSE_DICE)
        for i in range(path_len):
            out[i, j] = 0
        pos = 0
        for _ in range(n_rolls):
            _s, low = roll_dice(stream)
            pos = fleet_step(pos, low, path_len)
            out[pos, j] += 1


# --------------------------------------------------------------------------- the race: data

# What never changes during a game (built by analyzer/seafarers/pirates.py; all int64 arrays).
Board = namedtuple("Board", [
    "cfg",  # [N_CFG] C_*
    "plan",  # [N_PLAN] P_*
    "path_hex",  # [L] fleet path hexes, index 0 = the start
    "path_sites",  # [L, K] sites at the corners of each path hex, -1 padded
    "edge_hexes",  # [n_edge, 2] (scenario topology)
    "site_owner",  # [S] seat of each site
    "site_yield",  # [S, 13, 6] cards of a settlement there per sum: 5 resources, then gold
    "site_pips",  # [S]
    "site_roads",  # [S] roads an expansion site needs
    "seat_site",  # [P, N_SITE_COLS] the seat's sites by SITE_* column, -1 none
    "route_len",  # [P] ships of the seat's route
    "route_edges",  # [P, max route] route edges from the start settlement forward
    "colour_index",  # [P] ships that reach the corner of the seat's colour
    "start_hands",  # [P, 5]
    "deck_base",  # [deck] DEV_* codes before the shuffle
    "costs",  # [N_ITEMS, 5]
])

# One game's changing state (scratch, allocated once per chunk of games by new_state).
State = namedtuple("State", [
    "hands",  # int32 [P, 5] (kernels.catan.production's hands)
    "tallies",  # [P, production.N_TALLY] (kernels.catan.production's tallies)
    "raid_stats",  # [P, N_RAID]
    "seat",  # [P, N_STATE] S_*
    "route",  # [P, max route] 1: warship, per ship from the start
    "held",  # [P, N_DEV] development cards that may be played
    "fresh",  # [P, N_DEV] bought this turn
    "building",  # [S] 0 none, 1 settlement, 2 city
    "income",  # [P, 13, 6] cards per sum from the seat's buildings
    "deck",  # [deck] the shuffled deck
    "game",  # [N_GAME_STATE] G_* scalars
    "streams",  # uint64 [3 + P, 2]: dice, steal, deck, then each seat's fortress die
    "items",  # [4] the shopping list
    "item_costs",  # [4, 5] its costs
    "warships",  # [P] scratch for raids
    "cities",  # [P]
    "choice",  # [P]
    "no_plan",  # int32 [1, 2]: kernels.catan.production.seven's robber plan, unused without a robber
    "no_touch",  # int32 [1, P]
])
G_FLEET = 0  # fleet position on its path
G_FLEET_HEX = 1  # its hex, -1 when it has left
G_DECK_POS = 2  # cards bought from the deck
N_GAME_STATE = 3
STREAM_DICE = 0
STREAM_STEAL = 1
STREAM_DECK = 2
STREAM_BATTLE = 3  # + seat


@allocating
def new_state(board):
    cfg = board.cfg
    players = cfg[C_PLAYERS]
    n_sites = board.site_owner.shape[0]
    return State(np.zeros((players, N_RESOURCES), np.int32), np.zeros((players, kp.N_TALLY), np.int64),
                 np.zeros((players, N_RAID), np.int64), np.zeros((players, N_STATE), np.int64),
                 np.zeros((players, board.route_edges.shape[1]), np.int64), np.zeros((players, N_DEV), np.int64),
                 np.zeros((players, N_DEV), np.int64), np.zeros(n_sites, np.int64),
                 np.zeros((players, 13, N_RESOURCES + 1), np.int64), np.zeros(board.deck_base.shape[0], np.int64),
                 np.zeros(N_GAME_STATE, np.int64), np.zeros((STREAM_BATTLE + players, 2), np.uint64),
                 np.zeros(4, np.int64), np.zeros((4, N_RESOURCES), np.int64), np.zeros(players, np.int64),
                 np.zeros(players, np.int64), np.zeros(players, np.int64), np.zeros((1, 2), np.int32),
                 np.zeros((1, players), np.int32))


# --------------------------------------------------------------------------- the race: purchases

@internal
def trades_to_afford(hands, p, cost, rate):
    """Bank trades (rate cards of one resource for 1 of another) needed to pay `cost`; -1 if impossible."""
    short = 0
    spare = 0
    for r in range(N_RESOURCES):
        d = cost[r] - hands[p, r]
        if d > 0:
            short += d
        else:
            spare += (-d) // rate
    return short if short <= spare else -1


@internal
def pay(hands, p, cost, rate):
    """Trade with the bank as trades_to_afford says (giving the resource with most to spare each
    time; ties: the lowest index), then pay cost. Returns the trades made."""
    trades = 0
    for r in range(N_RESOURCES):
        while hands[p, r] < cost[r]:
            give = -1
            for q in range(N_RESOURCES):
                if hands[p, q] - cost[q] >= rate and (give < 0 or hands[p, q] - cost[q] > hands[p, give] - cost[give]):
                    give = q
            hands[p, give] -= rate
            hands[p, r] += 1
            trades += 1
    for r in range(N_RESOURCES):
        hands[p, r] -= cost[r]
    return trades


@internal
def wanted_resource(hands, p, cost):
    """The resource a seat picks (gold, a won raid, year of plenty, monopoly): the largest shortfall
    for `cost` (its next purchase), else the one it holds fewest of; ties: the lowest index."""
    best = 0
    gap = cost[0] - hands[p, 0]
    for r in range(1, N_RESOURCES):
        if cost[r] - hands[p, r] > gap:
            gap = cost[r] - hands[p, r]
            best = r
    return best if gap > 0 else kp.gold_pick(hands, p, kp.GOLD_POOREST)


@kernel
def add_building(board, st, site, delta):
    """building[site] += delta, and its owner's income per sum with it."""
    st.building[site] += delta
    p = board.site_owner[site]
    for s in range(13):
        for r in range(N_RESOURCES + 1):
            st.income[p, s, r] += delta * board.site_yield[site, s, r]


@internal
def count_buildings(board, st, p, level):
    n = 0
    for k in range(N_SITE_COLS):
        s = board.seat_site[p, k]
        if s >= 0 and st.building[s] == level:
            n += 1
    return n


@kernel
def settlements_in_use(board, st, p):
    """Settlement pieces of seat p's supply (cfg C_MAX_SETTLEMENTS) not available for building: those on
    the board, and until the conquest the one topping its fortress ("Cada fortaleza pirata é composta
    por 3 fichas Catan ... e de uma aldeia (da cor indicada)"; on the conquest that piece becomes the
    seat's settlement there, still on the board). A city returns its settlement to the supply."""
    n = count_buildings(board, st, p, 1)
    if st.seat[p, S_CONQUERED] == 0 and board.seat_site[p, SITE_FORTRESS] >= 0:
        n += 1
    return n


@internal
def victory_points(board, st, p):
    vp = 0
    for k in range(N_SITE_COLS):
        s = board.seat_site[p, k]
        if s >= 0:
            vp += st.building[s]
    return vp


@internal
def settlement_site(board, st, p):
    """Where seat p's next settlement goes (not before the conquest): the colour corner, else the next
    expansion site; -1 when none is left."""
    colour = board.seat_site[p, SITE_COLOUR]
    if colour >= 0 and st.building[colour] == 0 and st.seat[p, S_SHIPS] >= board.colour_index[p]:
        return colour
    k = SITE_EXPANSION + st.seat[p, S_NEXT_EXPANSION]
    return board.seat_site[p, k] if k < N_SITE_COLS else -1


@internal
def city_site(board, st, p):
    """The seat's settlement with most pips (ties: first column), -1 none."""
    best = -1
    for k in range(N_SITE_COLS):
        s = board.seat_site[p, k]
        if s >= 0 and st.building[s] == 1 and (best < 0 or board.site_pips[s] > board.site_pips[best]):
            best = s
    return best


@internal
def deck_left(board, st):
    return board.cfg[C_DECK] - st.game[G_DECK_POS]


@internal
def knights_to_come(board, st, p):
    """Knights the seat holds or may still buy."""
    return st.held[p, DEV_KNIGHT] + st.fresh[p, DEV_KNIGHT] + deck_left(board, st)


@internal
def item_cost(board, st, p, item, cost):
    """Is `item` on seat p's wish list now? If so its cost goes into `cost` (5 resources)."""
    cfg = board.cfg
    for r in range(N_RESOURCES):
        cost[r] = 0
    if item == ITEM_SHIP:
        n = st.seat[p, S_SHIPS]
        if n >= board.route_len[p] or n >= cfg[C_MAX_SHIPS]:
            return False
        if cfg[C_FLEET_BLOCKS] == 1 and ship_edge_blocked(board.route_edges[p, n], st.game[G_FLEET_HEX],
                                                          board.edge_hexes):
            return False
    elif item == ITEM_CARD:
        if deck_left(board, st) == 0 or (st.seat[p, S_WARSHIPS] + st.held[p, DEV_KNIGHT] + st.fresh[p, DEV_KNIGHT]
                                         >= board.plan[P_ATTACK]):
            return False
    elif item == ITEM_OUTPOST:
        colour = board.seat_site[p, SITE_COLOUR]
        if board.plan[P_OUTPOST] == 0 or colour < 0 or st.building[colour] != 0 \
                or st.seat[p, S_SHIPS] < board.colour_index[p] \
                or settlements_in_use(board, st, p) >= cfg[C_MAX_SETTLEMENTS]:
            return False
        item = ITEM_SETTLEMENT
    elif item == ITEM_CITY:
        if count_buildings(board, st, p, 2) >= cfg[C_MAX_CITIES] or city_site(board, st, p) < 0:
            return False
    elif item == ITEM_SETTLEMENT:
        s = settlement_site(board, st, p)
        if s < 0 or settlements_in_use(board, st, p) >= cfg[C_MAX_SETTLEMENTS]:
            return False
        roads = max(board.site_roads[s] - st.seat[p, S_ROADS], 0)
        for r in range(N_RESOURCES):
            cost[r] = roads * board.costs[ITEM_ROAD, r]
    for r in range(N_RESOURCES):
        cost[r] += board.costs[item, r]
    return True


@kernel
def shopping_list(board, st, p):
    """Seat p's wanted items now, in priority order, into st.items / st.item_costs; returns their
    number and whether the seat saves for the first one (strict).

    Before its conquest a seat wants its plan's items: cards-first [card, ship, outpost], the others
    [ship, card, outpost]; ships-first and cards-first are strict. After the conquest, or before it
    when no plan item is wanted any more (nothing left to do for the fortress), [city, settlement],
    never strict."""
    n = 0
    if st.seat[p, S_CONQUERED] == 0:
        cards_first = board.plan[P_KIND] == PLAN_CARDS_FIRST
        for item in (ITEM_CARD if cards_first else ITEM_SHIP, ITEM_SHIP if cards_first else ITEM_CARD,
                     ITEM_OUTPOST):
            if item_cost(board, st, p, item, st.item_costs[n]):
                st.items[n] = item
                n += 1
        if n > 0:
            return n, board.plan[P_KIND] != PLAN_ATTACK_AT
    for item in (ITEM_CITY, ITEM_SETTLEMENT):
        if item_cost(board, st, p, item, st.item_costs[n]):
            st.items[n] = item
            n += 1
    return n, False


@internal
def next_purchase(board, st, p):
    """Index into the shopping list of what seat p buys next, -1 to stop buying this turn.

    A strict seat buys its first item when bank trades make it affordable, else nothing (it saves).
    Otherwise the first item affordable without trading, else the one needing the fewest trades
    (ties: list order)."""
    n, strict = shopping_list(board, st, p)
    best = -1
    best_trades = 1 << 30
    for k in range(n):
        t = trades_to_afford(st.hands, p, st.item_costs[k], board.cfg[C_BANK_RATE])
        if strict:
            return k if t >= 0 else -1
        if t >= 0 and t < best_trades:
            best = k
            best_trades = t
            if t == 0:
                break
    return best


@internal
def pick_resource(board, st, p):
    """The resource seat p takes when it may choose one: wanted_resource for its next wanted item."""
    n, _strict = shopping_list(board, st, p)
    if n == 0:
        for r in range(N_RESOURCES):
            st.item_costs[0, r] = 0
    return wanted_resource(st.hands, p, st.item_costs[0])


@internal
def buy(board, st, p, k, out):
    """Seat p pays (bank trades included) for item k of its shopping list and places it."""
    o = p * N_SEAT_OUT
    item = st.items[k]
    out[o + O_TRADES] += pay(st.hands, p, st.item_costs[k], board.cfg[C_BANK_RATE])
    if item == ITEM_SHIP:
        st.seat[p, S_SHIPS] += 1
        out[o + O_SHIPS_BUILT] += 1
    elif item == ITEM_CARD:
        st.fresh[p, st.deck[st.game[G_DECK_POS]]] += 1
        st.game[G_DECK_POS] += 1
        out[o + O_CARDS_BOUGHT] += 1
    elif item == ITEM_OUTPOST:
        add_building(board, st, board.seat_site[p, SITE_COLOUR], 1)
    elif item == ITEM_CITY:
        add_building(board, st, city_site(board, st, p), 1)
    else:  # ITEM_SETTLEMENT
        site = settlement_site(board, st, p)
        add_building(board, st, site, 1)
        if site != board.seat_site[p, SITE_COLOUR]:
            st.seat[p, S_ROADS] = 0
            st.seat[p, S_NEXT_EXPANSION] += 1


# --------------------------------------------------------------------------- the race: ships and cards

@internal
def lose_foremost_ship(st, p):
    """The foremost ship of the route sinks; returns 1 if it was a warship."""
    n = st.seat[p, S_SHIPS] - 1
    st.seat[p, S_SHIPS] = n
    was = st.route[p, n]
    st.route[p, n] = 0
    st.seat[p, S_WARSHIPS] -= was
    return was


@internal
def make_warship(st, p):
    """A knight turns the foremost normal ship into a warship; False if every ship is one already."""
    for i in range(st.seat[p, S_SHIPS] - 1, -1, -1):
        if st.route[p, i] == 0:
            st.route[p, i] = 1
            st.seat[p, S_WARSHIPS] += 1
            return True
    return False


@internal
def play_card(board, st, p, out):
    """At most one development card a turn, bought on an earlier turn: a knight when the route has a
    normal ship; else road building when it builds something (ships of the route before the
    conquest, roads to the next settlement after), else year of plenty, else monopoly."""
    o = p * N_SEAT_OUT
    held = st.held
    if held[p, DEV_KNIGHT] > 0 and make_warship(st, p):
        held[p, DEV_KNIGHT] -= 1
        out[o + O_KNIGHTS] += 1
        return
    if held[p, DEV_ROADS] > 0:
        built = 0
        if st.seat[p, S_CONQUERED] == 0:
            for _ in range(2):
                if item_cost(board, st, p, ITEM_SHIP, st.item_costs[0]):
                    st.seat[p, S_SHIPS] += 1
                    out[o + O_SHIPS_BUILT] += 1
                    built += 1
        else:
            site = settlement_site(board, st, p)
            if site >= 0:
                built = min(2, max(board.site_roads[site] - st.seat[p, S_ROADS], 0))
                st.seat[p, S_ROADS] += built
        if built > 0:
            held[p, DEV_ROADS] -= 1
            return
    if held[p, DEV_PLENTY] > 0:
        for _ in range(2):
            st.hands[p, pick_resource(board, st, p)] += 1
        held[p, DEV_PLENTY] -= 1
        return
    if held[p, DEV_MONOPOLY] > 0:
        r = pick_resource(board, st, p)
        for q in range(st.hands.shape[0]):
            if q != p:
                st.hands[p, r] += st.hands[q, r]
                st.hands[q, r] = 0
        held[p, DEV_MONOPOLY] -= 1


@internal
def attack(board, st, p, rnd, out):
    """One battle of seat p against its fortress (it ends the turn): warships > the fortress's die:
    a chit falls (the last one: conquered, the fortress becomes the seat's settlement); equal: the
    foremost ship sinks; fewer: the two foremost."""
    o = p * N_SEAT_OUT
    w = st.seat[p, S_WARSHIPS]
    if out[o + O_FIRST_ATTACK] == 0:
        out[o + O_FIRST_ATTACK] = rnd
        out[o + O_WARSHIPS_AT_ATTACK] = w
    out[o + O_BATTLES] += 1
    outcome = battle_outcome(w, roll_die(st.streams[STREAM_BATTLE + p]))
    if outcome == WIN:
        out[o + O_BATTLES_WON] += 1
        st.seat[p, S_CHITS] -= 1
        if st.seat[p, S_CHITS] == 0:
            st.seat[p, S_CONQUERED] = 1
            out[o + O_CONQUER] = rnd
            add_building(board, st, board.seat_site[p, SITE_FORTRESS], 1)
        return
    for _ in range(SHIPS_LOST_TIE if outcome == TIE else SHIPS_LOST_LOSS):
        lose_foremost_ship(st, p)
        out[o + O_SHIPS_LOST] += 1


@internal
def wants_to_attack(board, st, p):
    """The route is complete and the seat has its plan's warships, or at least 2 when no knight can
    come any more."""
    if st.seat[p, S_CONQUERED] == 1 or st.seat[p, S_SHIPS] < board.route_len[p]:
        return False
    w = st.seat[p, S_WARSHIPS]
    return w >= board.plan[P_ATTACK] or (w >= 2 and knights_to_come(board, st, p) == 0)


# --------------------------------------------------------------------------- the race: a game

@kernel
def start_game(board, st, seed, game, out):
    cfg = board.cfg
    players = cfg[C_PLAYERS]
    streams = st.streams
    stream_init(streams[STREAM_DICE], seed, game, PURPOSE_DICE)
    stream_init(streams[STREAM_STEAL], seed, game, PURPOSE_STEAL)
    stream_init(streams[STREAM_DECK], seed, game, PURPOSE_DECK)
    deck = st.deck
    for i in range(cfg[C_DECK]):
        deck[i] = board.deck_base[i]
    for i in range(cfg[C_DECK] - 1, 0, -1):  # Fisher-Yates
        j = uniform_int(streams[STREAM_DECK], i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for k in range(out.shape[0]):
        out[k] = 0
    st.income[:] = 0
    st.building[:] = 0
    st.route[:] = 0
    st.held[:] = 0
    st.fresh[:] = 0
    st.tallies[:] = 0
    st.raid_stats[:] = 0
    st.seat[:] = 0
    st.game[G_FLEET] = 0
    st.game[G_FLEET_HEX] = board.path_hex[0]
    st.game[G_DECK_POS] = 0
    for p in range(players):
        stream_init(streams[STREAM_BATTLE + p], seed, MAX_SEATS * game + p, PURPOSE_SIEGE)
        for r in range(N_RESOURCES):
            st.hands[p, r] = board.start_hands[p, r]
        st.seat[p, S_SHIPS] = 1  # the pre-placed ship
        st.seat[p, S_CHITS] = cfg[C_CHITS]
        for k in range(SITE_START, SITE_START + 3):
            if board.seat_site[p, k] >= 0:
                add_building(board, st, board.seat_site[p, k], 1)
        out[p * N_SEAT_OUT + O_MIN_CARDS] = 1 << 30


@internal
def fleet_moves(board, st, low, out):
    """The fleet's move and raid of a roll, before production or the 7."""
    players = board.cfg[C_PLAYERS]
    pos = fleet_step(st.game[G_FLEET], low, board.cfg[C_PATH])
    st.game[G_FLEET] = pos
    st.game[G_FLEET_HEX] = board.path_hex[pos]
    out[LANDINGS + pos] += 1
    for q in range(players):
        st.warships[q] = st.seat[q, S_WARSHIPS]
        st.cities[q] = -1  # not there: no need to know
    for k in range(board.path_sites.shape[1]):  # the choices of the seats at the hex (only a winner uses one)
        q = board.site_owner[board.path_sites[pos, k]] if board.path_sites[pos, k] >= 0 else -1
        if q >= 0 and st.cities[q] < 0:
            st.cities[q] = count_buildings(board, st, q, 2)
            st.choice[q] = pick_resource(board, st, q) if st.warships[q] > low else 0
    raid(pos, low, board.path_sites, board.site_owner, st.building, st.warships, st.cities, board.cfg[C_RAID_RULE],
         st.choice, st.hands, st.raid_stats, st.streams[STREAM_STEAL])


@internal
def produce(board, st, s):
    """Every seat's cards for the sum s (not 7); gold: the resource each seat needs most."""
    for q in range(board.cfg[C_PLAYERS]):
        for r in range(N_RESOURCES):
            st.hands[q, r] += st.income[q, s, r]
            st.tallies[q, kp.T_RECEIVED + r] += st.income[q, s, r]
        for _ in range(st.income[q, s, GOLD_COL]):
            r = pick_resource(board, st, q)
            st.hands[q, r] += 1
            st.tallies[q, kp.T_RECEIVED + r] += 1


@internal
def act(board, st, p, rnd, out):
    """Seat p's actions after its roll: one development card, purchases, an attack (ends the turn)."""
    play_card(board, st, p, out)
    while True:
        k = next_purchase(board, st, p)
        if k < 0:
            break
        buy(board, st, p, k, out)
    if wants_to_attack(board, st, p):
        attack(board, st, p, rnd, out)
    for k in range(N_DEV):
        st.held[p, k] += st.fresh[p, k]
        st.fresh[p, k] = 0


@internal
def play_race(board, st, seed, game, out, trace):
    """Play race game `game` and write its columns into `out` (O_*, G_*, landings; module docstring).
    trace[i] gets the pair index 6 (d1 - 1) + (d2 - 1) of roll i while i < len(trace)."""
    cfg = board.cfg
    players = cfg[C_PLAYERS]
    start_game(board, st, seed, game, out)
    forts_left = players
    winner = -1
    win_round = 0
    rolls = 0
    fleet_rolls = 0
    rounds = 0
    for rnd in range(1, cfg[C_MAX_ROUNDS] + 1):
        rounds = rnd
        for p in range(players):
            pair = roll_pair_index(st.streams[STREAM_DICE])  # as kernels.catan.dice.roll_dice, keeping the pair
            s = pair // 6 + pair % 6 + 2
            low = min(pair // 6, pair % 6) + 1
            if rolls < trace.shape[0]:
                trace[rolls] = pair
            rolls += 1
            if forts_left > 0:
                fleet_moves(board, st, low, out)
                fleet_rolls += 1
            if s == 7:
                kp.seven(p, -1, st.no_plan, st.no_touch, st.hands, st.tallies, st.streams[STREAM_STEAL])
            else:
                produce(board, st, s)
            if st.seat[p, S_FINISHED] == 0:
                conquered = st.seat[p, S_CONQUERED]
                act(board, st, p, rnd, out)
                if st.seat[p, S_CONQUERED] > conquered:
                    forts_left -= 1
                    if forts_left == 0:  # "retira-se de jogo a frota pirata"
                        st.game[G_FLEET_HEX] = -1
                if st.seat[p, S_CONQUERED] == 1 and victory_points(board, st, p) >= cfg[C_VP_TARGET]:
                    st.seat[p, S_FINISHED] = 1
                    out[p * N_SEAT_OUT + O_FINISH] = rnd
                    if winner < 0:
                        winner = p
                        win_round = rnd
            for q in range(players):
                for r in range(N_RESOURCES):
                    if st.hands[q, r] < out[q * N_SEAT_OUT + O_MIN_CARDS]:
                        out[q * N_SEAT_OUT + O_MIN_CARDS] = st.hands[q, r]
        finished = 0
        for p in range(players):
            finished += st.seat[p, S_FINISHED]
        if finished == players:
            break
    for p in range(players):
        o = p * N_SEAT_OUT
        out[o + O_VP] = victory_points(board, st, p)
        out[o + O_RAIDED] = st.raid_stats[p, R_RAIDED]
        out[o + O_RAIDS_LOST] = st.raid_stats[p, R_LOST]
        out[o + O_RAIDS_WON] = st.raid_stats[p, R_WON]
        out[o + O_RAID_CARDS_LOST] = st.raid_stats[p, R_CARDS_LOST]
        out[o + O_RAID_CARDS_GAINED] = st.raid_stats[p, R_CARDS_GAINED]
        received = 0
        for r in range(N_RESOURCES):
            received += st.tallies[p, kp.T_RECEIVED + r]
        out[o + O_RECEIVED] = received
        out[o + O_DISCARDED] = st.tallies[p, kp.T_DISCARDED]
        out[o + O_ROBBED] = st.tallies[p, kp.T_ROBBED]
        out[o + O_STOLE] = st.tallies[p, kp.T_STOLE]
    out[GAME_BASE + G_WINNER] = winner
    out[GAME_BASE + G_WIN_ROUND] = win_round
    out[GAME_BASE + G_ROUNDS] = rounds
    out[GAME_BASE + G_ROLLS] = rolls
    out[GAME_BASE + G_FLEET_ROLLS] = fleet_rolls


def n_out(path_len):
    """Columns of one game's result: MAX_SEATS seat blocks, the game columns, the fleet's landings."""
    return LANDINGS + path_len


@allocating
def race_range(board, seed, start, out, trace):
    """Games start .. start + out.shape[1] - 1: out[:, j] gets the n_out columns of game start + j;
    trace (int64, may be empty) the first roll pairs of the last game."""
    st = new_state(board)
    col = np.zeros(out.shape[0], np.int64)
    for j in range(out.shape[1]):
        play_race(board, st, seed, start + j, col, trace)
        for k in range(out.shape[0]):
            out[k, j] = col[k]
