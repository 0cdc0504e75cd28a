"""The Pirate Islands (scenario 7): the pirate fleet, its raids and a race to the fortresses.

    setup = race_setup(players=4)                        # the fixed map, the draft, routes, sites
    plan = parse_plan("attack-at:3")                     # or ships-first, cards-first:attack=4,outpost=1
    result = play_pirates(4, games=10_000, seed=1, plans=["ships-first", "cards-first"])
    result.summary, result.games                         # dict (summary.json), polars table

The race (kernels/catan/pirates.py, docs/seafarers/pirates.md): seats collect resources from their
start settlements, build the one ship route to their fortress, buy development cards (knights make
warships), suffer and win raids of the fleet and attack their fortress; after the conquest they build
cities and settlements towards 10 VP. Every plan plays the same games: game g's dice and
development deck come from streams keyed by (seed, g) only (common random numbers), so plans are
compared on paired games.

Exact laws: the fleet moves by the lower die, P(min = k) = (13 - 2k)/36, around a cycle of L hexes:
a circulant Markov chain, doubly stochastic, so its stationary law is uniform (1/L per hex); the
landings of n rolls from the start follow from the chain's powers (`fleet_landing_expectation`).
"""

from __future__ import annotations

import importlib.resources
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from analyzer import stats
from analyzer.arms import Arm, ArmSpec, Registry, arms_run_info, run_arms
from analyzer.errors import UserError
from analyzer.job import Job
from analyzer.params import check_seed
from analyzer.provenance import data_file, provenance
from analyzer.rules_file import known_keys, read_text, read_toml, whole, whole_list
from analyzer.runner import RunOptions
from analyzer.seafarers.board import board_flags
from analyzer.seafarers.dice import LOW_P
from analyzer.seafarers.fortress import FORTRESS_CHITS, siege_chain
from analyzer.seafarers.limits import IN_PARTS, MAX_GAME_PLANS, MAX_ROUNDS, check_range
from analyzer.seafarers.production import starting_hands
from analyzer.seafarers.scenarios import HARBOUR_TYPES, Fortress, Scenario, load_scenario
from analyzer.seafarers.setup_policies import Draft, _preplaced, board_view, draft, parse_heuristic
from kernels.catan import pirates as kpi
from kernels.catan.codes import FIRST_RESOURCE_TERRAIN, GOLD, N_RESOURCES, ORE, PIPS, RESOURCE_NAMES

__all__ = ["PLANS", "RAID_RULES", "Plan", "PiratesResult", "RaceRules", "RaceSetup", "fleet_landing_expectation",
           "fleet_stationary", "fleet_transition", "load_race_rules", "parse_plan", "race_setup", "raid_risk",
           "play_pirates"]

SLUG = "pirate-islands"
RAID_RULES = kpi.RAID_RULES
DEFAULT_MAX_ROUNDS = 200
BY_ROUNDS = (20, 30, 40)  # P(conquered by round t)
RISK_WARSHIPS = (0, 1, 2, 3)  # warships of the raid-risk table
ITEM_KEYS = {"ship": kpi.ITEM_SHIP, "dev_card": kpi.ITEM_CARD, "settlement": kpi.ITEM_SETTLEMENT,
             "road": kpi.ITEM_ROAD, "city": kpi.ITEM_CITY}
DEV_KEYS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")


# --------------------------------------------------------------------------- rule data

@dataclass(frozen=True)
class RaceRules:
    """analyzer/seafarers/data/rules/pirate_race.toml: costs, pieces, bank rate, development deck."""

    costs: np.ndarray  # int64 [N_ITEMS, 5] in kernels.catan.pirates ITEM_* order
    settlements: int
    cities: int
    ships: int
    bank_rate: int
    deck: dict[str, int]
    notes: dict[str, str]  # sources, quotes and notes by key

    def deck_cards(self, players: int) -> np.ndarray:
        """The development deck for a player count, as kernels.catan.pirates DEV_* codes: with 4 players the
        VP cards are knights, with 3 they leave the deck."""
        vp_as = [kpi.DEV_KNIGHT] * (self.deck["victory_point"] if players == 4 else 0)
        return np.array([kpi.DEV_KNIGHT] * self.deck["knight"] + vp_as + [kpi.DEV_ROADS] * self.deck["road_building"]
                        + [kpi.DEV_PLENTY] * self.deck["year_of_plenty"] + [kpi.DEV_MONOPOLY] * self.deck["monopoly"],
                        np.int64)


def rules_path() -> Path:
    return Path(str(importlib.resources.files("analyzer.seafarers") / "data" / "rules" / "pirate_race.toml"))


def read_race_rules(path: Path | None = None) -> str:
    """The text of a rule-data file (default: the package's pirate_race.toml); one UserError line if unreadable."""
    return read_text(path or rules_path(), "rules file")


# The ranges a rules file's numbers may take (analyzer.rules_file.whole): what the game's pieces allow. Each keeps
# the kernel's int64 counts far from overflow and a game short (a deck of millions of knights ran for hours).
MOST_OF_A_RESOURCE = 19  # the bank's 19 cards of each resource: a dearer item could never be paid
RULE_RANGES = {
    "supply.settlements": (1, 20, "the box's 20 settlements, 5 of each colour"),
    "supply.cities": (0, 16, "the box's 16 cities, 4 of each colour"),
    "supply.ships": (1, 60, "the box's 60 ships, 15 of each colour"),
    "bank.rate": (2, MOST_OF_A_RESOURCE, f"a hand holds at most the bank's {MOST_OF_A_RESOURCE} cards of a resource"),
}
# The keys each table may hold besides its prose (rules_file.PROSE_KEY); [start] is prose only.
RACE_TABLES = {"costs": tuple(ITEM_KEYS), "supply": ("settlements", "cities", "ships"), "bank": ("rate",),
               "development_deck": DEV_KEYS, "start": ()}
MOST_OF_A_CARD = 50  # per kind of development card (the base deck has 14 knights)
MOST_DEV_CARDS = 100  # in all (the base deck has 25; the 5-6 player extension adds 9)


