"""Our full-game bots as catanatron players, inside catanatron's own engine, on its base map and rules
(docs/seafarers/catanatron.md; needs the optional extra `.[catanatron]`, catanatron 3.2.1).

    player = OursPlayer(Color.RED, "value")                  # a catanatron Player
    game = catanatron.Game([player, RandomPlayer(Color.BLUE)], seed=1)
    game.play()

Per decision of our seat (OursPlayer.decide):
    1. `BridgeMap`: our kernel Board of catanatron's map (the base scenario's topology: catanatron's cube (x, y, z)
       is our axial (q, r) = (x, z); its node refs N, NE, SE, S, SW, NW are ours), with tables of catanatron's node
       and edge ids to our corners and edges (built once per map).
    2. `seat_view`: our kernel's Game filled from catanatron's State with only what the seat sees (below).
    3. Our bot scores our legal actions (kernels/catan/policies.py decide, as the golden traces call it); the best
       one that catanatron offers is played (`OFFERED`: every action kind both ways). What one engine offers and
       the other lacks is counted (OursPlayer.counts) and documented in docs/seafarers/catanatron.md.

Fair (what the seat sees): the board, every building and road, the robber, each player's resource-card count, its
played knights, its development-card count, who holds the longest road and the largest army, the bank's stacks and
the deck's size; its own hand and development cards. Hidden parts are filled neutrally: the other players' hands
are dealt, by their counts, from the resources none of the seat's known cards account for (the bank's size less the
bank and its own hand), resource by resource in a fixed order; the unseen development cards (the deck's composition
less the cards played and its own) likewise fill the other players' hands (by count) and the deck, in a fixed order
that puts victory-point cards into the deck first (the value bot reads no rival's card but its count; the rollout
bot deals all of these afresh from their pooled counts: kernels/catan/rollout.py determinize).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from catanatron.models.enums import (
    CITY,
    DEVELOPMENT_CARDS,
    RESOURCES,
    SETTLEMENT,
    Action,
    ActionPrompt,
    ActionType,
)
from catanatron.models.map import NodeRef, Port
from catanatron.models.player import Player
from catanatron.state_functions import player_key

from analyzer.seafarers.bots import bot_vectors, parse_bot
from analyzer.seafarers.full_rules import load_rules
from analyzer.seafarers.play import kernel_board
from analyzer.seafarers.scenarios import HARBOUR_TYPES, load_scenario
from analyzer.seafarers.table import game_table
from kernels.catan import codes
from kernels.catan import game as kg
from kernels.catan import policies as kp
from kernels.rng import PURPOSE_POLICY, stream_init

__all__ = ["BRIDGE_RULES", "BridgeMap", "OursPlayer", "bridge_map", "seat_view", "to_catanatron", "to_ours"]

# Our rules switched to catanatron's where our data has an option for it (the rest: docs/seafarers/catanatron.md).
BRIDGE_RULES = ("domestic_trade=false", "progress_before_roll=false")

TERRAIN_OF_RESOURCE = {"WOOD": codes.LUMBER, "BRICK": codes.BRICK, "SHEEP": codes.WOOL, "WHEAT": codes.GRAIN,
                       "ORE": codes.ORE, None: codes.DESERT}
RESOURCE_INDEX = {name: r for r, name in enumerate(RESOURCES)}  # catanatron's order is ours (codes.RESOURCE_NAMES)
HARBOUR_OF_PORT = {None: HARBOUR_TYPES.index("3:1"),
                   **{name: HARBOUR_TYPES.index(codes.RESOURCE_NAMES[r]) for name, r in RESOURCE_INDEX.items()}}
CARD_OF_DEV = {"KNIGHT": kg.KNIGHT, "VICTORY_POINT": kg.VP_CARD, "ROAD_BUILDING": kg.ROAD_BUILDING,
               "YEAR_OF_PLENTY": kg.YEAR_OF_PLENTY, "MONOPOLY": kg.MONOPOLY}
CORNER_OF_NODEREF = {ref: k for k, ref in enumerate((NodeRef.NORTH, NodeRef.NORTHEAST, NodeRef.SOUTHEAST,
                                                     NodeRef.SOUTH, NodeRef.SOUTHWEST, NodeRef.NORTHWEST))}
# Unseen development cards fill the rivals' hands in this order, so victory points stay in the deck longest.
_FILL_ORDER = (kg.KNIGHT, kg.ROAD_BUILDING, kg.YEAR_OF_PLENTY, kg.MONOPOLY, kg.VP_CARD)

# Action kinds both ways: catanatron's ActionType -> our kind (MOVE_ROBBER is our MOVE_ROBBER then STEAL_FROM).
OFFERED = {
    ActionType.ROLL: kg.ROLL, ActionType.END_TURN: kg.END_TURN, ActionType.BUILD_SETTLEMENT: kg.SETTLE,
    ActionType.BUILD_ROAD: kg.ROAD, ActionType.BUILD_CITY: kg.CITY_UP, ActionType.BUY_DEVELOPMENT_CARD: kg.BUY_CARD,
    ActionType.PLAY_KNIGHT_CARD: kg.PLAY_KNIGHT, ActionType.PLAY_ROAD_BUILDING: kg.PLAY_ROAD_BUILDING,
    ActionType.PLAY_YEAR_OF_PLENTY: kg.PLAY_YEAR_OF_PLENTY, ActionType.PLAY_MONOPOLY: kg.PLAY_MONOPOLY,
    ActionType.MARITIME_TRADE: kg.TRADE, ActionType.MOVE_ROBBER: kg.MOVE_ROBBER, ActionType.DISCARD: kg.DISCARD_CARD,
}
# Our action kinds that the base map can offer, by name (the counts of OursPlayer and the reports name them so).
KIND_NAMES = {getattr(kg, name): name.lower() for name in (
    "END_TURN", "ROLL", "ROAD", "SHIP", "SETTLE", "CITY_UP", "BUY_CARD", "PLAY_KNIGHT", "PLAY_ROAD_BUILDING",
    "PLAY_YEAR_OF_PLENTY", "PLAY_MONOPOLY", "TRADE", "MOVE_SHIP", "MOVE_ROBBER", "MOVE_PIRATE", "STEAL_FROM",
    "DISCARD_CARD", "PICK_GOLD", "STOP_BUILDING", "OFFER", "DECLINE", "ACCEPT")}


@dataclass(frozen=True, eq=False)
class BridgeMap:
    """Our Board of one catanatron map and the id tables between the two."""

    board: kg.Board
    corner_of_node: np.ndarray  # int [catanatron node id] -> our corner
    node_of_corner: dict  # our corner -> catanatron node id
    edge_of_pair: dict  # frozenset of catanatron's two node ids -> our edge
    pair_of_edge: dict  # our edge -> catanatron's edge tuple (node ids, ascending)
    hex_of_coordinate: dict  # catanatron cube coordinate -> our hex
    coordinate_of_hex: dict  # our hex -> catanatron cube coordinate
    players: int


def _axial(cube) -> tuple[int, int]:
    return int(cube[0]), int(cube[2])


def bridge_map(catan_map, players: int) -> BridgeMap:
    """Our kernel Board of catanatron's map (its tiles, numbers and ports on the base scenario's topology, our rules
    switched to catanatron's where BRIDGE_RULES can) for `players` seats, with the tables of ids."""
    scenario = load_scenario("base", 4 if players < 3 else players)  # (the base layouts are for 3 and 4; the map
    topo = scenario.topology  # is the same for 2)
    hex_of_coordinate, corner_of_node = {}, {}
    for cube, tile in catan_map.tiles.items():
        h = topo.index[_axial(cube)]
        hex_of_coordinate[cube] = h
        for ref, node in tile.nodes.items():
            c = int(topo.hex_corners[h, CORNER_OF_NODEREF[ref]])
            if corner_of_node.setdefault(node, c) != c:
                raise AssertionError(f"catanatron node {node} is two of our corners")
    terrain = np.array(scenario.terrain, np.int8)
    number = np.array(scenario.number_token, np.int8)
    for cube, tile in catan_map.land_tiles.items():
        h = hex_of_coordinate[cube]
        terrain[h] = TERRAIN_OF_RESOURCE[tile.resource]
        number[h] = tile.number or 0
    port_at = {_axial(cube): tile for cube, tile in catan_map.tiles.items() if isinstance(tile, Port)}
    harbour = np.array([HARBOUR_OF_PORT[port_at[tuple(topo.coords[site.sea])].resource]
                        for site in scenario.harbours.sites], np.int8)
    rules = load_rules(rule=list(BRIDGE_RULES))
    board = kernel_board(game_table(scenario, rules, terrain, number, harbour))
    robber_hexes = np.array([t >= codes.DESERT for t in terrain], np.bool_)  # catanatron: any land hex, the desert too
    params = board.params.copy()
    params[kg.P_PLAYERS] = players
    params[kg.P_SETUP_LEN] = 2 * players
    order = list(range(players)) + list(range(players - 1, -1, -1))
    board = board._replace(params=params, setup_order=np.array(order, np.int64), robber_hexes=robber_hexes)
    corners = np.full(max(corner_of_node) + 1, -1, np.int64)
    for node, c in corner_of_node.items():
        corners[node] = c
    edge_of_pair, pair_of_edge = {}, {}
    corner_pair = {frozenset(map(int, topo.edge_corners[e])): e for e in range(topo.n_edge)}
    nodes = {c: node for node, c in corner_of_node.items()}
    for tile in catan_map.tiles.values():
        for a, b in tile.edges.values():
            e = corner_pair[frozenset((corner_of_node[a], corner_of_node[b]))]
            edge_of_pair[frozenset((a, b))] = e
            pair_of_edge[e] = (min(a, b), max(a, b))
    return BridgeMap(board, corners, nodes, edge_of_pair, pair_of_edge, hex_of_coordinate,
                     {h: cube for cube, h in hex_of_coordinate.items()}, players)


