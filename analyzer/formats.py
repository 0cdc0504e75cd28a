"""How numbers read in every line a user sees: the runner's estimate and refusals, the command line's notes, and
(through reports/document.py) every report. Pure string formatting with no wording of a report's own, so the core
shows its numbers as the reports do without importing the reports layer (issue 48: layers import only downward).
"""

from __future__ import annotations

import math
from typing import Any


def rate(per_second: float) -> str:
    """A speed: whole numbers from 10 up, two decimals below (one slow game is 0.80/s, not 0)."""
    return num(per_second, 0 if per_second >= 10 else 2)


def num(x: Any, digits: int = 2) -> str:
    if x is None:
        return "—"
    x = float(x)
    if not math.isfinite(x):
        return "—"
    return f"{x:,.{digits}f}"


def plural(n: int, noun: str) -> str:
    """ "1 game", "20,000 games" (nouns with a plain plural)."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