def load_race_rules(path: Path | None = None, text: str | None = None) -> RaceRules:
    """Read and check the rule data (from `text` if given, else the file at path); a one-line UserError
    names the file, the key and the allowed range of any problem."""
    path = Path(path or rules_path())
    raw = read_toml(path, "rules file", text)
    name = path.name
    known_keys(name, raw, RACE_TABLES, "the top level")
    for key, allowed in RACE_TABLES.items():
        known_keys(name, raw.get(key), allowed, f"[{key}]", prose=True)

    def table(key):
        if not isinstance(raw.get(key), dict):
            raise UserError(f"{name}: missing table [{key}]")
        return raw[key]

    def count(key):
        where, field = key.split(".")
        least, most, why = RULE_RANGES[key]
        return whole(name, key, table(where).get(field), least, most, why)

    costs = np.zeros((kpi.N_ITEMS, N_RESOURCES), np.int64)
    for item_name, item in ITEM_KEYS.items():
        costs[item] = whole_list(name, f"costs.{item_name}", table("costs").get(item_name), N_RESOURCES, 0,
                                 MOST_OF_A_RESOURCE, f"card counts ({', '.join(RESOURCE_NAMES)})",
                                 f"the bank holds {MOST_OF_A_RESOURCE} of each resource")
    deck_t = table("development_deck")
    deck = {k: whole(name, f"development_deck.{k}", deck_t.get(k), 0, MOST_OF_A_CARD,
                  "of one kind; the base game's deck has 14 knights") for k in DEV_KEYS}
    total = sum(deck.values())
    if total > MOST_DEV_CARDS:
        raise UserError(f"{name}: the development_deck holds {total:,} cards; it must hold from 1 to "
                        f"{MOST_DEV_CARDS} (the base game's deck has 25)")
    if total - deck["victory_point"] < 1:
        raise UserError(f"{name}: the development_deck must hold at least 1 card besides the victory_point cards "
                        f"(with 3 players they leave the deck), got {total - deck['victory_point']}")
    notes = {f"{t}.{k}": v for t in RACE_TABLES for k, v in table(t).items() if isinstance(v, str)}
    return RaceRules(costs, count("supply.settlements"), count("supply.cities"), count("supply.ships"),
                     count("bank.rate"), deck, notes)


# --------------------------------------------------------------------------- plans

_PLAN_PARAMS = (("attack", 4.0), ("outpost", 0.0))
PLAN_BOUNDS = {"attack": (2, 9), "outpost": (0, 1)}  # 2: the fewest warships that can win a battle
PLANS = Registry("plan", [
    ArmSpec("ships-first", kpi.PLAN_SHIPS_FIRST, "saves for the route's ships, then for development cards until it "
                                                 "has `attack` warships and knights", _PLAN_PARAMS),
    ArmSpec("cards-first", kpi.PLAN_CARDS_FIRST, "saves for development cards until it has `attack` warships and "
                                                 "knights, then for ships", _PLAN_PARAMS),
    ArmSpec("attack-at", kpi.PLAN_ATTACK_AT, "buys whatever of ships and cards is affordable without trading (ships "
                                             "first), else trades for the nearest", _PLAN_PARAMS),
], PLAN_BOUNDS, positional=True)
DEFAULT_PLANS = tuple(PLANS)


@dataclass(frozen=True)
class Plan(Arm):
    """A purchase plan with its whole-number parameters (values are ints)."""

    def kernel_vector(self) -> np.ndarray:
        v = np.zeros(kpi.N_PLAN, np.int64)
        v[kpi.P_KIND] = self.spec.code
        v[kpi.P_ATTACK] = self.values["attack"]
        v[kpi.P_OUTPOST] = self.values["outpost"]
        return v


def parse_plan(text: str) -> Plan:
    """`name`, `name:key=value,...`, or `name:N` for the first parameter (attack-at:3)."""
    arm = PLANS.parse(text)
    return Plan(arm.spec, {k: int(v) for k, v in arm.values.items()})


def check_raid_rule(rule: str) -> int:
    if rule not in RAID_RULES:
        raise UserError(f"unknown raid rule {rule!r}; use one of {', '.join(RAID_RULES)}")
    return RAID_RULES.index(rule)


# --------------------------------------------------------------------------- the fleet's exact law

def fleet_transition(path_len: int) -> np.ndarray:
    """float [L, L]: one move of the fleet, T[i, (i + k) mod L] += P(lower die = k)."""
    t = np.zeros((path_len, path_len))
    for i in range(path_len):
        for k, p in LOW_P.items():
            t[i, (i + k) % path_len] += float(p)
    return t


def fleet_stationary(path_len: int) -> np.ndarray:
    """The stationary law of the fleet's chain (solved, not assumed: it comes out uniform)."""
    a = fleet_transition(path_len).T - np.eye(path_len)
    a[-1] = 1.0
    b = np.zeros(path_len)
    b[-1] = 1.0
    return np.linalg.solve(a, b)


def fleet_landing_expectation(path_len: int, n_rolls: int, start: int = 0) -> np.ndarray:
    """float [L]: expected stops on each path index over n_rolls moves from index `start`."""
    t = fleet_transition(path_len)
    dist = np.zeros(path_len)
    dist[start] = 1.0
    total = np.zeros(path_len)
    for _ in range(n_rolls):
        dist = dist @ t
        total += dist
    return total


# --------------------------------------------------------------------------- the fixed map

