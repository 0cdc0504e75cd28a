"""Beacon Patrol game kernel (numba, nopython, nogil).

The rules follow seed 000 (the official rulebook); docs/beacon_engine.md states the
canonical action order and every default where the rulebook is silent.

Data layout
-----------
tt     : int32[n, TT_COLS] tile table, one row per tile (columns TT_* below); one array
         rather than a tuple because numba pays a reference count per tuple member on
         every call, which made small helpers 25x slower
cfg    : int64 array, indices CFG_* below (players, hand size, tokens, points, ranks ...)
board  : int16[G*G, 2] per cell (row-major, the HQ at the centre): the tile id (-1 empty)
         and a bit field of the placed neighbours and their facing edges, kept up to date
         by put_tile/lift_tile, so that "does tile t fit here" is one mask test
game   : per-game state arrays bundled in a tuple by `new_workspace`: those of the
         policy tier it is made for (a smaller tuple type compiles faster)

A game is played by `play_game`; `simulate_range` plays a contiguous range of game
indices into `out` (one column per game); Python calls it as `simulate_range_of(tier)`,
compiled for the policies the seats use (see choose_action). Each game draws from its own streams
(kernels.rng), so results do not depend on how games are split into chunks.
Sections: board, scoring, actions, policies (random, greedy, lookahead, rollout and
oracle; docs/beacon_policies.md), games.
"""

import numpy as np

from kernels.jit import allocating, inline, internal, kernel
from kernels.rng import PURPOSE_DECK, PURPOSE_POLICY, next_u64, stream_init, uniform_int

# Tile features (column `feature` of a tile-set CSV).
FEATURE_NONE = 0
FEATURE_LIGHTHOUSE = 1
FEATURE_BUOY = 2
FEATURE_HQ = 3
FEATURE_WINDMILL = 4
FEATURE_PIER = 5
FEATURE_NAMES = ("none", "lighthouse", "buoy", "hq", "windmill", "pier")

# Directions, in this order everywhere: north, east, south, west.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

# Land masses per tile are letters A..Z -> index 0..25.
MAX_MASSES = 26
MAX_PLAYERS = 4
MAX_HAND = 3

# Action kinds; an action is (kind, a, b, c).
ACT_MOVE = 0  # (0, dir)             spend a movement token
ACT_PLACE = 1  # (1, slot, dir)      place hand tile on the cell next to the ship
ACT_DISCARD_MOVE = 2  # (2, slot, dir)  discard a hand tile to move one step
ACT_TRADE = 3  # (3, slot, partner, partner_slot)
ACT_END = 4  # (4, keep_slot)       end turn; keep_slot -1 or the solo keep
# room for the most legal actions and the spare row legal_actions writes past them: 47 under the
# rules (3 players: 12 placements, 4 moves, 12 discard-moves, 18 trades, end), 56 if four players
# held MAX_HAND tiles
MAX_ACTIONS = 64
ACTION_NAMES = ("move", "place", "discard_move", "trade", "end_turn")

# cfg indices
CFG_PLAYERS = 0
CFG_HAND = 1
CFG_TOKENS = 2
CFG_PTS_LIGHTHOUSE = 3
CFG_PTS_HQ = 4
CFG_PTS_BUOY = 5
CFG_PTS_OTHER = 6
CFG_PTS_WINDMILL = 7
CFG_PTS_PIER = 8
CFG_RANK0 = 9  # five rank lower bounds, already shifted for expansions
CFG_KEEP_ON_EMPTY_PILE = 14  # rules.toml [options]: 1 = the solo keep also once the draw pile is empty
CFG_SIZE = 15

# Policies (analyzer/beacon/policies.py maps names to these ids).
POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_LOOKAHEAD = 2
POLICY_ROLLOUT = 3
POLICY_ORACLE = 4
N_PARAMS = 16  # length of every policy's parameter vector

# Per-game result columns written by simulate_range.
COL_SCORE = 0
COL_EXPLORED = 1
COL_EXPLORED_LIGHTHOUSE = 2  # the HQ included
COL_EXPLORED_BUOY = 3
COL_EXPLORED_OTHER = 4
COL_EXPLORED_WINDMILL = 5
COL_EXPLORED_PIER = 6
COL_WINDMILL_POINTS = 7
COL_PIER_POINTS = 8
COL_TILES_PLACED = 9
COL_TILES_DISCARDED = 10
COL_TURNS = 11
COL_MOVES = 12
COL_TRADES = 13
COL_RANK = 14
N_COLS = 15
COLUMN_NAMES = (
    "score", "explored", "explored_lighthouse", "explored_buoy", "explored_other",
    "explored_windmill", "explored_pier", "windmill_points", "pier_points",
    "tiles_placed", "tiles_discarded", "turns", "moves", "trades", "rank",
)

# Tile table columns.
TT_LAND = 0  # 4 columns: 1 if edge N, E, S, W is land
TT_MASS = 4  # 4 columns: land-mass index on edge N, E, S, W, -1 for water
TT_FEATURE = 8
TT_PIER_MASK = 9  # bit k: the pier is attached to mass k
TT_OPEN_SEA = 10  # 1 if the tile shows no land at all
TT_BUILDINGS = 11  # MAX_MASSES columns: buildings on mass k
TT_LAND_MASK = TT_BUILDINGS + MAX_MASSES  # bit d: edge d is land
TT_COLS = TT_LAND_MASK + 1

# Board columns: the tile on a cell, and what its placed neighbours demand of it.
B_TILE = 0  # tile id, -1 for an empty cell
B_SIDES = 1  # bit d: a tile lies in direction d; bit 4 + d: that tile shows land towards us;
# bits 8-11 (OWN_LAND): the land edges of the cell's own tile, 0 on an empty cell, so that the
# sailing and placing tests of a placed cell read one board field, not the tile table too
OWN_LAND = 8
POPCOUNT4 = np.array([bin(k).count("1") for k in range(16)], np.int64)

# Scalar game state (st array).
ST_PLAYER = 0
ST_TOKENS = 1
ST_TRADED = 2
ST_DECK_POS = 3
ST_DECK_LEN = 4
ST_N_PLACED = 5
ST_DISCARDED = 6
ST_TURNS = 7
ST_MOVES = 8
ST_TRADES = 9
ST_N_PIERS = 10
ST_SIZE = 11

TURN_LIMIT = 100_000  # a guard only: every rule-following game ends long before


def new_workspace(n_tiles, g, tier=POLICY_ORACLE):
    """All per-game state a policy tier uses (`policy_tier`; the default holds every policy's),
    allocated in Python once per chunk and reset per game by the kernel: the game state and
    result row, then the lookahead scratch (tier lookahead and up), then the continuation
    state (rollout and oracle)."""
    st = np.zeros(ST_SIZE, np.int64)
    board = new_board(g)
    pos = np.full(n_tiles, -1, np.int64)  # tile -> cell
    placed = np.zeros(n_tiles, np.int64)  # tiles in placement order
    piers = np.zeros(n_tiles, np.int64)  # placed pier tiles
    hands = np.full(MAX_PLAYERS * MAX_HAND, -1, np.int64)
    ships = np.zeros(MAX_PLAYERS, np.int64)
    deck = np.zeros(n_tiles, np.int64)
    flood = new_flood(n_tiles)
    actions = np.zeros((MAX_ACTIONS, 4), np.int64)
    deck_rng = np.zeros(2, np.uint64)
    pol_rng = np.zeros(2, np.uint64)
    keys = np.zeros(MAX_ACTIONS + 4, np.int64)  # policy scratch: a key per action, 4 spare
    game = (st, board, pos, placed, piers, hands, ships, deck, flood, actions, deck_rng, pol_rng, keys,
            np.zeros(N_COLS, np.int64))
    if tier >= POLICY_LOOKAHEAD:
        game += new_planner(n_tiles)
    if tier >= POLICY_ROLLOUT:
        game += (new_sim(n_tiles),)
    return game


WS_ROW = 13  # one game's result columns, before they go into the int16 output block
# positions of the lookahead scratch (new_planner) and the continuation state (new_sim)
WS_PLANNER = 14
WS_SIM = 23


def new_board(g):
    """Empty g x g board: per cell the tile (-1 none) and the sides bit field (B_SIDES)."""
    board = np.zeros((g * g, 2), np.int16)
    board[:, B_TILE] = -1
    return board


def new_flood(n_tiles):
    """Pier flood-fill scratch: [stamp | visit stamp per tile | visited masses per tile | stack].

    Stamps make a fresh search O(1) to start: a tile's marks count only under the current stamp.
    """
    return np.zeros(flood_size.py_func(n_tiles), np.int64)  # (called from Python it would compile)


@kernel  # Python calls it too
def flood_size(n_tiles):
    return 1 + 2 * n_tiles + 2 * n_tiles * MAX_MASSES


# --------------------------------------------------------------------------- board


@internal
def _step(g, d):
    """Cell offset of direction d (N, E, S, W) on a row-major g x g board."""
    return (d == EAST) - (d == WEST) + g * ((d == SOUTH) - (d == NORTH))


@internal
def _matches(land_mask, sides):
    """A tile with these land edges agrees with every placed neighbour described by sides."""
    return ((land_mask ^ (sides >> 4)) & sides & 15) == 0


@internal
def fits(tt, board, g, t, cell):
    """Cell empty and every placed neighbour meets tile t land-to-land, water-to-water."""
    return board[cell, B_TILE] < 0 and _matches(tt[t, TT_LAND_MASK], board[cell, B_SIDES])


@internal
def open_sides(board, cell):
    """Bit d: the tile on cell has water towards an empty cell in direction d."""
    sides = board[cell, B_SIDES]
    return ~((sides >> OWN_LAND) | sides) & 15


@internal
def sail_sides(board, cell):
    """Bit d: a ship on cell may sail to the placed tile in direction d (water edge)."""
    sides = board[cell, B_SIDES]
    return ~(sides >> OWN_LAND) & sides & 15


@internal
def can_place_from(tt, board, g, ship, t, d):
    """Tile t may go next to the ship in direction d: water edge from the ship, and it fits."""
    return (board[ship, B_SIDES] >> (OWN_LAND + d)) & 1 == 0 and fits(tt, board, g, t, ship + _step(g, d))


