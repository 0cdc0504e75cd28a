"""The full Catan: Seafarers game in slow, obvious Python: the reference the numba kernel is checked against.

    table = game_table(scenario, rules, terrain, number, harbour)   # one dealt board, its static facts (table.py)
    state = init(table, seed, game)                                 # after set-up begins (the draft is played)
    while not terminal(state):
        actions = legal(table, state)                               # [(kind, a, b), ...] in canonical order
        step(table, state, actions[bot.decide(...)])
    result(table, state)                                            # winner, turns, VP by source, ...

Rules (seed 002 plus the base game's, docs/seafarers/full_game.md): a snake draft of settlements with a road,
or on a coast a ship; starting cards from each seat's last settlement; a turn is a roll (or a knight first),
production or the 7 (discards above `discard_above`, then the robber or the pirate, then a steal), then builds,
trades, one development card, one ship move, in any order, until the player ends the turn. The player whose
turn it is wins as soon as their VP reach the scenario's target.

Domestic trade (a documented default protocol, rules data [trade] domestic): the current player may offer one
card of a resource for one card of another to every other player at once, at most `domestic_offers` times a
turn; the others answer in turn order from the offerer's left (accept if they hold the card asked, or decline);
the first to accept trades, and the turn goes on.

Harbours laid by the players (New World, rules data [harbours]): the scenario's tokens, shuffled face down
(seed, game, PURPOSE_HARBOURS), are laid before the draft (or after it, option harbours_after_draft), token k by
seat k mod P from seat 1 (the oldest player), each on a coast edge of the drawer's choice: one per sea hex, no two
touching a corner (or, option harbour_hexes_apart, on neighbouring sea hexes).

Cloth for Catan (seed 002, CENÁRIO 6; the block "Cloth for Catan" below): the villages on the islets' corners hold
cloth, a ship reaching one opens the seat's trade route and takes a cloth, each roll of its number pays every route
holder one, 2 cloth a VP; the pirate only for a mover with a route, its steal a card or a cloth; no longest trade
route card; the game also ends when only `end_villages` villages hold cloth.
The Forgotten Tribe's gifts (seed 002, CENÁRIO 5; rules data [gifts]): Catan chits, development cards dealt face
down from the top of the shuffled deck and harbours lie on islet coasts; the first ship built on a gift's coast
takes it (option gift_by_moved_ship: a moved ship too). A chit is VP, a card joins its taker's new cards, a harbour
is placed at once on a coast edge at a building of its taker (phase gift_harbour), else kept and placed the moment
its holder has such an edge (after each settlement it builds).
The Wonders of Catan (seed 002, CENÁRIO 8; the block "Wonders of Catan" below, rules data [wonders]): a player
whose position meets a free wonder card's requirement may claim it (a ship of its supply goes on the card), then
builds its stages, each paying the card's 5 resources, several a turn; finishing the last stage wins, and so do the
target VP only with more stages than every opponent. Every settlement on an islet takes a 1 VP chit (its
island_bonus_scope each_settlement).

Decisions are actions (kind, a, b); `state.actor` makes the next one (the current player, or a player who
discards or picks gold). Randomness: the dice (seed, game, PURPOSE_DICE), the development deck's shuffle
(seed, game, PURPOSE_DECK), which card a steal takes (seed, game, PURPOSE_STEAL); each seat's bot draws from
(seed, 4 game + seat, PURPOSE_POLICY). The board is board `game` of the seed (analyzer/seafarers/boards.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.rng_reference import Stream
from analyzer.seafarers.board import UNKNOWN
from analyzer.seafarers.full_rules import DEV_CARDS
from analyzer.seafarers.setup_policies import placement_order
from analyzer.seafarers.table import Table, deck_counts, game_table
from kernels.catan.codes import CITY, DESERT, FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, SEA, SETTLEMENT
from kernels.catan.gifts import GIFT_CARD, GIFT_CHIT, GIFT_HARBOUR
from kernels.rng import PURPOSE_DECK, PURPOSE_DICE, PURPOSE_HARBOURS, PURPOSE_STEAL

__all__ = ["KINDS", "PHASES", "State", "Table", "deck_counts", "game_table", "init", "legal", "result", "step",
           "terminal", "victory_points"]

# Phases (state.phase).
(SETUP_SETTLEMENT, SETUP_EDGE, PRE_ROLL, DISCARD, MOVE_THIEF, STEAL, GOLD_PICK, MAIN, FREE_ROADS, OVER, RESPOND,
 LAY_HARBOUR) = range(12)
GIFT_HARBOUR_PHASE = 12  # the Forgotten Tribe: the taker of a harbour gift places it
FLEET_ROLL = 13  # the Pirate Islands: never a phase, the resume of the raid's card picks (then the 7 or production)
PHASES = ("setup_settlement", "setup_edge", "pre_roll", "discard", "move_thief", "steal", "gold_pick", "main",
          "free_roads", "over", "respond", "lay_harbour", "gift_harbour", "fleet_roll")

# Action kinds: (kind, a, b); the canonical order of legal actions is by kind, then a, then b.
(END_TURN, ROLL, ROAD, SHIP, SETTLE, CITY_UP, BUY_CARD, PLAY_KNIGHT, PLAY_ROAD_BUILDING, PLAY_YEAR_OF_PLENTY,
 PLAY_MONOPOLY, TRADE, MOVE_SHIP, MOVE_ROBBER, MOVE_PIRATE, STEAL_FROM, DISCARD_CARD, PICK_GOLD,
 STOP_BUILDING, OFFER, DECLINE, ACCEPT, PLACE_HARBOUR) = range(23)
# Cloth for Catan's and the Forgotten Tribe's kinds, appended
STEAL_CLOTH = 23
PLACE_GIFT = 24  # the Forgotten Tribe: (PLACE_GIFT, edge, gift) places a won harbour
ATTACK = 25  # the Pirate Islands: attack the seat's fortress (its route complete); the turn ends
THIEF_ANY = END_TURN  # state.thief of the Pirate Islands' 7: no piece, the roller robs any player
CLAIM_WONDER = 26  # the Wonders of Catan: (CLAIM_WONDER, wonder, 0) takes a free wonder card
BUILD_STAGE = 27  # the Wonders of Catan: (BUILD_STAGE, 0, 0) builds the next stage of the seat's wonder
NO_STEAL = 28  # the Pirate Islands' 7: the roller steals nothing ('poderá roubar'; option pirate_seven_steal_optional)
KINDS = ("end_turn", "roll", "road", "ship", "settlement", "city", "buy_card", "knight", "road_building",
         "year_of_plenty", "monopoly", "trade", "move_ship", "robber", "pirate", "steal", "discard", "gold", "stop",
         "offer", "decline", "accept", "harbour", "steal_cloth", "gift_harbour", "attack", "claim_wonder",
         "build_stage", "no_steal")
# a, b per kind: road/ship edge; settlement/city corner; year_of_plenty a <= b resources; monopoly a resource;
# trade a given (rate cards) for b; move_ship edge a to edge b; robber/pirate hex; steal seat; discard/gold a
# resource; offer one card of a for one of b (to every other player); harbour: the drawn token on edge a;
# steal_cloth: one cloth from seat a (the pirate's steal, Cloth for Catan); gift_harbour: the won harbour gift b on
# edge a; claim_wonder: wonder a (Table.wonders' index).
# Every other kind has a = b = 0.

KNIGHT, VP_CARD, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)  # DEV_CARDS order
PAIR_LIMIT = 2**64 - 2**64 % 36  # the kernels' exact dice rejection (kernels/catan/dice.py)
DIE_LIMIT = 2**64 - 2**64 % 6
MAX_SEATS = 4


@dataclass
class State:
    """Everything that changes during a game. Lists are indexed by seat, resource, corner or edge."""

    players: int
    dice: Stream
    steal: Stream
    hands: list[list[int]]
    bank: list[int]
    deck: list[int]  # development cards in draw order (DEV_CARDS indices)
    corner_owner: list[int]
    corner_building: list[int]
    edge_owner: list[int]
    edge_ship: list[bool]
    edge_built: list[int]  # turn the piece was built (-1 none; a ship moved counts as built then)
    pieces_left: list[list[int]]  # per seat: roads, ships, settlements, cities
    cards: list[list[int]]  # per seat: playable development cards by type
    new_cards: list[list[int]]  # bought this turn (not playable before the next)
    knights: list[int]
    bonus_vp: list[int]
    claimed: list[set]  # territories whose first-settlement bonus a seat has taken
    home: list[set]  # territories of a seat's initial settlements
    robber: int
    pirate: int
    route: list[int]  # each seat's longest trade route
    setup_order: list[int]
    terrain: list[int]  # as the table shows it: UNKNOWN for a fog hex not yet explored
    number: list[int]
    phase: int = SETUP_SETTLEMENT
    actor: int = 0
    current: int = 0
    turn: int = 0  # turns started after the set-up
    rolls: int = 0
    sevens: int = 0
    last_roll: int = 0
    setup_pos: int = 0
    setup_corner: int = -1
    deck_pos: int = 0
    dev_played: bool = False
    ship_moved: bool = False
    free_roads: int = 0
    free_resume: int = MAIN  # the phase road building's free pieces return to (PRE_ROLL: played before the roll)
    resume: int = MAIN  # where the knight's robber move, the gold picks or the discards return to
    thief: int = MOVE_ROBBER  # the piece moved last (MOVE_ROBBER or MOVE_PIRATE), whose hex the steal is at
    route_holder: int = -1
    army_holder: int = -1
    winner: int = -1
    capped: bool = False
    discard: list[int] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)
    trades: list[int] = field(default_factory=list)
    domestic: list[int] = field(default_factory=list)  # trades with another player a seat took part in
    offers: int = 0  # domestic offers made this turn
    offer: tuple[int, int] = (0, 0)  # the open offer: the resource given, the one asked
    first_settlement_turn: list[int] = field(default_factory=list)  # turn of a seat's first new settlement
    corner_harbour: list[int] = field(default_factory=list)  # -1 none, 0 a 3:1 harbour, 1 + r a 2:1 of resource r
    harbour_stack: list[int] = field(default_factory=list)  # the tokens to lay, face down, in draw order
    harbour_pos: int = 0  # the token drawn now (harbour_stack[harbour_pos]); all laid or set aside at the end
    harbour_edges: list[int] = field(default_factory=list)  # per token of the stack: its edge, -1 not laid
    # Cloth for Catan
    cloth: list[int] = field(default_factory=list)  # per seat: cloth held
    village_cloth: list[int] = field(default_factory=list)  # per village (Table.villages): cloth left there
    cloth_reserve: int = 0  # the common reserve ("reservas comuns")
    cloth_routes: list[set] = field(default_factory=list)  # per seat: the villages it has a trade route to
    cloth_end: bool = False  # the game ended because only end_villages villages still held cloth
    gift_owner: list[int] = field(default_factory=list)  # per gift: the seat whose ship took it, -1 still lying
    gift_laid: list[int] = field(default_factory=list)  # per harbour gift: the edge it was placed on, -1 none
    chits: list[int] = field(default_factory=list)  # Catan chits taken, per seat
    gift_resume: int = MAIN  # the phase a gift harbour's placement returns to
    wonder: list[int] = field(default_factory=list)  # per seat: the wonder it claimed (Table.wonders index), -1 none
    stage: list[int] = field(default_factory=list)  # per seat: its wonder's stages built
    # the Pirate Islands
    fort_route: list[list[int]] = field(default_factory=list)  # per seat: its route's ships, from its settlement on
    fort_war: list[list[bool]] = field(default_factory=list)  # per seat, per route ship: a warship
    fort_chits: list[int] = field(default_factory=list)  # per seat: chits left under its fortress (0: conquered)
    fleet: int = -1  # the fleet's index on Table.fleet_path; -1 none (or gone)


# ------------------------------------------------------------------------------------------------ set-up
def init(table: Table, seed: int, game: int) -> State:
    """The state of game `game` before the first placement of the draft."""
    p, rules, topo = table.players, table.rules, table.scenario.topology
    counts = deck_counts(table)
    deck = [card for card, name in enumerate(DEV_CARDS) for _ in range(counts[name])]
    shuffle = Stream(seed, game, PURPOSE_DECK)
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates from the end, as the kernel
        j = shuffle.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    supply = [rules.supply["roads"], rules.supply["ships"], rules.supply["settlements"], rules.supply["cities"]]
    state = State(p, Stream(seed, game, PURPOSE_DICE), Stream(seed, game, PURPOSE_STEAL),
                  [[0] * N_RESOURCES for _ in range(p)], [rules.bank] * N_RESOURCES, deck,
                  [-1] * topo.n_corner, [0] * topo.n_corner, [-1] * topo.n_edge, [False] * topo.n_edge,
                  [-1] * topo.n_edge, [list(supply) for _ in range(p)], [[0] * 5 for _ in range(p)],
                  [[0] * 5 for _ in range(p)], [0] * p, [0] * p, [set() for _ in range(p)],
                  [set() for _ in range(p)], table.robber_start, table.pirate_start, [0] * p,
                  placement_order(table.scenario, p), table.view.terrain.tolist(), table.view.number.tolist())
    state.discard, state.gold, state.trades, state.domestic = [0] * p, [0] * p, [0] * p, [0] * p
    state.first_settlement_turn = [-1] * p
    state.actor = state.setup_order[0]
    state.corner_harbour = [int(k) for k in table.view.corner_harbour]
    stack = list(table.harbour_pool)
    shuffle = Stream(seed, game, PURPOSE_HARBOURS)
    for i in range(len(stack) - 1, 0, -1):  # Fisher-Yates from the end, as the deck
        j = shuffle.below(i + 1)
        stack[i], stack[j] = stack[j], stack[i]
    state.harbour_stack, state.harbour_edges = stack, [-1] * len(stack)
    state.cloth, state.cloth_routes = [0] * p, [set() for _ in range(p)]
    if table.villages:
        state.village_cloth = [table.scenario.markers.cloth_per_village] * len(table.villages)
        state.cloth_reserve = table.scenario.markers.cloth_supply
    # 'Retira as primeiras 4 cartas do monte (misturado) ... e coloca-as de face para baixo nos lugares indicados'
    state.gift_owner, state.gift_laid = [-1] * len(table.gift_edges), [-1] * len(table.gift_edges)
    state.chits = [0] * p
    state.wonder, state.stage = [-1] * p, [0] * p
    state.deck_pos = table.gift_kinds.count(GIFT_CARD)
    _preplace(table, state)
    if stack and not rules.chosen["harbours_after_draft"]:
        _lay_next(table, state, 0)
    return state


def _lay_next(table: Table, state: State, pos: int) -> None:
    """Token `pos` is drawn: its seat (pos mod P, from seat 1, 'em sentido horário') lays it; a token with no site
    left is set aside. Once the stack is empty, the draft begins (or, after it, the first turn)."""
    state.phase = LAY_HARBOUR
    while pos < len(state.harbour_stack):
        state.harbour_pos, state.actor = pos, pos % state.players
        if harbour_sites(table, state):
            return
        pos += 1
    state.harbour_pos = pos
    if table.rules.chosen["harbours_after_draft"]:
        state.phase, state.current, state.actor = PRE_ROLL, 0, 0
    else:
        state.phase, state.actor = SETUP_SETTLEMENT, state.setup_order[0]


def _last_placement(state: State) -> bool:
    """Is the settlement at setup_pos its seat's last one of the draft (the one that pays the start cards)?"""
    seat = state.setup_order[state.setup_pos]
    return seat not in state.setup_order[state.setup_pos + 1:]