@dataclass(frozen=True, eq=False)
class RaceSetup:
    """Everything a race needs that does not change during a game, as the kernel's arrays."""

    scenario: Scenario
    rules: RaceRules
    heuristic: str
    draft_seed: int
    draft: Draft
    fortresses: tuple[Fortress, ...]  # by seat
    routes: tuple[tuple[int, ...], ...]  # per seat: edges from the start settlement to the fortress
    shortest_routes: tuple[int, ...]  # per seat: how many shortest routes there are
    colour_index: np.ndarray  # int64 [P]: ships needed to reach the colour corner
    site_corner: np.ndarray  # int64 [S]
    site_owner: np.ndarray  # int8 [S]
    site_kind: tuple[str, ...]  # start | colour | fortress | expansion
    site_roads: np.ndarray  # int64 [S]: roads from the seat's earlier buildings (expansion sites)
    site_yield: np.ndarray  # int64 [S, 13, 6]: cards per sum of a settlement there (5 resources, gold)
    site_pips: np.ndarray  # int64 [S]
    seat_site: np.ndarray  # int64 [P, N_SITE_COLS], -1 none
    path: tuple[int, ...]  # fleet path hexes
    path_sites: np.ndarray  # int64 [L, K]: sites at each path hex's corners, -1 padded
    start_hands: np.ndarray  # int32 [P, 5]
    deck: np.ndarray  # int64: DEV_* codes
    rules_text: str = ""  # the rule data's text (a job carries it to the process that plays)

    @property
    def players(self) -> int:
        return self.scenario.players

    @property
    def path_len(self) -> int:
        return len(self.path)

    @cached_property
    def route_edges(self) -> np.ndarray:
        out = np.full((self.players, max(len(r) for r in self.routes)), -1, np.int64)
        for p, r in enumerate(self.routes):
            out[p, :len(r)] = r
        return out

    def cfg(self, raid_rule: int, max_rounds: int, fleet_blocks: bool) -> np.ndarray:
        c = np.zeros(kpi.N_CFG, np.int64)
        c[kpi.C_PLAYERS] = self.players
        c[kpi.C_PATH] = self.path_len
        c[kpi.C_RAID_RULE] = raid_rule
        c[kpi.C_MAX_ROUNDS] = max_rounds
        c[kpi.C_FLEET_BLOCKS] = int(fleet_blocks)
        c[kpi.C_VP_TARGET] = self.scenario.victory.target
        c[kpi.C_BANK_RATE] = self.rules.bank_rate
        c[kpi.C_CHITS] = self.scenario.markers.fortress_strength or FORTRESS_CHITS
        c[kpi.C_MAX_SETTLEMENTS] = self.rules.settlements
        c[kpi.C_MAX_CITIES] = self.rules.cities
        c[kpi.C_MAX_SHIPS] = self.rules.ships
        c[kpi.C_DECK] = len(self.deck)
        return c

    def board(self, plan: Plan, raid_rule: int = kpi.RAID_EACH, max_rounds: int = DEFAULT_MAX_ROUNDS,
              fleet_blocks: bool = False) -> kpi.Board:
        """The kernel's static data for one plan and rule set."""
        i64 = lambda a: np.ascontiguousarray(a, np.int64)  # noqa: E731
        return kpi.Board(self.cfg(raid_rule, max_rounds, fleet_blocks), plan.kernel_vector(), i64(self.path),
                         self.path_sites, i64(self.scenario.topology.edge_hexes), i64(self.site_owner),
                         self.site_yield, self.site_pips, self.site_roads, self.seat_site,
                         i64([len(r) for r in self.routes]), self.route_edges, self.colour_index,
                         i64(self.start_hands), self.deck, self.rules.costs)

    @cached_property
    def _corner_names(self) -> dict[int, str]:
        return {cid: f"{q},{r},{'S' if ns else 'N'}" for (q, r, ns), cid in self.scenario.topology._corner_ids.items()}

    def corner_name(self, c: int) -> str:
        """'q,r,N' or 'q,r,S': the corner's canonical name (as in the scenario files)."""
        return self._corner_names[c]

    def drawing(self) -> dict:
        """reports.seafarers.balance.write_board_png's drawing: the printed map, start settlements, routes."""
        s = self.scenario
        harbours = [(x.land, x.sea, x.type) for x in s.harbours.sites]
        settlements = [(int(self.site_corner[i]), int(self.site_owner[i])) for i in range(len(self.site_kind))
                       if self.site_kind[i] == "start"]
        pieces = [(e, p, "ship") for p, r in enumerate(self.routes) for e in r]
        return {"terrain": s.terrain, "number": s.number_token, "harbours": harbours, "settlements": settlements,
                "pieces": pieces}