@internal
def can_sail(tt, board, g, ship, d):
    """The ship may cross into the placed neighbour in direction d over a water edge."""
    return (sail_sides(board, ship) >> d) & 1 == 1


@internal
def is_explored(board, g, cell):
    return board[cell, B_TILE] >= 0 and board[cell, B_SIDES] & 15 == 15


@internal
def placed_neighbours(board, g, cell):
    return POPCOUNT4[board[cell, B_SIDES] & 15]


@internal
def put_tile(tt, board, g, t, cell):
    """Tile t onto the board, telling each neighbour cell that this side is now placed."""
    board[cell, B_TILE] = t
    board[cell, B_SIDES] |= tt[t, TT_LAND_MASK] << OWN_LAND
    for d in range(4):
        back = (d + 2) % 4
        board[cell + _step(g, d), B_SIDES] |= (1 << back) | (tt[t, TT_LAND + d] << (4 + back))


@internal
def lift_tile(tt, board, g, cell):
    """Undo put_tile."""
    board[cell, B_TILE] = -1
    board[cell, B_SIDES] &= 255
    for d in range(4):
        back = (d + 2) % 4
        board[cell + _step(g, d), B_SIDES] &= ~((1 << back) | (1 << (4 + back)))


@internal
def pier_buildings(tt, board, pos, g, t, flood):
    """Buildings on every land mass pier tile t is attached to, followed across tiles."""
    n = tt.shape[0]
    flood[0] += 1
    stamp = flood[0]
    vs, vm, sp = 1, 1 + n, 1 + 2 * n  # offsets: visit stamp, visited masses, stack
    top = sp
    flood[vs + t] = stamp
    flood[vm + t] = tt[t, TT_PIER_MASK]
    for m in range(MAX_MASSES):
        if (tt[t, TT_PIER_MASK] >> m) & 1:
            flood[top] = t
            flood[top + 1] = m
            top += 2
    total = 0
    while top > sp:
        top -= 2
        u = flood[top]
        m = flood[top + 1]
        total += tt[u, TT_BUILDINGS + m]
        cell = pos[u]
        for d in range(4):
            if tt[u, TT_MASS + d] != m:
                continue
            v = board[cell + _step(g, d), B_TILE]
            if v < 0:
                continue
            m2 = tt[v, TT_MASS + (d + 2) % 4]
            if flood[vs + v] != stamp:
                flood[vs + v] = stamp
                flood[vm + v] = 0
            if (flood[vm + v] >> m2) & 1:
                continue
            flood[vm + v] |= np.int64(1) << m2
            flood[top] = v
            flood[top + 1] = m2
            top += 2
    return total


@internal
def tile_points(tt, cfg, board, pos, g, cell, flood):
    """Points of the explored tile on `cell` (the caller checks it is explored)."""
    t = np.int64(board[cell, B_TILE])
    f = tt[t, TT_FEATURE]
    if f == FEATURE_LIGHTHOUSE:
        return cfg[CFG_PTS_LIGHTHOUSE]
    if f == FEATURE_HQ:
        return cfg[CFG_PTS_HQ]
    if f == FEATURE_BUOY:
        return cfg[CFG_PTS_BUOY]
    if f == FEATURE_WINDMILL:
        pts = cfg[CFG_PTS_WINDMILL]
        for d in range(4):
            pts += tt[board[cell + _step(g, d), B_TILE], TT_OPEN_SEA]
        return pts
    if f == FEATURE_PIER:
        return cfg[CFG_PTS_PIER] + pier_buildings(tt, board, pos, g, t, flood)
    return cfg[CFG_PTS_OTHER]


@internal
def score_board(tt, cfg, board, pos, placed, n_placed, g, flood, out):
    """Final score and breakdown into out[COL_SCORE..COL_PIER_POINTS]; returns the score."""
    for k in range(COL_PIER_POINTS + 1):
        out[k] = 0
    for i in range(n_placed):
        cell = pos[placed[i]]
        if not is_explored(board, g, cell):
            continue
        pts = tile_points(tt, cfg, board, pos, g, cell, flood)
        f = tt[board[cell, B_TILE], TT_FEATURE]
        out[COL_SCORE] += pts
        out[COL_EXPLORED] += 1
        if f == FEATURE_LIGHTHOUSE or f == FEATURE_HQ:
            out[COL_EXPLORED_LIGHTHOUSE] += 1
        elif f == FEATURE_BUOY:
            out[COL_EXPLORED_BUOY] += 1
        elif f == FEATURE_WINDMILL:
            out[COL_EXPLORED_WINDMILL] += 1
            out[COL_WINDMILL_POINTS] += pts
        elif f == FEATURE_PIER:
            out[COL_EXPLORED_PIER] += 1
            out[COL_PIER_POINTS] += pts
        else:
            out[COL_EXPLORED_OTHER] += 1
    return out[COL_SCORE]


@internal
def rank_of(cfg, score):
    r = 0
    for k in range(1, 5):
        if score >= cfg[CFG_RANK0 + k]:
            r = k
    return r


@internal
def explored_pier_points(tt, cfg, board, pos, piers, n_piers, g, flood):
    total = 0
    for i in range(n_piers):
        if is_explored(board, g, pos[piers[i]]):
            total += cfg[CFG_PTS_PIER] + pier_buildings(tt, board, pos, g, piers[i], flood)
    return total


@internal
def _explores(board, g, cell):
    """A tile placed on the empty cell would explore it or a placed neighbour: it closes the
    last open side of one of them."""
    sides = board[cell, B_SIDES] & 15
    closes = sides == 15
    for d in range(4):
        back = 1 << ((d + 2) % 4)  # the placed neighbour's side towards the cell
        closes |= (sides >> d) & 1 == 1 and (board[cell + _step(g, d), B_SIDES] & 15) | back == 15
    return closes


@internal
def placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, cell, flood):
    """Exact change of the score if tile t is placed on the empty `cell`.

    Only the cell and its four neighbours can become explored (none of them was
    explored while `cell` was empty). Piers explored before gain buildings only when t's
    land joins land already placed; only then are the explored piers re-counted before
    and after (a flood over land masses each), otherwise the new points are those of the
    tiles this placement explores.
    """
    recount = n_piers > 0 and board[cell, B_SIDES] >> 4 != 0
    if not recount and not _explores(board, g, cell):
        return 0  # nine in ten in a solo greedy game, told by the side bits, the board untouched
    before = explored_pier_points(tt, cfg, board, pos, piers, n_piers, g, flood) if recount else 0
    put_tile(tt, board, g, t, cell)
    pos[t] = cell
    gain = 0
    for k in range(5):
        y = cell if k == 4 else cell + _step(g, k)
        if is_explored(board, g, y) and not (recount and tt[board[y, B_TILE], TT_FEATURE] == FEATURE_PIER):
            gain += tile_points(tt, cfg, board, pos, g, y, flood)
    if recount:
        is_pier = tt[t, TT_FEATURE] == FEATURE_PIER
        if is_pier:
            piers[n_piers] = t
        gain += explored_pier_points(tt, cfg, board, pos, piers, n_piers + is_pier, g, flood) - before
    lift_tile(tt, board, g, cell)
    pos[t] = -1
    return gain


@internal
def _place(tt, g, st, board, pos, placed, piers, t, cell):
    put_tile(tt, board, g, t, cell)
    pos[t] = cell
    placed[st[ST_N_PLACED]] = t
    st[ST_N_PLACED] += 1
    if tt[t, TT_FEATURE] == FEATURE_PIER:
        piers[st[ST_N_PIERS]] = t
        st[ST_N_PIERS] += 1


# --------------------------------------------------------------------------- actions


@inline  # its callers pass literal constants (kernels/jit.py)
def _set_action(actions, n, kind, a, b, c):
    actions[n, 0] = kind
    actions[n, 1] = a
    actions[n, 2] = b
    actions[n, 3] = c


@internal
def legal_actions(tt, cfg, g, st, board, hands, ships, actions):
    """Fill game's action buffer in the canonical order; returns the count.

    Order: place (slot, dir), move (dir), discard-to-move (slot, dir),
    trade (slot, partner in seat order after the player, partner slot), end turn
    (keep none, then keep slot s in solo while the draw pile is not empty).
    """
    return _actions_after_places(tt, cfg, g, st, board, hands, ships, actions,
                                 _place_actions(tt, cfg, g, st, board, hands, ships, actions))


@internal
def actions_for(policy_id, tt, cfg, g, st, board, hands, ships, actions):
    """The start of legal_actions that policy_id needs; returns its length. Greedy places whenever
    it can, and placements lead the list: while there are any, it needs no more."""
    n = _place_actions(tt, cfg, g, st, board, hands, ships, actions)
    if policy_id == POLICY_GREEDY and n > 0:
        return n
    return _actions_after_places(tt, cfg, g, st, board, hands, ships, actions, n)


@internal
def _place_actions(tt, cfg, g, st, board, hands, ships, actions):
    """legal_actions' placements; returns their count. Every candidate is written at n and kept
    (n advanced) only when legal: branches on the board would be mispredicted."""
    p = st[ST_PLAYER]
    ship = ships[p]
    open_ = open_sides(board, ship)
    n = 0
    masks = _hand_masks(tt, hands, p, cfg[CFG_HAND], np.int64(0))
    for s in range(MAX_HAND):
        for d in range(4):
            _set_action(actions, n, ACT_PLACE, s, d, 0)
            n += (open_ >> d) & 1 & _matches(masks[s], board[ship + _step(g, d), B_SIDES])
    return n


