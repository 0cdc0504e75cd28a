"""Beacon Patrol: tile sets, rules data, policies, simulation and scoring.

Python API (mirrors the CLI): `simulate(...)` -> SimulationResult(summary, games, ...),
`compare(policies=[...], ...)` -> CompareResult(summary, games, arms), `score(layout_csv, ...)` -> breakdown dict.
The game's registration is analyzer/beacon/game.py (GAME); the names below load on first use, so that
importing the registry stays light.
"""

from analyzer import lazy_names
from analyzer.api_args import PATH, TEXTS, checked_api

__all__ = ["SimulationResult", "simulate", "CompareResult", "compare", "score"]

_API = {"SimulationResult": "analyzer.beacon.simulation", "simulate": "analyzer.beacon.simulation",
        "CompareResult": "analyzer.beacon.comparison", "compare": "analyzer.beacon.comparison"}

__getattr__ = lazy_names(__name__, _API)


@checked_api("beacon.score", layout_csv=PATH, tiles=PATH | None, expansions=TEXTS | None)
def score(layout_csv, tiles=None, expansions=None) -> dict:
    """Score a finished board from a row,col,tile CSV (see `tabletop beacon score`)."""
    from analyzer.beacon.layout import read_layout, score_layout
    from analyzer.beacon.tiles import load_tiles, parse_expansions

    ts = load_tiles(tiles)
    return score_layout(read_layout(layout_csv, ts), ts, parse_expansions(expansions))