def race_setup(players: int, heuristic: str = "pips", draft_seed: int = 0, rules_file: Path | None = None,
               rules_text: str | None = None) -> RaceSetup:
    """The fixed map for 3 or 4 players, drafted once with `heuristic` (ties from (draft_seed, 0, PURPOSE_POLICY)).
    rules_file: rule data in pirate_race.toml's format (default: that file); rules_text: its text."""
    scenario = load_scenario(SLUG, players)
    rules_text = read_race_rules(rules_file) if rules_text is None else rules_text
    rules = load_race_rules(rules_file, rules_text)
    topo = scenario.topology
    harbour = [HARBOUR_TYPES.index(x.type) for x in scenario.harbours.sites]  # printed; shuffling is immaterial
    view = board_view(scenario, scenario.terrain, scenario.number_token, harbour)
    placed = draft(view, parse_heuristic(heuristic), draft_seed, 0)
    forts = tuple(_preplaced(scenario))
    routes, counts = zip(*(_route(scenario, f) for f in forts))
    if max(len(r) for r in routes) > rules.ships:
        raise UserError(f"a route needs more than the {rules.ships} ships of a colour")
    corners: list[tuple[int, int, str, int]] = []  # (corner, seat, kind, roads)
    seat_cols: list[list[int]] = []
    for p, f in enumerate(forts):
        starts = placed.corners_of(p)
        cols = [len(corners) + k for k in range(len(starts))]
        corners += [(c, p, "start", 0) for c in starts]
        cols += [len(corners), len(corners) + 1]
        corners += [(f.colour_corner, p, "colour", 0), (f.fortress, p, "fortress", 0)]
        seat_cols.append(cols)
    for p, sites in enumerate(_expansion_sites(scenario, view.allowed, placed, players)):
        for corner, roads in sites:
            seat_cols[p].append(len(corners))
            corners.append((corner, p, "expansion", roads))
    seat_site = np.full((players, kpi.N_SITE_COLS), -1, np.int64)
    for p, cols in enumerate(seat_cols):
        seat_site[p, :len(cols)] = cols
    site_corner = np.array([c for c, _, _, _ in corners], np.int64)
    site_yield = np.zeros((len(corners), 13, N_RESOURCES + 1), np.int64)
    for i, c in enumerate(site_corner):
        for h in topo.corner_hexes[c]:
            t, n = int(scenario.terrain[h]) if h >= 0 else 0, int(scenario.number_token[h]) if h >= 0 else 0
            if GOLD <= t <= ORE and PIPS[n] > 0:
                site_yield[i, n, kpi.GOLD_COL if t == GOLD else t - FIRST_RESOURCE_TERRAIN] += 1
    pips = np.array([PIPS[s] for s in range(13)], np.int64)
    site_pips = (site_yield.sum(axis=2) * pips).sum(axis=1)
    path = scenario.pirate.fleet_path
    at_hex = [[i for i, c in enumerate(site_corner) if c in topo.hex_corners[h]] for h in path]
    path_sites = np.full((len(path), max(1, max(len(a) for a in at_hex))), -1, np.int64)
    for i, a in enumerate(at_hex):
        path_sites[i, :len(a)] = a
    # the starting resources come from the last settlement each seat placed in the snake draft, as in
    # `balance` (gold: the poorest resource after the other cards)
    start_hands = starting_hands(scenario.terrain, scenario.number_token, topo.corner_hexes,
                                 [site_corner[seat_site[p, kpi.SITE_START + 2]] for p in range(players)])
    colour_index = np.array([_corner_position(topo, r, f.settlement, f.colour_corner) for r, f in zip(routes, forts)],
                            np.int64)
    return RaceSetup(scenario, rules, heuristic, draft_seed, placed, forts, tuple(routes), tuple(counts), colour_index,
                     site_corner, np.array([s for _, s, _, _ in corners], np.int8),
                     tuple(k for _, _, k, _ in corners), np.array([r for _, _, _, r in corners], np.int64),
                     site_yield, site_pips, seat_site, path, path_sites, start_hands, rules.deck_cards(players),
                     rules_text)


def _route(scenario: Scenario, f: Fortress) -> tuple[tuple[int, ...], int]:
    """The shortest route start settlement -> colour corner -> fortress over the seat's lanes, beginning with
    the pre-placed ship (ties: lowest edge ids first), and the number of shortest routes."""
    topo = scenario.topology
    lanes = set(f.lanes) | {f.ship}
    adj: dict[int, list[tuple[int, int]]] = {}
    for e in sorted(lanes):
        a, b = (int(x) for x in topo.edge_corners[e])
        adj.setdefault(a, []).append((b, e))
        adj.setdefault(b, []).append((a, e))

    def shortest(a: int, b: int) -> tuple[list[int], int]:
        dist, ways, prev = {a: 0}, {a: 1}, {a: None}
        queue = deque([a])
        while queue:
            c = queue.popleft()
            for d, e in adj.get(c, []):
                if d not in dist:
                    dist[d], ways[d], prev[d] = dist[c] + 1, ways[c], (c, e)
                    queue.append(d)
                elif dist[d] == dist[c] + 1:
                    ways[d] += ways[c]
        if b not in dist:
            raise UserError(f"{scenario.slug}: slot {f.slot}: no route over its lanes from corner {a} to {b}")
        path, c = [], b
        while prev[c] is not None:
            c, e = prev[c]
            path.append(e)
        return path[::-1], ways[b]

    first, n1 = shortest(f.settlement, f.colour_corner)
    second, n2 = shortest(f.colour_corner, f.fortress)
    if first[0] != f.ship:
        far = next(int(c) for c in topo.edge_corners[f.ship] if c != f.settlement)
        via_ship, _ = shortest(far, f.colour_corner)
        if 1 + len(via_ship) != len(first):
            raise UserError(f"{scenario.slug}: slot {f.slot}: the pre-placed ship is not on a shortest route")
        first = [f.ship] + via_ship
    return tuple(first + second), n1 * n2


def _corner_position(topo, route: tuple[int, ...], start: int, corner: int) -> int:
    """Ships from `start` along `route` until `corner` is reached."""
    c = start
    for i, e in enumerate(route):
        a, b = topo.edge_corners[e]
        c = int(b if a == c else a)
        if c == corner:
            return i + 1
    raise UserError(f"corner {corner} is not on the route")


def _expansion_sites(scenario: Scenario, allowed: np.ndarray, placed: Draft, players: int,
                     per_seat: int = kpi.N_SITE_COLS - kpi.SITE_EXPANSION) -> list[list[tuple[int, int]]]:
    """Settlement sites each seat expands to after its conquest, reserved at set-up: seats pick in turn
    the free legal corner nearest by road (ties: most pips, lowest id), roads counted from the seat's
    settlements and earlier sites over land and coastal edges, never through another seat's corner."""
    topo = scenario.topology
    flags = board_flags(topo, scenario.terrain)
    road_ok = (flags.edge_land | flags.edge_coastal) & topo.edge_in_play
    blocked = np.zeros(topo.n_corner, bool)
    own = [set(placed.corners_of(p)) for p in range(players)]
    taken = set().union(*own)
    for c in taken:
        blocked[c] = True
        blocked[topo.corner_neighbours[c][topo.corner_neighbours[c] >= 0]] = True
    pips = np.zeros(topo.n_corner)
    for c in range(topo.n_corner):
        for h in topo.corner_hexes[c]:
            if h >= 0 and GOLD <= scenario.terrain[h] <= ORE:
                pips[c] += PIPS[scenario.number_token[h]]
    out: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    for _ in range(per_seat):
        for p in range(players):
            others = taken - own[p]
            dist = {c: 0 for c in own[p]}
            queue = deque(own[p])
            while queue:
                c = queue.popleft()
                for d, e in zip(topo.corner_neighbours[c], topo.corner_edges[c]):
                    if e >= 0 and road_ok[e] and d not in dist and d not in others:
                        dist[int(d)] = dist[c] + 1
                        queue.append(int(d))
            free = [c for c in dist if allowed[c] and not blocked[c]]
            if not free:
                continue
            c = min(free, key=lambda x: (dist[x], -pips[x], x))
            out[p].append((c, dist[c]))
            own[p].add(c)
            taken.add(c)
            blocked[c] = True
            blocked[topo.corner_neighbours[c][topo.corner_neighbours[c] >= 0]] = True
    return out


