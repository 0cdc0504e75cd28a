"""Integer codes and array layouts shared by the Beacon Patrol kernels and the Python layer.

The rules follow seed 000 (docs/rulebooks/000_e413b7b5f07f4277.txt, the official rulebook);
docs/beacon/engine.md states the canonical action order and every default where the rulebook is
silent. The arrays every kernel reads (shapes and dtypes):

tt     : int32[n_tiles, TT_COLS] tile table, one row per tile (columns TT_*); one array rather
         than a tuple because numba pays a reference count per tuple member on every call,
         which made small helpers 25x slower
cfg    : int64[CFG_SIZE] players, hand size, tokens, points, rank bounds, rules options (CFG_*)
board  : int16[g*g, 2] per cell (row-major, the HQ at the centre): the tile id (-1 empty) and a
         bit field of the placed neighbours and their facing edges (B_SIDES), kept up to date by
         put_tile/lift_tile, so that "does tile t fit here" is one mask test
st     : int64[ST_SIZE] the scalar game state (ST_*)
out    : one column of COLUMN_NAMES per game (COL_*)
The per-game arrays travel together as a Workspace (kernels/beacon/workspace.py).
"""

import numpy as np

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
