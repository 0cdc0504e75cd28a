"""Cational Meographic (seed 004): rules as data, a pure-Python reference, bots, simulate and compare.

The game's registration is analyzer/meographic/game.py (GAME); the rules as implemented and every default
where the seed is silent: docs/meographic/rules.md.

Python API (analyzer/meographic/api.py), one function per command, each returning summary, games table and
headline, and writing the command's results folder with `out=DIR`: `simulate(...)`, `compare(...)`.
"""

from analyzer import lazy_names

__all__ = ["SimulationResult", "CompareResult", "simulate", "compare"]

__getattr__ = lazy_names(__name__, dict.fromkeys(__all__, "analyzer.meographic.api"))