# --------------------------------------------------------------------------- raid risk

def raid_risk(setup: RaceSetup, rule: str = "each") -> list[dict]:
    """Every coastal corner of the map: fleet-path hexes at it and the long-run cards a lone settlement
    there loses and gains per 100 rolls against w warships (stationary fleet: each path hex 1/L).

    A raid needs the fleet on one of the corner's path hexes and a lower die above w (a loss of 1 card;
    a city adds 1 per city) or below w (a gain of 1); the landing hex and that roll's lower die are
    independent under the stationary law. With rule 'sole', path hexes where another set-up settlement
    stands are left out (nobody is raided there while that settlement stands)."""
    check_raid_rule(rule)
    s = setup.scenario
    topo = s.topology
    flags = board_flags(topo, s.terrain)
    starts = {int(c) for c, k in zip(setup.site_corner, setup.site_kind) if k == "start"}
    path = setup.path
    pi = fleet_stationary(len(path))
    kind_at = {int(c): k for c, k in zip(setup.site_corner, setup.site_kind)}
    out = []
    for c in np.flatnonzero(flags.corner_coastal & topo.corner_in_play):
        c = int(c)
        hexes = [i for i, h in enumerate(path) if c in topo.hex_corners[h]]
        if rule == "sole":
            hexes = [i for i in hexes if not any(o != c and o in starts for o in topo.hex_corners[path[i]])]
        p_land = float(sum(pi[i] for i in hexes))
        loss = {str(w): 100 * p_land * float(sum(p for k, p in LOW_P.items() if k > w)) for w in RISK_WARSHIPS}
        gain = {str(w): 100 * p_land * float(sum(p for k, p in LOW_P.items() if k < w)) for w in RISK_WARSHIPS}
        out.append({"corner": c, "name": setup.corner_name(c), "kind": kind_at.get(c, ""),
                    "settle": bool(setup.scenario.topology.corner_in_play[c] and _settleable(setup, c)),
                    "path_indices": hexes, "loss_per_100": loss, "gain_per_100": gain})
    return out


def _settleable(setup: RaceSetup, c: int) -> bool:
    """Where a settlement can ever stand: the eastern island's legal corners, a colour corner, a fortress."""
    s = setup.scenario
    start_hexes = {h for a in s.areas if a.role == "start" for h in a.hexes}
    return any(h in start_hexes for h in s.topology.corner_hexes[c]) or c in {
        x for f in setup.fortresses for x in (f.colour_corner, f.fortress)}


# --------------------------------------------------------------------------- the experiment

@dataclass
class PiratesResult:
    setup: RaceSetup
    plans: list[Plan]
    columns: list[np.ndarray]  # per plan: int32 [n_out, games]
    summary: dict
    games: pl.DataFrame = field(repr=False)


def play_plan(setup: RaceSetup, plan: Plan, seed: int, raid_rule: int, max_rounds: int, fleet_blocks: bool,
              start: int, out: np.ndarray, trace: np.ndarray | None = None) -> None:
    """Games start .. start + out.shape[1] - 1 of one plan into out (kernels.catan.pirates.race_range)."""
    kpi.race_range(setup.board(plan, raid_rule, max_rounds, fleet_blocks), seed, start, out,
                   np.zeros(0, np.int64) if trace is None else trace)


def check_inputs(players: int, games: int, seed: int, plans: list[str], raid_rule: str, max_rounds: int,
                 heuristic: str, draft_seed: int = 0, rules_file: Path | None = None) -> list[Plan]:
    """Every option checked before any work (one-line UserErrors); the parsed plans."""
    if players not in (3, 4):
        raise UserError(f"--players must be 3 or 4, got {players}")
    if isinstance(plans, str):  # one plan, not its letters
        plans = [plans]
    if not plans:
        raise UserError("give at least one --plan")
    parsed = [parse_plan(p) for p in plans]
    labels = [p.label for p in parsed]
    if len(set(labels)) != len(labels):
        raise UserError(f"the same plan is given twice: {', '.join(labels)}")
    n = len(parsed)  # every plan keeps its own columns and table rows of every game
    check_range("--games", games, 1, MAX_GAME_PLANS // n, f"with {n} plan(s): games x plans at most "
                f"{MAX_GAME_PLANS:,}, about 4 KB each in memory; {IN_PARTS}")
    check_seed(seed)
    check_seed(draft_seed, "--draft-seed")
    check_raid_rule(raid_rule)
    check_range("--max-rounds", max_rounds, 1, MAX_ROUNDS, "a race is decided in about 50 rounds")
    parse_heuristic(heuristic)
    load_race_rules(rules_file)
    return parsed


def pirates_job(setup: RaceSetup, plan: Plan, seed: int, raid_rule: str, max_rounds: int, fleet_blocks: bool) -> Job:
    """Game g of this job is race game g with one plan: int32 columns (kernels.catan.pirates.n_out)."""
    spec = {"game": "seafarers", "experiment": "pirates", "players": setup.players, "plan": plan.label,
            "seed": int(seed), "raid_rule": raid_rule, "max_rounds": int(max_rounds), "heuristic": setup.heuristic,
            "draft_seed": int(setup.draft_seed), "fleet_blocks": bool(fleet_blocks), "rules": setup.rules_text}
    return Job(pirates_play_range, spec, kpi.n_out(setup.path_len), "int32")


def setup_for_spec(spec: dict) -> RaceSetup:
    return race_setup(spec["players"], spec["heuristic"], spec["draft_seed"], rules_text=spec["rules"])


