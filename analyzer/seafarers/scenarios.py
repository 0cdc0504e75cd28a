"""Catan: Seafarers scenarios: load and validate the data files into frozen dataclasses.

One TOML file per scenario in analyzer/seafarers/data/ (format: docs/seafarers/scenarios.md), plus
components.toml, the seed's component tables the files are tested against. A scenario file holds one or more
layouts (one per player count, or one for 3 and 4 players); `load_scenario(slug, players)` returns the scenario
bound to the layout for that player count. Every problem in a file raises a one-line UserError that names the
file and the problem.

Map cells are written as rows of tokens (`r q | tok tok ...`: row r, q of the first token, q + 1 for each next):
`~~` frame (sea border, no tile), `??Z` fog slot of zone Z, or a two-letter terrain (se sea, de desert, go gold,
lu lumber, br brick, wo wool, gr grain, or ore), an optional number token and the zone letter, e.g. `br12B`.
The terrain and number shown on a dealt cell are those of the printed (recommended) layout.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.rules_file import nearest
from analyzer.seafarers.board import UNKNOWN, Topology, build_topology
from kernels.catan.codes import DESERT, GOLD, RESOURCE_NAMES, SEA, TERRAIN_NAMES

__all__ = [
    "DEALS",
    "ROLES",
    "STATUSES",
    "Area",
    "Fortress",
    "Harbour",
    "Harbours",
    "Markers",
    "NumberBan",
    "PieceStart",
    "Scenario",
    "SetupRules",
    "Victory",
    "Zone",
    "banned_numbers",
    "data_dir",
    "list_scenarios",
    "load_component_tables",
    "load_scenario",
    "parse_scenario_file",
    "scenario_slugs",
    "setup_violations",
]

TOKEN_TERRAINS = {"se": SEA, "de": DESERT, "go": GOLD, "lu": 3, "br": 4, "wo": 5, "gr": 6, "or": 7}
assert [TERRAIN_NAMES[t] for t in TOKEN_TERRAINS.values()] == [
    "sea", "desert", "gold", "lumber", "brick", "wool", "grain", "ore"]
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
RED = (6, 8)
DEALS = ("fixed", "land", "land_and_sea", "fog")
ROLES = ("start", "bonus", "start_or_bonus", "plain", "no_settle")
STATUSES = ("published", "adjusted", "reconstructed")
HARBOUR_TYPES = ("3:1",) + RESOURCE_NAMES
PLACEMENTS = ("shuffle", "gifts", "players")
SHUFFLED = ("shuffle", "gifts")  # placements whose types are laid at random on the sites at set-up
BONUS_SCOPES = ("first_settlement_per_territory", "each_settlement")
KINDS = ("frame", "sea", "land", "slot", "fog")  # slot: dealt from a land_and_sea zone, may become land or sea

_TOKEN = re.compile(r"(se|de|go|lu|br|wo|gr|or|\?\?)(\d{1,2})?([A-Z])")
_ROW = re.compile(r"\s*(-?\d+)\s+(-?\d+)\s*")
_CORNER = re.compile(r"(-?\d+),(-?\d+),(N|NE|SE|S|SW|NW)")
_EDGE = re.compile(r"(-?\d+),(-?\d+),(NE|E|SE|SW|W|NW)")


def data_dir() -> Path:
    return Path(str(importlib.resources.files("analyzer.seafarers") / "data"))


@dataclass(frozen=True)
class Zone:
    """Cells dealt (or kept) together, counted in one of the seed's component tables."""

    name: str  # the zone letter
    title: str
    table: str  # key of the seed component table this zone is counted in
    deal: str  # fixed | land (land cells dealt, sea fixed) | land_and_sea (every cell dealt) | fog (dealt in play)
    hexes: tuple[int, ...]  # cell indices
    terrains: dict[int, int]  # terrain code -> count: the pool of a dealt zone, the cells of a fixed one
    numbers: dict[int, int]  # number token -> count, likewise


@dataclass(frozen=True)
class Harbour:
    type: str  # "3:1" or a resource name (2:1)
    land: int  # hex index of the land side
    sea: int  # hex index of the sea side
    edge: int  # edge id; the two docks are edge_corners[edge]


@dataclass(frozen=True)
class Harbours:
    placement: str  # shuffle: types shuffled over the sites | gifts: FTRI islet gifts | players: placed by players
    sites: tuple[Harbour, ...]  # with the printed types
    pool: dict[str, int]  # type -> count


@dataclass(frozen=True)
class PieceStart:
    """Where the robber or the pirate starts."""

    rule: str  # desert | number | hex | none | off-board
    number: int = 0  # rule "number": the land hex with this token ...
    terrain: int = -1  # ... preferably of this terrain (-1: any)
    hex: int = -1  # the start hex in the printed layout (-1: none)
    forbidden_zones: tuple[str, ...] = ()  # zones the piece may never enter
    return_to_start: bool = True  # False: it may never come back to its start hex
    fleet_path: tuple[int, ...] = ()  # pirate fleet: cyclic sea-hex path, index 0 = start
    quote: str = ""  # the seed's words (fragments joined by " ... ")
    note: str = ""  # where the data comes from when the seed does not give it, or why it differs
    fleet_quote: str = ""
    fleet_note: str = ""


@dataclass(frozen=True)
class Area:
    """Land that shares a role for initial placement and special VPs."""

    name: str
    role: str  # start | bonus | start_or_bonus (players choose home islands) | plain | no_settle
    hexes: tuple[int, ...]  # land, slot and fog cells of the area
    per_island: bool  # each island of the area is its own territory (else the area is one territory)


