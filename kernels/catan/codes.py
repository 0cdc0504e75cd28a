"""Integer codes shared by the Catan: Seafarers kernels and the Python layer.

Terrain codes double as indices into the terrain tables; a producing terrain t yields
resource t - FIRST_RESOURCE_TERRAIN (lumber 0, brick 1, wool 2, grain 3, ore 4).
"""

SEA = 0
DESERT = 1
GOLD = 2
LUMBER = 3  # forest
BRICK = 4  # hills
WOOL = 5  # pasture
GRAIN = 6  # fields
ORE = 7  # mountains
TERRAIN_NAMES = ("sea", "desert", "gold", "lumber", "brick", "wool", "grain", "ore")
FIRST_RESOURCE_TERRAIN = LUMBER
N_RESOURCES = 5
RESOURCE_NAMES = ("lumber", "brick", "wool", "grain", "ore")

# Buildings on a corner.
EMPTY = 0
SETTLEMENT = 1
CITY = 2

# Pips (ways to roll a number with 2d6, out of 36): the standard measure of a number's yield.
PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)