def pirates_play_range(spec: dict):
    """Job builder (runs on the process that plays): the race set up once, then games of one plan."""
    setup = setup_for_spec(spec)
    board = setup.board(parse_plan(spec["plan"]), check_raid_rule(spec["raid_rule"]), spec["max_rounds"],
                        spec["fleet_blocks"])
    seed, no_trace = spec["seed"], np.zeros(0, np.int64)
    return lambda start, out: kpi.race_range(board, seed, start, out, no_trace)


def play_pirates(players: int, games: int, seed: int, plans: list[str], raid_rule: str = "each",
                max_rounds: int = DEFAULT_MAX_ROUNDS, heuristic: str = "pips", fleet_blocks: bool = False,
                draft_seed: int = 0, threads: int | None = None, progress: bool = False,
                command: str = "", rules_file: Path | None = None, **scale) -> PiratesResult:
    """Play `games` race games with every plan (the same games: common random numbers) and summarise.
    The set-up is drafted once (ties from draft_seed), so every game starts from the same position.
    `scale`: the runner's chunk_size, dask_local or scheduler, checkpoint (one sub-folder per plan)."""
    parsed = check_inputs(players, games, seed, plans, raid_rule, max_rounds, heuristic, draft_seed, rules_file)
    run_options = RunOptions.of(games, threads=threads, progress=progress, **scale)
    setup = race_setup(players, heuristic, draft_seed, rules_file)
    t0 = time.perf_counter()
    runs = run_arms([(plan.label, pirates_job(setup, plan, seed, raid_rule, max_rounds, fleet_blocks))
                     for plan in parsed], run_options, notes={"command": command})
    columns = [run.columns for run in runs]
    wall = sum(run.wall for run in runs)
    options = {"players": players, "games": games, "seed": seed, "raid_rule": raid_rule, "max_rounds": max_rounds,
               "heuristic": setup.heuristic, "draft_seed": draft_seed, "fleet_blocks": fleet_blocks,
               "rules_file": None if rules_file is None else str(rules_file)}
    played = sum(run.played for run in runs)  # (resumed games are not played)
    summary = summarize(setup, parsed, columns, options, wall, time.perf_counter() - t0, command, played)
    summary["run"] = arms_run_info(runs)
    return PiratesResult(setup, parsed, columns, summary, games_table(setup, parsed, columns))


def seat_column(cols: np.ndarray, seat: int, name: str) -> np.ndarray:
    return cols[seat * kpi.N_SEAT_OUT + kpi.SEAT_OUT_NAMES.index(name)].astype(np.int64)


def game_column(cols: np.ndarray, name: str) -> np.ndarray:
    return cols[kpi.GAME_BASE + kpi.GAME_OUT_NAMES.index(name)].astype(np.int64)


def games_table(setup: RaceSetup, plans: list[Plan], columns: list[np.ndarray]) -> pl.DataFrame:
    """One row per plan, game and seat: the seat's columns and its game's."""
    frames = []
    for plan, cols in zip(plans, columns):
        n = cols.shape[1]
        for p in range(setup.players):
            data = {"plan": [plan.label] * n, "game": np.arange(n), "seat": np.full(n, p + 1)}
            data.update({name: seat_column(cols, p, name) for name in kpi.SEAT_OUT_NAMES})
            data.update({name: game_column(cols, name) for name in kpi.GAME_OUT_NAMES})
            frames.append(pl.DataFrame(data))
    table = pl.concat(frames)
    return table.with_columns(pl.col("winner") + 1).sort("plan", "game", "seat", maintain_order=True)


def censored_rounds(cols: np.ndarray, seat: int, max_rounds: int) -> np.ndarray:
    """Rounds to conquer with games never conquered counted as max_rounds + 1 (for paired comparisons)."""
    r = seat_column(cols, seat, "conquer_round")
    return np.where(r > 0, r, max_rounds + 1)


def conquest_stats(rounds: np.ndarray, max_rounds: int, games: np.ndarray | None = None) -> dict:
    """Rounds to conquer of one seat: 0 = not within max_rounds. Of all seats pooled, `games` gives
    each value's game: the seats of one game are not independent, so the intervals are clustered."""
    n = len(rounds)
    won = rounds > 0

    def share_ci(hits):
        return list(stats.wilson_ci(int(hits.sum()), n) if games is None else stats.clustered_wilson_ci(hits, games))

    out = {"games": n, "conquered": int(won.sum()), "p_conquered": float(won.sum() / n),
           "p_conquered_ci95": share_ci(won)}
    if won.any():
        mean = (stats.mean_ci(rounds[won], support=stats.NON_NEGATIVE) if games is None
                else stats.clustered_mean_ci(rounds[won], games[won], support=stats.NON_NEGATIVE))
        out.update({"mean": mean, "percentiles": stats.percentiles(rounds[won])})
    else:
        out.update({"mean": None, "percentiles": None})
    out["p_by_round"] = {str(t): {"p": float(np.count_nonzero(won & (rounds <= t)) / n),
                                  "ci95": share_ci(won & (rounds <= t))}
                         for t in BY_ROUNDS if t <= max_rounds}
    return out


def conquest_curve(rounds: np.ndarray, max_rounds: int) -> list[float]:
    """P(conquered by round t) for t = 1 .. max_rounds."""
    counts = np.bincount(rounds[rounds > 0], minlength=max_rounds + 1)[1:max_rounds + 1]
    return (np.cumsum(counts) / len(rounds)).tolist()