@dataclass(frozen=True)
class NumberBan:
    """A variable set-up constraint: these numbers may not be dealt to the selected hexes."""

    numbers: frozenset[int]
    hexes: tuple[int, ...] = ()  # explicit hexes, or ...
    terrains: tuple[int, ...] = ()  # ... hexes of these terrains, or ...
    adjacent_to: int = -1  # ... hexes next to this terrain
    quote: str = ""
    note: str = ""


@dataclass(frozen=True)
class SetupRules:
    """The variable set-up ("montagem variável") constraints, each with the seed passage it comes from."""

    red_adjacent_allowed: bool
    gold_not_on: tuple[int, ...]
    bans: tuple[NumberBan, ...]
    quote: str = ""
    note: str = ""
    start_quote: str = ""  # where initial settlements go
    red_adjacent_quote: str = ""
    red_adjacent_note: str = ""
    gold_not_on_quote: str = ""
    gold_not_on_note: str = ""
    settlements: int = 2  # initial settlements per seat (Cloth for Catan: a third round)
    ships: bool = True  # a drafted coastal settlement may take a ship instead of a road
    ships_quote: str = ""


@dataclass(frozen=True)
class Victory:
    target: int
    quote: str = ""
    note: str = ""
    island_bonus: int = 0  # special VP per settlement on a bonus territory
    island_bonus_scope: str = ""  # first_settlement_per_territory | each_settlement
    island_bonus_quote: str = ""
    island_bonus_note: str = ""
    conditions: tuple[str, ...] = ()
    # Cloth for Catan: cloth per VP (0: no cloth rules) and the end once only this many villages hold cloth
    cloth_per_vp: int = 0
    cloth_per_vp_quote: str = ""
    end_villages: int = 0


@dataclass(frozen=True)
class Fortress:
    slot: int
    settlement: int  # corner of the pre-placed settlement
    ship: int  # edge of the pre-placed ship
    colour_corner: int
    fortress: int  # corner
    lanes: tuple[int, ...]  # sea edges the player's route may use


@dataclass(frozen=True)
class Markers:
    """Scenario pieces on corners and edges (ids of the scenario's Topology)."""

    dev_card_edges: tuple[int, ...] = ()  # forgotten tribe gifts
    vp_chit_edges: tuple[int, ...] = ()
    villages: tuple[tuple[int, int], ...] = ()  # cloth: (corner, number)
    cloth_per_village: int = 0
    cloth_supply: int = 0
    fortresses: tuple[Fortress, ...] = ()  # pirate islands, by player slot
    fortress_strength: int = 0
    slots_3_players: tuple[int, ...] = ()
    wasteland_corners: tuple[int, ...] = ()  # wonders: brown squares
    strait_corners: tuple[int, ...] = ()  # lilac squares
    no_setup_corners: tuple[int, ...] = ()  # yellow "!"
    wonders: tuple[dict, ...] = ()  # id, name_pt, requirement


@dataclass(frozen=True, eq=False)
class Scenario:
    """One scenario for one player count. Cell arrays are indexed like `topology` hexes."""

    slug: str
    number: int
    name: str
    name_pt: str
    source: str
    players: int
    player_counts: tuple[int, ...]  # every count this layout serves
    status: str  # published | adjusted (published, corrected to the seed) | reconstructed
    sources: tuple[str, ...]
    notes: tuple[str, ...]
    catan_chits: int
    victory: Victory
    setup: SetupRules
    rules: tuple[str, ...]
    kind: tuple[str, ...]  # per cell, one of KINDS
    terrain: np.ndarray  # int8 [n_hex]: printed terrain; UNKNOWN for fog
    number_token: np.ndarray  # int8 [n_hex]: printed number, 0 none
    cell_zone: tuple[str, ...]  # zone letter per cell, "" for frame
    dealt: np.ndarray  # bool [n_hex]: the cell's terrain is dealt from its zone's pool
    topology: Topology
    zones: dict[str, Zone]
    harbours: Harbours
    robber: PieceStart
    pirate: PieceStart
    areas: tuple[Area, ...]
    markers: Markers
    path: Path = field(repr=False)
    ships: bool = True  # False: plain Catan, no ship in any seat's supply (rules.ships; the base map)
    ships_note: str = ""
    longest_route: bool = True  # False: no "Maior estrada comercial" card (Cloth for Catan)
    longest_route_quote: str = ""

    @property
    def reconstructed(self) -> bool:
        return self.status != "published"

    @property
    def coords(self) -> np.ndarray:
        return self.topology.coords

    def table_counts(self) -> dict[str, dict[str, Counter]]:
        """Per seed component table: hex tiles by terrain name and number tokens, as this layout uses them."""
        out: dict[str, dict[str, Counter]] = {}
        for z in self.zones.values():
            t = out.setdefault(z.table, {"hexes": Counter(), "numbers": Counter()})
            for terrain, count in z.terrains.items():
                t["hexes"][TERRAIN_NAMES[terrain]] += count
            t["numbers"].update(z.numbers)
            if z.deal == "land":
                t["hexes"]["sea"] += sum(self.kind[h] == "sea" for h in z.hexes)
        for corner, number in self.markers.villages:
            zone = next(self.cell_zone[h] for h in self.topology.corner_hexes[corner]
                        if h >= 0 and self.kind[h] == "land")
            out[self.zones[zone].table]["numbers"][number] += 1
        return out

    def summary(self) -> dict[str, Any]:
        inner = [k for k in self.kind if k != "frame"]
        return {"slug": self.slug, "number": self.number, "name": self.name, "name_pt": self.name_pt,
                "players": self.players, "hexes": len(inner),
                "land": int(sum(n for c in self.table_counts().values() for t, n in c["hexes"].items() if t != "sea")),
                "fog": inner.count("fog"), "frame": len(self.kind) - len(inner), "vp_target": self.victory.target,
                "status": self.status, "reconstructed": self.reconstructed}


