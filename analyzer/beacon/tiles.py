"""Beacon Patrol tile sets: load, validate, summarise and export the tile CSV.

Format (one row per physical tile, see docs/beacon/tiles.md):

    id,north,east,south,west,feature,buildings,interior,pier

Edges are `~` (water) or one letter A-Z naming the tile-local land mass on that edge; buildings
are `<letter><count>` items, at most 99 per land mass. Ids are written unquoted, so an id must not
start with `#` or contain a comma, a double quote, a control character or a line separator (it
would not read back as itself). Lines end at \n, \r\n or \r only; lines starting with `#` are
comments and are kept; blank lines are skipped. A set holds at most 1,000 tiles and must not be
able to score more than 32,767 points in one game. Every problem raises a one-line `UserError`
naming the file and the row (= line number in the file).
"""

from __future__ import annotations

import csv
import hashlib
import importlib.resources
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from analyzer.beacon.rules import load_rules
from analyzer.errors import UserError
from analyzer.rules_file import decode, nearest, read_bytes
from kernels.beacon import (
    FEATURE_BUOY,
    FEATURE_HQ,
    FEATURE_LIGHTHOUSE,
    FEATURE_NAMES,
    FEATURE_NONE,
    FEATURE_PIER,
    FEATURE_WINDMILL,
    MAX_MASSES,
)

__all__ = [
    "COLUMNS",
    "EXPANSIONS",
    "MAX_BUILDINGS",
    "MAX_TILES",
    "TileSet",
    "check_piles",
    "load_tiles",
    "parse_expansions",
    "parse_tiles",
    "split_lines",
    "summarize",
]

COLUMNS = ("id", "north", "east", "south", "west", "feature", "buildings", "interior", "pier")
EDGE_NAMES = ("north", "east", "south", "west")
EXPANSIONS = ("windmills", "piers")
# Which expansion each expansion feature belongs to; every other feature is base game (or the HQ).
_EXPANSION_OF_FEATURE = {FEATURE_WINDMILL: "windmills", FEATURE_PIER: "piers"}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_BUILDING_ITEM = re.compile(r"([A-Z])([0-9]+)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# A physical tile shows a handful of buildings; 99 keeps every count short enough to convert safely.
MAX_BUILDINGS = 99
# The kernels' int16 board cells would hold 32,767 tile ids, but the board is a square of side
# 2n + 3 (kernels.beacon.grid_size) at 4 bytes a cell: 1,000 tiles make a 16 MB board per workspace
# (one per thread; the pier flood buffer is 0.4 MB), 40,000 tiles 24 GiB. A real set has 64.
MAX_TILES = 1000
MAX_ID_LENGTH = 64  # characters: the default ids are 3
# Scores and their breakdown go into the int16 per-game table (games.parquet).
_INT16_MAX = 32767

assert len(_LETTERS) == MAX_MASSES


@dataclass(frozen=True, eq=False)
class TileSet:
    """A validated tile set as flat numpy arrays (the layout the numba kernel consumes).

    Equality compares the content (every field except `sha256`, which depends on the file's exact
    bytes), so `parse_tiles(ts.to_csv(), ts.name) == ts`.
    """

    name: str
    sha256: str
    ids: tuple[str, ...]
    edge_land: np.ndarray  # uint8 [n, 4], N,E,S,W; 1 = land
    edge_mass: np.ndarray  # int8 [n, 4]; land-mass index (A=0), -1 = water
    feature: np.ndarray  # int8 [n]; FEATURE_* codes
    mass_buildings: np.ndarray  # int16 [n, MAX_MASSES]
    interior_mask: np.ndarray  # int32 [n]; bit k = mass k touches no edge
    pier_mask: np.ndarray  # int32 [n]; bit k = pier attached to mass k
    open_sea: np.ndarray  # uint8 [n]; 1 = no land at all on the tile
    comments: tuple[str, ...]
    reconstruction: bool

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def hq(self) -> int:
        return int(np.flatnonzero(self.feature == FEATURE_HQ)[0])

    def index(self, tile_id: str) -> int:
        try:
            return self.ids.index(tile_id)
        except ValueError:
            raise UserError(f"{self.name}: unknown tile id {tile_id!r}") from None

    def active(self, expansions: Iterable[str] | str | None = ()) -> np.ndarray:
        """bool [n]: tiles in play. Base tiles and the HQ always; expansion tiles iff their expansion is on."""
        if expansions is None or isinstance(expansions, str):
            chosen = parse_expansions(expansions)
        else:
            chosen = parse_expansions(",".join(expansions))
        mask = np.ones(self.n, dtype=bool)
        for code, expansion in _EXPANSION_OF_FEATURE.items():
            if expansion not in chosen:
                mask &= self.feature != code
        return mask

    def to_csv(self) -> str:
        """Canonical text: comments, header, one row per tile (letters sorted), trailing newline.

        Fields are written unquoted: the parser only accepts ids that read back as themselves."""
        lines = [f"# {c}" if c else "#" for c in self.comments]
        lines.append(",".join(COLUMNS))
        for i, tile_id in enumerate(self.ids):
            edges = [_LETTERS[m] if m >= 0 else "~" for m in self.edge_mass[i]]
            buildings = " ".join(
                f"{_LETTERS[k]}{int(c)}" for k, c in enumerate(self.mass_buildings[i]) if c > 0
            )
            row = [
                tile_id,
                *edges,
                FEATURE_NAMES[int(self.feature[i])],
                buildings,
                _mask_letters(int(self.interior_mask[i])),
                _mask_letters(int(self.pier_mask[i])),
            ]
            lines.append(",".join(row))
        return "\n".join(lines) + "\n"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        for f in fields(self):
            if f.name == "sha256":
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray):
                if a.dtype != b.dtype or not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    def __hash__(self) -> int:
        return hash((self.name, self.ids))


