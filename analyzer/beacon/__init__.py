"""Beacon Patrol: tile sets, rules data, policies, simulation and scoring.

Python API (mirrors the CLI): `simulate(...)` -> SimulationResult(summary, games, ...),
`compare(policies=[...], ...)` -> CompareResult(summary, games, arms), `score(layout_csv, ...)` -> breakdown dict.
"""

from analyzer.beacon.simulate import SimulationResult, simulate
from analyzer.beacon.compare import CompareResult, compare


def score(layout_csv, tiles=None, expansions=None) -> dict:
    """Score a finished board from a row,col,tile CSV (see `tabletop beacon score`)."""
    from analyzer.beacon.layout import read_layout, score_layout
    from analyzer.beacon.tiles import load_tiles, parse_expansions

    ts = load_tiles(tiles)
    return score_layout(read_layout(layout_csv, ts), ts, parse_expansions(expansions))


__all__ = ["SimulationResult", "simulate", "CompareResult", "compare", "score"]