def _next_setup(table: Table, state: State) -> None:
    state.setup_pos += 1
    if state.setup_pos < len(state.setup_order):
        state.phase, state.actor = SETUP_SETTLEMENT, state.setup_order[state.setup_pos]
    elif state.harbour_stack and table.rules.chosen["harbours_after_draft"]:
        _lay_next(table, state, 0)
    else:
        state.phase, state.current, state.actor = PRE_ROLL, 0, 0


# ------------------------------------------------------------------------------------------------ geometry
def _corner_edges(table: Table, c: int) -> list[int]:
    return [int(e) for e in table.scenario.topology.corner_edges[c] if e >= 0]


def _neighbours(table: Table, c: int) -> list[int]:
    return [int(n) for n in table.scenario.topology.corner_neighbours[c] if n >= 0]


def _ends(table: Table, e: int) -> tuple[int, int]:
    a, b = table.scenario.topology.edge_corners[e]
    return int(a), int(b)


def _pirate_blocks(table: Table, state: State, e: int) -> bool:
    """No ship is placed on or removed from the 6 sides of the pirate's hex (seed 002, 'E) O pirata')."""
    return state.pirate >= 0 and state.pirate in table.scenario.topology.edge_hexes[e]


def _side(state: State, h: int) -> int:
    """1 land, 0 sea (off the map included), -1 a fog hex not yet explored."""
    t = state.terrain[h] if h >= 0 else SEA
    return 0 if t == SEA else 1 if t >= DESERT else -1


def _may_road(table: Table, state: State, e: int) -> bool:
    """A road needs land on a side (land or sea on the other, or a fog hex it then explores)."""
    return bool(table.scenario.topology.edge_in_play[e]) and 1 in [_side(state, h) for h in _sides(table, e)]


def _may_ship(table: Table, state: State, e: int) -> bool:
    """'Os barcos só se podem colocar entre dois hexágonos de mar ... ou entre um hexágono de mar e um de terreno'
    (or beside a fog hex, which the ship then explores)."""
    return bool(table.scenario.topology.edge_in_play[e]) and 0 in [_side(state, h) for h in _sides(table, e)]