def _mask_letters(mask: int) -> str:
    return "".join(_LETTERS[k] for k in range(MAX_MASSES) if mask >> k & 1)


# ---------------------------------------------------------------------------------------------
# Expansions


def parse_expansions(text: str | Iterable[str] | None) -> frozenset[str]:
    """'windmills,piers' (or the names in a list) -> frozenset; '' or None -> empty. Names are
    case-insensitive."""
    if not text:
        return frozenset()
    if not isinstance(text, str):
        if not isinstance(text, Iterable) or not all(isinstance(name, str) for name in text):
            raise UserError(f"expansions must be names like 'windmills,piers', got {text!r}")
        text = ",".join(text)
    chosen = set()
    for item in text.split(","):
        item = item.strip().lower()
        if not item:
            continue
        if item not in EXPANSIONS:
            raise UserError(f"unknown expansion {item!r}; valid: {', '.join(EXPANSIONS)}")
        chosen.add(item)
    return frozenset(chosen)


# ---------------------------------------------------------------------------------------------
# Loading and parsing


def load_tiles(path: str | Path | None = None) -> TileSet:
    """Load a tile CSV; None -> the packaged default set (name "default")."""
    if path is None:
        resource = importlib.resources.files("analyzer.beacon") / "data" / "tiles_default.csv"
        return _parse_bytes(resource.read_bytes(), "default")
    return _parse_bytes(read_bytes(path, "tiles file"), Path(path).name)


def _parse_bytes(data: bytes, name: str) -> TileSet:
    return _parse(decode(data, name), name, hashlib.sha256(data).hexdigest())


def parse_tiles(text: str, name: str) -> TileSet:
    """Parse CSV text; `sha256` is taken over its UTF-8 encoding."""
    return _parse(text, name, hashlib.sha256(text.encode("utf-8")).hexdigest())


def split_lines(text: str) -> list[str]:
    """Lines ended by \n, \r\n or \r only: str.splitlines() would also cut a row at a form feed,
    U+2028 and the like, which belong to the field they are in."""
    return _LINE_BREAK.split(text)


def csv_cells(line: str, where: str) -> list[str]:
    """One CSV line -> its fields; csv's own errors (an over-long field) as a UserError."""
    try:
        return next(csv.reader([line]))
    except csv.Error as exc:
        raise UserError(f"{where}: malformed CSV ({exc})") from None


