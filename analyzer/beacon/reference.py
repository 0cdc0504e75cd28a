"""A slow, obvious, pure-Python Beacon Patrol: the oracle the numba kernel is tested against.

Written independently of the kernels' data structures (kernels/beacon/): the board is a dict
{(row, col): tile}, the HQ at (0, 0); ships are (row, col) tuples; hands are lists with None
for empty slots; the draw pile is a list. It plays a game exactly as the kernel does (same
random draws in the same order, same canonical action order, same policies and tie-breaks),
so tests can compare whole action traces.

Rulebook references ("p. N") are to the official rulebook, seed 000 (Portuguese edition);
where it is silent the assumptions of analyzer/beacon/data/rules.toml apply.

Actions are tuples (kind, a, b, c), the kernel's encoding:
    (MOVE, dir, 0, 0), (PLACE, slot, dir, 0), (DISCARD_MOVE, slot, dir, 0),
    (TRADE, slot, partner, partner_slot), (END, keep_slot or -1, 0, 0).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from analyzer.beacon.rules import load_rules
from analyzer.beacon.tiles import TileSet
from analyzer.rng_reference import Stream
from kernels.beacon import (  # plain integer constants only, no kernel code
    CFG_PTS_BUOY,
    CFG_PTS_HQ,
    CFG_PTS_LIGHTHOUSE,
    CFG_PTS_OTHER,
    CFG_PTS_PIER,
    CFG_PTS_WINDMILL,
    CFG_RANK0,
    COLUMN_NAMES,
    FEATURE_BUOY,
    FEATURE_HQ,
    FEATURE_LIGHTHOUSE,
    FEATURE_PIER,
    FEATURE_WINDMILL,
)

__all__ = ["play_game", "score"]

MOVE, PLACE, DISCARD_MOVE, TRADE, END = 0, 1, 2, 3, 4
DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W
TURN_LIMIT = 100_000  # the kernel's guard; never reached by a rule-following game
SCORE_COLUMNS = COLUMN_NAMES[:COLUMN_NAMES.index("pier_points") + 1]

PURPOSE_DECK, PURPOSE_POLICY = 0, 1  # kernels/rng.py


# --------------------------------------------------------------------------- tiles and board


@dataclass(frozen=True)
class Tile:
    land: tuple[bool, bool, bool, bool]  # N, E, S, W
    mass: tuple[int, int, int, int]  # land-mass index per edge, -1 water
    feature: int
    buildings: dict[int, int]  # mass -> buildings on it
    pier_masses: tuple[int, ...]
    open_sea: bool


def tile_list(tiles: TileSet) -> list[Tile]:
    out = []
    for t in range(tiles.n):
        out.append(Tile(
            land=tuple(bool(x) for x in tiles.edge_land[t]),
            mass=tuple(int(m) for m in tiles.edge_mass[t]),
            feature=int(tiles.feature[t]),
            buildings={k: int(c) for k, c in enumerate(tiles.mass_buildings[t]) if c},
            pier_masses=tuple(k for k in range(26) if int(tiles.pier_mask[t]) >> k & 1),
            open_sea=bool(tiles.open_sea[t]),
        ))
    return out


def step(cell, d):
    return cell[0] + DIRS[d][0], cell[1] + DIRS[d][1]


def opposite(d):
    return (d + 2) % 4


def fits(tl, board, t, cell) -> bool:
    """p. 5 rule 3: the cell is empty and every edge meets a placed neighbour land-to-land,
    water-to-water."""
    if cell in board:
        return False
    for d in range(4):
        u = board.get(step(cell, d))
        if u is not None and tl[t].land[d] != tl[u].land[opposite(d)]:
            return False
    return True


def can_place(tl, board, ship, t, d) -> bool:
    """p. 4 rule 1 (orthogonally next to the current tile) and p. 5 rule 5 (joined to it by a
    water edge), plus the fit (p. 5 rule 3). Tiles never rotate (p. 4 rule 2)."""
    return not tl[board[ship]].land[d] and fits(tl, board, t, step(ship, d))


def can_sail(tl, board, ship, d) -> bool:
    """p. 5 "Mover o seu Navio": only to a placed orthogonal neighbour across a water edge."""
    return step(ship, d) in board and not tl[board[ship]].land[d]


def is_explored(board, cell) -> bool:
    """p. 3: a tile is explored when placed tiles touch it in all four directions."""
    return cell in board and all(step(cell, d) in board for d in range(4))


def placed_neighbours(board, cell) -> int:
    return sum(step(cell, d) in board for d in range(4))


# --------------------------------------------------------------------------- scoring


def pier_buildings(tl, board, pier_cell) -> int:
    """p. 8 "Cais": buildings on all land the pier is attached to, followed across tiles
    (the land need not be explored or complete). BFS over (cell, mass) nodes."""
    t = board[pier_cell]
    start = [(pier_cell, m) for m in tl[t].pier_masses]
    seen = set(start)
    queue = deque(start)
    total = 0
    while queue:
        cell, m = queue.popleft()
        tile = tl[board[cell]]
        total += tile.buildings.get(m, 0)
        for d in range(4):
            nb = step(cell, d)
            if tile.mass[d] != m or nb not in board:
                continue
            node = (nb, tl[board[nb]].mass[opposite(d)])
            if node not in seen:
                seen.add(node)
                queue.append(node)
    return total


def tile_points(tl, board, cell, pts) -> int:
    """Points of an explored tile: p. 6 (lighthouse and HQ 3, buoy 2, other 1), p. 7 windmill
    (1 + 1 per orthogonally adjacent open-sea tile), p. 8 pier (1 + 1 per connected building)."""
    f = tl[board[cell]].feature
    if f == FEATURE_LIGHTHOUSE:
        return pts["lighthouse"]
    if f == FEATURE_HQ:
        return pts["hq"]
    if f == FEATURE_BUOY:
        return pts["buoy"]
    if f == FEATURE_WINDMILL:
        return pts["windmill"] + sum(tl[board[step(cell, d)]].open_sea for d in range(4))
    if f == FEATURE_PIER:
        return pts["pier"] + pier_buildings(tl, board, cell)
    return pts["other"]


def points_of(cfg) -> dict:
    """The point values from the kernel's cfg vector (filled from rules.toml)."""
    return {"lighthouse": int(cfg[CFG_PTS_LIGHTHOUSE]), "hq": int(cfg[CFG_PTS_HQ]),
            "buoy": int(cfg[CFG_PTS_BUOY]), "other": int(cfg[CFG_PTS_OTHER]),
            "windmill": int(cfg[CFG_PTS_WINDMILL]), "pier": int(cfg[CFG_PTS_PIER])}