def _sides(table: Table, e: int) -> list[int]:
    return [int(h) for h in table.scenario.topology.edge_hexes[e]]


def _corner_land(table: Table, state: State, c: int) -> bool:
    return 1 in [_side(state, int(h)) for h in table.scenario.topology.corner_hexes[c] if h >= 0]


def _corner_coastal(table: Table, state: State, c: int) -> bool:
    sides = [_side(state, int(h)) for h in table.scenario.topology.corner_hexes[c]]  # -1 padding: off-map sea
    return 1 in sides and 0 in sides


def _harbour_sea(table: Table, state: State, e: int) -> int:
    """The sea hex of a coast edge in play (land as the table shows it on the other side), else -1."""
    a, b = _sides(table, e)
    if a < 0 or b < 0 or not table.scenario.topology.edge_in_play[e]:
        return -1
    if _side(state, a) == 1 and state.terrain[b] == SEA:
        return b
    if _side(state, b) == 1 and state.terrain[a] == SEA:
        return a
    return -1


def harbour_sites(table: Table, state: State) -> list[int]:
    """Edges the drawn harbour token may go on: a coast edge in play (its two corners the docks), on a sea hex that
    holds no harbour yet, neither dock already a harbour's ('apenas se pode colocar um porto por hexágono de mar e
    não podem existir dois portos adjacentes', the Forgotten Tribe's rule, applied by analogy); with the option
    harbour_hexes_apart, no harbour on a neighbouring sea hex either. The harbours won in the Forgotten Tribe count
    as laid ones."""
    topo = table.scenario.topology
    taken = [_harbour_sea(table, state, f) for f in state.harbour_edges + state.gift_laid if f >= 0]
    apart = table.rules.chosen["harbour_hexes_apart"]
    out = []
    for e in range(topo.n_edge):
        sea = _harbour_sea(table, state, e)
        if sea < 0 or sea in taken or any(state.corner_harbour[c] >= 0 for c in _ends(table, e)):
            continue
        if apart and any(t in topo.hex_neighbours[sea] for t in taken):
            continue
        out.append(e)
    return out


def gift_harbour_sites(table: Table, state: State, seat: int) -> list[int]:
    """Edges where `seat` may place a harbour it won: 'Se esse jogador tem uma aldeia na linha costeira, o porto
    deverá ser colocado nesse local': a harbour site (harbour_sites: a coast edge, a sea hex of its own, no dock
    shared) with a dock at the seat's settlement (or city, option gift_harbour_at_cities)."""
    ok = (SETTLEMENT, CITY) if table.rules.chosen["gift_harbour_at_cities"] else (SETTLEMENT,)
    return [e for e in harbour_sites(table, state)
            if any(state.corner_owner[c] == seat and state.corner_building[c] in ok for c in _ends(table, e))]


def kept_harbours(table: Table, state: State, seat: int) -> list[int]:
    """The harbour gifts `seat` holds and has not placed ('guardará o porto que construiu')."""
    return [i for i, k in enumerate(table.gift_kinds)
            if k == GIFT_HARBOUR and state.gift_owner[i] == seat and state.gift_laid[i] < 0]


def _can_place(table: Table, state: State, seat: int) -> bool:
    return bool(kept_harbours(table, state, seat)) and bool(gift_harbour_sites(table, state, seat))


def _take_gifts(table: Table, state: State, seat: int, e: int) -> None:
    """A ship of `seat` arrives on edge e: it takes every gift still lying there ('Se, mais tarde, algum outro
    jogador chegar a essa ilhota, não obtêm nenhum ponto de vitória'): a chit, a card into its new cards ('segue as
    mesmas regras das cartas compradas normalmente'), a harbour, placed now if it can be."""
    found = False
    for i, f in enumerate(table.gift_edges):
        if f != e or state.gift_owner[i] >= 0:
            continue
        found = True
        state.gift_owner[i] = seat
        if table.gift_kinds[i] == GIFT_CHIT:
            state.chits[seat] += 1
        elif table.gift_kinds[i] == GIFT_CARD:
            state.new_cards[seat][state.deck[table.gift_items[i]]] += 1
    if found:
        _start_placing(table, state, seat)


def _start_placing(table: Table, state: State, seat: int) -> None:
    """With a harbour kept and a site for it, `seat` places it now; then play returns to the phase it left."""
    if state.phase == GIFT_HARBOUR_PHASE or not _can_place(table, state, seat):
        return
    state.gift_resume = state.phase
    state.phase, state.actor = GIFT_HARBOUR_PHASE, seat


def _connects(table: Table, state: State, seat: int, e: int, ship: bool, skip: int = -1) -> bool:
    """A road (ship) joins the seat's building at an end, or the seat's road (ship) through an end that no
    rival building holds ('Não se pode continuar uma estrada com um barco, nem um barco com uma estrada')."""
    for c in _ends(table, e):
        owner = state.corner_owner[c]
        if owner == seat:
            return True
        if owner >= 0:
            continue
        for f in _corner_edges(table, c):
            if f != e and f != skip and state.edge_owner[f] == seat and state.edge_ship[f] == ship:
                return True
    return False


def road_sites(table: Table, state: State, seat: int) -> list[int]:
    if state.pieces_left[seat][0] == 0:
        return []
    return [e for e in range(len(state.edge_owner)) if state.edge_owner[e] < 0 and _may_road(table, state, e)
            and _connects(table, state, seat, e, False)]


def ship_sites(table: Table, state: State, seat: int, skip: int = -1) -> list[int]:
    """Edges where the seat may place a ship; `skip`: a ship being moved, counted as gone."""
    if state.pieces_left[seat][1] == 0 and skip < 0:
        return []
    if table.forts:  # the Pirate Islands: only at its route's end
        return route_sites(table, state, seat)
    return [e for e in range(len(state.edge_owner)) if (state.edge_owner[e] < 0) and e != skip
            and _may_ship(table, state, e) and not _pirate_blocks(table, state, e)
            and _connects(table, state, seat, e, True, skip)]


def _distance_ok(table: Table, state: State, c: int) -> bool:
    return state.corner_owner[c] < 0 and all(state.corner_owner[n] < 0 for n in _neighbours(table, c))


def settlement_sites(table: Table, state: State, seat: int) -> list[int]:
    if state.pieces_left[seat][2] <= _reserved(table, state, seat):
        return []
    topo = table.scenario.topology
    colour = table.forts[seat].colour_corner if table.forts else -1  # the Pirate Islands' exception
    return [c for c in range(topo.n_corner) if _corner_land(table, state, c) and topo.corner_in_play[c]
            and (not table.no_settle[c] or c == colour) and _distance_ok(table, state, c)
            and any(state.edge_owner[e] == seat for e in _corner_edges(table, c))]


def movable_ships(table: Table, state: State, seat: int) -> list[int]:
    """The seat's ships at the open end of a route: one end holds neither its building nor another of its ships
    ('O barco no extremo de uma rota marítima aberta pode ser retirado'); not built this turn, not beside the
    pirate. A ship on a closed route (between two of the seat's buildings, or, Cloth for Catan, a building and a
    village it has a trade route to) never has such an end."""
    out = []
    if table.forts:  # the Pirate Islands: a route ship never moves (it would leave the route)
        return out
    for e in range(len(state.edge_owner)):
        if state.edge_owner[e] != seat or not state.edge_ship[e] or state.edge_built[e] == state.turn:
            continue
        if _pirate_blocks(table, state, e):
            continue
        for c in _ends(table, e):
            if state.corner_owner[c] != seat and not _route_village(table, state, seat, c) and not any(
                    f != e and state.edge_owner[f] == seat and state.edge_ship[f] for f in _corner_edges(table, c)):
                out.append(e)
                break
    return out


# ------------------------------------------------------------------------------------------------ scoring
def longest_route(table: Table, state: State, seat: int) -> int:
    """Pieces in the seat's longest trail of roads and ships: never through a rival's building, and from road to
    ship (or back) only at the seat's own building. Every trail from every corner, by recursion."""
    best = 0

    def walk(c: int, used: set, kind: int) -> None:
        nonlocal best
        best = max(best, len(used))
        owner = state.corner_owner[c]
        if used and owner >= 0 and owner != seat:
            return
        for e in _corner_edges(table, c):
            if e in used or state.edge_owner[e] != seat:
                continue
            k = int(state.edge_ship[e])
            if used and k != kind and owner != seat:
                continue
            a, b = _ends(table, e)
            walk(b if a == c else a, used | {e}, k)

    for c in range(len(state.corner_owner)):
        walk(c, set(), -1)
    return best


def _update_route(table: Table, state: State) -> None:
    """The 'Maior estrada comercial' card: the holder keeps it on a tie; lost with a tie between others, nobody
    holds it (base game)."""
    if table.scenario.longest_route or table.wonders:  # else nothing reads it: result() counts it at the end
        state.route = [longest_route(table, state, p) for p in range(state.players)]
    if not table.scenario.longest_route:  # 'Este cenário não se joga com a carta "Maior estrada comercial"'
        return
    least = table.rules.longest_route_minimum
    best = max(state.route)
    h = state.route_holder
    if h >= 0 and state.route[h] >= least and state.route[h] == best:
        return
    leaders = [p for p in range(state.players) if state.route[p] == best]
    state.route_holder = leaders[0] if best >= least and len(leaders) == 1 else -1