# ------------------------------------------------------------------------------------------------ the seat's view
def _ps(state, color, field):
    return state.player_state[f"{player_key(state, color)}_{field}"]


def seat_view(bmap: BridgeMap, state, game: kg.Game | None = None) -> kg.Game:
    """Our kernel's Game of catanatron's State as the player on move sees it (the module docstring: hidden parts
    neutral), in the phase its prompt means; into `game` (a kg.new_game of the board) when given."""
    board = bmap.board
    p = board.params
    g = kg.new_game(board) if game is None else game
    players = len(state.colors)
    me = state.current_player_index
    current = state.current_turn_index
    kg.init(board, g, 0, 0)  # every field as a game starts (no fleet, no cloth, ...); the table's state goes on it
    g.deck[:] = 0
    g.bank[:] = state.resource_freqdeck
    for seat, color in enumerate(state.colors):
        for r, name in enumerate(RESOURCES):
            g.hands[seat, r] = _ps(state, color, f"{name}_IN_HAND") if seat == me else 0
        g.knights[seat] = _ps(state, color, "PLAYED_KNIGHT")
        g.route[seat] = _ps(state, color, "LONGEST_ROAD_LENGTH")
        g.pieces_left[seat, kg.PIECE_ROAD] = _ps(state, color, "ROADS_AVAILABLE")
        g.pieces_left[seat, kg.PIECE_SETTLEMENT] = _ps(state, color, "SETTLEMENTS_AVAILABLE")
        g.pieces_left[seat, kg.PIECE_CITY] = _ps(state, color, "CITIES_AVAILABLE")
        if _ps(state, color, "HAS_ROAD"):
            g.st[kg.ST_ROUTE_HOLDER] = seat
        if _ps(state, color, "HAS_ARMY"):
            g.st[kg.ST_ARMY_HOLDER] = seat
    seat_of = {color: seat for seat, color in enumerate(state.colors)}
    _deal_hidden(state, g, me, p)
    for node, (color, building) in state.board.buildings.items():
        c = bmap.corner_of_node[node]
        g.corner_owner[c] = seat_of[color]
        g.corner_building[c] = codes.CITY if building == CITY else codes.SETTLEMENT
        kg._harbour_rates(board, g, seat_of[color], g.corner_harbour[c])
    for pair, color in state.board.roads.items():
        g.edge_owner[bmap.edge_of_pair[frozenset(pair)]] = seat_of[color]
    _networks(board, g, players)
    st = g.st
    st[kg.ST_ACTOR] = me
    st[kg.ST_CURRENT] = current
    st[kg.ST_TURN] = state.num_turns
    st[kg.ST_ROBBER] = bmap.hex_of_coordinate[state.board.robber_coordinate]
    st[kg.ST_DECK_POS] = p[kg.P_DECK_LEN] - len(state.development_listdeck)
    st[kg.ST_DEV_PLAYED] = int(_ps(state, state.colors[me], "HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"))
    rolled = _ps(state, state.colors[current], "HAS_ROLLED")
    st[kg.ST_RESUME] = kg.MAIN if rolled else kg.PRE_ROLL
    st[kg.ST_FREE_RESUME] = kg.MAIN
    st[kg.ST_SETUP_POS] = sum(len(state.buildings_by_color[c][SETTLEMENT]) + len(state.buildings_by_color[c][CITY])
                              for c in state.colors)
    prompt = state.current_prompt
    if prompt == ActionPrompt.BUILD_INITIAL_SETTLEMENT:
        st[kg.ST_PHASE] = kg.SETUP_SETTLEMENT
    elif prompt == ActionPrompt.BUILD_INITIAL_ROAD:
        st[kg.ST_PHASE] = kg.SETUP_EDGE
        st[kg.ST_SETUP_CORNER] = bmap.corner_of_node[state.buildings_by_color[state.colors[me]][SETTLEMENT][-1]]
    elif prompt == ActionPrompt.DISCARD:
        st[kg.ST_PHASE] = kg.DISCARD
        g.discard[me] = int(g.hands[me].sum()) // 2
    elif prompt == ActionPrompt.MOVE_ROBBER:
        st[kg.ST_PHASE] = kg.MOVE_THIEF
    elif state.is_road_building:
        st[kg.ST_PHASE] = kg.FREE_ROADS
        st[kg.ST_FREE_ROADS] = state.free_roads_available
    else:
        st[kg.ST_PHASE] = kg.MAIN if rolled else kg.PRE_ROLL
    return g


