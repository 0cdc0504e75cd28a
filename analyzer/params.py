"""`name:key=value,...` — how every policy, heuristic and plan is chosen on the command line — and
the checks every command's whole numbers, seeds and paths share."""

import math
import numbers
from pathlib import Path

from analyzer.errors import UserError

MAX_WEIGHT = 1e6  # a weight's magnitude: larger ones only overflow products of weights into inf


def parse_named(text: str, kind: str, registry: dict, bounds: dict | None = None,
                positional: bool = False) -> tuple[object, dict[str, float]]:
    """Look `name` up in registry (entries have `params`: ((key, default), ...)) and read its values.

    `name:N` sets the first parameter when positional; keys in bounds need whole numbers in
    [lo, hi], the others numbers within ±MAX_WEIGHT; a key may be given once. Returns (registry
    entry, {key: value}); anything wrong is one UserError line."""
    if not isinstance(text, str):
        raise UserError(f"{kind} must be text like 'name:key=value,...', got {text!r}")
    name, _, args = text.strip().partition(":")
    spec = registry.get(name)
    if spec is None:
        raise UserError(f"unknown {kind} {name!r}; choose from {', '.join(registry)}")
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


def check_whole(option: str, value) -> None:
    """A whole number (int or numpy integer; not bool, not 1.5): the kernels would otherwise truncate
    a float or compile another version for it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UserError(f"{option} must be a whole number, got {value!r}")


def check_seed(seed, option: str = "--seed") -> None:
    """A seed: a whole number from 0 to 2**63-1 (the streams key on it as an int64)."""
    check_whole(option, seed)
    if not 0 <= seed < 2**63:
        raise UserError(f"{option} must be between 0 and 2**63-1, got {seed}")


def value_text(v: float) -> str:
    """A parameter value in a label: short (2.5, 4), but every digit where that is needed to tell two
    values apart (0.1234561 and 0.1234562 are two policies, so two labels)."""
    short = f"{v:g}"
    return short if float(short) == v else repr(float(v))


def path_value(text: str) -> Path:
    """A file or folder option's value (the CLI's parser): an empty one, as an unset shell variable
    gives, is refused rather than read as the current folder."""
    if not text.strip():
        import typer

        raise typer.BadParameter("an empty path; give a file or folder name")
    try:
        text.encode("utf-8")  # (a name that is not UTF-8 reaches Python as lone surrogates)
    except UnicodeEncodeError:
        import typer

        raise typer.BadParameter(f"the path {text!r} is not valid UTF-8 text; rename it") from None
    return Path(text)