def _parse(text: str, name: str, sha256: str) -> TileSet:
    if "\x00" in text:
        raise UserError(f"{name}: not a text file (contains NUL bytes)")

    comments: list[str] = []
    header_seen = False
    rows: list[_Row] = []
    for lineno, line in enumerate(split_lines(text), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            body = stripped[1:]
            comments.append(body[1:] if body.startswith(" ") else body)
            continue
        if not stripped:
            continue
        cells = [c.strip() for c in csv_cells(line, f"{name}: row {lineno}")]
        if not header_seen:
            _check_header(cells, name, lineno)
            header_seen = True
            continue
        rows.append(_parse_row(cells, name, lineno))

    if not header_seen:
        raise UserError(f"{name}: empty file (no header line; expected {','.join(COLUMNS)})")
    if not rows:
        raise UserError(f"{name}: no tile rows after the header")
    if len(rows) > MAX_TILES:
        raise UserError(
            f"{name}: {len(rows):,} tiles; at most {MAX_TILES:,} are supported "
            "(the simulated board grows with the square of the tile count)"
        )

    first_row_of_id: dict[str, int] = {}
    hq_row: int | None = None
    for r in rows:
        if r.id in first_row_of_id:
            raise UserError(
                f"{name}: row {r.lineno} (id {r.id}): duplicate id (first at row {first_row_of_id[r.id]})"
            )
        first_row_of_id[r.id] = r.lineno
        if r.feature == FEATURE_HQ:
            if hq_row is not None:
                raise UserError(
                    f"{name}: row {r.lineno} (id {r.id}): second hq tile (first at row {hq_row}); "
                    "exactly one is allowed"
                )
            hq_row = r.lineno
    if hq_row is None:
        raise UserError(f"{name}: no hq tile; exactly one row must have feature 'hq'")
    hq = next(r for r in rows if r.feature == FEATURE_HQ)
    if min(hq.edges) >= 0:
        raise UserError(f"{name}: row {hq.lineno} (id {hq.id}): the hq tile has land on all four edges; the ships "
                        "start on it and leave over a water edge, so it needs one")

    n = len(rows)
    edge_mass = np.array([r.edges for r in rows], dtype=np.int8).reshape(n, 4)
    mass_buildings = np.zeros((n, MAX_MASSES), dtype=np.int16)
    for i, r in enumerate(rows):
        for k, count in r.buildings.items():
            mass_buildings[i, k] = count
    interior_mask = np.array([r.interior for r in rows], dtype=np.int32)
    edge_land = (edge_mass >= 0).astype(np.uint8)
    open_sea = ((edge_land.sum(axis=1) == 0) & (interior_mask == 0)).astype(np.uint8)
    feature = np.array([r.feature for r in rows], dtype=np.int8)
    bound = _score_bound(feature, int(mass_buildings.sum()))
    if bound > _INT16_MAX:
        raise UserError(
            f"{name}: this tile set could score more than 32,767 points in one game (up to {bound:,}), "
            "which the per-game table (16-bit) cannot hold; use fewer buildings or pier tiles"
        )
    return TileSet(
        name=name,
        sha256=sha256,
        ids=tuple(r.id for r in rows),
        edge_land=edge_land,
        edge_mass=edge_mass,
        feature=feature,
        mass_buildings=mass_buildings,
        interior_mask=interior_mask,
        pier_mask=np.array([r.pier for r in rows], dtype=np.int32),
        open_sea=open_sea,
        comments=tuple(comments),
        reconstruction=any("reconstruction" in c.lower() for c in comments),
    )


def _score_bound(feature: np.ndarray, buildings: int) -> int:
    """More than any one game can score (kernels.beacon.tile_points): every tile explored, every
    windmill next to four open-sea tiles, every pier counting every building of the set (a pier's
    flood fill visits each land mass at most once)."""
    points = load_rules().points
    best = {
        FEATURE_NONE: points["other"],
        FEATURE_LIGHTHOUSE: points["lighthouse"],
        FEATURE_BUOY: points["buoy"],
        FEATURE_HQ: points["hq"],
        FEATURE_WINDMILL: points["windmill_base"] + 4,
        FEATURE_PIER: points["pier_base"] + buildings,
    }
    return sum(best[int(f)] * int((feature == f).sum()) for f in np.unique(feature))


def _id_problem(tile_id: str) -> str | None:
    """Why an id would not read back from the unquoted export as itself, or could pass for
    another id (None: neither)."""
    if tile_id.startswith("#"):
        return "must not start with '#' (the line would read as a comment)"
    if len(tile_id) > MAX_ID_LENGTH:
        return f"is {len(tile_id):,} characters long; at most {MAX_ID_LENGTH} (ids label the board drawing)"
    if unicodedata.normalize("NFC", tile_id) != tile_id:
        return "must be in Unicode NFC form (an accent written as a separate mark looks like another id)"
    for ch in tile_id:
        if ch == ",":
            return "must not contain a comma"
        if ch == '"':
            return "must not contain a double quote"
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"must not contain a control character ({ch!r})"
        if category in ("Zl", "Zp"):
            return f"must not contain a line separator ({ch!r})"
        if category == "Cf":
            return f"must not contain an invisible character ({ch!r})"
    return None


def _check_header(cells: list[str], name: str, lineno: int) -> None:
    got = [c.lower() for c in cells]
    if got == list(COLUMNS):
        return
    where = f"{name}: row {lineno} (header)"
    expected = ",".join(COLUMNS)
    for col in got:  # a misspelt column first: its message names the column meant
        if col not in COLUMNS:
            raise UserError(f"{where}: unknown column {col!r}{nearest(col, set(COLUMNS) - set(got), False)} "
                            f"(expected {expected})")
    for col in COLUMNS:
        if col not in got:
            raise UserError(f"{where}: missing column {col!r} (expected {expected})")
    raise UserError(f"{where}: columns must be {expected} in this order (any letter case), "
                    f"got {','.join(cells)}")


@dataclass
class _Row:
    lineno: int
    id: str
    edges: list[int]  # mass index per edge, -1 = water
    feature: int
    buildings: dict[int, int]
    interior: int
    pier: int


def _parse_row(cells: list[str], name: str, lineno: int) -> _Row:
    tile_id = cells[0] if cells else ""
    id_problem = _id_problem(tile_id)
    # repr() for a bad id keeps the message on one printable line.
    shown = repr(tile_id) if id_problem else tile_id
    where = f"{name}: row {lineno}" + (f" (id {shown})" if tile_id else "")

    def fail(problem: str) -> UserError:
        return UserError(f"{where}: {problem}")

    if len(cells) != len(COLUMNS):
        raise fail(f"expected {len(COLUMNS)} fields ({','.join(COLUMNS)}), got {len(cells)}")
    if not tile_id:
        raise fail("empty id")
    if id_problem:
        raise fail(f"id {id_problem}")
    _, *edge_cells, feature_cell, buildings_cell, interior_cell, pier_cell = cells

    edges = []
    for edge_name, cell in zip(EDGE_NAMES, edge_cells):
        if cell == "~":
            edges.append(-1)
        elif len(cell) == 1 and cell in _LETTERS:
            edges.append(_LETTERS.index(cell))
        else:
            raise fail(f"edge {edge_name!r} must be '~' or one letter A-Z, got {cell!r}")
    edge_masses = {m for m in edges if m >= 0}

    feature_name = feature_cell.lower()
    if feature_name not in FEATURE_NAMES:
        raise fail(f"unknown feature {feature_cell!r}; valid: {', '.join(FEATURE_NAMES)}")
    feature = FEATURE_NAMES.index(feature_name)

    interior = _parse_letters(interior_cell, "interior", fail)
    for k in _bits(interior):
        if k in edge_masses:
            raise fail(f"interior land mass {_LETTERS[k]!r} also appears on an edge")
    on_tile = edge_masses | set(_bits(interior))

    buildings: dict[int, int] = {}
    for item in buildings_cell.split():
        m = _BUILDING_ITEM.fullmatch(item)
        digits = m.group(2).lstrip("0") if m else ""
        if not digits:
            raise fail(
                f"bad buildings item {item!r}; expected <letter><count> like 'A2' (count 1-{MAX_BUILDINGS})"
            )
        # Length before int(): int() of more than 4300 digits raises instead of converting.
        if len(digits) > len(str(MAX_BUILDINGS)) or int(digits) > MAX_BUILDINGS:
            count = digits if len(digits) <= 12 else f"a {len(digits)}-digit count"
            raise fail(
                f"too many buildings on land mass {m.group(1)!r} ({count}); "
                f"at most {MAX_BUILDINGS} buildings per land mass"
            )
        k = _LETTERS.index(m.group(1))
        if k in buildings:
            raise fail(f"buildings list land mass {m.group(1)!r} twice")
        if k not in on_tile:
            raise fail(f"buildings on land mass {m.group(1)!r}, which is not on this tile")
        buildings[k] = int(digits)

    pier = _parse_letters(pier_cell, "pier", fail)
    for k in _bits(pier):
        if k not in on_tile:
            raise fail(f"pier attached to land mass {_LETTERS[k]!r}, which is not on this tile")
    if feature == FEATURE_PIER and not pier:
        raise fail("pier tile needs the letter(s) of the land mass(es) its pier is attached to")
    if feature != FEATURE_PIER and pier:
        raise fail(f"pier letters {pier_cell!r} on a tile whose feature is {feature_name!r}, not 'pier'")

    return _Row(lineno, tile_id, edges, feature, buildings, interior, pier)


def _parse_letters(cell: str, column: str, fail) -> int:
    """'AC' or 'A C' -> bitmask."""
    mask = 0
    for ch in cell.replace(" ", ""):
        if ch not in _LETTERS:
            raise fail(f"{column} must be letters A-Z, got {cell!r}")
        bit = 1 << _LETTERS.index(ch)
        if mask & bit:
            raise fail(f"{column} lists land mass {ch!r} twice")
        mask |= bit
    return mask


def _bits(mask: int) -> list[int]:
    return [k for k in range(MAX_MASSES) if mask >> k & 1]


def check_piles(tiles: TileSet, players: int, expansions, hand: int) -> None:
    """The set-up's piles from this tile set: the draw pile (every tile in play but the HQ, 'Embaralhe as demais
    peças para formar a pilha de compra') must deal each of the `players` their first `hand` tiles ('cada jogador
    compra peças ... de acordo com o número de jogadores'). One UserError line otherwise."""
    pile = int(tiles.active(expansions).sum()) - 1
    if pile < players * hand:
        chosen = sorted(parse_expansions(expansions))
        playing = f" with {', '.join(chosen)}" if chosen else " without expansions"
        raise UserError(f"{tiles.name}: the draw pile{playing} holds {pile} tile(s); {players} player(s) draw "
                        f"{hand} each at the start, {players * hand} in all")


# ---------------------------------------------------------------------------------------------
# Summary


def summarize(tiles: TileSet) -> dict:
    """JSON-able counts describing a tile set (all keys strings, all values plain Python types)."""
    feature_names = [FEATURE_NAMES[int(f)] for f in tiles.feature]
    land_edges = tiles.edge_land.sum(axis=1)
    open_sea = tiles.open_sea.astype(bool)

    by_expansion = {"hq": 0, "base": 0, **{e: 0 for e in EXPANSIONS}}
    for f in tiles.feature:
        f = int(f)
        key = "hq" if f == FEATURE_HQ else _EXPANSION_OF_FEATURE.get(f, "base")
        by_expansion[key] += 1

    patterns: dict[str, int] = {}
    for row in tiles.edge_land:
        pattern = "".join("L" if x else "~" for x in row)
        patterns[pattern] = patterns.get(pattern, 0) + 1

    return {
        "name": tiles.name,
        "sha256": tiles.sha256,
        "n": tiles.n,
        "reconstruction": bool(tiles.reconstruction),
        "by_feature": {f: feature_names.count(f) for f in FEATURE_NAMES},
        "by_expansion": by_expansion,
        "open_sea": int(open_sea.sum()),
        "open_sea_by_feature": {
            f: int(sum(1 for name, o in zip(feature_names, open_sea) if o and name == f))
            for f in FEATURE_NAMES
        },
        "land_edges": {str(k): int((land_edges == k).sum()) for k in range(5)},
        "edge_patterns": dict(sorted(patterns.items())),
        "buildings": int(tiles.mass_buildings.sum()),
        "tiles_with_buildings": int((tiles.mass_buildings.sum(axis=1) > 0).sum()),
    }