def _deal_hidden(state, g: kg.Game, me: int, p) -> None:
    """The seat's own hand and development cards; the others' hands and cards, and the deck, filled neutrally by
    their public counts from what the seat cannot account for (the module docstring)."""
    color = state.colors[me]
    for name, card in CARD_OF_DEV.items():
        g.cards[me, card] = _ps(state, color, f"{name}_IN_HAND")  # catanatron: a card bought this turn may be played
    unseen_resources = [p[kg.P_BANK] - int(g.bank[r]) - int(g.hands[me, r]) for r in range(codes.N_RESOURCES)]
    unseen_cards = _unseen_cards(state, me)
    for seat, other in enumerate(state.colors):
        if seat == me:
            continue
        left = sum(_ps(state, other, f"{name}_IN_HAND") for name in RESOURCES)
        for r in range(codes.N_RESOURCES):
            take = min(left, unseen_resources[r])
            g.hands[seat, r] = take
            unseen_resources[r] -= take
            left -= take
        held = sum(_ps(state, other, f"{name}_IN_HAND") for name in DEVELOPMENT_CARDS)
        for card in _FILL_ORDER:
            take = min(held, unseen_cards[card])
            g.cards[seat, card] = take
            unseen_cards[card] -= take
            held -= take
    pos = p[kg.P_DECK_LEN] - len(state.development_listdeck)
    for card in reversed(_FILL_ORDER):
        for _ in range(unseen_cards[card]):
            if pos < p[kg.P_DECK_LEN]:
                g.deck[pos] = card
                pos += 1


