"""Cational Meographic rules as data: landscape types, tiles and mission cards (data/tiles.toml,
data/missions.toml, or a designer's --rules FILE), the rule switches where the seed is open (missions.toml
[options], switched with --rule NAME=VALUE), validated, with each mission's distinct rotations and mirrors
derived once, and the kernel's arrays (the mission windows around a new tile) built from them.

Every file is read strictly: a bad one is one line naming the file, the entry and the problem, an unknown key
with the nearest known one (analyzer.errors.UserError: exit 2). See docs/meographic/rules.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.provenance import data_file
from analyzer.rules_file import RuleOption, choose_options, known_keys, read_text, read_toml, rule_options

ANY = 99  # a shape cell needing any tile ("*")
MAX_TYPES = 9
MAX_POINTS = 9
MAX_TILES = 200
MAX_MISSIONS = 30
MAX_CELLS = 8  # cells of one mission shape
MAX_SIDE = 5  # rows or columns of one mission shape
MAX_PLAYERS = 4  # seats at most (the kernel's MAX_PLAYERS: its result rows hold four seats)
DEFAULT_SOURCE = "default chosen by tabletop-analyzer, see docs/meographic/rules.md"
TILES_FILE, MISSIONS_FILE = "analyzer/meographic/data/tiles.toml", "analyzer/meographic/data/missions.toml"
# the keys each table may hold: anything else is a misspelling, refused
RULES_FILE_KEYS = ("types", "tiles", "missions", "source", "name")
TILES_FILE_KEYS, MISSIONS_FILE_KEYS = ("types", "tiles", "source"), ("missions", "options", "source")
TYPE_KEYS, TILE_KEYS, MISSION_KEYS = ("code", "name"), ("type", "points", "count"), ("id", "shape", "shapes", "points")


SEAT_COLUMNS = ("score", "tile", "adjacency", "mission", "bonus", "win")


def column_names(n_missions: int, players: int = MAX_PLAYERS) -> list[str]:
    """The result columns of one game: per seat (1..players) its score and the points by source, whether it won
    (ties: every seat on the top score); how many seats share the top, the solo discards, the round in which the
    bag's last tile was drawn (0: never); per mission card how often it scored and whether it was turned up while
    a placement could still complete it. The kernel's rows hold every column of MAX_PLAYERS seats; tables keep
    the seats that play."""
    per_seat = [f"{what}_{s + 1}" for what in SEAT_COLUMNS for s in range(players)]
    return (per_seat + ["top_seats", "discarded", "bag_out"] + [f"completed_{k + 1}" for k in range(n_missions)]
            + [f"revealed_{k + 1}" for k in range(n_missions)])


@dataclass(frozen=True)
class Mission:
    id: str
    points: int
    shapes: tuple[tuple[str, ...], ...]  # each shape's rows as written ("várias formas na mesma carta")
    orientations: tuple[tuple[tuple[int, int, int], ...], ...]  # every shape's distinct rotations/mirrors

    @property
    def shape(self) -> str:
        """The shapes as one text: rows joined by " / ", several shapes by " or "."""
        return " or ".join(" / ".join(rows) for rows in self.shapes)


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
    options: dict  # {name: RuleOption} the switches where the seed is open
    values: dict  # {name: bool} their values in force
    rules_data: dict  # the file read (analyzer.provenance.data_file): {"file": its name or "packaged", "sha256"}

    @property
    def card_scores_once(self) -> bool:
        """"apenas uma vez por carta de missão fotográfica": a seat scores each card at most once a game."""
        return self.values["card_scores_once"]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.data, sort_keys=True).encode()).hexdigest()

    @property
    def n_types(self) -> int:
        return len(self.type_codes)

    @property
    def n_tiles(self) -> int:
        return len(self.tile_type)

    def changed(self) -> dict[str, bool]:
        """The switches set away from their defaults."""
        return {k: v for k, v in self.values.items() if v != self.options[k].default}

    def assumptions(self, players: int | None = None) -> list[str]:
        """What every report that depends on these data lists, from the data and switches in force; with
        `players`, only what applies to that many (the solo discard, ties)."""
        counts = np.bincount(self.tile_type, minlength=self.n_types)
        types = ", ".join(f"{n} ({c}, {k} tiles)" for c, n, k in zip(self.type_codes, self.type_names, counts))
        missions = "; ".join(f"{m.id} {m.shape} = {m.points}" for m in self.missions)
        out = [f"rule set {self.name} (sha256 {self.sha256[:12]}): " + "; ".join(self.sources),
               f"landscape types and tiles: {types}; points {min(self.tile_points)}-{max(self.tile_points)}",
               f"mission cards (shape rows / points): {missions}",
               *(self.options[k].text[v] for k, v in self.values.items()),
               "mission row: the card pile then columns; the half-covered card, else the pile's top card, moves one "
               "column right, covering the card there (its points a bonus of the covering card) or starting a "
               "column",
               "a player holds the hand and the explored tile and places either; the other is kept",
               "an empty bag (the rulebook never says it runs out): the refill stops short, so fewer than 3 piles "
               "stand and a blind draw is not offered; with no pile and no bag a player takes nothing, and one "
               "holding no tile takes no photo",
               "piles stand packed to the right, new piles start on their left"]
        if players in (None, 1):
            out.append("solo: the discard is the top tile of the rightmost standing pile")
        if players is None or players > 1:
            out.append("ties: every seat with the top score wins (shared)")
        return out


def _fail(file: str, entry: str, problem: str):
    raise UserError(f"{file}: {entry}: {problem}")


def _text(file: str, entry: str, key: str, value) -> str:
    if not isinstance(value, str) or not value.strip():
        _fail(file, entry, f"{key} must be a text, got {value!r}")
    return value.strip()


def _whole(file, entry, key, value, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(file, entry, f"{key} must be a whole number, got {value!r}")
    if not low <= value <= high:
        _fail(file, entry, f"{key} must be {low} to {high}, got {value}")
    return value


def _table_list(file: str, raw: dict, key: str, keys) -> list:
    """The [[key]] tables, each holding only `keys`."""
    items = raw.get(key)
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        _fail(file, key, f"expected one or more [[{key}]] tables, got {_kind(items)}")
    for i, item in enumerate(items):
        known_keys(file, item, keys, f"[[{key}]] {i + 1}")
    return items


def _kind(value) -> str:
    """What a wrong value is, in TOML's words."""
    if isinstance(value, list):
        return "a list of values" if value and not all(isinstance(x, dict) for x in value) else (
            "an empty list" if not value else "a list")
    return {dict: "one table ([key], not [[key]])", str: "a text", bool: "true/false", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


def _parse_types(file: str, raw: dict):
    codes, names = [], []
    for i, t in enumerate(_table_list(file, raw, "types", TYPE_KEYS)):
        entry = f"types[{i}]"
        code = t.get("code")
        if not isinstance(code, str) or len(code) != 1 or not code.isalpha() or not code.isascii():
            _fail(file, entry, f"code must be one letter A-Z, got {code!r}")
        if code.upper() in codes:
            _fail(file, entry, f"code {code!r} is given twice")
        codes.append(code.upper())
        names.append(_text(file, entry, "name", t.get("name", code)))
    if len(codes) < 3:
        _fail(file, "types", f"the supply needs 3 piles of distinct types, so at least 3 types; got {len(codes)}")
    if len(codes) > MAX_TYPES:
        _fail(file, "types", f"at most {MAX_TYPES} types, got {len(codes)}")
    return codes, names


def _parse_tiles(file: str, raw: dict, codes: list[str]):
    types, points = [], []
    for i, t in enumerate(_table_list(file, raw, "tiles", TILE_KEYS)):
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
    present = sorted(set(types))
    if len(present) < 3:  # "Continue comprando até haver 3 pilhas" of distinct types
        _fail(file, "tiles", f"the supply needs tiles of 3 distinct types to stand its 3 piles; the tiles have "
                             f"{len(present)} ({', '.join(codes[t] for t in present)})")
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


def _parse_shape(file: str, entry: str, shape, codes: list[str]) -> tuple:
    """One shape's rows (a list of texts) -> its cells (row, col, type index or ANY)."""
    if not isinstance(shape, list) or not shape or not all(isinstance(row, str) and row for row in shape):
        _fail(file, entry, f"a shape must be a list of rows (texts), got {shape!r}")
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
                _fail(file, entry, f"shape cell {ch!r} (row {r + 1}) is not a type ({', '.join(codes)}), '*' or '.'")
    if len(cells) < 2 or len(cells) > MAX_CELLS:
        _fail(file, entry, f"a shape has 2 to {MAX_CELLS} cells, got {len(cells)}")
    if not _connected(cells):
        _fail(file, entry, "the shape's cells must be edge-connected (a polyomino)")
    if all(t == ANY for _, _, t in cells):
        _fail(file, entry, "a shape needs at least one typed cell")
    return tuple(cells)


def _parse_missions(file: str, raw: dict, codes: list[str]) -> list[Mission]:
    missions = []
    for i, m in enumerate(_table_list(file, raw, "missions", MISSION_KEYS)):
        ident = m.get("id", f"#{i + 1}")
        entry = f"missions[{i}] (id {ident})"
        if not isinstance(ident, str) or not ident.strip():
            _fail(file, entry, f"id must be a text, got {ident!r}")
        if ident in {x.id for x in missions}:
            _fail(file, entry, f"id {ident!r} is given twice")
        if ("shape" in m) == ("shapes" in m):
            _fail(file, entry, "give shape = [rows] (one shape) or shapes = [[rows], [rows], ...] (several on the "
                               "card), not " + ("both" if "shape" in m else "neither"))
        if "shape" in m and not isinstance(m["shape"], list):
            _fail(file, entry, f"shape must be a list of rows (texts), got {m['shape']!r}")
        shapes = [m["shape"]] if "shape" in m else m["shapes"]
        if not isinstance(shapes, list) or not shapes or not all(isinstance(x, list) for x in shapes):
            _fail(file, entry, f"shapes must be a list of shapes, each a list of rows, got {shapes!r}")
        cells = [_parse_shape(file, entry if len(shapes) == 1 else f"{entry} shape {k + 1}", x, codes)
                 for k, x in enumerate(shapes)]
        rows = tuple(tuple(x) for x in shapes)  # (texts now: _parse_shape checked them)
        if len(set(rows)) != len(rows):
            _fail(file, entry, "a shape is given twice")
        points = _whole(file, entry, "points", m.get("points"), 0, 99)
        turns = tuple(dict.fromkeys(o for c in cells for o in orientations(c)))
        missions.append(Mission(ident, points, rows, turns))
    if len(missions) > MAX_MISSIONS:
        _fail(file, "missions", f"at most {MAX_MISSIONS} cards, got {len(missions)}")
    return missions


def _check_completable(missions_file: str, missions: list[Mission], types: list[int], codes: list[str]) -> None:
    """Every shape of every card can be laid with the set's tiles: no more cells of a type than tiles of it."""
    have = np.bincount(types, minlength=len(codes))
    for i, m in enumerate(missions):
        for k, rows in enumerate(m.shapes):
            need = [ch.upper() for row in rows for ch in row if ch not in ".*"]
            cells = sum(ch != "." for row in rows for ch in row)
            short = [c for c in dict.fromkeys(need) if need.count(c) > have[codes.index(c)]]
            which = f" shape {k + 1}" if len(m.shapes) > 1 else ""
            if short:
                c = short[0]
                _fail(missions_file, f"missions[{i}] (id {m.id}){which}", f"needs {need.count(c)} tiles of type "
                      f"{c}, the tile set has {have[codes.index(c)]}: it could never be completed")
            if cells > len(types):
                _fail(missions_file, f"missions[{i}] (id {m.id}){which}", f"needs {cells} tiles, the tile set has "
                      f"{len(types)}: it could never be completed")


def _read_toml(path, option: str) -> tuple[dict, str]:
    """The TOML of a --rules/--variant FILE and its text: a regular file of bounded size (never /dev/zero), UTF-8
    with or without a byte-order mark; errors name the option."""
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise UserError(f"{option} must be a file path (a text or a path), got {type(path).__name__} {path!r}")
    text = read_text(path, f"{option} file")
    return read_toml(path, f"{option} file", text), text


def _default_text(name: str) -> str:
    return resources.files("analyzer.meographic").joinpath(f"data/{name}").read_text("utf-8")


def _text_or(file: str, raw: dict, key: str, default: str) -> str:
    return _text(file, "the top level", key, raw[key]) if key in raw else default


def _parse_options(file: str, raw: dict) -> dict[str, RuleOption]:
    table = raw.get("options", {})
    if not isinstance(table, dict):
        _fail(file, "options", f"expected [options.NAME] tables, got {_kind(table)}")
    for key, option in table.items():
        if isinstance(option, dict):
            known_keys(file, option, ("default", "true", "false"), f"[options.{key}]")
    return rule_options(file, table)


def parse_rules(parts: dict, name: str = "default", rule=None, rules_data: dict | None = None) -> RuleSet:
    """A rule set from {"tiles": (file label, table), "missions": (file label, table), "options": (file label,
    table)} (tomllib tables), the options switched by `rule` ({name: bool} or "name=value" texts)."""
    tiles_file, tiles_raw = parts["tiles"]
    missions_file, missions_raw = parts["missions"]
    codes, names = _parse_types(tiles_file, tiles_raw)
    types, points = _parse_tiles(tiles_file, tiles_raw, codes)
    missions = _parse_missions(missions_file, missions_raw, codes)
    _check_completable(missions_file, missions, types, codes)
    options = _parse_options(*parts["options"])
    values = choose_options(options, rule)
    data = {"types": [{"code": c, "name": n} for c, n in zip(codes, names)],
            "tiles": [{"type": codes[t], "points": p} for t, p in zip(types, points)],
            "missions": [{"id": m.id, **({"shape": list(m.shapes[0])} if len(m.shapes) == 1 else
                                        {"shapes": [list(x) for x in m.shapes]}), "points": m.points}
                         for m in missions],
            "options": values}
    sources = tuple(dict.fromkeys(_text_or(label, raw, "source", f"{label}: no source given")
                                  for label, raw in (parts["tiles"], parts["missions"])))
    return RuleSet(name, tuple(codes), tuple(names), tuple(types), tuple(points), tuple(missions), data, sources,
                   options, values, rules_data or _packaged())


@cache
def _packaged() -> dict:
    """The packaged files' rules_data: the sha256 of tiles.toml's and missions.toml's bytes one after the other."""
    data = resources.files("analyzer.meographic").joinpath("data")
    return data_file(None, b"".join(data.joinpath(name).read_bytes() for name in ("tiles.toml", "missions.toml")))


@cache
def _defaults() -> dict:
    tiles, missions = tomllib.loads(_default_text("tiles.toml")), tomllib.loads(_default_text("missions.toml"))
    known_keys(TILES_FILE, tiles, TILES_FILE_KEYS, "the top level")
    known_keys(MISSIONS_FILE, missions, MISSIONS_FILE_KEYS, "the top level")
    return {"tiles": (TILES_FILE, tiles), "missions": (MISSIONS_FILE, missions), "options": (MISSIONS_FILE, missions)}


@cache
def default_rules() -> RuleSet:
    return parse_rules(_defaults())


def load_rules(path=None, rule=None, option: str = "--rules") -> RuleSet:
    """The default rule set, or `path` (a --rules FILE; `option` names it in errors, e.g. --variant) whose parts
    (types and tiles, missions) replace the defaults' parts; `rule` switches [options] ("name=value" texts, as
    --rule gives them, or {name: bool})."""
    if path is None:
        return default_rules() if rule is None else parse_rules(_defaults(), rule=rule)
    raw, text = _read_toml(path, option)
    label = str(path)
    known_keys(label, raw, RULES_FILE_KEYS, "the top level")
    if ("types" in raw) != ("tiles" in raw):
        raise UserError(f"{label}: {'tiles' if 'types' in raw else 'types'}: missing; [[types]] and [[tiles]] "
                        "come together")
    if "tiles" not in raw and "missions" not in raw:
        raise UserError(f"{label}: no [[types]]/[[tiles]] and no [[missions]]: nothing to replace")
    raw = {**raw, "source": _text_or(label, raw, "source", f"{Path(path).name} (a designer's file)")}
    name = _text_or(label, raw, "name", Path(path).stem)
    parts = {**_defaults(), **{k: (label, raw) for k in ("tiles", "missions") if k in raw}}
    return parse_rules(parts, name, rule, data_file(Path(path).name, text))


def rules_from_data(data: dict, name: str) -> RuleSet:
    """The rule set a job's spec carries (RuleSet.data), validated again on the process that plays."""
    tiles = {"types": data["types"], "tiles": [{"type": t["type"], "points": t["points"], "count": 1}
                                                for t in data["tiles"]], "source": "job spec"}
    missions = {"missions": data["missions"], "source": "job spec"}
    return parse_rules({"tiles": ("job spec", tiles), "missions": ("job spec", missions),
                        "options": _defaults()["options"]}, name, data.get("options"))


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
