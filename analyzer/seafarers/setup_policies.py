"""Initial placement in Catan: Seafarers: the snake draft and the heuristics that pick the corners.

    heuristic = parse_heuristic("diverse:variety=3")
    view = board_view(scenario, terrain, number, harbour)     # what the players see of a dealt board
    result = draft(view, heuristic, seed=1, board=0)          # settlements and roads/ships per seat

The draft (seed 002, "Fase de construção", and each scenario's set-up text):
- Seats place in snake order 1, 2, ..., P, P, ..., 1: two settlements each; Cloth for Catan adds a
  third round that starts with the player who placed last and goes clockwise (setup.settlements = 3).
- A settlement goes on a free corner touching revealed land (fog is unknown), not next to another
  settlement, on a start area where the scenario has one (role "start"; else "start_or_bonus"), and not
  on a corner the scenario marks as closed at set-up (Wonders: wasteland, strait and "!" corners).
- The Pirate Islands pre-place one settlement and one ship per seat (their fortress slot) first.
- Each settlement gets a road, or a ship when the settlement is on the coast ("Se, durante a Fase de
  construção, um jogador constrói uma aldeia na linha costeira, poderá construir um barco em vez de
  uma estrada": taken here as always) and the scenario allows it (not the Pirate Islands), on the edge
  that leads towards the best corner two steps away.
- A seat takes the corner its heuristic scores highest; ties are broken uniformly at random from the
  stream (seed, board, PURPOSE_POLICY).

Heuristics (`name:key=value,...`; every score adds up the corner's hexes):
- pips:    pips of the producing hexes at the corner (gold hexes weighted `gold`).
- diverse: pips + `variety` per resource the seat does not produce yet + `scarce` x pips of each
           resource x how much rarer it is than average on the board (max(0, mean / resource pips - 1),
           the mean over the resources the board has).
- port:    pips + `generic` on a 3:1 harbour, or `special` + `match` x the seat's pips (this corner
           included) of the resource of a 2:1 harbour. Only harbours on the board at set-up count
           (none in Forgotten Tribe, where they are gifts, or New World, where players lay them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.arms import Arm, ArmSpec, Registry
from analyzer.errors import UserError
from analyzer.seafarers.board import BoardFlags, board_flags
from analyzer.seafarers.boards import visible_board
from analyzer.seafarers.scenarios import Scenario
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS
from kernels.rng import PURPOSE_POLICY, stream_init, uniform_int

__all__ = ["HEURISTICS", "BoardView", "Draft", "Heuristic", "board_view", "draft", "lane_distances",
           "parse_heuristic", "placement_order"]

GOLD_COLUMN = N_RESOURCES  # corner_pips[:, :5] per resource, [:, 5] gold
TIE = 1e-9


HEURISTICS = Registry("heuristic", [
    ArmSpec("pips", -1, "sum of the pips of the producing hexes at the corner", (("gold", 1.0),)),
    ArmSpec("diverse", -1, "pips plus a bonus for resources the seat lacks and for scarce ones",
            (("gold", 1.0), ("variety", 2.0), ("scarce", 1.0))),
    ArmSpec("port", -1, "pips plus the value of a harbour at the corner",
            (("gold", 1.0), ("generic", 2.0), ("special", 1.0), ("match", 0.5))),
])


@dataclass(frozen=True)
class Heuristic(Arm):
    """A set-up heuristic with its weights: how it scores the corners (module docstring)."""

    def static_scores(self, view: BoardView) -> np.ndarray:
        """float [n_corner]: the part of every corner's score that does not depend on the seat."""
        v = self.values
        pips = view.corner_pips
        score = pips[:, :N_RESOURCES].sum(axis=1) + v["gold"] * pips[:, GOLD_COLUMN]
        if self.name == "diverse":
            score += v["scarce"] * pips[:, :N_RESOURCES] @ view.scarcity
        elif self.name == "port":
            kind = view.corner_harbour
            score += np.where(kind == 0, v["generic"], 0.0) + np.where(kind > 0, v["special"], 0.0)
        return score

    def scores(self, view: BoardView, static: np.ndarray, seat_pips: np.ndarray) -> np.ndarray:
        """float [n_corner]: each corner's value to a seat that already produces seat_pips [6]."""
        if self.name == "diverse":
            lacking = (seat_pips[:N_RESOURCES] == 0).astype(float)
            return static + self.values["variety"] * (view.corner_pips[:, :N_RESOURCES] > 0) @ lacking
        if self.name == "port":
            kind = view.corner_harbour
            resource = np.maximum(kind - 1, 0)
            own = seat_pips[resource] + view.corner_pips[np.arange(len(kind)), resource]
            return static + np.where(kind > 0, self.values["match"] * own, 0.0)
        return static