def score_tl(tl, board, pts) -> dict:
    """p. 6: only explored tiles score. Breakdown with the score columns of COLUMN_NAMES."""
    out = dict.fromkeys(SCORE_COLUMNS, 0)
    for cell, t in board.items():
        if not is_explored(board, cell):
            continue
        p = tile_points(tl, board, cell, pts)
        f = tl[t].feature
        out["score"] += p
        out["explored"] += 1
        if f in (FEATURE_LIGHTHOUSE, FEATURE_HQ):
            out["explored_lighthouse"] += 1
        elif f == FEATURE_BUOY:
            out["explored_buoy"] += 1
        elif f == FEATURE_WINDMILL:
            out["explored_windmill"] += 1
            out["windmill_points"] += p
        elif f == FEATURE_PIER:
            out["explored_pier"] += 1
            out["pier_points"] += p
        else:
            out["explored_other"] += 1
    return out


def score(tiles: TileSet, board: dict, cfg) -> dict:
    """Score a board {(row, col): tile} with the point values of the kernel cfg vector."""
    return score_tl(tile_list(tiles), board, points_of(cfg))


def rank(cfg, points: int) -> int:
    """pp. 7-8: the highest band whose lower bound (shifted per expansion) is reached."""
    return max(k for k in range(5) if points >= cfg[CFG_RANK0 + k])