# ------------------------------------------------------------------------------------------------- loading
def scenario_slugs() -> tuple[str, ...]:
    """Slugs of the packaged scenarios, in scenario order."""
    return tuple(dict.fromkeys(s.slug for s in list_scenarios()))


def _scenario_files() -> list[Path]:
    return sorted(p for p in data_dir().glob("*.toml") if p.name != "components.toml")


@cache
def _packaged(path: Path) -> tuple[Scenario, ...]:
    return parse_scenario_file(path)


def list_scenarios() -> list[Scenario]:
    """Every packaged scenario for every player count it supports, by scenario number then players."""
    out = [s for p in _scenario_files() for s in _packaged(p)]
    return sorted(out, key=lambda s: (s.number, s.players))


def load_scenario(slug: str, players: int) -> Scenario:
    """The scenario `slug` set up for `players` players."""
    found = [s for s in list_scenarios() if s.slug == slug]
    if not found:
        raise UserError(f"unknown scenario '{slug}' (choose from {', '.join(scenario_slugs())})")
    for s in found:
        if s.players == players:
            return s
    counts = ", ".join(str(s.players) for s in found)
    raise UserError(f"scenario '{slug}' is for {counts} players, not {players}")


def load_component_tables(path: Path | None = None) -> dict[str, dict[int, dict]]:
    """The seed's component tables: slug -> player count -> {source, harbours, catan_chits, tables, ...}."""
    path = path or data_dir() / "components.toml"
    raw = _read_toml(path)
    out: dict[str, dict[int, dict]] = {}
    for slug, by_count in raw.items():
        for key, entry in by_count.items():
            for n in key.split("-"):
                out.setdefault(slug, {})[int(n)] = entry
    return out


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: invalid TOML: {exc}") from None


def parse_scenario_file(path: Path | str) -> tuple[Scenario, ...]:
    """Load and validate one scenario file: one Scenario per supported player count."""
    path = Path(path)
    raw = _read_toml(path)
    try:
        return _Parser(raw, path).scenarios()
    except UserError as exc:
        raise UserError(f"{path.name}: {exc}") from None


class _Parser:
    """Reads one scenario file; every error message is prefixed by the file name by the caller."""

    TOP = {"slug", "number", "name", "name_pt", "source", "victory", "setup", "rules", "layouts"}
    LAYOUT = {"players", "status", "sources", "notes", "catan_chits", "map", "zones", "harbours", "robber",
              "pirate", "areas", "markers"}

    def __init__(self, raw: dict, path: Path):
        self.raw, self.path = raw, path

    def scenarios(self) -> tuple[Scenario, ...]:
        raw = self.raw
        _keys(raw, self.TOP, {"slug", "number", "name", "victory", "setup", "layouts"}, "")
        slug = _get(raw, "slug", str, "")
        number = _get(raw, "number", int, "")
        victory = self.victory(_get(raw, "victory", dict, ""))
        setup_raw = _get(raw, "setup", dict, "")
        rules_raw = raw.get("rules", {})
        _keys(rules_raw, {"notes", "ships", "ships_note", "longest_route", "longest_route_quote"}, set(), "rules.")
        rules = tuple(_str_list(rules_raw.get("notes", []), "rules.notes"))
        ships = rules_raw.get("ships", True)
        longest_route = rules_raw.get("longest_route", True)
        for key, value in (("ships", ships), ("longest_route", longest_route)):
            if not isinstance(value, bool):
                raise UserError(f"rules.{key} must be true or false, got {value!r}")
        layouts = _get(raw, "layouts", list, "")
        if not layouts:
            raise UserError("no [[layouts]]")
        out: list[Scenario] = []
        seen: set[int] = set()
        for i, lay in enumerate(layouts):
            where = f"layouts[{i}]"
            if not isinstance(lay, dict):
                raise UserError(f"{where} must be a table")
            _keys(lay, self.LAYOUT, {"players", "status", "map", "zones", "harbours", "robber", "pirate", "areas"},
                  where + ".")
            counts = tuple(_get(lay, "players", list, where + "."))
            if not counts or any(not isinstance(c, int) or c not in (3, 4) for c in counts):
                raise UserError(f"{where}.players must list 3 and/or 4, got {counts}")
            for c in counts:
                if c in seen:
                    raise UserError(f"two layouts for {c} players")
                seen.add(c)
            body = _LayoutParser(lay, where).parse(setup_raw)
            if not ships and (body["setup"].ships or body["pirate"].rule != "none"):
                raise UserError("rules.ships = false (no ships in play) needs setup.ships = false and no pirate "
                                f"({where}.pirate.start = \"none\")")
            for c in counts:
                out.append(Scenario(slug=slug, number=number, name=_get(raw, "name", str, ""),
                                    name_pt=raw.get("name_pt", ""), source=raw.get("source", ""), players=c,
                                    player_counts=counts, victory=victory, rules=rules, path=self.path,
                                    ships=ships, ships_note=rules_raw.get("ships_note", ""),
                                    longest_route=longest_route,
                                    longest_route_quote=rules_raw.get("longest_route_quote", ""), **body))
        return tuple(out)

    @staticmethod
    def victory(v: dict) -> Victory:
        _keys(v, {"target", "quote", "note", "island_bonus", "island_bonus_scope", "island_bonus_quote",
                  "island_bonus_note", "conditions", "cloth_per_vp", "cloth_per_vp_quote", "end_villages"},
              {"target"}, "victory.")
        target = _get(v, "target", int, "victory.")
        if target < 3:
            raise UserError(f"victory.target must be a VP goal of at least 3, got {target}")
        bonus = v.get("island_bonus", 0)
        scope = v.get("island_bonus_scope", "")
        if bonus and scope not in BONUS_SCOPES:
            raise UserError(f"victory.island_bonus_scope must be one of {', '.join(BONUS_SCOPES)}, got '{scope}'")
        cloth = {}
        for key, lo, hi in (("cloth_per_vp", 1, 10), ("end_villages", 0, 8)):
            if key in v:
                value = v[key]
                if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                    raise UserError(f"victory.{key} must be a whole number from {lo} to {hi}, got {value!r}")
                cloth[key] = value
        return Victory(target, v.get("quote", ""), v.get("note", ""), bonus, scope, v.get("island_bonus_quote", ""),
                       v.get("island_bonus_note", ""), tuple(_str_list(v.get("conditions", []), "victory.conditions")),
                       cloth_per_vp_quote=v.get("cloth_per_vp_quote", ""), **cloth)


