"""Cational Meographic rules as data: landscape types, tiles and mission cards (data/tiles.toml,
data/missions.toml, or a designer's --rules FILE), validated, with each mission's distinct rotations and
mirrors derived once, and the kernel's arrays (the mission windows around a new tile) built from them.

A bad file is one line naming the file, the entry and the problem (analyzer.errors.UserError: exit 2).
See docs/meographic/rules.md.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.io import read_data_file

ANY = 99  # a shape cell needing any tile ("*")
MAX_TYPES = 9
MAX_POINTS = 9
MAX_TILES = 200
MAX_MISSIONS = 30
MAX_CELLS = 8  # cells of one mission shape
MAX_SIDE = 5  # rows or columns of one mission shape
DEFAULT_SOURCE = "default chosen by tabletop-analyzer, see docs/meographic/rules.md"


@dataclass(frozen=True)
class Mission:
    id: str
    points: int
    shape: tuple[str, ...]  # the rows as written
    cells: tuple[tuple[int, int, int], ...]  # (row, col, type index or ANY)
    orientations: tuple[tuple[tuple[int, int, int], ...], ...]  # distinct rotations/mirrors, normalised


@dataclass(frozen=True)
class RuleSet:
    name: str
    type_codes: tuple[str, ...]
    type_names: tuple[str, ...]
    tile_type: tuple[int, ...]  # per tile id
    tile_points: tuple[int, ...]
    missions: tuple[Mission, ...]
    data: dict  # the canonical JSON-able content (a job's spec carries it)
    sources: tuple[str, ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.data, sort_keys=True).encode()).hexdigest()

    @property
    def n_types(self) -> int:
        return len(self.type_codes)

    @property
    def n_tiles(self) -> int:
        return len(self.tile_type)

    def shape_text(self, m: int) -> str:
        return " / ".join(self.missions[m].shape)

    def assumptions(self) -> list[str]:
        """What every report that depends on these data lists."""
        counts = np.bincount(self.tile_type, minlength=self.n_types)
        types = ", ".join(f"{n} ({c}, {k} tiles)" for c, n, k in zip(self.type_codes, self.type_names, counts))
        missions = "; ".join(f"{m.id} {' / '.join(m.shape)} = {m.points}" for m in self.missions)
        return [f"rule set {self.name} (sha256 {self.sha256[:12]}): " + "; ".join(self.sources),
                f"landscape types and tiles: {types}; points {min(self.tile_points)}-{max(self.tile_points)}",
                f"mission cards (shape rows / points): {missions}",
                "mission row: the card pile then columns; the half-covered card, else the pile's top card, moves one "
                "column right, covering the card there (its points a bonus of the covering card) or starting a "
                "column",
                "a player holds the hand and the explored tile and places either; the other is kept",
                "a card completed again by a later placement scores again (the seed limits it once per scoring)",
                "piles stand packed to the right, new piles start on their left; solo discards from the "
                "rightmost standing pile",
                "ties: every seat with the top score wins (shared)"]


def _fail(file: str, entry: str, problem: str):
    raise UserError(f"{file}: {entry}: {problem}")


def _whole(file, entry, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(file, entry, f"{key} must be a whole number, got {value!r}")
    if not low <= value <= high:
        _fail(file, entry, f"{key} must be {low} to {high}, got {value}")
    return value


def _table_list(file: str, raw: dict, key: str) -> list:
    items = raw.get(key)
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        _fail(file, key, f"expected one or more [[{key}]] tables")
    return items


def _parse_types(file: str, raw: dict):
    codes, names = [], []
    for i, t in enumerate(_table_list(file, raw, "types")):
        entry = f"types[{i}]"
        code = t.get("code")
        if not isinstance(code, str) or len(code) != 1 or not code.isalpha():
            _fail(file, entry, f"code must be one letter, got {code!r}")
        if code.upper() in codes:
            _fail(file, entry, f"code {code!r} is given twice")
        name = t.get("name", code)
        if not isinstance(name, str) or not name.strip():
            _fail(file, entry, f"name must be a text, got {name!r}")
        codes.append(code.upper())
        names.append(name.strip())
    if len(codes) < 3:
        _fail(file, "types", f"the supply needs 3 piles of distinct types, so at least 3 types; got {len(codes)}")
    if len(codes) > MAX_TYPES:
        _fail(file, "types", f"at most {MAX_TYPES} types, got {len(codes)}")
    return codes, names


def _parse_tiles(file: str, raw: dict, codes: list[str]):
    types, points = [], []
    for i, t in enumerate(_table_list(file, raw, "tiles")):
        entry = f"tiles[{i}]"
        code = t.get("type")
        if not isinstance(code, str) or code.upper() not in codes:
            _fail(file, entry, f"type {code!r} is not one of the types {', '.join(codes)}")
        p = _whole(file, entry, "points", t.get("points"), 0, MAX_POINTS)
        n = _whole(file, entry, "count", t.get("count", 1), 1, MAX_TILES)
        types += [codes.index(code.upper())] * n
        points += [p] * n
    if len(types) > MAX_TILES:
        _fail(file, "tiles", f"at most {MAX_TILES} tiles in all, got {len(types)}")
    return types, points


def orientations(cells) -> tuple:
    """The distinct rotations and mirrors of a shape, each normalised (smallest row and column 0, sorted)."""
    seen, out = set(), []
    for mirror in (False, True):
        for turn in range(4):
            moved = []
            for r, c, t in cells:
                if mirror:
                    c = -c
                for _ in range(turn):
                    r, c = c, -r
                moved.append((r, c, t))
            r0, c0 = min(r for r, _, _ in moved), min(c for _, c, _ in moved)
            key = tuple(sorted((r - r0, c - c0, t) for r, c, t in moved))
            if key not in seen:
                seen.add(key)
                out.append(key)
    return tuple(out)


def _connected(cells) -> bool:
    where = {(r, c) for r, c, _ in cells}
    todo, seen = [next(iter(where))], set()
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in where]
    return seen == where


def _parse_missions(file: str, raw: dict, codes: list[str]) -> list[Mission]:
    missions = []
    for i, m in enumerate(_table_list(file, raw, "missions")):
        ident = m.get("id", f"#{i + 1}")
        entry = f"missions[{i}] (id {ident})"
        if not isinstance(ident, str) or not ident.strip():
            _fail(file, entry, f"id must be a text, got {ident!r}")
        if ident in {x.id for x in missions}:
            _fail(file, entry, f"id {ident!r} is given twice")
        shape = m.get("shape")
        if not isinstance(shape, list) or not shape or not all(isinstance(row, str) and row for row in shape):
            _fail(file, entry, f"shape must be a list of rows (texts), got {shape!r}")
        if len({len(row) for row in shape}) != 1:
            _fail(file, entry, f"the shape's rows must have one length, got {[len(r) for r in shape]}")
        if len(shape) > MAX_SIDE or len(shape[0]) > MAX_SIDE:
            _fail(file, entry, f"a shape fits in {MAX_SIDE} x {MAX_SIDE}, got {len(shape)} x {len(shape[0])}")
        cells = []
        for r, row in enumerate(shape):
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch == "*":
                    cells.append((r, c, ANY))
                elif ch.upper() in codes:
                    cells.append((r, c, codes.index(ch.upper())))
                else:
                    _fail(file, entry, f"shape cell {ch!r} (row {r + 1}) is not a type ({', '.join(codes)}), "
                                       "'*' or '.'")
        if len(cells) < 2 or len(cells) > MAX_CELLS:
            _fail(file, entry, f"a shape has 2 to {MAX_CELLS} cells, got {len(cells)}")
        if not _connected(cells):
            _fail(file, entry, "the shape's cells must be edge-connected (a polyomino)")
        if all(t == ANY for _, _, t in cells):
            _fail(file, entry, "a shape needs at least one typed cell")
        points = _whole(file, entry, "points", m.get("points"), 0, 99)
        missions.append(Mission(ident, points, tuple(shape), tuple(cells), orientations(cells)))
    if len(missions) > MAX_MISSIONS:
        _fail(file, "missions", f"at most {MAX_MISSIONS} cards, got {len(missions)}")
    return missions


def _read_toml(path) -> dict:
    try:
        text = read_data_file(path).decode("utf-8")  # bounded: never /dev/zero without end
    except OSError as exc:
        raise UserError(f"--rules {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"--rules {path}: not a UTF-8 text file") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None


def _default_text(name: str) -> str:
    return resources.files("analyzer.meographic").joinpath(f"data/{name}").read_text("utf-8")


def parse_rules(parts: dict, name: str = "default") -> RuleSet:
    """A rule set from {"tiles": (file label, table), "missions": (file label, table)} (tomllib tables)."""
    tiles_file, tiles_raw = parts["tiles"]
    missions_file, missions_raw = parts["missions"]
    codes, names = _parse_types(tiles_file, tiles_raw)
    types, points = _parse_tiles(tiles_file, tiles_raw, codes)
    missions = _parse_missions(missions_file, missions_raw, codes)
    data = {"types": [{"code": c, "name": n} for c, n in zip(codes, names)],
            "tiles": [{"type": codes[t], "points": p} for t, p in zip(types, points)],
            "missions": [{"id": m.id, "shape": list(m.shape), "points": m.points} for m in missions]}
    sources = tuple(dict.fromkeys(str(raw.get("source", f"{label}: no source given"))
                                  for label, raw in (parts["tiles"], parts["missions"])))
    return RuleSet(name, tuple(codes), tuple(names), tuple(types), tuple(points), tuple(missions), data, sources)


@cache
def default_rules() -> RuleSet:
    return parse_rules({"tiles": ("analyzer/meographic/data/tiles.toml", tomllib.loads(_default_text("tiles.toml"))),
                        "missions": ("analyzer/meographic/data/missions.toml",
                                     tomllib.loads(_default_text("missions.toml")))})


def load_rules(path=None) -> RuleSet:
    """The default rule set, or `path` (a --rules FILE) whose parts (types and tiles, missions) replace the
    defaults' parts."""
    if path is None:
        return default_rules()
    raw = _read_toml(path)
    label = str(path)
    unknown = sorted(set(raw) - {"types", "tiles", "missions", "source", "name"})
    if unknown:
        raise UserError(f"{label}: {unknown[0]}: unknown key; a rules file has [[types]] with [[tiles]], "
                        "and/or [[missions]]")
    if ("types" in raw) != ("tiles" in raw):
        raise UserError(f"{label}: {'tiles' if 'types' in raw else 'types'}: missing; [[types]] and [[tiles]] "
                        "come together")
    if "tiles" not in raw and "missions" not in raw:
        raise UserError(f"{label}: no [[types]]/[[tiles]] and no [[missions]]: nothing to replace")
    parts = {"tiles": (label, raw) if "tiles" in raw else
             ("analyzer/meographic/data/tiles.toml", tomllib.loads(_default_text("tiles.toml"))),
             "missions": (label, raw) if "missions" in raw else
             ("analyzer/meographic/data/missions.toml", tomllib.loads(_default_text("missions.toml")))}
    if "source" not in raw:
        raw = {**raw, "source": f"{label} (a designer's file)"}
        parts = {k: ((label, raw) if v[0] == label else v) for k, v in parts.items()}
    return parse_rules(parts, str(raw.get("name", Path(path).stem)))