def _unseen_cards(state, me: int) -> Counter:
    """Development cards by our card code that the seat cannot see: the deck's composition less the cards played
    (face up) and its own."""
    from catanatron.models.decks import starting_devcard_bank

    unseen = Counter(CARD_OF_DEV[name] for name in starting_devcard_bank())
    for seat, color in enumerate(state.colors):
        for name in DEVELOPMENT_CARDS:
            if name != "VICTORY_POINT":
                unseen[CARD_OF_DEV[name]] -= _ps(state, color, f"PLAYED_{name}")
            if seat == me:
                unseen[CARD_OF_DEV[name]] -= _ps(state, color, f"{name}_IN_HAND")
    return unseen


def _networks(board: kg.Board, g: kg.Game, players: int) -> None:
    """Each seat's network lists (kernels/catan/game.py _join): the corners its buildings and roads reach, ascending,
    and their edges."""
    g.n_net[:] = 0
    g.in_net_corner[:] = False
    g.in_net_edge[:] = False
    for seat in range(players):
        corners = set(np.flatnonzero(g.corner_owner == seat).tolist())
        for e in np.flatnonzero(g.edge_owner == seat):
            corners.update(int(c) for c in board.edge_corners[e])
        edges = {int(e) for c in corners for e in board.corner_edges[c] if e >= 0}
        for k, items in ((0, sorted(corners)), (1, sorted(edges))):
            lists = g.net_corners if k == 0 else g.net_edges
            lists[seat, :len(items)] = items
            g.n_net[seat, k] = len(items)
        g.in_net_corner[seat, list(corners)] = True
        g.in_net_edge[seat, list(edges)] = True