class _LayoutParser:
    def __init__(self, lay: dict, where: str):
        self.lay, self.where = lay, where

    def err(self, msg: str) -> UserError:
        return UserError(f"{self.where}: {msg}")

    def parse(self, setup_raw: dict) -> dict[str, Any]:
        lay = self.lay
        status = _get(lay, "status", str, self.where + ".")
        if status not in STATUSES:
            raise self.err(f"status must be one of {', '.join(STATUSES)}, got '{status}'")
        self.read_map(_get(lay, "map", str, self.where + "."))
        self.topo = build_topology(self.coords, [k == "frame" for k in self.kind])
        self.check_frame_closed()
        zones = self.read_zones(_get(lay, "zones", dict, self.where + "."))
        self.zones = zones
        return dict(status=status, sources=tuple(_str_list(lay.get("sources", []), "sources")),
                    notes=tuple(_str_list(lay.get("notes", []), "notes")),
                    catan_chits=_get(lay, "catan_chits", int, self.where + ".") if "catan_chits" in lay else 0,
                    setup=self.read_setup(setup_raw), kind=tuple(self.kind),
                    terrain=_frozen(self.terrain, np.int8), number_token=_frozen(self.number, np.int8),
                    cell_zone=tuple(self.zone), dealt=_frozen(self.dealt_mask(zones), bool),
                    topology=self.topo, zones=zones,
                    harbours=self.read_harbours(_get(lay, "harbours", dict, self.where + ".")),
                    robber=self.read_robber(_get(lay, "robber", dict, self.where + ".")),
                    pirate=self.read_pirate(_get(lay, "pirate", dict, self.where + ".")),
                    areas=self.read_areas(_get(lay, "areas", list, self.where + ".")),
                    markers=self.read_markers(lay.get("markers", {})))

    # ---------------------------------------------------------------------------------------- map
    def read_map(self, text: str) -> None:
        self.coords: list[tuple[int, int]] = []
        self.kind: list[str] = []
        self.terrain: list[int] = []
        self.number: list[int] = []
        self.zone: list[str] = []
        seen: dict[tuple[int, int], int] = {}
        for line_no, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0]
            if not line.strip():
                continue
            head, bar, body = line.partition("|")
            m = _ROW.fullmatch(head)
            if not bar or not m:
                raise self.err(f"map line {line_no}: expected 'r q | tokens', got '{line.strip()}'")
            r, q0 = int(m.group(1)), int(m.group(2))
            for i, tok in enumerate(body.split()):
                q = q0 + i
                where = f"map line {line_no}, hex [{q}, {r}]"
                if (q, r) in seen:
                    raise self.err(f"{where}: duplicate hex")
                seen[(q, r)] = len(self.coords)
                self.coords.append((q, r))
                self.read_token(tok, where)
        if not self.coords:
            raise self.err("the map is empty")

    def read_token(self, tok: str, where: str) -> None:
        if tok == "~~":
            self.add_cell("frame", SEA, 0, "")
            return
        m = _TOKEN.fullmatch(tok)
        if not m:
            raise self.err(f"{where}: unknown cell '{tok}' (terrain se/de/go/lu/br/wo/gr/or or ?? for fog, "
                           f"optional number, zone letter)")
        code, num, zone = m.group(1), int(m.group(2) or 0), m.group(3)
        terrain = UNKNOWN if code == "??" else TOKEN_TERRAINS[code]
        if num and num not in NUMBERS:
            raise self.err(f"{where}: '{num}' is not a number token (2-6, 8-12)")
        if num and terrain in (SEA, DESERT, UNKNOWN):
            raise self.err(f"{where}: number token on {'fog' if terrain == UNKNOWN else TERRAIN_NAMES[terrain]}")
        self.add_cell("fog" if terrain == UNKNOWN else "sea" if terrain == SEA else "land", terrain, num, zone)

    def add_cell(self, kind: str, terrain: int, number: int, zone: str) -> None:
        self.kind.append(kind)
        self.terrain.append(terrain)
        self.number.append(number)
        self.zone.append(zone)

    def check_frame_closed(self) -> None:
        for h, (q, r) in enumerate(self.coords):
            if self.kind[h] != "frame" and min(self.topo.hex_neighbours[h]) < 0:
                raise self.err(f"hex [{q}, {r}] lies on the edge of the map: surround the board with frame cells (~~)")

    # ---------------------------------------------------------------------------------------- zones
    def read_zones(self, raw: dict) -> dict[str, Zone]:
        used = {z for z in self.zone if z}
        missing = sorted(used - set(raw))
        if missing:
            raise self.err(f"zone '{missing[0]}' is used in the map but has no [zones.{missing[0]}] table")
        zones = {}
        for name, zr in raw.items():
            where = f"zones.{name}"
            if not re.fullmatch(r"[A-Z]", name):
                raise self.err(f"{where}: a zone is named by one capital letter")
            if name not in used:
                raise self.err(f"{where}: no map cell is in this zone")
            _keys(zr, {"name", "table", "deal", "terrains", "numbers"}, {"table", "deal"}, f"{self.where}.{where}.")
            deal = zr["deal"]
            if deal not in DEALS:
                raise self.err(f"{where}.deal must be one of {', '.join(DEALS)}, got '{deal}'")
            hexes = tuple(h for h, z in enumerate(self.zone) if z == name)
            zones[name] = self.zone_pools(name, where, zr, deal, hexes)
        return zones

    def zone_pools(self, name: str, where: str, zr: dict, deal: str, hexes: tuple[int, ...]) -> Zone:
        fog = [h for h in hexes if self.kind[h] == "fog"]
        if deal == "fog" and len(fog) != len(hexes):
            raise self.err(f"{where}: a fog zone holds only ?? cells")
        if deal != "fog" and fog:
            raise self.err(f"{where}: ?? cells belong in a zone with deal = \"fog\"")
        printed_t = Counter(self.terrain[h] for h in hexes)
        printed_n = Counter(self.number[h] for h in hexes if self.number[h])
        if deal == "fixed":
            if "terrains" in zr or "numbers" in zr:
                raise self.err(f"{where}: a fixed zone takes its terrains and numbers from the map")
            return Zone(name, zr.get("name", name), zr["table"], deal, hexes, dict(printed_t), dict(printed_n))
        terrains = _count_table(zr.get("terrains"), f"{where}.terrains", TERRAIN_NAMES)
        numbers = _count_table(zr.get("numbers"), f"{where}.numbers", None)
        if deal == "land" and SEA in terrains:
            raise self.err(f"{where}: deal = \"land\" keeps sea cells fixed; its pool cannot hold sea")
        dealt = [h for h in hexes if deal != "land" or self.kind[h] != "sea"]
        if sum(terrains.values()) != len(dealt):
            raise self.err(f"{where}: the terrain pool has {sum(terrains.values())} tiles for {len(dealt)} cells")
        producing = sum(c for t, c in terrains.items() if t not in (SEA, DESERT))
        if sum(numbers.values()) != producing:
            raise self.err(f"{where}: {sum(numbers.values())} number tokens for {producing} producing tiles")
        if deal != "fog":
            if Counter(self.terrain[h] for h in dealt) != Counter(terrains):
                raise self.err(f"{where}: the printed terrains of its cells differ from the pool")
            if printed_n != Counter(numbers):
                raise self.err(f"{where}: the printed numbers of its cells differ from the pool")
        for h in dealt:
            if deal == "land_and_sea":
                self.kind[h] = "slot"
        return Zone(name, zr.get("name", name), zr["table"], deal, hexes, terrains, numbers)

    def dealt_mask(self, zones: dict[str, Zone]) -> list[bool]:
        return [bool(z) and zones[z].deal != "fixed" and not (zones[z].deal == "land" and self.kind[h] == "sea")
                for h, z in enumerate(self.zone)]

    # ---------------------------------------------------------------------------------------- references
    def hex_ref(self, value, where: str) -> int:
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
            raise self.err(f"{where}: expected a hex [q, r], got {value!r}")
        try:
            return self.topo.hex_at(*value)
        except UserError as exc:
            raise self.err(f"{where}: {exc}") from None

    def corner_ref(self, value, where: str) -> int:
        return self.place_ref(value, where, "corner")

    def edge_ref(self, value, where: str) -> int:
        return self.place_ref(value, where, "edge")

    def place_ref(self, value, where: str, what: str) -> int:
        """A corner "q,r,N" or an edge "q,r,NE" of the map, touching at least one non-frame hex."""
        topo = self.topo
        pattern, lookup, in_play, names = (
            (_CORNER, topo.corner_at, topo.corner_in_play, "N|NE|SE|S|SW|NW") if what == "corner"
            else (_EDGE, topo.edge_at, topo.edge_in_play, "NE|E|SE|SW|W|NW"))
        m = pattern.fullmatch(value) if isinstance(value, str) else None
        if not m:
            raise self.err(f"{where}: expected {what} \"q,r,{names}\", got {value!r}")
        try:
            found = lookup(int(m.group(1)), int(m.group(2)), m.group(3))
        except UserError as exc:
            raise self.err(f"{where}: {exc}") from None
        if not in_play[found]:
            raise self.err(f"{where}: {what} {value} touches only frame cells")
        return found

    def is_sea(self, h: int) -> bool:
        return self.terrain[h] == SEA and self.kind[h] != "slot"

    # ---------------------------------------------------------------------------------------- harbours
    def read_harbours(self, raw: dict) -> Harbours:
        where = "harbours"
        _keys(raw, {"placement", "sites", "pool"}, {"placement"}, f"{self.where}.{where}.")
        placement = raw["placement"]
        if placement not in PLACEMENTS:
            raise self.err(f"{where}.placement must be one of {', '.join(PLACEMENTS)}, got '{placement}'")
        sites = []
        for i, s in enumerate(raw.get("sites", [])):
            w = f"{where}.sites[{i}]"
            if not isinstance(s, dict) or set(s) != {"type", "land", "sea"}:
                raise self.err(f"{w}: expected {{ type, land, sea }}")
            if s["type"] not in HARBOUR_TYPES:
                raise self.err(f"{w}: unknown harbour type '{s['type']}' (choose from {', '.join(HARBOUR_TYPES)})")
            land, sea = self.hex_ref(s["land"], w + ".land"), self.hex_ref(s["sea"], w + ".sea")
            if self.terrain[land] in (SEA, UNKNOWN):
                raise self.err(f"{w}: the land side {s['land']} is not land in the printed layout")
            if not self.is_sea(sea):
                raise self.err(f"{w}: the sea side {s['sea']} is not a sea cell")
            try:
                edge = self.topo.edge_between(land, sea)
            except UserError as exc:
                raise self.err(f"{w}: {exc}") from None
            sites.append(Harbour(s["type"], land, sea, edge))
        if placement == "players":
            if sites:
                raise self.err(f"{where}: harbours placed by the players have a pool, not sites")
            pool = _count_table(raw.get("pool"), f"{where}.pool", HARBOUR_TYPES, by_name=True)
        else:
            if "pool" in raw:
                raise self.err(f"{where}: the pool of placement '{placement}' is given by its sites")
            if not sites:
                raise self.err(f"{where}: no sites")
            pool = dict(Counter(s.type for s in sites))
        return Harbours(placement, tuple(sites), pool)

    # ---------------------------------------------------------------------------------------- robber, pirate
    def read_robber(self, raw: dict) -> PieceStart:
        where = "robber"
        _keys(raw, {"start", "hex", "quote", "note", "forbidden_zones", "return_to_start"}, {"start"},
              f"{self.where}.{where}.")
        start = raw["start"]
        forbidden = tuple(_str_list(raw.get("forbidden_zones", []), where + ".forbidden_zones"))
        for z in forbidden:
            if z not in self.zones:
                raise self.err(f"{where}.forbidden_zones: unknown zone '{z}'")
        common = dict(forbidden_zones=forbidden, return_to_start=bool(raw.get("return_to_start", True)),
                      quote=raw.get("quote", ""), note=raw.get("note", ""))
        if start in ("none", "off-board"):
            if "hex" in raw:
                raise self.err(f"{where}: start = \"{start}\" takes no hex")
            return PieceStart(start, **common)
        h = self.hex_ref(raw.get("hex"), where + ".hex")
        if start == "desert":
            if self.terrain[h] != DESERT:
                raise self.err(f"{where}: start = \"desert\" but the hex {raw['hex']} is not a desert")
            return PieceStart("desert", hex=h, **common)
        if isinstance(start, dict):
            _keys(start, {"number", "terrain"}, {"number"}, f"{self.where}.{where}.start.")
            number = start["number"]
            terrain = _terrain_name(start.get("terrain"), where + ".start.terrain") if "terrain" in start else -1
            if number not in NUMBERS or self.number[h] != number or (terrain >= 0 and self.terrain[h] != terrain):
                raise self.err(f"{where}: the hex {raw['hex']} does not carry the start {start}")
            return PieceStart("number", number=number, terrain=terrain, hex=h, **common)
        raise self.err(f"{where}.start must be \"desert\", \"none\", \"off-board\" or {{ number = n }}, got {start!r}")

    def read_pirate(self, raw: dict) -> PieceStart:
        where = "pirate"
        _keys(raw, {"start", "quote", "note", "fleet_path", "fleet_quote", "fleet_note"}, {"start"},
              f"{self.where}.{where}.")
        cited = dict(quote=raw.get("quote", ""), note=raw.get("note", ""))
        start = raw["start"]
        if start in ("none", "off-board"):
            if "fleet_path" in raw:
                raise self.err(f"{where}: a fleet path needs a start hex")
            return PieceStart(start, **cited)
        h = self.hex_ref(start, where + ".start")
        if not self.is_sea(h):
            raise self.err(f"{where}: the start {start} is not a sea cell")
        if self.kind[h] == "frame":
            raise self.err(f"{where}: the start {start} is a frame cell; the pirate starts on a sea hex inside "
                           "the frame")
        path = tuple(self.hex_ref(v, f"{where}.fleet_path[{i}]") for i, v in enumerate(raw.get("fleet_path", [])))
        if path:
            if path[0] != h:
                raise self.err(f"{where}: the fleet path must begin at the start hex")
            if len(set(path)) != len(path):
                raise self.err(f"{where}: the fleet path visits a hex twice")
            for i, a in enumerate(path):
                b = path[(i + 1) % len(path)]
                if not self.is_sea(a):
                    raise self.err(f"{where}: fleet path hex {self.coords[a]} is not sea")
                if b not in self.topo.hex_neighbours[a]:
                    raise self.err(f"{where}: fleet path hexes {list(self.coords[a])} and {list(self.coords[b])} "
                                   "are not adjacent (the path is cyclic)")
        return PieceStart("hex", hex=h, fleet_path=path, fleet_quote=raw.get("fleet_quote", ""),
                          fleet_note=raw.get("fleet_note", ""), **cited)

    # ---------------------------------------------------------------------------------------- areas
    def read_areas(self, raw: list) -> tuple[Area, ...]:
        owner: dict[int, str] = {}
        out = []
        for i, a in enumerate(raw):
            where = f"areas[{i}]"
            _keys(a, {"name", "role", "zones", "hexes", "per_island"}, {"name", "role"}, f"{self.where}.{where}.")
            if a["role"] not in ROLES:
                raise self.err(f"{where}.role must be one of {', '.join(ROLES)}, got '{a['role']}'")
            if ("zones" in a) == ("hexes" in a):
                raise self.err(f"{where}: give either zones or hexes")
            if "zones" in a:
                for z in a["zones"]:
                    if z not in self.zones:
                        raise self.err(f"{where}.zones: unknown zone '{z}'")
                hexes = [h for h, z in enumerate(self.zone) if z in a["zones"] and not self.is_sea(h)]
            else:
                hexes = [self.hex_ref(v, f"{where}.hexes[{j}]") for j, v in enumerate(a["hexes"])]
                for h in hexes:
                    if self.is_sea(h):
                        raise self.err(f"{where}: hex {list(self.coords[h])} is sea")
            for h in hexes:
                if h in owner:
                    raise self.err(f"{where}: hex {list(self.coords[h])} is already in area '{owner[h]}'")
                owner[h] = a["name"]
            out.append(Area(a["name"], a["role"], tuple(sorted(hexes)), bool(a.get("per_island", True))))
        for h in range(len(self.coords)):
            if not self.is_sea(h) and self.kind[h] != "frame" and h not in owner:
                raise self.err(f"hex {list(self.coords[h])} is in no area")
        return tuple(out)

    # ---------------------------------------------------------------------------------------- set-up rules
    def read_setup(self, raw: dict) -> SetupRules:
        _keys(raw, {"quote", "note", "start_quote", "red_adjacent_allowed", "red_adjacent_quote", "red_adjacent_note",
                    "gold_not_on", "gold_not_on_quote", "gold_not_on_note", "forbid", "settlements", "ships",
                    "ships_quote"},
              {"red_adjacent_allowed"}, "setup.")
        if not isinstance(raw["red_adjacent_allowed"], bool):
            raise UserError("setup.red_adjacent_allowed must be true or false")
        settlements = raw.get("settlements", 2)
        if settlements not in (2, 3) or isinstance(settlements, bool):
            raise UserError(f"setup.settlements must be 2 or 3, got {settlements!r}")
        ships = raw.get("ships", True)
        if not isinstance(ships, bool):
            raise UserError(f"setup.ships must be true or false, got {ships!r}")
        gold = tuple(_numbers(raw.get("gold_not_on", []), "setup.gold_not_on"))
        bans = []
        for i, f in enumerate(raw.get("forbid", [])):
            where = f"setup.forbid[{i}]"
            _keys(f, {"numbers", "hexes", "terrains", "adjacent_to", "quote", "note"}, {"numbers"}, where + ".")
            selectors = [k for k in ("hexes", "terrains", "adjacent_to") if k in f]
            if len(selectors) != 1:
                raise UserError(f"{where}: give exactly one of hexes, terrains, adjacent_to")
            nums = frozenset(_numbers(f["numbers"], where + ".numbers"))
            hexes = tuple(self.hex_ref(v, f"{where}.hexes[{j}]") for j, v in enumerate(f.get("hexes", [])))
            terrains = tuple(_terrain_name(t, where + ".terrains") for t in f.get("terrains", []))
            adjacent = _terrain_name(f["adjacent_to"], where + ".adjacent_to") if "adjacent_to" in f else -1
            bans.append(NumberBan(nums, hexes, terrains, adjacent, f.get("quote", ""), f.get("note", "")))
        text = {k: raw.get(k, "") for k in ("quote", "note", "start_quote", "red_adjacent_quote", "red_adjacent_note",
                                             "gold_not_on_quote", "gold_not_on_note", "ships_quote")}
        return SetupRules(raw["red_adjacent_allowed"], gold, tuple(bans), **text, settlements=settlements,
                          ships=ships)

    # ---------------------------------------------------------------------------------------- markers
    def read_markers(self, raw: dict) -> Markers:
        if not isinstance(raw, dict):
            raise self.err("markers must be a table")
        known = {"dev_card_edges", "vp_chit_edges", "villages", "cloth_per_village", "cloth_supply", "fortresses",
                 "fortress_strength", "slots_3_players", "wasteland_corners", "strait_corners", "no_setup_corners",
                 "wonders"}
        _keys(raw, known, set(), f"{self.where}.markers.")
        w = "markers."
        corners = {k: tuple(self.corner_ref(v, f"{w}{k}[{i}]") for i, v in enumerate(raw.get(k, [])))
                   for k in ("wasteland_corners", "strait_corners", "no_setup_corners")}
        edges = {k: tuple(self.edge_ref(v, f"{w}{k}[{i}]") for i, v in enumerate(raw.get(k, [])))
                 for k in ("dev_card_edges", "vp_chit_edges")}
        villages = []
        for i, v in enumerate(raw.get("villages", [])):
            if not isinstance(v, dict) or set(v) != {"corner", "number"} or v["number"] not in NUMBERS:
                raise self.err(f"{w}villages[{i}]: expected {{ corner, number }} with a number token")
            villages.append((self.corner_ref(v["corner"], f"{w}villages[{i}].corner"), v["number"]))
        fortresses = []
        for i, f in enumerate(raw.get("fortresses", [])):
            fw = f"{w}fortresses[{i}]"
            _keys(f, {"slot", "settlement", "ship", "colour_corner", "fortress", "lanes"},
                  {"slot", "settlement", "ship", "colour_corner", "fortress"}, f"{self.where}.{fw}.")
            fortresses.append(Fortress(f["slot"], self.corner_ref(f["settlement"], fw + ".settlement"),
                                       self.edge_ref(f["ship"], fw + ".ship"),
                                       self.corner_ref(f["colour_corner"], fw + ".colour_corner"),
                                       self.corner_ref(f["fortress"], fw + ".fortress"),
                                       tuple(self.edge_ref(e, f"{fw}.lanes[{j}]")
                                             for j, e in enumerate(f.get("lanes", [])))))
        slots = tuple(raw.get("slots_3_players", ()))
        if slots and not set(slots) <= {f.slot for f in fortresses}:
            raise self.err(f"{w}slots_3_players names a slot without a fortress")
        wonders = tuple(raw.get("wonders", ()))
        for i, x in enumerate(wonders):
            if not isinstance(x, dict) or not {"id", "requirement"} <= set(x):
                raise self.err(f"{w}wonders[{i}]: expected {{ id, name_pt, requirement }}")
            _keys(x, {"id", "name_pt", "requirement"}, set(), f"{self.where}.{w}wonders[{i}].")
        return Markers(edges["dev_card_edges"], edges["vp_chit_edges"], tuple(villages),
                       raw.get("cloth_per_village", 0), raw.get("cloth_supply", 0), tuple(fortresses),
                       raw.get("fortress_strength", 0), slots, corners["wasteland_corners"],
                       corners["strait_corners"], corners["no_setup_corners"], wonders)