@internal
def _actions_after_places(tt, cfg, g, st, board, hands, ships, actions, n):
    """legal_actions' other actions, after its n placements; returns the total. Moves and
    discard-moves are written as in _place_actions."""
    p = st[ST_PLAYER]
    hand = cfg[CFG_HAND]
    players = cfg[CFG_PLAYERS]
    sail = sail_sides(board, ships[p])
    moves = sail if st[ST_TOKENS] > 0 else 0
    for d in range(4):
        _set_action(actions, n, ACT_MOVE, d, 0, 0)
        n += (moves >> d) & 1
    for s in range(hand):
        held = hands[p * MAX_HAND + s] >= 0
        for d in range(4):
            _set_action(actions, n, ACT_DISCARD_MOVE, s, d, 0)
            n += held & (sail >> d) & 1
    if players > 1 and st[ST_TRADED] == 0:
        for s in range(hand):
            if hands[p * MAX_HAND + s] >= 0:
                for k in range(1, players):
                    o = (p + k) % players
                    for s2 in range(hand):
                        if hands[o * MAX_HAND + s2] >= 0:
                            _set_action(actions, n, ACT_TRADE, s, o, s2)
                            n += 1
    _set_action(actions, n, ACT_END, -1, 0, 0)
    n += 1
    if _solo_keeps(cfg, st, hands, p, hand, np.int64(0)):
        for s in range(hand):
            if hands[s] >= 0:
                _set_action(actions, n, ACT_END, s, 0, 0)
                n += 1
    return n


@internal
def _solo_keeps(cfg, st, hands, p, hand, used):
    """A solo turn may end keeping 1 of its tiles not in `used` (p. 6): while the draw pile lasts,
    and with rules.toml's solo_keep_on_empty_pile also after, if 2 or more are left (so one goes)."""
    if cfg[CFG_PLAYERS] != 1:
        return False
    if st[ST_DECK_POS] < st[ST_DECK_LEN]:
        return True
    return cfg[CFG_KEEP_ON_EMPTY_PILE] != 0 and _free_tiles(hands, p, hand, used) >= 2


@internal
def _draw_up(cfg, st, hands, deck, p):
    for s in range(cfg[CFG_HAND]):
        if hands[p * MAX_HAND + s] < 0 and st[ST_DECK_POS] < st[ST_DECK_LEN]:
            hands[p * MAX_HAND + s] = deck[st[ST_DECK_POS]]
            st[ST_DECK_POS] += 1


@internal
def apply_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
    """Carry out one legal action. Returns True when it ended the turn."""
    p = st[ST_PLAYER]
    if kind == ACT_PLACE:
        cell = ships[p] + _step(g, b)
        _place(tt, g, st, board, pos, placed, piers, hands[p * MAX_HAND + a], cell)
        hands[p * MAX_HAND + a] = -1
        ships[p] = cell  # the free, mandatory move onto the new tile
    elif kind == ACT_MOVE:
        ships[p] += _step(g, a)
        st[ST_TOKENS] -= 1
        st[ST_MOVES] += 1
    elif kind == ACT_DISCARD_MOVE:
        hands[p * MAX_HAND + a] = -1
        st[ST_DISCARDED] += 1
        ships[p] += _step(g, b)
    elif kind == ACT_TRADE:
        i = p * MAX_HAND + a
        j = b * MAX_HAND + c
        hands[i], hands[j] = hands[j], hands[i]
        st[ST_TRADED] = 1
        st[ST_TRADES] += 1
    else:  # ACT_END: discard all but the solo keep, draw back up, flip tokens
        for s in range(cfg[CFG_HAND]):
            if s != a and hands[p * MAX_HAND + s] >= 0:
                hands[p * MAX_HAND + s] = -1
                st[ST_DISCARDED] += 1
        _draw_up(cfg, st, hands, deck, p)
        st[ST_TURNS] += 1
        return True
    return False


@internal
def take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
    """apply_action; when it ends the turn (returns True), the next player starts with fresh
    tokens. A turn always ends with its end-turn action, even when the last tile is gone."""
    if apply_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck, kind, a, b, c):
        st[ST_PLAYER] = (st[ST_PLAYER] + 1) % cfg[CFG_PLAYERS]
        st[ST_TOKENS] = cfg[CFG_TOKENS]
        st[ST_TRADED] = 0
        return True
    return False


# --------------------------------------------------------------------------- policies


@internal
def _pick_tied(keys, lo, hi, best, rng):
    """Index of a uniformly chosen action among those in lo .. hi - 1 whose key equals best.

    A random draw is made only when two or more actions tie."""
    ties = np.int64(0)  # not the literal 0, which numba would also compile uniform_int for
    first = -1
    for i in range(lo, hi):
        if keys[i] == best:
            ties += 1
            if first < 0:
                first = i
    if ties == 1:
        return first
    j = uniform_int(rng, ties)
    for i in range(lo, hi):
        if keys[i] == best:
            if j == 0:
                return i
            j -= 1
    return first


@inline  # literal constants, as _set_action
def _run_end(actions, i, n, kind):
    """End of the run of `kind` actions starting at i (legal_actions lists each kind in one run)."""
    while i < n and actions[i, 0] == kind:
        i += 1
    return i


@internal
def _free_tiles(hands, p, hand, used):
    """Tiles in player p's hand whose slots are not in `used` (a bit per slot)."""
    free = 0
    for s in range(hand):
        free += hands[p * MAX_HAND + s] >= 0 and not (used >> s) & 1
    return free


@internal
def _hand_masks(tt, hands, p, hand, used):
    """Land masks of player p's hand tiles in slots not in `used` (a bit per slot), 15 for an
    empty or used slot: an all-land tile fits no cell, as the tile it is placed from shows water.
    Loaded once, so the placement counts need not read the hand again."""
    return (_slot_mask(tt, hands, p, hand, used, np.int64(0)), _slot_mask(tt, hands, p, hand, used, np.int64(1)),
            _slot_mask(tt, hands, p, hand, used, np.int64(2)))


@internal
def _slot_mask(tt, hands, p, hand, used, s):
    t = hands[p * MAX_HAND + s]
    return tt[t, TT_LAND_MASK] if s < hand and t >= 0 and not (used >> s) & 1 else tt.dtype.type(15)


@internal
def _placements_from(tt, board, g, masks, cell, steps, cand, n):
    """n + the (hand slot, direction) placements from cell (a placed tile) of the hand tiles with
    these land masks (_hand_masks); while cand has room they are listed there as
    (cell, direction, slot, steps). A zero-row cand just counts."""
    open_ = open_sides(board, cell)
    for d in range(4):
        if (open_ >> d) & 1:
            sides = board[cell + _step(g, d), B_SIDES]
            for s in range(MAX_HAND):
                if _matches(masks[s], sides):
                    if n < cand.shape[0]:
                        cand[n, CAND_CELL], cand[n, CAND_DIR] = cell, d
                        cand[n, CAND_SLOT], cand[n, CAND_STEPS] = s, steps
                    n += 1
    return n


@internal
def _sail_values(tt, board, g, hands, p, hand, ship, tokens, flood, best, no_cand):
    """For each first step N, E, S, W: best (placements * 64 - steps) over the tiles the ship
    reaches with at most `tokens` steps over water starting with that step; NO_KEY if none."""
    best[:] = NO_KEY
    if tokens <= 0 or _free_tiles(hands, p, hand, np.int64(0)) == 0:  # no step, or nothing to place
        return best
    masks = _hand_masks(tt, hands, p, hand, np.int64(0))
    tail = _bfs(tt, board, g, ship, tokens, np.int64(-1), flood)
    for i in range(1 + 2 * tt.shape[0] + 3, tail, 3):  # every reached tile but the start
        k = _placements_from(tt, board, g, masks, flood[i], np.int64(0), no_cand, np.int64(0))
        if k > 0:
            best[flood[i + 2]] = max(best[flood[i + 2]], k * 64 - flood[i + 1])
    return best


@internal
def _best_reachable(tt, board, g, hands, p, hand, cell, skip_slot, no_cand):
    """placements * 64 - 1 for a ship stepping onto cell without hand slot skip_slot."""
    masks = _hand_masks(tt, hands, p, hand, 1 << skip_slot)
    k = _placements_from(tt, board, g, masks, cell, np.int64(0), no_cand, np.int64(0))
    return k * 64 - 1 if k > 0 else NO_KEY


KEEP_PRIORITY = np.array([1, 3, 2, 0, 2, 2], np.int64)  # by feature: what a solo player keeps
NO_KEY = -(1 << 40)


@internal
def _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys):
    """Immediate points first; docs/beacon_engine.md gives the exact order."""
    p = st[ST_PLAYER]
    ship = ships[p]
    n_piers = st[ST_N_PIERS]
    places = _run_end(actions, np.int64(0), n, ACT_PLACE)  # the runs of kinds, in legal_actions' order
    moves = _run_end(actions, places, n, ACT_MOVE)
    discards = _run_end(actions, moves, n, ACT_DISCARD_MOVE)
    trades = _run_end(actions, discards, n, ACT_TRADE)
    # 1. place: most points, then the cell with more placed neighbours
    best = np.int64(NO_KEY)
    for i in range(places):
        cell = ship + _step(g, actions[i, 2])
        t = hands[p * MAX_HAND + actions[i, 1]]
        gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, cell, flood)
        keys[i] = gain * 16 + placed_neighbours(board, g, cell)
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, np.int64(0), places, best, rng)
    # 2. trade for a tile that can be placed here, valued by its best placement
    for i in range(discards, trades):
        keys[i] = NO_KEY
        u = hands[actions[i, 2] * MAX_HAND + actions[i, 3]]
        for d in range(4):
            if can_place_from(tt, board, g, ship, u, d):
                cell = ship + _step(g, d)
                gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, u, cell, flood)
                keys[i] = max(keys[i], gain * 16 + placed_neighbours(board, g, cell))
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, discards, trades, best, rng)
    # 3. sail with a token towards the nearest tile with the most placements (within the
    #    tokens left), else 4. discard a tile to step next to a placement for the others
    by_first_step = keys[MAX_ACTIONS:]
    _sail_values(tt, board, g, hands, p, cfg[CFG_HAND], ship, st[ST_TOKENS], flood, by_first_step,
                 actions[:0])
    for i in range(places, moves):
        keys[i] = by_first_step[actions[i, 1]]
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, places, moves, best, rng)
    for i in range(moves, discards):
        keys[i] = _best_reachable(tt, board, g, hands, p, cfg[CFG_HAND], ship + _step(g, actions[i, 2]),
                                  actions[i, 1], actions[:0])
        best = max(best, keys[i])
    if best > NO_KEY:
        return _pick_tied(keys, moves, discards, best, rng)
    # 5. end the turn, keeping (solo) the most valuable tile
    for i in range(trades, n):
        s = actions[i, 1]
        keys[i] = 0 if s < 0 else KEEP_PRIORITY[tt[hands[p * MAX_HAND + s], TT_FEATURE]]
        best = max(best, keys[i])
    return _pick_tied(keys, trades, n, best, rng)


