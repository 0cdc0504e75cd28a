"""Catan: Seafarers: scenario catalog, boards, set-up balance, dice, fortress, the pirates' race and full games.

Python API, one function per command (analyzer/seafarers/api.py documents each): `catalog()`,
`run_boards(...)`, `run_balance(...)`, `run_dice(...)`, `run_fortress(...)`, `run_pirates(...)`,
`run_play(...)`, `run_tournament(...)`, `run_seats(...)`; those
of commands with results folders take `out=DIR` and then write what the command's --out writes. The
names load on first use, so that importing the registry stays light.
"""

__all__ = ["catalog", "run_boards", "run_balance", "run_dice", "run_fortress", "run_pirates", "run_play",
           "run_tournament", "run_seats"]


def __getattr__(name: str):
    if name in __all__:
        from analyzer.seafarers import api

        return getattr(api, name)
    raise AttributeError(f"module 'analyzer.seafarers' has no attribute {name!r}")
