"""Regatta: the paper-boat river race (the paper-boat regatta rulebook, Spanish). Rules as data (data/), a
pure-Python reference (reference.py) and the numba kernel (kernels/regatta/).

Python API, one function per command (analyzer/regatta/api.py documents each): `simulate(...)` ->
SimulationResult(summary, games, headline), `compare(...)` -> CompareResult(summary, games, headline); with
`out=DIR` each also writes what the command's --out writes. The names load on first use, so that importing the
registry stays light.
"""

from analyzer import lazy_names

__all__ = ["SimulationResult", "CompareResult", "simulate", "compare"]

__getattr__ = lazy_names(__name__, dict.fromkeys(__all__, "analyzer.regatta.api"))