# --------------------------------------------------------------------------- lookahead
#
# Plans the rest of the turn: a depth-first search over sequences of placements (each one
# reached by token moves, or discard-moves when tokens run out), `width` best candidates per
# level, scored by the value function below; a plan ends with the ship's position for next
# turn and (solo) the kept tile. The best plan's whole line is stored and followed step by
# step. docs/beacon_policies.md explains the terms.

# lookahead parameters (vector positions; rollout and oracle share them)
LA_WIDTH = 0  # candidate placements expanded per search level
LA_NEAR = 1  # weight of an unexplored tile missing one neighbour: points x chance it fills
LA_FAR = 2  # same, for tiles missing two or more neighbours
LA_HOLE = 3  # penalty per dead hole: an empty cell next to tiles that nothing can ever fill
LA_SHIP = 4  # value per fillable open side around the ship at the end of the turn
LA_KEEP = 5  # solo: weight of the kept tile's points
LA_TRADE = 6  # a trade is made when it raises the plan value by more than this
LA_DISCARD = 7  # cost of a discard-to-move, per point of the discarded tile
FILL_SIZE = 256 + 81  # fill chance per side field | tiles fitting each side pattern (unseen_fill)
FILL_DRAWS = 3  # a cell's fill chance: 1 - (1 - p)^FILL_DRAWS, p = share of unseen tiles that fit