# --------------------------------------------------------------------------- game state


@dataclass
class Game:
    tl: list[Tile]
    players: int
    hand_size: int
    tokens_per_turn: int
    pts: dict
    keep_on_empty_pile: bool = False  # rules.toml [options] solo_keep_on_empty_pile
    board: dict = field(default_factory=dict)
    ships: list = field(default_factory=list)
    hands: list = field(default_factory=list)
    deck: list = field(default_factory=list)
    player: int = 0
    tokens: int = 0
    traded: bool = False
    discarded: int = 0
    turns: int = 0
    moves: int = 0
    trades: int = 0


def setup(tiles: TileSet, players: int, expansions, seed: int, index: int, rules=None) -> Game:
    """p. 2 "Preparação": HQ in the centre, expansion tiles only if chosen, shuffle the rest
    into the draw pile, all ships on the HQ; p. 3 step 5: each player draws a hand (table p. 3).
    Shuffle: Fisher-Yates from the end with the deck stream; dealing seat by seat. `rules`: the
    rules.toml [options] to switch, as for simulate."""
    book = load_rules()
    options = book.choose(rules)
    cfg = book.cfg(players, len(expansions), options)
    g = Game(tl=tile_list(tiles), players=players, hand_size=book.hand_size[players],
             tokens_per_turn=book.move_tokens[players], pts=points_of(cfg),
             keep_on_empty_pile=options["solo_keep_on_empty_pile"])
    g.tokens = g.tokens_per_turn  # p. 3 step 5: tokens dealt blue side up; seat 0 plays first
    hq = tiles.hq
    g.board[(0, 0)] = hq
    g.ships = [(0, 0)] * players
    active = tiles.active(expansions)
    g.deck = [t for t in range(tiles.n) if active[t] and t != hq]
    rng = Stream(seed, index, PURPOSE_DECK)
    for i in range(len(g.deck) - 1, 0, -1):
        j = rng.below(i + 1)
        g.deck[i], g.deck[j] = g.deck[j], g.deck[i]
    g.deck.reverse()  # draw from the end of the list = the front of the shuffled order
    g.hands = [[None] * g.hand_size for _ in range(players)]
    for p in range(players):
        draw_up(g, p)
    return g


def draw_up(g: Game, p: int) -> None:
    """p. 6 "Fim de Turno" 1: refill the hand (empty slots in order) from the draw pile."""
    for s in range(g.hand_size):
        if g.hands[p][s] is None and g.deck:
            g.hands[p][s] = g.deck.pop()


def game_over(g: Game) -> bool:
    """p. 6: the game ends when every tile has been placed or discarded."""
    return not g.deck and all(t is None for hand in g.hands for t in hand)


# --------------------------------------------------------------------------- actions


def legal_actions(g: Game) -> list[tuple[int, int, int, int]]:
    """Every legal action in the canonical order: place (slot, dir), move (dir),
    discard-to-move (slot, dir), trade (slot, partner in seat order after the player,
    partner slot), end turn (keep none, then the solo keep of slot s)."""
    p, ship, hand = g.player, g.ships[g.player], g.hands[g.player]
    acts = []
    for s, t in enumerate(hand):  # p. 4-5 "Posicionar peças"
        if t is not None:
            acts += [(PLACE, s, d, 0) for d in range(4) if can_place(g.tl, g.board, ship, t, d)]
    if g.tokens > 0:  # p. 5 "Mover o seu Navio": one token per step
        acts += [(MOVE, d, 0, 0) for d in range(4) if can_sail(g.tl, g.board, ship, d)]
    for s, t in enumerate(hand):  # p. 6: discard a tile to move one space, no token
        if t is not None:
            acts += [(DISCARD_MOVE, s, d, 0) for d in range(4) if can_sail(g.tl, g.board, ship, d)]
    if g.players > 1 and not g.traded:  # p. 6 "Trocar Peças": once per turn, 2+ players
        for s, t in enumerate(hand):
            if t is None:
                continue
            for k in range(1, g.players):
                o = (p + k) % g.players
                acts += [(TRADE, s, o, s2) for s2, u in enumerate(g.hands[o]) if u is not None]
    acts.append((END, -1, 0, 0))
    held = sum(t is not None for t in hand)  # p. 6: solo may keep 1 tile; rules.toml [options] says when
    if g.players == 1 and (g.deck or (g.keep_on_empty_pile and held >= 2)):
        acts += [(END, s, 0, 0) for s, t in enumerate(hand) if t is not None]
    return acts


