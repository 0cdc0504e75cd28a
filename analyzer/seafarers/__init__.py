"""Catan: Seafarers: scenario catalog, boards, set-up balance, dice, fortress, the pirates' race and full games.

Python API, one function per command (analyzer/seafarers/api.py documents each): `catalog()`,
`run_boards(...)`, `run_balance(...)`, `run_dice(...)`, `run_fortress(...)`, `run_pirates(...)`,
`run_play(...)`, `run_tournament(...)`, `run_seats(...)`, `run_versus_catanatron(...)` (the extra .[catanatron]); those
of commands with results folders take `out=DIR` and then write what the command's --out writes. The
names load on first use, so that importing the registry stays light.
"""

from analyzer import lazy_names

__all__ = ["catalog", "run_boards", "run_balance", "run_dice", "run_fortress", "run_pirates", "run_play",
           "run_tournament", "run_seats", "run_versus_catanatron"]

__getattr__ = lazy_names(__name__, dict.fromkeys(__all__, "analyzer.seafarers.api"))