# ------------------------------------------------------------------------------------------------ actions both ways
def to_ours(bmap: BridgeMap, state, action) -> tuple[int, int, int] | None:
    """Our action (kind, a, b) of one of catanatron's: a robber move is (MOVE_ROBBER, hex, victim seat or -1), its
    discard (half the hand, at random) (DISCARD_CARD, -1, 0); None where we have no counterpart (a year of plenty of
    one card, offered when the bank holds too few for two)."""
    kind, value = OFFERED[action.action_type], action.value
    if kind in (kg.SETTLE, kg.CITY_UP):
        return kind, int(bmap.corner_of_node[value]), 0
    if kind == kg.ROAD:
        return kind, bmap.edge_of_pair[frozenset(value)], 0
    if kind == kg.PLAY_YEAR_OF_PLENTY:
        if len(value) != 2:
            return None
        a, b = sorted(RESOURCE_INDEX[r] for r in value)
        return kind, a, b
    if kind == kg.PLAY_MONOPOLY:
        return kind, RESOURCE_INDEX[value], 0
    if kind == kg.TRADE:
        return kind, RESOURCE_INDEX[value[0]], RESOURCE_INDEX[value[-1]]
    if kind == kg.MOVE_ROBBER:
        coordinate, victim = value[0], value[1]
        return kind, bmap.hex_of_coordinate[coordinate], -1 if victim is None else state.color_to_index[victim]
    if kind == kg.DISCARD_CARD:
        return kind, -1, 0
    return kind, 0, 0


def maritime_rate(state, color, resource: int) -> int:
    """The player's rate for `resource` with the bank, as catanatron computes it (its harbours)."""
    ports = set(state.board.get_player_port_resources(color))
    return 2 if RESOURCES[resource] in ports else 3 if None in ports else 4


def to_catanatron(bmap: BridgeMap, state, color, kind: int, a: int, b: int) -> Action | None:
    """Catanatron's action of our (kind, a, b) for the player of `color` (to_ours's inverse); None for a kind
    catanatron lacks (ships, the pirate, gold, domestic trade, stopping road building early, a chosen discard)."""
    types = {k: t for t, k in OFFERED.items()}
    if kind not in types or (kind == kg.DISCARD_CARD and a >= 0):
        return None
    t = types[kind]
    if kind in (kg.SETTLE, kg.CITY_UP):
        return Action(color, t, bmap.node_of_corner[a])
    if kind == kg.ROAD:
        return Action(color, t, bmap.pair_of_edge[a])
    if kind == kg.PLAY_YEAR_OF_PLENTY:
        return Action(color, t, (RESOURCES[a], RESOURCES[b]))
    if kind == kg.PLAY_MONOPOLY:
        return Action(color, t, RESOURCES[a])
    if kind == kg.TRADE:
        rate = maritime_rate(state, color, a)
        return Action(color, t, tuple([RESOURCES[a]] * rate + [None] * (4 - rate) + [RESOURCES[b]]))
    if kind == kg.MOVE_ROBBER:
        return Action(color, t, (bmap.coordinate_of_hex[a], None if b < 0 else state.colors[b], None))
    return Action(color, t, None)