def _side_patterns():
    """A cell's side pattern: per side (base-3 digit d of 81 patterns) 0 water shown, 1 land shown,
    2 no neighbour there. Returns the pattern of each land mask (every side shown), each pattern's
    side field (B_SIDES bits 0-7) and whether a ship can place there (some side shows water), and
    the sums that count the tiles fitting each pattern with a side unknown: side d unknown = water
    there + land there, in an order where both are counted first."""
    of_mask = np.array([sum(((m >> d) & 1) * 3 ** d for d in range(4)) for m in range(16)], np.int64)
    field = np.zeros(81, np.int64)
    reachable = np.zeros(81, np.bool_)
    sums = []
    for k in range(81):
        digits = [(k // 3 ** d) % 3 for d in range(4)]
        known = sum(1 << d for d in range(4) if digits[d] != 2)
        land = sum(1 << d for d in range(4) if digits[d] == 1)
        field[k], reachable[k] = known | (land << 4), known & ~land != 0
    for d in range(4):  # pass d: patterns with side d unknown and the sides after it known
        for k in range(81):
            digits = [(k // 3 ** e) % 3 for e in range(4)]
            if digits[d] == 2 and all(digits[e] != 2 for e in range(d + 1, 4)):
                sums.append((k, k - 2 * 3 ** d, k - 3 ** d))
    return of_mask, field, reachable, np.array(sums, np.int64)


PATTERN_OF_MASK, PATTERN_FIELD, PATTERN_REACHABLE, SIDE_PATTERN_SUMS = _side_patterns()

# plan scratch (int64): what the stored plan does next
PLAN_TURN = 0  # st[ST_TURNS] when made; -1 none
PLAN_PLAYER = 1
PLAN_KIND = 2  # PLAN_PLACE, PLAN_REPOSITION or PLAN_END
PLAN_CELL = 3  # where the ship must be (place from here / reposition to here)
PLAN_DIR = 4
PLAN_SLOT = 5
PLAN_TILE = 6
PLAN_TRADES_SEEN = 7  # st[ST_TURNS] when trades were last weighed (once per turn)
PLAN_FIELDS = 7  # a turn option's first step: PLAN_TURN .. PLAN_TILE
PLAN_PLACE, PLAN_REPOSITION, PLAN_END = 0, 1, 2
MAX_DEPTH = MAX_HAND + 1
# The rest of the turn the search found best (its line) follows the first step, so the plan
# goes on after a placement without searching the same subtree again. A step is 5 fields in
# the order of PLAN_KIND .. PLAN_TILE; frames keep each search node's best line the same way.
STEP = 5
PLAN_LINE_LEN = 8  # steps in the line after the first (0: search again after a placement)
PLAN_LINE_POS = 9  # the next of them
PLAN_LINE = 10
PLAN_SIZE = PLAN_LINE + STEP * MAX_DEPTH
MAX_CANDIDATES = 256
MAX_OPTIONS = 16
MAX_WIDTH = 8
ORDER_N_ROOT = MAX_DEPTH * MAX_WIDTH + 1  # order[]: where root_options leaves its candidate count
CAND_CELL, CAND_DIR, CAND_SLOT, CAND_STEPS = 0, 1, 2, 3
BASE_POINTS = np.array([1.0, 3.0, 2.0, 3.0, 2.0, 2.0])  # by feature, for tiles not yet explored


def new_planner(n_tiles):
    """Lookahead scratch: plan, fill table, candidate lists per search level."""
    plan = np.full(PLAN_SIZE, -1, np.int64)
    fill = np.zeros(FILL_SIZE + n_tiles, np.float64)  # FILL_SIZE, then _stop_value's sums per search entry
    cand = np.zeros((MAX_DEPTH, MAX_CANDIDATES, 4), np.int64)
    cand_v = np.zeros((MAX_DEPTH, MAX_CANDIDATES), np.float64)
    order = np.zeros(ORDER_N_ROOT + 1, np.int64)  # top candidates per level | stop cell | root count
    opts = np.zeros((MAX_OPTIONS, PLAN_SIZE), np.int64)  # root options: plan rows
    opt_v = np.zeros(MAX_OPTIONS, np.float64)
    frames = np.zeros((MAX_DEPTH, FR_SIZE), np.int64)  # depth-first search stack (FR_*)
    values = np.zeros(MAX_DEPTH, np.float64)  # per level: the node's best value, its line's
    return plan, fill, cand, cand_v, order, opts, opt_v, frames, values


@internal
def unseen_fill(tt, cfg, st, hands, deck, p, fill):
    """fill[s] = chance a side field s gets a tile: the share of tiles player p has not seen (the
    draw pile as a multiset, and the other hands) that fit, raised over FILL_DRAWS draws; 0 when
    no placed neighbour shows water towards the cell (no ship can place there). Only the side
    fields a board can hold are written (land bits on placed sides only).

    The tiles fitting each field are counted per side pattern (_side_patterns): the unseen tiles by
    land mask, then summed over each side not yet known (SIDE_PATTERN_SUMS)."""
    fitting = fill[256:256 + 81]
    for m in range(16):
        fitting[PATTERN_OF_MASK[m]] = 0.0
    for i in range(st[ST_DECK_POS], st[ST_DECK_LEN]):
        fitting[PATTERN_OF_MASK[tt[deck[i], TT_LAND_MASK]]] += 1.0
    for q in range(cfg[CFG_PLAYERS]):
        if q != p:
            for s in range(cfg[CFG_HAND]):
                if hands[q * MAX_HAND + s] >= 0:
                    fitting[PATTERN_OF_MASK[tt[hands[q * MAX_HAND + s], TT_LAND_MASK]]] += 1.0
    for k in range(SIDE_PATTERN_SUMS.shape[0]):
        fitting[SIDE_PATTERN_SUMS[k, 0]] = fitting[SIDE_PATTERN_SUMS[k, 1]] + fitting[SIDE_PATTERN_SUMS[k, 2]]
    total = fitting[80]  # no side known: every unseen tile
    for k in range(81):
        v = 0.0
        if PATTERN_REACHABLE[k] and total > 0:
            miss = 1.0 - fitting[k] / total
            v = 1.0 - miss ** FILL_DRAWS
        fill[PATTERN_FIELD[k]] = v
    return total


@internal
def _potential(tt, board, g, fill, params, cell):
    """Value of the unexplored tile on cell: its points x the chance its empty sides all fill."""
    sides = board[cell, B_SIDES]
    missing = 4 - POPCOUNT4[sides & 15]
    chance = 1.0
    for d in range(4):
        if not (sides >> d) & 1:
            chance *= fill[board[cell + _step(g, d), B_SIDES]]
    w = params[LA_NEAR] if missing == 1 else params[LA_FAR]
    return w * BASE_POINTS[tt[board[cell, B_TILE], TT_FEATURE]] * chance


@internal
def region_value(tt, board, g, fill, params, centre):
    """Heuristic value of the cells within two steps of centre: potentials of unexplored
    tiles, minus dead holes right next to it. Differences of this before and after a
    placement on centre are what the placement changes beyond its immediate points."""
    hole = params[LA_HOLE]
    v = 0.0
    for dr in range(-2, 3):
        for dc in range(-2 + abs(dr), 3 - abs(dr)):
            cell = centre + dr * g + dc
            sides = board[cell, B_SIDES]
            if board[cell, B_TILE] >= 0:
                if sides & 15 != 15:
                    v += _potential(tt, board, g, fill, params, cell)
            elif hole != 0.0 and abs(dr) + abs(dc) <= 1 and sides & 15 != 0 and fill[sides] == 0.0:
                v -= hole
    return v


@internal
def board_value(tt, board, g, pos, placed, n_placed, fill, params):
    """Heuristic value of the whole board beyond its score: potentials of the unexplored tiles
    minus a dead hole's penalty for each side of a tile that faces one."""
    v = 0.0
    for i in range(n_placed):
        cell = pos[placed[i]]
        sides = board[cell, B_SIDES]
        if sides & 15 == 15:
            continue
        v += _potential(tt, board, g, fill, params, cell)
        for d in range(4):
            if not (sides >> d) & 1 and fill[board[cell + _step(g, d), B_SIDES]] == 0.0:
                v -= params[LA_HOLE]
    return v


@internal
def _open_fill(tt, board, g, fill, cell):
    """Sum of the fill chances of the empty cells the tile on cell faces with water: the tile's
    share of a ship's prospects for next turn (_stop_value)."""
    open_ = open_sides(board, cell)
    v = 0.0
    for d in range(4):
        if (open_ >> d) & 1:
            v += fill[board[cell + _step(g, d), B_SIDES]]
    return v


@internal
def _bfs(tt, board, g, ship, max_steps, target, flood):
    """Breadth-first over sail edges from ship, at most max_steps; flood gets (cell, steps,
    first direction) triples from offset 1 + 2n; returns the end offset of the queue. Stops
    once the cell target (-1: none) is queued, as the last triple."""
    n_tiles = tt.shape[0]
    flood[0] += 1
    stamp = flood[0]
    vs, q = 1, 1 + 2 * n_tiles
    tail = q
    flood[vs + board[ship, B_TILE]] = stamp
    flood[tail], flood[tail + 1], flood[tail + 2] = ship, 0, -1
    tail += 3
    head = q
    while head < tail:
        cell, steps, first = flood[head], flood[head + 1], flood[head + 2]
        head += 3
        if steps < max_steps:
            sail = sail_sides(board, cell)
            for d in range(4):
                if (sail >> d) & 1:
                    nxt = cell + _step(g, d)
                    if flood[vs + board[nxt, B_TILE]] != stamp:
                        flood[vs + board[nxt, B_TILE]] = stamp
                        flood[tail], flood[tail + 1] = nxt, steps + 1
                        flood[tail + 2] = d if steps == 0 else first
                        tail += 3
                        if nxt == target:
                            return tail
    return tail


@internal
def _first_step(tt, board, g, ship, target, max_steps, flood):
    """Direction of the first sail on a shortest way from ship to target; -1 if none."""
    tail = _bfs(tt, board, g, ship, max_steps, target, flood)
    return flood[tail - 1] if flood[tail - 3] == target else -1


@internal
def _cheapest_slot(tt, hands, p, hand, used, keep_slot):
    """The hand slot (not used, not keep_slot) whose tile is worth least; -1 if none."""
    best, best_v = -1, 1e9
    for s in range(hand):
        t = hands[p * MAX_HAND + s]
        if t >= 0 and not (used >> s) & 1 and s != keep_slot:
            v = BASE_POINTS[tt[t, TT_FEATURE]]
            if v < best_v:
                best, best_v = s, v
    return best


@internal
def _discards(tt, hands, p, hand, spent, n, params):
    """The cheapest n hand tiles not yet spent, discarded to pay for steps beyond the tokens:
    the slots spent then, and the discard cost (params[LA_DISCARD] per point of each)."""
    cost = 0.0
    for _ in range(n):
        k = _cheapest_slot(tt, hands, p, hand, spent, np.int64(-1))
        if k >= 0:
            cost += params[LA_DISCARD] * BASE_POINTS[tt[hands[p * MAX_HAND + k], TT_FEATURE]]
            spent |= 1 << k
    return spent, cost


@internal
def _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
                fill, params, cand, cand_v, reached, reached_more):
    """Every placement reachable this turn (token moves, then discard-moves), with its value:
    points now + change of region value - discard cost. Returns the count.
    reached, reached_more: ends of the entries within the tokens and within one step more of the
    breadth-first search from ship that flood still holds (_stop_value's)."""
    hand = cfg[CFG_HAND]
    free = _free_tiles(hands, p, hand, used)
    if free == 0:
        return 0
    masks = _hand_masks(tt, hands, p, hand, used)
    n = np.int64(0)
    for extra in range(free):  # discard-moves only when token moves reach no placement
        tail = reached if extra == 0 else reached_more if extra == 1 else _bfs(
            tt, board, g, ship, tokens + extra, np.int64(-1), flood)
        for i in range(1 + 2 * tt.shape[0], tail, 3):
            n = _placements_from(tt, board, g, masks, flood[i], flood[i + 1], cand, n)
        if n > 0:
            break
    n = min(n, MAX_CANDIDATES)
    last_target, before = -1, 0.0
    for i in range(n):
        s, steps = cand[i, CAND_SLOT], cand[i, CAND_STEPS]
        t = hands[p * MAX_HAND + s]
        target = cand[i, CAND_CELL] + _step(g, cand[i, CAND_DIR])
        if target != last_target:  # candidates for one cell come in a row: one "before" for them
            last_target, before = target, region_value(tt, board, g, fill, params, target)
        spent, cost = _discards(tt, hands, p, hand, used | (1 << s), steps - tokens, params)
        gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, target, flood)
        put_tile(tt, board, g, t, target)
        after = region_value(tt, board, g, fill, params, target)
        lift_tile(tt, board, g, target)
        cand_v[i] = gain + after - before - cost - 0.001 * steps
    return n


@internal
def _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, used, flood, fill, params, where):
    """End of the plan: the best cell within the tokens left for next turn (into where[0]),
    and the solo keep. Returns (value, and the ends of the entries within the tokens and within
    one step more of the breadth-first search left in flood).

    The search goes one step beyond the tokens, so that every cell a reachable cell sails to is in
    it: each cell's open-side fill chances are summed once (into fill[FILL_SIZE:], by entry; the
    entry of each tile in flood's per-tile marks, which only pier floods use) and a cell's value
    is ship x (its neighbours' sums + its own) - 0.001 per sail (docs/beacon_policies.md)."""
    n = tt.shape[0]
    q0, by_tile = 1 + 2 * n, 1 + n
    tail = _bfs(tt, board, g, ship, tokens + 1, np.int64(-1), flood)
    sums = fill[FILL_SIZE:]
    reached = tail
    for i in range(q0, tail, 3):
        cell = flood[i]
        k = (i - q0) // 3
        flood[by_tile + board[cell, B_TILE]] = k
        sums[k] = _open_fill(tt, board, g, fill, cell)
        if flood[i + 1] > tokens and reached == tail:
            reached = i
    best = -1e18
    for i in range(q0, reached, 3):
        cell = flood[i]
        sail = sail_sides(board, cell)
        v = 0.0
        for d in range(4):
            if (sail >> d) & 1:
                v += sums[flood[by_tile + board[cell + _step(g, d), B_TILE]]]
        v = params[LA_SHIP] * (v + sums[(i - q0) // 3]) - 0.001 * flood[i + 1]
        if v > best:
            best = v
            where[0] = cell
    if _solo_keeps(cfg, st, hands, p, cfg[CFG_HAND], used):
        keep = 0.0
        for s in range(cfg[CFG_HAND]):
            t = hands[p * MAX_HAND + s]
            if t >= 0 and not (used >> s) & 1:
                keep = max(keep, params[LA_KEEP] * BASE_POINTS[tt[t, TT_FEATURE]])
        best += keep
    return best, reached, tail


@internal
def _top(cand_v, n, k, order):
    """Indices of the k best values among the first n into order; returns how many."""
    m = min(n, k)
    for j in range(m):
        best = -1
        for i in range(n):
            taken = False
            for jj in range(j):
                if order[jj] == i:
                    taken = True
            if not taken and (best < 0 or cand_v[i] > cand_v[best]):
                best = i
        order[j] = best
    return m


@internal
def _try_candidate(tt, cfg, g, board, pos, piers, n_piers, hands, p, c, used, tokens, params):
    """Put candidate c's tile on its target for the search (the caller lifts it); returns the tile,
    the target, the hand slots then spent (its own and the cheapest discards paying for the steps
    beyond the tokens) and the number of placed piers."""
    s, steps = c[CAND_SLOT], c[CAND_STEPS]
    t = hands[p * MAX_HAND + s]
    target = c[CAND_CELL] + _step(g, c[CAND_DIR])
    spent, _ = _discards(tt, hands, p, cfg[CFG_HAND], used | (1 << s), steps - tokens, params)
    put_tile(tt, board, g, t, target)
    pos[t] = target
    if tt[t, TT_FEATURE] == FEATURE_PIER:
        piers[n_piers] = t
        n_piers += 1
    return t, target, spent, n_piers


FR_SHIP, FR_TOKENS, FR_USED, FR_PIERS, FR_CHILDREN, FR_NEXT, FR_TARGET, FR_TILE, FR_LINE_LEN = range(9)
FR_LINE = 9  # the node's best line: FR_LINE_LEN steps, the last one ending the turn
FR_SIZE = FR_LINE + STEP * MAX_DEPTH


@inline  # literal constants, as _set_action
def _set_step(line, k, kind, cell, d, slot, t):
    o = k * STEP
    line[o], line[o + 1], line[o + 2], line[o + 3], line[o + 4] = kind, cell, d, slot, t


@internal
def _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand, cand_v,
                order, frames, values, level, ship, tokens, used, n_piers):
    """A search node: its value if the turn ends here, and its best children to try."""
    stop, reached, reached_more = _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, used, flood, fill,
                                              params, order[MAX_DEPTH * MAX_WIDTH:])
    values[level] = stop
    m = 0
    if level + 1 < MAX_DEPTH:
        n = _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
                        fill, params, cand[level], cand_v[level], reached, reached_more)
        base = level * MAX_WIDTH
        m = _top(cand_v[level], n, min(max(int(params[LA_WIDTH]), 1), MAX_WIDTH),
                 order[base:base + MAX_WIDTH])
    f = frames[level]
    f[FR_SHIP], f[FR_TOKENS], f[FR_USED], f[FR_PIERS] = ship, tokens, used, n_piers
    f[FR_CHILDREN], f[FR_NEXT], f[FR_TARGET], f[FR_TILE] = m, 0, -1, -1
    where = order[MAX_DEPTH * MAX_WIDTH]  # ending the turn here is the line until a child beats it
    f[FR_LINE_LEN] = 1
    _set_step(f[FR_LINE:], 0, PLAN_REPOSITION if where != ship else PLAN_END, where, 0, 0, 0)