def victory_points(table: Table, state: State, seat: int) -> dict[str, int]:
    """A seat's VP by source (VP cards included, bought this turn or before; cloth where cloth is traded; the
    Forgotten Tribe's chits where there are any)."""
    vp = table.rules.vp
    buildings = [b for c, b in enumerate(state.corner_building) if state.corner_owner[c] == seat]
    out = {"settlements": vp["settlement"] * buildings.count(SETTLEMENT), "cities": vp["city"] * buildings.count(CITY),
           "island_bonus": state.bonus_vp[seat],
           "longest_route": vp["longest_route"] * (state.route_holder == seat),
           "largest_army": vp["largest_army"] * (state.army_holder == seat),
           "vp_cards": vp["victory_point_card"] * (state.cards[seat][VP_CARD] + state.new_cards[seat][VP_CARD])}
    if table.villages:
        out["cloth"] = cloth_vp(table, state, seat)
    if GIFT_CHIT in table.gift_kinds:
        out["chits"] = table.rules.chit_vp * state.chits[seat]
    return out


def total_vp(table: Table, state: State, seat: int) -> int:
    return sum(victory_points(table, state, seat).values())


# ------------------------------------------------------------------------------------------------ legal actions
def _rate(table: Table, state: State, seat: int, r: int) -> int:
    rules, harbour = table.rules, state.corner_harbour
    rate = rules.bank_rate
    for c, owner in enumerate(state.corner_owner):
        if owner == seat and harbour[c] >= 0:
            rate = min(rate, rules.generic_rate if harbour[c] == 0 else
                       rules.special_rate if harbour[c] == r + 1 else rate)
    return rate


def _afford(table: Table, state: State, seat: int, item: str) -> bool:
    return all(h >= c for h, c in zip(state.hands[seat], table.rules.costs[item]))


def _thief_moves(table: Table, state: State) -> list[tuple[int, int, int]]:
    out = []
    if table.has_robber:
        out += [(MOVE_ROBBER, h, 0) for h in np.flatnonzero(table.robber_hexes).tolist()
                if h != state.robber and _side(state, h) == 1]  # an unexplored fog hex takes neither piece
    if table.has_pirate and (not table.villages or state.cloth_routes[state.current]):  # cloth: a route first
        out += [(MOVE_PIRATE, h, 0) for h in np.flatnonzero(table.pirate_hexes).tolist()
                if h != state.pirate and _side(state, h) == 0]
    return out


def _victims(table: Table, state: State) -> list[int]:
    """Players the mover may rob: a building at the robber's hex, or a ship on a side of the pirate's
    ('Rouba uma carta de matéria-prima a outro jogador que tenha um barco num dos lados do hexágono de mar')."""
    topo = table.scenario.topology
    seats = set()
    if state.thief == THIEF_ANY:  # the Pirate Islands' 7: 'roubar uma carta a um jogador à sua escolha'
        seats = set(range(state.players))
    elif state.thief == MOVE_ROBBER and state.robber >= 0:
        seats = {state.corner_owner[c] for c in topo.hex_corners[state.robber]}
    elif state.thief == MOVE_PIRATE and state.pirate >= 0:
        seats = {state.edge_owner[e] for e in topo.hex_edges[state.pirate] if state.edge_ship[e]}
        if table.villages:  # Cloth for Catan: a card or a cloth
            return sorted(p for p in seats if p >= 0 and p != state.current and sum(state.hands[p]) + state.cloth[p])
    return sorted(p for p in seats if p >= 0 and p != state.current and sum(state.hands[p]) > 0)


def legal(table: Table, state: State) -> list[tuple[int, int, int]]:
    """Every legal action of state.actor, in canonical order (kind, a, b)."""
    ph, seat = state.phase, state.actor
    if ph == OVER:
        return []
    if ph == SETUP_SETTLEMENT:
        topo = table.scenario.topology
        return [(SETTLE, c, 0) for c in range(topo.n_corner) if table.view.allowed[c] and _distance_ok(table, state, c)]
    if ph == SETUP_EDGE:
        return _setup_edges(table, state)
    if ph == DISCARD:
        return [(DISCARD_CARD, r, 0) for r in range(N_RESOURCES) if state.hands[seat][r] > 0]
    if ph == GOLD_PICK:
        return [(PICK_GOLD, r, 0) for r in range(N_RESOURCES) if state.bank[r] > 0]
    if ph == MOVE_THIEF:
        return _thief_moves(table, state)
    if ph == STEAL:
        victims = _victims(table, state)
        cloth = [(STEAL_CLOTH, v, 0) for v in victims if state.cloth[v] > 0 and state.thief == MOVE_PIRATE]
        # the Pirate Islands' 7: 'o jogador ao qual calhou o "7" poderá roubar uma carta' (may: or steal nothing)
        none = [(NO_STEAL, 0, 0)] if state.thief == THIEF_ANY and table.rules.chosen["pirate_seven_steal_optional"] \
            else []
        return [(STEAL_FROM, v, 0) for v in victims if sum(state.hands[v]) > 0] + cloth + none
    if ph == RESPOND:
        return [(DECLINE, 0, 0)] + ([(ACCEPT, 0, 0)] if state.hands[seat][state.offer[1]] > 0 else [])
    if ph == LAY_HARBOUR:
        return [(PLACE_HARBOUR, e, 0) for e in harbour_sites(table, state)]
    if ph == GIFT_HARBOUR_PHASE:
        kept = kept_harbours(table, state, seat)
        return [(PLACE_GIFT, e, i) for e in gift_harbour_sites(table, state, seat) for i in kept]
    out: list[tuple[int, int, int]] = []
    may_knight = not state.dev_played and state.cards[seat][KNIGHT] > 0 and (
        not table.forts or table.rules.chosen["knight_without_ship"] or False in state.fort_war[seat])
    if ph == PRE_ROLL:  # the base game: one development card at any time of the turn (option progress_before_roll)
        out.append((ROLL, 0, 0))
        if may_knight:
            out.append((PLAY_KNIGHT, 0, 0))
        if table.rules.chosen["progress_before_roll"]:
            out += _progress_cards(table, state, seat)
        return out
    if ph == FREE_ROADS:
        out += [(ROAD, e, 0) for e in road_sites(table, state, seat)]
        out += [(SHIP, e, 0) for e in ship_sites(table, state, seat)]
        return sorted(out) + [(STOP_BUILDING, 0, 0)]
    # MAIN
    out.append((END_TURN, 0, 0))
    if _afford(table, state, seat, "road"):
        out += [(ROAD, e, 0) for e in road_sites(table, state, seat)]
    if _afford(table, state, seat, "ship"):
        out += [(SHIP, e, 0) for e in ship_sites(table, state, seat)]
    if _afford(table, state, seat, "settlement"):
        out += [(SETTLE, c, 0) for c in settlement_sites(table, state, seat)]
    if _afford(table, state, seat, "city") and state.pieces_left[seat][3] > 0:
        out += [(CITY_UP, c, 0) for c, o in enumerate(state.corner_owner)
                if o == seat and state.corner_building[c] == SETTLEMENT]
    if _afford(table, state, seat, "dev_card") and state.deck_pos < len(state.deck):
        out.append((BUY_CARD, 0, 0))
    if may_knight:
        out.append((PLAY_KNIGHT, 0, 0))
    out += _progress_cards(table, state, seat)
    for a in range(N_RESOURCES):
        if state.hands[seat][a] >= _rate(table, state, seat, a):
            out += [(TRADE, a, b) for b in range(N_RESOURCES) if b != a and state.bank[b] > 0]
    if not state.ship_moved:
        for e in movable_ships(table, state, seat):
            out += [(MOVE_SHIP, e, f) for f in ship_sites(table, state, seat, skip=e)]
    if state.offers < table.rules.domestic_offers:
        out += [(OFFER, a, b) for a in range(N_RESOURCES) if state.hands[seat][a] > 0
                for b in range(N_RESOURCES) if b != a]
    if table.wonders:
        out += wonder_actions(table, state, seat)
    if table.forts and state.fort_chits[seat] > 0 and route_complete(table, state, seat):
        out.append((ATTACK, 0, 0))
    return sorted(out)