def summarize(setup: RaceSetup, plans: list[Plan], columns: list[np.ndarray], options: dict, wall: float,
              seconds: float, command: str, played: int) -> dict:
    """The experiment's summary; `played`: the games played in `wall` seconds (not read from a checkpoint)."""
    players, max_rounds = setup.players, options["max_rounds"]
    topo = setup.scenario.topology
    turns, raids, curves, wins, warships_table, paired = {}, {}, {}, {}, {}, {}
    landings = np.zeros(setup.path_len, np.int64)
    by_plan_landings = {}
    def mean(values):
        return stats.mean_ci(values, support=stats.NON_NEGATIVE)

    for plan, cols in zip(plans, columns):
        key = plan.label
        rounds = [seat_column(cols, p, "conquer_round") for p in range(players)]
        turns[key] = {f"seat {p + 1}": conquest_stats(rounds[p], max_rounds) for p in range(players)}
        turns[key]["all seats"] = conquest_stats(np.concatenate(rounds), max_rounds, seat_games(cols, players))
        curves[key] = conquest_curve(np.concatenate(rounds), max_rounds)
        rolls = game_column(cols, "rolls")
        raids[key] = {}
        for p in range(players):
            raids[key][f"seat {p + 1}"] = {
                "raided": mean(seat_column(cols, p, "raided")),
                "suffered": mean(seat_column(cols, p, "raids_lost")),
                "won": mean(seat_column(cols, p, "raids_won")),
                "cards_lost_per_100_rolls": mean(100 * seat_column(cols, p, "raid_cards_lost") / rolls),
                "cards_gained_per_100_rolls": mean(100 * seat_column(cols, p, "raid_cards_gained") / rolls),
            }
        winner = game_column(cols, "winner")
        n = cols.shape[1]
        wins[key] = {"p_seat": {f"seat {p + 1}": float(np.count_nonzero(winner == p) / n) for p in range(players)},
                     "p_no_winner": float(np.count_nonzero(winner < 0) / n),
                     "win_round": stats.mean_ci(game_column(cols, "win_round")[winner >= 0], support=stats.NON_NEGATIVE)
                     if (winner >= 0).any() else None}
        warships_table[key] = warships_at_attack(cols, players)
        fl = cols[kpi.LANDINGS:kpi.LANDINGS + setup.path_len].sum(axis=1).astype(np.int64)
        by_plan_landings[key] = fl.tolist()
        landings += fl
    base = plans[0].label
    for plan, cols in zip(plans[1:], columns[1:]):
        pair = {}
        for p in range(players):
            pair[f"seat {p + 1}"] = stats.paired_difference(censored_rounds(cols, p, max_rounds),
                                                            censored_rounds(columns[0], p, max_rounds))
        pair["all seats"] = stats.paired_difference(
            np.mean([censored_rounds(cols, p, max_rounds) for p in range(players)], axis=0),
            np.mean([censored_rounds(columns[0], p, max_rounds) for p in range(players)], axis=0))
        paired[f"{plan.label} - {base}"] = pair
    total = int(landings.sum())
    stationary = fleet_stationary(setup.path_len)
    return {
        "scenario": {"slug": SLUG, "name": setup.scenario.name, "number": setup.scenario.number,
                     "players": players, "status": setup.scenario.status,
                     "vp_target": setup.scenario.victory.target},
        **{k: v for k, v in options.items() if k != "rules_file"},  # (the file: rules_data, as every game names it)
        "plans": [{"label": p.label, "description": p.spec.description} for p in plans],
        "raid_rule_text": RAID_RULE_TEXT[options["raid_rule"]],
        "seats": seat_info(setup),
        "fleet_path": [topo.coords[h].tolist() for h in setup.path],
        "fleet_position_frequency": landings.tolist(),
        "fleet_position_share": [c / total if total else None for c in landings],
        "fleet_stationary_share": stationary.tolist(),
        "fleet_position_frequency_by_plan": by_plan_landings,
        "turns_to_conquer": turns,
        "conquest_curves": curves,
        "wins": wins,
        "raids": raids,
        "raid_risk": raid_risk(setup, options["raid_rule"]),
        "warships_at_attack": warships_table,
        "siege_chain": {str(w): {m: siege_chain(w, m) for m in ("warships", "rebuilt")} for w in range(2, 8)},
        "paired_differences": paired,
        "paired_note": f"turns to conquer, plan minus {base}, on the same games; a game where the seat did not "
                       f"conquer within {max_rounds} rounds counts as {max_rounds + 1}",
        **provenance("seafarers", options["seed"], command, assumptions(setup, options)),
        "rules_data": data_file(options.get("rules_file") and Path(options["rules_file"]).name, setup.rules_text),
        "wall_seconds": wall,
        "seconds": seconds,
        "games_per_second": played / wall if wall > 0 and played else None,
    }


def seat_games(cols: np.ndarray, players: int) -> np.ndarray:
    """The game of each value of the seats' columns concatenated seat after seat."""
    return np.tile(np.arange(cols.shape[1]), players)


def warships_at_attack(cols: np.ndarray, players: int) -> list[dict]:
    """Seats grouped by their warships at the first attack: rounds to conquer, and from the first attack
    (intervals clustered by game: seats of one game are not independent)."""
    def pooled(name):
        return np.concatenate([seat_column(cols, p, name) for p in range(players)])

    w, first, conq, battles = (pooled(name) for name in ("warships_at_attack", "first_attack_round",
                                                          "conquer_round", "battles"))
    game = seat_games(cols, players)

    def mean(values, where):
        return stats.clustered_mean_ci(values[where], game[where], support=stats.NON_NEGATIVE)

    rows = []
    for k in np.unique(w[first > 0]):
        sel = (first > 0) & (w == k)
        won = sel & (conq > 0)
        rows.append({"warships": int(k), "seats": int(sel.sum()), "p_conquered": float(won.sum() / sel.sum()),
                     "rounds_to_conquer": mean(conq, won) if won.any() else None,
                     "rounds_after_first_attack": mean(conq - first, won) if won.any() else None,
                     "battles": mean(battles, sel)})
    return rows