def parse_heuristic(text: str) -> Heuristic:
    """`name` or `name:key=value,...` (see HEURISTICS); one-line UserError on anything else."""
    arm = HEURISTICS.parse(text)
    return Heuristic(arm.spec, arm.values)


@dataclass(frozen=True, eq=False)
class BoardView:
    """A dealt board as the players see it at set-up, with the per-corner figures the heuristics use."""

    scenario: Scenario
    terrain: np.ndarray  # int8 [n_hex], fog UNKNOWN
    number: np.ndarray  # int8 [n_hex], fog 0
    flags: BoardFlags
    corner_pips: np.ndarray  # float [n_corner, 6]: pips per resource (lumber..ore) and gold
    corner_harbour: np.ndarray  # int [n_corner]: harbour at the corner, index of HARBOUR_TYPES, -1 none
    scarcity: np.ndarray  # float [5]: max(0, mean resource pips / resource pips - 1), 0 where absent
    allowed: np.ndarray  # bool [n_corner]: a legal initial settlement site on an empty board


def board_view(scenario: Scenario, terrain, number, harbour) -> BoardView:
    """The set-up view of a dealt board (terrain and number as dealt; harbour: type per harbour site)."""
    topo = scenario.topology
    terrain, number = visible_board(scenario, np.asarray(terrain), np.asarray(number))
    flags = board_flags(topo, terrain)
    column = np.full(len(terrain), -1)
    producing = (terrain >= GOLD) & (terrain <= ORE)
    column[producing] = np.where(terrain[producing] == GOLD, GOLD_COLUMN,
                                 terrain[producing] - FIRST_RESOURCE_TERRAIN)
    hex_pips = np.where(producing, np.asarray(PIPS)[number], 0).astype(float)
    by_column = np.zeros((len(terrain) + 1, N_RESOURCES + 1))  # last row: the -1 padding of corner_hexes
    by_column[np.flatnonzero(producing), column[producing]] = hex_pips[producing]
    corner_pips = by_column[topo.corner_hexes].sum(axis=1)
    corner_harbour = np.full(topo.n_corner, -1)
    if scenario.harbours.placement == "shuffle":
        for site, kind in zip(scenario.harbours.sites, harbour):
            corner_harbour[topo.edge_corners[site.edge]] = kind
    board_pips = by_column[:-1, :N_RESOURCES].sum(axis=0)
    present = board_pips > 0
    mean = board_pips[present].mean() if present.any() else 0.0
    scarcity = np.where(present, np.maximum(0.0, mean / np.maximum(board_pips, 1e-12) - 1), 0.0)
    return BoardView(scenario, terrain, number, flags, corner_pips, corner_harbour, scarcity,
                     _allowed_sites(scenario, flags))


def _allowed_sites(scenario: Scenario, flags: BoardFlags) -> np.ndarray:
    topo = scenario.topology
    roles = {a.role for a in scenario.areas}
    start_role = "start" if "start" in roles else "start_or_bonus"
    start = np.zeros(topo.n_hex + 1, bool)  # last entry: the -1 padding
    for area in scenario.areas:
        if area.role == start_role:
            start[list(area.hexes)] = True
    touches_start = (start[topo.corner_hexes] & flags.hex_land[topo.corner_hexes]
                     & (topo.corner_hexes >= 0)).any(axis=1)
    allowed = flags.corner_land & topo.corner_in_play & touches_start
    m = scenario.markers
    allowed[list(m.wasteland_corners + m.strait_corners + m.no_setup_corners)] = False
    return allowed