def _progress_cards(table: Table, state: State, seat: int) -> list[tuple[int, int, int]]:
    """The progress cards the seat may play now: road building, year of plenty, monopoly (one development card a
    turn, none bought this turn)."""
    if state.dev_played:
        return []
    cards, out = state.cards[seat], []
    if cards[ROAD_BUILDING] > 0 and (road_sites(table, state, seat) or ship_sites(table, state, seat)):
        out.append((PLAY_ROAD_BUILDING, 0, 0))
    if cards[YEAR_OF_PLENTY] > 0:
        out += [(PLAY_YEAR_OF_PLENTY, a, b) for a in range(N_RESOURCES) for b in range(a, N_RESOURCES)
                if state.bank[a] >= 1 + (a == b) and state.bank[b] >= 1]
    if cards[MONOPOLY] > 0:
        out += [(PLAY_MONOPOLY, r, 0) for r in range(N_RESOURCES)]
    return out


def _setup_edges(table: Table, state: State) -> list[tuple[int, int, int]]:
    """A road, or from a coastal settlement a ship ('poderá construir um barco em vez de uma estrada'), beside the
    settlement just placed; never on a side of the pirate's hex ('não podem ser colocados ... barcos das vias
    marítimas que rodeiam o pirata'); on a coast facing the frame only with option draft_ship_facing_frame."""
    topo = table.scenario.topology
    c = state.setup_corner
    out = []
    for e in _corner_edges(table, c):
        if state.edge_owner[e] >= 0 or not topo.edge_in_play[e]:
            continue
        if _may_road(table, state, e):
            out.append((ROAD, e, 0))
        if table.scenario.setup.ships and _corner_coastal(table, state, c) and _may_ship(table, state, e) \
                and not _pirate_blocks(table, state, e):
            sides = _sides(table, e)
            faces_frame = 1 in [_side(state, h) for h in sides] and any(topo.hex_frame[h] for h in sides if h >= 0)
            if not faces_frame or table.rules.chosen["draft_ship_facing_frame"]:
                out.append((SHIP, e, 0))
    return sorted(out)


# ------------------------------------------------------------------------------------------------ step
def _pay(table: Table, state: State, seat: int, item: str) -> None:
    for r, c in enumerate(table.rules.costs[item]):
        state.hands[seat][r] -= c
        state.bank[r] += c


def _take(state: State, seat: int, r: int, k: int = 1) -> None:
    state.hands[seat][r] += k
    state.bank[r] -= k


def _place_edge(table: Table, state: State, seat: int, e: int, ship: bool) -> None:
    state.edge_owner[e] = seat
    state.edge_ship[e] = ship
    state.edge_built[e] = state.turn
    state.pieces_left[seat][1 if ship else 0] -= 1
    _explore(table, state, seat, e)
    if ship:
        open_routes(table, state, seat, e)


def _explore(table: Table, state: State, seat: int, e: int) -> None:
    """'Sempre que um jogador construa um barco ou estrada e falte um hexágono na encruzilhada seguinte, esse
    jogador retira um hexágono do monte e coloca-o no espaço vazio': every fog hex at the corner the new piece
    leads to, the end the seat had not reached before (option fog_explore_next_corner; false: at either end), is
    turned up (the first end's hexes by index, then the second's). The stacks are dealt with the board, face
    down: the hex turned up is the one dealt there, which is what drawing from the shuffled stacks gives, since
    no one sees them. 'Esse jogador recebe uma carta de matéria-prima correspondente ao tipo de terreno': a card
    of the hex's resource if the bank has one; gold, a card of the finder's choice; sea, nothing."""
    next_only = table.rules.chosen["fog_explore_next_corner"]
    for c in _ends(table, e):
        if next_only and reached(table, state, seat, c, e):
            continue
        for h in table.scenario.topology.corner_hexes[c]:
            if h < 0 or not table.fog[h] or state.terrain[h] != UNKNOWN:
                continue
            t = int(table.terrain[h])
            state.terrain[h], state.number[h] = t, int(table.number[h])
            if t == GOLD:
                state.gold[seat] += 1
            elif FIRST_RESOURCE_TERRAIN <= t <= ORE and state.bank[t - FIRST_RESOURCE_TERRAIN] > 0:
                _take(state, seat, t - FIRST_RESOURCE_TERRAIN)


def reached(table: Table, state: State, seat: int, c: int, e: int) -> bool:
    """Had the seat reached corner c before its piece on edge e: its building there, or another piece of its own?"""
    return state.corner_owner[c] == seat or any(
        f >= 0 and f != e and state.edge_owner[f] == seat for f in table.scenario.topology.corner_edges[c])


def _settle(table: Table, state: State, seat: int, c: int, in_setup: bool) -> None:
    state.corner_owner[c] = seat
    state.corner_building[c] = SETTLEMENT
    state.pieces_left[seat][2] -= 1
    t = int(table.corner_territory[c])
    if in_setup:
        if t >= 0:
            state.home[seat].add(t)
        return
    if state.first_settlement_turn[seat] < 0:
        state.first_settlement_turn[seat] = state.turn
    if t >= 0 and table.scenario.victory.island_bonus_scope == "each_settlement":
        # the Wonders: 'se um jogador constrói, ao longo do jogo, uma aldeia numa ilhota, obtém uma ficha Catan'
        state.bonus_vp[seat] += table.scenario.victory.island_bonus
    elif t >= 0 and t not in state.claimed[seat] and not (table.territory_foreign_only[t] and t in state.home[seat]):
        # 'recebe 2 pontos de vitória especiais ... independentemente de já existir nessa mesma ilhota uma aldeia'
        state.claimed[seat].add(t)
        state.bonus_vp[seat] += table.scenario.victory.island_bonus


def _roll(state: State) -> int:
    """The dice pair's index 6 (d1 - 1) + (d2 - 1), exactly uniform (kernels/catan/dice.py)."""
    v = state.dice.next_u64()
    while v >= PAIR_LIMIT:
        v = state.dice.next_u64()
    return v % 36


def _roll_die(state: State) -> int:
    """One die from the dice stream (kernels/catan/dice.py roll_die)."""
    v = state.dice.next_u64()
    while v >= DIE_LIMIT:
        v = state.dice.next_u64()
    return v % 6 + 1


def _produce(table: Table, state: State, total: int) -> None:
    """Settlement 1 card, city 2 (gold: that many picks); the robber's hex gives nothing; a resource the bank
    cannot pay to everyone goes to nobody, unless only one player is owed it (base game)."""
    topo = table.scenario.topology
    owed = [[0] * N_RESOURCES for _ in range(state.players)]
    for h in range(topo.n_hex):
        t = state.terrain[h]
        if state.number[h] != total or h == state.robber or not GOLD <= t <= ORE:
            continue
        for c in topo.hex_corners[h]:
            seat = state.corner_owner[c]
            if seat < 0:
                continue
            k = 2 if state.corner_building[c] == CITY else 1
            if t == GOLD:
                state.gold[seat] += k
            else:
                owed[seat][t - FIRST_RESOURCE_TERRAIN] += k
    for r in range(N_RESOURCES):
        want = [owed[p][r] for p in range(state.players)]
        if sum(want) <= state.bank[r]:
            for p in range(state.players):
                _take(state, p, r, want[p])
        elif sum(w > 0 for w in want) == 1:
            p = next(p for p in range(state.players) if want[p] > 0)
            _take(state, p, r, state.bank[r])


def _after_gold(table: Table, state: State) -> None:
    """Gold picks, seat after seat from the current player, then back to `resume`."""
    if sum(state.bank) == 0:
        state.gold = [0] * state.players
    first = state.setup_order[state.setup_pos] if state.resume == SETUP_SETTLEMENT else state.current
    for k in range(state.players):
        p = (first + k) % state.players
        if state.gold[p] > 0:
            state.phase, state.actor = GOLD_PICK, p
            return
    if state.resume == SETUP_SETTLEMENT:
        _next_setup(table, state)
    else:  # (FLEET_ROLL: step goes on with the roll's effects)
        state.phase, state.actor = state.resume, state.current


def _after_discards(table: Table, state: State) -> None:
    for k in range(state.players):
        p = (state.current + k) % state.players
        if state.discard[p] > 0:
            state.phase, state.actor = DISCARD, p
            return
    state.phase, state.actor = MOVE_THIEF, state.current


def _start_thief(table: Table, state: State, resume: int) -> None:
    state.resume = resume
    if table.forts:  # the Pirate Islands: no robber; after a 7's discards the roller robs a player of its choice
        state.thief = THIEF_ANY
        state.phase, state.actor = (STEAL if _victims(table, state) else resume), state.current
        return
    if not _thief_moves(table, state):
        state.phase = resume
        return
    state.phase, state.actor = MOVE_THIEF, state.current