# ------------------------------------------------------------------------------------------------ the player
class OursPlayer(Player):
    """One of our bots (a bot spec: "value", "planner", "value:opening=pips", ...) as a catanatron Player.

    counts (a Counter) tallies, over its decisions: `decisions`, `forced` (catanatron offered one action),
    `first_choice` (our bot's own first choice was offered), `fallback <kind>` (it was not: the bot's next best
    that is offered was played), `ours only <kind>` (our legal actions catanatron does not offer, per decision)
    and `theirs only <type>` (catanatron's actions with no legal counterpart of ours)."""

    def __init__(self, color, bot: str = "value", seed: int = 0, stream_key: int = 0):
        super().__init__(color)
        self.bot = bot
        arm = parse_bot(bot)
        policies, params = bot_vectors([arm])
        self.policy, self.params = int(policies[0]), params[0].copy()
        self.stream = np.zeros(2, np.uint64)
        stream_init(self.stream, seed, stream_key, PURPOSE_POLICY)
        self.counts = Counter()
        self._key = None

    def __repr__(self):
        return f"OursPlayer({self.bot}):{self.color.value}"

    def _setup(self, state):
        key = (id(state.board.map), len(state.colors))
        if key != self._key:
            self._key = key
            self.bmap = bridge_map(state.board.map, len(state.colors))
            self.view = kg.new_game(self.bmap.board)
            self.work = kp.bot_work(self.bmap.board)
        return self.bmap

    def _ranked(self, g: kg.Game, n: int) -> list[int]:
        """Our legal actions' indices, our bot's choice first, then by the value bot's scores with its weights
        (value, planner: its own; rollout: of the value bot that proposes its candidates); random and weighted:
        canonical order."""
        board = self.bmap.board
        first = int(kp.decide(board, g, n, self.policy, self.params, self.stream, self.work))
        rest = [i for i in range(n) if i != first]
        if self.policy in (kp.POLICY_VALUE, kp.POLICY_PLANNER, kp.POLICY_ROLLOUT) and n > 1:
            if self.policy == kp.POLICY_ROLLOUT:  # (its playouts leave other positions' scores behind)
                kp.decide(board, g, n, kp.POLICY_VALUE, self.params, self.stream, self.work)
            scores = self.work.scores
            rest.sort(key=lambda i: -scores[i])
        return [first] + rest

    def decide(self, game, playable_actions):
        state = game.state
        self.counts["decisions"] += 1
        if len(playable_actions) == 1:
            self.counts["forced"] += 1
            return playable_actions[0]
        bmap = self._setup(state)
        g = seat_view(bmap, state, self.view)
        n = kg.legal(bmap.board, g)
        ours = [tuple(int(x) for x in g.actions[i]) for i in range(n)]
        offered = set(playable_actions)
        self._tally(bmap, state, ours, playable_actions)
        ranked = self._ranked(g, n)
        for rank, i in enumerate(ranked):
            kind, a, b = ours[i]
            if kind == kg.MOVE_ROBBER:
                action = self._robber(bmap, state, g, a)
            else:
                action = to_catanatron(bmap, state, self.color, kind, a, b)
            if action in offered:
                self.counts["first_choice" if rank == 0 else f"fallback {KIND_NAMES[ours[ranked[0]][0]]}"] += 1
                return action
        self.counts["unmapped"] += 1  # nothing of ours is offered (never seen): catanatron's first
        return playable_actions[0]

    def _robber(self, bmap: BridgeMap, state, g: kg.Game, h: int):
        """The robber to hex h and the victim our bot picks there (our STEAL phase on a copy of the view)."""
        kg.step(bmap.board, g, kg.MOVE_ROBBER, h, 0)
        victim = -1
        if g.st[kg.ST_PHASE] == kg.STEAL:
            n = kg.legal(bmap.board, g)
            victim = int(g.actions[self._ranked(g, n)[0], 1])
        action = to_catanatron(bmap, state, self.color, kg.MOVE_ROBBER, h, victim)
        seat_view(bmap, state, g)  # (the view as it was, for the next candidate)
        return action

    def _tally(self, bmap: BridgeMap, state, ours: list, playable_actions) -> None:
        mine = {(k, a, b if k != kg.MOVE_ROBBER else 0) for k, a, b in ours}
        theirs = set()
        for action in playable_actions:
            key = to_ours(bmap, state, action)
            if key is not None and key[0] == kg.MOVE_ROBBER:
                key = (kg.MOVE_ROBBER, key[1], 0)
            if key is None or key not in mine:
                self.counts[f"theirs only {action.action_type.value.lower()}"] += 1
            if key is not None:
                theirs.add(key)
        for key in mine - theirs:
            self.counts[f"ours only {KIND_NAMES.get(key[0], key[0])}"] += 1