@internal
def _search(tt, cfg, g, st, board, pos, piers, n_piers, hands, p, ship, tokens, used, flood,
            fill, params, cand, cand_v, order, frames, values, level):
    """Best value of the rest of the turn from this node (ending it now included): depth first
    over the `width` best placements of every level, each undone on the way back. The node's
    best line is left in frames[level]. A node's value depends only on what lies below it, not
    on the way there, so following the line plays what searching again after each placement
    would."""
    _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand, cand_v,
                order, frames, values, level, ship, tokens, used, n_piers)
    top = level
    while True:
        f = frames[top]
        if f[FR_NEXT] < f[FR_CHILDREN]:
            i = order[top * MAX_WIDTH + f[FR_NEXT]]
            f[FR_NEXT] += 1
            steps = cand[top, i, CAND_STEPS]
            t, target, spent, n_piers_now = _try_candidate(tt, cfg, g, board, pos, piers, f[FR_PIERS], hands,
                                                           p, cand[top, i], f[FR_USED], f[FR_TOKENS], params)
            f[FR_TARGET], f[FR_TILE] = target, t
            _open_frame(tt, cfg, g, st, board, pos, piers, hands, p, flood, fill, params, cand,
                        cand_v, order, frames, values, top + 1, target, max(f[FR_TOKENS] - steps, 0),
                        spent, n_piers_now)
            top += 1
        else:
            if top == level:
                return values[level]
            parent = frames[top - 1]
            lift_tile(tt, board, g, parent[FR_TARGET])
            pos[parent[FR_TILE]] = -1
            i = order[(top - 1) * MAX_WIDTH + parent[FR_NEXT] - 1]
            v = cand_v[top - 1, i] + values[top]
            if v > values[top - 1]:  # the child's line, after its placement
                values[top - 1] = v
                c = cand[top - 1, i]
                _set_step(parent[FR_LINE:], 0, PLAN_PLACE, c[CAND_CELL], c[CAND_DIR], c[CAND_SLOT],
                          parent[FR_TILE])
                child = frames[top]
                parent[FR_LINE_LEN] = child[FR_LINE_LEN] + 1
                for k in range(STEP * child[FR_LINE_LEN]):
                    parent[FR_LINE + STEP + k] = child[FR_LINE + k]
            top -= 1


@internal
def root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner):
    """The turn's options from here, each a plan row with its search value: ending the turn
    (after sailing to the best cell for next turn) and the `width` best first placements.
    Returns the number of options; option 0 is the end."""
    plan, fill, cand, cand_v, order, opts, opt_v, frames, values = planner
    p = st[ST_PLAYER]
    ship, tokens, n_piers = ships[p], st[ST_TOKENS], st[ST_N_PIERS]
    unseen_fill(tt, cfg, st, hands, deck, p, fill)
    where = order[MAX_DEPTH * MAX_WIDTH:]
    opt_v[0], reached, reached_more = _stop_value(tt, cfg, g, st, board, hands, p, ship, tokens, np.int64(0),
                                                  flood, fill, params, where)
    opts[0, PLAN_KIND] = PLAN_REPOSITION if where[0] != ship else PLAN_END
    opts[0, PLAN_CELL] = where[0]
    n = _candidates(tt, cfg, g, board, pos, piers, n_piers, hands, p, ship, tokens, np.int64(0), flood,
                    fill, params, cand[0], cand_v[0], reached, reached_more)
    order[ORDER_N_ROOT] = n
    m = _top(cand_v[0], n, min(max(int(params[LA_WIDTH]), 1), MAX_WIDTH), order[:MAX_WIDTH])
    for j in range(m):
        i = order[j]
        cell, d, s, steps = cand[0, i, 0], cand[0, i, 1], cand[0, i, 2], cand[0, i, 3]
        t, target, spent, n_piers_now = _try_candidate(tt, cfg, g, board, pos, piers, n_piers, hands, p,
                                                       cand[0, i], np.int64(0), tokens, params)
        v = cand_v[0, i] + _search(tt, cfg, g, st, board, pos, piers, n_piers_now, hands, p,
                                   target, max(tokens - steps, 0), spent, flood, fill, params,
                                   cand, cand_v, order, frames, values, np.int64(1))
        lift_tile(tt, board, g, target)
        pos[t] = -1
        _set_step(opts[j + 1, PLAN_KIND:], 0, PLAN_PLACE, cell, d, s, t)
        line = frames[1]  # the rest of the turn after this placement
        opts[j + 1, PLAN_LINE_LEN] = line[FR_LINE_LEN]
        _copy(line[FR_LINE:FR_LINE + STEP * line[FR_LINE_LEN]], opts[j + 1, PLAN_LINE:])
        opt_v[j + 1] = v
    opts[0, PLAN_LINE_LEN] = 0
    for j in range(m + 1):
        opts[j, PLAN_TURN], opts[j, PLAN_PLAYER], opts[j, PLAN_LINE_POS] = st[ST_TURNS], p, 0
    return m + 1


@internal
def _best_option(opt_v, n):
    best = 0
    for j in range(1, n):
        if opt_v[j] > opt_v[best]:
            best = j
    return best


@internal
def forget_plan(plan):
    """A new game: no plan, no trades weighed."""
    plan[PLAN_TURN] = -1
    plan[PLAN_TRADES_SEEN] = -1


@internal
def _plan_valid(st, hands, plan):
    p = st[ST_PLAYER]
    if plan[PLAN_TURN] != st[ST_TURNS] or plan[PLAN_PLAYER] != p:
        return False
    return plan[PLAN_KIND] != PLAN_PLACE or hands[p * MAX_HAND + plan[PLAN_SLOT]] == plan[PLAN_TILE]


@internal
def _copy(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@inline  # literal constants, as _set_action
def _find(actions, n, kind, a, b, c):
    for i in range(n):
        if actions[i, 0] == kind and actions[i, 1] == a and actions[i, 2] == b and actions[i, 3] == c:
            return i
    return -1


@internal
def _next_step(plan):
    """Move the plan to the next step of its line; none left: the plan is used up."""
    k = plan[PLAN_LINE_POS]
    if k < plan[PLAN_LINE_LEN]:
        _copy(plan[PLAN_LINE + STEP * k:PLAN_LINE + STEP * (k + 1)], plan[PLAN_KIND:PLAN_KIND + STEP])
        plan[PLAN_LINE_POS] = k + 1
    else:
        plan[PLAN_TURN] = -1


@inline  # literal constants, as _set_action
def _adopt(option, plan, line):
    """Make a turn option the plan: its first step, and its line when `line` (else the plan
    ends after the first placement and the policy decides again)."""
    _copy(option[:PLAN_FIELDS], plan)
    plan[PLAN_LINE_LEN] = option[PLAN_LINE_LEN] if line else 0
    plan[PLAN_LINE_POS] = 0
    if line:
        _copy(option[PLAN_LINE:], plan[PLAN_LINE:])


@internal
def follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan):
    """The next action of the stored plan (-1 if it cannot be followed); a placement uses it up."""
    p = st[ST_PLAYER]
    ship = ships[p]
    hand = cfg[CFG_HAND]
    kind = plan[PLAN_KIND]
    if kind == PLAN_PLACE:
        if ship == plan[PLAN_CELL]:
            i = _find(actions, n, ACT_PLACE, plan[PLAN_SLOT], plan[PLAN_DIR], 0)
            _next_step(plan)
            return i
        d = _first_step(tt, board, g, ship, plan[PLAN_CELL], tt.shape[0], flood)
        if d < 0:
            return -1
        if st[ST_TOKENS] > 0:
            return _find(actions, n, ACT_MOVE, d, 0, 0)
        k = _cheapest_slot(tt, hands, p, hand, np.int64(0), plan[PLAN_SLOT])
        return _find(actions, n, ACT_DISCARD_MOVE, k, d, 0)
    if kind == PLAN_REPOSITION and ship != plan[PLAN_CELL] and st[ST_TOKENS] > 0:
        d = _first_step(tt, board, g, ship, plan[PLAN_CELL], st[ST_TOKENS], flood)
        if d >= 0:
            return _find(actions, n, ACT_MOVE, d, 0, 0)
    keep = -1  # end the turn; solo keeps its most valuable tile where it may
    if _solo_keeps(cfg, st, hands, p, hand, np.int64(0)):
        best_v = -1.0
        for s in range(hand):
            t = hands[s]
            if t >= 0 and BASE_POINTS[tt[t, TT_FEATURE]] > best_v:
                keep, best_v = s, BASE_POINTS[tt[t, TT_FEATURE]]
    return _find(actions, n, ACT_END, keep, 0, 0)


@internal
def _best_local(tt, cfg, g, board, pos, piers, n_piers, t, ship, flood, fill, params):
    """Value of tile t's best placement right next to ship (no moves); 0 if none fits."""
    best = 0.0
    open_ = open_sides(board, ship)
    for d in range(4):
        target = ship + _step(g, d)
        if (open_ >> d) & 1 and _matches(tt[t, TT_LAND_MASK], board[target, B_SIDES]):
            before = region_value(tt, board, g, fill, params, target)
            gain = placement_gain(tt, cfg, board, pos, piers, n_piers, g, t, target, flood)
            put_tile(tt, board, g, t, target)
            after = region_value(tt, board, g, fill, params, target)
            lift_tile(tt, board, g, target)
            best = max(best, gain + after - before)
    return best