@dataclass
class Draft:
    """Where every seat built. Seat 0 places first (and rolls first)."""

    players: int
    settlements: list[tuple[int, int]] = field(default_factory=list)  # (corner, seat), in placement order
    pieces: list[tuple[int, int, str]] = field(default_factory=list)  # per settlement: (edge, seat, "road" |
    # "ship"), edge -1 and kind "" where no edge was free
    preplaced: int = 0  # the first `preplaced` settlements and pieces come with the scenario

    def owner(self, n_corner: int) -> np.ndarray:
        out = np.full(n_corner, -1, np.int8)
        for corner, seat in self.settlements:
            out[corner] = seat
        return out

    def building(self, n_corner: int) -> np.ndarray:
        return (self.owner(n_corner) >= 0).astype(np.int8)

    def corners_of(self, seat: int) -> list[int]:
        return [c for c, s in self.settlements if s == seat]

    def start_resource_corners(self) -> list[int]:
        """Per seat, the settlement that gives the starting resources (-1: none): the last one the seat
        placed in the draft, i.e. the base game's second ("seguindo as regras da caixa básica") and Cloth
        for Catan's third ("uma terceira aldeia, da qual os jogadores conseguirão as suas matérias primas
        iniciais"); a pre-placed settlement (The Pirate Islands) never gives them."""
        out = [-1] * self.players
        for corner, seat in self.settlements[self.preplaced:]:
            out[seat] = corner
        return out


def placement_order(scenario: Scenario, players: int) -> list[int]:
    """Seats in the order they place their initial settlements."""
    order = list(range(players)) + list(range(players - 1, -1, -1))
    if scenario.setup.settlements == 3:  # the last to place starts the third round, then clockwise
        order += [(order[-1] + k) % players for k in range(players)]
    return order


def draft(view: BoardView, heuristic: Heuristic, seed: int, board: int) -> Draft:
    """Every seat places its initial settlements (and roads/ships) in snake order with `heuristic`."""
    scenario = view.scenario
    topo = scenario.topology
    players = scenario.players
    stream = np.zeros(2, np.uint64)
    stream_init(stream, seed, board, PURPOSE_POLICY)
    result = Draft(players)
    blocked = np.zeros(topo.n_corner, bool)  # occupied or next to a settlement
    used_edges = np.zeros(topo.n_edge, bool)
    seat_pips = np.zeros((players, N_RESOURCES + 1))

    def settle(corner: int, seat: int) -> None:
        result.settlements.append((corner, seat))
        blocked[corner] = True
        blocked[topo.corner_neighbours[corner][topo.corner_neighbours[corner] >= 0]] = True
        seat_pips[seat] += view.corner_pips[corner]

    for seat, fortress in enumerate(_preplaced(scenario)):
        settle(fortress.settlement, seat)
        result.pieces.append((fortress.ship, seat, "ship"))
        used_edges[fortress.ship] = True
    result.preplaced = len(result.settlements)
    static = heuristic.static_scores(view)
    for seat in placement_order(scenario, players):
        legal = view.allowed & ~blocked
        if not legal.any():
            raise UserError(f"{scenario.slug}: no legal corner left for seat {seat + 1}'s initial settlement")
        corner = _best(heuristic.scores(view, static, seat_pips[seat]), stream, legal)
        settle(corner, seat)
        scores = heuristic.scores(view, static, seat_pips[seat])
        edge, piece = _first_piece(view, scores, corner, blocked, used_edges, stream)
        if edge >= 0:
            used_edges[edge] = True
        result.pieces.append((edge, seat, piece))
    return result


def _preplaced(scenario: Scenario) -> list:
    """The Pirate Islands' fortress slots in seat order (3 players: slots_3_players)."""
    forts = sorted(scenario.markers.fortresses, key=lambda f: f.slot)
    if not forts:
        return []
    slots = scenario.markers.slots_3_players if scenario.players == 3 and scenario.markers.slots_3_players else \
        [f.slot for f in forts][:scenario.players]
    return [next(f for f in forts if f.slot == s) for s in slots]