def apply(g: Game, action) -> bool:
    """Carry out one action; True when it ended the turn."""
    kind, a, b, c = action
    p = g.player
    hand = g.hands[p]
    if kind == PLACE:  # p. 5 rule 4: the ship moves onto the new tile for free
        cell = step(g.ships[p], b)
        g.board[cell] = hand[a]
        hand[a] = None
        g.ships[p] = cell
    elif kind == MOVE:
        g.ships[p] = step(g.ships[p], a)
        g.tokens -= 1
        g.moves += 1
    elif kind == DISCARD_MOVE:  # discarded tiles leave the game (p. 6)
        hand[a] = None
        g.discarded += 1
        g.ships[p] = step(g.ships[p], b)
    elif kind == TRADE:
        hand[a], g.hands[b][c] = g.hands[b][c], hand[a]
        g.traded = True
        g.trades += 1
    else:  # p. 6 "Fim de Turno": discard unplaced tiles (but the solo keep), draw up
        for s in range(g.hand_size):
            if s != a and hand[s] is not None:
                hand[s] = None
                g.discarded += 1
        draw_up(g, p)
        g.turns += 1
        return True
    return False


def take(g: Game, action) -> bool:
    """apply; when the action ends the turn (returns True), the next player clockwise (p. 4: "Os
    jogadores revezam turnos em sentido horário") starts with every token blue side up (p. 6 "Fim de
    Turno" 2) and may trade again. The kernel's take_action."""
    if apply(g, action):
        g.player = (g.player + 1) % g.players
        g.tokens, g.traded = g.tokens_per_turn, False
        return True
    return False


# --------------------------------------------------------------------------- policies


def pick_tied(keys: list, rng: Stream):
    """Index of a uniformly chosen action among those with the best key (None = no key);
    None when no action has a key. A random draw is made only when 2+ actions tie."""
    valid = [k for k in keys if k is not None]
    if not valid:
        return None
    best = max(valid)
    tied = [i for i, k in enumerate(keys) if k == best]
    return tied[0] if len(tied) == 1 else tied[rng.below(len(tied))]


def placement_key(g: Game, t: int, cell, before: int) -> int:
    """Greedy key of putting tile t on cell: score change * 16 + placed neighbours."""
    g.board[cell] = t
    gain = score_tl(g.tl, g.board, g.pts)["score"] - before
    del g.board[cell]
    return gain * 16 + placed_neighbours(g.board, cell)


def placements_from(g: Game, cell, skip_slot: int = -1) -> int:
    """Number of (slot, dir) placements the current player would have with the ship on cell."""
    return sum(can_place(g.tl, g.board, cell, t, d)
               for s, t in enumerate(g.hands[g.player]) if t is not None and s != skip_slot
               for d in range(4))


def sail_values(g: Game) -> list:
    """For each first step N, E, S, W: max(placements * 64 - steps) over the tiles reached
    within the tokens left, breadth-first (a tile belongs to the first step that reached it
    first); None where no such tile has a placement."""
    best = [None] * 4
    if g.tokens <= 0:
        return best
    ship = g.ships[g.player]
    seen = {ship}
    queue = deque([(ship, 0, -1)])
    while queue:
        cell, depth, first = queue.popleft()
        if depth > 0:
            k = placements_from(g, cell)
            if k > 0:
                v = k * 64 - depth
                best[first] = v if best[first] is None else max(best[first], v)
        if depth < g.tokens:
            for d in range(4):
                nxt = step(cell, d)
                if can_sail(g.tl, g.board, cell, d) and nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, depth + 1, d if depth == 0 else first))
    return best


