"""`score`: read a finished board (LAYOUT.csv: row,col,tile), validate it, score it.

UTF-8 (a BOM is fine); lines end at \n, \r\n or \r; `#` lines and blank lines are skipped; rows in
messages are line numbers in the file, as for tile CSVs.
"""

import re
from pathlib import Path

import numpy as np

from analyzer.beacon.rules import load_rules
from analyzer.beacon.simulation import kernel_tiles
from analyzer.beacon.tiles import TileSet, csv_cells, split_lines
from analyzer.errors import UserError
from analyzer.rules_file import read_text
from kernels import beacon as kb

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W; row grows southwards
# A finished board spans a few hundred cells at most; the bound keeps coordinates far inside int64
# (and the digit strings short enough for int()).
MAX_COORD = 1_000_000_000
_COORD = re.compile(r"[+-]?[0-9]+")


def read_layout(path: str | Path, tiles: TileSet) -> dict:
    """-> {"row", "col", "tile"} int64 arrays; one clear UserError for any problem."""
    path = Path(path)
    text = read_text(path, "layout file")
    rows = [(lineno, csv_cells(line, f"{path.name}: row {lineno}"))
            for lineno, line in enumerate(split_lines(text), start=1)
            if line.strip() and not line.lstrip().startswith("#")]
    if not rows or [c.strip().lower() for c in rows[0][1]] != ["row", "col", "tile"]:
        raise UserError(f"{path.name}: the header must be 'row,col,tile'")
    cells: dict[tuple[int, int], int] = {}
    used: dict[int, tuple[int, int]] = {}
    for lineno, cells_txt in rows[1:]:
        where = f"{path.name}: row {lineno}"
        if len(cells_txt) != 3:
            raise UserError(f"{where}: expected 3 fields row,col,tile, got {len(cells_txt)}")
        r, c = _coordinate(cells_txt[0], where), _coordinate(cells_txt[1], where)
        tile_id = cells_txt[2].strip()
        if tile_id not in tiles.ids:
            raise UserError(f"{where}: unknown tile id {tile_id!r} (tile set {tiles.name})")
        t = tiles.index(tile_id)
        if (r, c) in cells:
            raise UserError(f"{where}: cell ({r},{c}) holds two tiles")
        if t in used:
            raise UserError(f"{where}: tile {tile_id} is used twice (also at {used[t]})")
        cells[(r, c)] = t
        used[t] = (r, c)
    check_board(cells, tiles, path.name)
    items = sorted(cells.items())
    return {"row": np.array([rc[0] for rc, _ in items], np.int64),
            "col": np.array([rc[1] for rc, _ in items], np.int64),
            "tile": np.array([t for _, t in items], np.int64)}


def _coordinate(text: str, where: str) -> int:
    """A row or col cell -> int in [-MAX_COORD, MAX_COORD]; digits are checked before int()."""
    text = text.strip()
    if not _COORD.fullmatch(text):
        raise UserError(f"{where}: row and col must be integers")
    digits = text.lstrip("+-").lstrip("0") or "0"  # leading zeros count towards int()'s limit too
    if len(digits) > len(str(MAX_COORD)) or int(digits) > MAX_COORD:
        raise UserError(f"{where}: row and col must be between -{MAX_COORD:,} and {MAX_COORD:,}")
    return -int(digits) if text.startswith("-") else int(digits)


def check_board(cells: dict, tiles: TileSet, name: str) -> None:
    """The HQ is on the board, every tile connects to it, every shared edge matches."""
    if tiles.hq not in cells.values():
        raise UserError(f"{name}: no HQ tile ({tiles.ids[tiles.hq]}) on the board")
    for (r, c), t in cells.items():
        for d, (dr, dc) in enumerate(STEPS):
            u = cells.get((r + dr, c + dc))
            if u is not None and tiles.edge_land[t, d] != tiles.edge_land[u, (d + 2) % 4]:
                raise UserError(f"{name}: edges do not match between {tiles.ids[t]} at ({r},{c}) "
                                f"and {tiles.ids[u]} at ({r + dr},{c + dc})")
    start = next(rc for rc, t in cells.items() if t == tiles.hq)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in STEPS:
            nb = (r + dr, c + dc)
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) != len(cells):
        r, c = min(set(cells) - seen)
        raise UserError(f"{name}: tile {tiles.ids[cells[(r, c)]]} at ({r},{c}) is not connected to the HQ")


def score_layout(layout: dict, tiles: TileSet, expansions: frozenset[str]) -> dict:
    """Score a validated layout -> {"total", "explored", "by_kind", "rank", ...}."""
    active = tiles.active(expansions)
    for t in layout["tile"]:
        if not active[t]:
            kind = kb.FEATURE_NAMES[tiles.feature[t]]
            raise UserError(f"tile {tiles.ids[t]} is a {kind} tile: add --expansions {kind}s to score it")
    rules = load_rules()
    cfg = rules.cfg(1, len(expansions))
    out = np.zeros(kb.N_COLS, np.int64)
    kb.score_layout(kernel_tiles(tiles), cfg, layout["row"], layout["col"], layout["tile"], out)
    col = dict(zip(kb.COLUMN_NAMES, out.tolist()))
    return {
        "total": col["score"],
        "explored": col["explored"],
        "by_kind": {
            "lighthouse": col["explored_lighthouse"], "buoy": col["explored_buoy"],
            "other": col["explored_other"], "windmill": col["explored_windmill"],
            "pier": col["explored_pier"],
        },
        "points": {
            "lighthouse": col["explored_lighthouse"] * rules.points["lighthouse"],
            "buoy": col["explored_buoy"] * rules.points["buoy"],
            "other": col["explored_other"] * rules.points["other"],
            "windmill": col["windmill_points"], "pier": col["pier_points"],
        },
        "tiles": int(layout["tile"].shape[0]),
        "rank": rules.rank_names[col["rank"]],
        "expansions": sorted(expansions),
    }