def rules_from_data(data: dict, name: str) -> RuleSet:
    """The rule set a job's spec carries (RuleSet.data), validated again on the process that plays."""
    tiles = {"types": data["types"], "tiles": [{"type": t["type"], "points": t["points"], "count": 1}
                                                for t in data["tiles"]], "source": "job spec"}
    missions = {"missions": data["missions"], "source": "job spec"}
    return parse_rules({"tiles": ("job spec", tiles), "missions": ("job spec", missions)}, name)


# --------------------------------------------------------------------------- the kernel's arrays

def mission_windows(rules: RuleSet):
    """Every way a new tile of type t can be a cell of mission m: per (m, t) a run of windows, each the other
    cells of one orientation as (dr, dc, type) relative to the new tile. Returns (win_start[M, T],
    win_count[M, T], win_len[W], win_cells[W, MAX_CELLS - 1, 3])."""
    M, T = len(rules.missions), rules.n_types
    start = np.zeros((M, T), np.int32)
    count = np.zeros((M, T), np.int32)
    lengths, cells = [], []
    for m, mission in enumerate(rules.missions):
        for t in range(T):
            start[m, t] = len(lengths)
            for orient in mission.orientations:
                for k, (r0, c0, tk) in enumerate(orient):
                    if tk != ANY and tk != t:
                        continue
                    others = [(r - r0, c - c0, ty) for j, (r, c, ty) in enumerate(orient) if j != k]
                    lengths.append(len(others))
                    cells.append(others + [(0, 0, 0)] * (MAX_CELLS - 1 - len(others)))
            count[m, t] = len(lengths) - start[m, t]
    return (start, count, np.array(lengths, np.int32).reshape(-1),
            np.array(cells, np.int32).reshape(-1, MAX_CELLS - 1, 3))