def lane_distances(scenario: Scenario, f) -> tuple[dict[int, int], dict[int, int]]:
    """({corner: ships to the marked corner}, {corner: ships to the fortress}) over the seat's lanes (and its
    pre-placed ship): a route 'chegue ao seu objectivo pelo caminho mais curto' takes one edge nearer each time."""
    topo = scenario.topology
    adj: dict[int, list[int]] = {}
    for e in set(f.lanes) | {f.ship}:
        a, b = (int(x) for x in topo.edge_corners[e])
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)

    def bfs(goal: int) -> dict[int, int]:
        dist, queue = {goal: 0}, [goal]
        for c in queue:
            for d in adj.get(c, []):
                if d not in dist:
                    dist[d] = dist[c] + 1
                    queue.append(d)
        return dist

    to_colour, to_fort = bfs(f.colour_corner), bfs(f.fortress)
    if f.settlement not in to_colour or f.colour_corner not in to_fort:
        raise UserError(f"{scenario.slug}: slot {f.slot}: its lanes do not join its settlement, marked corner and "
                        "fortress")
    return to_colour, to_fort


def _best(values: np.ndarray, stream: np.ndarray, allowed: np.ndarray | None = None) -> int:
    """Index of the maximum among `allowed` (default: all; at least one); ties (within TIE) broken
    uniformly from the stream. NaN (inf - inf from huge weights) ranks lowest, so that the candidates
    are never empty and never include an index that is not allowed."""
    allowed = np.ones(len(values), bool) if allowed is None else allowed
    values = np.where(np.isnan(values), -np.inf, values)
    top = np.flatnonzero(allowed & (values >= values[allowed].max() - TIE))
    return int(top[uniform_int(stream, len(top))]) if len(top) > 1 else int(top[0])


def _first_piece(view: BoardView, scores: np.ndarray, corner: int, blocked, used_edges,
                 stream) -> tuple[int, str]:
    """(edge, "ship" | "road") next to a new settlement: a ship from a coastal settlement, else a road,
    on the edge whose far end leads to the best free corner two steps away (by the seat's `scores`);
    (-1, "") if none. A ship never goes on a coast facing the frame: "isto é válido apenas nas linhas
    costeiras a partir das quais se pode viajar até outras ilhas, e não nas linhas costeiras que dão para
    peças de mar que servem de fronteira" (seed 002, scenarios 2 and 3, "como é óbvio"), nor on a side of the
    pirate's start hex ("não podem ser colocados nem retirados barcos das vias marítimas que rodeiam o pirata");
    with no other edge for a ship the settlement takes a road, and always where the scenario's set-up takes no
    ships (`setup.ships = false`: the Pirate Islands' single route starts at the pre-placed settlement)."""
    topo, flags = view.scenario.topology, view.flags
    pirate = view.scenario.pirate.hex if view.scenario.pirate.rule == "hex" else -1
    scores = np.where(flags.corner_land & ~blocked & topo.corner_in_play, scores, 0.0)
    may_ship = flags.corner_coastal[corner] and view.scenario.setup.ships  # (the Pirate Islands: one route)
    for ship in (True, False) if may_ship else (False,):
        candidates, values = [], []
        for far, edge in zip(topo.corner_neighbours[corner], topo.corner_edges[corner]):
            if edge < 0 or used_edges[edge] or not topo.edge_in_play[edge]:
                continue
            if ship:
                sides = topo.edge_hexes[edge]
                faces_frame = flags.edge_coastal[edge] and topo.hex_frame[sides[sides >= 0]].any()
                if not (flags.edge_sea[edge] or flags.edge_coastal[edge] and not faces_frame) or (
                        pirate >= 0 and pirate in sides):
                    continue
            elif not (flags.edge_coastal[edge] or flags.edge_land[edge]):
                continue
            beyond = [c for c in topo.corner_neighbours[far] if c >= 0 and c != corner]
            candidates.append(edge)
            values.append(max((scores[c] for c in beyond), default=0.0))
        if candidates:
            return int(candidates[_best(np.array(values), stream)]), "ship" if ship else "road"
    return -1, ""