KEEP_PRIORITY = {0: 1, FEATURE_LIGHTHOUSE: 3, FEATURE_BUOY: 2, FEATURE_HQ: 0,
                 FEATURE_WINDMILL: 2, FEATURE_PIER: 2}


def greedy(g: Game, acts, rng: Stream) -> int:
    """1. place for the most points (then more placed neighbours); 2. trade for the tile with
    the best placement here; 3. sail (token) towards the most placements; 4. discard a tile to
    step next to placements; 5. end the turn, solo keeping the most valuable tile."""
    p, ship = g.player, g.ships[g.player]
    before = score_tl(g.tl, g.board, g.pts)["score"]
    keys = [placement_key(g, g.hands[p][a], step(ship, b), before) if kind == PLACE else None
            for kind, a, b, c in acts]
    if (i := pick_tied(keys, rng)) is not None:
        return i
    keys = [None] * len(acts)
    for i, (kind, a, b, c) in enumerate(acts):
        if kind == TRADE:
            u = g.hands[b][c]
            vals = [placement_key(g, u, step(ship, d), before)
                    for d in range(4) if can_place(g.tl, g.board, ship, u, d)]
            keys[i] = max(vals) if vals else None
    if (i := pick_tied(keys, rng)) is not None:
        return i
    by_first = sail_values(g)
    keys = [by_first[a] if kind == MOVE else None for kind, a, b, c in acts]
    if (i := pick_tied(keys, rng)) is not None:
        return i
    keys = [None] * len(acts)
    for i, (kind, a, b, c) in enumerate(acts):
        if kind == DISCARD_MOVE:
            k = placements_from(g, step(ship, b), skip_slot=a)
            keys[i] = k * 64 - 1 if k > 0 else None
    if (i := pick_tied(keys, rng)) is not None:
        return i
    keys = [(0 if a < 0 else KEEP_PRIORITY[g.tl[g.hands[p][a]].feature]) if kind == END else None
            for kind, a, b, c in acts]
    return pick_tied(keys, rng)


def choose(g: Game, policy: str, acts, rng: Stream) -> int:
    if policy == "greedy":
        return greedy(g, acts, rng)
    if policy == "random":  # one uniform draw over all legal actions, every decision
        return rng.below(len(acts))
    raise ValueError(f"unknown policy {policy!r}")


# --------------------------------------------------------------------------- a whole game


def play_game(tiles: TileSet, players: int, policy: str, expansions: frozenset[str], seed: int,
              index: int, rules=None) -> tuple[dict, list[tuple[int, int, int, int, int]], dict]:
    """Play game `index` of `seed`. Returns (result {column: int} for every COLUMN_NAMES entry,
    trace [(player, kind, a, b, c)], board {(row, col): tile} with the HQ at (0, 0)).

    p. 4: players take turns clockwise from the first player, each taking any actions in any
    order; p. 6: tokens flip back (here: are reset, see `take`) for every turn; the game ends when all
    tiles are placed or discarded."""
    expansions = frozenset(expansions)
    g = setup(tiles, players, expansions, seed, index, rules)
    cfg = load_rules().cfg(players, len(expansions))  # (the ranks only)
    rng = Stream(seed, index, PURPOSE_POLICY)
    trace = []
    while not game_over(g) and g.turns < TURN_LIMIT:  # the game ends only between turns
        while True:
            acts = legal_actions(g)
            action = acts[choose(g, policy, acts, rng)]
            trace.append((g.player, *action))
            if take(g, action):
                break
    result = score_tl(g.tl, g.board, g.pts)
    result.update(tiles_placed=len(g.board) - 1, tiles_discarded=g.discarded, turns=g.turns,
                  moves=g.moves, trades=g.trades, rank=rank(cfg, result["score"]))
    return {name: result[name] for name in COLUMN_NAMES}, trace, dict(g.board)
