"""Lineups: the arms a command plays and where they sit, read in one way for every game (Beacon Patrol's
policies, the Seafarers bots and entrants, the river race's and Meographic's bots), on the command line and in
the Python API.

    lineup := arm ("," arm)*                  greedy,lookahead:hole=2.5,keep=1,random
    arm    := name [":" param ("," param)*]   lookahead:hole=2.5,keep=1
    param  := key "=" number                  (or, where a registry is positional, the first value alone)

A comma followed by `key=` continues the arm before it; a comma followed by a name starts the next arm. A lineup
is one text or a list of texts (a repeated option, a Python list), each read as a lineup of its own, in order.

Seats: `per_seat` takes one arm for every seat or one per seat; `rotations` turns a seating round the table;
`one_in_each_seat` puts arm a in each seat in turn among b's; `seatings` are a tournament's (every ordering of the
entrants, or the rows of a balanced Latin square).
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Callable

from analyzer.errors import UserError

__all__ = ["MAX_ARMS", "one_arm", "one_in_each_seat", "parse_arm", "per_seat", "rotations", "seat_arms", "seatings",
           "split_arms", "williams_square"]

# Arms one comparison plays: every two are paired in the report (16 arms: 120 pairs); issue 33 found compare taking
# hundreds (100 arms: 4,950 pair lines and 2.4 GB), which is a sweep to split into runs, not one comparison
MAX_ARMS = 16
MAX_WEIGHT = 1e6  # a parameter's magnitude: larger ones only overflow products of weights into inf

_PARAMETER = re.compile(r"\s*[A-Za-z_][\w.-]*\s*=")  # key=value after a comma: continues the arm before it


def _plural(kind: str) -> str:
    return kind[:-1] + "ies" if kind.endswith("y") else kind + "s"


# --------------------------------------------------------------------------- the grammar

def parse_arm(text: str, kind: str, registry: dict, bounds: dict | None = None,
              positional: bool = False) -> tuple[object, dict[str, float]]:
    """One arm `name:key=value,...`: its registry entry (entries have `params`: ((key, default), ...)) and values.

    `name:N` sets the first parameter when positional; keys in bounds need whole numbers in [lo, hi], the others
    numbers within ±MAX_WEIGHT; a key may be given once. Returns (registry entry, {key: value}); anything wrong is
    one UserError line (an unknown name says which known one is nearest)."""
    if not isinstance(text, str):
        raise UserError(f"{kind} must be text like 'name:key=value,...', got {text!r}")
    name, _, args = text.strip().partition(":")
    spec = registry.get(name)
    if spec is None:
        close = difflib.get_close_matches(name, list(registry), n=1, cutoff=0.5)
        raise UserError(f"unknown {kind} {name!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
                        + f"; choose from {', '.join(registry)}")
    values = {key: float(default) for key, default in spec.params}
    bounds = bounds or {}
    items = [a.strip() for a in args.split(",") if a.strip()]
    given = set()
    for i, item in enumerate(items):
        key, eq, value = item.partition("=")
        if not eq and positional and i == 0 and spec.params:
            key, value = spec.params[0][0], item
        elif key not in values or not eq:
            raise UserError(f"{kind} {name}: bad parameter {item!r} (parameters: {', '.join(values) or 'none'})")
        if key in given:
            raise UserError(f"{kind} {name}: parameter {key} is given twice")
        given.add(key)
        lo, hi = bounds.get(key, (None, None))
        whole = f"a whole number from {lo} to {hi}" if lo is not None else "a number"
        try:
            number = float(value)
        except ValueError:
            raise UserError(f"{kind} {name}: parameter {key} needs {whole}, got {value!r}") from None
        if not math.isfinite(number):
            raise UserError(f"{kind} {name}: parameter {key} must be finite, got {value!r}")
        if lo is not None and (number != int(number) or not lo <= number <= hi):
            raise UserError(f"{kind} {name}: {key} must be from {lo} to {hi} (a whole number), got {value}")
        if abs(number) > MAX_WEIGHT:
            raise UserError(f"{kind} {name}: {key} must be within ±{MAX_WEIGHT:,.0f}, got {value}")
        values[key] = number
    return spec, values


def split_arms(values: str | list[str], option: str, kind: str = "arm") -> list[str]:
    """The arms' texts of a lineup: one text or a list of texts, each split at the commas that start an arm
    (`greedy,lookahead:hole=2.5,keep=1,random`: greedy, lookahead:hole=2.5,keep=1 and random). `option` and
    `kind` name the option and what it lists in errors ("--bots", "bot")."""
    texts = [values] if isinstance(values, str) else values
    if not isinstance(texts, (list, tuple)) or not all(isinstance(t, str) for t in texts):
        raise UserError(f"{option} must be a text 'a,b' or a list of texts, got {type(values).__name__} "
                        f"{values!r:.60}")
    if not texts:
        raise UserError(f"{option}: give at least one {kind}")
    out: list[str] = []
    for text in texts:
        current = None
        for item in text.split(","):
            if not item.strip():
                raise UserError(f"{option}: empty {kind} name in {text!r} (a comma with no name on one side); give "
                                "the names separated by single commas")
            if current is not None and _PARAMETER.match(item):  # (the first parameter follows a colon)
                current += ("," if ":" in current else ":") + item
            else:
                if current is not None:
                    out.append(current.strip())
                current = item
        out.append(current.strip())
    return out


def one_arm(values: str | list[str], option: str, kind: str = "arm", compare_with: str = "") -> str:
    """The text of the one arm a lineup names to play every seat; `compare_with`: the command that compares
    several, named in the error."""
    texts = split_arms(values, option, kind)
    if len(texts) != 1:
        raise UserError(f"{option} takes one {kind}, which plays every seat, not {len(texts)} ({values!r})"
                        + (f"; to compare {_plural(kind)} use {compare_with}" if compare_with else ""))
    return texts[0]


# --------------------------------------------------------------------------- seats

def per_seat(arms: list, players: int, option: str, kind: str = "arm") -> list:
    """One arm per seat from one arm for every seat or one per seat."""
    if len(arms) == 1:
        return list(arms) * players
    if len(arms) != players:
        raise UserError(f"{option} names {len(arms)} {_plural(kind)} for {players} player{'s' * (players != 1)}: "
                        f"give one for every seat or one per seat")
    return list(arms)


def seat_arms(values: str | list[str], players: int, parse: Callable, option: str, kind: str = "arm") -> list:
    """A lineup read (split_arms), one arm per seat (per_seat), each parsed by `parse` (a registry's)."""
    return [parse(text) for text in per_seat(split_arms(values, option, kind), players, option, kind)]


def rotations(seated: list, rotate: bool = True) -> list[list]:
    """The seatings played: `seated` as given, or with `rotate` every rotation round the table (rotation r: seat s
    holds seated[(s + r) % players]), so each arm sits in every seat once."""
    p = len(seated)
    return [[seated[(s + r) % p] for s in range(p)] for r in range(p if rotate else 1)]


def one_in_each_seat(a, b, players: int) -> list[list]:
    """Seatings s = 0 .. players-1: `a` in seat s, `b` in every other seat."""
    return [[a if seat == s else b for seat in range(players)] for s in range(players)]


def williams_square(n: int) -> list[tuple[int, ...]]:
    """A balanced Latin square of order n (Williams 1949): rows that put each of 0 .. n-1 once in each column
    and, over the rows, each ordered pair side by side (a directly before b) equally often: once for n even,
    twice for n odd, which needs the n rows and their n reverses."""
    first = [0]
    for k in range(1, n):  # 0, 1, n-1, 2, n-2, ...
        first.append((k + 1) // 2 if k % 2 else n - k // 2)
    rows = [tuple((x + r) % n for x in first) for r in range(n)]
    return rows + [row[::-1] for row in rows] if n % 2 else rows


def seatings(entrants: int, players: int) -> tuple[list[tuple[int, ...]], str]:
    """A tournament's seatings (each a tuple of entrant indices, one per seat) and how they were chosen: every
    ordering of the entrants when there are at most MAX_ARMS of them, else the rows of a balanced Latin square;
    with fewer entrants than seats each ordering is repeated round the table, with more the first `players` of
    each ordering play."""
    if entrants <= players:
        orders = list(itertools.permutations(range(entrants)))
    else:
        orders = list(itertools.permutations(range(entrants), players))
    how = "every ordering of the entrants"
    if len(orders) > MAX_ARMS:
        orders = williams_square(entrants)
        how = (f"the {len(orders)} rows of a balanced Latin square (Williams), not all "
               f"{math.perm(entrants, min(entrants, players)):,} orderings")
    if entrants < players:
        how += ", each repeated round the table to fill the seats"
    elif entrants > players:
        how += f", each seating the first {players} of its order"
    return [tuple(order[s % len(order)] for s in range(players)) for order in orders], how