def seat_info(setup: RaceSetup) -> list[dict]:
    out = []
    for p in range(setup.players):
        sites = [int(i) for i in setup.seat_site[p] if i >= 0]
        out.append({"seat": p + 1, "slot": setup.fortresses[p].slot,
                    "route_ships": len(setup.routes[p]), "shortest_routes": setup.shortest_routes[p],
                    "start_hand": setup.start_hands[p].tolist(),
                    "sites": [{"kind": setup.site_kind[i], "corner": setup.corner_name(int(setup.site_corner[i])),
                               "pips": int(setup.site_pips[i]), "roads": int(setup.site_roads[i])} for i in sites],
                    "start_pips": int(sum(setup.site_pips[i] for i in sites if setup.site_kind[i] == "start"))})
    return out


RAID_RULE_TEXT = {
    "each": "each: every player with a settlement or city at the fleet's hex is raided, once however many of "
            "their buildings stand there (default; the rulebook speaks of 'essa aldeia ou cidade', says neither what "
            "happens when several players are there nor whether two buildings of one player are two raids)",
    "sole": "sole: a raid only when exactly one player has a building at the fleet's hex (JSettlers2's reading)",
}


def assumptions(setup: RaceSetup, options: dict) -> list[str]:
    r = setup.rules
    c = {name: dict(zip(RESOURCE_NAMES, r.costs[item].tolist())) for name, item in ITEM_KEYS.items()}
    cost = lambda name: " + ".join(f"{n} {k}" if n > 1 else k for k, n in c[name].items() if n)  # noqa: E731
    deck = setup.deck
    knights = int(np.count_nonzero(deck == kpi.DEV_KNIGHT))
    return [
        f"Map: the printed 'Pirate Islands' layout ({setup.scenario.status}; fleet path, fortresses and lanes from "
        "JSettlers2, see docs/seafarers/scenarios.md). With 3 players slot 3 (white) is dropped.",
        f"Raid rule: {RAID_RULE_TEXT[options['raid_rule']]}. A raid costs 1 card + 1 per city the player has "
        "('e 1 adicional por cada cidade que tenha'), drawn at random, as many as the player holds.",
        f"Rule data: {options.get('rules_file') or 'analyzer/seafarers/data/rules/pirate_race.toml (the default)'}; "
        "another file in its format is given with --rules.",
        f"Costs ({r.notes.get('costs.source', '')}): ship = {cost('ship')}, development card = {cost('dev_card')}, "
        f"settlement = {cost('settlement')}, road = {cost('road')}, city = {cost('city')}.",
        f"Development deck: {len(deck)} cards, {knights} of them knights ({knights / len(deck):.0%}): "
        f"{r.deck['knight']} knights, {r.deck['victory_point']} VP cards "
        f"({'counted as knights' if setup.players == 4 else 'removed with 3 players'}), "
        f"{r.deck['road_building']} road building, {r.deck['year_of_plenty']} year of plenty, "
        f"{r.deck['monopoly']} monopoly. {r.notes.get('development_deck.source', '')} "
        f"{r.notes.get('development_deck.vp_count_note', '')}",
        f"Trades: only with the bank at {r.bank_rate}:1, and only to pay for the purchase the plan is making; "
        "harbours are ignored (shuffled in this scenario) and players never trade with each other.",
        f"Set-up: the pre-placed settlement and ship, then 2 settlements per seat in snake order with the "
        f"'{setup.heuristic}' heuristic (analyzer/seafarers/setup_policies.py), drafted once for the whole "
        f"experiment (pip ties broken by --draft-seed {setup.draft_seed}: results are conditional on this set-up, "
        "listed under 'Set-up'); the draft's first roads/ships are not modelled. Each seat starts with one card per "
        "producing hex at its second settlement.",
        "Route: one ship route per seat, the shortest from its coastal start settlement through the corner of its "
        f"colour to its fortress ({', '.join(str(len(x)) for x in setup.routes)} ships, the pre-placed one "
        "included); ships are built from the start forward.",
        "Turn: roll; the fleet moves by the lower die and raids (it leaves when every fortress has fallen); a 7: "
        "discards of half above 7 cards (from the most plentiful resource) and the roller steals a random card from "
        "the opponent with most cards (kernels/production.seven without robber); else production (gold: the "
        "resource most needed). Then at most one development card bought on an earlier turn, purchases by the "
        "plan, and an attack when the route is complete, which ends the turn.",
        "Development cards: a knight turns the foremost normal ship into a warship; road building gives 2 route "
        "ships (after the conquest 2 roads); year of plenty 2 cards and monopoly every opponent's cards of the "
        "resource most needed (the largest shortfall for the next purchase, else the scarcest in hand).",
        "Attack: when the route is complete and the seat has the plan's `attack` warships, or fewer but at least 2 "
        "when no knight can come any more (the deck is empty and none is held). A defeat or tie sinks the foremost "
        "ships (normal ships ahead of the warships go first); they are rebuilt by the plan.",
        "After the conquest every plan buys cities (on the settlement with most pips) and settlements (the colour "
        "corner, then expansion sites on the eastern island reserved at set-up, nearest by road: roads + "
        "settlement), whichever is affordable without trading, else the nearest; pieces limited to "
        f"{r.settlements} settlements (one of them tops the seat's fortress until its conquest, then is its "
        "settlement there: 'Cada fortaleza pirata é composta por 3 fichas Catan ... e de uma aldeia (da cor "
        f"indicada)') and {r.cities} cities. No longest route or largest army (seed).",
        f"The race goes on until every seat has its fortress and {setup.scenario.victory.target} VP, or "
        f"{options['max_rounds']} rounds; the winner is the first to get there. Rounds are counted per seat (round t "
        "= the seat's t-th turn); seat 1 rolls first.",
        "Fleet and ships: " + ("the fleet blocks ship building on the 6 sides of its hex (option --fleet-blocks)."
                               if options["fleet_blocks"] else
                               "the fleet does not block ship building (the scenario lists its effects: moves and "
                               "raids; the 6-side block of the pirate is applied with --fleet-blocks)."),
        "Random numbers: game g's dice (seed, g, DICE) and development deck (seed, g, DECK) are the same for every "
        "plan (common random numbers); raid and 7 card draws (seed, g, STEAL) and seat p's fortress die "
        "(seed, 4g + p, SIEGE) follow each plan's own course.",
    ]