# ------------------------------------------------------------------------------------------------- helpers
def _frozen(values, dtype) -> np.ndarray:
    """A read-only array: scenarios are cached and shared, so nobody may change them in place."""
    out = np.array(values, dtype)
    out.flags.writeable = False
    return out


def _keys(table: dict, allowed: set[str], required: set[str], where: str) -> None:
    if not isinstance(table, dict):
        raise UserError(f"{where.rstrip('.')} must be a table")
    for k in table:
        if k not in allowed:
            raise UserError(f"unknown key '{where}{k}'{nearest(k, allowed)}")
    for k in sorted(required):
        if k not in table:
            raise UserError(f"missing '{where}{k}'")


def _get(table: dict, key: str, typ: type, where: str):
    if key not in table:
        raise UserError(f"missing '{where}{key}'")
    value = table[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise UserError(f"'{where}{key}' must be {'a ' + typ.__name__ if typ is not list else 'a list'}")
    return value


def _str_list(value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserError(f"{where} must be a list of strings")
    return value


def _numbers(value, where: str) -> list[int]:
    if not isinstance(value, list) or any(v not in NUMBERS for v in value):
        raise UserError(f"{where} must list number tokens (2-6, 8-12), got {value!r}")
    return value


def _terrain_name(name, where: str) -> int:
    if name not in TERRAIN_NAMES:
        raise UserError(f"{where}: unknown terrain '{name}' (choose from {', '.join(TERRAIN_NAMES)})")
    return TERRAIN_NAMES.index(name)


def _count_table(value, where: str, names: tuple[str, ...] | None, by_name: bool = False) -> dict:
    """{name = count} with names from `names` (terrain names -> codes unless by_name), or {number = count}."""
    if not isinstance(value, dict):
        raise UserError(f"missing table '{where}'")
    out = {}
    for k, n in value.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise UserError(f"{where}.{k} must be a positive count, got {n!r}")
        if names is None:
            if not k.isdigit() or int(k) not in NUMBERS:
                raise UserError(f"{where}: '{k}' is not a number token (2-6, 8-12)")
            out[int(k)] = n
        elif k not in names:
            raise UserError(f"{where}: unknown {'terrain' if names is TERRAIN_NAMES else 'type'} '{k}'")
        else:
            out[k if by_name else names.index(k)] = n
    return out



# ------------------------------------------------------------------------------------------------- set-up checks
def banned_numbers(scenario: Scenario, terrain) -> dict[int, frozenset[int]]:
    """Hex -> number tokens the variable set-up forbids there, for a dealt terrain vector (gold rule included)."""
    topo, rules = scenario.topology, scenario.setup
    out: dict[int, set[int]] = {}
    for ban in rules.bans:
        for h in range(topo.n_hex):
            hit = (h in ban.hexes or terrain[h] in ban.terrains
                   or (ban.adjacent_to >= 0 and any(g >= 0 and terrain[g] == ban.adjacent_to
                                                    for g in topo.hex_neighbours[h])))
            if hit and terrain[h] not in (SEA, DESERT, UNKNOWN):
                out.setdefault(h, set()).update(ban.numbers)
    for h in range(topo.n_hex):
        if rules.gold_not_on and terrain[h] == GOLD:
            out.setdefault(h, set()).update(rules.gold_not_on)
    return {h: frozenset(v) for h, v in out.items()}


def setup_violations(scenario: Scenario, terrain, number) -> list[str]:
    """Which variable set-up constraints a dealt board breaks (slow reference for the board generator)."""
    topo = scenario.topology
    problems = []
    for h, banned in sorted(banned_numbers(scenario, terrain).items()):
        if number[h] in banned:
            problems.append(f"{number[h]} on hex {topo.coords[h].tolist()} ({TERRAIN_NAMES[terrain[h]]})")
    if not scenario.setup.red_adjacent_allowed:
        for h in range(topo.n_hex):
            for g in topo.hex_neighbours[h]:
                if h < g and number[h] in RED and number[g] in RED:
                    problems.append(f"red numbers next to each other on {topo.coords[h].tolist()} and "
                                    f"{topo.coords[g].tolist()}")
    return problems