@internal
def _trade_choice(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                  params, planner):
    """A trade that raises the team's value by more than params[LA_TRADE]: my plan value with
    the partner's tile, minus what the partner loses next to its ship. -1 for none; then the
    plan is the best one without a trade (its search is not repeated)."""
    plan, cand, cand_v, opts, opt_v = planner[0], planner[2], planner[3], planner[5], planner[6]
    p = st[ST_PLAYER]
    b0 = _best_option(opt_v, root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood,
                                          params, planner))
    v0 = opt_v[b0]
    _adopt(opts[b0], plan, True)
    # offer only the tile whose best placement this turn is worth least (none: worth nothing)
    give, give_v = -1, 1e18
    for s in range(cfg[CFG_HAND]):
        if hands[p * MAX_HAND + s] >= 0:
            v = -1e9
            for i in range(planner[4][ORDER_N_ROOT]):
                if cand[0, i, CAND_SLOT] == s:
                    v = max(v, cand_v[0, i])
            if v < give_v:
                give, give_v = s, v
    best, best_i = params[LA_TRADE], -1
    for i in range(n):
        if actions[i, 0] != ACT_TRADE or actions[i, 1] != give:
            continue
        a, o, c = actions[i, 1], actions[i, 2], actions[i, 3]
        mine, theirs = p * MAX_HAND + a, o * MAX_HAND + c
        t, u = hands[mine], hands[theirs]
        loss = (_best_local(tt, cfg, g, board, pos, piers, st[ST_N_PIERS], u, ships[o], flood,
                            planner[1], params)
                - _best_local(tt, cfg, g, board, pos, piers, st[ST_N_PIERS], t, ships[o], flood,
                              planner[1], params))
        hands[mine], hands[theirs] = u, t
        k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
        v = opt_v[_best_option(opt_v, k)]
        hands[mine], hands[theirs] = t, u
        if v - v0 - loss > best:
            best, best_i = v - v0 - loss, i
    if best_i >= 0:
        plan[PLAN_TURN] = -1  # the hand changes: plan again after the trade
    return best_i


@internal
def _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n, params,
                 planner):
    """Weigh the trades once per turn, before the first plan (2+ players); -1 for no trade."""
    plan = planner[0]
    if cfg[CFG_PLAYERS] == 1 or st[ST_TRADED] == 1 or plan[PLAN_TRADES_SEEN] == st[ST_TURNS]:
        return -1
    plan[PLAN_TRADES_SEEN] = st[ST_TURNS]
    return _trade_choice(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)


@internal
def _lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n, params,
               planner):
    plan, opts, opt_v = planner[0], planner[5], planner[6]
    if not _plan_valid(st, hands, plan):
        i = _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)
        if i >= 0:
            return i
        if not _plan_valid(st, hands, plan):  # (weighing the trades leaves the no-trade plan)
            k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
            _adopt(opts[_best_option(opt_v, k)], plan, True)
    return follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan)


# --------------------------------------------------------------------------- rollout, oracle
#
# At each new plan, the best `options` turn options by lookahead value are each continued
# `samples` times to the end of the game (or `horizon` turns) by the inner policy, on the real
# board (undone afterwards) with copies of the small state arrays. rollout shuffles the unseen
# tiles for every sample (the same shuffle for every option: common random numbers); oracle
# continues once on the true draw order. The option with the best mean final score is played.

R_SAMPLES = 8  # continuations per option (oracle: always 1)
R_OPTIONS = 9  # options continued: the best by lookahead value
R_INNER = 10  # policy id playing the continuations (greedy or lookahead)
R_HORIZON = 11  # rounds continued after the current turn; 0 = to the end of the game
O_REPLAY = 12  # oracle: samples, options, inner, horizon of the rollout it replays


def new_sim(n_tiles):
    """The small state arrays a continuation plays on (board, pos, placed, piers are shared)."""
    st = np.zeros(ST_SIZE, np.int64)
    hands = np.full(MAX_PLAYERS * MAX_HAND, -1, np.int64)
    ships = np.zeros(MAX_PLAYERS, np.int64)
    deck = np.zeros(n_tiles, np.int64)
    actions = np.zeros((MAX_ACTIONS, 4), np.int64)
    rng = np.zeros(2, np.uint64)
    keys = np.zeros(MAX_ACTIONS + 4, np.int64)
    score = np.zeros(N_COLS, np.int64)
    oracle_ids = np.zeros(MAX_PLAYERS, np.int64)
    oracle_row = np.zeros(N_COLS, np.int64)
    oracle_params = np.zeros((MAX_PLAYERS, N_PARAMS), np.float64)
    return ((st, hands, ships, deck, actions, rng, keys, score) + new_planner(n_tiles)
            + (oracle_ids, oracle_row, oracle_params))


@internal
def choose_fair(policy_id, params, tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood,
                actions, n, rng, keys, planner):
    """Policies that see only what a player sees (the deck array is read as a multiset)."""
    if policy_id == POLICY_GREEDY:
        return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
    if policy_id == POLICY_LOOKAHEAD:
        i = _lookahead(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                       params, planner)
        if i >= 0:
            return i
        return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
    return uniform_int(rng, n)  # POLICY_RANDOM


@internal
def _sort_range(a, lo, hi):
    """a[lo:hi] in increasing order, in place (insertion sort: a pile holds at most 63 tiles)."""
    for i in range(lo + 1, hi):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@internal
def _continue(tt, cfg, g, game, option, key, true_deck, params):
    """Final score of the game continued from here with option played first; undone after."""
    st, board, pos, placed, piers, hands, ships, deck, flood = game[:9]
    sim = game[WS_SIM]
    sst, shands, sships, sdeck, sactions, srng, skeys, score = sim[:8]
    splanner = sim[8:17]
    _copy(st, sst)
    _copy(hands, shands)
    _copy(ships, sships)
    _copy(deck, sdeck)
    srng[0], srng[1] = key, 0
    if not true_deck:  # the unseen order is unknown: a shuffle of the rest of the pile, started from
        lo = sst[ST_DECK_POS]  # tile order so that it depends on which tiles are left, not on their order
        _sort_range(sdeck, lo, sst[ST_DECK_LEN])
        for i in range(sst[ST_DECK_LEN] - 1, lo, -1):
            j = lo + uniform_int(srng, i - lo + 1)
            sdeck[i], sdeck[j] = sdeck[j], sdeck[i]
    _adopt(option, splanner[0], False)
    splanner[0][PLAN_TRADES_SEEN] = st[ST_TURNS]  # this turn's trades were weighed for real
    n0 = st[ST_N_PLACED]
    turns0 = st[ST_TURNS]
    horizon = int(params[R_HORIZON]) * cfg[CFG_PLAYERS]  # rounds -> turns
    inner = int(params[R_INNER])
    ended = False
    while not (ended and _game_over(cfg, sst, shands)) and (horizon <= 0 or sst[ST_TURNS] - turns0 <= horizon):
        n = legal_actions(tt, cfg, g, sst, board, shands, sships, sactions)
        i = -1
        if _plan_valid(sst, shands, splanner[0]):
            i = follow_plan(tt, cfg, g, sst, board, shands, sships, flood, sactions, n, splanner[0])
        if i < 0:
            i = choose_fair(inner, params, tt, cfg, g, sst, board, pos, piers, shands, sships, sdeck,
                            flood, sactions, n, srng, skeys, splanner)
        ended = take_action(tt, cfg, g, sst, board, pos, placed, piers, shands, sships, sdeck,
                            sactions[i, 0], sactions[i, 1], sactions[i, 2], sactions[i, 3])
    total = float(score_board(tt, cfg, board, pos, placed, sst[ST_N_PLACED], g, flood, score))
    if not (ended and _game_over(cfg, sst, shands)):  # cut at the horizon: add what is in the making
        unseen_fill(tt, cfg, sst, shands, sdeck, st[ST_PLAYER], splanner[1])
        total += board_value(tt, board, g, pos, placed, sst[ST_N_PLACED], splanner[1], params)
    for k in range(sst[ST_N_PLACED] - 1, n0 - 1, -1):
        lift_tile(tt, board, g, pos[placed[k]])
        pos[placed[k]] = -1
    return total


@internal
def _rollout(policy_id, params, tt, cfg, g, game, n):
    st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
    rng = game[11]
    planner = game[WS_PLANNER:WS_SIM]
    plan, opts, opt_v = planner[0], planner[5], planner[6]
    if not _plan_valid(st, hands, plan):
        i = _maybe_trade(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, actions, n,
                         params, planner)
        if i >= 0:
            return i
        k = root_options(tt, cfg, g, st, board, pos, piers, hands, ships, deck, flood, params, planner)
        order = planner[4][:MAX_OPTIONS]
        m = _top(opt_v, k, min(max(int(params[R_OPTIONS]), 1), MAX_OPTIONS), order)
        oracle = policy_id == POLICY_ORACLE
        samples = 1 if oracle else max(int(params[R_SAMPLES]), 1)
        means = planner[1][:MAX_OPTIONS]  # fill table slots are free again once options exist
        means[:] = 0.0
        if m > 1:
            for _ in range(samples):
                key = next_u64(rng)
                for j in range(m):
                    means[j] += _continue(tt, cfg, g, game, opts[order[j]], key, oracle, params)
        best = 0
        for j in range(1, m):
            if means[j] > means[best]:
                best = j
        _adopt(opts[order[best]], plan, False)  # rollouts weigh every placement
    i = follow_plan(tt, cfg, g, st, board, hands, ships, flood, actions, n, plan)
    if i < 0:
        i = _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, game[12])
    return i


@inline
def choose_action(tier, policy_id, params, tt, cfg, g, game, n):
    """The one policy entry point: index of the chosen action among the n legal ones.

    A policy sees the whole state (the deck array holds the draw order from
    st[ST_DECK_POS] on; fair policies use it only as a multiset), draws only from its
    own stream (game[11]) and keeps its scratch in the workspace.

    tier (`policy_tier`) is the costliest policy the kernel must hold, a constant where this is
    merged (`_play_of`): numba drops the other tiers' branches before it compiles, so a greedy
    run does not wait for the lookahead, rollout and oracle code to compile."""
    st, board, pos, placed, piers, hands, ships, deck, flood, actions, deck_rng, rng, keys = game[:13]
    if tier <= POLICY_GREEDY:
        if policy_id == POLICY_GREEDY:
            return _greedy(tt, cfg, g, st, board, pos, piers, hands, ships, flood, actions, n, rng, keys)
        return uniform_int(rng, n)
    if tier >= POLICY_ROLLOUT:
        if policy_id == POLICY_ROLLOUT or policy_id == POLICY_ORACLE:
            return _rollout(policy_id, params, tt, cfg, g, game, n)
    return choose_fair(policy_id, params, tt, cfg, g, st, board, pos, piers, hands, ships, deck,
                       flood, actions, n, rng, keys, game[WS_PLANNER:WS_SIM])


