"""The Catan kernels (numba) every Catan game builds on, one module per concern:

codes       integer codes of terrains, resources and buildings; pips
deal        random legal boards: a scenario's variable set-up dealt from one stream per board
dice        the pair of dice, the lower die, blocks of rolls
flags       land, islands and coasts of a dealt terrain
production  production of a roll, the 7 (discards, robber, steal), roll sequences over a board
fortress    pirate-fortress battles and sieges (The Pirate Islands)
pirates     the pirate, the pirate fleet's raids, and the Pirate Islands race
route       the longest trade route of roads and ships (the full game's "Maior estrada comercial")
table       a random board's per-deal arrays of the full game's Board, filled in place
play        the full game's one game loop (fixed or dealt boards, invariants checked if asked)

Each kernel takes its static arrays as one named tuple (deal.DealPlan, production.Board,
pirates.Board) and writes its results into arrays the caller owns.
"""