def step(table: Table, state: State, action: tuple[int, int, int]) -> None:
    """Carry out one legal action of state.actor."""
    kind, a, b = action
    seat, rules = state.actor, table.rules
    ph = state.phase
    if ph == LAY_HARBOUR:
        k = state.harbour_stack[state.harbour_pos]
        state.harbour_edges[state.harbour_pos] = a
        for c in _ends(table, a):
            state.corner_harbour[c] = k
        _lay_next(table, state, state.harbour_pos + 1)
        return
    if ph == GIFT_HARBOUR_PHASE:  # 'Os portos podem ser usados no próprio turno em que são ganhos'
        state.gift_laid[b] = a
        for c in _ends(table, a):
            state.corner_harbour[c] = table.gift_items[b]
        if not _can_place(table, state, seat):
            state.phase, state.actor = state.gift_resume, state.current
        return
    if ph == SETUP_SETTLEMENT:
        _settle(table, state, seat, a, True)
        state.setup_corner = a
        if _last_placement(state):  # one card per producing hex at the seat's last draft settlement
            for h in table.scenario.topology.corner_hexes[a]:
                t = state.terrain[h] if h >= 0 else SEA
                if t == GOLD:
                    state.gold[seat] += 1
                elif FIRST_RESOURCE_TERRAIN <= t <= ORE and state.bank[t - FIRST_RESOURCE_TERRAIN] > 0:
                    _take(state, seat, t - FIRST_RESOURCE_TERRAIN)
        state.phase = SETUP_EDGE
        if not _setup_edges(table, state):
            _end_setup_step(table, state)
        return
    if ph == SETUP_EDGE:
        _place_edge(table, state, seat, a, kind == SHIP)
        state.edge_built[a] = -1  # built before turn 0, seat 1's first turn ('construído nesse mesmo turno': not)
        _update_route(table, state)
        _end_setup_step(table, state)
        return
    if kind == ROLL:
        pair = _roll(state)
        total = pair // 6 + pair % 6 + 2
        state.rolls += 1
        state.last_roll = total
        if state.fleet >= 0 and fleet_moves(table, state, min(pair // 6, pair % 6) + 1):
            state.resume = FLEET_ROLL  # a raid won: its card is picked before the 7 or the production
            _after_gold(table, state)
        else:
            _roll_effects(table, state, total)
    elif kind == DISCARD_CARD:
        state.hands[seat][a] -= 1
        state.bank[a] += 1
        state.discard[seat] -= 1
        _after_discards(table, state)
        if state.phase == MOVE_THIEF:
            _start_thief(table, state, MAIN)
    elif kind == PICK_GOLD:
        _take(state, seat, a)
        state.gold[seat] -= 1
        _after_gold(table, state)
    elif kind in (MOVE_ROBBER, MOVE_PIRATE):
        state.thief = kind
        if kind == MOVE_ROBBER:
            state.robber = a
        else:
            state.pirate = a
        state.phase = STEAL if _victims(table, state) else state.resume
    elif kind == STEAL_FROM:
        r = random_card(state, a)
        state.hands[a][r] -= 1
        state.hands[state.current][r] += 1
        state.phase = state.resume
    elif kind == NO_STEAL:  # the Pirate Islands' 7, declined
        state.phase = state.resume
    elif kind == STEAL_CLOTH:  # the pirate's steal of a cloth (Cloth for Catan)
        state.cloth[a] -= 1
        state.cloth[state.current] += 1
        state.phase = state.resume
    elif kind == END_TURN:
        _end_turn(table, state)
    elif kind == ATTACK:
        attack(table, state, seat)
    elif kind in (ROAD, SHIP):
        if ph == FREE_ROADS:
            state.free_roads -= 1
        else:
            _pay(table, state, seat, "road" if kind == ROAD else "ship")
        _place_edge(table, state, seat, a, kind == SHIP)
        if kind == SHIP and table.forts:
            state.fort_route[seat].append(a)
            state.fort_war[seat].append(False)
        _update_route(table, state)
        if ph == FREE_ROADS and (state.free_roads == 0 or not (road_sites(table, state, seat)
                                                               or ship_sites(table, state, seat))):
            state.phase = state.free_resume
        if kind == SHIP:  # 'Se um jogador constrói um barco numa costa onde há ...'
            _take_gifts(table, state, seat, a)
        if state.gold[seat] > 0:  # gold turned up in the fog: the finder picks its card now
            state.resume = state.phase
            _after_gold(table, state)
    elif kind == STOP_BUILDING:
        state.free_roads, state.phase = 0, state.free_resume
    elif kind == SETTLE:
        _pay(table, state, seat, "settlement")
        _settle(table, state, seat, a, False)
        _update_route(table, state)  # a settlement may cut a rival's route
        _start_placing(table, state, seat)  # a kept harbour may go at it
    elif kind == CITY_UP:
        _pay(table, state, seat, "city")
        state.corner_building[a] = CITY
        state.pieces_left[seat][3] -= 1
        state.pieces_left[seat][2] += 1
    elif kind == BUY_CARD:
        _pay(table, state, seat, "dev_card")
        state.new_cards[seat][state.deck[state.deck_pos]] += 1
        state.deck_pos += 1
    elif kind == PLAY_KNIGHT and table.forts:  # the Pirate Islands: a warship
        state.cards[seat][KNIGHT] -= 1
        state.dev_played = True
        state.knights[seat] += 1
        warship(state, seat)
    elif kind == PLAY_KNIGHT:
        state.cards[seat][KNIGHT] -= 1
        state.dev_played = True
        state.knights[seat] += 1
        h = state.army_holder
        if state.knights[seat] >= rules.largest_army_minimum and (h < 0 or state.knights[seat] > state.knights[h]):
            state.army_holder = seat
        _start_thief(table, state, ph)
    elif kind == PLAY_ROAD_BUILDING:
        state.cards[seat][ROAD_BUILDING] -= 1
        state.dev_played = True
        state.free_roads, state.phase, state.free_resume = 2, FREE_ROADS, ph  # (PRE_ROLL: back to the roll)
    elif kind == PLAY_YEAR_OF_PLENTY:
        state.cards[seat][YEAR_OF_PLENTY] -= 1
        state.dev_played = True
        _take(state, seat, a)
        _take(state, seat, b)
    elif kind == PLAY_MONOPOLY:
        state.cards[seat][MONOPOLY] -= 1
        state.dev_played = True
        for p in range(state.players):
            if p != seat:
                state.hands[seat][a] += state.hands[p][a]
                state.hands[p][a] = 0
    elif kind == TRADE:
        k = _rate(table, state, seat, a)
        state.hands[seat][a] -= k
        state.bank[a] += k
        _take(state, seat, b)
        state.trades[seat] += 1
    elif kind == MOVE_SHIP:
        state.edge_owner[a], state.edge_ship[a], state.edge_built[a] = -1, False, -1
        state.edge_owner[b], state.edge_ship[b], state.edge_built[b] = seat, True, state.turn
        state.ship_moved = True
        open_routes(table, state, seat, b)
        _update_route(table, state)
        if rules.chosen["gift_by_moved_ship"]:
            _take_gifts(table, state, seat, b)
    elif kind == OFFER:
        state.offers += 1
        state.offer = (a, b)
        state.phase, state.actor = RESPOND, (state.current + 1) % state.players
    elif kind == DECLINE:
        state.actor = (seat + 1) % state.players
        if state.actor == state.current:  # nobody took it
            state.phase = MAIN
    elif kind == CLAIM_WONDER:  # 'o jogador poderá colocar um dos seus barcos na carta de maravilha desejada'
        state.wonder[seat] = a
        state.pieces_left[seat][1] -= 1
    elif kind == BUILD_STAGE:  # 'Cada fase de construção custa as 5 matérias primas apresentadas na respectiva carta'
        for r, c in enumerate(table.wonders[state.wonder[seat]].cost):
            state.hands[seat][r] -= c
            state.bank[r] += c
        state.stage[seat] += 1
    elif kind == ACCEPT:
        give, get = state.offer
        state.hands[state.current][give] -= 1
        state.hands[seat][give] += 1
        state.hands[seat][get] -= 1
        state.hands[state.current][get] += 1
        state.domestic[state.current] += 1
        state.domestic[seat] += 1
        state.phase, state.actor = MAIN, state.current
    else:
        raise ValueError(f"unknown action {action}")
    if state.phase == FLEET_ROLL:  # the Pirate Islands: the raid's picks done, the 7 or the production
        _roll_effects(table, state, state.last_roll)
    _check_win(table, state)


def random_card(state: State, seat: int) -> int:
    """The resource of a uniformly random card of the seat's hand (one draw of the steal stream, cards in resource
    order; the hand is not empty)."""
    hand = state.hands[seat]
    i = state.steal.below(sum(hand))
    r = 0
    while i >= hand[r]:
        i -= hand[r]
        r += 1
    return r


def _roll_effects(table: Table, state: State, total: int) -> None:
    """A 7 (discards, then the robber, the pirate or, the Pirate Islands, a steal), else the production."""
    if total == 7:
        state.sevens += 1
        state.discard = [sum(h) // 2 if sum(h) > table.rules.discard_above else 0 for h in state.hands]
        state.resume = MAIN
        _after_discards(table, state)
        if state.phase == MOVE_THIEF:
            _start_thief(table, state, MAIN)
    else:
        _produce(table, state, total)
        pay_cloth(table, state, total)
        state.resume = MAIN
        _after_gold(table, state)


def _end_turn(table: Table, state: State) -> None:
    for p in range(state.players):
        state.cards[p] = [x + y for x, y in zip(state.cards[p], state.new_cards[p])]
        state.new_cards[p] = [0] * 5
    state.dev_played = state.ship_moved = False
    state.offers = 0
    state.turn += 1
    state.current = state.actor = (state.current + 1) % state.players
    state.phase = PRE_ROLL
    if state.turn >= table.rules.turn_cap:
        state.capped, state.phase = True, OVER


def _end_setup_step(table: Table, state: State) -> None:
    state.resume = SETUP_SETTLEMENT
    _after_gold(table, state)


def _check_win(table: Table, state: State) -> None:
    """'Para vencer, o jogador tem de estar no seu turno e somar os pontos necessários.'"""
    if state.phase == OVER or state.phase < PRE_ROLL or state.phase == LAY_HARBOUR:
        return
    if table.wonders:
        _wonder_win(table, state)
    elif total_vp(table, state, state.current) >= table.scenario.victory.target and (
            not table.forts or state.fort_chits[state.current] == 0):  # and its own fortress conquered
        state.winner, state.phase = state.current, OVER
    elif table.villages and sum(k > 0 for k in state.village_cloth) <= table.scenario.victory.end_villages:
        _villages_end(table, state)


def terminal(state: State) -> bool:
    return state.phase == OVER


def result(table: Table, state: State) -> dict:
    """The game's result: winner (-1 if capped), turns, rolls, and per seat VP by source and pieces built (Cloth
    for Catan also: the villages' end, and per seat vp_cloth and cloth)."""
    seats = []
    for p in range(state.players):
        vp = victory_points(table, state, p)
        left = state.pieces_left[p]
        supply = table.rules.supply
        seats.append({"vp": sum(vp.values()), **{f"vp_{k}": v for k, v in vp.items()},
                      "roads": supply["roads"] - left[0], "ships": supply["ships"] - left[1],
                      "settlements": sum(1 for c, o in enumerate(state.corner_owner)
                                         if o == p and state.corner_building[c] == SETTLEMENT),
                      "cities": supply["cities"] - left[3], "route": longest_route(table, state, p),
                      "knights": state.knights[p], "trades": state.trades[p], "domestic": state.domestic[p],
                      "cards": sum(state.hands[p]),
                      **({"cloth": state.cloth[p]} if table.villages else {}),
                      **({"ships": supply["ships"] - left[1] - (state.wonder[p] >= 0), "wonder": state.wonder[p] + 1,
                          "wonder_stage": state.stage[p]} if table.wonders else {}),
                      **({"warships": sum(state.fort_war[p]),
                          "fortress": table.scenario.markers.fortress_strength - state.fort_chits[p]}
                         if table.forts else {})})
    out = {"winner": state.winner, "turns": state.turn, "rolls": state.rolls, "sevens": state.sevens,
           "capped": state.capped, "seats": seats}
    if table.villages:  # Cloth for Catan's columns (the kernel's are 0 elsewhere)
        out["cloth_end"] = state.cloth_end
    return out


# ------------------------------------------------------------------------------------------------ Cloth for Catan
# Seed 002, CENÁRIO 6: MERCADORIAS PARA CATAN; the defaults where it is silent: rules data [cloth].
def _route_village(table: Table, state: State, seat: int, c: int) -> bool:
    """Is corner c a village the seat has a trade route to? (its end of a ship counts as the seat's building:
    'a rota é considerada fechada. Significa isto que não se pode recolocar nenhum barco')"""
    return any(v == c and k in state.cloth_routes[seat] for k, (v, _) in enumerate(table.villages))


def _take_cloth(table: Table, state: State, seat: int, k: int, reserve: bool) -> None:
    """One cloth to the seat from village k's stock, else (reserve) from the common reserve, else nothing."""
    if state.village_cloth[k] > 0:
        state.village_cloth[k] -= 1
        state.cloth[seat] += 1
    elif reserve and state.cloth_reserve > 0:
        state.cloth_reserve -= 1
        state.cloth[seat] += 1


def open_routes(table: Table, state: State, seat: int, e: int) -> None:
    """'A partir do momento em que um jogador construa uma rota marítima entre uma aldeia sua e uma aldeia do "povo
    perdido" (ou seja, chegue a uma encruzilhada com uma ficha numerada), é estabelecida uma "rota mercantil" com
    essa aldeia. O jogador retira um pacote de mercadorias (ficha) do stock dessa aldeia.' A ship of the seat on
    edge e opens a route to the village at either end it has none to yet (the default: rules data [cloth])."""
    for c in _ends(table, e):
        for k, (v, _) in enumerate(table.villages):
            if v == c and k not in state.cloth_routes[seat]:
                state.cloth_routes[seat].add(k)
                _take_cloth(table, state, seat, k, table.rules.chosen["cloth_route_from_reserve"])


def pay_cloth(table: Table, state: State, total: int) -> None:
    """A roll of a village's number: each route holder, in turn order from the roller, one cloth from the village,
    then from the reserve; nothing at all from a village with none left ('nem das reservas comuns')."""
    for k, (_, number) in enumerate(table.villages):
        if number != total or state.village_cloth[k] == 0:
            continue
        for i in range(state.players):
            p = (state.current + i) % state.players
            if k in state.cloth_routes[p]:
                _take_cloth(table, state, p, k, True)


def cloth_vp(table: Table, state: State, seat: int) -> int:
    """'2 pacotes de mercadorias (fichas) equivalem a 1 ponto. Atenção: 1 ficha não equivale a meio ponto.'"""
    per = table.scenario.victory.cloth_per_vp
    return state.cloth[seat] // per if per else 0


def _villages_end(table: Table, state: State) -> None:
    """'... ou quando apenas restem fichas em 3 das aldeias do "povo perdido". Neste último caso, vence o jogador com
    mais pontos de vitória. Em caso de empate, vence o jogador com mais pacotes de mercadoria.' Still tied: the tied
    player first in turn order from the player on turn (a default)."""
    order = [(state.current + i) % state.players for i in range(state.players)]
    state.winner = max(order, key=lambda p: (total_vp(table, state, p), state.cloth[p]))  # the first of equals
    state.phase, state.cloth_end = OVER, True


# ------------------------------------------------------------------------------------------------ the Pirate Islands
# Seed 002, CENÁRIO 7: AS ILHAS DOS PIRATAS; its facts in the scenario file (pirate-islands.toml: the fleet's path,
# the fortresses, the pre-placed pieces, the marked corners, the lanes), the deck and the defaults where the seed is
# silent in rules data [pirates]; the battle is kernels/catan/fortress.py's battle_outcome.
def _preplace(table: Table, state: State) -> None:
    """'Na linha costeira da ilha oriental são colocados uma aldeia e um barco por jogador': each seat's settlement
    and first route ship, before the draft; each fortress holds its chits; the fleet on its start hex."""
    if not table.forts:
        return
    chits = table.scenario.markers.fortress_strength
    state.fort_route, state.fort_war = [[] for _ in table.forts], [[] for _ in table.forts]
    for p, f in enumerate(table.forts):
        _settle(table, state, p, f.settlement, True)
        _place_edge(table, state, p, f.ship, True)
        state.fort_route[p].append(f.ship)
        state.fort_war[p].append(False)
    state.fort_chits = [chits] * len(table.forts)
    state.fleet = 0
    _update_route(table, state)


def _reserved(table: Table, state: State, seat: int) -> int:
    """Settlement pieces the seat may not build with: its fortress's settlement until the conquest ('uma aldeia (da
    cor indicada) colocada por cima': one of the colour's 5, rules data [pirates] conquest_note)."""
    return 1 if table.forts and state.fort_chits[seat] > 0 else 0


def route_end(table: Table, state: State, seat: int) -> int:
    """The corner the seat's route has reached (its settlement with no ship yet)."""
    c = table.forts[seat].settlement
    for e in state.fort_route[seat]:
        a, b = _ends(table, e)
        c = b if a == c else a
    return c


def route_complete(table: Table, state: State, seat: int) -> bool:
    """Has the route reached the fortress ('alcance a fortaleza pirata da sua cor através de uma rota marítima')?"""
    return route_end(table, state, seat) == table.forts[seat].fortress


def route_sites(table: Table, state: State, seat: int) -> list[int]:
    """Where the seat's next ship may go: a free lane of its own at the route's end, one ship nearer the marked
    corner (until the route has passed it), then the fortress ('não poderá dividir-se e não poderá continuar para
    além da fortaleza pirata ... pelo caminho mais curto')."""
    f = table.forts[seat]
    to_colour, to_fort = table.fort_dist[seat]
    c = route_end(table, state, seat)
    if c == f.fortress:
        return []
    passed = f.colour_corner == c or f.colour_corner in [x for e in state.fort_route[seat] for x in _ends(table, e)]
    dist = to_fort if passed else to_colour
    lanes = set(f.lanes) | {f.ship}
    blocked = -1  # option fleet_blocks_ships: the fleet's hex, whose sides take no new ship
    if table.rules.chosen["fleet_blocks_ships"] and state.fleet >= 0:
        blocked = table.fleet_path[state.fleet]
    out = []
    for e in _corner_edges(table, c):
        a, b = _ends(table, e)
        d = b if a == c else a
        if blocked >= 0 and blocked in _sides(table, e):
            continue
        if e in lanes and state.edge_owner[e] < 0 and dist.get(d, -1) == dist[c] - 1:
            out.append(e)
    return sorted(out)


def warship(state: State, seat: int) -> None:
    """'poderá transformar o barco "normal" mais adiantado da sua rota marítima num navio de guerra'"""
    war = state.fort_war[seat]
    for i in range(len(war) - 1, -1, -1):
        if not war[i]:
            war[i] = True
            return


def fleet_moves(table: Table, state: State, low: int) -> bool:
    """'move primeiro a frota pirata ... um número de hexágonos igual ao valor do dado menor', then its raid on every
    player with a building at its hex ('essa aldeia ou cidade é atacada imediatamente'; option raid_sole_owner: only
    a lone one): pirates stronger (the lower die above the player's warships), 'perderá uma carta de matéria-prima, e
    1 adicional por cada cidade que tenha', random cards back to the bank; the player stronger, a card of its choice
    (a gold pick); equal, nothing. Returns whether a card is to be picked."""
    state.fleet = (state.fleet + low) % len(table.fleet_path)
    h = table.fleet_path[state.fleet]
    owners = sorted({state.corner_owner[c] for c in table.scenario.topology.hex_corners[h]
                     if c >= 0 and state.corner_owner[c] >= 0})
    if table.rules.chosen["raid_sole_owner"] and len(owners) > 1:
        return False
    picks = False
    for p in owners:
        warships = sum(state.fort_war[p])
        if low > warships:
            cities = table.rules.supply["cities"] - state.pieces_left[p][3]
            for _ in range(min(1 + cities, sum(state.hands[p]))):
                r = random_card(state, p)
                state.hands[p][r] -= 1
                state.bank[r] += 1
        elif warships > low:
            state.gold[p] += 1
            picks = True
    return picks


def attack(table: Table, state: State, seat: int) -> None:
    """'O jogador rola um dado para determinar a força da fortaleza pirata': warships on the route above the die, the
    fortress loses a chit; below it, 'perde os dois barcos mais adiantados'; equal, 'o barco mais adiantado'
    (kernels/catan/fortress.py battle_outcome). At its last chit the fortress becomes the seat's settlement; when
    every fortress has fallen the fleet leaves. 'O turno do jogador acaba depois da batalha' (a conquest is checked
    for the win first)."""
    from kernels.catan.fortress import LOSS, TIE, WIN, battle_outcome

    outcome = battle_outcome(sum(state.fort_war[seat]), _roll_die(state))
    if outcome == WIN:
        state.fort_chits[seat] -= 1
        if state.fort_chits[seat] == 0:
            _settle(table, state, seat, table.forts[seat].fortress, False)
            if not any(state.fort_chits):
                state.fleet = -1  # 'retira-se de jogo a frota pirata'
    for _ in range({WIN: 0, TIE: 1, LOSS: 2}[outcome]):
        if state.fort_route[seat]:
            e = state.fort_route[seat].pop()
            state.fort_war[seat].pop()
            state.edge_owner[e], state.edge_ship[e], state.edge_built[e] = -1, False, -1
            state.pieces_left[seat][1] += 1
    _update_route(table, state)
    _check_win(table, state)
    if state.phase != OVER:
        _end_turn(table, state)


# ------------------------------------------------------------------------------------------------ Wonders of Catan
# Seed 002, CENÁRIO 8: AS MARAVILHAS DE CATAN; the cards and the defaults where it is silent: rules data [wonders].
def wonder_met(table: Table, state: State, seat: int, w: int) -> bool:
    """Does the seat meet wonder w's requirement ('A construção de uma maravilha de Catan pode ser iniciada quando o
    jogador cumprir os requisitos correspondentes à respectiva maravilha')? Its cities, VP (hidden VP cards
    included), a city at a harbour, its longest trade route, a settlement (or city, option wonder_site_city) on one
    of the card's marked corners."""
    card = table.wonders[w]
    mine = [c for c, o in enumerate(state.corner_owner) if o == seat]
    cities = [c for c in mine if state.corner_building[c] == CITY]
    if len(cities) < card.cities or total_vp(table, state, seat) < card.vp or state.route[seat] < card.route:
        return False
    if card.harbour_city and not any(state.corner_harbour[c] >= 0 for c in cities):
        return False
    kinds = (SETTLEMENT, CITY) if table.rules.chosen["wonder_site_city"] else (SETTLEMENT,)
    sites = table.wonder_sites[w]
    return not sites or any(state.corner_owner[c] == seat and state.corner_building[c] in kinds for c in sites)


def wonder_actions(table: Table, state: State, seat: int) -> list[tuple[int, int, int]]:
    """A free wonder card whose requirement the seat meets, while it has none and a ship in its supply ('Os outros
    jogadores terão de escolher entre as maravilhas restantes'); the next stage of its own, while it has the card's
    5 resources ('poderá fazê-lo no decorrer do mesmo turno': one action per stage)."""
    w = state.wonder[seat]
    if w >= 0:
        affordable = all(h >= c for h, c in zip(state.hands[seat], table.wonders[w].cost))
        return [(BUILD_STAGE, 0, 0)] if state.stage[seat] < table.rules.wonder_stages and affordable else []
    if state.pieces_left[seat][1] == 0:
        return []
    return [(CLAIM_WONDER, k, 0) for k in range(len(table.wonders))
            if k not in state.wonder and wonder_met(table, state, seat, k)]


def _wonder_win(table: Table, state: State) -> None:
    """'Um jogador vence o jogo quando: * tenha acabado a sua maravilha do mundo. ou * tenha conseguido 10 pontos de
    vitória e esteja numa fase de construção da maravilha do mundo superior à dos seus oponentes.' (the player on
    turn; more stages than every opponent, a tie is not superior)."""
    p = state.current
    ahead = all(state.stage[p] > state.stage[q] for q in range(state.players) if q != p)
    if state.stage[p] >= table.rules.wonder_stages or (
            ahead and total_vp(table, state, p) >= table.scenario.victory.target):
        state.winner, state.phase = p, OVER


# ------------------------------------------------------------------------------------------------ baseline bots
def _is_build(action: tuple[int, int, int]) -> bool:
    return action[0] not in (END_TURN, TRADE, MOVE_SHIP, OFFER, DECLINE, ACCEPT)


def decide_random(actions: list, stream: Stream) -> int:
    """`random`: uniform over the legal actions."""
    return stream.below(len(actions))


def decide_weighted(actions: list, stream: Stream, table: Table | None = None, state: State | None = None) -> int:
    """`weighted`: three times in four a uniform pick among the builds (every action but ending the turn, a
    trade, an offer or its answer, or a ship move), else uniform over all: a baseline that builds, so that its
    games end. A harbour token goes where `best_harbour` finds best (as every bot but `random`)."""
    if state is not None and state.phase == LAY_HARBOUR:
        return best_harbour(table, state, actions)
    builds = [i for i, a in enumerate(actions) if _is_build(a)]
    if builds and stream.below(4) != 0:
        return builds[stream.below(len(builds))]
    return stream.below(len(actions))


def harbour_score(table: Table, state: State, seat: int, e: int) -> int:
    """How much the seat likes the drawn token on edge e (every bot but `random`, kernels/catan/bots.py): the better
    dock's pips (every resource and gold), plus twice its pips of a 2:1 token's resource (a 2:1 harbour next to the
    settlement that produces its resource), plus 50 at the seat's own building; a dock a rival holds, or where no
    settlement may go (the distance rule, no land, out of play), counts nothing."""
    topo, kind = table.scenario.topology, state.harbour_stack[state.harbour_pos]
    best = 0
    for c in _ends(table, e):
        owner = state.corner_owner[c]
        if owner >= 0 and owner != seat:
            continue
        if owner < 0 and not (_corner_land(table, state, c) and topo.corner_in_play[c] and not table.no_settle[c]
                              and _distance_ok(table, state, c)):
            continue
        score = 50 if owner == seat else 0
        for h in topo.corner_hexes[c]:
            t = state.terrain[h] if h >= 0 else SEA
            if GOLD <= t <= ORE:
                pips = PIPS[state.number[h]]
                score += pips + (2 * pips if kind > 0 and t == FIRST_RESOURCE_TERRAIN + kind - 1 else 0)
        best = max(best, score)
    return best


def best_harbour(table: Table, state: State, actions: list) -> int:
    """Index of the harbour action the actor scores highest (the first on a tie)."""
    scores = [harbour_score(table, state, state.actor, a) for _, a, _ in actions]
    return scores.index(max(scores))