def policy_tier(policy_ids):
    """The tier a game with these seats needs: policies are numbered by cost, random and
    greedy share the smallest tier (greedy is every policy's fallback)."""
    return max(int(max(policy_ids)), POLICY_GREEDY)


# --------------------------------------------------------------------------- games


@internal
def _reset(st, board, pos, placed, piers, hands, ships, deck, deck_rng, rng, tt, cfg, g, active, hq, seed,
           index):
    for i in range(st[ST_N_PLACED]):
        lift_tile(tt, board, g, pos[placed[i]])
        pos[placed[i]] = -1
    st[:] = 0
    st[ST_TOKENS] = cfg[CFG_TOKENS]
    hands[:] = -1
    stream_init(deck_rng, seed, index, np.int64(PURPOSE_DECK))  # np.int64: one compilation for both
    stream_init(rng, seed, index, np.int64(PURPOSE_POLICY))
    centre = (g // 2) * g + g // 2
    _place(tt, g, st, board, pos, placed, piers, hq, centre)
    players = cfg[CFG_PLAYERS]
    for p in range(players):
        ships[p] = centre
    # the draw pile: active tiles but the HQ, Fisher-Yates shuffled by the deck stream
    n = 0
    for t in range(active.shape[0]):
        if active[t] and t != hq:
            deck[n] = t
            n += 1
    for i in range(n - 1, 0, -1):
        j = uniform_int(deck_rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    st[ST_DECK_LEN] = n
    for p in range(players):
        _draw_up(cfg, st, hands, deck, p)


@internal
def _game_over(cfg, st, hands):
    if st[ST_DECK_POS] < st[ST_DECK_LEN]:
        return False
    for i in range(cfg[CFG_PLAYERS] * MAX_HAND):
        if hands[i] >= 0:
            return False
    return True


@inline
def play_game(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
    """Play game `index` to the end; result columns into out[:N_COLS].

    trace: int64[k, 5] buffer receiving (player, kind, a, b, c) of every action taken,
    for replays and reference checks; pass a zero-row array to skip. Returns the number
    of actions taken.

    The oracle knows the draw order, so it can also play exactly as a fair policy would:
    its game is the best of the greedy, lookahead and rollout replays and its own search.
    tier: `policy_tier(policy_ids)`, a compile-time constant (see choose_action).
    """
    if tier >= POLICY_LOOKAHEAD:  # tier is a constant: numba compiles only what the tier holds
        forget_plan(game[WS_PLANNER])
    if tier != POLICY_ORACLE:  # (one of the two _play calls)
        return _play(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    sim = game[WS_SIM]
    ids, row, params = sim[17], sim[18], sim[19]
    runs = len(ORACLE_VARIANTS) + 1  # each variant, then the best again
    best, best_score, n_taken = np.int64(0), -1, 0
    for k in range(runs):
        last = k == runs - 1
        _oracle_variant(cfg, policy_ids, policy_params, ids, params, best if last else k)
        forget_plan(game[WS_PLANNER])
        n_taken = _play(tier, game, tt, cfg, g, active, hq, ids, params, seed, index, out if last else row,
                        trace if last else trace[:0])
        if not last and row[COL_SCORE] > best_score:
            best, best_score = k, row[COL_SCORE]
    return n_taken


ORACLE_VARIANTS = (POLICY_GREEDY, POLICY_LOOKAHEAD, POLICY_ROLLOUT, POLICY_ORACLE)


@internal
def _oracle_variant(cfg, policy_ids, policy_params, ids, params, k):
    """Seats of the oracle play variant k; a rollout replay takes the oracle's replay_* values."""
    for p in range(MAX_PLAYERS):
        ids[p] = policy_ids[p]
        for j in range(policy_params.shape[1]):
            params[p, j] = policy_params[p, j]
        if policy_ids[p] == POLICY_ORACLE:
            ids[p] = ORACLE_VARIANTS[k]
            if ids[p] == POLICY_ROLLOUT:
                for j in range(4):
                    params[p, R_SAMPLES + j] = policy_params[p, O_REPLAY + j]


def _play_of(tier):
    """The game loop for one policy tier (see play_game). tier is a constant of this closure, so
    numba drops the other tiers' branches of choose_action before typing them (it prunes on
    constants, not on literal arguments). Compiled on its own, once per tier: merged into
    play_game it compiled 1.7 s slower."""
    @internal
    def play_of_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
        st, board, pos, placed, piers, hands, ships, deck, flood, actions = game[:10]
        _reset(st, board, pos, placed, piers, hands, ships, deck, game[10], game[11], tt, cfg, g, active, hq, seed,
               index)
        n_taken = 0
        ended = True  # the game can only end between turns
        while not (ended and _game_over(cfg, st, hands)) and st[ST_TURNS] < TURN_LIMIT:
            p = st[ST_PLAYER]
            n = actions_for(policy_ids[p], tt, cfg, g, st, board, hands, ships, actions)
            i = choose_action(tier, policy_ids[p], policy_params[p], tt, cfg, g, game, n)
            if n_taken < trace.shape[0]:
                trace[n_taken, 0] = p
                for k in range(4):
                    trace[n_taken, k + 1] = actions[i, k]
            n_taken += 1
            ended = take_action(tt, cfg, g, st, board, pos, placed, piers, hands, ships, deck,
                                actions[i, 0], actions[i, 1], actions[i, 2], actions[i, 3])
        score = score_board(tt, cfg, board, pos, placed, st[ST_N_PLACED], g, flood, out)
        out[COL_TILES_PLACED] = st[ST_N_PLACED] - 1  # the HQ is not placed by a player
        out[COL_TILES_DISCARDED] = st[ST_DISCARDED]
        out[COL_TURNS] = st[ST_TURNS]
        out[COL_MOVES] = st[ST_MOVES]
        out[COL_TRADES] = st[ST_TRADES]
        out[COL_RANK] = rank_of(cfg, score)
        return n_taken
    return play_of_tier


# Module globals, not captured by play_game's callers: numba's cache keys a closure by what it
# captures, and a captured kernel pickles differently in every process
_play_greedy_tier = _play_of(POLICY_GREEDY)
_play_lookahead_tier = _play_of(POLICY_LOOKAHEAD)
_play_rollout_tier = _play_of(POLICY_ROLLOUT)
_play_oracle_tier = _play_of(POLICY_ORACLE)


@inline
def _play(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace):
    """The tier's game loop; tier is a constant where play_game is merged."""
    if tier <= POLICY_GREEDY:
        return _play_greedy_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    if tier == POLICY_LOOKAHEAD:
        return _play_lookahead_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    if tier == POLICY_ROLLOUT:
        return _play_rollout_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)
    return _play_oracle_tier(game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, index, out, trace)


@kernel  # Python calls it too
def grid_size(n_tiles):
    """Side of the square board: a chain of all tiles plus a free ring fits from the centre."""
    return 2 * n_tiles + 3


@inline
def simulate_range(tier, game, tt, cfg, active, hq, policy_ids, policy_params, seed, start, out, trace, layout):
    """Play games start .. start + out.shape[1] - 1; column j of out gets game start + j.

    game: a workspace from new_workspace (any previous game in it is cleared); tier:
    policy_tier(policy_ids), a compile-time constant: Python calls simulate_range_of(tier).

    For the first game of the range, trace gets its actions (player, kind, a, b, c) and
    layout[i] = (row, col, tile) its placed tiles relative to the HQ (zero rows: skipped); that
    makes a replay the same compiled code as a run. Returns (tiles placed, actions) of that game.
    """
    g = grid_size(tt.shape[0])
    row = game[WS_ROW]
    first = (0, 0)
    for j in range(out.shape[1]):
        n_actions = play_game(tier, game, tt, cfg, g, active, hq, policy_ids, policy_params, seed, start + j,
                              row, trace[:trace.shape[0] if j == 0 else 0])
        for k in range(N_COLS):
            out[k, j] = row[k]
        if j == 0:
            first = (game[0][ST_N_PLACED], n_actions)
            if layout.shape[0] > 0:
                _board_layout(game[0], game[2], game[3], g, layout)
    return first


def _simulate_range_entry(tier):
    @kernel
    def simulate_range_of_tier(game, tt, cfg, active, hq, policy_ids, policy_params, seed, start, out, trace,
                               layout):
        return simulate_range(tier, game, tt, cfg, active, hq, policy_ids, policy_params, seed, start, out,
                              trace, layout)
    return simulate_range_of_tier


# Python's entry points, one per tier: the tier reaches the kernel as a constant
_SIMULATE_RANGE = {tier: _simulate_range_entry(tier)
                   for tier in (POLICY_GREEDY, POLICY_LOOKAHEAD, POLICY_ROLLOUT, POLICY_ORACLE)}


def simulate_range_of(tier):
    """simulate_range compiled for a tier (`policy_tier`); call it without the tier argument."""
    return _SIMULATE_RANGE[tier]


@internal
def _board_layout(st, pos, placed, g, layout):
    centre = g // 2
    for i in range(st[ST_N_PLACED]):
        t = placed[i]
        layout[i, 0] = pos[t] // g - centre
        layout[i, 1] = pos[t] % g - centre
        layout[i, 2] = t


@allocating
def score_layout(tt, cfg, rows, cols, tile_ids, out):
    """Score a finished board given as (row, col, tile) triples; breakdown into out[:N_COLS].

    The caller has validated the layout (analyzer/beacon/layout.py)."""
    n_tiles = tt.shape[0]
    g = grid_size(n_tiles)
    board = np.zeros((g * g, 2), np.int16)
    board[:, B_TILE] = -1
    pos = np.full(n_tiles, -1, np.int64)
    r0 = rows.min()
    c0 = cols.min()
    for i in range(rows.shape[0]):
        cell = (rows[i] - r0 + 1) * g + (cols[i] - c0 + 1)
        put_tile(tt, board, g, tile_ids[i], cell)
        pos[tile_ids[i]] = cell
    placed = tile_ids.astype(np.int64)
    flood = np.zeros(flood_size(n_tiles), np.int64)
    score = score_board(tt, cfg, board, pos, placed, placed.shape[0], g, flood, out)
    out[COL_RANK] = rank_of(cfg, score)
    return score
